#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# The guest side of `make profile`: the probe kinds of `make bench`, one
# after the other, each announced by getpgid(K) for the debugger attached
# to the guest, which then steps through one getppid call instruction by
# instruction (profile.sh on the host). K numbers the kinds in the order
# the host's table lists them.
. /harness/lib.sh
cd /sys/kernel/tracing
loop=/harness/progs/getppid_loop
bench_points
clean_slate

mark() { # K: let the debugger step through a getppid call
	echo "@profile $1" >&3
	$loop mark "$1" 3
}

mark_kind() { mark "$name"; }
kind() { k=$1; shift; with_bench_probes "$k" mark_kind "$@"; }

mark 0
kind 1 "p:bench/a $f"
kind 2 "p:bench/b $f x0=%x0 x1=%x1"
kind 3 "p:bench/c $f s=@linux_banner:string"
kind 4 "p:bench/d $f+$stp"
kind 5 "p:bench/e $f+$bl"
kind 6 "r:bench/f $f"
kind 7 "p:bench/g $f" "r:bench/g2 $f"

echo "$f" >set_ftrace_filter
echo function >current_tracer
mark 8
echo nop >current_tracer
echo >set_ftrace_filter
echo >trace
