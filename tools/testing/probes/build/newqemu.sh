#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# A newer qemu-system-aarch64, whose "-cpu max" has FEAT_GCS (QEMU 10.1 and
# later) and FEAT_MOPS, for the gcs test: bookworm's QEMU 7.2 has neither.
# It goes into a Debian root of its own under $BUILD/roots/qemu, leaving the
# host's packages and apt configuration as they are, and runs from the host
# through a wrapper, whose path is the one line printed:
#
#   QEMU_AARCH64=$(tools/testing/probes/build/newqemu.sh) make tests TESTS=gcs
#
# QEMU_SUITE picks the suite of the QEMU packages; the root is trixie, whose
# backports are built against it (sid's QEMU would need a sid root).
. "$(dirname "$0")/../settings.sh"

QEMU_SUITE=${QEMU_SUITE:-trixie-backports}
MIRROR=http://deb.debian.org/debian
dir=$BUILD/roots/qemu
root=$dir/root
wrapper=$dir/qemu-system-aarch64
stamp=$dir/done

# Done already, for this suite: say nothing but the path.
if [ -x "$wrapper" ] && [ "$(cat "$stamp" 2>/dev/null)" = "$QEMU_SUITE" ]; then
	echo "$wrapper"
	exit 0
fi

command -v debootstrap >/dev/null ||
	apt-get install -y -qq debootstrap >/dev/null ||
	die "newqemu: cannot install debootstrap"

mkdir -p "$dir"
rm -f "$stamp" "$wrapper"
# Nothing is ever mounted in the root (apt and QEMU's scripts do without
# /proc), but make sure before removing a half-made one: rm -rf would go
# into a mounted /proc or /dev.
if findmnt -rn -o TARGET | grep -q "^$root/"; then
	die "newqemu: something is mounted under $root; unmount it first"
fi
log=$dir/install.log
: >"$log"
if [ ! -x "$root/usr/bin/apt-get" ] || [ ! -f "$root/etc/debootstrap.done" ]; then
	rm -rf "$root"
	say "newqemu: debootstrap trixie into $root (log: $log)"
	debootstrap --variant=minbase trixie "$root" "$MIRROR" >>"$log" 2>&1 ||
		{ tail -20 "$log" >&2; die "newqemu: debootstrap failed"; }
	touch "$root/etc/debootstrap.done"
fi
# apt in the root needs the host's resolver; nothing in it may start a
# service.
cp /etc/resolv.conf "$root/etc/resolv.conf"
printf '#!/bin/sh\nexit 101\n' >"$root/usr/sbin/policy-rc.d"
chmod +x "$root/usr/sbin/policy-rc.d"
if [ "$QEMU_SUITE" != trixie ]; then
	echo "deb $MIRROR $QEMU_SUITE main" >"$root/etc/apt/sources.list.d/qemu.list"
else
	rm -f "$root/etc/apt/sources.list.d/qemu.list"
fi
say "newqemu: qemu-system-arm from $QEMU_SUITE"
{
	chroot "$root" apt-get -q update &&
	DEBIAN_FRONTEND=noninteractive chroot "$root" apt-get -q install -y \
		--no-install-recommends -t "$QEMU_SUITE" qemu-system-arm &&
	chroot "$root" apt-get clean
} >>"$log" 2>&1 || { tail -20 "$log" >&2; die "newqemu: apt-get in $root failed"; }

# The wrapper runs the root's QEMU with the root's dynamic loader and
# libraries, no chroot: the kernel, initramfs and logs stay the host's
# paths. QEMU looks for its data (firmware, ROMs, keymaps) next to
# /proc/self/exe, here the loader, then in the host's /usr/share/qemu,
# bookworm's: -L puts the root's first. Its modules' directory is compiled
# in as /usr/lib/x86_64-linux-gnu/qemu, the host's: QEMU_MODULE_DIR puts
# the root's first. (The guest loads no module; "-cpu help" and the like,
# which load them all, complain of the host's ui-opengl.so, which the root
# has not, and go on.)
cat >"$wrapper.tmp" <<EOF
#!/bin/sh
# Written by tools/testing/probes/build/newqemu.sh: $QEMU_SUITE's QEMU, run from
# its Debian root without chroot.
root='$root'
lib=\$root/usr/lib/x86_64-linux-gnu
QEMU_MODULE_DIR=\$lib/qemu exec "\$lib/ld-linux-x86-64.so.2" --library-path "\$lib" \\
	"\$root/usr/bin/qemu-system-aarch64" -L "\$root/usr/share/qemu" "\$@"
EOF
chmod +x "$wrapper.tmp"

# The options settings.sh gives the arm64 guest, and the features of "-cpu
# max" the gcs test needs: QEMU's list of the CPU's properties names
# neither, so go by the changelog, FEAT_MOPS being QEMU 8.2's and FEAT_GCS
# 10.1's (trixie has 10.0; booted, 11.1's guest shows gcs and mops among
# its /proc/cpuinfo Features).
version=$("$wrapper.tmp" --version | sed -n '1s/^QEMU emulator version \([0-9.]*\).*/\1/p')
[ -n "$version" ] || die "newqemu: $wrapper does not run: $("$wrapper.tmp" --version 2>&1 | head -3)"
case $version in
[0-9].* | 10.0.*) die "newqemu: QEMU $version from $QEMU_SUITE has no FEAT_GCS (10.1 has)" ;;
esac
"$wrapper.tmp" -M virt -cpu max,pauth-impdef=on -device virtio-serial-device \
	-nic none -display none -monitor none -serial none -S \
	-machine dumpdtb="$dir/virt.dtb" >>"$log" 2>&1 ||
	{ tail -5 "$log" >&2; die "newqemu: QEMU $version refuses the arm64 guest's options"; }
rm -f "$dir/virt.dtb"
mv "$wrapper.tmp" "$wrapper"
echo "$QEMU_SUITE" >"$stamp"
say "newqemu: QEMU $version"
echo "$wrapper"
