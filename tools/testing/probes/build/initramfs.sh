#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Pack the guest: busybox, the harness's guest jobs, ftracetest and the
# kernel's modules, into an uncompressed initramfs.
. "$(dirname "$0")/../settings.sh"

root=$KDIR/initramfs
rm -rf "$root"
mkdir -p "$root"/{bin,sbin,dev,proc,sys,tmp,root,etc,lib,usr/bin,usr/sbin}
cp "$BUILD/debs/$DEB_ARCH/busybox/bin/busybox" "$root/bin/busybox"
# A real file, not a link: ftracetest's uprobe tests look for a mapping
# named .../sh in the shell's own /proc/PID/maps.
cp "$root/bin/busybox" "$root/bin/sh"
cp "$HARNESS/guest/init" "$root/init"
# trace-cmd and readelf, with the dynamic loader and libraries they need
# (not gconv).
tc=$BUILD/debs/$DEB_ARCH/tracecmd
cp -a "$tc/lib/." "$root/lib/"
[ ! -d "$tc/lib64" ] || cp -a "$tc/lib64" "$root/"
mkdir -p "$root/usr/lib/$MULTIARCH"
(cd "$tc/usr/lib/$MULTIARCH" && tar -c --exclude=gconv .) |
	tar -x -C "$root/usr/lib/$MULTIARCH"
cp "$tc/usr/bin/trace-cmd" "$root/usr/bin/"
cp "$tc/usr/bin/$MULTIARCH-readelf" "$root/usr/bin/readelf"
# The guest jobs' library with kselftest's KTAP helpers, and each guest
# job (a file NAME-guest.sh under targets/, measure/ or tests/, run as
# /harness/NAME.sh) with the files it reads there: the guest tests of
# tests/guest/ in /harness/tests.d/.
mkdir -p "$root/harness/tests.d"
cp "$HARNESS/guest/lib.sh" "$SRC/tools/testing/selftests/kselftest/ktap_helpers.sh" \
	"$root/harness/"
for job in "$HARNESS"/targets/*-guest.sh "$HARNESS"/measure/*/*-guest.sh \
	   "$HARNESS"/tests/*/*-guest.sh; do
	name=${job##*/}
	cp "$job" "$root/harness/${name%-guest.sh}.sh"
done
cp "$HARNESS/measure/compare/compare.defs" \
	"$HARNESS/measure/fuzz/fuzz.awk" "$HARNESS/measure/fuzz/fuzz.corpus" \
	"$root/harness/"
cp "$HARNESS"/tests/guest/*.sh "$root/harness/tests.d/"
# The suites of bpftrace and perf (make check-clients), run in the Debian
# userland, and their workload: linked dynamically, to run on that
# userland's libc, with DWARF for perf probe -x.
cp -r "$HARNESS/tests/clients/clients.d" "$root/harness/"
for src in "$HARNESS"/tests/clients/*.c; do
	${CROSS_COMPILE}gcc -Wall -g -O2 -o "$root/harness/$(basename "$src" .c)" "$src"
done
# The test programs of the guest's architecture (progs/GUEST/), assembly
# or C, with a list of the file offsets of their symbols for uprobe_events.
mkdir -p "$root/harness/progs"
for src in "$HARNESS/progs/$GUEST"/*.[Sc]; do
	[ -f "$src" ] || continue
	prog=$root/harness/progs/$(basename "$src" | sed 's/\.[Sc]$//')
	if [ "${src##*.}" = c ]; then
		# C with the static libc, around the labels its asm defines.
		${CROSS_COMPILE}gcc -Wall -static -O2 -o "$prog" "$src"
	else
		${CROSS_COMPILE}as "$src" -o "$KDIR/prog.o"
		${CROSS_COMPILE}ld -static -o "$prog" "$KDIR/prog.o"
	fi
	read -r off vaddr < <(${CROSS_COMPILE}readelf -lW "$prog" |
		awk '$1 == "LOAD" && $8 == "E" { print $2, $3; exit }')
	${CROSS_COMPILE}nm --defined-only "$prog" | while read -r addr _ name; do
		printf '0x%x %s\n' $((0x$addr - vaddr + off)) "$name"
	done >"$prog.syms"
done
# The benchmark's load and the tests' programs (progs/, and those beside
# the guest tests that use them), in C with the cross toolchain's static
# libc.
for src in "$HARNESS"/progs/*.c "$HARNESS"/tests/guest/*.c; do
	${CROSS_COMPILE}gcc -Wall -static -O2 -o "$root/harness/progs/$(basename "$src" .c)" "$src"
done
# The benchmark's function, the getppid system call, and its probe points
# as offsets into it: "body", an instruction past the function's entry
# (after the ftrace call site on x86); "copied", the first instruction a
# kprobe runs from a copy of it, and "call", the first call (not the
# ftrace site's), which a kprobe simulates. On arm64 those are its first
# STP and its first BL, also given as "stp" and "bl" for the tests that
# want those instructions by name; on x86 "copied" is the first whose
# five bytes (the optimizer's jump) hold no branch, call or return.
case $GUEST in
arm64) getppid=__arm64_sys_getppid ;;
x86_64) getppid=__x64_sys_getppid ;;
esac
${CROSS_COMPILE}objdump -d --no-show-raw-insn --disassemble="$getppid" \
	"$OBJ/vmlinux" | python3 -c '
import re, sys
func, guest = sys.argv[1:]
insns = re.findall(r"^ *([0-9a-f]+):\s+(\S+)(.*)$", sys.stdin.read(), re.M)
start = int(insns[0][0], 16)
offs = [int(a, 16) - start for a, m, rest in insns]
print("func", func)
def first(key, want, after=-1):
    """Print KEY, the offset of the first WANT past insns[after]; none if none."""
    off = next((o for i, (o, (a, m, rest)) in enumerate(zip(offs, insns))
                if i > after and m == want), None)
    if off is not None:
        print(key, off)
if guest == "arm64":
    for key, want in (("stp", "stp"), ("bl", "bl"), ("body", "stp"),
                      ("copied", "stp"), ("call", "bl")):
        first(key, want)
else:
    # GCC leaves the site a call to __fentry__; Clang has objtool write
    # it as a five-byte NOP at build time, first or after ENDBR64.
    site = next((i for i, (a, m, rest) in enumerate(insns) if "__fentry__" in rest),
                None)
    if site is None:
        site = next(i for i, (a, m, rest) in enumerate(insns[:2]) if m.startswith("nop"))
    print("body", offs[site + 1])
    branch = re.compile(r"(j|call|ret|loop|int|lock|rep|ud)")
    for i in range(site + 1, len(insns)):
        j = i
        while j < len(insns) and offs[j] - offs[i] < 5 and not branch.match(insns[j][1]):
            j += 1
        if j < len(insns) and offs[j] - offs[i] >= 5:
            print("copied", offs[i])
            break
    first("call", "call", site)
' "$getppid" "$GUEST" >"$root/harness/bench.offsets"
# For make bench's watchpoint kind: data every getppid call reads, the
# level of the initial PID namespace (pid_nr_ns() reads it), as
# init_pid_ns+OFFSET, the offset from the kernel's debug info.
level=$(pahole -C pid_namespace "$OBJ/vmlinux" 2>/dev/null |
	awk '/[[:space:]]level;/ { for (i = 1; i <= NF; i++) if ($i == "/*") { print $(i + 1); exit } }') ||
	level=
[ -z "$level" ] || echo "watch init_pid_ns+$level" >>"$root/harness/bench.offsets"
# The kernel's config, for tests whose outcome depends on it (BTI, kCFI).
cp "$SRC/.config" "$root/harness/kernel.config"
# Where the kernel was linked to run, for tests that check KASLR moved it.
awk '$3 == "_stext" { print $1 }' "$SRC/System.map" >"$root/harness/kernel.stext"
cp -r "$SRC/tools/testing/selftests/ftrace" "$root/ftrace"
# The series' own ftracetest cases run on upstream's kernel too: they
# check what both kernels do, and upstream's tree, the base alone, lacks
# them. They are new files (assemble.sh refuses to let the series
# overwrite upstream's), so this adds tests and replaces none.
ours_tc=$TOP/tools/testing/selftests/ftrace/test.d
if [ "$KERNEL" = upstream ] && [ -d "$ours_tc" ]; then
	cp -r "$ours_tc/." "$root/ftrace/test.d/"
fi
# The ftracetest tests not to run on this guest and kernel: those that
# `expected` lists as NOTRUN for it (a test that takes the kernel down
# leaves no results for the others).
awk -v guest="$GUEST" -v kernel="$KERNEL" '
	/^[ \t]*#/ || NF < 5 || $1 != "ftracetest" || $4 != "NOTRUN" { next }
	{ k = $3; g = ""; if (index(k, ":")) { g = substr(k, 1, index(k, ":") - 1); k = substr(k, index(k, ":") + 1) } }
	(g == "" || g == guest) && (k == "all" || k == kernel) { print $2 }
' "$HARNESS/expected" >"$root/harness/ftracetest.skip"
cp -r "$KDIR/modules/lib/modules" "$root/lib/"
# For the walkthrough's raw-address probes: the instructions right after
# kernel_clone's first two calls, as offsets into the function.
${CROSS_COMPILE}objdump -d --no-show-raw-insn --disassemble=kernel_clone \
	"$OBJ/vmlinux" >"$KDIR/kernel_clone.dis"
python3 - "$KDIR/kernel_clone.dis" "$root/harness" "$GUEST" <<'PY' || die "kernel_clone: no two calls to probe after"
import re, sys
insns = [(int(m[1], 16), m[2]) for m in
         re.finditer(r"^ *([0-9a-f]+):\s+(.*)$", open(sys.argv[1]).read(), re.M)]
start = insns[0][0]
call = {"arm64": "bl", "x86_64": "call"}[sys.argv[3]]
after = [i + 1 for i, (_, text) in enumerate(insns) if text.split()[0] == call][:2]
assert len(after) == 2
with open(sys.argv[2] + "/walkthrough.insns", "w") as f:
    for i in after:
        f.write(f"{insns[i][0] - start}\n")
with open(sys.argv[2] + "/walkthrough.disasm", "w") as f:
    for addr, text in insns[: after[1] + 2]:
        f.write(f"  kernel_clone+{addr - start:<4} {text}\n")
PY
# For unprobeable.sh: the sites of the kernel's jump labels, "FUNCTION
# OFFSET" each, read from the jump table (struct jump_entry, relative:
# the site's address is the entry's own plus its first s32), with the
# function that holds each from the symbol table.
python3 - "${CROSS_COMPILE}" "$OBJ/vmlinux" "$SRC/System.map" \
	>"$root/harness/jump.sites" <<'PY' || die "no jump label sites"
import bisect, re, struct, subprocess, sys
cross, vmlinux, sysmap = sys.argv[1:]
syms = {}
funcs = []
for line in open(sysmap):
    addr, kind, name = line.split()[:3]
    syms[name] = int(addr, 16)
    if kind in "tT":
        funcs.append((int(addr, 16), name))
funcs.sort()
starts = [a for a, _ in funcs]
lo, hi = syms["__start___jump_table"], syms["__stop___jump_table"]
out = subprocess.run([cross + "readelf", "-SW", vmlinux], capture_output=True,
                     text=True, check=True).stdout
for m in re.finditer(r"\]\s+\S+\s+PROGBITS\s+([0-9a-f]+) ([0-9a-f]+) ([0-9a-f]+)", out):
    vaddr, off, size = (int(x, 16) for x in m.groups())
    if vaddr <= lo and hi <= vaddr + size:
        break
else:
    sys.exit(1)
with open(vmlinux, "rb") as f:
    f.seek(off + lo - vaddr)
    table = f.read(hi - lo)
for i in range(0, len(table), 16):
    site = lo + i + struct.unpack_from("<i", table, i)[0]
    j = bisect.bisect_right(starts, site) - 1
    if j >= 0 and site > starts[j]:
        print(funcs[j][1], site - starts[j])
PY
# The stress test's functions, each with the offsets of its instructions
# (their lengths vary on x86): "NAME OFFSET...".
${CROSS_COMPILE}nm -S --defined-only "$OBJ/vmlinux" |
	awk 'NR == FNR { if ($1 !~ /^#/) for (i = 1; i <= NF; i++) want[$i] = 1; next }
	     ($3 == "T" || $3 == "t") && ($4 in want) && !seen[$4]++ { print $4, $1, $2 }' \
	"$HARNESS/tests/guest/stress-functions" - | python3 -c '
import re, subprocess, sys
objdump, vmlinux = sys.argv[1:]
for line in sys.stdin:
    name, addr, size = line.split()
    start, size = int(addr, 16), int(size, 16)
    if size > 640:
        continue
    dis = subprocess.run([objdump, "-d", "--no-show-raw-insn",
                          f"--start-address={start:#x}", f"--stop-address={start + size:#x}",
                          vmlinux], capture_output=True, text=True, check=True).stdout
    offs = [int(a, 16) - start for a in re.findall(r"^ *([0-9a-f]+):\t", dis, re.M)]
    print(name, *offs)
' "${CROSS_COMPILE}objdump" "$OBJ/vmlinux" >"$root/harness/stress.funcs"
# The sample for `make acceptance`: the kernel's functions of 16 to 1024
# bytes whose name hashes to 0 modulo 80. Chosen by name, not by address,
# so that both kernels draw the same functions. A name two functions share
# is left out: the kernel refuses a probe on it at every offset, which
# says nothing of what it can probe.
${CROSS_COMPILE}nm -S --defined-only "$OBJ/vmlinux" | python3 -c '
import collections, sys, zlib
syms = [l.split() for l in sys.stdin]
names = collections.Counter(f[-1] for f in syms if len(f) >= 3 and f[-2] in "Tt")
for f in syms:
    if len(f) == 4 and f[2] in "Tt" and 16 <= int(f[1], 16) <= 1024 and \
       names[f[3]] == 1 and zlib.crc32(f[3].encode()) % 80 == 0:
        print(f[3], int(f[1], 16))
' | sort -u >"$root/harness/accept.funcs"
echo 'root::0:0:root:/root:/bin/sh' >"$root/etc/passwd"
echo 'root:x:0:' >"$root/etc/group"
(cd "$root" && find . -print0 | sort -z |
	cpio --quiet -o -0 -H newc -R 0:0 >"$KDIR/initramfs.cpio")
