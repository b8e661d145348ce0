#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# `make compare`: write the same definitions (compare.defs) to the upstream
# and the series kernel, and compare what each accepts or refuses, its
# error_log, its format files and its trace lines.  Every definition whose
# reports differ must be listed in compare.expected with the reason;
# anything else fails.
. "$(dirname "$0")/lib.sh"

out=$BUILD/compare
mkdir -p "$out"
for k in upstream series; do
	say "compare: the $k kernel"
	KERNEL=$k "$HARNESS/assemble.sh"
	KERNEL=$k "$HARNESS/build.sh"
	KERNEL=$k "$HARNESS/initramfs.sh"
	KERNEL=$k "$HARNESS/boot.sh" compare 900 >"$out/$k.boot" 2>&1 ||
		{ tail -20 "$out/$k.boot"; die "the $k kernel's compare run failed"; }
	# The results come through a tty: drop its carriage returns.
	tr -d '\r' <"$BUILD/$GUEST/$k/logs/compare.results" |
		sed -n '/^@def /,/^harness: /p' | grep -v '^harness: ' >"$out/$k.txt"
done

python3 - "$out/upstream.txt" "$out/series.txt" "$HARNESS/compare.expected" <<'PY'
import sys

def load(path):
    defs, cur = {}, None
    for line in open(path):
        line = line.rstrip("\n")
        if line.startswith("@def "):
            n, text = line[5:].split(" ", 1)
            cur = int(n)
            defs[cur] = [text]
        elif cur is not None:
            defs[cur].append(line)
    return defs

up, ours = load(sys.argv[1]), load(sys.argv[2])
expected = {}
for line in open(sys.argv[3]):
    if line.strip() and not line.startswith("#"):
        n, reason = line.split(None, 1)
        expected[int(n)] = reason.strip()

same = justified = 0
bad = []
for n in sorted(set(up) | set(ours)):
    a, b = up.get(n, ["(missing)"]), ours.get(n, ["(missing)"])
    if a == b:
        same += 1
        continue
    head = f"#{n} {a[0]}"
    if n in expected:
        justified += 1
        print(f"differs, expected: {head}\n  ({expected[n]})")
        continue
    bad.append(n)
    print(f"DIFFERS: {head}")
    for line in a[1:]:
        if line not in b:
            print(f"  upstream: {line}")
    for line in b[1:]:
        if line not in a:
            print(f"  series:   {line}")
stale = [n for n in expected if n in up and up.get(n) == ours.get(n)]
for n in stale:
    print(f"listed in compare.expected but identical now: #{n}")
total = len(set(up) | set(ours))
print(f"{total} definitions: {same} identical, {justified} differ as listed, "
      f"{len(bad)} differ unexpectedly")
sys.exit(1 if bad or stale else 0)
PY
