#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# TOOLCHAIN=clang's compiler. Linux 7.3 needs LLVM 17 or newer and bookworm
# has 16, so Debian trixie's clang-19 and lld-19 (Clang 19: 7.3's
# ARM64_BTI_KERNEL wants one older than 21) go into a Debian root of their
# own under $BUILD/roots/clang, made with debootstrap, with what a kernel
# build needs; the host keeps bookworm's C library and packages. build.sh
# runs itself in it, Kconfig and make alike.
#
#   clangroot.sh             make the root, or install what it lacks;
#                            silent when it is done
#   clangroot.sh run CMD...  CMD in the root, in the same directory
#   clangroot.sh upgrade     the root's packages to trixie's newest
#
# run mounts, in a mount namespace of its own (unshare), /proc, the host's
# /dev and /tmp, the project at its own path ($TOP, and $BUILD if it is
# elsewhere) and ccache's directory at the host's (CCACHE_DIR set to it):
# paths, objects' hashes and the cache are the host's. The mounts go with
# the namespace when CMD ends, however it ends; none is made in the host's,
# so runs neither stack mounts nor leave any, however many run at once.
. "$(dirname "$0")/../settings.sh"
# shellcheck source=debroot.sh
. "$HARNESS/build/debroot.sh"

CLANG_SUITE=trixie
CLANG_V=19
dir=$BUILD/roots/clang
root=$dir/root
log=$dir/install.log
# HOSTCC is clang too: no gcc. openssl makes the modules' signing key
# (MODULE_SIG). util-linux (flock) is essential in trixie, but build.sh's
# lock needs it whatever becomes of that.
PKGS="clang-$CLANG_V lld-$CLANG_V llvm-$CLANG_V libc6-dev make bc bison flex \
libssl-dev openssl libelf-dev dwarves python3 perl cpio kmod ccache xz-utils util-linux"

[ "$(id -u)" -eq 0 ] || die "clangroot: chroot and mounts need root"

# in_root CMD...: CMD in the root, with the mounts, in a mount namespace of
# its own that the mounts go with.
in_root() {
	local ccdir=${CCACHE_DIR:-}
	if [ -z "$ccdir" ]; then
		ccdir=$(ccache -k cache_dir 2>/dev/null) ||
			ccdir=${XDG_CACHE_HOME:-$HOME/.cache}/ccache
	fi
	mkdir -p "$ccdir"
	unshare --mount --propagation private -- "$HARNESS/build/clangroot.sh" __mount "$ccdir" "$@"
}

# Made, and as this script wants it: say nothing.
ensure() {
	debroot_ensure clangroot "$dir" "$CLANG_SUITE" "$PKGS" in_root
}

case ${1:-} in
'')
	ensure
	;;
run)
	shift
	[ $# -gt 0 ] || die "usage: clangroot.sh run CMD..."
	ensure
	in_root "$@"
	;;
upgrade)
	ensure
	DEBIAN_FRONTEND=noninteractive in_root sh -c \
		'apt-get -q update && apt-get -q upgrade -y && apt-get clean' >>"$log" 2>&1 ||
		{ tail -20 "$log" >&2; die "clangroot: apt-get upgrade in $root failed"; }
	say "clangroot: $(in_root clang-$CLANG_V --version | head -1)"
	;;
__mount)
	# In the namespace of in_root: mount, then chroot.
	shift
	ccdir=$1
	shift
	debroot_mount "$root" "$ccdir"
	# The host's PATH names the host's directories; IN_CLANGROOT tells
	# build.sh it is in the root.
	# shellcheck disable=SC2016
	exec chroot "$root" /usr/bin/env \
		PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
		CCACHE_DIR="$ccdir" IN_CLANGROOT="$root" \
		/bin/sh -c 'cd "$1" 2>/dev/null || cd /; shift; exec "$@"' sh "$PWD" "$@"
	;;
*)
	die "usage: clangroot.sh [run CMD... | upgrade]"
	;;
esac
