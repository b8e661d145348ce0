#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The kernel's own BPF selftests of probes: 7.3's test_progs, built by the
# host (bpf-selftests-image.sh) with only its tests of kprobes, uprobes and their
# BPF links (attach_probe, kprobe_multi_test, uprobe_multi_test, bpf_cookie,
# missed, fill_link_info...), on the disk labelled bpf-selftests that
# clients-guest.sh mounts at /bpf-selftests, with this kernel's
# bpf_testmod.ko, which test_progs loads from its directory for the tests
# of module functions. Every test that test_progs lists runs alone
# (-a NAME, an exact name), bounded in time, with -v: each subtest's output
# comes out just before its verdict line, and a skip's reason with it.
# Each subtest's verdict is a result "TEST/SUBTEST" (OK PASS, SKIP SKIP,
# FAIL FAIL); a test without subtests is one result "TEST"; a test that
# fails outside its subtests, or whose run ends without a verdict (it died
# or ran out of time), is a FAIL "TEST" as well. The output that preceded
# each result that is not a pass is kept as its log.
. /harness/lib.sh

suite=bpf-selftests
dir=/bpf-selftests
out=/tmp/bpf-selftests.out
chunk=/tmp/bpf-selftests.chunk
log=/tmp/bpf-selftests.log
# Each test's bound, in seconds: kprobe_multi_bench_attach attaches to
# every traceable function of the kernel, slow under emulation.
limit=1200

# No test_progs: the host could not build it, and says so itself.
[ -x $dir/test_progs ] || exit 0
cd $dir || exit 0

# test_progs pins nothing for these tests, but some libbpf paths look for
# bpffs; mounted here if the guest has not, and unmounted after.
bpffs=
if ! mountpoint -q /sys/fs/bpf 2>/dev/null && mount -t bpf bpf /sys/fs/bpf 2>/dev/null; then
	bpffs=/sys/fs/bpf
fi
# libbpf reads the kernel's configuration for the programs' __kconfig
# externs (get_func_ip_test's, fill_link_info's...) from /boot/config-
# RELEASE, where a distribution puts it, or /proc/config.gz, which the
# kernel has not (no IKCONFIG): the kernel's own, from the
# initramfs, put there for the suite's time (in the kernel-files disk's
# snapshot).
kconfig=/boot/config-$(uname -r)
if [ ! -e "$kconfig" ] && cp /harness/kernel.config "$kconfig" 2>/dev/null; then
	added_kconfig=$kconfig
else
	added_kconfig=
fi

# name NAME: NAME as a result's name, one word (report.py and `expected`
# split on blanks).
name() { printf '%s' "${1// /_}"; }

# keep NAME STATUS: NAME's result, and its log (the output since the
# previous verdict) when it is not a pass.
keep() {
	result $suite "$2" "$1"
	[ "$2" = PASS ] && return
	{ echo "test_progs -v -a $t: exit $rc, $1 $2"; cat $chunk; } >$log
	log_file $suite "$1" $log
}

if ! ./test_progs -l >$out 2>&1; then
	result $suite FAIL list
	log_file $suite list $out
	exit 0
fi
tests=$(grep -E '^[A-Za-z0-9_]+$' $out)
if [ -z "$tests" ]; then
	result $suite FAIL list
	log_file $suite list $out
	exit 0
fi

for t in $tests; do
	t0=$(cut -d. -f1 /proc/uptime)
	timeout -k 10 $limit ./test_progs -v --no-error-summary -a "$t" >$out 2>&1 3>&-
	rc=$?
	echo "@time $suite/$t $(($(cut -d. -f1 /proc/uptime) - t0))" >&3
	# kprobe_multi_bench_attach times one kprobe_multi link over every
	# traceable function (and over modules' functions, by name and by
	# address): each of its runs, in order, is reported as
	# "@time kprobe-multi-bench-N-attach SECONDS" and "-detach", and
	# "@count kprobe-multi-bench-N FUNCTIONS".
	if [ "$t" = kprobe_multi_bench_attach ]; then
		awk '/do_bench_test: found/ { n++; print "@count kprobe-multi-bench-" n, $3 }
		     /do_bench_test: attached in/ { sub(/s$/, "", $4); print "@time kprobe-multi-bench-" n "-attach", $4 }
		     /do_bench_test: detached in/ { sub(/s$/, "", $4); print "@time kprobe-multi-bench-" n "-detach", $4 }' \
			$out >&3
	fi
	: >$chunk
	verdict=
	subs=0
	sub_failed=
	seen=" "
	while IFS= read -r line; do
		if [[ $line =~ ^#[0-9]+/[0-9]+\ +(.+):(OK|SKIP|FAIL)$ ]]; then
			n=$(name "${BASH_REMATCH[1]}")
			case ${BASH_REMATCH[2]} in
			OK) st=PASS ;;
			*) st=${BASH_REMATCH[2]} ;;
			esac
			# A test's child process that exits through exit() flushes
			# a copy of test_progs' buffered output: a verdict seen
			# twice is one.
			if [[ $seen != *" $n "* ]]; then
				seen="$seen$n "
				subs=$((subs + 1))
				[ "$st" != FAIL ] || sub_failed=y
				keep "$n" "$st"
			fi
			: >$chunk
		elif [[ $line =~ ^#[0-9]+\ +$t:(OK|SKIP|FAIL) ]]; then
			verdict=${BASH_REMATCH[1]}
			break
		else
			printf '%s\n' "$line" >>$chunk
		fi
	done <$out
	# What came after the verdict (test_progs' summary), for a failure's log.
	sed -n "/^#[0-9]* *$t:/,\$p" $out >>$chunk
	if [ -z "$verdict" ]; then
		echo "no verdict from test_progs: it died or ran out of time ($limit s)" >>$chunk
		keep "$t" FAIL
	elif [ "$subs" = 0 ]; then
		case $verdict in OK) keep "$t" PASS ;; *) keep "$t" "$verdict" ;; esac
	elif [ "$verdict" = FAIL ] && [ -z "$sub_failed" ]; then
		keep "$t" FAIL
	fi
done

# Nothing left loaded by test_progs (it unloads bpf_testmod at its exit).
if grep -q '^bpf_testmod ' /proc/modules; then
	lsmod >$log 2>&1
	result $suite FAIL bpf_testmod-unloaded
	log_file $suite bpf_testmod-unloaded $log
fi
[ -z "$bpffs" ] || umount $bpffs
[ -z "$added_kconfig" ] || rm -f "$added_kconfig"

exit 0
