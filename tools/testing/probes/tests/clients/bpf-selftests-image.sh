#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# The kernel's own BPF selftests runner, test_progs, from the base's
# tools/testing/selftests/bpf, for `make check-clients`
# (clients.d/bpf-selftests.sh runs it): the tests of probes, those
# named in TESTS below and every prog_tests/ file whose name says kprobe or
# uprobe, on each kernel of the clients flavour.
#
#   bpf-selftests-image.sh          build what $GUEST's $KERNEL guest needs, or
#                                   reuse it; the last line of stderr says where
#   bpf-selftests-image.sh image    the same, then print the disk image's path
#
# test_progs is built once per guest architecture, in a Debian trixie root
# of its own ($BUILD/roots/bpfsel, made with debootstrap; the host's
# packages stay as they are): trixie's Clang 19 for the BPF programs, as
# TOOLCHAIN=clang's root has it (bookworm's newest is 16), and a cross
# toolchain with the target's libelf, zlib, zstd and OpenSSL (multiarch).
# It is built from a copy of the base's tools/ (with scripts/, kernel/bpf/
# and the uapi headers, which it reads) under $BUILD/bpf-selftests/$GUEST/
# src, never in the base or a kernel's tree, whose files are hard links to
# the base's. The copy keeps only the tests of probes and the BPF programs
# they include, so that a cold build compiles a few dozen objects, not the
# thousand of the whole test_progs; the no_alu32 and cpuv4 flavours are not
# built; three changes make the runner and its module work on the clients
# kernel (copy_tree says which and why), none changes a test; the series'
# own changes to the tests (the manifest's patched selftests) are applied. vmlinux.h
# comes from the series' kernel (its BTF serves upstream's, whose
# types are the same but for the series' own files).
#
# bpf_testmod.ko, which test_progs loads for its tests of module functions,
# is built against each kernel's own tree on the host, with the compiler,
# pahole and resolve_btfids the kernel was built with (a module's BTF is
# split BTF over its own kernel's, and its vermagic must be its kernel's),
# and signed with the kernel's key. Kbuild writes an external module's
# objects in the module's directory alone, a copy of test_kmods/.
#
# What the guest gets: an ext4 image labelled "bpf-selftests",
# $BUILD/bpf-selftests/$GUEST/$(basename $KDIR).img, with test_progs, its
# BPF objects, the programs it runs (urandom_read, uprobe_multi) and the
# kernel's bpf_testmod.ko. Each part is remade only when what it is made
# from changes: test_progs when the base, the root, this script or the BTF
# of the vmlinux it is built against does; the module when its kernel does.
# Every compile runs at nice 19 with at most 2 jobs (BPF_SELFTESTS_JOBS):
# kernel builds on the same machine keep their priority.
. "$(dirname "$0")/../../settings.sh"
# shellcheck source=debroot.sh
. "$HARNESS/build/debroot.sh"

# The tests the suite is for, by their prog_tests/ file names;
# the files whose names say kprobe or uprobe are added below.
TESTS="attach_probe kprobe_multi_test uprobe_multi_test get_func_ip_test bpf_cookie
missed fill_link_info perf_link uretprobe_stack uprobe_autoattach"
SUITE=trixie
JOBS=${BPF_SELFTESTS_JOBS:-2}
((JOBS <= 2)) || JOBS=2
rootdir=$BUILD/roots/bpfsel
root=$rootdir/root
top=$BUILD/bpf-selftests/$GUEST
src=$top/src
out=$top/out
sel=$src/tools/testing/selftests/bpf
# The series' kernel, whose BTF makes vmlinux.h for both kernels;
# this kernel's own when that one is not built.
btf_vmlinux=${BPF_SELFTESTS_VMLINUX:-$BUILD/$GUEST/series/src/vmlinux}
[ -f "$btf_vmlinux" ] || btf_vmlinux=$OBJ/vmlinux
img=$top/$(basename "$KDIR").img
# The kernel's name of the guest's architecture, as arch/ has it.
case $ARCH in x86_64) srcarch=x86 ;; *) srcarch=$ARCH ;; esac
kmod=$top/kmod-$(basename "$KDIR")

# The root's packages. For the host side of the build (bpftool, libbpf and
# resolve_btfids, which run during it): gcc and the libraries bpftool
# links. For the target: the cross compiler and the same libraries of the
# guest's architecture (multiarch), with pkgconf's cross pkg-config
# (pkgconf:arm64, aarch64-linux-gnu-pkg-config), which finds them.
# clang, llvm and lld 19 build the BPF objects and urandom_read; python3
# makes libbpf's helper definitions (scripts/bpf_doc.py); openssl the
# key of the signed-program tests, which test_progs.c embeds; rsync copies
# the runner's extra files. pahole (dwarves) is for the selftests' own
# build of their modules, should the root ever do it: this script builds
# bpf_testmod.ko with each kernel's own tools, on the host.
PKGS="make gcc libc6-dev pkgconf python3 rsync openssl dwarves \
clang-19 llvm-19 lld-19 libelf-dev zlib1g-dev libzstd-dev libssl-dev \
gcc-aarch64-linux-gnu libc6-dev:arm64 libelf-dev:arm64 zlib1g-dev:arm64 \
libzstd-dev:arm64 libssl-dev:arm64 pkgconf:arm64"

[ "$(id -u)" -eq 0 ] || die "bpf-selftests: chroot and mounts need root"

# in_root CMD...: CMD in the root, at nice 19, with /proc, /dev, /tmp and
# the project mounted at their own paths, in a mount namespace of its own
# that the mounts go with (as clangroot.sh's).
in_root() {
	BPFSEL_NAMESPACE=private nice -n 19 unshare --mount --propagation private -- \
		"$HARNESS/tests/clients/bpf-selftests-image.sh" __mount "$@"
}

# ensure_root: the root, made or completed; silent when done.
ensure_root() {
	debroot_ensure bpf-selftests "$rootdir" "$SUITE" "$PKGS" in_root arm64
}

# btf_sum ELF: the checksum of the ELF file's .BTF section, which is all of
# a vmlinux that vmlinux.h is made from.
btf_sum() {
	local off size
	read -r off size < <(readelf -SW "$1" | awk '{ sub(/^ *\[ *[0-9]+\] */, "") }
		$1 == ".BTF" { print $4, $5; exit }')
	[ -n "$size" ] || die "bpf-selftests: $1 has no .BTF section"
	dd if="$1" bs=1M iflag=skip_bytes,count_bytes skip=$((0x$off)) count=$((0x$size)) status=none |
		sha256sum | cut -d' ' -f1
}

# copy_tree: the base's tools/, scripts/ and kernel/bpf/ (disasm.c, which
# bpftool and the selftests link through symbolic links), and the uapi
# headers that tools/include's name by relative paths, copied into $src,
# with prog_tests/ cut down to the tests of probes and progs/ to the BPF
# programs they include, as skeletons or by object file name. The copy's
# files keep the base's times: make sees the same sources as the same.
copy_tree() {
	local f t keep progs=()
	rm -rf "$src"
	mkdir -p "$src/kernel"
	cp -a "$BASE/tools" "$BASE/scripts" "$src/"
	cp -a "$BASE/kernel/bpf" "$src/kernel/"
	mkdir -p "$src/include" "$src/arch/$srcarch/include"
	cp -a "$BASE/include/uapi" "$src/include/"
	cp -a "$BASE/arch/$srcarch/include/uapi" "$src/arch/$srcarch/include/"
	for t in $TESTS; do
		[ -f "$sel/prog_tests/$t.c" ] || die "bpf-selftests: 7.3 has no prog_tests/$t.c"
	done
	keep=" ${TESTS//$'\n'/ } "
	for f in "$sel"/prog_tests/*.c; do
		t=$(basename "$f" .c)
		case $t in *kprobe* | *uprobe*) continue ;; esac
		case $keep in *" $t "*) ;; *) rm -f "$f" ;; esac
	done
	keep=" $(sed -nE 's/.*"([A-Za-z0-9_]+)\.(sub|l)?skel\.h".*/\1/p; s/.*"([A-Za-z0-9_]+)\.bpf\.o".*/\1/p' \
		"$sel"/prog_tests/*.c | sort -u | tr '\n' ' ') "
	for f in "$sel"/progs/*.c; do
		t=$(basename "$f" .c)
		case $keep in *" $t "*) ;; *) rm -f "$f" ;; esac
	done
	# Each one a program of progs/ (not a linked skeleton's parts).
	for t in $keep; do
		[ -f "$sel/progs/$t.c" ] ||
			die "bpf-selftests: a test wants $t, which is not a program of progs/ (a linked skeleton?)"
		progs+=("$t")
	done
	printf '%s\n' "${progs[@]}" >"$top/programs"
	for f in "$sel"/prog_tests/*.c; do
		basename "$f" .c
	done >"$top/test-files"
	# Two changes to the runner, none to a test (fuzz 0: a point release
	# that moves them stops the build):
	# - uretprobe_stack.c declares its test "__weak void
	#   test_uretprobe_stack(void)", not to be inlined into its callers,
	#   and 7.3's generator of prog_tests/tests.h takes only lines that
	#   begin with "void": test_progs does not know the test. The copy's
	#   generator takes both.
	# - test_progs opens /proc/self/ns/net at its start, to come back to
	#   that network namespace after each test, and stops when it cannot:
	#   the kernel has no CONFIG_NET_NS (allnoconfig), and none of
	#   these tests leaves the namespace. Without one it carries on.
	patch -s -p1 -F0 --no-backup-if-mismatch -d "$src" <<'EOF'
--- a/tools/testing/selftests/bpf/Makefile
+++ b/tools/testing/selftests/bpf/Makefile
@@ -720,7 +720,7 @@
 $(TRUNNER_TESTS_HDR): $(TRUNNER_TESTS_DIR)/*.c
 	$$(call msg,TEST-HDR,$(TRUNNER_BINARY),$$@)
 	$$(shell (echo '/* Generated header, do not edit */';					\
-		  sed -n -E 's/^void (serial_)?test_([a-zA-Z0-9_]+)\((void)?\).*/DEFINE_TEST(\2)/p'	\
+		  sed -n -E 's/^(__weak )?void (serial_)?test_([a-zA-Z0-9_]+)\((void)?\).*/DEFINE_TEST(\3)/p'	\
 			$(TRUNNER_TESTS_DIR)/*.c | sort ;	\
 		 ) > $$@)
 endif
--- a/tools/testing/selftests/bpf/test_progs.c
+++ b/tools/testing/selftests/bpf/test_progs.c
@@ -530,6 +530,9 @@
 static void save_netns(void)
 {
 	env.saved_netns_fd = open("/proc/self/ns/net", O_RDONLY);
+	/* A kernel without CONFIG_NET_NS: no namespace to come back to. */
+	if (env.saved_netns_fd == -1 && errno == ENOENT)
+		return;
 	if (env.saved_netns_fd == -1) {
 		perror("open(/proc/self/ns/net)");
 		exit(EXIT_ERR_SETUP_INFRA);
@@ -538,6 +541,8 @@
 
 static void restore_netns(void)
 {
+	if (env.saved_netns_fd == -1)
+		return;
 	if (setns(env.saved_netns_fd, CLONE_NEWNET) == -1) {
 		perror("setns(CLONE_NEWNS)");
 		exit(EXIT_ERR_SETUP_INFRA);
EOF
	# And the series' own changes to the tests (the manifest's patched
	# selftests), on both kernels' runner: each changes what a test
	# expects only where the kernel has what upstream's lacks (arm64's
	# kprobes on ftrace), and reads the kernel's configuration to know.
	local p
	for p in $(series_selftest_patches); do
		patch -s -p1 -F0 --no-backup-if-mismatch -d "$src" <"$p"
	done
}

# series_selftest_patches: the patches of the BPF selftests the manifest
# lists as patched.
series_selftest_patches() {
	sed -n 's#^\(tools/testing/selftests/bpf/[^[:space:]]*\)[[:space:]][[:space:]]*patched$#\1#p' \
		"$TOP/manifest" | sed "s#^#$TOP/patches/#; s#\$#.patch#"
}

# build_progs: test_progs and what it runs, into $out, in the root. The
# runner's own extras that these tests do not use and that would need the
# whole progs/ are left out by emptying their lists: the light and linked
# skeletons, the kernel modules (built per kernel, below), and libarena's
# skeleton, for the arena tests alone (its programs want LLVM 20's default
# BPF CPU: clang 19's rejects their 32-bit atomics).
build_progs() {
	local cross=() args
	[ -z "$CROSS_COMPILE" ] || cross=(CROSS_COMPILE="$CROSS_COMPILE")
	args=(-C "$sel" -j"$JOBS" ARCH="$ARCH" "${cross[@]}" OUTPUT="$out"
	      VMLINUX_BTF="$btf_vmlinux" CLANG=clang-19 LLVM_STRIP=llvm-strip-19
	      LLVM_CONFIG=llvm-config-19 LLC=llc-19 LLVM_OBJCOPY=llvm-objcopy-19
	      SKIP_DOCS=1 SKIP_LLVM=1 SKIP_LIBBFD=1
	      TEST_KMODS= LSKELS= LSKELS_SIGNED= LSKELS_EXTRA= LINKED_SKELS= LIBARENA_SKEL=)
	mkdir -p "$out"
	in_root make "${args[@]}" test_progs "$out/urandom_read" \
		"$out/liburandom_read.so" "$out/uprobe_multi"
}

# build_kmod: bpf_testmod.ko for this kernel, with the kernel's own make
# and compilers, signed with its key.
build_kmod() {
	local key=$1
	rm -rf "$kmod"
	cp -a "$sel/test_kmods" "$kmod"
	nice -n 19 make -s -C "$OBJ" "${KBUILD_CC[@]}" -j"$JOBS" M="$kmod" modules
	if grep -qx CONFIG_MODULE_SIG=y "$OBJ/.config"; then
		"$OBJ/scripts/sign-file" "$(sed -n 's/^CONFIG_MODULE_SIG_HASH="\(.*\)"/\1/p' "$OBJ/.config")" \
			"$OBJ/certs/signing_key.pem" "$OBJ/certs/signing_key.x509" "$kmod/bpf_testmod.ko"
	fi
	echo "$key" >"$kmod/key"
}

# make_image: the guest's disk, with test_progs, what it runs and loads,
# and this kernel's bpf_testmod.ko.
make_image() {
	local stage=$top/stage size
	rm -rf "$stage" "$img"
	mkdir -p "$stage"
	cp -a "$out/test_progs" "$out/urandom_read" "$out/liburandom_read.so" \
		"$out/uprobe_multi" "$kmod/bpf_testmod.ko" "$stage/"
	# The BPF objects of this list alone, should $out hold an older list's.
	sed 's|.*|'"$out"'/&.bpf.o|' "$top/programs" | xargs cp -t "$stage/"
	cp "$top/test-files" "$stage/"
	size=$(du -sm "$stage" | cut -f1)
	mke2fs -q -F -t ext4 -L bpf-selftests -m 0 -E root_owner=0:0 \
		-d "$stage" "$img" "$((size + size / 4 + 16))M" >/dev/null
	rm -rf "$stage"
}

case ${1:-} in
'' | image) ;;
__mount)
	# In in_root's namespace: mount, then chroot. Never in the host's,
	# whose mounts would stay.
	[ "${BPFSEL_NAMESPACE:-}" = private ] || die "bpf-selftests: __mount is in_root's"
	shift
	debroot_mount "$root"
	# shellcheck disable=SC2016
	exec chroot "$root" /usr/bin/env -i HOME=/root LANG=C.UTF-8 \
		PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
		/bin/sh -c 'cd "$1" 2>/dev/null || cd /; shift; exec "$@"' sh "$PWD" "$@"
	;;
*) die "usage: bpf-selftests-image.sh [image]" ;;
esac

start=$SECONDS
mkdir -p "$top"
ensure_root
[ -f "$btf_vmlinux" ] || die "bpf-selftests: no $btf_vmlinux: build the series' kernel first"
# test_progs's key: the base, the root's packages, this script, the
# series' patches of the tests and the BTF vmlinux.h is made from.
# shellcheck disable=SC2046
key=$({ cat "$BUILD/base/VERSION" "$rootdir/done" "$HARNESS/tests/clients/bpf-selftests-image.sh" \
	$(series_selftest_patches); btf_sum "$btf_vmlinux"; } | sha256sum | cut -d' ' -f1)
if [ "$(cat "$top/key" 2>/dev/null)" = "$key" ] && [ -x "$out/test_progs" ]; then
	say "bpf-selftests: reusing $out/test_progs (key ${key:0:12})"
else
	# From scratch: make does not see a change of flags, nor of what the
	# copy leaves out.
	rm -rf "$top/key" "$out"
	t0=$SECONDS
	copy_tree
	say "bpf-selftests: building test_progs for $GUEST in $out (log: $top/build.log):" \
		"$(wc -l <"$top/test-files") test files, $(wc -l <"$top/programs") BPF programs"
	build_progs >"$top/build.log" 2>&1 ||
		{ grep -E 'error|Error' -m 40 "$top/build.log" >&2 || tail -40 "$top/build.log" >&2
		  die "bpf-selftests: the build of test_progs failed; log: $top/build.log"; }
	echo "$key" >"$top/key"
	say "bpf-selftests: test_progs built in $((SECONDS - t0)) s"
fi

# The module's key: the kernel it is for (its release, symbols and BTF)
# and this script.
kkey=$({ cat "$OBJ/include/config/kernel.release" "$OBJ/Module.symvers" "$HARNESS/tests/clients/bpf-selftests-image.sh"
	 btf_sum "$OBJ/vmlinux"; } | sha256sum | cut -d' ' -f1)
if [ "$(cat "$kmod/key" 2>/dev/null)" = "$kkey" ] && [ -f "$kmod/bpf_testmod.ko" ]; then
	say "bpf-selftests: reusing $kmod/bpf_testmod.ko"
else
	t0=$SECONDS
	build_kmod "$kkey" >"$top/kmod-$(basename "$KDIR").log" 2>&1 ||
		{ tail -40 "$top/kmod-$(basename "$KDIR").log" >&2
		  die "bpf-selftests: bpf_testmod.ko for $KDIR failed; log: $top/kmod-$(basename "$KDIR").log"; }
	say "bpf-selftests: bpf_testmod.ko for $(cat "$OBJ/include/config/kernel.release") built in $((SECONDS - t0)) s"
fi

if [ ! -f "$img" ] || [ "$out/test_progs" -nt "$img" ] || [ "$kmod/key" -nt "$img" ] ||
   [ "$HARNESS/tests/clients/bpf-selftests-image.sh" -nt "$img" ]; then
	make_image
fi
say "bpf-selftests: $img ($(du -m "$img" | cut -f1) MiB), wall time $((SECONDS - start)) s"
[ "${1:-}" != image ] || echo "$img"
