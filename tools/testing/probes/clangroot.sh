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
. "$(dirname "$0")/lib.sh"

CLANG_SUITE=trixie
CLANG_V=19
MIRROR=http://deb.debian.org/debian
dir=$BUILD/roots/clang
root=$dir/root
stamp=$dir/done
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
	unshare --mount --propagation private -- "$HARNESS/clangroot.sh" __mount "$ccdir" "$@"
}

# Made, and as this script wants it: say nothing.
ensure() {
	[ "$(cat "$stamp" 2>/dev/null)" != "$CLANG_SUITE: $PKGS" ] || return 0
	command -v debootstrap >/dev/null ||
		die "clangroot: no debootstrap (TOOLCHAIN=clang make setup installs it)"
	mkdir -p "$dir"
	# One at a time; the lock is the subshell's alone, not inherited by
	# what run runs.
	(
	flock 8
	[ "$(cat "$stamp" 2>/dev/null)" != "$CLANG_SUITE: $PKGS" ] || exit 0
	rm -f "$stamp"
	: >"$log"
	if [ ! -f "$dir/bootstrapped" ]; then
		# rm -rf would go into a bind mount of the project: there is
		# none in the host's namespace, but make sure.
		if awk '{ print $5 }' /proc/self/mountinfo | grep -q "^$root\(/\|$\)"; then
			die "clangroot: something is mounted under $root; unmount it first"
		fi
		rm -rf "$root"
		say "clangroot: debootstrap $CLANG_SUITE into $root (log: $log)"
		# debootstrap mounts /proc and /sys in the root: in a
		# namespace of its own, they cannot outlive it.
		unshare --mount --propagation private -- debootstrap --variant=minbase \
			"$CLANG_SUITE" "$root" "$MIRROR" >>"$log" 2>&1 ||
			{ tail -20 "$log" >&2; die "clangroot: debootstrap failed"; }
		touch "$dir/bootstrapped"
	fi
	# apt in the root needs the host's resolver; nothing in it may start
	# a service.
	cp /etc/resolv.conf "$root/etc/resolv.conf"
	printf '#!/bin/sh\nexit 101\n' >"$root/usr/sbin/policy-rc.d"
	chmod +x "$root/usr/sbin/policy-rc.d"
	say "clangroot: installing $PKGS"
	# shellcheck disable=SC2086
	{
		in_root apt-get -q update &&
		DEBIAN_FRONTEND=noninteractive in_root apt-get -q install -y \
			--no-install-recommends $PKGS &&
		in_root apt-get clean
	} >>"$log" 2>&1 || { tail -20 "$log" >&2; die "clangroot: apt-get in $root failed"; }
	in_root clang-$CLANG_V --version >>"$log" 2>&1 ||
		{ tail -5 "$log" >&2; die "clangroot: clang-$CLANG_V does not run in $root"; }
	echo "$CLANG_SUITE: $PKGS" >"$stamp"
	say "clangroot: $(in_root clang-$CLANG_V --version | head -1)"
	) 8>>"$dir/lock"
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
	mount -t proc proc "$root/proc"
	mount --rbind /dev "$root/dev"
	mount --bind /tmp "$root/tmp"
	binds=("$TOP")
	case $BUILD/ in "$TOP"/*) ;; *) binds+=("$BUILD") ;; esac
	case $ccdir/ in "$TOP"/* | "$BUILD"/*) ;; *) binds+=("$ccdir") ;; esac
	for d in "${binds[@]}"; do
		mkdir -p "$root$d"
		mount --bind "$d" "$root$d"
	done
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
