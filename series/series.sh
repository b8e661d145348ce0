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
#   Rename: OLD NEW   moves OLD, as the patch before left it, to NEW, a path
#                     the series' last state does not have (upstream's file
#                     kept aside while its replacement comes in)
#   Cut: PATH ERE     removes PATH's lines from the first that matches the
#                     extended regular expression ERE to its end
#   Delete: PATH...   removes each path, one the last state does not have
# A patch's Rename lines come first, then Files, Interim, Patch, Cut and
# Delete.
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
# enough for the patches, which then apply to the whole base tree. A patch
# may also change, for a while, an upstream file the series leaves as it
# was (an include while a header is renamed): such a file is in the base
# commit too, and must end as upstream has it.
touched=$KDIR/src.touched
passing=$KDIR/src.passing
sed -n 's/^Patch://p' "$SERIES"/[0-9]*.txt | tr ' ' '\n' | sed '/^$/d' | sort -u |
	grep -vxF -f "$touched" >"$passing" || true
while read -r f; do
	if [ -f "$BASE/$f" ]; then
		mkdir -p "$git_dir/$(dirname "$f")"
		cp "$BASE/$f" "$git_dir/$f"
	fi
done < <(cat "$touched" "$passing")
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
	while read -r from to; do
		[ -n "$from" ] || continue
		[ -f "$git_dir/$from" ] || die "series: $stem: no $from to rename"
		grep -qFx "$to" "$touched" && die "series: $stem: $to is a path of the series"
		mkdir -p "$git_dir/$(dirname "$to")"
		mv "$git_dir/$from" "$git_dir/$to"
	done < <(paths Rename "$msg")
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
	while read -r p ere; do
		[ -n "$p" ] || continue
		first=$(grep -n -m1 -E -- "$ere" "$git_dir/$p" | cut -d: -f1)
		[ -n "$first" ] || die "series: $stem: no line of $p matches '$ere'"
		sed -i "$first,\$d" "$git_dir/$p"
	done < <(paths Cut "$msg")
	for p in $(paths Delete "$msg"); do
		grep -qFx "$p" "$touched" && die "series: $stem: $p is a path of the series"
		[ -f "$git_dir/$p" ] || die "series: $stem: no $p to delete"
		rm "$git_dir/$p"
	done
	g add -A
	grep -Ev '^(Files|Interim|Patch|Rename|Cut|Delete):' "$msg" | g commit -q -s --allow-empty -F -
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
while read -r f; do
	[ -z "$f" ] || g diff --quiet base HEAD -- "$f" ||
		die "series: $f, which the series only changes for a while, does not end as upstream's"
done <"$passing"
cover=$SERIES/0000-cover-letter.txt
if [ -f "$cover" ]; then
	g format-patch -q -M --cover-letter -o "$out" base..HEAD
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
	g format-patch -q -M -o "$out" base..HEAD
fi
n=$(find "$out" -name '[0-9]*.patch' ! -name '0000-*' | wc -l)
echo "$n patches in $out ($n_msgs from series/)"

# Each patch's size, as a reviewer meets it in the patch file: lines added
# plus removed, Documentation/ and tools/testing/ aside (a rename counts
# its changed lines only). A patch may change 1,500 lines, or 2,000 when
# all it does is add files.
sizes=$out/sizes.txt
python3 - "$out" >"$sizes" <<'PY'
import glob, os, re, sys
for path in sorted(glob.glob(os.path.join(sys.argv[1], "[0-9]*.patch"))):
    if os.path.basename(path).startswith("0000-"):
        continue
    text = open(path, errors="replace").read()
    subject = re.search(r"^Subject: \[PATCH[^\]]*\] (.*(?:\n [^\n]*)*)", text, re.M)
    subject = " ".join(subject.group(1).split()) if subject else "?"
    lines = 0
    only_new = True
    counted = False
    for sec in re.split(r"^diff --git ", text, flags=re.M)[1:]:
        name = sec.split("\n", 1)[0].split(" b/", 1)[-1]
        if name.startswith(("Documentation/", "tools/testing/")):
            continue
        counted = True
        if not re.search(r"^new file mode", sec, re.M):
            only_new = False
        body = sec.split("\n@@", 1)
        if len(body) < 2:
            continue
        for l in ("@@" + body[1]).split("\n"):
            if l == "-- ":
                continue
            if (l.startswith("+") and not l.startswith("+++ ")) or \
               (l.startswith("-") and not l.startswith("--- ")):
                lines += 1
    limit = 2000 if counted and only_new else 1500
    print("%3s %6d %5d %s" % (os.path.basename(path)[:4], lines, limit, subject))
PY
over=$(awk '$2 > $3' "$sizes" | wc -l)
[ "$over" -eq 0 ] || { awk '$2 > $3' "$sizes" >&2; die "series: $over patch(es) over their size (lines, limit: $sizes)"; }
