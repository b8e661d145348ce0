#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# `make profile`: where a probe hit's instructions go. Boots the kernel
# with QEMU's gdb stub; for each probe kind of `make bench` (guest/
# profile.sh), gdb single-steps one getppid system call from the entry of
# __arm64_sys_getppid to its return, and the PCs are counted by function.
# Prints, per kind, the instructions of that call and the functions that
# took them, most first; PROFILE_TRACE=1 keeps every PC in
# $LOGS/profile.pcs.
. "$(dirname "$0")/lib.sh"

port=${PROFILE_PORT:-1234}
vmlinux=$OBJ/vmlinux
pcs=$LOGS/profile.pcs
[ -f "$vmlinux" ] || die "no $vmlinux: build the $KERNEL kernel first"
SETUP_EXTRA=gdb-multiarch "$HARNESS/setup.sh"
mkdir -p "$LOGS"

QEMU_EXTRA="-gdb tcp::$port -S" BOOT_ARGS="nokaslr" \
	"$HARNESS/boot.sh" profile 900 >"$LOGS/profile.boot" 2>&1 &
guest=$!
sleep 2

# Addresses from the symbol table: gdb's own for a function is the DWARF
# one, past the patchable entry where the entry probe sits.
addr() { ${CROSS_COMPILE}nm "$vmlinux" | awk -v s="$1" '$3 == s { print "0x" $1; exit }'; }
cat >"$LOGS/profile.gdb.py" <<PY
import gdb

out = open("$pcs", "w")
gdb.execute("set pagination off")
gdb.execute("set confirm off")
gdb.execute("target remote :$port")
mark = gdb.Breakpoint("*$(addr __arm64_sys_getpgid)", internal=True)
hit = gdb.Breakpoint("*$(addr __arm64_sys_getppid)", internal=True)
hit.enabled = False
# Entered when the task is preempted on the way: run to the return, unstepped.
preempt = {$(addr preempt_schedule_notrace), $(addr preempt_schedule)}
kind, seen = None, 0
while True:
    try:
        gdb.execute("continue", to_string=True)
    except gdb.error:
        break
    pc = int(gdb.parse_and_eval("\$pc"))
    if mark.enabled:
        # The marker's argument: regs->regs[0] of the system call.
        kind = int(gdb.parse_and_eval("*(long *)\$x0"))
        mark.enabled, hit.enabled, seen = False, True, 0
        continue
    seen += 1
    if seen < 2:
        continue    # the second call: nothing of the first's set-up left
    hit.enabled = False
    ret = int(gdb.parse_and_eval("\$x30")) & 0xffffffffffffffff  # x30 is signed
    for _ in range(50000):
        out.write("%d %x\n" % (kind, pc))
        if pc in preempt:
            back = int(gdb.parse_and_eval("\$x30")) & 0xffffffffffffffff
            gdb.execute("tbreak *%d" % back, to_string=True)
            gdb.execute("continue", to_string=True)
        else:
            gdb.execute("stepi", to_string=True)
        pc = int(gdb.parse_and_eval("\$pc"))
        if pc == ret:
            break
    out.flush()
    mark.enabled = True
out.close()
PY
gdb-multiarch -q -batch -nx "$vmlinux" -x "$LOGS/profile.gdb.py" \
	>"$LOGS/profile.gdb.log" 2>&1 || true
wait "$guest" || { tail -20 "$LOGS/profile.boot"; die "the guest failed"; }

${CROSS_COMPILE}nm -n "$vmlinux" | awk '$2 ~ /^[tTwW]$/' >"$LOGS/profile.syms"
python3 - "$pcs" "$LOGS/profile.syms" <<'PY'
import bisect, collections, sys
names = ["baseline", "(a) entry, no args", "(b) two register args",
         "(c) string deref", "(d) stepped stp", "(e) simulated bl",
         "(f) kretprobe", "(g) kprobe + kretprobe", "function tracer"]
addrs, syms = [], []
for line in open(sys.argv[2]):
    a, _, s = line.split()
    addrs.append(int(a, 16))
    syms.append(s)
runs = collections.defaultdict(list)
for line in open(sys.argv[1]):
    k, pc = line.split()
    runs[int(k)].append(int(pc, 16))
def where(pc):
    i = bisect.bisect_right(addrs, pc) - 1
    if i < 0 or pc - addrs[i] > 0x10000:
        return "[outside the image: a detour or slot]"
    return syms[i]
base = len(runs.get(0, []))
for k in sorted(runs):
    pcs = runs[k]
    by = collections.Counter(where(pc) for pc in pcs)
    extra = f", {len(pcs) - base:+d} over the baseline" if k else ""
    print(f"== {names[k] if k < len(names) else k}: {len(pcs)} instructions{extra}")
    for sym, n in by.most_common():
        print(f"  {n:6d}  {sym}")
PY
