#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# `make check-clients`: the tools people probe with, bpftrace and perf, and
# the ftracetest tests that need a real shell, run on a Debian userland in
# the guest (guest/clients.sh, guest/clients.d/), on each kernel of KERNELS
# (series and upstream, side by side) for each guest of GUESTS (arm64).
# The kernels are FLAVOR=clients builds (config/clients.config: DWARF,
# BTF and virtio disks); the userland is userland.sh's image, built once per
# architecture and reused; the kernel's vmlinux goes to the guest on a
# second disk, for perf probe.
. "$(dirname "$0")/lib.sh"

export FLAVOR=clients
GUESTS=${GUESTS:-arm64}
KERNELS=${KERNELS:-series upstream}
out=$BUILD/check-clients
mkdir -p "$out"
rc=0

# kernel_files: an ext4 image holding the kernel's vmlinux, as perf looks
# for it (/boot/vmlinux-RELEASE), and the source file whose lines perf
# probe -L shows (src/fs/open.c); remade when the kernel is.
kernel_files() {
	local img=$KDIR/kernel-files.img dir=$KDIR/kernel-files release size
	[ "$img" -nt "$OBJ/vmlinux" ] && return
	release=$(cat "$OBJ/include/config/kernel.release")
	rm -rf "$dir" "$img"
	mkdir -p "$dir"
	ln "$OBJ/vmlinux" "$dir/vmlinux-$release"
	mkdir -p "$dir/src/fs"
	cp "$SRC/fs/open.c" "$dir/src/fs/"
	size=$(du -sm "$dir" | cut -f1)
	mke2fs -q -F -t ext4 -L kernel-files -m 0 -E root_owner=0:0 \
		-d "$dir" "$img" "$((size + size / 4 + 16))M"
	rm -rf "$dir"
}

for guest in $GUESTS; do
	for kernel in $KERNELS; do
		export GUEST=$guest KERNEL=$kernel
		KDIR=
		. "$HARNESS/lib.sh"
		results=$LOGS/clients-boot.results
		mkdir -p "$LOGS"
		: >"$results"
		if ! { "$HARNESS/assemble.sh" && "$HARNESS/build.sh" &&
		       "$HARNESS/initramfs.sh" && "$HARNESS/userland.sh" &&
		       kernel_files; } >"$LOGS/clients-prepare.log" 2>&1; then
			cat "$LOGS/clients-prepare.log" >&2
			echo "@result guest FAIL build" >>"$results"
			{ echo "@log guest build"; tail -60 "$LOGS/clients-prepare.log"; echo "@endlog"; } >>"$results"
		else
			grep -E '^(config|  CONFIG_|build:|userland:)' "$LOGS/clients-prepare.log" >&2 || true
			start=$(date +%s)
			if DISKS="$BUILD/debs/$DEB_ARCH/userland.img $KDIR/kernel-files.img" \
			   "$HARNESS/boot.sh" clients "${CHECK_TIMEOUT:-3600}" \
			   >"$LOGS/clients.out" 2>"$LOGS/clients-boot.err"; then
				echo "@result guest PASS boot-and-run" >>"$results"
			else
				echo "@result guest FAIL boot-and-run" >>"$results"
				{ echo "@log guest boot-and-run"; cat "$LOGS/clients-boot.err"
				  tail -60 "$LOGS/clients.console"; echo "@endlog"; } >>"$results"
			fi
			say "check-clients: the $guest $kernel guest ran in $(($(date +%s) - start)) s"
			# A suite that could not run at all reports nothing.
			for suite in bpftrace perf userland-ftracetest; do
				grep -q "^@result $suite " "$LOGS/clients.results" ||
					echo "@result clients FAIL $suite-reported" >>"$results"
			done
		fi
		"$HARNESS/report.py" --no-total "$guest" "$kernel" "$LOGS/clients.results" "$results" |
			tee "$out/$guest-$kernel.report" || rc=1
	done
done

# Side by side: each guest's kernels. A failure on either fails the run:
# upstream's differences are listed in `expected`.
echo
for guest in $GUESTS; do
	for kernel in $KERNELS; do
		tail -n 1 "$out/$guest-$kernel.report"
	done
done
exit $rc
