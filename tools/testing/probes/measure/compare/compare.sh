#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# `make compare`: write the same definitions (compare.defs) to the upstream
# and the series kernel, and compare what each accepts or refuses, its
# error_log, its format files and its trace lines.  Every definition whose
# reports differ must be listed in compare.expected with the reason;
# anything else fails. Then the kprobes blacklists: every function
# upstream's lists that the series' kernel has must be on the series'
# list too, or be listed in compare.blacklist with the reason.
. "$(dirname "$0")/../../settings.sh"

out=$BUILD/compare$VARIANT
mkdir -p "$out"
for k in upstream series; do
	say "compare: the $k kernel"
	KERNEL=$k "$HARNESS/build/assemble.sh"
	KERNEL=$k "$HARNESS/build/build.sh"
	KERNEL=$k "$HARNESS/build/initramfs.sh"
	KERNEL=$k "$HARNESS/guest/boot.sh" compare 2400 >"$out/$k.boot" 2>&1 ||
		{ tail -20 "$out/$k.boot"; die "the $k kernel's compare run failed"; }
	# The results come through a tty: drop its carriage returns. A
	# char argument may print any byte, NUL included: text all the same.
	results=$BUILD/$GUEST/$k$VARIANT/logs/compare.results
	tr -d '\r' <"$results" |
		sed -n '/^@def /,/^harness: /p' | grep -av '^harness: ' >"$out/$k.txt"
	tr -d '\r' <"$results" |
		sed -n '/^@blacklist$/,/^@endblacklist$/p' | grep -v '^@' >"$out/$k.blacklist"
	# shellcheck disable=SC2016
	"${CROSS_COMPILE}nm" --defined-only \
		"$(KERNEL=$k bash -c '. "$1/settings.sh" && echo "$OBJ"' _ "$HARNESS")/vmlinux" |
		awk '$2 ~ /^[tT]$/ { print $3 }' | sort -u >"$out/$k.text"
done

blacklist_ok=0
python3 - "$out" "$HARNESS/measure/compare/compare.blacklist" <<'PY' || blacklist_ok=1
import sys

out, listed_path = sys.argv[1], sys.argv[2]
def names(path):
    return set(line.strip() for line in open(path) if line.strip())

up, ours = names(f"{out}/upstream.blacklist"), names(f"{out}/series.blacklist")
text = names(f"{out}/series.text")
listed = {}
for line in open(listed_path):
    if line.strip() and not line.startswith("#"):
        sym, reason = line.split(None, 1)
        listed[sym] = reason.strip()

absent = sorted(s for s in up - ours if s not in text)
explained = sorted(s for s in up - ours if s in text and s in listed)
bad = sorted(s for s in up - ours if s in text and s not in listed)
stale = sorted(s for s in listed if s not in up - ours or s not in text)
for s in explained:
    print(f"blacklist: upstream only, as listed: {s} ({listed[s]})")
for s in bad:
    print(f"BLACKLIST: {s} is on upstream's list, in the series' kernel, "
          "and not on its list")
for s in stale:
    print(f"listed in compare.blacklist but not a difference now: {s}")
with open(f"{out}/blacklist.diff", "w") as f:
    for s in absent:
        f.write(f"upstream only, not in the series' kernel: {s}\n")
    for s in sorted(ours - up):
        f.write(f"series only: {s}\n")
print(f"blacklist: upstream {len(up)} functions, series {len(ours)}; "
      f"{len(up & ours)} on both, {len(absent)} upstream's own functions the "
      f"series' kernel does not have, {len(explained)} as listed, "
      f"{len(bad)} missing; {len(ours - up)} on the series' only "
      f"({out}/blacklist.diff)")
sys.exit(1 if bad or stale or not up else 0)
PY

python3 - "$out/upstream.txt" "$out/series.txt" "$HARNESS/measure/compare/compare.expected" "$GUEST" <<'PY' || exit 1
import sys

def load(path):
    defs, cur = {}, None
    for line in open(path, errors="backslashreplace"):
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
# "N reason", or "N@GUEST reason" for a difference on that guest alone.
for line in open(sys.argv[3]):
    if line.strip() and not line.startswith("#"):
        n, reason = line.split(None, 1)
        n, _, guest = n.partition("@")
        if not guest or guest == sys.argv[4]:
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
exit $blacklist_ok
