# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# A Debian root of the harness's own, made with debootstrap and completed
# with apt in it: what must not replace the host's C library (trixie's
# Clang for TOOLCHAIN=clang, clangroot.sh; the BPF selftests' build,
# bpf-selftests-image.sh) goes there, and the host's packages stay as they are.
# Sourced by those scripts, after settings.sh; each runs commands in its root
# with a function of its own, which sets up the mounts that script needs.

DEBROOT_MIRROR=http://deb.debian.org/debian

# debroot_debootstrap: the command that runs debootstrap: the host's, or
# else bookworm's own package unpacked under @1 (the root's directory),
# not installed: it is a shell script and its data.
debroot_debootstrap() {
	local d=$1/debootstrap
	if command -v debootstrap >/dev/null; then
		echo debootstrap
		return
	fi
	if [ ! -x "$d/usr/sbin/debootstrap" ]; then
		rm -rf "$d"
		mkdir -p "$d/deb"
		(cd "$d/deb" && apt-get -q -o APT::Sandbox::User=root download debootstrap) >&2 ||
			die "debroot: cannot download debootstrap"
		dpkg-deb -x "$d"/deb/debootstrap_*.deb "$d"
	fi
	echo "env DEBOOTSTRAP_DIR=$d/usr/share/debootstrap $d/usr/sbin/debootstrap"
}

# debroot_ensure NAME DIR SUITE PKGS IN_ROOT [ARCH]: DIR/root made a
# Debian SUITE root with PKGS (ARCH's packages among them, "pkg:ARCH",
# if ARCH is given), or completed; silent once it is. The stamp DIR/done
# holds "SUITE: PKGS": a changed list is installed on the next call. One
# caller at a time: the lock is the subshell's alone, not inherited by
# what IN_ROOT runs. NAME starts the messages.
debroot_ensure() {
	local name=$1 dir=$2 suite=$3 pkgs=$4 in_root=$5 arch=${6:-}
	local root=$dir/root stamp=$dir/done log=$dir/install.log
	[ "$(cat "$stamp" 2>/dev/null)" != "$suite: $pkgs" ] || return 0
	mkdir -p "$dir"
	(
	flock 8
	[ "$(cat "$stamp" 2>/dev/null)" != "$suite: $pkgs" ] || exit 0
	rm -f "$stamp"
	: >"$log"
	if [ ! -f "$dir/bootstrapped" ]; then
		# rm -rf would go into a bind mount of the project: none is
		# left in the host's namespace, but make sure.
		if awk '{ print $5 }' /proc/self/mountinfo | grep -q "^$root\(/\|$\)"; then
			die "$name: something is mounted under $root; unmount it first"
		fi
		rm -rf "$root"
		say "$name: debootstrap $suite into $root (log: $log)"
		# debootstrap mounts /proc and /sys in the root: in a
		# namespace of its own, they cannot outlive it.
		# shellcheck disable=SC2046 # the command and its environment
		unshare --mount --propagation private -- \
			$(debroot_debootstrap "$dir") --variant=minbase \
			"$suite" "$root" "$DEBROOT_MIRROR" >>"$log" 2>&1 ||
			{ tail -20 "$log" >&2; die "$name: debootstrap failed"; }
		touch "$dir/bootstrapped"
	fi
	# apt in the root needs the host's resolver; nothing in it may start
	# a service.
	cp /etc/resolv.conf "$root/etc/resolv.conf"
	printf '#!/bin/sh\nexit 101\n' >"$root/usr/sbin/policy-rc.d"
	chmod +x "$root/usr/sbin/policy-rc.d"
	say "$name: installing $pkgs"
	# shellcheck disable=SC2086
	{
		{ [ -z "$arch" ] || "$in_root" dpkg --add-architecture "$arch"; } &&
		"$in_root" apt-get -q update &&
		DEBIAN_FRONTEND=noninteractive "$in_root" apt-get -q install -y \
			--no-install-recommends $pkgs &&
		"$in_root" apt-get clean
	} >>"$log" 2>&1 || { tail -20 "$log" >&2; die "$name: apt-get in $root failed"; }
	echo "$suite: $pkgs" >"$stamp"
	) 8>>"$dir/lock"
}

# debroot_mount ROOT [DIR...]: in a caller's mount namespace of its own
# (never the host's, whose mounts would stay), the kernel's /proc, the
# host's /dev and /tmp, and the project (and the build directory, and
# each DIR, when they lie outside it) at their own paths in ROOT, so that
# paths and objects' hashes inside are the host's.
debroot_mount() {
	local root=$1 d binds=("$TOP")
	shift
	mount -t proc proc "$root/proc"
	mount --rbind /dev "$root/dev"
	mount --bind /tmp "$root/tmp"
	case $BUILD/ in "$TOP"/*) ;; *) binds+=("$BUILD") ;; esac
	for d in "$@"; do
		case $d/ in "$TOP"/* | "$BUILD"/*) ;; *) binds+=("$d") ;; esac
	done
	for d in "${binds[@]}"; do
		mkdir -p "$root$d"
		mount --bind "$d" "$root$d"
	done
}
