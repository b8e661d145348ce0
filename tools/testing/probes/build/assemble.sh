#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Assemble a kernel's tree: for the series, the pristine base less every path
# the manifest names, plus the series' own files; for upstream, the base
# alone. Only paths that change are rewritten, so an incremental build
# recompiles only what really changed.
. "$(dirname "$0")/../settings.sh"

MANIFEST=$TOP/manifest
state=$KDIR/src.touched
basever=$(cat "$BUILD/base/VERSION")

# The series' own files: kernel-tree paths tracked (or about to be) by git,
# the harness and the project's own documents excluded.
ours() {
	[ "$KERNEL" = series ] || return 0
	git -C "$TOP" ls-files -co --exclude-standard -- \
		arch kernel include lib samples Documentation tools |
		{ grep -v '^tools/testing/probes/' || true; } |
		while read -r f; do [ -f "$TOP/$f" ] && echo "$f"; done
}

# manifest lines: PATH FATE, FATE being "ours" (the series provides the file,
# or for a directory ending in /, the directory), "deleted", or "patched"
# (a file of the kernel outside the series' own code, such as a Kconfig,
# gets a small change: patches/PATH.patch, a unified diff, applied to the
# base's file).
manifest() {
	[ "$KERNEL" = series ] || return 0
	sed -e 's/#.*//' -e '/^[[:space:]]*$/d' "$MANIFEST"
}

mkdir -p "$KDIR"
ours >"$KDIR/ours.list"

# Check the manifest against the tree before touching anything.
: >"$KDIR/replaced.list"
: >"$KDIR/patched.list"
bad=0
while read -r path fate rest; do
	[ -z "$rest" ] || { say "manifest: trailing words after '$path $fate'"; bad=1; }
	[ -e "$BASE/$path" ] || { say "manifest: $path is not in the base"; bad=1; continue; }
	if [ "$fate" = patched ]; then
		mkdir -p "$(dirname "$KDIR/patched/$path")"
		if [ ! -f "$TOP/patches/$path.patch" ]; then
			say "manifest: $path is marked patched but patches/$path.patch is missing"
			bad=1
		elif ! patch -s -f --fuzz=0 -o "$KDIR/patched/$path" "$BASE/$path" \
			<"$TOP/patches/$path.patch" >/dev/null; then
			say "manifest: patches/$path.patch does not apply to the base"
			bad=1
		fi
		echo "$path" >>"$KDIR/patched.list"
		continue
	fi
	case $path in
	*/) (cd "$BASE" && find "$path" -type f) >>"$KDIR/replaced.list"
	    provided=$(grep -c "^$path" "$KDIR/ours.list" || true) ;;
	*)  echo "$path" >>"$KDIR/replaced.list"
	    provided=$(grep -cx "$path" "$KDIR/ours.list" || true) ;;
	esac
	case $fate in
	ours)    [ "$provided" -gt 0 ] ||
			{ say "manifest: $path is marked ours but the series has no such file"; bad=1; } ;;
	deleted) [ "$provided" -eq 0 ] ||
			{ say "manifest: $path is marked deleted but the series provides it"; bad=1; } ;;
	*)       say "manifest: $path: fate must be 'ours' or 'deleted', not '$fate'"; bad=1 ;;
	esac
done < <(manifest)
while read -r f; do
	if [ -e "$BASE/$f" ] && ! grep -qx "$f" "$KDIR/replaced.list"; then
		say "manifest: the series' $f would overwrite upstream's, which the manifest does not list"
		bad=1
	fi
done <"$KDIR/ours.list"
[ $bad -eq 0 ] || die "refusing to assemble the series tree (see $MANIFEST)"

if [ ! -d "$SRC" ] || [ "$(cat "$KDIR/src.base" 2>/dev/null)" != "$basever" ]; then
	say "assemble: linking a fresh tree from the base"
	rm -rf "$SRC" "$state"
	mkdir -p "$KDIR"
	cp -al "$BASE" "$SRC"
	echo "$basever" >"$KDIR/src.base"
fi
touch "$state"

# Bring every path the series touches now or touched last time to its
# wanted state. Files are replaced, never written in place: the tree shares
# its inodes with the base (and the build writes only new files).
sort -u "$state" "$KDIR/ours.list" "$KDIR/replaced.list" "$KDIR/patched.list" |
while read -r f; do
	if grep -qx "$f" "$KDIR/ours.list"; then
		want=$TOP/$f
	elif grep -qx "$f" "$KDIR/patched.list"; then
		want=$KDIR/patched/$f
	elif grep -qx "$f" "$KDIR/replaced.list"; then
		want=
	elif [ -f "$BASE/$f" ]; then
		want=$BASE/$f
	else
		want=
	fi
	if [ -z "$want" ]; then
		rm -f "$SRC/$f"
	elif ! cmp -s "$want" "$SRC/$f"; then
		mkdir -p "$(dirname "$SRC/$f")"
		rm -f "$SRC/$f"
		cp "$want" "$SRC/$f"
	fi
done
sort -u "$KDIR/ours.list" "$KDIR/replaced.list" "$KDIR/patched.list" >"$state"
