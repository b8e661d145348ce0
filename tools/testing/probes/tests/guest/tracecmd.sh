#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# description: trace-cmd shows kprobe and kretprobe events' arguments as cat trace does
# requires: kprobe_events trace-cmd
# A real client: Debian's trace-cmd, whose libtraceevent formats the
# records from each event's format file, must show for kprobe and kretprobe
# events with arguments of every type the same values `cat trace` shows.
# One result per type: every argument of that type in every record agrees.
. /harness/lib.sh
cd /sys/kernel/tracing

if ! trace-cmd list -o >/dev/null 2>&1; then
	result tracecmd FAIL trace-cmd-runs
	exit 0
fi

clean_slate
# name=type pairs: the argument's name says its type, for the results.
f=do_sys_openat2
while read -r def; do
	echo "$def" >>kprobe_events || result tracecmd FAIL "define: $def"
done <<EOF
p:tc/ints $f u8=$A3:u8 u16=$A3:u16 u32=$A3:u32 u64=$A3:u64 s8=$A0:s8 s16=$A0:s16 s32=$A0:s32 s64=$A0:s64
p:tc/hex $f x8=$A3:x8 x16=$A3:x16 x32=$A3:x32 x64=$A3:x64
p:tc/str $f string=+0($A1):string ustring=+u0($A1):ustring comm=\$comm imm=\\"text"
p:tc/chr $f char=+1($A1):char
p:tc/sym $f symbol=$RCODE:symbol symstr=$RCODE:symstr
p:tc/bits $f bitfield=$A3:b4@4/32
p:tc/arr $f u8arr=+0($A1):u8[4] x16arr=+0($A1):x16[2] x64arr=+0($A1):x64[2] chararr=+0($A1):char[3] u16arr=+0($A1):u16[2]
p:tc/strarr $f strarr=+0($A2):string[1]
r:tc/ret $f retval=\$retval:s64 entry=\$arg1:s32
EOF
echo 1 >events/tc/enable
cat /harness/lib.sh >/dev/null
cat /proc/version >/dev/null
echo 0 >events/tc/enable

# "EVENT: (...) ARGS" from cat trace, and from trace-cmd report.
sed -n 's/.* \([a-z]*\): ([^)]*)\(.*\)$/\1\2/p' trace >/tmp/tc-trace
trace-cmd extract -o /tmp/tc.dat >/tmp/tc-extract.log 2>&1
trace-cmd report -i /tmp/tc.dat >/tmp/tc-report 2>&1
sed -n 's/.* \([a-z]*\): *([^)]*)\(.*\)$/\1\2/p' /tmp/tc-report >/tmp/tc-tcmd

if [ ! -s /tmp/tc-trace ] || [ ! -s /tmp/tc-tcmd ]; then
	result tracecmd FAIL records
	cat /tmp/tc-extract.log /tmp/tc-report >/tmp/tc-why
	log_file tracecmd records /tmp/tc-why
	exit 0
fi

for type in u8 u16 u32 u64 s8 s16 s32 s64 x8 x16 x32 x64 string ustring \
	    comm imm char symbol symstr bitfield u8arr x16arr x64arr chararr u16arr strarr \
	    retval entry; do
	# The value of argument TYPE in each record, in record order.
	val() {
		sed -n "s/.* $type=\\([^ ]*\\).*/\\1/p" "$1" |
			head -n 20
	}
	val /tmp/tc-trace >/tmp/tc-a
	val /tmp/tc-tcmd >/tmp/tc-b
	if [ -s /tmp/tc-a ] && cmp -s /tmp/tc-a /tmp/tc-b; then
		result tracecmd PASS "$type"
	else
		result tracecmd FAIL "$type"
		{
			echo "cat trace:"; cat /tmp/tc-a
			echo "trace-cmd report:"; cat /tmp/tc-b
			echo "--- trace"; grep "$type=" /tmp/tc-trace | head -n 3
			echo "--- report"; grep "$type=" /tmp/tc-tcmd | head -n 3
		} >/tmp/tc-why
		log_file tracecmd "$type" /tmp/tc-why
	fi
done
echo >dynamic_events
