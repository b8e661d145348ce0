#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# The guest side of `make compare`: write each definition of
# /harness/compare.defs and report, normalized so that two kernels' reports
# can be diffed line by line:
#   @def N TEXT           the definition as written
#   accepted | refused    whether the write succeeded
#   error: ...            the error_log entry, message and caret line
#   show: ...             its line in dynamic_events
#   dump: ...             its arguments' fetch programs (FLAVOR=dump)
#   format: ...           its format file, without the event ID
#   trace: ...            its first record after a workload that hits it
. /harness/lib.sh
prog=/harness/progs/uprobe_target
cd /sys/kernel/tracing

off() { sed -n "s/^\([0-9a-fx]*\) $1\$/\1/p" "$prog.syms"; }
addr() { grep " [tT] $1\$" /proc/kallsyms | head -n 1 | cut -d' ' -f1; }

subst=/tmp/compare.sed
{
	echo "s|{PROG}|$prog|g"
	echo "s|{ADDR:vfs_read}|0x$(addr vfs_read)|g"
	sed -n 's/^\([0-9a-fx]*\) \(.*\)$/s|{OFF:\2}|\1|g/p' "$prog.syms" 2>/dev/null
	# The definitions name arm64's registers; this guest's stand in.
	echo "s|%x30|$RCODE|g"
	for i in 0 1 2 3; do
		eval "echo \"s|%x$i|\$A$i|g\""
	done
} >"$subst"

# Addresses and pointers differ between any two boots, and a symbol's
# offset and size ("sym+0x68/0x120") between any two builds: nothing
# else is rewritten.
normalize() {
	sed -E 's/\+0x[0-9a-f]+\/0x[0-9a-f]+/+0xOFF\/0xSIZE/g
		s/0x[0-9a-f]{6,}/0xADDR/g; s/=-?[0-9]{9,}/=NUM/g'
}

# Reads (vfs_read: busybox cat sends, it does not read), opens, a fork
# and an exec, and the uprobe target.
workload() {
	dd if=/proc/version of=/dev/null bs=64 count=1 2>/dev/null
	cat /proc/version >/dev/null
	/bin/true
	$prog >/dev/null
}

# The kprobes blacklist, one symbol a line (each function of a
# blacklisted area is an entry of its own), for the host's diff.
{
	echo @blacklist
	awk '{ print $2 }' /sys/kernel/debug/kprobes/blacklist | sort -u
	echo @endblacklist
} >&3

echo 0 >events/enable
echo >dynamic_events
n=0
grep -v '^#' /harness/compare.defs | sed -f "$subst" |
while read -r file def; do
	[ -n "$file" ] || continue
	n=$((n + 1))
	keep=
	case $file in +*) keep=1; file=${file#+} ;; esac
	values=1
	case $file in !*) values=; file=${file#!} ;; esac
	case $file in
	k) target=kprobe_events ;;
	u) target=uprobe_events ;;
	*) target=dynamic_events ;;
	esac
	echo "@def $n $def" | normalize
	echo >error_log
	echo >trace
	if echo "$def" >>"$target" 2>/dev/null; then
		echo accepted
		# With PROBE_EVENTS_DUMP_FETCHARG, comment lines follow the
		# definition, one per argument's fetch program.
		line=$(grep -v '^#' dynamic_events | tail -n 1)
		echo "show: $line" | normalize
		awk '!/^#/ { n = 0; next } { d[n++] = $0 }
		     END { for (i = 0; i < n; i++) print "dump: " d[i] }' \
			dynamic_events | normalize
		ge=${line%% *}
		ge=${ge#*:}
		sed '/^ID:/d; s/^/format: /' "events/$ge/format" | normalize
		if [ -z "$values" ]; then
			:
		elif echo 1 >"events/$ge/enable" 2>/dev/null; then
			workload
			echo 0 >"events/$ge/enable"
			grep -m 1 " ${ge#*/}: " trace |
				sed -E 's/^.*\[[0-9]+\] [^ ]+ +[0-9.]+: /trace: /' | normalize
		else
			echo "enable: refused"
		fi
	else
		echo refused
		grep -A 2 ': error: ' error_log | sed -E 's/^\[ *[0-9.]+\] /error: /; s/^/  /'
	fi
	[ -n "$keep" ] || echo >dynamic_events
done >&3
