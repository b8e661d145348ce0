#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# The guest side of `make bench`, under QEMU -icount shift=0 (a guest
# nanosecond is a retired instruction). Reports on fd 3:
#   @bench NAME NANOSECONDS   the fastest of ROUNDS rounds of N getppid calls
#   @reg STEP NANOSECONDS     defining, enabling, disabling, deleting 1000 probes
#   @mem BYTES                kernel memory (slab + percpu) per defined probe
#   @objects BYTES            the slab objects' bytes per defined probe
. /harness/lib.sh
cd /sys/kernel/tracing
loop=/harness/progs/getppid_loop
n=${bench_n:-20000}
rounds=${bench_rounds:-5}
bench_points
clean_slate
echo "@bench baseline $($loop "$n" "$rounds")" >&3

measure() { echo "@bench $name $($loop "$n" "$rounds")" >&3; }
bench() { k=$1; shift; with_bench_probes "$k" measure "$@"; }

bench a "p:bench/a $f"
bench b "p:bench/b $f x0=%x0 x1=%x1"
bench c "p:bench/c $f s=@linux_banner:string"
bench d "p:bench/d $f+$stp"
bench e "p:bench/e $f+$bl"
bench f "r:bench/f $f"
bench g "p:bench/g $f" "r:bench/g2 $f"

# Uprobe kinds, on arm64's uprobe_loop: a uprobe event on the NOP, the
# push of the frame record, RET and MOV x29, SP of the function it calls,
# and a uretprobe on it, each against the unprobed loop.
ul=/harness/progs/uprobe_loop
if [ -x $ul ]; then
	uoff() { sed -n "s/^\([0-9a-fx]*\) $1\$/\1/p" "$ul.syms"; }
	echo "@bench ubase $($ul "$n" "$rounds")" >&3
	umeasure() { echo "@bench $name $($ul "$n" "$rounds")" >&3; }
	ubench() {
		name=$1
		echo "$2" >uprobe_events || echo "@error $1: $2" >&3
		echo 1 >events/bench/enable
		umeasure
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
echo "$f" >set_ftrace_filter
echo function >current_tracer
echo "@bench ftrace $($loop "$n" "$rounds")" >&3
echo nop >current_tracer
echo >set_ftrace_filter
echo >trace

# Registration: 1000 probes on distinct traceable functions.
grep -v -e __ -e '\.' -e '\[' available_filter_functions | awk '!seen[$1]++' |
	head -n 1000 | awk '{ printf "p:bench/p%d %s\n", NR, $1 }' >/tmp/defs
mem() { awk '/^(Slab|Percpu):/ { kb += $2 } END { print kb }' /proc/meminfo; }
step() { # FUNCTION: its guest time, in nanoseconds
	t0=$($loop now)
	"$@"
	t1=$($loop now)
	echo "$((t1 - t0))"
}
# One write(2) per definition, as "echo DEF >>kprobe_events" makes, timed
# by write_lines itself: a shell loop would add its own reading of the
# list, byte by byte, to each definition (about 260,000 instructions, as
# much as the kernel's work).
define_all() { /harness/progs/write_lines kprobe_events </tmp/defs >/tmp/wl; }
enable_all() { echo 1 >events/bench/enable; }
disable_all() { echo 0 >events/bench/enable; }
delete_all() { echo >kprobe_events; }
# The bytes of the slab objects in use, by cache: exact where meminfo's
# Slab also counts the slab pages' free room.
objects() { awk 'NR > 2 { b += $2 * $4 } END { print b }' /proc/slabinfo; }
m0=$(mem)
o0=$(objects)
define_all
echo "@reg define $(cut -d' ' -f1 /tmp/wl)" >&3
m1=$(mem)
o1=$(objects)
defined=$(grep -c '^p:bench/' kprobe_events)
echo "@reg defined $defined" >&3
echo "@mem $(((m1 - m0) * 1024 / (defined ? defined : 1)))" >&3
echo "@objects $(((o1 - o0) / (defined ? defined : 1)))" >&3
echo "@reg enable $(step enable_all)" >&3
echo "@reg disable $(step disable_all)" >&3
echo "@reg delete $(step delete_all)" >&3
