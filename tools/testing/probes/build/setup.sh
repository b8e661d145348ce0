#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Install what the harness needs on a Debian bookworm machine. Idempotent,
# and silent when everything is already there.
. "$(dirname "$0")/../settings.sh"

# libc6-dev-arm64-cross is only recommended by the cross compiler, and
# recommends are not installed; the guest's programs need its headers.
pkgs=(gcc-aarch64-linux-gnu binutils-aarch64-linux-gnu libc6-dev-arm64-cross
      qemu-system-arm qemu-system-x86
      bc bison flex libssl-dev libelf-dev cpio dwarves
      ccache make gcc libc6-dev patch python3 xz-utils kmod)
# What one target alone needs (make profile: gdb-multiarch).
read -ra extra <<<"${SETUP_EXTRA:-}"
pkgs+=("${extra[@]}")
# TOOLCHAIN=clang's compiler is in a root of its own (clangroot.sh).
[ "$TOOLCHAIN" != clang ] || pkgs+=(debootstrap)

missing=()
for p in "${pkgs[@]}"; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'ok installed' ||
		missing+=("$p")
done
sudo=
[ "$(id -u)" -eq 0 ] || sudo=sudo
update=
# The arm64 guest's packages are arm64's.
if ! dpkg --print-foreign-architectures | grep -qx arm64; then
	say "setup: adding the arm64 architecture to dpkg"
	$sudo dpkg --add-architecture arm64
	update=yes
fi
if [ ${#missing[@]} -gt 0 ] || [ -n "$update" ]; then
	$sudo apt-get update -qq
fi
if [ ${#missing[@]} -gt 0 ]; then
	say "setup: installing ${missing[*]}"
	DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq \
		--no-install-recommends "${missing[@]}" >/dev/null
fi
[ "$TOOLCHAIN" != clang ] || "$HARNESS/build/clangroot.sh"

# The base: linux-source-$BASE_SERIES from $BASE_SUITE, downloaded with
# the harness's own sources list (settings.sh's debian_apt), never installed
# over the host: its tarball is unpacked from the package into $BASE_DEBS.
# Unpacked once; a newer point release replaces it.
if [ ! -f "$BASE_TARBALL" ] || [ ! -f "$BASE_DEBS/VERSION" ] ||
   [ -n "${SETUP_REFRESH:-}" ]; then
	say "setup: fetching linux-source-$BASE_SERIES from $BASE_SUITE"
	debian_apt update -qq >/dev/null
	mkdir -p "$BASE_DEBS"
	(cd "$BASE_DEBS" && rm -f ./*.deb &&
		debian_apt download -qq "linux-source-$BASE_SERIES/$BASE_SUITE" >/dev/null)
	deb=$(ls "$BASE_DEBS"/linux-source-"$BASE_SERIES"_*_all.deb)
	ver=$(dpkg-deb -f "$deb" Version)
	case $ver in
	"$BASE_SERIES".*) ;;
	*) die "linux-source-$BASE_SERIES is at version $ver, not $BASE_SERIES.*" ;;
	esac
	dpkg-deb --fsys-tarfile "$deb" |
		tar -xO "./usr/src/linux-source-$BASE_SERIES.tar.xz" >"$BASE_TARBALL.new"
	mv "$BASE_TARBALL.new" "$BASE_TARBALL"
	rm -f "$deb"
	echo "$ver" >"$BASE_DEBS/VERSION"
fi
want=$(cat "$BASE_DEBS/VERSION")
have=$(cat "$BUILD/base/VERSION" 2>/dev/null || true)
if [ "$want" != "$have" ] || [ ! -f "$BASE/Makefile" ]; then
	say "setup: unpacking linux-source-$BASE_SERIES $want"
	rm -rf "$BUILD/base"
	mkdir -p "$BUILD/base"
	tar -xJf "$BASE_TARBALL" -C "$BUILD/base"
	mv "$BUILD/base/linux-source-$BASE_SERIES" "$BASE"
	echo "$want" >"$BUILD/base/VERSION"
fi

# fetch_debs DIR PACKAGE...: Debian's packages (for a guest architecture,
# PACKAGE:ARCH), unpacked into one root, DIR, that the initramfs takes its
# files from; not installed over the host's own.
fetch_debs() {
	local dir=$1
	shift
	mkdir -p "$dir-debs"
	# shellcheck disable=SC2068
	(cd "$dir-debs" && rm -f ./*.deb &&
		{ apt-get download -q $@ >/dev/null 2>&1 ||
		{ apt-get update -qq && apt-get download -q $@ >/dev/null; }; })
	rm -rf "$dir"
	for deb in "$dir"-debs/*.deb; do
		dpkg-deb -x "$deb" "$dir"
	done
}

# The guests' userland, for each guest architecture: Debian's static
# busybox, and a real client of the events for the tests, trace-cmd, with
# the libraries it loads (libtraceevent parses the events' formats); and
# binutils' readelf, which ftracetest's add_remove_uprobe.tc reads the
# shell's entry point with.
TRACECMD_DEBS="trace-cmd libtraceevent1 libtraceevent1-plugin libtracefs1
	libzstd1 libc6 libgcc-s1 libctf-nobfd0 libbinutils zlib1g"
for arch in arm64 amd64; do
	case $arch in
	arm64) binutils=binutils-aarch64-linux-gnu ;;
	amd64) binutils=binutils-x86-64-linux-gnu ;;
	esac
	if [ ! -x "$BUILD/debs/$arch/busybox/bin/busybox" ]; then
		say "setup: fetching busybox-static:$arch"
		fetch_debs "$BUILD/debs/$arch/busybox" "busybox-static:$arch"
	fi
	if [ ! -x "$BUILD/debs/$arch/tracecmd/usr/bin/trace-cmd" ] ||
	   ! ls "$BUILD/debs/$arch/tracecmd/usr/bin/"*-readelf >/dev/null 2>&1; then
		say "setup: fetching trace-cmd:$arch, readelf and their libraries"
		# shellcheck disable=SC2086
		fetch_debs "$BUILD/debs/$arch/tracecmd" \
			$(for p in $TRACECMD_DEBS $binutils; do printf '%s:%s ' "$p" "$arch"; done)
	fi
done
