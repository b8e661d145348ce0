#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Install what the harness needs on a Debian bookworm machine. Idempotent,
# and silent when everything is already there.
. "$(dirname "$0")/lib.sh"

pkgs=(gcc-aarch64-linux-gnu binutils-aarch64-linux-gnu qemu-system-arm
      linux-source-6.12 bc bison flex libssl-dev libelf-dev cpio dwarves
      ccache make gcc python3 xz-utils)

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
