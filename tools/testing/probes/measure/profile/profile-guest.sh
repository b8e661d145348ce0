#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# The guest side of `make profile`: the probe kinds of `make bench`, one
# after the other, each announced by getpgid(K) for the debugger attached
# to the guest, which then steps through one getppid call instruction by
# instruction (profile.sh on the host). K numbers the kinds in the order
# the host's table lists them. The uprobe kinds (arm64) announce
# themselves the same way, then call uprobe_loop's probed function
# three times: the debugger steps the kernel through the second call's
# exceptions.
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
kind 2 "p:bench/b $f a0=$A0 a1=$A1"
kind 3 "p:bench/c $f s=@linux_banner:string"
kind 4 "p:bench/d $f+$copied"
kind 5 "p:bench/e $f+$call"
kind 6 "r:bench/f $f"
kind 7 "p:bench/g $f" "r:bench/g2 $f"
kind 16 "f:bench/p $f"
kind 17 "f:bench/q $f%return a=\$arg1"
echo "@profile 18" >&3
/harness/progs/bpf_count "$f" $loop mark 18 3
kind 19 "p:bench/c2 $f s=@init_uts_ns+130:string"
# The same program through the BPF trampoline, at the entry (fentry) and
# the exit (fexit): make bench's (s4) and (s5), on the function as BTF
# names it.
/harness/progs/bpf_count -f "$btf_f" $loop mark 20 3
/harness/progs/bpf_count -x "$btf_f" $loop mark 21 3
# The kprobe program at the return (make bench's (s2)), and through one
# kprobe_multi link at the entry ((s3)).
/harness/progs/bpf_count -r "$f" $loop mark 22 3
/harness/progs/bpf_count -m "$f" $loop mark 23 3

echo "$ftrace_f" >set_ftrace_filter
echo function >current_tracer
mark 8
echo nop >current_tracer
echo >set_ftrace_filter
echo >trace

# The breakpoint path: (a), and a fetch from a symbol. With no optimizer
# to turn off (upstream arm64), it is the kernel's only path.
opt=/proc/sys/debug/kprobes-optimization
[ -w $opt ] && was=$(cat $opt) && echo 0 >$opt
kind 14 "p:bench/a $f"
kind 15 "p:bench/m $f v=@linux_banner:u32"
[ -w $opt ] && echo "$was" >$opt

ul=/harness/progs/uprobe_loop
[ -x $ul ] || exit 0
uoff() { sed -n "s/^\([0-9a-fx]*\) $1\$/\1/p" "$ul.syms"; }
ukind() { # K DEFINITION
	echo "$2" >uprobe_events
	echo 1 >events/bench/enable
	echo "@profile $1" >&3
	$ul mark "$1" 3
	echo 0 >events/bench/enable
	echo >trace
	echo >uprobe_events
}
ukind 9 "p:bench/h $ul:$(uoff ub_nop)"
ukind 10 "p:bench/i $ul:$(uoff ub_push)"
ukind 11 "p:bench/j $ul:$(uoff ub_ret)"
ukind 12 "r:bench/k $ul:$(uoff ub_func)"
ukind 13 "p:bench/l $ul:$(uoff ub_fp)"
