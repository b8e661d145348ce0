# SPDX-License-Identifier: GPL-2.0
# Helpers of the guest jobs; sourced.

result() { # suite status name
	echo "@result $1 $2 $3" >&3
}

log_file() { # suite name file
	echo "@log $1 $2" >&3
	cat "$3" >&3
	echo "@endlog" >&3
}

# The bench's function and its probe points: the offsets of its first STP
# (stepped out of line) and of its first BL (simulated). Sets f, stp, bl.
bench_points() {
	f=__arm64_sys_getppid
	stp=$(sed -n 's/^stp //p' /harness/bench.offsets)
	bl=$(sed -n 's/^bl //p' /harness/bench.offsets)
}

# From the tracefs directory: no event enabled, none defined, no trace.
clean_slate() {
	echo 0 >events/enable
	echo >dynamic_events
	echo >trace
}

# with_bench_probes NAME MEASURE DEFINITION...: define the probes (event
# group "bench"), enable them, run MEASURE once they are in their steady
# state, then remove them. A definition refused is reported as @error.
with_bench_probes() {
	name=$1
	measure=$2
	shift 2
	for def in "$@"; do
		echo "$def" >>kprobe_events || echo "@error $name: $def" >&3
	done
	echo 1 >events/bench/enable
	# A kernel with optimized probes switches them in from a worker,
	# after an RCU-tasks grace period.
	sleep 1
	"$measure"
	echo 0 >events/bench/enable
	echo >trace
	echo >dynamic_events
}
