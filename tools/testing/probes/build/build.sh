#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Configure and build one kernel (KERNEL=series or upstream) for one guest
# (GUEST=arm64 or x86_64): its image, modules and the modules staged for
# the guest, in a kept object directory.
. "$(dirname "$0")/../settings.sh"

mkdir -p "$LOGS"
FRAGS=("$HARNESS/build/config/common.config" "$HARNESS/build/config/$GUEST.config"
       "$SRC/tools/testing/selftests/ftrace/config")
# One build at a time on the machine (its two cores), whoever runs it.
mkdir -p "$BUILD"
if [ "$TOOLCHAIN" = clang ]; then
	FRAGS+=("$HARNESS/build/config/clang.config")
	# Kconfig must see the compiler too: BTI_KERNEL and CFI (kCFI)
	# depend on what it can do.
	export LLVM=-19
	# Clang 19 is in clangroot.sh's root: the rest of this script runs
	# there, the configuration as well as the build.
	[ -n "${IN_CLANGROOT:-}" ] || exec "$HARNESS/build/clangroot.sh" run "$HARNESS/build/build.sh" "$@"
fi
KMAKE=(make -s -C "$SRC" "${KBUILD_CC[@]}" -j"$JOBS")

# Config: allnoconfig + our fragment + ftracetest's. Made aside and put in
# place only when it differs, so an unchanged config rebuilds nothing.
tmp=.config.harness
base=-n
case $FLAVOR in
'') ;;
defconfig)
	# The kernel distributions start from: the architecture's defconfig,
	# completed with Kconfig's defaults as `make defconfig` does, then
	# the fragments (what the guest and the tests need). Its modules
	# are only those the fragments ask for: the built-in kernel is
	# defconfig's, without the hour its thousands of drivers' modules
	# would add to the build.
	FRAGS=("$SRC/$DEFCONFIG" "${FRAGS[@]}")
	base=
	;;
*)
	# The flavour's own fragment, over the ordinary ones.
	FRAGS+=("$HARNESS/build/config/$FLAVOR.config")
	;;
esac
(cd "$SRC" && rm -f "$tmp" && KCONFIG_CONFIG=$tmp scripts/kconfig/merge_config.sh $base \
	"${FRAGS[@]}" && KCONFIG_CONFIG=$tmp make -s olddefconfig) \
	>"$LOGS/config.log" 2>&1 || { cat "$LOGS/config.log"; die "config failed"; }
if [ "$FLAVOR" = defconfig ]; then
	keep=$(sed -n 's/^\(CONFIG_[A-Za-z0-9_]*\)=m$/\1/p' "${FRAGS[@]:1}" | sort -u)
	awk -v keep="$keep" '
		BEGIN { n = split(keep, k, "\n"); for (i = 1; i <= n; i++) want[k[i]] = 1 }
		/^CONFIG_[A-Za-z0-9_]*=m$/ {
			name = substr($0, 1, length($0) - 2)
			if (!(name in want)) { print "# " name " is not set"; next }
		}
		{ print }' "$SRC/$tmp" >"$SRC/$tmp.m" && mv "$SRC/$tmp.m" "$SRC/$tmp"
	(cd "$SRC" && KCONFIG_CONFIG=$tmp make -s olddefconfig) >>"$LOGS/config.log" 2>&1 ||
		{ cat "$LOGS/config.log"; die "config failed"; }
fi
say "config: $GUEST $KERNEL, $(sed -n 's/^CONFIG_CC_VERSION_TEXT="\(.*\)"/\1/p' "$SRC/$tmp")$(
	grep -oE '^CONFIG_(ARM64_BTI_KERNEL|CFI|SHADOW_CALL_STACK|LTO_CLANG_THIN|KASAN_GENERIC|KFENCE|PROVE_LOCKING|UBSAN|DEBUG_KMEMLEAK|PREEMPT_RT)=y' "$SRC/$tmp" |
	sed 's/^CONFIG_/, /; s/=y$//' | tr -d '\n')"
dropped=$(grep -A2 '^Value requested for' "$LOGS/config.log" | grep -v '^--' |
	paste - - - | sed -E 's/Value requested for (\S+) not in final .config\s+Requested value:\s+(\S+)\s+Actual value:\s+(.*)/\1 (asked \2, got \3)/; s/, got \)/, got: not set)/' || true)
if [ -n "$dropped" ]; then
	say "config: options the $GUEST $KERNEL kernel's Kconfig did not take:"
	printf "%s\n" "$dropped" | sed "s/^/  /" >&2
fi
if cmp -s "$SRC/$tmp" "$SRC/.config"; then
	rm -f "$SRC/$tmp"
else
	mv "$SRC/$tmp" "$SRC/.config"
fi

say "build: $GUEST $KERNEL kernel in $OBJ"
# The lock is held from here to the installed modules, so that another
# build waiting for it cannot slip in between and leave this one's guest
# waiting for a whole kernel.
exec 9>>"$KBUILD_LOCK"
flock 9
start=$(date +%s)
if ! "${KMAKE[@]}" "$IMAGE_TARGET" modules >"$LOGS/build.log" 2>&1; then
	grep -E 'error|Error' -m 40 "$LOGS/build.log" >&2 || tail -40 "$LOGS/build.log" >&2
	die "build of the $KERNEL kernel failed; log: $LOGS/build.log"
fi
grep -E 'warning:' "$LOGS/build.log" >&2 || true
rm -rf "$KDIR/modules"
"${KMAKE[@]}" INSTALL_MOD_PATH="$KDIR/modules" INSTALL_MOD_STRIP=1 \
	modules_install >>"$LOGS/build.log" 2>&1
# Without depmod (Debian's kmod), modules_install only warns, and every
# modprobe in the guest fails.
ls "$KDIR"/modules/lib/modules/*/modules.dep >/dev/null 2>&1 ||
	die "no modules.dep: is depmod (package kmod) installed? See $LOGS/build.log"
# The harness's own test modules (tests/guest/modules/), built against
# the kernel as external modules, their objects kept apart from the
# source (MO=), and installed beside the kernel's. Built afresh each
# time: kbuild makes an external module from its output directory, where
# the kernel's include/config/ stamps its objects depend on are not
# found, so a change of the kernel's configuration would leave them as
# they were, and the kernel may refuse them (a relocation it cannot
# apply) or run them wrong.
rm -rf "$KDIR/harness-modules"
ext=(M="$HARNESS/tests/guest/modules" MO="$KDIR/harness-modules")
if ! { "${KMAKE[@]}" "${ext[@]}" W=1 modules &&
       "${KMAKE[@]}" "${ext[@]}" INSTALL_MOD_PATH="$KDIR/modules" INSTALL_MOD_STRIP=1 \
		modules_install; } >>"$LOGS/build.log" 2>&1; then
	die "build of the harness's test modules failed; log: $LOGS/build.log"
fi
say "build: done in $(($(date +%s) - start)) s"
