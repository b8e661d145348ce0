#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# `make series`: write the series as git format-patch files against the
# pristine base, one patch per file in series/ (in name order), then one for
# whatever series file no patch claims, and the cover letter. It lives
# beside patches/ (the series' changes to upstream's files), out of the test
# harness, whose settings.sh it uses.
#
# A series/ file is a commit message followed by lines saying what its
# patch changes (these lines are not part of the message):
#   Files: PATH...    brings each path (a file, or a directory ending in /)
#                     to its state in the series: the series' file, or none
#   Interim: PATH...  brings each path to the series' file less what later
#                     patches add: series/STEM/PATH.diff applied to it
#   Patch: PATH...    changes each path as the patch before left it (at
#                     first upstream's file) by series/STEM/PATH.diff
# STEM is the series/ file's name without .txt. Interim and Patch states
# keep the tree building at every patch (make bisect checks it) while a
# patch adds code that a later one starts using or replaces a file that a
# later one finishes. A diff that no longer applies stops the run: remake
# it from the patch's new state.
# 0000-cover-letter.txt is the cover letter: its subject line, then its
# body.
. "$(dirname "$0")/../tools/testing/probes/settings.sh"
# Patches go in byte order of their names (0001a- after 0001-), whatever
# the locale.
export LC_ALL=C
SERIES=$TOP/series
KERNEL=series
KDIR=$BUILD/$GUEST/series
"$HARNESS/build/assemble.sh"

git_dir=$BUILD/series-git
out=$BUILD/patches
rm -rf "$git_dir" "$out"
mkdir -p "$git_dir" "$out"
g() { git -C "$git_dir" -c user.name="${GIT_AUTHOR_NAME:-arm64 probes series}" \
	-c user.email="${GIT_AUTHOR_EMAIL:-probes@localhost}" "$@"; }
g init -q

# The base commit holds upstream's version of every path the series touches:
# enough for the patches, which then apply to the whole base tree.
touched=$KDIR/src.touched
while read -r f; do
	if [ -f "$BASE/$f" ]; then
		mkdir -p "$git_dir/$(dirname "$f")"
		cp "$BASE/$f" "$git_dir/$f"
	fi
done <"$touched"
g add -A
g commit -q --allow-empty -m "Linux $(cat "$BUILD/base/VERSION") (Debian linux-source-$BASE_SERIES)"
g tag base

bring() { # path: make it as the assembled tree has it
	local f=$1
	if [ -f "$KDIR/src/$f" ]; then
		mkdir -p "$git_dir/$(dirname "$f")"
		cp "$KDIR/src/$f" "$git_dir/$f"
	else
		rm -f "$git_dir/$f"
	fi
}

# state DIFF PATH: apply DIFF to PATH as it is now in the series tree.
state() {
	local diff=$1 f=$2
	[ -f "$diff" ] || die "series: no $diff"
	patch -s -p1 -d "$git_dir" --no-backup-if-mismatch -r - <"$diff" ||
		die "series: $diff no longer applies to $f: remake it"
}
# paths KEY FILE: the paths of FILE's KEY: lines
paths() { sed -n "s/^$1://p" "$2"; }

claimed=$KDIR/claimed.list
: >"$claimed"
n_msgs=0
for msg in "$SERIES"/[0-9]*.txt; do
	[ -f "$msg" ] || continue
	stem=$(basename "$msg" .txt)
	[ "$stem" = 0000-cover-letter ] && continue
	for p in $(paths Files "$msg"); do
		case $p in
		*/) awk -v p="$p" 'index($0, p) == 1' "$touched" ;;
		*)  grep -Fx "$p" "$touched" || die "series: $stem: $p is not a path the series touches" ;;
		esac >>"$claimed" || true
	done
	sort -u -o "$claimed" "$claimed"
	while read -r f; do bring "$f"; done <"$claimed"
	for p in $(paths Interim "$msg"); do
		grep -qFx "$p" "$claimed" && die "series: $stem: $p is already final"
		bring "$p"
		state "$SERIES/$stem/$p.diff" "$p"
	done
	for p in $(paths Patch "$msg"); do
		state "$SERIES/$stem/$p.diff" "$p"
	done
	g add -A
	grep -Ev '^(Files|Interim|Patch):' "$msg" | g commit -q -s --allow-empty -F -
	n_msgs=$((n_msgs + 1))
done
rest=$(comm -23 "$touched" "$claimed")
if [ -n "$rest" ]; then
	while read -r f; do bring "$f"; done <<<"$rest"
	g add -A
	g commit -q -m "probes series: files no patch of the series claims yet"
fi
# The last patch must leave the tree make check builds.
same_as_series_tree "$git_dir" series
cover=$SERIES/0000-cover-letter.txt
if [ -f "$cover" ]; then
	g format-patch -q --cover-letter -o "$out" base..HEAD
	# format-patch leaves *** SUBJECT HERE *** and *** BLURB HERE ***.
	python3 - "$out/0000-cover-letter.patch" "$cover" <<'PY'
import sys
path, cover = sys.argv[1:]
lines = open(cover).read().rstrip("\n").split("\n")
subject, body = lines[0], "\n".join(lines[2:] if len(lines) > 1 and not lines[1] else lines[1:])
text = open(path).read()
text = text.replace("*** SUBJECT HERE ***", subject).replace("*** BLURB HERE ***", body)
open(path, "w").write(text)
PY
else
	g format-patch -q -o "$out" base..HEAD
fi
n=$(find "$out" -name '[0-9]*.patch' ! -name '0000-*' | wc -l)
echo "$n patches in $out ($n_msgs from series/)"
