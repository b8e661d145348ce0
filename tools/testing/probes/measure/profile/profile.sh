#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# `make profile` and `make profile-attach`: where a kernel path's
# instructions go. Boots the kernel with QEMU's gdb stub and guest time
# counted in instructions; gdb single-steps the path on the CPU that runs
# it, and the PCs are counted by function. Prints, per stepped path, its
# instructions and the functions that took them, most first; every PC is
# kept in $LOGS/JOB.pcs.
#
# profile.sh (make profile): a probe hit. For each probe kind of `make
# bench` (profile-guest.sh), one getppid system call from the entry of
# its function (__arm64_sys_getppid, __x64_sys_getppid) to its return.
# For the uprobe kinds (arm64), the kernel's part of the exceptions of
# the second call of uprobe_loop's probed function, from the EL0 vector's
# handler to each return to user space: a stepped uprobe takes two
# exceptions, and a uretprobe two BRKs a call.
#
# profile.sh attach (make profile-attach, arm64): attaching a probe, a system
# call at a time (profile-attach-guest.sh), from the entry of the system
# call's function to the return to user space, the exit work included
# (the kprobes core arms a probe as the task returns to user space), on
# CPU 0, where perf installs the events:
#   - the 30th and the 370th perf_event_open() of a BPF program's attach
#     to 400 functions through kprobe perf events, and the two ioctl()
#     calls after each (the program's attach and the enable);
#   - the openat(), write() and close() of the 150th of 300 kprobe
#     events' enable files, when the write enables the event, when it
#     writes 1 again, and when it disables it.
. "$(dirname "$0")/../../settings.sh"

case ${1:-hits} in
hits) job=profile limit=900 ;;
attach)
	job=profile-attach limit=3000
	[ "$GUEST" = arm64 ] || die "make $job steps arm64's kernel paths"
	;;
*) die "profile.sh [attach]" ;;
esac
# The system calls' functions, and where the handler of one finds the
# marker's argument: on arm64 regs->regs[0], at byte 0 of the pt_regs in
# x0; on x86_64 regs->di, at byte 112 of those in rdi.
case $GUEST in
arm64) sys=__arm64_sys_ arg0='*(long *)$x0' ;;
x86_64) sys=__x64_sys_ arg0='*(long *)($rdi + 112)' ;;
*) die "make $job: no $GUEST" ;;
esac
port=${PROFILE_PORT:-1234}
vmlinux=$OBJ/vmlinux
pcs=$LOGS/$job.pcs
[ -f "$vmlinux" ] || die "no $vmlinux: build the $KERNEL kernel first"
SETUP_EXTRA=gdb-multiarch "$HARNESS/build/setup.sh"
mkdir -p "$LOGS"

# Guest time counted in instructions (-icount), as make bench counts it:
# in real time, the slow stepping would use a task's time slice up at
# once, and the stepped path would schedule at its first preemption point.
QEMU_EXTRA="-gdb tcp::$port -S -icount shift=0,sleep=off" BOOT_ARGS="nokaslr" \
	"$HARNESS/guest/boot.sh" "$job" "$limit" >"$LOGS/$job.boot" 2>&1 &
guest=$!
sleep 2

# Addresses from the symbol table: gdb's own for a function is the DWARF
# one, past the patchable entry where the entry probe sits.
addr() { ${CROSS_COMPILE}nm "$vmlinux" | awk -v s="$1" '$3 == s { print "0x" $1; exit }'; }

# The debugger's script: what both jobs share, then the job's own part.
common_py() {
	cat <<PY
import gdb

out = open("$pcs", "w")
gdb.execute("set pagination off")
gdb.execute("set confirm off")
gdb.execute("target remote :$port")
STOPS = []

def stop_at(where, enabled=False):
    """A breakpoint at WHERE (an address), enabled or not."""
    b = gdb.Breakpoint("*%s" % where, internal=True)
    b.enabled = enabled
    STOPS.append(b)
    return b

def reg(name):
    return int(gdb.parse_and_eval("\$" + name)) & 0xffffffffffffffff

def returns():
    """At a function's first instruction: the address it returns to, and
    its caller's SP then (arm64's link register; x86's return address on
    the stack, popped by the return)."""
    if "$GUEST" == "arm64":
        return reg("x30"), reg("sp")
    sp = reg("sp")
    return int(gdb.parse_and_eval("*(unsigned long *)%d" % sp)) & 0xffffffffffffffff, sp + 8

# Entered when the task is preempted on the way: run to the return, unstepped.
preempt = {$(addr preempt_schedule_notrace), $(addr preempt_schedule),
           $(addr schedule)}

def step(pc):
    """One instruction on; over a call into the scheduler, unstepped:
    what other tasks run meanwhile is not this path's cost."""
    if pc not in preempt:
        gdb.execute("stepi", to_string=True)
        return reg("pc")
    ret, sp = returns()
    back = gdb.Breakpoint("*%d" % ret, internal=True)
    was = [b for b in STOPS if b.enabled]
    for b in was:
        b.enabled = False
    try:
        while True:     # the same return of the same task: the same SP
            gdb.execute("continue", to_string=True)
            if reg("pc") == ret and reg("sp") == sp:
                break
    finally:
        back.delete()
        for b in was:
            b.enabled = True
    return ret

def record(tag, pcs):
    for pc in pcs:
        out.write("%s|%x\n" % (tag, pc))
    out.flush()
PY
}

hits_py() {
	cat <<PY
mark = stop_at("$(addr ${sys}getpgid)", enabled=True)
hit = stop_at("$(addr ${sys}getppid)")
# arm64's uprobe kinds: where an exception from EL0 enters C (after
# kernel_entry), with the pt_regs, whose pc is at byte 256, in x0.
if "$GUEST" == "arm64":
    el0_sync_addr = int("$(addr el0t_64_sync)", 0)
    el0_sync = stop_at(el0_sync_addr)
    el0_handler = int("$(addr el0t_64_sync_handler)", 0)
UPROBE_BRK = 0xd42000a0     # BRK #0x005, what a uprobe writes
UPROBE_KINDS, URETPROBE_KIND = range(9, 14), 12

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
    record(kind, pcs)

kind, seen = None, 0
while True:
    try:
        gdb.execute("continue", to_string=True)
        pc = reg("pc")
    except gdb.error:
        break       # the guest has powered off
    if mark.enabled:
        # The marker's argument: the system call's first (arg0, above).
        kind = int(gdb.parse_and_eval("$arg0"))
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
    ret = returns()[0]
    pcs = []
    for _ in range(50000):
        pcs.append(pc)
        pc = step(pc)
        if pc == ret:
            break
    record(kind, pcs)
    mark.enabled = True
out.close()
PY
}

attach_py() {
	cat <<PY
perf_open = stop_at("$(addr __arm64_sys_perf_event_open)")
ioctl = stop_at("$(addr __arm64_sys_ioctl)")
mark = stop_at("$(addr __arm64_sys_getpgid)")
openat = stop_at("$(addr __arm64_sys_openat)")
write = stop_at("$(addr __arm64_sys_write)")
close = stop_at("$(addr __arm64_sys_close)")
OPENS = {30: "perf open 30", 370: "perf open 370"}
MARKS = {1: "enable", 2: "enable again", 3: "disable"}
FILE = 150

def trace(tag):
    """Step from a system call function's entry back to user space (or
    for 2,000,000 instructions: a path that spins is no cost to count)."""
    pc, pcs = reg("pc"), []
    while pc >> 63 and len(pcs) < 2000000:
        pcs.append(pc)
        pc = step(pc)
    record(tag, pcs)

def next_stop(bp):
    """Run to BP's next hit, with it alone enabled."""
    bp.enabled = True
    gdb.execute("continue", to_string=True)
    bp.enabled = False

# 1. The perf opens, and the two ioctl() calls after each stepped one.
for n in range(1, max(OPENS) + 1):
    next_stop(perf_open)
    if n in OPENS:
        trace(OPENS[n] + ": perf_event_open")
        for what in ("ioctl SET_BPF", "ioctl ENABLE"):
            next_stop(ioctl)
            trace("%s: %s" % (OPENS[n], what))
# 2. The enable files: after each marker, the FILE-th file's three calls.
while MARKS:
    next_stop(mark)
    k = int(gdb.parse_and_eval("*(long *)\$x0"))   # regs->regs[0]
    if k not in MARKS:
        continue
    for _ in range(FILE):
        next_stop(openat)
    trace(MARKS[k] + ": openat")
    for name, bp in (("write", write), ("close", close)):
        next_stop(bp)
        trace("%s: %s" % (MARKS[k], name))
    del MARKS[k]
try:
    gdb.execute("continue", to_string=True)
except gdb.error:
    pass
out.close()
PY
}

{ common_py; "${1:-hits}_py"; } >"$LOGS/$job.gdb.py"
gdb-multiarch -q -batch -nx "$vmlinux" -x "$LOGS/$job.gdb.py" \
	>"$LOGS/$job.gdb.log" 2>&1 || true
wait "$guest" || { tail -20 "$LOGS/$job.boot"; die "the guest failed"; }

${CROSS_COMPILE}nm -n "$vmlinux" | awk '$2 ~ /^[tTwW]$/' >"$LOGS/profile.syms"
python3 - "$pcs" "$LOGS/profile.syms" "${1:-hits}" "$GUEST" <<'PY'
import bisect, collections, sys
arm64 = sys.argv[4] == "arm64"
# make profile's kinds, by the number profile-guest.sh gives each.
KINDS = ["baseline", "(a) entry, no args", "(b) two register args",
         "(c) string deref",
         "(d) stepped stp" if arm64 else "(d) an instruction run from a copy",
         "(e) simulated bl" if arm64 else "(e) a simulated call",
         "(f) kretprobe", "(g) kprobe + kretprobe", "function tracer",
         "(h) uprobe on a nop", "(i) uprobe on the push",
         "(j) uprobe on a ret", "(k) uretprobe", "(l) uprobe on mov x29, sp",
         "breakpoint path: (a)", "breakpoint path: @SYM:u32",
         "(p) fprobe entry", "(q) fprobe exit, an entry argument",
         "(s) a BPF kprobe program at the entry",
         "(c2) a short string deref", "(s4) a BPF fentry program",
         "(s5) a BPF fexit program",
         "(s2) a BPF kretprobe program", "(s3) a BPF kprobe_multi program"]
UPROBE_KINDS = range(9, 14)
hits = sys.argv[3] == "hits"
addrs, syms = [], []
for line in open(sys.argv[2]):
    a, _, s = line.split()
    addrs.append(int(a, 16))
    syms.append(s)
runs = collections.defaultdict(list)
for line in open(sys.argv[1]):
    tag, pc = line.rstrip("\n").split("|")
    runs[int(tag) if hits else tag].append(int(pc, 16))
def where(pc):
    i = bisect.bisect_right(addrs, pc) - 1
    if i < 0 or pc - addrs[i] > 0x10000:
        return "[outside the image: a detour or slot]"
    return syms[i]
base = len(runs.get(0, []))
for tag in (sorted(runs) if hits else runs):
    pcs = runs[tag]
    by = collections.Counter(where(pc) for pc in pcs)
    name, extra = tag, ""
    if hits:
        name = KINDS[tag] if tag < len(KINDS) else tag
        # A uprobe kind's kernel instructions are all over the unprobed loop.
        if tag and tag not in UPROBE_KINDS:
            extra = f", {len(pcs) - base:+d} over the baseline"
    print(f"== {name}: {len(pcs)} instructions{extra}")
    for sym, n in (by.most_common() if hits else by.most_common(25)):
        print(f"  {n:6d}  {sym}")
PY
