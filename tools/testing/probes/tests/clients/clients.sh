#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# `make check-clients`: the tools people probe with, bpftrace and perf,
# perf's own tests of probes (perf test) and the ftracetest tests that need
# a real shell, run on a Debian userland in the guest (clients-guest.sh,
# clients.d/), on each kernel of KERNELS (series and upstream, side
# by side) for each guest of GUESTS (arm64).
# The kernels are make check's (DWARF, BTF and virtio disks:
# config/common.config); the userland is userland.sh's image, built once
# per architecture and reused; the kernel's vmlinux goes to the guest on a
# second disk, for perf probe; the kernel's own BPF selftests runner,
# test_progs, with the tests of probes and the kernel's bpf_testmod.ko, on
# a third (bpf-selftests-image.sh, clients.d/bpf-selftests.sh).
# CLIENTS_SUITES=NAME[,NAME...] runs only those suites of clients.d/
# (bpf-selftests, bpftrace, ftracetest, libbpf-tools, load, perf,
# perf-tests), for work on one.
# The load (clients.d/load.sh: stress-ng under 2,000 kprobes, 1,000
# uprobes and ten bpftrace programs) has guests of its own, one for each
# CPU count of LOAD_CPUS (2 and 4), each loaded for LOAD_SECONDS (600).
# FLAVOR=debug runs it all on check-debug's kernel, with debug.config's
# checkers (KASAN, lockdep, kmemleak...), and three times the guests' time
# limits. `make check` runs some suites (CHECK_CLIENTS) on its kernels
# through here, and reads the reports from CLIENTS_REPORTS.
case ${FLAVOR:-} in
'') slow=1 ;;
debug) slow=3 ;;
*) echo "check-clients: FLAVOR must be empty or debug, not '$FLAVOR'" >&2; exit 2 ;;
esac
. "$(dirname "$0")/../../settings.sh"

GUESTS=${GUESTS:-arm64}
KERNELS=${KERNELS:-series upstream}
SUITES=${CLIENTS_SUITES:-}
SUITES=${SUITES//,/ }
# The suites of the guest that runs them in one boot: all but the load's.
MAIN=$(echo " $SUITES " | sed 's/ load / /; s/^ *//; s/ *$//')
LOAD_CPUS=${LOAD_CPUS:-2 4}
LOAD_SECONDS=${LOAD_SECONDS:-600}
# selected SUITE: the suite runs (no CLIENTS_SUITES, or it names the suite's
# file: ftracetest.sh reports as userland-ftracetest).
selected() { [ -z "$SUITES" ] || [[ " $SUITES " == *" ${1#userland-} "* ]]; }
out=${CLIENTS_REPORTS:-$BUILD/check-clients}
mkdir -p "$out"
rc=0

# kernel_files: an ext4 image holding the kernel's vmlinux, as perf looks
# for it (/boot/vmlinux-RELEASE), and the source files whose lines perf
# probe -L shows (src/): fs/open.c, for perf.sh's do_sys_openat2, and
# fs/namei.c, for getname_flags, where the vfs_getname tests of perf's own
# (perf-tests.sh) look for a line to probe. perf.sh names src/ with -s;
# perf's tests do not, and perf then looks for a file under the directory
# its compilation unit was compiled in (DW_AT_comp_dir): comp-dirs lists
# those of these files, read from vmlinux's DWARF, for the guest to show
# src/ there. Each object's own: with ccache's hash_dir off, an object
# taken from the cache keeps the tree it was first compiled in (upstream's
# fs/namei.o is most often the series'). Remade when the kernel or this
# script is.
kernel_files() {
	local img=$KDIR/kernel-files.img dir=$KDIR/kernel-files release size f
	local sources="fs/open.c fs/namei.c"
	if [ "$img" -nt "$OBJ/vmlinux" ] && [ "$img" -nt "$HARNESS/tests/clients/clients.sh" ]; then
		return
	fi
	release=$(cat "$OBJ/include/config/kernel.release")
	rm -rf "$dir" "$img"
	mkdir -p "$dir"
	ln "$OBJ/vmlinux" "$dir/vmlinux-$release"
	for f in $sources; do
		mkdir -p "$dir/src/${f%/*}"
		cp "$SRC/$f" "$dir/src/$f"
	done
	# The compilation units' top-level DIEs alone (--dwarf-depth=1): a
	# couple of seconds for the whole vmlinux.
	readelf --debug-dump=info --dwarf-depth=1 "$OBJ/vmlinux" 2>/dev/null | awk -v files=" $sources " '
		function value(line, attr) {
			sub(".*" attr "[ \t]*:[ \t]*([(][^)]*[)]:[ \t]*)?", "", line)
			return line
		}
		/DW_TAG_compile_unit/ { name = ""; next }
		/DW_AT_name/ && name == "" { name = value($0, "DW_AT_name"); next }
		/DW_AT_comp_dir/ && index(files, " " name " ") { print value($0, "DW_AT_comp_dir") }
	' | sort -u >"$dir/comp-dirs"
	[ -s "$dir/comp-dirs" ] ||
		say "kernel-files: no DW_AT_comp_dir of $sources in vmlinux: perf's own tests will not find them"
	size=$(du -sm "$dir" | cut -f1)
	mke2fs -q -F -t ext4 -L kernel-files -m 0 -E root_owner=0:0 \
		-d "$dir" "$img" "$((size + size / 4 + 16))M"
	rm -rf "$dir"
}

# boot_clients NAME CPUS TIMEOUT ARGS BPF-DISK: boot the clients guest on
# CPUS CPUs (SMP's number if empty) with ARGS on its command line; what it
# reported goes to $LOGS/clients-NAME.results, its console beside it, and
# the boot's own verdict, "boot-and-run" (suffixed -NAME but for the
# suites' guest), to $results.
boot_clients() {
	local name=$1 cpus=$2 limit=$3 args=$4 bpfsel=$5 start test=boot-and-run
	[ "$name" = suites ] || test=boot-and-run-$name
	start=$(date +%s)
	rm -f "$LOGS/clients-$name.results"
	if SMP=${cpus:-${SMP:-2}} \
	   DISKS="$BUILD/debs/$DEB_ARCH/userland.img $KDIR/kernel-files.img${bpfsel:+ $bpfsel}" \
	   BOOT_ARGS="$args" "$HARNESS/guest/boot.sh" clients "$limit" \
	   >"$LOGS/clients-$name.out" 2>"$LOGS/clients-$name-boot.err"; then
		verdict guest PASS "$test" >>"$results"
	else
		verdict guest FAIL "$test" >>"$results"
		{ echo "@log guest $test"; cat "$LOGS/clients-$name-boot.err"
		  tail -60 "$LOGS/clients.console"; echo "@endlog"; } >>"$results"
	fi
	mv "$LOGS/clients.results" "$LOGS/clients-$name.results" 2>/dev/null ||
		: >"$LOGS/clients-$name.results"
	mv "$LOGS/clients.console" "$LOGS/clients-$name.console" 2>/dev/null || true
	say "check-clients: the $guest $kernel guest ($name) ran in $(($(date +%s) - start)) s"
}

BOOT_ARGS_CLIENTS=${BOOT_ARGS:-}
unset BOOT_ARGS
for guest in $GUESTS; do
	for kernel in $KERNELS; do
		export GUEST=$guest KERNEL=$kernel
		KDIR=
		. "$HARNESS/settings.sh"
		results=$LOGS/clients.boot-results
		mkdir -p "$LOGS"
		rm -f "$LOGS"/clients-*.results
		: >"$results"
		if ! { "$HARNESS/build/assemble.sh" && "$HARNESS/build/build.sh" &&
		       "$HARNESS/build/initramfs.sh" && "$HARNESS/build/userland.sh" &&
		       kernel_files; } >"$LOGS/clients-prepare.log" 2>&1; then
			cat "$LOGS/clients-prepare.log" >&2
			verdict guest FAIL build >>"$results"
			{ echo "@log guest build"; tail -60 "$LOGS/clients-prepare.log"; echo "@endlog"; } >>"$results"
		else
			grep -E '^(config|  CONFIG_|build:|userland:)' "$LOGS/clients-prepare.log" >&2 || true
			# test_progs's disk: a build that fails is a failure of its
			# own; the other suites run.
			bpfsel=
			if selected bpf-selftests; then
				if ! bpfsel=$("$HARNESS/tests/clients/bpf-selftests-image.sh" image 2>"$LOGS/clients-bpf-selftests.log"); then
					bpfsel=
					verdict bpf-selftests FAIL build >>"$results"
					{ echo "@log bpf-selftests build"; tail -60 "$LOGS/clients-bpf-selftests.log"
					  echo "@endlog"; } >>"$results"
				fi
				grep '^bpf-selftests:' "$LOGS/clients-bpf-selftests.log" >&2 || true
			fi
			if [ -z "$SUITES" ] || [ -n "$MAIN" ]; then
				boot_clients suites "" "${CHECK_TIMEOUT:-$((3600 * slow))}" \
					"$BOOT_ARGS_CLIENTS${MAIN:+ clients=${MAIN// /,}}" "$bpfsel"
				# A suite that could not run at all reports nothing.
				# x86_64's serial console ends its lines with CR LF.
				for suite in bpftrace perf perf-tests userland-ftracetest libbpf-tools \
					${bpfsel:+bpf-selftests}; do
					selected "$suite" || continue
					grep -Eq "^@ktap $suite"$'\r'"?\$" "$LOGS/clients-suites.results" ||
						verdict clients FAIL "$suite-reported" >>"$results"
				done
			fi
			if selected load; then
				for cpus in $LOAD_CPUS; do
					boot_clients "load$cpus" "$cpus" $((LOAD_SECONDS + 2400 * slow)) \
						"$BOOT_ARGS_CLIENTS clients=load load_seconds=$LOAD_SECONDS" ""
					grep -Eq "^(not )?ok [0-9]+ cpus$cpus-" "$LOGS/clients-load$cpus.results" ||
						verdict clients FAIL "load-$cpus-cpus-reported" >>"$results"
				done
			fi
		fi
		"$HARNESS/report.py" --no-total "$guest" "$kernel" "$LOGS"/clients-*.results "$results" |
			tee "$out/$guest-$kernel.report" || rc=1
	done
done

# Side by side: each guest's kernels. A failure on either fails the run:
# upstream's differences are listed in `expected`. make check, which
# names CLIENTS_REPORTS, prints these lines in its own sum.
[ -z "${CLIENTS_REPORTS:-}" ] || exit $rc
echo
for guest in $GUESTS; do
	for kernel in $KERNELS; do
		tail -n 1 "$out/$guest-$kernel.report"
	done
done
exit $rc
