#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# The guest side of `make fuzz`: write FUZZ_N (10000) random and mutated
# definitions to kprobe_events, uprobe_events and dynamic_events, enable
# what was accepted under a workload, then check that the events defined
# before are all still there and that kmemleak finds nothing.
. /harness/lib.sh
cd /sys/kernel/tracing
n=${fuzz_n:-10000}	# FUZZ_N on the host, through the command line
leaks=/sys/kernel/debug/kmemleak

echo 0 >events/enable
echo >dynamic_events
# The events that must survive: group "sentinel", which no input names.
echo "p:sentinel/k1 vfs_read a=$A0 s=+0($A1):string" >>kprobe_events
echo "r:sentinel/k2 vfs_read r=\$retval" >>kprobe_events
echo "p:sentinel/u1 /bin/busybox:0x1000 x=$A0" >>uprobe_events
echo "e:sentinel/e1 sched.sched_process_fork p=\$parent_pid" >>dynamic_events
grep sentinel dynamic_events | sort >/tmp/sentinels.before

[ -w "$leaks" ] && echo clear >"$leaks"

awk -v n="$n" -v seed="${FUZZ_SEED:-1}" -f /harness/fuzz.awk /harness/fuzz.corpus |
	grep -v sentinel >/tmp/fuzz.in
accepted=0
refused=0
while IFS= read -r line; do
	case $line in
	u*) file=uprobe_events; line=${line#u} ;;
	d*) file=dynamic_events; line=${line#d} ;;
	*) file=kprobe_events; line=${line#k} ;;
	esac
	if printf '%s\n' "$line" >>"$file" 2>/dev/null; then
		accepted=$((accepted + 1))
	else
		refused=$((refused + 1))
	fi
done </tmp/fuzz.in
echo "fuzz: $((accepted + refused)) definitions, $accepted accepted, $refused refused" >&3
grep -vc sentinel dynamic_events | sed 's/^/fuzz: events defined by the inputs: /' >&3

# Run what the inputs defined: their arguments read whatever they point at.
for g in events/*/; do
	case $g in events/sentinel/ | events/ftrace/ | events/header_*) continue ;; esac
	[ -f "$g/enable" ] && grep -q "^[a-z]*:${g#events/}" dynamic_events 2>/dev/null &&
		echo 1 >"$g/enable" 2>/dev/null
done
cat /proc/version >/dev/null
ls / >/dev/null
echo 0 >events/enable
grep -c ': (' trace | sed 's/^/fuzz: records written by them: /' >&3

grep sentinel dynamic_events | sort >/tmp/sentinels.after
if cmp -s /tmp/sentinels.before /tmp/sentinels.after; then
	result fuzz PASS events-survive
else
	result fuzz FAIL events-survive
	diff /tmp/sentinels.before /tmp/sentinels.after >/tmp/sentinels.diff
	log_file fuzz events-survive /tmp/sentinels.diff
fi

# Free what the inputs defined, then look for what was never freed.
echo >dynamic_events
if kmemleak_report /tmp/leaks; then
	count=$(grep -c '^unreferenced object' /tmp/leaks)
	echo "fuzz: kmemleak reports $count unreferenced objects" >&3
	if [ "$count" -eq 0 ]; then
		result fuzz PASS no-leak
	else
		result fuzz FAIL no-leak
		log_file fuzz no-leak /tmp/leaks
	fi
else
	result fuzz FAIL kmemleak-on
fi
