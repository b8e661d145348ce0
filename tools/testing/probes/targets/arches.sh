#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Build the probe code of both kernels, upstream and the series, for every
# architecture whose Kconfig has probe events and for which Debian has a
# cross GCC, with W=1: the probe-event layer (kernel/trace/), the kprobes
# core, uprobes (kernel/events/), the kprobes KUnit suite, the
# architecture's own probes code, and the other files the manifest names
# that the configuration builds. Prints per architecture and kernel the
# errors and warnings, and for the series the warnings upstream does not
# give; exits non-zero when the series has errors or new warnings anywhere.
#
#   ARCHES="arm64 x86_64"  only these (default: all of ALL_ARCHES)
#   ARCHES=matrix          arm64's configurations (make matrix): the
#                          "architectures" named arm64-VARIANT below
#
# Each architecture and kernel has its own hard-linked tree, built in tree
# (build/arches/ARCH/KERNEL/src), so that with every path relative an
# object hashes the same in ccache for both kernels and every architecture.
. "$(dirname "$0")/../settings.sh"

A=$BUILD/arches
FRAG=$HARNESS/build/config/arches.config

ALL_ARCHES="x86_64 i386 arm64 arm riscv64 powerpc64le s390x mips64el sparc64
	parisc sh arc loongarch64 csky"
# arm64 as distributions and developers configure it (`make matrix`).
MATRIX="arm64-kvm arm64-16k arm64-64k arm64-nopac arm64-nokprobes
	arm64-nokprobe-events arm64-noperf arm64-nomodules arm64-noftrace
	arm64-preempt-lazy arm64-btf"
ARCHES=${ARCHES:-$ALL_ARCHES}
[ "$ARCHES" != matrix ] || ARCHES=$MATRIX
read -ra SELECTED -d '' <<<"$ARCHES" || true

# NAME -> make's ARCH, the source directory, CROSS_COMPILE ("-": the host's
# gcc), the Debian package of the compiler ("-": none needed), the defconfig
# target, and the options only that architecture has.
arch_info() {
	case $1 in
	x86_64)      echo "x86_64 x86 - - defconfig" ;;
	i386)        echo "i386 x86 - - defconfig" ;;  # the host gcc, -m32
	arm64)       echo "arm64 arm64 aarch64-linux-gnu- gcc-aarch64-linux-gnu defconfig" ;;
	# The matrix: arm64's defconfig and fragment, then one change. With
	# KVM (defconfig's), its hypervisor code is built too: it includes
	# asm/kprobes.h. Without pointer authentication in the kernel no
	# function starts with PACIASP, which the ftrace site's offset and
	# the decoder see. No kprobes leaves uprobes, no perf events needs
	# CoreSight off (it selects them), lazy preemption is 7.3's other
	# model for arm64 (defconfig's is full; 7.3 offers PREEMPT_NONE only
	# where there is no preemption, and big-endian arm64 depends on
	# BROKEN), BTF brings the probe events' BTF arguments
	# (PROBE_EVENTS_BTF_ARGS), which the fragment leaves off, and needs
	# defconfig's reduced debug information off.
	arm64-kvm)   echo "arm64 arm64 aarch64-linux-gnu- gcc-aarch64-linux-gnu defconfig CONFIG_KVM=y" ;;
	arm64-16k)   echo "arm64 arm64 aarch64-linux-gnu- gcc-aarch64-linux-gnu defconfig CONFIG_ARM64_16K_PAGES=y" ;;
	arm64-64k)   echo "arm64 arm64 aarch64-linux-gnu- gcc-aarch64-linux-gnu defconfig CONFIG_ARM64_64K_PAGES=y" ;;
	arm64-nopac) echo "arm64 arm64 aarch64-linux-gnu- gcc-aarch64-linux-gnu defconfig CONFIG_ARM64_PTR_AUTH_KERNEL=n" ;;
	arm64-nokprobes) echo "arm64 arm64 aarch64-linux-gnu- gcc-aarch64-linux-gnu defconfig CONFIG_KPROBES=n CONFIG_UPROBES=y" ;;
	arm64-nokprobe-events) echo "arm64 arm64 aarch64-linux-gnu- gcc-aarch64-linux-gnu defconfig CONFIG_KPROBE_EVENTS=n" ;;
	arm64-noperf) echo "arm64 arm64 aarch64-linux-gnu- gcc-aarch64-linux-gnu defconfig CONFIG_CORESIGHT=n CONFIG_PERF_EVENTS=n" ;;
	arm64-nomodules) echo "arm64 arm64 aarch64-linux-gnu- gcc-aarch64-linux-gnu defconfig CONFIG_MODULES=n" ;;
	arm64-noftrace) echo "arm64 arm64 aarch64-linux-gnu- gcc-aarch64-linux-gnu defconfig CONFIG_FUNCTION_TRACER=n" ;;
	arm64-preempt-lazy) echo "arm64 arm64 aarch64-linux-gnu- gcc-aarch64-linux-gnu defconfig CONFIG_PREEMPT_LAZY=y" ;;
	arm64-btf)   echo "arm64 arm64 aarch64-linux-gnu- gcc-aarch64-linux-gnu defconfig CONFIG_DEBUG_INFO_NONE=n CONFIG_DEBUG_INFO_DWARF4=y CONFIG_DEBUG_INFO_REDUCED=n CONFIG_DEBUG_INFO_BTF=y" ;;
	arm)         echo "arm arm arm-linux-gnueabihf- gcc-arm-linux-gnueabihf defconfig CONFIG_ARM_KPROBES_TEST=m" ;;
	riscv64)     echo "riscv riscv riscv64-linux-gnu- gcc-riscv64-linux-gnu defconfig" ;;
	powerpc64le) echo "powerpc powerpc powerpc64le-linux-gnu- gcc-powerpc64le-linux-gnu ppc64le_defconfig" ;;
	powerpc)     echo "powerpc powerpc powerpc-linux-gnu- gcc-powerpc-linux-gnu pmac32_defconfig" ;;
	s390x)       echo "s390 s390 s390x-linux-gnu- gcc-s390x-linux-gnu defconfig" ;;
	mips64el)    echo "mips mips mips64el-linux-gnuabi64- gcc-mips64el-linux-gnuabi64 64r2el_defconfig" ;;
	mipsel)      echo "mips mips mipsel-linux-gnu- gcc-mipsel-linux-gnu defconfig" ;;
	sparc64)     echo "sparc64 sparc sparc64-linux-gnu- gcc-sparc64-linux-gnu defconfig" ;;
	parisc)      echo "parisc parisc hppa-linux-gnu- gcc-hppa-linux-gnu defconfig" ;;
	parisc64)    echo "parisc64 parisc hppa64-linux-gnu- gcc-hppa64-linux-gnu defconfig" ;;
	sh)          echo "sh sh sh4-linux-gnu- gcc-sh4-linux-gnu defconfig" ;;
	arc)         echo "arc arc arc-linux-gnu- gcc-arc-linux-gnu defconfig" ;;
	loongarch64) echo "loongarch loongarch loongarch64-linux-gnu- gcc-loongarch64-linux-gnu defconfig" ;;
	csky)        echo "csky csky csky-linux-gnu- gcc-csky-linux-gnu defconfig" ;;
	*)           return 1 ;;
	esac
}

mkdir -p "$A"
[ -f "$BASE/Makefile" ] || die "no base at $BASE: run tools/testing/probes/build/setup.sh (make setup)"
sudo=
[ "$(id -u)" -eq 0 ] || sudo=sudo

# --- The cross compilers: installed when missing, apt-get update once. ---
declare -A SKIP=()
# (Whole outputs compared, not piped into grep -q: with pipefail, the
# writer killed by SIGPIPE would fail the test.)
installed() { [ "$(dpkg-query -W -f='${Status}' "$1" 2>/dev/null)" = "install ok installed" ]; }
candidate() { [[ $(apt-cache policy "$1" 2>/dev/null) == *"Candidate: "[0-9]* ]]; }
missing=()
for a in "${SELECTED[@]}"; do
	info=$(arch_info "$a") || die "unknown architecture '$a' (known: $(tr -s ' \n\t' ' ' <<<"$ALL_ARCHES"))"
	read -r _ _ cross pkg _ <<<"$info"
	[ "$pkg" = - ] || installed "$pkg" || missing+=("$pkg")
done
# apt-get update once, when something is to be installed or the package
# lists know nothing yet (not for a compiler Debian does not have).
if [ ${#missing[@]} -gt 0 ]; then
	update=
	candidate gcc || update=yes
	for pkg in "${missing[@]}"; do candidate "$pkg" && update=yes; done
	[ -z "$update" ] || $sudo apt-get update -qq >/dev/null 2>&1 || say "arches: apt-get update failed"
fi
apt_install() {
	DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq \
		--no-install-recommends "$@" >/dev/null 2>&1
}
have=()
for pkg in "${missing[@]}"; do
	candidate "$pkg" && have+=("$pkg")	# the others are reported below
done
if [ ${#have[@]} -gt 0 ]; then
	say "arches: installing ${have[*]}"
	# All at once; when that fails, one by one, to keep those that install.
	apt_install "${have[@]}" || for pkg in "${have[@]}"; do
		apt_install "$pkg" || say "arches: installing $pkg failed"
	done
fi
for a in "${SELECTED[@]}"; do
	read -r _ _ cross pkg _ <<<"$(arch_info "$a")"
	[ "$cross" = - ] && cross=
	if [ "$pkg" != - ] && ! installed "$pkg"; then
		SKIP[$a]="Debian bookworm has no $pkg"
		candidate "$pkg" && SKIP[$a]="$pkg did not install"
	elif ! command -v "${cross}gcc" >/dev/null; then
		SKIP[$a]="no ${cross}gcc"
	fi
done

# Is OBJ (a file.o or dir/) built by DIR's Makefile under this .config?
# Unknown (no obj- line names it): yes, and the build says.
obj_enabled() {
	local dir=$1 obj=$2 config=$3 var f mk=()
	for f in Makefile Kbuild; do [ ! -f "$dir/$f" ] || mk+=("$dir/$f"); done
	[ ${#mk[@]} -gt 0 ] || return 0
	var=$(awk -v o="$obj" '/^obj-/ { for (i = 2; i <= NF; i++) if ($i == o) { print $1; exit } }' "${mk[@]}" |
		sed -E 's/^obj-//; s/^\$\((CONFIG_[A-Za-z0-9_]+)\).*/\1/; s/[+:]?=$//')
	case $var in
	"" | y | y+= | y:=) return 0 ;;
	CONFIG_*) grep -Eq "^$var=(y|m)$" "$config" ;;
	*) return 0 ;;
	esac
}

# What to build in a configured tree: the probe-event layer, kprobes core,
# uprobes, the kprobes KUnit suite, the architecture's probes code (a
# probes/kprobes/uprobes directory, or kprobes/uprobes/optprobes files),
# and every other C or assembly file the manifest names that this
# configuration builds (the scheduler's and softirq's preemption hooks,
# x86's rethook, arm64's ftrace and stack walker...), so that a change to
# a file outside the probe code is built for every architecture too;
# another architecture's files are left out.
targets() {
	local src=$1 srcarch=$2 name=$3 d f
	local cfg=$src/.config
	printf '%s\n' kernel/trace/ kernel/events/
	[ "$name" != arm64-kvm ] || echo arch/arm64/kvm/
	grep -q '^CONFIG_KPROBES=y' "$cfg" && echo kernel/kprobes.o
	grep -Eq '^CONFIG_KPROBES_SANITY_TEST=(y|m)' "$cfg" && echo lib/tests/test_kprobes.o
	# A patched header's other users: bpf.h's bpf_prog_run_array() wraps
	# the loop trace_call_bpf() now calls alone.
	grep -q '^CONFIG_BPF_LIRC_MODE2=y' "$cfg" && echo drivers/media/rc/bpf-lirc.o
	(cd "$src" && find "arch/$srcarch" -type d \
		\( -name probes -o -name kprobes -o -name uprobes \) -prune -print) |
	while read -r d; do
		obj_enabled "$src/$(dirname "$d")" "$(basename "$d")/" "$cfg" && echo "$d/"
	done
	(cd "$src" && find "arch/$srcarch/kernel" -maxdepth 1 -type f \
		\( -name '*kprobe*' -o -name '*uprobe*' -o -name '*optprobe*' \) \
		\( -name '*.c' -o -name '*.S' \)) |
	while read -r f; do
		obj_enabled "$src/$(dirname "$f")" "$(basename "${f%.*}").o" "$cfg" && echo "${f%.*}.o"
	done
	awk '!/^#/ && $1 ~ /\.[cS]$/ { print $1 }' "$TOP/manifest" |
	while read -r f; do
		case $f in
		arch/"$srcarch"/*) ;;
		arch/* | tools/* | samples/*) continue ;;
		esac
		[ -f "$src/$f" ] || continue
		obj_enabled "$src/$(dirname "$f")" "$(basename "${f%.*}").o" "$cfg" && echo "${f%.*}.o"
	done
	return 0
}

# Diagnostics of a log, one line each: warnings ("warning") or errors
# ("error"). One in a header is followed by "[via FILE]", the source file
# being compiled, as gcc's context lines give it.
diagnostics() {
	awk -v kind="$2" '
	function file(l) { sub(/^In file included from /, "", l); sub(/^ +from /, "", l)
			   sub(/:.*/, "", l); return l }
	/^In file included from [^ ]+:[0-9]+[:,]$/ || /^ +from [^ ]+:[0-9]+[:,]$/ {
		f = file($0); if (f ~ /\.(c|S)$/) tu = f; next }
	/^[^ :]+: (In function|In static function|At top level|In member function)/ {
		f = file($0); if (f ~ /\.(c|S)$/) tu = f; next }
	# The messages of make, and the host tools (bison on genksyms),
	# which are no part of the probes and rebuilt only in a new tree.
	/^make/ || /^scripts\// { next }
	kind == "warning" && /(^|: )(warning|Warning|WARNING): / ||
	kind == "error" && /(^|: )((fatal )?error|Error|ERROR): / {
		f = file($0)
		if (tu != "" && f !~ /\.(c|S)$/ && f != tu) print $0 " [via " tu "]"
		else print
	}' "$1"
}

declare -A ERR=() WARN=() NEW=() SECS=() WAIT=() STATUS=() DROPPED=()
# A command that compiles, when no other kernel build runs on the machine
# (its two cores); the time spent waiting for that adds up in WAITED.
WAITED=0
locked() {
	local before rc=0 stamp=$A/.locked.$$
	before=$(date +%s)
	# shellcheck disable=SC2016 # expanded by the inner shell
	flock "$KBUILD_LOCK" bash -c 'date +%s >"$0"; exec "$@"' "$stamp" "$@" || rc=$?
	WAITED=$((WAITED + $(cat "$stamp" 2>/dev/null || echo "$before") - before))
	rm -f "$stamp"
	return $rc
}
JOBS=${JOBS:-2}
total_start=$(date +%s)

build_one() {
	local a=$1 kernel=$2 info march srcarch cross pkg defcfg extra kdir src logs
	info=$(arch_info "$a")
	read -r march srcarch cross pkg defcfg extra <<<"$info"
	[ "$cross" = - ] && cross=
	kdir=$A/$a/$kernel
	src=$kdir/src
	logs=$kdir/logs
	local start
	start=$(date +%s)
	WAITED=0
	# The tree, as the harness assembles it (base - manifest + ours).
	KDIR=$kdir KERNEL=$kernel "$HARNESS/build/assemble.sh" >&2
	mkdir -p "$logs"
	local -a kmake=(make -C "$src" ARCH="$march" CROSS_COMPILE="$cross"
		CC="ccache ${cross}gcc" HOSTCC="ccache gcc")

	# Config: defconfig, then our fragment (and the architecture's own
	# options); made aside and put in place only when it differs.
	local tmp=.config.arches frag=$logs/fragment.config
	{ cat "$FRAG"; for o in $extra; do echo "$o"; done; } >"$frag"
	rm -f "$src/$tmp"
	if ! { KCONFIG_CONFIG=$tmp locked "${kmake[@]}" -s "$defcfg" &&
		(cd "$src" && KCONFIG_CONFIG=$tmp scripts/kconfig/merge_config.sh -m "$tmp" "$frag") &&
		KCONFIG_CONFIG=$tmp locked "${kmake[@]}" -s olddefconfig; } >"$logs/config.log" 2>&1; then
		STATUS[$a/$kernel]="config failed (see $logs/config.log)"
		ERR[$a/$kernel]=1
		WARN[$a/$kernel]=0
		SECS[$a/$kernel]=$(($(date +%s) - start - WAITED))
		WAIT[$a/$kernel]=$WAITED
		return 0
	fi
	# What Kconfig did not take: each option of the fragment whose value
	# is not in the final config.
	DROPPED[$a/$kernel]=$(
		sed -nE 's/^(CONFIG_[A-Za-z0-9_]+)=(.*)/\1 \2/p; s/^# (CONFIG_[A-Za-z0-9_]+) is not set/\1 n/p' "$frag" |
		while read -r opt val; do
			got=$(sed -nE "s/^$opt=(.*)/\1/p" "$src/$tmp")
			[ "${got:-n}" = "$val" ] || echo "${opt#CONFIG_}=${got:-n}"
		done | paste -sd ' ')
	if cmp -s "$src/$tmp" "$src/.config"; then rm -f "$src/$tmp"; else mv "$src/$tmp" "$src/.config"; fi

	local -a tg
	# Once each, and no object of a directory already listed.
	read -ra tg <<<"$(targets "$src" "$srcarch" "$a" | awk '
		/\/$/ { dirs[++n] = $0 }
		{ t = $0; m = t ~ /\/$/ ? n - 1 : n
		  for (i = 1; i <= m; i++) if (index(t, dirs[i]) == 1) next }
		!seen[t]++' | tr '\n' ' ')"
	echo "${tg[*]}" >"$logs/targets"
	# Every object is rebuilt each time, from ccache when unchanged, so that
	# each log has every diagnostic and the two kernels' logs compare. Only
	# the build's own files go: those with one link (the sources share
	# theirs with the base); the host programs stay.
	(cd "$src" && find . \( -path ./scripts -o -path ./tools \) -prune -o \
		-type f -links 1 \( -name '*.o' -o -name '*.s' \) -print0 | xargs -0r rm -f)
	say "arches: $a $kernel: ${tg[*]}"
	local rc=0
	locked "${kmake[@]}" -s -k -j"$JOBS" W=1 "${tg[@]}" \
		>"$logs/build.log" 2>&1 || rc=$?
	diagnostics "$logs/build.log" warning >"$logs/warnings"
	diagnostics "$logs/build.log" error >"$logs/errors"
	ERR[$a/$kernel]=$(wc -l <"$logs/errors")
	if [ $rc -ne 0 ] && [ ! -s "$logs/errors" ]; then
		{ echo "make failed ($rc) without a compiler error; the log's end:"
		  tail -5 "$logs/build.log" | sed 's/^/  /'; } >"$logs/errors"
		ERR[$a/$kernel]=1
	fi
	WARN[$a/$kernel]=$(wc -l <"$logs/warnings")
	STATUS[$a/$kernel]=$([ $rc -eq 0 ] && echo ok || echo "make failed")
	SECS[$a/$kernel]=$(($(date +%s) - start - WAITED))
	WAIT[$a/$kernel]=$WAITED
}

# The series' warnings upstream does not give: compared by file and
# message, without line and column, counting repeats.
new_warnings() {
	local a=$1 up=$A/$1/upstream/logs/warnings se=$A/$1/series/logs/warnings
	awk 'NR == FNR { k = $0; sub(/^[^ :]+:[0-9]+(:[0-9]+)?: /, "", k)
			 f = $0; sub(/:.*/, "", f); n[f ": " k]++; next }
	     { k = $0; sub(/^[^ :]+:[0-9]+(:[0-9]+)?: /, "", k)
	       f = $0; sub(/:.*/, "", f)
	       if (n[f ": " k]-- <= 0) print }' "$up" "$se"
}

for a in "${SELECTED[@]}"; do
	[ -z "${SKIP[$a]:-}" ] || { say "arches: $a: skipped: ${SKIP[$a]}"; continue; }
	for kernel in upstream series; do
		build_one "$a" "$kernel"
		say "arches: $a $kernel: ${STATUS[$a/$kernel]}, ${ERR[$a/$kernel]} errors," \
		    "${WARN[$a/$kernel]} warnings, ${SECS[$a/$kernel]} s (and ${WAIT[$a/$kernel]} s waiting for the build lock)"
	done
	if [ -f "$A/$a/series/logs/warnings" ] && [ -f "$A/$a/upstream/logs/warnings" ]; then
		new_warnings "$a" >"$A/$a/series/logs/new-warnings"
		NEW[$a]=$(wc -l <"$A/$a/series/logs/new-warnings")
	fi
done

# --- Report. ---
bad=0
echo
printf '%-12s %-9s %6s %8s %5s %6s %6s  %s\n' arch kernel errors warnings new build waited status
for a in "${SELECTED[@]}"; do
	if [ -n "${SKIP[$a]:-}" ]; then
		printf '%-12s %-9s %6s %8s %5s %6s %6s  %s\n' "$a" - - - - - - "skipped: ${SKIP[$a]}"
		continue
	fi
	for kernel in upstream series; do
		new=-
		[ "$kernel" = series ] && new=${NEW[$a]:-?}
		printf '%-12s %-9s %6s %8s %5s %5ss %5ss  %s\n' "$a" "$kernel" "${ERR[$a/$kernel]}" \
			"${WARN[$a/$kernel]}" "$new" "${SECS[$a/$kernel]}" "${WAIT[$a/$kernel]}" \
			"${STATUS[$a/$kernel]}"
	done
	if [ "${ERR[$a/series]}" != 0 ] || [ "${NEW[$a]:-1}" != 0 ]; then bad=1; fi
done

echo
echo "Options Kconfig did not take (asked in config/arches.config):"
for a in "${SELECTED[@]}"; do
	[ -z "${SKIP[$a]:-}" ] || continue
	echo "  $a: ${DROPPED[$a/upstream]:-none}"
	[ "${DROPPED[$a/series]}" = "${DROPPED[$a/upstream]}" ] ||
		echo "  $a (series): ${DROPPED[$a/series]:-none}"
done

for a in "${SELECTED[@]}"; do
	[ -z "${SKIP[$a]:-}" ] || continue
	L=$A/$a/series/logs
	if [ -s "$L/errors" ]; then
		echo
		echo "== $a series: errors (log: $L/build.log)"
		head -40 "$L/errors"
	fi
	if [ -s "$L/new-warnings" ]; then
		echo
		echo "== $a series: warnings upstream does not give"
		head -40 "$L/new-warnings"
	fi
	if [ -s "$A/$a/upstream/logs/errors" ]; then
		echo
		echo "== $a upstream: errors (the toolchain or config, not the series)"
		head -10 "$A/$a/upstream/logs/errors"
	fi
done
echo
waited=0
for w in "${WAIT[@]}"; do waited=$((waited + w)); done
echo "arches: $(($(date +%s) - total_start)) s in all, $waited s of it waiting for other builds; logs in $A/ARCH/KERNEL/logs"
exit $bad
