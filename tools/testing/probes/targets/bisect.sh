#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# `make bisect`: apply the series (make series) with git am, one patch at a
# time, onto a git tree of the pristine base, and build every step for each
# guest's architecture, so that git bisect may land anywhere in it. A step
# builds, with make check's configuration and W=1, the code the series
# changes and the code that calls into it: the architecture's probe code
# and its break/step dispatch, kernel/kprobes.o, kernel/events/ (uprobes)
# and kernel/trace/. No warning may name a file the series has changed by
# that step unless upstream's file gave it too.
# The last step's tree must be the one make check builds, file for file;
# each guest then boots make check's kernel and runs ftracetest's kprobe/
# and dynevent/ directories (make check's ftracetest suite) on it.
#   BISECT_GUESTS   the architectures (default: arm64 x86_64)
#   BISECT_BOOT=0   skip the boots
#   BISECT_FULL=1   also build the whole kernel and its modules at each
#                   step, so that a symbol no step defines shows too, and
#                   boot each step: each runs ftracetest's kprobe/ and
#                   dynevent/ of its own tree, and no test may fail
#                   (unsupported ones aside)
#                   A step whose kernel image, modules and ftracetest
#                   are those of a step already booted and passed, in
#                   this run or an earlier one (build/bisect/logs/
#                   GUEST.booted), is not booted again: the log names
#                   that step. The builds are reproducible (the build
#                   number too, below), so an arm64-only step leaves
#                   x86_64's kernel as it was, and a step that removes
#                   code no longer built leaves the kernel it found.
#   BISECT_BOOTS    how many steps boot at once beside the builds
#                   (default 2)
#   BISECT_STEPS    only these steps (numbers, "3 14-20"), each built
#                   on the tree the step before left
# Each architecture has its own clone of the base repository in
# build/bisect/GUEST, built in tree as make check builds.
. "$(dirname "$0")/../settings.sh"

guests=${BISECT_GUESTS:-arm64 x86_64}
top=$BUILD/bisect
repo=$top/base.git
version=$(cat "$BUILD/base/VERSION")
mkdir -p "$top"
start_all=$(date +%s)

g() { git -c user.name=probes -c user.email=probes@localhost "$@"; }
# in_steps N: whether step N is one of BISECT_STEPS (all when unset).
in_steps() {
	local r
	[ -n "${BISECT_STEPS:-}" ] || return 0
	for r in $BISECT_STEPS; do
		case $r in
		*-*) [ "$1" -ge "${r%-*}" ] && [ "$1" -le "${r#*-}" ] && return 0 ;;
		*) [ "$1" = "$r" ] && return 0 ;;
		esac
	done
	return 1
}

"$TOP/series/series.sh"
patches=$(find "$BUILD/patches" -name '[0-9]*.patch' ! -name '0000-*' | sort)
[ -n "$patches" ] || die "bisect: make series wrote no patch"

# The base, as one commit: made once per base version (about 5 min).
if [ "$(cat "$top/base.version" 2>/dev/null)" != "$version" ]; then
	say "bisect: a git repository of Linux $version"
	rm -rf "$repo" "$top/base.tree" "$top/base.version"
	cp -al "$BASE" "$top/base.tree"
	g -C "$top/base.tree" init -q
	g -C "$top/base.tree" add -A -f
	g -C "$top/base.tree" commit -q -m "Linux $version (Debian linux-source-$BASE_SERIES)"
	g -C "$top/base.tree" tag base
	g clone -q --bare "$top/base.tree" "$repo"
	rm -rf "$top/base.tree"
	echo "$version" >"$top/base.version"
fi

failed=0
for guest in $guests; do
	(
	GUEST=$guest
	KERNEL=series
	KDIR=$BUILD/$GUEST/series
	# shellcheck source=settings.sh
	. "$HARNESS/settings.sh"
	config=$KDIR/src/.config
	# make check's tree and configuration for this guest, built if stale.
	"$HARNESS/build/assemble.sh"
	"$HARNESS/build/build.sh"
	tree=$top/$GUEST
	if [ ! -d "$tree/.git" ] || ! git -C "$tree" rev-parse -q --verify base >/dev/null; then
		rm -rf "$tree"
		g clone -q "$repo" "$tree"
	fi
	cd "$tree"
	g am --abort >/dev/null 2>&1 || true
	g checkout -q --detach base
	g reset -q --hard base
	# shellcheck disable=SC2086
	g am -q $patches || die "bisect: git am of the series onto the base failed in $tree"

	# The end of the series is make check's tree.
	same_as_series_tree "$tree" "bisect (git am)"
	g diff --name-only base HEAD | grep -vxF -f "$KDIR/src.touched" &&
		die "bisect: the series changes files make check's tree does not"

	case $GUEST in
	arm64) objs=(arch/arm64/kernel/probes/ arch/arm64/kernel/debug-monitors.o) ;;
	x86_64) objs=(arch/x86/kernel/kprobes/ arch/x86/kernel/traps.o) ;;
	esac
	# A step's boot runs beside the next steps' builds, so that they
	# overlap: the build is make on every core, the boot one QEMU
	# process whose guest mostly runs one shell at a time, so that
	# BISECT_BOOTS boots (default 2) share the machine with a build.
	# boot_prepare takes from the tree all that the boot reads (modules,
	# initramfs with the step's ftracetest, the image) before the next
	# step checks out; boot_run then boots from those copies alone, in
	# a guest directory of the boot's slot (build/bisect/GUEST-bootN).
	# A slot's next boot waits for its last (wait_boot).
	slots=${BISECT_BOOTS:-2}
	slot=0
	bootpids=()
	bootfail=$top/logs/$GUEST.bootfail
	bootdir() { echo "$top/$GUEST-boot$slot"; }
	boot_prepare() (
		# Exported: initramfs.sh reads it as this step's.
		KDIR=$(bootdir)
		export KDIR
		mkdir -p "$KDIR"
		ln -sfn "$tree" "$KDIR/src"
		# shellcheck source=settings.sh
		. "$HARNESS/settings.sh"
		rm -rf "$KDIR/modules"
		"${KMAKE[@]}" INSTALL_MOD_PATH="$KDIR/modules" INSTALL_MOD_STRIP=1 \
			modules_install >>"$log" 2>&1 || { say "bisect: $GUEST $1: modules_install failed"; exit 1; }
		"$HARNESS/build/initramfs.sh" >>"$log" 2>&1 || { say "bisect: $GUEST $1: initramfs failed"; exit 1; }
		cp "$tree/$IMAGE" "$KDIR/boot-image"
	)
	# boot_run N SUBJECT ID: boot the prepared step and run its
	# ftracetest; a failure is a line in $bootfail, a pass one in the
	# ledger.
	boot_run() (
		KDIR=$(bootdir)
		export KDIR
		# shellcheck source=settings.sh
		. "$HARNESS/settings.sh"
		boot_start=$(date +%s)
		if ! env BOOT_ARGS="suites=ftracetest" \
			BOOT_IMAGE="$KDIR/boot-image" "$HARNESS/guest/boot.sh" check 1800 >/dev/null 2>&1; then
			say "bisect: $GUEST $1 FAILED to boot or run: $2 (console: $LOGS/check.console)"
			echo "$1" >>"$bootfail"
			exit 1
		fi
		cp "$LOGS/check.results" "$top/logs/$GUEST-$(printf %02d "$1").results"
		failed=$(grep -c '^not ok' "$LOGS/check.results" || true)
		passed=$(grep -c '^ok [0-9]* [^#]*$' "$LOGS/check.results" || true)
		if [ "$failed" != 0 ] || [ "$passed" = 0 ]; then
			say "bisect: $GUEST $1 ftracetest: $passed passed, $failed failed: $2"
			grep '^not ok' "$LOGS/check.results" >&2 || true
			echo "$1" >>"$bootfail"
			exit 1
		fi
		say "bisect: $GUEST $1 boots, ftracetest $passed passed, none failed ($(($(date +%s) - boot_start)) s)"
		echo "$3 $1 $passed $(date -u +%F) $2" >>"$booted"
	)
	wait_boot() {
		[ -z "${bootpids[$slot]:-}" ] || wait "${bootpids[$slot]}" || true
		bootpids[slot]=
	}
	# step_identity: what a boot of this step runs, as one hash: the
	# kernel image, every module, the ftracetest tree and the harness's
	# guest side.
	step_identity() {
		{
			sha256sum "$IMAGE"
			find . -name '*.ko' -type f | sort | xargs -r sha256sum
			git rev-parse HEAD:tools/testing/selftests/ftrace
			find "$HARNESS/guest" -type f | sort | xargs sha256sum |
				sed "s|$HARNESS/||"
		} | sha256sum | cut -c1-16
	}
	objs+=(kernel/kprobes.o kernel/events/ kernel/trace/)
	# The build number too is fixed, so that a tree builds the same
	# image at any step.
	KMAKE=(make -s "${KBUILD_CC[@]}" -j"$JOBS" KBUILD_BUILD_VERSION=1)
	mkdir -p "$top/logs"
	booted=$top/logs/$GUEST.booted
	touch "$booted"
	: >"$bootfail"
	boots=0
	same=0
	exec 9>>"$KBUILD_LOCK"
	n=0
	built=0
	bad=0
	upstream_warnings=$top/logs/$GUEST-upstream.warnings
	: >"$upstream_warnings"
	for commit in $(git rev-list --reverse base..HEAD); do
		n=$((n + 1))
		in_steps "$n" || continue
		built=$((built + 1))
		subject=$(git log -1 --format=%s "$commit")
		log=$top/logs/$GUEST-$(printf %02d "$n").log
		g checkout -q "$commit"
		cp "$config" .config
		step_start=$(date +%s)
		flock 9
		full=${BISECT_FULL:-0}
		if ! { "${KMAKE[@]}" olddefconfig && "${KMAKE[@]}" W=1 "${objs[@]}" &&
		       { [ "$full" = 0 ] ||
			 "${KMAKE[@]}" "$IMAGE_TARGET" modules; }; } >"$log" 2>&1; then
			flock -u 9
			say "bisect: $GUEST $n FAILED to build: $subject (log: $log)"
			grep -E 'error' -m 20 "$log" >&2 || tail -20 "$log" >&2
			bad=$((bad + 1))
			continue
		fi
		flock -u 9
		# A warning is the series' when it names a file the series has
		# changed by now and upstream's build of that file did not give
		# it (file and text, line numbers aside): those of the files
		# still upstream's, from every step, are upstream's warnings.
		changed=$(git diff --name-only base HEAD)
		grep -E '^[^ :]+:[0-9]+(:[0-9]+)?: warning:' "$log" |
			sed -E 's|^\./||; s|^([^:]+):[0-9]+(:[0-9]+)?:|\1:|' |
			sort -u >"$log.warnings" || true
		ours='NR == FNR { c[$0] = 1; next } ($1 in c) == want'
		awk -F: -v want=0 "$ours" <(echo "$changed") "$log.warnings" >>"$upstream_warnings"
		sort -u -o "$upstream_warnings" "$upstream_warnings"
		warnings=$(awk -F: -v want=1 "$ours" <(echo "$changed") "$log.warnings" |
			grep -vxF -f "$upstream_warnings" || true)
		if [ -n "$warnings" ]; then
			say "bisect: $GUEST $n warns in the series' files: $subject"
			printf '  %s\n' "$warnings" >&2
			bad=$((bad + 1))
			continue
		fi
		say "bisect: $GUEST $n builds, no warning in the series' files ($(($(date +%s) - step_start)) s): $subject"
		if [ "$full" = 1 ] && [ "${BISECT_BOOT:-1}" != 0 ]; then
			id=$(step_identity)
			if prev=$(grep -m 1 "^$id " "$booted"); then
				read -r _ pstep ppassed pdate _ <<<"$prev"
				same=$((same + 1))
				say "bisect: $GUEST $n runs what step $pstep ran (kernel, modules and ftracetest $id), which booted and passed $ppassed on $pdate: not booted again"
			else
				boots=$((boots + 1))
				slot=$(((slot + 1) % slots))
				wait_boot
				if boot_prepare "$n"; then
					boot_run "$n" "$subject" "$id" &
					bootpids[slot]=$!
				else
					bad=$((bad + 1))
				fi
			fi
		fi
	done
	for slot in $(seq 0 $((slots - 1))); do
		wait_boot
	done
	bad=$((bad + $(wc -l <"$bootfail")))
	[ "$bad" -eq 0 ] || die "bisect: $GUEST: $bad of $built steps failed"
	say "bisect: $GUEST: the $built steps built, of $n, all build$(
		[ "$full" = 1 ] && echo "; $boots booted, $same the same as a step booted before")"
	) || failed=$((failed + 1))
done
[ "$failed" -eq 0 ] || die "bisect: $failed architecture(s) failed"

# The last step is make check's tree (checked above): boot its kernel and
# run ftracetest's kprobe/ and dynevent/ there.
# With BISECT_STEPS, only when the last step is one of them.
if [ "${BISECT_BOOT:-1}" != 0 ] && in_steps "$(echo "$patches" | wc -l)"; then
	for guest in $guests; do
		GUEST=$guest "$HARNESS/build/initramfs.sh" >/dev/null
		GUEST=$guest BOOT_ARGS="suites=ftracetest" "$HARNESS/guest/boot.sh" check 1800 >/dev/null ||
			die "bisect: the $guest guest's boot failed"
		logs=$(GUEST=$guest bash -c ". '$HARNESS/settings.sh' && echo \$LOGS")
		"$HARNESS/report.py" "$guest" series "$logs/check.results" ||
			die "bisect: ftracetest failed on $guest at the last step"
	done
fi
say "bisect: every step builds on $guests ($(($(date +%s) - start_all)) s)"
