#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Install what the harness needs on a Debian bookworm machine. Idempotent,
# and silent when everything is already there.
. "$(dirname "$0")/lib.sh"

# libc6-dev-arm64-cross is only recommended by the cross compiler, and
# recommends are not installed; the guest's programs need its headers.
pkgs=(gcc-aarch64-linux-gnu binutils-aarch64-linux-gnu libc6-dev-arm64-cross
      qemu-system-arm
      linux-source-6.12 bc bison flex libssl-dev libelf-dev cpio dwarves
      ccache make gcc patch python3 xz-utils kmod)
# What one target alone needs (make profile: gdb-multiarch).
read -ra extra <<<"${SETUP_EXTRA:-}"
pkgs+=("${extra[@]}")

missing=()
for p in "${pkgs[@]}"; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'ok installed' ||
		missing+=("$p")
done
sudo=
[ "$(id -u)" -eq 0 ] || sudo=sudo
update=
# The guest's busybox is an arm64 package.
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

# Unpack the base once; a newer 6.12 point release replaces it.
want=$(dpkg-query -W -f='${Version}' linux-source-6.12)
have=$(cat "$BUILD/base/VERSION" 2>/dev/null || true)
if [ "$want" != "$have" ] || [ ! -f "$BASE/Makefile" ]; then
	say "setup: unpacking linux-source-6.12 $want"
	rm -rf "$BUILD/base"
	mkdir -p "$BUILD/base"
	tar -xJf "$BASE_TARBALL" -C "$BUILD/base"
	mv "$BUILD/base"/linux-source-6.12 "$BASE"
	echo "$want" >"$BUILD/base/VERSION"
fi

# The guest's userland: Debian's arm64 static busybox, unpacked from its
# package rather than installed over the host's own tools.
if [ ! -x "$BUILD/debs/busybox/bin/busybox" ]; then
	say "setup: fetching busybox-static:arm64"
	mkdir -p "$BUILD/debs"
	(cd "$BUILD/debs" && rm -f busybox-static_*.deb &&
		apt-get download -q busybox-static:arm64 >/dev/null 2>&1 ||
		{ apt-get update -qq && apt-get download -q busybox-static:arm64 >/dev/null; })
	rm -rf "$BUILD/debs/busybox"
	dpkg-deb -x "$BUILD"/debs/busybox-static_*.deb "$BUILD/debs/busybox"
fi

# A real client of the events for the tests: Debian's arm64 trace-cmd with
# the libraries it loads (libtraceevent parses the events' formats), unpacked
# into one root the initramfs takes its files from.
TRACECMD_DEBS="trace-cmd libtraceevent1 libtraceevent1-plugin libtracefs1
	libzstd1 libc6 libgcc-s1"
if [ ! -x "$BUILD/debs/tracecmd/usr/bin/trace-cmd" ]; then
	say "setup: fetching trace-cmd:arm64 and its libraries"
	mkdir -p "$BUILD/debs/tracecmd-debs"
	pkgs=$(for p in $TRACECMD_DEBS; do printf '%s:arm64 ' "$p"; done)
	# shellcheck disable=SC2086
	(cd "$BUILD/debs/tracecmd-debs" && rm -f ./*.deb &&
		{ apt-get download -q $pkgs >/dev/null 2>&1 ||
		{ apt-get update -qq && apt-get download -q $pkgs >/dev/null; }; })
	rm -rf "$BUILD/debs/tracecmd"
	for deb in "$BUILD"/debs/tracecmd-debs/*.deb; do
		dpkg-deb -x "$deb" "$BUILD/debs/tracecmd"
	done
fi
