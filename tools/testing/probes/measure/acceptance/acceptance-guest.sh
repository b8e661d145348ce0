#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# The guest side of `make acceptance`: try a kprobe event at every
# instruction of a sample of kernel functions (harness/accept.funcs), and
# report each offset the kernel refuses.
cd /sys/kernel/tracing
total=0
taken=0
while read -r fn size; do
	off=0
	while [ $off -lt "$size" ]; do
		total=$((total + 1))
		if echo "p:accept/t $fn+$off" >kprobe_events 2>/dev/null; then
			taken=$((taken + 1))
		else
			echo "refused $fn $off" >&3
		fi
		off=$((off + 4))
	done
done </harness/accept.funcs
echo >kprobe_events
echo "accepted $taken $total" >&3
