#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# `make bench`: boot the upstream and the series kernel, one after the
# other, under QEMU -icount shift=0,sleep=off, and measure the extra guest
# instructions each probe kind costs per hit of a getppid loop, the
# function tracer's cost on the same function (the floor), the time to
# define, enable, disable and delete 1000 probes (enabling and disabling
# by the group's file and by each event's, as perf does) and BENCH_SCALE
# probes (default 10000, 0 for none), and the kernel memory a defined
# probe takes at both counts. Each kernel is then booted again to count the
# exceptions a hit of each kind takes. Prints a table, series/upstream
# ratios last.
#
# BENCH_REFS="REF..." adds the series as it was at each git REF, built and
# booted in the same run (its timed pass only), so that a change is
# measured against the tree before it and against upstream in one run:
# cross-run figures move with the base's and QEMU's versions.
. "$(dirname "$0")/../../settings.sh"

n=${BENCH_N:-20000}
# The probes defined, enabled, disabled and deleted at scale (0: none).
scale=${BENCH_SCALE:-10000}
# The exceptions pass's calls per kind: its counts are exact, not timed.
exc_n=${BENCH_EXC_N:-2000}
out=$BUILD/bench
mkdir -p "$out"

# exceptions KERNEL: count the exceptions of each kind's hits, by class.
# Under -icount an exception costs only the instructions of its handlers;
# on hardware each also drains the pipeline, a cost the timed pass cannot
# show. So the guest runs each kind's loop once more, untimed, between
# two marker SVCs whose immediate numbers the kind (progs/getppid_loop.c),
# and QEMU logs every exception the guest takes (-d int) to a FIFO, where
# a reader counts those of the loop's CPU between its markers: the log,
# tens of MB, never reaches the disk. A separate boot, so that the timed
# pass runs as it did without the log.
exceptions() {
	local k=$1 fifo=$out/$1.int reader rc=0
	# The markers are arm64's SVCs, the log's format QEMU's for arm.
	# Elsewhere only what the timed pass saw of the optimizer.
	if [ "$GUEST" != arm64 ]; then
		grep '^@optimized ' "$out/$k.txt" >"$out/$k.exc" || true
		return
	fi
	rm -f "$fifo"
	mkfifo "$fifo"
	python3 - "$fifo" >"$out/$k.exc" <<'PY' &
import collections, re, sys
# Asynchronous exceptions, whose ESR QEMU logs stale: IRQ, FIQ, their
# virtual kinds, SError and NMIs; counted apart, as they come with time.
ASYNC = {5, 6, 14, 15, 24, 26, 27, 28}
CLASSES = {0x3c: "brk", 0x32: "step", 0x33: "step", 0x15: "svc",
           0x20: "abort", 0x21: "abort", 0x24: "abort", 0x25: "abort",
           0x30: "hwbp", 0x31: "hwbp", 0x34: "watch", 0x35: "watch",
           0x00: "undef"}
taking = re.compile(r"Taking exception (\d+) \[([^]]*)\] on CPU (\d+)")
esr = re.compile(r"\.\.\.with ESR 0x([0-9a-f]+)/0x([0-9a-f]+)")
windows, pending = {}, None  # CPU: (kind, counts); the exception awaiting its ESR

def count(cpu, cls):
    if cpu in windows:
        windows[cpu][1][cls] += 1

with open(sys.argv[1], errors="replace") as log:
    for line in log:
        m = taking.match(line)
        if m:
            if pending:  # no ESR logged: an exception internal to QEMU
                count(pending[1], pending[0])
            pending = None
            excp, cpu = int(m[1]), int(m[3])
            if excp in ASYNC:
                count(cpu, "async")
            else:
                pending = (m[2].replace(" ", "_"), cpu)
            continue
        m = esr.match(line)
        if not m or not pending:
            continue
        ec, syn, cpu = int(m[1], 16), int(m[2], 16), pending[1]
        pending = None
        imm = syn & 0xffff
        # A marker: SVC #(0x100 + kind) opens the kind's loop on its CPU,
        # SVC #(0x200 + kind) closes it; neither is counted.
        if ec == 0x15 and 0x100 <= imm < 0x300:
            kind = imm & 0xff
            if imm < 0x200:
                windows[cpu] = (kind, collections.Counter())
            elif windows.get(cpu, (None,))[0] == kind:
                for cls, c in sorted(windows.pop(cpu)[1].items()):
                    print(f"@exc {kind} {cls} {c}")
                print(f"@exc {kind} end 1", flush=True)
            else:
                print(f"@error exceptions: marker {imm:#x} on CPU {cpu} ends no loop")
            continue
        count(cpu, CLASSES.get(ec, f"ec{ec:#x}"))
PY
	reader=$!
	QEMU_EXTRA="-icount shift=0,sleep=off -d int -D $fifo" \
		BOOT_ARGS="bench_pass=exceptions bench_exc_n=$exc_n" \
		KERNEL=$k "$HARNESS/guest/boot.sh" bench 1800 >"$out/$k.exc.boot" 2>&1 || rc=$?
	# A QEMU that never opened the FIFO leaves the reader blocked in its
	# open(): open the other end once, which the reader sees as the end.
	python3 -c 'import os, sys; os.close(os.open(sys.argv[1], os.O_WRONLY | os.O_NONBLOCK))' \
		"$fifo" 2>/dev/null || true
	wait "$reader" || rc=1
	rm -f "$fifo"
	[ "$rc" -eq 0 ] ||
		{ tail -20 "$out/$k.exc.boot"; die "the $k kernel's exceptions run failed"; }
	tr -d '\r' <"$BUILD/$GUEST/$k/logs/bench.results" | grep '^@' >>"$out/$k.exc"
}

# timed NAME [ENV...]: build and boot a kernel for the timed pass; its
# results go to $out/NAME.txt. ENV sets which kernel (KERNEL, and for an
# earlier series TOP and KDIR).
timed() {
	local k=$1 logs
	shift
	say "bench: the $k kernel"
	env "$@" "$HARNESS/build/assemble.sh"
	env "$@" "$HARNESS/build/build.sh" >/dev/null
	env "$@" "$HARNESS/build/initramfs.sh"
	env "$@" QEMU_EXTRA="-icount shift=0,sleep=off" BOOT_ARGS="bench_n=$n bench_scale=$scale" \
		"$HARNESS/guest/boot.sh" bench 5400 >"$out/$k.boot" 2>&1 ||
		{ tail -20 "$out/$k.boot"; die "the $k kernel's bench run failed"; }
	logs=$(env "$@" bash -c '. "$1/settings.sh"; echo "$LOGS"' - "$HARNESS")
	tr -d '\r' <"$logs/bench.results" | grep '^@' >"$out/$k.txt"
}

for k in ${BENCH_KERNELS:-upstream series}; do
	timed "$k" KERNEL="$k"
	say "bench: the $k kernel's exceptions"
	exceptions "$k"
done

# Each earlier series: the tree at REF checked out in a worktree of its
# own (its manifest, patches and kernel files; the harness stays this
# one), built in its own directory, where ccache finds most objects.
refs=()
for ref in ${BENCH_REFS:-}; do
	rev=$(git -C "$TOP" rev-parse --short=12 "$ref^{commit}") ||
		die "BENCH_REFS: $ref is no commit"
	wt=$BUILD/refs/$rev
	if [ ! -d "$wt" ]; then
		git -C "$TOP" worktree prune
		git -C "$TOP" worktree add -q --detach "$wt" "$rev"
	fi
	timed "series-$rev" TOP="$wt" BUILD="$BUILD" KERNEL=series \
		KDIR="$BUILD/$GUEST/series-$rev"
	refs+=("$ref=$out/series-$rev.txt")
done

python3 - "$out/upstream.txt" "$out/series.txt" "$n" "$exc_n" \
	"$out/upstream.exc" "$out/series.exc" "$GUEST" <<'PY'
import collections, sys
def load(path):
    d = {}
    for line in open(path):
        f = line.split()
        if len(f) == 3 and f[0] in ("@bench", "@reg"):
            d[(f[0], f[1])] = int(f[2])
        elif len(f) == 2 and f[0] in ("@mem", "@objects"):
            d[(f[0], "")] = int(f[1])
        elif len(f) == 4 and f[0] == "@whits" and f[2].isdigit():
            d[(f[0], f[1])] = int(f[2]) / int(f[3])
        elif len(f) == 2 and f[0] in ("@memscale-", "@objectsscale-"):
            d[(f[0][:-6], "scale-")] = int(f[1])
        elif f and f[0] == "@error":
            print("error:", line.strip())
    return d
def load_exc(path):
    """{kind: Counter of classes}, {kind: "optimized/probes"}"""
    ids, counts, opt = {}, {}, {}
    for line in open(path):
        f = line.split()
        if len(f) == 4 and f[0] == "@exc":
            counts.setdefault(f[1], collections.Counter())[f[2]] += int(f[3])
        elif len(f) == 3 and f[0] == "@excname":
            ids[f[1]] = f[2]
        elif len(f) == 3 and f[0] == "@optimized":
            opt[f[1]] = f[2]
        elif f and f[0] == "@error":
            print("error:", line.strip())
    return {ids[i]: c for i, c in counts.items() if i in ids and c["end"]}, opt
up, se, n, en = load(sys.argv[1]), load(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])
(uexc, uopt), (sexc, sopt) = (load_exc(p) for p in sys.argv[5:7])
guest = sys.argv[7]
def num(v):
    v = round(v, 2) + 0.0  # no "-0"
    return f"{v:.2f}".rstrip("0").rstrip(".")
def exc(counts, key, base):
    """A hit's exceptions by class, beyond the unprobed loop's: "3 (2 brk, 1 step)"."""
    if key not in counts or base not in counts:
        return "-"
    per = {c: (counts[key][c] - counts[base][c]) / en
           for c in set(counts[key]) | set(counts[base]) if c not in ("async", "end")}
    parts = [f"{num(v)} {c}" for c, v in sorted(per.items()) if num(v) != "0"]
    total = num(sum(per.values()))
    return total if not parts else parts[0] if len(parts) == 1 else f"{total} ({', '.join(parts)})"
def cost(d, key, base):
    return (d[("@bench", key)] - d[("@bench", base)]) / n
arm64 = guest == "arm64"
names = {
    "a": "(a) entry probe, no args", "b": "(b) two register args",
    "c": "(c) a string deref",
    "d": "(d) on a stepped stp" if arm64 else "(d) on an instruction run from a copy",
    "e": "(e) on a simulated bl" if arm64 else "(e) on a simulated call",
    "f": "(f) kretprobe",
    "g": "(g) kprobe + kretprobe", "c2": "(c2) a short string deref",
    "m": "(m) $current->pid", "n": "(n) this_cpu_read(@runqueues)",
    "o": "(o) a typecast chain of three accesses",
    "p": "(p) fprobe entry event", "q": "(q) fprobe exit event, an entry argument",
    "r": "(r) (c) into two instances",
    "s": "(s) a BPF kprobe program at the entry",
    "s2": "(s2) a BPF kretprobe program",
    "s3": "(s3) a BPF kprobe_multi program",
    "s4": "(s4) a BPF fentry program (trampoline)",
    "s5": "(s5) a BPF fexit program (trampoline)",
    "ftrace": "function tracer (the floor)",
}
print(f"getppid loop, instructions per call: upstream {up[('@bench','baseline')] / n:.0f}, "
      f"series {se[('@bench','baseline')] / n:.0f}")
# The breakpoint path: the kprobe kinds with optimization off; a kernel
# without an optimizer (upstream arm64 6.12) measured only its ordinary
# numbers, which are its breakpoint path's.
bp_col = "breakpoint path: upstream | series | series/upstream | exceptions per hit (upstream / series)"
print(f"| extra instructions per hit | upstream | series | series/upstream | exceptions per hit (upstream / series) | {bp_col} |")
print("| --- | --- | --- | --- | --- | --- | --- | --- | --- |")
def bpkey(d, key):
    return "bp-" + key if ("@bench", "bp-" + key) in d else key
dearer = []
for key, label in names.items():
    if ("@bench", key) not in up or ("@bench", key) not in se:
        continue
    u, s = cost(up, key, "baseline"), cost(se, key, "baseline")
    row = (f"| {label} | {u:.0f} | {s:.0f} | {s / u:.2f} | "
           f"{exc(uexc, key, 'baseline')} / {exc(sexc, key, 'baseline')} |")
    # No kprobe there: the function tracer, kprobe_multi's fprobe and the
    # BPF trampoline have no breakpoint path.
    if key in ("ftrace", "s3", "s4", "s5"):
        row += " - | - | - | - |"
    else:
        ub, sb = bpkey(up, key), bpkey(se, key)
        u, s = cost(up, ub, "baseline"), cost(se, sb, "baseline")
        row += (f" {u:.0f} | {s:.0f} | {s / u:.2f} | "
                f"{exc(uexc, ub, 'baseline')} / {exc(sexc, sb, 'baseline')} |")
        if s > u:
            dearer.append(label)
    print(row)
# (w) a watchpoint event, the series' alone: a hit's cost is a call's
# extra over the hits a call made (wprobe_profile's count over the calls).
if ("@bench", "w") in se and se.get(("@whits", "w")):
    per_call = se[("@whits", "w")]
    s = cost(se, "w", "baseline") / per_call
    print(f"| (w) a watchpoint hit ({num(per_call)} a getppid call) | - | {s:.0f} | - | "
          f"- / {exc(sexc, 'w', 'baseline')} | - | - | - | - |")
# The uprobe kinds, each against the unprobed uprobe_loop (arm64 only).
unames = {
    "h": "(h) uprobe on a nop", "i": "(i) uprobe on the push stp x29, x30",
    "j": "(j) uprobe on a ret", "k": "(k) uretprobe",
    "l": "(l) uprobe on mov x29, sp",
}
if ("@bench", "ubase") in up and ("@bench", "ubase") in se:
    for key, label in unames.items():
        if ("@bench", key) not in up or ("@bench", key) not in se:
            continue
        u, s = cost(up, key, "ubase"), cost(se, key, "ubase")
        print(f"| {label} | {u:.0f} | {s:.0f} | {s / u:.2f} | "
              f"{exc(uexc, key, 'ubase')} / {exc(sexc, key, 'ubase')} | - | - | - | - |")
steps = (("define", "define"), ("enable", "enable, the group's file"),
         ("lookup-each", "each event's enable file looked up, the first time (eventfs makes it)"),
         ("enable-each", "enable, each event's file"),
         ("enable-each-again", "each event's file again, already enabled"),
         ("disable", "disable, the group's file"),
         ("disable-each", "disable, each event's file"), ("delete", "delete"),
         ("perf-attach", "a BPF program attached through perf, each function's kprobe"),
         ("perf-attach-first100", "the same, its first 100 opens"),
         ("perf-attach-last100", "the same, its last 100 opens"),
         ("perf-detach", "the same detached"),
         ("perf-released", "the same, until no kprobe is left registered"),
         ("multi-attach", "a BPF program attached by one kprobe_multi link"),
         ("multi-detach", "the link detached"))
for tag, what in (("", "1000 probes"), ("scale-", "probes at scale")):
    if ("@reg", tag + "define") not in up or ("@reg", tag + "define") not in se:
        continue
    print(f"| {what}, guest time | upstream | series | series/upstream |")
    print("| --- | --- | --- | --- |")
    for step, label in steps:
        if ("@reg", tag + step) not in up or ("@reg", tag + step) not in se:
            continue
        u, s = up[("@reg", tag + step)] / 1e9, se[("@reg", tag + step)] / 1e9
        print(f"| {label} | {u:.3f} s | {s:.3f} s | {s / u:.2f} |")
    for key, label in (("@mem", "memory per defined probe (meminfo slab + percpu)"),
                       ("@objects", "slab objects per defined probe")):
        u, s = up.get((key, tag)), se.get((key, tag))
        if u is None or s is None:
            continue
        print(f"| {label} | {u} B | {s} B | {s / u:.2f} |" if u else
              f"| {label} | {u} B | {s} B | - |")
    counts = [f"probes defined: upstream {up.get(('@reg', tag + 'defined'))}, "
              f"series {se.get(('@reg', tag + 'defined'))}"]
    for mode, how in (("perf", "BPF through perf"), ("multi", "kprobe_multi")):
        key = ("@reg", tag + mode + "-attached")
        if key in up or key in se:
            counts.append(f"{how} on {up.get(key)} and {se.get(key)} functions")
    print("(" + "; ".join(counts) + ")")
if arm64:
    print(f"(exceptions: {en} hits per kind, beyond the unprobed loop's; brk: BRK, step: software step, "
          "abort: instruction or data abort; IRQs not counted)")
else:
    print(f"(exceptions: not counted on {guest}, whose QEMU log the host does not read)")
for kernel, d, opt in (("upstream", up, uopt), ("series", se, sopt)):
    if not any(k.startswith("bp-") for _, k in d):
        print(f"({kernel}: no kprobe optimizer, its breakpoint path is its ordinary one)")
    print(f"(kprobes optimized while {'counted' if arm64 else 'timed'}, {kernel}: "
          + ", ".join(f"{k} {v}" for k, v in opt.items()) + ")")
print("breakpoint path, series dearer than upstream: " + (", ".join(dearer) if dearer else "none"))
# BPF through a kprobe against the BPF trampoline, the same program.
for kprobe, tramp, what in (("s", "s4", "kprobe program over fentry"),
                            ("s2", "s5", "kretprobe program over fexit")):
    parts = []
    for kernel, d in (("upstream", up), ("series", se)):
        if ("@bench", kprobe) in d and ("@bench", tramp) in d:
            parts.append(f"{kernel} {cost(d, kprobe, 'baseline') / cost(d, tramp, 'baseline'):.2f}")
    if parts:
        print(f"(BPF {what}: " + ", ".join(parts) + ")")
PY

[ ${#refs[@]} -gt 0 ] || exit 0
# The earlier series beside today's: each kind's extra instructions a hit,
# and today's over each earlier one's.
python3 - "$out/upstream.txt" "$out/series.txt" "$n" "${refs[@]}" <<'PY'
import sys
def load(path):
    d = {}
    for line in open(path):
        f = line.split()
        if len(f) == 3 and f[0] in ("@bench", "@reg"):
            d[(f[0], f[1])] = int(f[2])
    return d
up, se, n = load(sys.argv[1]), load(sys.argv[2]), int(sys.argv[3])
refs = [(r.split("=", 1)[0], load(r.split("=", 1)[1])) for r in sys.argv[4:]]
def cost(d, key, base):
    if ("@bench", key) not in d or ("@bench", base) not in d:
        return None
    return (d[("@bench", key)] - d[("@bench", base)]) / n
head = "| extra instructions per hit | series | " + " | ".join(
    f"series at {r}" for r, _ in refs) + " | upstream | " + " | ".join(
    f"series / at {r}" for r, _ in refs) + " |"
print(head)
print("|" + " --- |" * (head.count("|") - 1))
keys = sorted({k for d in [se] + [d for _, d in refs] for (t, k) in d
               if t == "@bench" and k not in ("baseline", "ubase")})
for key in keys:
    base = "ubase" if key in ("h", "i", "j", "k", "l") else "baseline"
    s, u = cost(se, key, base), cost(up, key, base)
    old = [cost(d, key, base) for _, d in refs]
    fmt = lambda v: "-" if v is None else f"{v:.0f}"
    ratio = lambda a, b: "-" if a is None or not b else f"{a / b:.2f}"
    label = ("breakpoint path: " + key[3:]) if key.startswith("bp-") else key
    print(f"| {label} | {fmt(s)} | " + " | ".join(fmt(v) for v in old)
          + f" | {fmt(u)} | " + " | ".join(ratio(s, v) for v in old) + " |")
for step in ("define", "enable", "disable", "delete"):
    vals = [d.get(("@reg", step)) for d in [se] + [d for _, d in refs]]
    print(f"| {step} 1000 probes, s | " + " | ".join(
        "-" if v is None else f"{v / 1e9:.3f}" for v in vals) + " |")
PY
