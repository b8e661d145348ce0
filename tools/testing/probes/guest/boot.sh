#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Boot a kernel under QEMU and run one guest job.
#   boot.sh JOB [TIMEOUT]   JOB is a guest job (/harness/JOB.sh: a file
#                           NAME-guest.sh, see initramfs.sh) or "shell" for an
#                           interactive guest; BOOT_ARGS are
#                           added to the kernel command line, QEMU_EXTRA to
#                           QEMU's; BOOT_IMAGE is a kernel image to boot
#                           other than the tree's.
# The console goes to stdout and $LOGS/JOB.console; what the job reports on
# hvc0 goes to $LOGS/JOB.results. A guest that oopses, panics, stalls or
# outlives TIMEOUT is a failure, with its console log kept.
. "$(dirname "$0")/../settings.sh"

job=$1
limit=${2:-1800}
image=${BOOT_IMAGE:-$OBJ/$IMAGE}
[ -f "$image" ] || die "no $image: build the $GUEST $KERNEL kernel first"
mkdir -p "$LOGS"
console=$LOGS/$job.console
results=$LOGS/$job.results
rm -f "$console" "$results"

qemu=("${QEMU[@]}" -smp "${SMP:-2}" -m 2G -nic none
      -no-reboot -kernel "$image" -initrd "$KDIR/initramfs.cpio"
      -chardev "file,id=results,path=$results" -device virtconsole,chardev=results
      ${QEMU_EXTRA:-})
# An interactive guest has the Debian userland and its kernel's files,
# once clients.sh has made them (make check-clients, or make check).
if [ -z "${DISKS+set}" ] && [ "$job" = shell ]; then
	for disk in "$BUILD/debs/$DEB_ARCH/userland.img" "$KDIR/kernel-files.img"; do
		if [ -f "$disk" ]; then
			DISKS="${DISKS:+$DISKS }$disk"
		fi
	done
fi
n=0
for disk in ${DISKS:-}; do
	[ -f "$disk" ] || die "no disk image $disk"
	qemu+=(-drive "file=$disk,if=none,format=raw,snapshot=on,id=disk$n"
	       -device "$BLK_DEVICE,drive=disk$n")
	n=$((n + 1))
done
append="console=$CONSOLE panic=-1 softlockup_panic=0 $GUEST_ARGS harness=$job ${BOOT_ARGS:-}"

if [ "$job" = shell ]; then
	exec "${qemu[@]}" -nographic -append "$append"
fi

# A guest still running a little before its limit is asked, through
# QEMU's QMP socket, where each vCPU is (vcpus.py): a kernel stopped with
# its interrupts masked prints nothing that could tell.
qmp=${TMPDIR:-/tmp}/probes-qmp.$$
vcpus=$LOGS/$job.vcpus
rm -f "$qmp" "$vcpus"
qemu+=(-qmp "unix:$qmp,server=on,wait=off")
map=$OBJ/System.map
[ -z "${BOOT_IMAGE:-}" ] || map=$(dirname "$image")/System.map
wait_s=$((limit > 60 ? limit - 20 : limit * 2 / 3))
(sleep "$wait_s" && "$HARNESS/guest/vcpus.py" "$qmp" "$map" >"$vcpus" 2>&1) \
	</dev/null >/dev/null 2>&1 &
watch=$!

set +e
timeout -k 5 "$limit" "${qemu[@]}" -display none -monitor none -serial stdio \
	-append "$append quiet" </dev/null 2>&1 | tee "$console"
rc=${PIPESTATUS[0]}
set -e
pkill -P "$watch" sleep 2>/dev/null || true
kill "$watch" 2>/dev/null || true
rm -f "$qmp"

# The guest's own dmesg (at the end of the results) sees messages that the
# quiet console does not print.
problems=$(cat "$console" "$results" 2>/dev/null | grep -E \
	'Internal error:|Oops|BUG:|UBSAN:|Kernel panic|WARNING:|Unable to handle kernel|rcu: INFO:|detected stalls|soft lockup|blocked for more than|Call [Tt]race:|general protection fault|invalid opcode:' |
	sort -u | head -20 || true)
if [ "$rc" -eq 124 ] || [ "$rc" -eq 137 ]; then
	say "boot: the guest did not finish within $limit s; console log: $console"
	if [ -s "$vcpus" ]; then
		say "boot: its vCPUs $wait_s s after the start ($vcpus):"
		sed 's/^/  /' "$vcpus" >&2
	fi
	exit 1
fi
if ! grep -q '^harness: end' "$results" 2>/dev/null; then
	say "boot: the guest stopped before its job ended (qemu exit $rc); console log: $console"
	exit 1
fi
if [ -n "$problems" ]; then
	say "boot: the kernel reported problems; console log: $console"
	printf '  %s\n' "$problems" >&2
	exit 1
fi
