#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# `make acceptance`: the share of instruction offsets, over a sample of
# kernel functions, at which a kernel accepts a kprobe, and what it refuses,
# by instruction.
. "$(dirname "$0")/../../settings.sh"

"$HARNESS/guest/boot.sh" acceptance 1800 >"$LOGS/acceptance.out" 2>&1 ||
	{ tail -20 "$LOGS/acceptance.out"; die "the acceptance run failed"; }
# The results come through a tty: drop its carriage returns.
tr -d '\r' <"$LOGS/acceptance.results" >"$LOGS/accept.txt"
${CROSS_COMPILE}objdump -d --no-show-raw-insn "$OBJ/vmlinux" |
python3 -c '
import collections, re, sys
results, funcs_file, system_map, kernel = sys.argv[1:]
funcs = dict((l.split()[0], int(l.split()[1])) for l in open(funcs_file))
refused = collections.defaultdict(set)
for l in open(results):
    f = l.split()
    if f and f[0] == "refused":
        refused[f[1]].add(int(f[2]))
total = sum(n // 4 for n in funcs.values())
taken = total - sum(len(r) for r in refused.values())
# Functions refused whole (not traceable, freed init text, blacklisted) say
# nothing of the instruction decoder: count the rest apart.
probeable = {f: n for f, n in funcs.items() if len(refused[f]) < n // 4}
ptotal = sum(n // 4 for n in probeable.values())
ptaken = ptotal - sum(len(refused[f]) for f in probeable)
print(f"{kernel} kernel: {taken} of {total} offsets accepted ({100 * taken / total:.1f}%) "
      f"in {len(funcs)} functions;")
print(f"  in the {len(probeable)} functions it probes at all: {ptaken} of {ptotal} "
      f"({100 * ptaken / ptotal:.2f}%)")
syms = {}
for line in open(system_map):
    addr, _, name = line.split()[:3]
    syms.setdefault(name, int(addr, 16))
want = {syms[f] + off for f in probeable for off in refused[f]}
count = collections.Counter()
for line in sys.stdin:
    m = re.match(r"^([0-9a-f]{16}):\s+(\S+)", line)
    if m and int(m[1], 16) in want:
        count[m[2]] += 1
print("  refused there, by instruction: " +
      ", ".join(f"{m} {n}" for m, n in count.most_common()))
' "$LOGS/accept.txt" "$KDIR/initramfs/harness/accept.funcs" "$SRC/System.map" "$KERNEL"
