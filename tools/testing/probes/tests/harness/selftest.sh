#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# The harness's own tests, run on the host: tree assembly from a small fake
# base. Prints a KTAP document, suite "harness", for report.py.
set -uo pipefail
HARNESS=$(cd "$(dirname "$0")/../.." && pwd)
# shellcheck source=../../ktap.sh
. "$HARNESS/ktap.sh"
ktap_begin harness
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

base=$work/build/base/linux
top=$work/top
mkdir -p "$base/kernel" "$base/arch/p" "$top"
echo upstream-a >"$base/kernel/a.c"
echo upstream-b >"$base/kernel/b.c"
echo upstream-p1 >"$base/arch/p/p1.c"
echo upstream-p2 >"$base/arch/p/p2.c"
echo 1 >"$work/build/base/VERSION"
git -C "$top" init -q

assemble() {
	TOP=$top BUILD=$work/build KERNEL=series TOOLCHAIN=gcc FLAVOR= GUEST=arm64 \
		"$HARNESS/build/assemble.sh" >"$work/out" 2>&1
}
src=$work/build/arm64/series/src

check() { # name command...
	local name=$1
	shift
	if "$@"; then
		ktap_result PASS "$name"
	else
		ktap_result FAIL "$name"
		echo "@log harness $name"
		cat "$work/out"
		echo "@endlog"
	fi
}

refused() { ! assemble && grep -q "$1" "$work/out"; }

# A manifest entry that the series does not provide.
printf 'kernel/a.c ours\n' >"$top/manifest"
check manifest-ours-missing refused 'marked ours but the series has no such file'

# A series file that would overwrite an unlisted upstream file.
mkdir -p "$top/kernel"
echo ours-b >"$top/kernel/b.c"
printf '' >"$top/manifest"
check manifest-unlisted-overwrite refused "b.c would overwrite upstream's"

# A deleted entry that the series provides all the same.
printf 'kernel/b.c deleted\n' >"$top/manifest"
check manifest-deleted-provided refused 'marked deleted but the series provides it'

# An entry that is not in the base.
rm -f "$top/kernel/b.c"
printf 'kernel/nothere.c deleted\n' >"$top/manifest"
check manifest-not-in-base refused 'is not in the base'

# A good manifest: a directory replaced, a file deleted, a file added.
mkdir -p "$top/arch/p"
echo ours-p1 >"$top/arch/p/p1.c"
echo ours-new >"$top/kernel/new.c"
printf 'arch/p/ ours\nkernel/b.c deleted\n' >"$top/manifest"
tree_ok() {
	assemble &&
	[ "$(cat "$src/arch/p/p1.c")" = ours-p1 ] && [ ! -e "$src/arch/p/p2.c" ] &&
	[ ! -e "$src/kernel/b.c" ] && [ "$(cat "$src/kernel/new.c")" = ours-new ] &&
	[ "$(cat "$src/kernel/a.c")" = upstream-a ] &&
	[ "$(cat "$base/arch/p/p1.c")" = upstream-p1 ]
}
check assemble-tree tree_ok

# Assembling again rewrites nothing, so make rebuilds nothing.
unchanged() {
	touch -d '2000-01-01' "$src/arch/p/p1.c" "$src/kernel/new.c"
	assemble &&
	[ "$(stat -c %Y "$src/arch/p/p1.c")" = "$(stat -c %Y "$src/kernel/new.c")" ] &&
	[ "$(date -d @"$(stat -c %Y "$src/arch/p/p1.c")" +%Y)" = 2000 ]
}
check assemble-keeps-unchanged unchanged

# Dropping a component from the manifest brings upstream's files back, newer
# than anything built from ours.
restored() {
	rm -rf "$top/arch/p"
	printf 'kernel/b.c deleted\n' >"$top/manifest"
	assemble &&
	[ "$(cat "$src/arch/p/p1.c")" = upstream-p1 ] &&
	[ "$(cat "$src/arch/p/p2.c")" = upstream-p2 ] &&
	[ "$(stat -c %Y "$src/arch/p/p1.c")" -gt 946684800 ]
}
check assemble-restores-upstream restored

# A patched file: the diff applied to the base's file; then one that does
# not apply, and one that is missing.
mkdir -p "$top/patches/kernel"
cat >"$top/patches/kernel/a.c.patch" <<'PATCH'
--- a/kernel/a.c
+++ b/kernel/a.c
@@ -1 +1,2 @@
 upstream-a
+patched-a
PATCH
patched() {
	printf 'kernel/a.c patched\n' >"$top/manifest"
	assemble &&
	[ "$(cat "$src/kernel/a.c")" = "$(printf 'upstream-a\npatched-a')" ] &&
	[ "$(cat "$base/kernel/a.c")" = upstream-a ]
}
check assemble-patched patched
sed -i 's/^ upstream-a/ upstream-x/' "$top/patches/kernel/a.c.patch"
check manifest-patch-does-not-apply refused 'does not apply to the base'
rm "$top/patches/kernel/a.c.patch"
check manifest-patch-missing refused 'is marked patched but'

# expected's KERNELS: a guest, a toolchain or a flavour before the colon,
# or several joined by "+", all of which must hold for the line to count.
expected_here() { # GUEST TOOLCHAIN FLAVOR: the tests expected to fail there
	TOOLCHAIN=$2 FLAVOR=$3 python3 -c '
import sys
sys.path.insert(0, sys.argv[1])
import report
report.HERE = sys.argv[2]
print(" ".join(sorted(t for _, t in report.load_expectations(sys.argv[3], "series"))))
' "$HARNESS" "$work/exp" "$1"
}
where_joined() {
	mkdir -p "$work/exp"
	cat >"$work/exp/expected" <<'EXP'
s a all FAIL everywhere
s b x86_64:all FAIL on x86_64
s c x86_64+clang:all FAIL on x86_64 built by Clang
s d clang+debug:series FAIL on the series' debug kernel built by Clang
s e x86_64+clang:upstream FAIL on upstream's alone
EXP
	{ expected_here arm64 gcc ''; expected_here x86_64 gcc ''
	  expected_here x86_64 clang ''; expected_here arm64 clang debug; } >"$work/out" 2>&1 &&
	[ "$(cat "$work/out")" = "$(printf 'a\na b\na b c\na d')" ]
}
check expected-where-joined where_joined

# Where two lines for a test hold, the one naming more of where wins,
# whichever comes first; of two as narrow, the last.
narrower_wins() {
	cat >"$work/exp/expected" <<'EXP'
s a debug:all SKIP no BTF in this flavour
s a series FAIL everywhere else
s b all FAIL first
s b all UNRESOLVED last
s c series FAIL anywhere
s c arm64+debug:all SKIP on arm64's debug kernel
EXP
	TOOLCHAIN=gcc FLAVOR=debug python3 -c '
import sys
sys.path.insert(0, sys.argv[1])
import report
report.HERE = sys.argv[2]
e = report.load_expectations("arm64", "series")
print(" ".join(t + "=" + e[(s, t)][0] for s, t in sorted(e)))
' "$HARNESS" "$work/exp" >"$work/out" 2>&1 &&
	[ "$(cat "$work/out")" = 'a=SKIP b=UNRESOLVED c=SKIP' ]
}
check expected-narrower-wins narrower_wins
ktap_end
