#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# `make profile`: where a probe hit's instructions go. Boots the kernel
# with QEMU's gdb stub; for each probe kind of `make bench` (guest/
# profile.sh), gdb single-steps one getppid system call from the entry of
# __arm64_sys_getppid to its return, and the PCs are counted by function.
# For the uprobe kinds (arm64), it steps the kernel through the
# exceptions of the second call of uprobe_loop's probed function, from
# the EL0 vector's handler to each return to user space: a stepped
# uprobe takes two exceptions, and a uretprobe two BRKs a call. Prints,
# per kind, the instructions of that call and the functions that took
# them, most first; PROFILE_TRACE=1 keeps every PC in $LOGS/profile.pcs.
. "$(dirname "$0")/../../settings.sh"

port=${PROFILE_PORT:-1234}
vmlinux=$OBJ/vmlinux
pcs=$LOGS/profile.pcs
[ -f "$vmlinux" ] || die "no $vmlinux: build the $KERNEL kernel first"
SETUP_EXTRA=gdb-multiarch "$HARNESS/build/setup.sh"
mkdir -p "$LOGS"

# Guest time counted in instructions (-icount), as make bench counts it:
# in real time, the slow stepping would use a task's time slice up at
# once, and the stepped path would schedule at its first preemption point.
QEMU_EXTRA="-gdb tcp::$port -S -icount shift=0,sleep=off" BOOT_ARGS="nokaslr" \
	"$HARNESS/guest/boot.sh" profile 900 >"$LOGS/profile.boot" 2>&1 &
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
preempt = {$(addr preempt_schedule_notrace), $(addr preempt_schedule),
           $(addr schedule)}
# Where an exception from EL0 enters C (after kernel_entry), with the
# pt_regs, whose pc is at byte 256, in x0.
el0_sync_addr = $(addr el0t_64_sync)
el0_sync = gdb.Breakpoint("*%d" % el0_sync_addr, internal=True)
el0_sync.enabled = False
el0_handler = $(addr el0t_64_sync_handler)
UPROBE_BRK = 0xd42000a0     # BRK #0x005, what a uprobe writes
UPROBE_KINDS, URETPROBE_KIND = range(9, 14), 12

def reg(name):
    return int(gdb.parse_and_eval("\$" + name)) & 0xffffffffffffffff

def step(pc):
    """One instruction on; over a call into the scheduler, unstepped:
    what other tasks run meanwhile is not this hit's cost."""
    if pc not in preempt:
        gdb.execute("stepi", to_string=True)
        return reg("pc")
    ret, sp = reg("x30"), reg("sp")
    back = gdb.Breakpoint("*%d" % ret, internal=True)
    was = el0_sync.enabled
    el0_sync.enabled = False
    try:
        while True:     # the same return of the same task: the same SP
            gdb.execute("continue", to_string=True)
            if reg("pc") == ret and reg("sp") == sp:
                break
    finally:
        back.delete()
        el0_sync.enabled = was
    return ret

def user_insn(addr):
    """The instruction at a user address; None where the task has no page
    (an instruction abort)."""
    try:
        return int(gdb.parse_and_eval("*(unsigned int *)%d" % addr)) & 0xffffffff
    except gdb.error:
        return None

def uprobe_kind(kind):
    """Step the exceptions of the second call to the probed function: the
    first sets the task's uprobe state up, and the end of the last is no
    BRK."""
    per_call = 2 if kind == URETPROBE_KIND else 1
    brks, pcs = 0, []
    # Other tasks' getpgid() (the shell's job control) is no marker here.
    mark.enabled = False
    el0_sync.enabled = True
    while brks <= 2 * per_call:
        gdb.execute("continue", to_string=True)
        pc, entry = reg("pc"), []
        if pc != el0_sync_addr:
            raise gdb.error("kind %d: %d of its BRKs, stopped at %x" % (kind, brks, pc))
        while pc != el0_handler and len(entry) < 1000:
            entry.append(pc)
            pc = step(pc)
        regs_pc = int(gdb.parse_and_eval("*(unsigned long *)(\$x0 + 256)"))
        brks += user_insn(regs_pc) == UPROBE_BRK
        if brks <= per_call or brks > 2 * per_call:
            continue
        pcs += entry
        for _ in range(50000):
            pcs.append(pc)
            pc = step(pc)
            if not pc >> 63:
                break
    el0_sync.enabled = False
    mark.enabled = True
    for pc in pcs:
        out.write("%d %x\n" % (kind, pc))
    out.flush()

kind, seen = None, 0
while True:
    try:
        gdb.execute("continue", to_string=True)
        pc = reg("pc")
    except gdb.error:
        break       # the guest has powered off
    if mark.enabled:
        # The marker's argument: regs->regs[0] of the system call.
        kind = int(gdb.parse_and_eval("*(long *)\$x0"))
        if kind in UPROBE_KINDS:
            try:
                uprobe_kind(kind)
            except gdb.error as e:
                print("profile: %s" % e)
                break
            continue
        mark.enabled, hit.enabled, seen = False, True, 0
        continue
    seen += 1
    if seen < 2:
        continue    # the second call: nothing of the first's set-up left
    hit.enabled = False
    ret = int(gdb.parse_and_eval("\$x30")) & 0xffffffffffffffff  # x30 is signed
    for _ in range(50000):
        out.write("%d %x\n" % (kind, pc))
        pc = step(pc)
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
         "(f) kretprobe", "(g) kprobe + kretprobe", "function tracer",
         "(h) uprobe on a nop", "(i) uprobe on the push",
         "(j) uprobe on a ret", "(k) uretprobe", "(l) uprobe on mov x29, sp",
         "breakpoint path: (a)", "breakpoint path: @SYM:u32",
         "(p) fprobe entry", "(q) fprobe exit, an entry argument",
         "(s) a BPF kprobe program at the entry",
         "(c2) a short string deref"]
UPROBE_KINDS = range(9, 14)
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
    # A uprobe kind's kernel instructions are all over the unprobed loop.
    extra = f", {len(pcs) - base:+d} over the baseline" if k and k not in UPROBE_KINDS else ""
    print(f"== {names[k] if k < len(names) else k}: {len(pcs)} instructions{extra}")
    for sym, n in by.most_common():
        print(f"  {n:6d}  {sym}")
PY
