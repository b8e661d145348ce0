#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# `make series`: write the series as git format-patch files against the
# pristine base, one patch per file in series/ (in name order), then one for
# whatever series file no patch claims.
#
# A series/ file is a commit message with a "Files:" line naming the paths
# (files, or directories ending in /) that its patch brings to their state
# in the series; the "Files:" line itself is not part of the message.
. "$(dirname "$0")/lib.sh"
KERNEL=series
KDIR=$BUILD/$GUEST/series
"$HARNESS/assemble.sh"

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
g commit -q --allow-empty -m "Linux $(cat "$BUILD/base/VERSION") (Debian linux-source-6.12)"
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

claimed=$KDIR/claimed.list
: >"$claimed"
for msg in "$HARNESS"/series/*.txt; do
	[ -f "$msg" ] || continue
	for p in $(sed -n 's/^Files://p' "$msg"); do
		case $p in
		*/) awk -v p="$p" 'index($0, p) == 1' "$touched" ;;
		*)  grep -Fx "$p" "$touched" ;;
		esac >>"$claimed" || true
	done
	sort -u -o "$claimed" "$claimed"
	while read -r f; do bring "$f"; done <"$claimed"
	g add -A
	grep -v '^Files:' "$msg" | g commit -q --allow-empty -F -
done
rest=$(comm -23 "$touched" "$claimed")
if [ -n "$rest" ]; then
	while read -r f; do bring "$f"; done <<<"$rest"
	g add -A
	g commit -q -m "probes series: files no patch of the series claims yet"
fi
g format-patch -q -o "$out" base..HEAD
n=$(find "$out" -name '*.patch' | wc -l)
echo "$n patches in $out"
