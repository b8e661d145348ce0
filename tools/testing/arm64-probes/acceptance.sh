#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# `make acceptance`: the share of instruction offsets, over a sample of
# kernel functions, at which a kernel accepts a kprobe, and what it refuses,
# by instruction.
. "$(dirname "$0")/lib.sh"

"$HARNESS/boot.sh" accept 1800 >"$LOGS/accept.out" 2>&1 ||
	{ tail -20 "$LOGS/accept.out"; die "the acceptance run failed"; }
read -r _ taken total < <(grep '^accepted ' "$LOGS/accept.results")
funcs=$(wc -l <"$KDIR/initramfs/harness/accept.funcs")
printf '%s kernel: %d of %d offsets accepted (%d.%d%%), in %d functions\n' \
	"$KERNEL" "$taken" "$total" $((taken * 100 / total)) \
	$((taken * 1000 / total % 10)) "$funcs"
# Refusals by mnemonic, from one disassembly of vmlinux.
grep '^refused ' "$LOGS/accept.results" >"$LOGS/accept.refused" || true
${CROSS_COMPILE}objdump -d --no-show-raw-insn "$OBJ/vmlinux" |
python3 -c '
import collections, re, sys
refused = [l.split()[1:3] for l in open(sys.argv[1])]
want = {}
syms = {}
for line in open(sys.argv[2]):
    addr, _, name = line.split()[:3]
    syms.setdefault(name, int(addr, 16))
for fn, off in refused:
    want[syms[fn] + int(off)] = fn
count = collections.Counter()
for line in sys.stdin:
    m = re.match(r"^([0-9a-f]{16}):\s+(\S+)", line)
    if m and int(m[1], 16) in want:
        count[m[2]] += 1
for mnemonic, n in count.most_common():
    print(f"  refused {n:5d}  {mnemonic}")
' "$LOGS/accept.refused" "$SRC/System.map"
