#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# The guest side of `make bench`, under QEMU -icount shift=0 (a guest
# nanosecond is a retired instruction). Reports on fd 3:
#   @bench NAME NANOSECONDS   the fastest of ROUNDS rounds of N getppid calls
#   @reg STEP NANOSECONDS     defining, enabling, disabling, deleting 1000 probes
#                             (enabling and disabling also one event at a
#                             time: lookup-each, enable-each, disable-each),
#                             and bench_scale probes (scale-define, ...); a
#                             BPF program attached to and detached from 1000
#                             functions through perf (perf-attach, its
#                             first and last 100 opens perf-attach-first100
#                             and -last100, perf-detach, perf-released:
#                             until no kprobe is left) and one kprobe_multi link
#                             (multi-attach, ...; scale-multi-attach)
#   @mem BYTES                kernel memory (slab + percpu) per defined probe
#   @objects BYTES            the slab objects' bytes per defined probe
#                             (@mem, @objects: 1000; @memscale-, @objectsscale-)
# With bench_pass=exceptions on the kernel's command line it times
# nothing: the host logs the guest's exceptions (QEMU -d int), and each
# kind's loop runs once, bench_exc_n calls between two marker SVCs whose
# immediate numbers the kind (progs/getppid_loop.c). It reports
#   @excname ID NAME          the markers of kind NAME are numbered ID
#   @optimized NAME K/P       K of the P kprobes of kind NAME were optimized
. /harness/lib.sh
cd /sys/kernel/tracing
loop=/harness/progs/getppid_loop
ul=/harness/progs/uprobe_loop
n=${bench_n:-20000}
rounds=${bench_rounds:-5}
pass=${bench_pass:-time}
exc_n=${bench_exc_n:-2000}
id=0
list=/sys/kernel/debug/kprobes/list
opt=/proc/sys/debug/kprobes-optimization
bench_points
clean_slate

run() { # PROGRAM: kind $name's run of the loop PROGRAM, timed or between markers
	if [ "$pass" = exceptions ]; then
		id=$((id + 1))
		echo "@excname $id $name" >&3
		"$1" exceptions "$id" "$exc_n" || echo "@error $name: no markers" >&3
	else
		echo "@bench $name $("$1" "$n" "$rounds")" >&3
	fi
}
optimized() {
	[ -r $list ] || return 0
	echo "@optimized $name $(grep -c 'OPTIMIZED' $list)/$(grep -c . $list)" >&3
}
measure() {
	# Whether the optimizer had switched the probes in: in the exceptions
	# pass, and where there is none (x86_64), in the timed pass once its
	# loop has run.
	[ "$pass" != exceptions ] || optimized
	run $loop
	[ "$pass" = exceptions ] || [ "$(uname -m)" = aarch64 ] || optimized
}
bench() { k=$1; shift; with_bench_probes "$k" measure "$@"; }

# The kprobe kinds, named PREFIX and their letter. (d) and (e) probe an
# instruction run from a copy and a call, simulated, where the probe is
# not optimized: on arm64 the function's first STP and first BL.
kprobe_kinds() { # PREFIX [all]: (a)-(g), and the short string with "all"
	p=$1
	bench "${p}a" "p:bench/a $f"
	bench "${p}b" "p:bench/b $f a0=$A0 a1=$A1"
	bench "${p}c" "p:bench/c $f s=@linux_banner:string"
	bench "${p}d" "p:bench/d $f+$copied"
	bench "${p}e" "p:bench/e $f+$call"
	bench "${p}f" "r:bench/f $f"
	bench "${p}g" "p:bench/g $f" "r:bench/g2 $f"
	[ "${2:-}" = all ] || return 0
	short_string "${p}c2"
}
# (c2), the string deref of (c) on a short string: init_uts_ns's release,
# "6.12.117", 9 bytes with its NUL and the same on both kernels, where
# linux_banner is 173. linux_proc_banner, the format of /proc/version, is
# 116 here, with the cross compiler's long name; and +0(@SYM) would read
# the string at the address that SYM's first 8 bytes make, and fault.
short_string() { bench "$1" "p:bench/c2 $f s=@init_uts_ns+130:string"; }

name=baseline
run $loop
kprobe_kinds ""

# (w) a watchpoint on data that each getppid call reads (bench_points'
# $watch), where the kernel has watchpoint events: the cost of a hit,
# with the hits per call that wprobe_profile counted.
measure_watch() {
	measure
	echo "@whits $name $(awk '$1 == "w" { print $2 }' wprobe_profile)" \
		"$([ "$pass" = exceptions ] && echo "$exc_n" || echo $((n * rounds)))" >&3
}
if [ -n "$watch" ] && grep -q '^	 *w\[:\[<group>/\]' README; then
	with_bench_probes w measure_watch "w:bench/w rw@$watch:4"
fi

# Uprobe kinds, on arm64's uprobe_loop: a uprobe event on the NOP, the
# push of the frame record, RET and MOV x29, SP of the function it calls,
# and a uretprobe on it, each against the unprobed loop.
if [ -x $ul ]; then
	uoff() { sed -n "s/^\([0-9a-fx]*\) $1\$/\1/p" "$ul.syms"; }
	name=ubase
	run $ul
	ubench() {
		name=$1
		echo "$2" >uprobe_events || echo "@error $1: $2" >&3
		echo 1 >events/bench/enable
		run $ul
		echo 0 >events/bench/enable
		echo >trace
		echo >uprobe_events
	}
	ubench h "p:bench/h $ul:$(uoff ub_nop)"
	ubench i "p:bench/i $ul:$(uoff ub_push)"
	ubench j "p:bench/j $ul:$(uoff ub_ret)"
	ubench k "r:bench/k $ul:$(uoff ub_func)"
	ubench l "p:bench/l $ul:$(uoff ub_fp)"
fi

# The floor: the function tracer on the same function.
[ -n "$ftrace_f" ] || echo "@error ftrace: ftrace does not list $f" >&3
echo "$ftrace_f" >set_ftrace_filter
echo function >current_tracer
name=ftrace
run $loop
echo nop >current_tracer
echo >set_ftrace_filter
echo >trace

# The kinds added since, after those above, which thus run in the state
# they always ran in: the short string, then (a)-(g) and it again on the
# breakpoint path, optimization off, where the kernel has an optimizer
# (upstream arm64 6.12 has none: its breakpoint path is what it always
# takes, and the host reuses its ordinary numbers).
short_string c2
if [ -w $opt ]; then
	was=$(cat $opt)
	echo 0 >$opt
	kprobe_kinds bp- all
	echo "$was" >$opt
fi

# Mainline's newer argument forms, and fprobe events, on the same
# function, after all the above: $current's field, a per-CPU read, a
# typecast chain of three accesses, an fprobe entry event and an fprobe
# exit event with an entry argument.
bench m "p:bench/m $f pid=\$current->pid"
bench n "p:bench/n $f w=this_cpu_read(@runqueues)"
bench o "p:bench/o $f pid=(task_struct)\$current->real_parent->group_leader->pid"
bench p "f:bench/p $f"
bench q "f:bench/q $f%return a=\$arg1"

# (r): (c)'s string recorded into two instances' buffers at once, the top
# one and a second.
mkdir instances/bench2
bench_also=instances/bench2
bench r "p:bench/r $f s=@linux_banner:string"
bench_also=
rmdir instances/bench2

# (s): a BPF program at the entry, attached through perf's kprobe PMU,
# counting the calls in a map as bpftrace's "kprobe:FUNC { @ = count(); }"
# does (progs/bpf_count.c): no trace event, no record.
bpf_loop() {
	# shellcheck disable=SC2086
	/harness/progs/bpf_count $bpf_how $loop "$@" 2>/tmp/bpf_count.err ||
		echo "@error $name: $(cat /tmp/bpf_count.err)" >&3
}
bpf_how=$f
name=s
run bpf_loop

# (s2)-(s5): the same counting program as a kretprobe program on the
# function (perf's kprobe PMU, its retprobe bit), as a kprobe_multi link
# (fprobe), and through the BPF trampoline at the entry (fentry) and the
# exit (fexit): what a user picks between. The trampoline's programs name
# the function as the kernel's BTF does (bench_points' btf_f).
for k in "s2 -r $f" "s3 -m $f" "s4 -f $btf_f" "s5 -x $btf_f"; do
	name=${k%% *}
	bpf_how=${k#* }
	run bpf_loop
done

[ "$pass" != exceptions ] || exit 0

# Registration: N probes on distinct traceable functions, each step timed
# on the guest's clock, and the memory the definitions take.
mem() { awk '/^(Slab|Percpu):/ { kb += $2 } END { print kb }' /proc/meminfo; }
# Each step starts once what the step before it left waiting has passed.
# The last event disabled has the event core remove its sched_switch
# probe (record-cmd), and the tracepoint's next 0->1 registration, at the
# first event enabled after it, waits for that removal's RCU and SRCU grace
# periods (tp_rcu_cond_sync()), on both kernels alike. A second
# of idle guest lets them pass (under -icount with sleep=off the guest
# clock skips idle time), and so the step after is timed for its own work.
settle() { sleep 1; }
step() { # FUNCTION: its guest time, in nanoseconds
	settle
	t0=$($loop now)
	"$@"
	t1=$($loop now)
	echo "$((t1 - t0))"
}
# One write(2) per definition, as "echo DEF >>kprobe_events" makes, timed
# by write_lines itself: a shell loop would add its own reading of the
# list, byte by byte, to each definition (about 260,000 instructions, as
# much as the kernel's work).
define_all() {
	settle
	/harness/progs/write_lines kprobe_events </tmp/defs >/tmp/wl
}
enable_all() { echo 1 >events/bench/enable; }
disable_all() { echo 0 >events/bench/enable; }
# Each event's own enable file, one open, write and close after another,
# as perf and bpftrace enable their probes: no group to batch them in.
# The writes are write_lines' own, timed by it, as the definitions are.
# The first lookup of an event's files has eventfs make its directory and
# enable file, on both kernels alike: lookup_each (the shell's glob) pays
# that, timed apart, so that the writes after it are the enabling alone.
lookup_each() { for e in events/bench/*/enable; do echo "$e"; done >/tmp/enables; }
write_each() { # TEXT: its nanoseconds
	settle
	/harness/progs/write_lines -to-each "$1" </tmp/enables >/tmp/wl
	cut -d' ' -f1 /tmp/wl
}
delete_all() { echo >kprobe_events; }
# The bytes of the slab objects in use, by cache: exact where meminfo's
# Slab also counts the slab pages' free room.
objects() { awk 'NR > 2 { b += $2 * $4 } END { print b }' /proc/slabinfo; }
# The traceable functions of vmlinux, each name once, in ftrace's order.
functions() {
	grep -v -e __ -e '\.' -e '\[' available_filter_functions | awk '!seen[$1]++ { print $1 }'
}
# registration N TAG: N probes (as many as there are functions, up to N),
# reported as "@reg TAGdefine NS" ..., "@memTAG" and "@objectsTAG".
registration() {
	functions | head -n "$1" | awk '{ printf "p:bench/p%d %s\n", NR, $1 }' >/tmp/defs
	m0=$(mem)
	o0=$(objects)
	define_all
	echo "@reg ${2}define $(cut -d' ' -f1 /tmp/wl)" >&3
	m1=$(mem)
	o1=$(objects)
	defined=$(grep -c '^p:bench/' kprobe_events)
	echo "@reg ${2}defined $defined" >&3
	echo "@mem$2 $(((m1 - m0) * 1024 / (defined ? defined : 1)))" >&3
	echo "@objects$2 $(((o1 - o0) / (defined ? defined : 1)))" >&3
	echo "@reg ${2}enable $(step enable_all)" >&3
	echo "@reg ${2}disable $(step disable_all)" >&3
	if [ -z "$2" ]; then
		echo "@reg lookup-each $(step lookup_each)" >&3
		echo "@reg enable-each $(write_each 1)" >&3
		# The same writes to events already enabled: the system
		# calls, tracefs and the event core, which arm nothing.
		echo "@reg enable-each-again $(write_each 1)" >&3
		echo "@reg disable-each $(write_each 0)" >&3
	fi
	echo "@reg ${2}delete $(step delete_all)" >&3
}
# bpf_many N TAG MODES: one BPF program at the entry of N functions
# (progs/bpf_attach_many.c), as bpftrace attaches a wildcard: "perf", a
# kprobe perf event for each function, one after another; "multi", one
# kprobe_multi link for all. Reported as "@reg TAGperf-attach NS" ...
# Not the functions the BPF selftests leave out of their kprobe_multi
# over every function (idle, RCU's own, what BPF programs call).
bpf_many() {
	functions | grep -v -x -E 'arch_cpu_idle|default_idle|rcu_.*|migrate_(disable|enable)|preempt_count_(add|sub)|bpf_.*' |
		head -n "$1" >/tmp/bpf_funcs
	for mode in $3; do
		settle
		/harness/progs/bpf_attach_many "$mode" /tmp/bpf_funcs 2>/tmp/bpf_many.err |
			sed "s/^@reg /@reg $2/" >&3
		[ ! -s /tmp/bpf_many.err ] || echo "@error bpf-$2$mode: $(cat /tmp/bpf_many.err)" >&3
	done
}
registration 1000 ""
bpf_many 1000 "" "perf multi"
# The same at scale (make bench's BENCH_SCALE, every function
# available_filter_functions lists up to that many): the group's one
# write each way, and the memory a probe takes there; a kprobe_multi link
# over as many.
if [ "${bench_scale:-0}" -gt 0 ]; then
	registration "$bench_scale" scale-
	bpf_many "$bench_scale" scale- multi
fi
exit 0
