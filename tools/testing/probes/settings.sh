# SPDX-License-Identifier: GPL-2.0
# Shared settings of the harness scripts; sourced, never run.

set -euo pipefail

HARNESS=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
TOP=${TOP:-$(cd "$HARNESS/../../.." && pwd)}
BUILD=${BUILD:-$TOP/build}
KERNEL=${KERNEL:-series}
# The guest's architecture: arm64 (the default) or x86_64.
GUEST=${GUEST:-arm64}
# The base: Debian's linux-source of BASE_SERIES, the newest mainline-
# derived source Debian ships, from BASE_SUITE (setup.sh fetches it with
# apt's own tools and the harness's own sources list, debian_apt below).
BASE_SERIES=${BASE_SERIES:-7.3}
BASE_SUITE=${BASE_SUITE:-trixie-backports}
BASE_DEBS=$BUILD/debs/linux-source-$BASE_SERIES
BASE_TARBALL=${BASE_TARBALL:-$BASE_DEBS/linux-source-$BASE_SERIES.tar.xz}
BASE=$BUILD/base/linux
# The compiler: gcc (Debian's GCC 12), or clang (trixie's clang-19 and
# lld-19, LLVM=-19, in clangroot.sh's root, with config/clang.config:
# BTI, kCFI and the shadow call stack in the kernel, as Android builds
# arm64).
TOOLCHAIN=${TOOLCHAIN:-gcc}
case $TOOLCHAIN in
gcc) VARIANT= ;;
clang) VARIANT=-clang ;;
*) echo "TOOLCHAIN must be gcc or clang, not '$TOOLCHAIN'" >&2; exit 2 ;;
esac
# The configuration's flavour, over the ordinary one: debug (config/
# debug.config: KASAN, KFENCE, lockdep, UBSAN, kmemleak...), rt
# (config/rt.config: PREEMPT_RT), defconfig (the architecture's defconfig
# under the harness's fragments, see build.sh), dump (config/
# dump.config: PROBE_EVENTS_DUMP_FETCHARG, for make compare) or distro
# (config/distro.config: without the preemption and irqs-off tracers, as
# distributions build, for make bench). Each has its own tree. The ordinary kernel is also the one bpftrace and perf run on.
FLAVOR=${FLAVOR:-}
case $FLAVOR in
'') ;;
debug | rt | defconfig | dump | distro) VARIANT=$VARIANT-$FLAVOR ;;
*) echo "FLAVOR must be empty, debug, rt, defconfig, dump or distro, not '$FLAVOR'" >&2; exit 2 ;;
esac
# Where this kernel's tree, objects and logs go (make arches gives its own).
KDIR=${KDIR:-$BUILD/$GUEST/$KERNEL$VARIANT}
# Built in tree: with every path relative, objects hash the same in ccache
# for both kernels and for every clone of the project.
SRC=$KDIR/src
OBJ=$SRC
LOGS=$KDIR/logs
JOBS=${JOBS:-$(nproc)}
# One kernel build at a time on the machine, whoever starts it.
KBUILD_LOCK=$BUILD/.kbuild.lock

# What differs between the guests: the toolchain, the kernel image, the
# Debian architecture of the guest's packages and libraries, QEMU, its
# disks' device, its console and what the kernel's command line needs
# under QEMU's emulation (GUEST_ARGS).
case $GUEST in
arm64)
	export ARCH=arm64
	export CROSS_COMPILE=aarch64-linux-gnu-
	IMAGE_TARGET=Image
	IMAGE=arch/arm64/boot/Image
	DEFCONFIG=arch/arm64/configs/defconfig
	DEB_ARCH=arm64
	MULTIARCH=aarch64-linux-gnu
	# QEMU_AARCH64: another qemu-system-aarch64 (the newer one of
	# newqemu.sh, which emulates GCS and MOPS), else the host's.
	# One host thread runs all the vCPUs, as on x86_64 (below). With a
	# thread each, a vCPU running a function whose ftrace site another
	# vCPU patches can go on running the site as it was until the next
	# patch of it: a kprobe armed through ftrace, its BL and ops literal
	# in place, then took no hit for a whole round of bpf.sh's
	# closed-while-hit in 1 round of 20 to 60, while one disarmed kept
	# taking them. On one thread, none in 180 rounds; the guest's
	# "make tests" takes 294 s instead of 204 s.
	QEMU=("${QEMU_AARCH64:-qemu-system-aarch64}" -M virt -cpu max,pauth-impdef=on
	      -accel "${ARM64_ACCEL:-tcg,thread=single}"
	      -device virtio-serial-device)
	BLK_DEVICE=virtio-blk-device
	CONSOLE=ttyAMA0
	GUEST_ARGS=
	;;
x86_64)
	export ARCH=x86_64
	export CROSS_COMPILE=
	IMAGE_TARGET=bzImage
	IMAGE=arch/x86/boot/bzImage
	DEFCONFIG=arch/x86/configs/x86_64_defconfig
	DEB_ARCH=amd64
	MULTIARCH=x86_64-linux-gnu
	# One host thread runs all the vCPUs. With a thread each (QEMU 7.2's
	# default), a vCPU can still run a translation of a site after
	# another vCPU's text_poke_bp() has replaced its int3 and all CPUs
	# have been synchronized: "Oops: int3" at the site, both kernels,
	# within seconds when the function tracer is switched on and off over
	# kmem_cache_free() under load. One thread ends it, and the check
	# guest runs faster (2 min 38 s against 3 min 4 s).
	QEMU=(qemu-system-x86_64 -M q35 -cpu max -accel "${X86_ACCEL:-tcg,thread=single}"
	      -device virtio-serial-pci)
	BLK_DEVICE=virtio-blk-pci
	CONSOLE=ttyS0
	# No clocksource watchdog on the TSC, which TCG takes from the host's.
	# Its check of the TSC across CPUs (clocksource.c's
	# watchdog_check_skew()) spins with interrupts masked until the other
	# vCPU answers its IPI or 50 us pass; on one host thread, in about one
	# boot of 50, the other vCPU stayed halted and the time the timeout is
	# read from stood still with the tick: the guest hung without a word.
	GUEST_ARGS=tsc=nowatchdog
	;;
*) echo "GUEST must be arm64 or x86_64, not '$GUEST'" >&2; exit 2 ;;
esac
# The compilers, as make's arguments, each behind ccache.
if [ "$TOOLCHAIN" = clang ]; then
	KBUILD_CC=(LLVM=-19 CC="ccache clang-19" HOSTCC="ccache clang-19")
else
	KBUILD_CC=(CC="ccache ${CROSS_COMPILE}gcc" HOSTCC="ccache gcc")
fi
# Reproducible objects, so that ccache hits across clones and kernels.
export KBUILD_BUILD_TIMESTAMP='Thu Jan  1 00:00:00 UTC 2026'
export KBUILD_BUILD_USER=probes
export KBUILD_BUILD_HOST=harness
export CCACHE_BASEDIR=$BUILD
export CCACHE_NOHASHDIR=true
export CCACHE_SLOPPINESS=time_macros
export CCACHE_MAXSIZE=${CCACHE_MAXSIZE:-8G}

case $KERNEL in
series | upstream) ;;
*) echo "KERNEL must be series or upstream, not '$KERNEL'" >&2; exit 2 ;;
esac

# debian_apt APT-GET-ARGS...: apt-get with the harness's own sources list
# and state under $BUILD/apt: Debian's newer suites (trixie, trixie-
# backports, sid), for what bookworm does not ship, leaving the machine's
# own apt configuration as it is. Only for downloads: nothing fetched this
# way is installed over the host.
debian_apt() {
	local root=$BUILD/apt
	if [ ! -f "$root/sources.list" ]; then
		mkdir -p "$root/lists/partial" "$root/cache/archives/partial"
		local s
		for s in trixie trixie-backports sid; do
			echo "deb [signed-by=/usr/share/keyrings/debian-archive-keyring.gpg]" \
				"http://deb.debian.org/debian $s main"
		done >"$root/sources.list"
	fi
	apt-get -q -o Dir::Etc::SourceList="$root/sources.list" \
		-o Dir::Etc::SourceParts=/dev/null -o Dir::State::Lists="$root/lists" \
		-o Dir::Cache="$root/cache" -o Dir::State::status=/dev/null \
		-o APT::Architectures::=amd64 -o APT::Architectures::=arm64 \
		-o APT::Sandbox::User=root "$@"
}

say() { printf '%s\n' "$*" >&2; }

# shellcheck source=ktap.sh
. "$HARNESS/ktap.sh"

# verdict SUITE PASS|FAIL NAME: a result of the host's own (a build, a
# guest's boot), as a KTAP document of one test, the form report.py reads.
verdict() {
	ktap_begin "$1"
	ktap_result "$2" "$3"
	ktap_end
}

die() { printf 'error: %s\n' "$*" >&2; exit 1; }

# same_as_series_tree DIR WHO: DIR holds every path the series touches as
# the series tree of $KDIR has it, deleted ones absent; else die, naming
# WHO (the script that made DIR).
same_as_series_tree() {
	local f
	while read -r f; do
		if [ -f "$KDIR/src/$f" ]; then
			cmp -s "$KDIR/src/$f" "$1/$f" ||
				die "$2: $f differs from the series tree $KDIR/src"
		else
			[ ! -e "$1/$f" ] || die "$2: $f is left, but the series deletes it"
		fi
	done <"$KDIR/src.touched"
}
