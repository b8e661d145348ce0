#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# `make bench`: boot the upstream and the series kernel, one after the
# other, under QEMU -icount shift=0,sleep=off, and measure the extra guest
# instructions each probe kind costs per hit of a getppid loop, the
# function tracer's cost on the same function (the floor), the time to
# define, enable, disable and delete 1000 probes, and the kernel memory a
# defined probe takes. Prints a table, series/upstream ratios last.
. "$(dirname "$0")/lib.sh"

n=${BENCH_N:-20000}
out=$BUILD/bench
mkdir -p "$out"
for k in ${BENCH_KERNELS:-upstream series}; do
	say "bench: the $k kernel"
	KERNEL=$k "$HARNESS/assemble.sh"
	KERNEL=$k "$HARNESS/build.sh" >/dev/null
	KERNEL=$k "$HARNESS/initramfs.sh"
	QEMU_EXTRA="-icount shift=0,sleep=off" BOOT_ARGS="bench_n=$n" \
		KERNEL=$k "$HARNESS/boot.sh" bench 1800 >"$out/$k.boot" 2>&1 ||
		{ tail -20 "$out/$k.boot"; die "the $k kernel's bench run failed"; }
	tr -d '\r' <"$BUILD/$GUEST/$k/logs/bench.results" | grep '^@' >"$out/$k.txt"
done

python3 - "$out/upstream.txt" "$out/series.txt" "$n" <<'PY'
import sys
def load(path):
    d = {}
    for line in open(path):
        f = line.split()
        if len(f) == 3 and f[0] in ("@bench", "@reg"):
            d[(f[0], f[1])] = int(f[2])
        elif len(f) == 2 and f[0] in ("@mem", "@objects"):
            d[(f[0], "")] = int(f[1])
        elif f and f[0] == "@error":
            print("error:", line.strip())
    return d
up, se, n = load(sys.argv[1]), load(sys.argv[2]), int(sys.argv[3])
names = {
    "a": "(a) entry probe, no args", "b": "(b) two register args",
    "c": "(c) a string deref", "d": "(d) on a stepped stp",
    "e": "(e) on a simulated bl", "f": "(f) kretprobe",
    "g": "(g) kprobe + kretprobe", "ftrace": "function tracer (the floor)",
}
print(f"getppid loop, instructions per call: upstream {up[('@bench','baseline')] / n:.0f}, "
      f"series {se[('@bench','baseline')] / n:.0f}")
print("| extra instructions per hit | upstream | series | series/upstream |")
print("| --- | --- | --- | --- |")
for key, label in names.items():
    u = (up[("@bench", key)] - up[("@bench", "baseline")]) / n
    s = (se[("@bench", key)] - se[("@bench", "baseline")]) / n
    print(f"| {label} | {u:.0f} | {s:.0f} | {s / u:.2f} |")
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
        u = (up[("@bench", key)] - up[("@bench", "ubase")]) / n
        s = (se[("@bench", key)] - se[("@bench", "ubase")]) / n
        print(f"| {label} | {u:.0f} | {s:.0f} | {s / u:.2f} |")
print("| 1000 probes, guest time | upstream | series | series/upstream |")
print("| --- | --- | --- | --- |")
for step in ("define", "enable", "disable", "delete"):
    u, s = up[("@reg", step)] / 1e9, se[("@reg", step)] / 1e9
    print(f"| {step} | {u:.3f} s | {s:.3f} s | {s / u:.2f} |")
for key, label in (("@mem", "memory per defined probe (meminfo slab + percpu)"),
                   ("@objects", "slab objects per defined probe")):
    u, s = up.get((key, "")), se.get((key, ""))
    if u is None or s is None:
        continue
    print(f"| {label} | {u} B | {s} B | {s / u:.2f} |" if u else
          f"| {label} | {u} B | {s} B | - |")
print(f"(probes defined: upstream {up.get(('@reg','defined'))}, series {se.get(('@reg','defined'))})")
PY
