#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# perf (trixie-backports' linux-perf 7.3, the kernel's version: /usr/bin/perf
# itself, no wrapper) as people run it: perf probe writes
# kprobe_events and uprobe_events from the DWARF of the kernel's vmlinux
# and of a user binary; perf record, script and stat read the events'
# formats and records. Values are checked against the workload's calls
# and against what the kernel's own trace shows.
. /harness/lib.sh

T=/harness/clients_target
out=/tmp/perf.out
tracefs=/sys/kernel/tracing
VMLINUX=/boot/vmlinux-$(uname -r)
# The sources perf probe -L shows (clients.sh copies the file it needs).
SRC=/boot/src
export PAGER=cat

# verdict NAME: PASS if the command before succeeded, else FAIL with $out.
verdict() { verdict_of $? perf "$1" $out; }

# p ARGS...: perf, bounded in time, its output in $last and appended to
# $out.
last=/tmp/perf.last
p() {
	local rc

	echo "+ perf $*" >>$out
	timeout -k 5 600 perf "$@" >$last 2>&1
	rc=$?
	cat $last >>$out
	return $rc
}

echo 0 >$tracefs/events/enable
echo >$tracefs/dynamic_events
: >$out

# perf probe from DWARF: in do_file_open (fs/namei.c), at the line that
# tests the first path_openat()'s result (as perf probe -L numbers it: the
# call's own line has no probe point), members of its local struct
# nameidata, filled by then: the directory fd and the name walked, a
# string. Then the open's return value, from
# do_sys_openat2 (perf names a return probe's event NAME__return).
line=$(timeout 600 perf probe -k "$VMLINUX" -s "$SRC" -L do_file_open 2>>$out |
	sed -n 's/^ *\([0-9]\+\) .*filp == ERR_PTR(-ECHILD).*/\1/p' | head -1)
echo "the line after path_openat's: $line" >>$out
p probe -k "$VMLINUX" -a "clients_fd=do_file_open:$line dfd=nd.dfd path=nd.name->name:string" &&
	p probe -k "$VMLINUX" -a 'clients_ret=do_sys_openat2%return ret=$retval'
[ -d $tracefs/events/probe/clients_fd ] &&
	[ -d $tracefs/events/probe/clients_ret__return ] &&
	grep -q '^p:probe/clients_fd .*dfd=.*path=+0(.*):string' $tracefs/kprobe_events
verdict probe-dwarf-kernel

# perf probe -x: a function of a user binary, by its DWARF arguments, and
# its return.
p probe -x $T -a 'add3 a b c' && p probe -x $T -a 'add3%return ret=$retval'
[ -d $tracefs/events/probe_clients_target/add3 ] &&
	[ -d $tracefs/events/probe_clients_target/add3__return ]
verdict probe-dwarf-user

# perf record, then perf script: the directory fd (AT_FDCWD) and the path
# of each of the workload's three opens, as perf decodes them, are the
# values the kernel's own trace shows for the same events (enabled in
# tracefs too), and each open returned the fd the workload got.
echo >$tracefs/trace
echo 1 >$tracefs/events/probe/clients_fd/enable
p record -q -o /tmp/perf.data -e probe:clients_fd -e probe:clients_ret__return -- \
	$T open /tmp/perf-open 3
fd=$(sed -n 's/^fd //p' $last)
echo 0 >$tracefs/events/probe/clients_fd/enable
perf script -i /tmp/perf.data -F comm,event,trace 2>>$out >/tmp/perf.script
cat /tmp/perf.script >>$out
script=$(grep 'clients_fd:' /tmp/perf.script | grep -o 'dfd=[^ ]* path="/tmp/perf-open"')
trace=$(grep 'clients_target-.* clients_fd:' $tracefs/trace |
	grep -o 'dfd=[^ ]* path="/tmp/perf-open"')
rets=$(grep 'clients_ret__return:' /tmp/perf.script | grep -c "ret=0x$(printf %x "$fd")\\b\\|ret=$fd\\b")
{ echo "script: $script"; echo "trace: $trace"; echo "returns of fd $fd: $rets"; } >>$out
[ -n "$fd" ] && [ "$(echo "$script" | grep -c .)" = 3 ] &&
	[ "$script" = "$trace" ] && ! echo "$script" | grep -vqx 'dfd=-100 path="/tmp/perf-open"' &&
	[ "$rets" -ge 3 ]
verdict record-script

# perf stat counts exactly the calls the workload made: 123 of add3 and
# 123 returns.
p stat -x, -e probe_clients_target:add3 -e probe_clients_target:add3__return -- $T add 123
grep -q '^123,.*probe_clients_target:add3,' $last &&
	grep -q '^123,.*probe_clients_target:add3__return,' $last
verdict stat-count

# perf list names the events; perf probe -l shows where they are. The
# log keeps only the list's lines of probes: it has a thousand more.
echo "+ perf list tracepoint | grep probe" >>$out
timeout -k 5 600 perf list tracepoint >$last 2>&1
grep probe $last >>$out
listed=$(grep -cE '^ *(probe:clients_fd|probe:clients_ret__return|probe_clients_target:add3|probe_clients_target:add3__return) ' $last)
p probe -l
[ "$listed" = 4 ] &&
	grep -q "clients_fd *(on do_file_open:$line@fs/namei.c" $last &&
	grep -q 'add3 *(on add3@.*clients_target.c in /harness/clients_target' $last
verdict list

# perf stat and record on a watchpoint event, which perf opens as any
# other trace event: three writes of dmesg_restrict by its sysctl (and
# nothing else writes it), counted system-wide, and recorded with the
# writer. 7.3 has no watchpoint events: a skip there.
if [ -f $tracefs/wprobe_events ]; then
	dr=/proc/sys/kernel/dmesg_restrict
	val=$(cat $dr)
	echo 'w:clients/dr w@dmesg_restrict:4 v=$value:s32' >>$tracefs/dynamic_events
	p stat -x, -a -e clients:dr -- sh -c "echo $val >$dr; echo $val >$dr; echo $val >$dr"
	grep -q '^3,.*clients:dr,' $last
	verdict wprobe-stat
	p record -q -a -o /tmp/perf-w.data -e clients:dr -- sh -c "echo $val >$dr; echo $val >$dr"
	perf script -i /tmp/perf-w.data -F comm,event,trace 2>>$out >/tmp/perf-w.script
	cat /tmp/perf-w.script >>$out
	[ "$(grep -c "clients:dr:.* v=$val\b" /tmp/perf-w.script)" = 2 ]
	verdict wprobe-record
	echo '-:clients/dr' >>$tracefs/dynamic_events
else
	result perf SKIP wprobe-stat
	result perf SKIP wprobe-record
fi

# perf probe -d removes every one of them, from both files.
p probe -d 'probe:clients_*' && p probe -d 'probe_clients_target:*'
[ -z "$(cat $tracefs/kprobe_events $tracefs/uprobe_events)" ] &&
	[ ! -d $tracefs/events/probe ] && [ ! -d $tracefs/events/probe_clients_target ]
verdict delete

exit 0
