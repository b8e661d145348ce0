#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Pack the guest: busybox, the harness's guest jobs, ftracetest and the
# kernel's modules, into an uncompressed initramfs.
. "$(dirname "$0")/lib.sh"

root=$KDIR/initramfs
rm -rf "$root"
mkdir -p "$root"/{bin,sbin,dev,proc,sys,tmp,root,etc,lib,usr/bin,usr/sbin}
cp "$BUILD/debs/busybox/bin/busybox" "$root/bin/busybox"
# A real file, not a link: ftracetest's uprobe tests look for a mapping
# named .../sh in the shell's own /proc/PID/maps.
cp "$root/bin/busybox" "$root/bin/sh"
cp "$HARNESS/guest/init" "$root/init"
# trace-cmd, with the dynamic loader and libraries it needs (not gconv).
tc=$BUILD/debs/tracecmd
cp -a "$tc/lib/." "$root/lib/"
mkdir -p "$root/usr/lib/aarch64-linux-gnu"
(cd "$tc/usr/lib/aarch64-linux-gnu" && tar -c --exclude=gconv .) |
	tar -x -C "$root/usr/lib/aarch64-linux-gnu"
cp "$tc/usr/bin/trace-cmd" "$root/usr/bin/"
mkdir -p "$root/harness/tests.d"
cp "$HARNESS"/guest/*.sh "$HARNESS/compare.defs" "$HARNESS/fuzz.awk" \
	"$HARNESS/fuzz.corpus" "$root/harness/"
if [ -d "$HARNESS/guest/tests.d" ]; then
	cp -r "$HARNESS/guest/tests.d/." "$root/harness/tests.d/"
fi
# The test programs: freestanding arm64 assembly, with a list of the file
# offsets of their symbols for uprobe_events.
mkdir -p "$root/harness/progs"
for src in "$HARNESS"/progs/*.S; do
	prog=$root/harness/progs/$(basename "$src" .S)
	${CROSS_COMPILE}as "$src" -o "$KDIR/prog.o"
	${CROSS_COMPILE}ld -static -o "$prog" "$KDIR/prog.o"
	read -r off vaddr < <(${CROSS_COMPILE}readelf -lW "$prog" |
		awk '$1 == "LOAD" && $8 == "E" { print $2, $3; exit }')
	${CROSS_COMPILE}nm "$prog" | while read -r addr type name; do
		printf '0x%x %s\n' $((0x$addr - vaddr + off)) "$name"
	done >"$prog.syms"
done
# The benchmark's load, in C with the cross toolchain's static libc.
for src in "$HARNESS"/progs/*.c; do
	${CROSS_COMPILE}gcc -static -O2 -o "$root/harness/progs/$(basename "$src" .c)" "$src"
done
# The benchmark's probe points in __arm64_sys_getppid: its first STP (stepped
# out of line) and its first BL (simulated), as offsets into the function.
${CROSS_COMPILE}objdump -d --no-show-raw-insn --disassemble=__arm64_sys_getppid \
	"$OBJ/vmlinux" | python3 -c '
import re, sys
insns = re.findall(r"^ *([0-9a-f]+):\s+(\S+)", sys.stdin.read(), re.M)
start = int(insns[0][0], 16)
for want in ("stp", "bl"):
    print(want, next(int(a, 16) - start for a, m in insns if m == want))
' >"$root/harness/bench.offsets"
cp -r "$SRC/tools/testing/selftests/ftrace" "$root/ftrace"
cp -r "$KDIR/modules/lib/modules" "$root/lib/"
# For the walkthrough's raw-address probes: the instructions right after
# kernel_clone's first two calls, as offsets into the function.
${CROSS_COMPILE}objdump -d --no-show-raw-insn --disassemble=kernel_clone \
	"$OBJ/vmlinux" >"$KDIR/kernel_clone.dis"
python3 - "$KDIR/kernel_clone.dis" "$root/harness" <<'PY' || die "kernel_clone: no two calls to probe after"
import re, sys
insns = [(int(m[1], 16), m[2]) for m in
         re.finditer(r"^ *([0-9a-f]+):\s+(.*)$", open(sys.argv[1]).read(), re.M)]
start = insns[0][0]
after = [i + 1 for i, (_, text) in enumerate(insns) if text.split()[0] == "bl"][:2]
assert len(after) == 2
with open(sys.argv[2] + "/walkthrough.insns", "w") as f:
    for i in after:
        f.write(f"{insns[i][0] - start}\n")
with open(sys.argv[2] + "/walkthrough.disasm", "w") as f:
    for addr, text in insns[: after[1] + 2]:
        f.write(f"  kernel_clone+{addr - start:<4} {text}\n")
PY
# The stress test's functions, with their sizes.
${CROSS_COMPILE}nm -S --defined-only "$OBJ/vmlinux" |
	awk 'NR == FNR { if ($1 !~ /^#/) for (i = 1; i <= NF; i++) want[$i] = 1; next }
	     ($3 == "T" || $3 == "t") && ($4 in want) && !seen[$4]++ { print $4, $2 }' \
	"$HARNESS/stress-functions" - |
	while read -r name size; do
		if [ $((0x$size)) -le 640 ]; then echo "$name $((0x$size))"; fi
	done >"$root/harness/stress.funcs"
# The sample for `make acceptance`: the kernel's functions of 16 to 1024
# bytes whose name hashes to 0 modulo 80. Chosen by name, not by address,
# so that both kernels draw the same functions.
${CROSS_COMPILE}nm -S --defined-only "$OBJ/vmlinux" | python3 -c '
import sys, zlib
for line in sys.stdin:
    f = line.split()
    if len(f) == 4 and f[2] in "Tt" and 16 <= int(f[1], 16) <= 1024 and \
       zlib.crc32(f[3].encode()) % 80 == 0:
        print(f[3], int(f[1], 16))
' | sort -u >"$root/harness/accept.funcs"
echo 'root::0:0:root:/root:/bin/sh' >"$root/etc/passwd"
echo 'root:x:0:' >"$root/etc/group"
(cd "$root" && find . -print0 | sort -z |
	cpio --quiet -o -0 -H newc -R 0:0 >"$KDIR/initramfs.cpio")
