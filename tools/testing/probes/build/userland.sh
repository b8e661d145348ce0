#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# The guest's Debian userland: the packages userland.list names, with their
# Depends and Pre-Depends, for the guest's architecture ($DEB_ARCH), from
# Debian trixie and trixie-backports, fetched with apt's own tools alone and
# apt state of the harness's own, unpacked into one root and packed into an
# ext4 image that the guest can mount or boot from:
#   $BUILD/debs/$DEB_ARCH/userland-apt/    apt's sources, lists and state
#   $BUILD/debs/$DEB_ARCH/userland-debs/   the packages
#   $BUILD/debs/$DEB_ARCH/userland/        the root
#   $BUILD/debs/$DEB_ARCH/userland.img     the image (ext4, made by mke2fs -d)
# Rebuilt only when the list, the resolved packages' versions or this script
# change; otherwise the cache is reused. The package lists are fetched once
# and kept; USERLAND_REFRESH=1 fetches them again (a version gone from the
# archive does too).
. "$(dirname "$0")/../settings.sh"

start=$SECONDS
top=$BUILD/debs/$DEB_ARCH
root=$top/userland
debs=$top/userland-debs
img=$top/userland.img
stamp=$top/userland.stamp
summary=$top/userland.summary
list=$HARNESS/build/userland.list
# apt's state for the guest, the host's apt configuration left as it is:
# its own sources list, its own package lists (this architecture's alone)
# and caches, and no package installed.
state=$top/userland-apt
lists=$state/lists
mkdir -p "$state" "$lists/partial" "$debs"
[ -e "$state/status" ] || : >"$state/status"

# The suites: trixie, and trixie-backports for the perf of the guest's
# kernel (linux-perf 7.3, as the base is Debian's linux-source-7.3 from
# there) and the bpftool built with it. Not the host's bookworm, whose
# tools are older than the kernel, nor sid (settings.sh's debian_apt has it, for
# the kernel's source): a guest of trixie's libraries throughout.
suites="trixie trixie-backports"
backports=trixie-backports
sources=$(for s in $suites; do
	echo "deb [signed-by=/usr/share/keyrings/debian-archive-keyring.gpg]" \
		"http://deb.debian.org/debian $s main"
done)

# apt as if the guest's architecture were the only one, with nothing
# installed: it resolves the whole closure for that architecture, takes the
# first alternative of an "A | B" and a provider of a virtual package as it
# would on an install, and reads ":any" (perl:any, python3:any) as the
# guest's, not the host's. It reads only the sources above (not the host's
# sources.list.d, nor its preferences), never touches the host's dpkg
# status, and needs no lock. trixie-backports is the target release, as
# `apt-get install -t trixie-backports` makes it: each package of the
# closure that it has, newer than trixie's, comes from it (linux-perf and
# bpftool; elfutils', curl's and Mesa's libraries), every other from
# trixie. Pinning the tools alone would not do: apt (bookworm's 2.6) does
# not then take from backports a library that a backported tool needs a
# newer version of. The downloads run as root when the script does (its
# directories are root's), as debian_apt's do.
apt_opts=(-q -o "APT::Architecture=$DEB_ARCH" -o "APT::Architectures::=$DEB_ARCH"
	-o "Dir::Etc::SourceList=$state/sources.list" -o Dir::Etc::SourceParts=/dev/null
	-o Dir::Etc::Preferences=/dev/null -o Dir::Etc::PreferencesParts=/dev/null
	-o "APT::Default-Release=$backports"
	-o "Dir::State::Lists=$lists"
	-o "Dir::State::status=$state/status"
	-o "Dir::State::extended_states=$state/extended_states"
	-o "Dir::Cache::pkgcache=$state/pkgcache.bin"
	-o "Dir::Cache::srcpkgcache=$state/srcpkgcache.bin"
	-o APT::Install-Recommends=false -o APT::Install-Suggests=false
	-o Debug::NoLocking=true -o APT::Sandbox::User=root)

# have_lists: each suite's release file (InRelease, signed) is in $lists.
have_lists() {
	local s
	for s in $suites; do
		[ -f "$lists/deb.debian.org_debian_dists_${s}_InRelease" ] || return 1
	done
}

# update: fetch the suites' package lists, their signatures checked against
# Debian's archive keyring. apt-get update can succeed with a suite's lists
# not fetched (a warning): each must be there.
update() {
	local out
	say "userland: updating the package lists of $suites for $DEB_ARCH"
	if ! out=$(apt-get "${apt_opts[@]}" update 2>&1) || ! have_lists; then
		printf '%s\n' "$out" >&2
		die "cannot update the package lists of $suites"
	fi
}

# The list: the packages wanted, and those left out of the closure.
want=()
drop=()
while read -r p; do
	case $p in
	'') ;;
	-*) drop+=("${p#-}") ;;
	*) want+=("$p") ;;
	esac
done < <(sed -e 's/#.*//' -e 's/[[:space:]]*$//' -e 's/^[[:space:]]*//' "$list")
[ ${#want[@]} -gt 0 ] || die "$list names no package"

# resolve: the closure as "NAME VERSION ARCH" lines, sorted, into
# $state/resolved. An install simulated (apt-get -s) against the empty
# status lists every package it would unpack, with its version, origin and
# architecture ("all" for the architecture-independent ones).
resolve() {
	local out
	if ! out=$(apt-get "${apt_opts[@]}" install -s "${want[@]}" 2>&1); then
		printf '%s\n' "$out" >&2
		die "apt cannot resolve userland.list for $DEB_ARCH"
	fi
	# Each "Inst NAME (VERSION ORIGIN[, ORIGIN...] [ARCH])", perhaps with
	# " [...]" after it (what the step would leave unconfigured). Debian's
	# archive alone: the sources above are all Debian's, and a package of
	# another origin is refused should one ever be read.
	printf '%s\n' "$out" | awk -v drop=" ${drop[*]} " '
		/^Inst / {
			if (!match($0, /^Inst [^ ]+ [(][^ ]+ [^[]+ [[][^]]+[]][)]/)) {
				print "error: cannot read apt: " $0 > "/dev/stderr"
				bad = 1
				next
			}
			m = substr($0, 1, RLENGTH)
			arch = m; sub(/^.*[[]/, "", arch); sub(/[]][)]$/, "", arch)
			origins = m; sub(/^Inst [^ ]+ [(][^ ]+ /, "", origins)
			sub(/ [[][^]]+[]][)]$/, "", origins)
			n = split(origins, o, /, /)
			for (i = 1; i <= n; i++)
				if (o[i] !~ /^Debian/) {
					print "error: " $2 " comes from " o[i] > "/dev/stderr"
					bad = 1
				}
			if (index(drop, " " $2 " ")) {
				dropped[$2] = 1
				next
			}
			print $2, substr($3, 2), arch
		}
		END {
			n = split(drop, d, " ")
			for (i = 1; i <= n; i++)
				if (!(d[i] in dropped))
					print "userland: -" d[i] ": not in the closure" > "/dev/stderr"
			exit bad
		}' | LC_ALL=C sort >"$state/resolved" ||
		die "apt's resolution for $DEB_ARCH is not all Debian's, or unreadable"
	[ -s "$state/resolved" ] || die "apt resolved nothing for $DEB_ARCH"
}

# fetch: the resolved packages not yet in $debs, by exact version; the
# packages of an earlier set that it no longer holds are removed. apt-get
# download checks each against the archive's hashes; it writes into
# partial/ and only complete packages move up.
fetch() {
	local name ver arch file get=() out
	declare -A keep=()
	while read -r name ver arch; do
		file=${name}_${ver//:/%3a}_$arch.deb
		keep[$file]=1
		[ -f "$debs/$file" ] || get+=("$name=$ver")
	done <"$state/resolved"
	for file in "$debs"/*.deb; do
		[ -e "$file" ] || continue
		[ -n "${keep[$(basename "$file")]:-}" ] || rm -f "$file"
	done
	[ ${#get[@]} -gt 0 ] || return 0
	say "userland: downloading ${#get[@]} packages for $DEB_ARCH"
	rm -rf "$debs/partial"
	mkdir -p "$debs/partial"
	if ! out=$(cd "$debs/partial" && apt-get "${apt_opts[@]}" download "${get[@]}" 2>&1); then
		printf '%s\n' "$out" >&2
		return 1
	fi
	mv "$debs"/partial/*.deb "$debs/"
	rmdir "$debs/partial"
}

# The package lists: fetched on the first run, when the sources change, or
# when USERLAND_REFRESH asks; otherwise those of the last update, so that a
# warm run needs no network.
if [ "$(cat "$state/sources.list" 2>/dev/null)" != "$sources" ]; then
	printf '%s\n' "$sources" >"$state/sources.list"
	rm -f "$lists"/*_InRelease
fi
if [ -n "${USERLAND_REFRESH:-}" ] || ! have_lists; then
	update
fi
resolve
# A version that the archive has replaced since the last update is gone
# from the mirror: update the lists and resolve again.
if ! fetch; then
	update
	resolve
	fetch || die "cannot download the userland packages for $DEB_ARCH"
fi

# The cache's key: the list (its packages, not its comments), the packages
# resolved (name, version, architecture) and this script, which decides how
# the root is made.
key=$({ printf '%s\n' "${want[@]}" -- "${drop[@]}"; cat "$state/resolved" "$HARNESS/build/userland.sh"; } |
	sha256sum | cut -d' ' -f1)
if [ "$(cat "$stamp" 2>/dev/null)" = "$key" ] && [ -d "$root" ] && [ -f "$img" ] &&
   [ -f "$summary" ]; then
	say "userland: reusing $root and $img (unchanged list and packages, key ${key:0:12})"
	sed 's/^/userland: /' "$summary" >&2
	say "userland: wall time $((SECONDS - start)) s"
	exit 0
fi
rm -f "$stamp"

say "userland: unpacking $(wc -l <"$state/resolved") packages into $root"
tmp=$root.new
rm -rf "$tmp"
mkdir -p "$tmp"
for deb in "$debs"/*.deb; do
	dpkg-deb -x "$deb" "$tmp"
done

# What dpkg and the maintainer scripts would have done, and the tools need.
#
# The merged /usr: trixie's base-files ships /bin, /sbin and /lib as links
# into /usr, and /lib64 on amd64, where the dynamic loader is
# /lib64/ld-linux-x86-64.so.2 (arm64's is /lib/ld-linux-aarch64.so.1), and
# trixie's packages ship their files under /usr alone. Should one still
# ship a file under /bin or another, dpkg-deb -x has replaced the link with
# a directory: its files are moved into /usr after the unpack, which the
# rule of the merged-/usr transition allows (no path both under /X and
# /usr/X).
for d in bin sbin lib lib32 lib64 libx32; do
	if [ ! -d "$tmp/$d" ] || [ -L "$tmp/$d" ]; then
		continue
	fi
	clash=$(cd "$tmp/$d" && find . ! -type d | while read -r f; do
		if [ -e "$tmp/usr/$d/$f" ] || [ -L "$tmp/usr/$d/$f" ]; then
			echo "/$d/${f#./}"
		fi
	done)
	[ -z "$clash" ] || die "both /$d and /usr/$d have: $clash"
	mkdir -p "$tmp/usr/$d"
	cp -a "$tmp/$d/." "$tmp/usr/$d/"
	rm -rf "${tmp:?}/$d"
	ln -s "usr/$d" "$tmp/$d"
done
for d in bin sbin lib; do
	[ -e "$tmp/$d" ] || { mkdir -p "$tmp/usr/$d"; ln -s "usr/$d" "$tmp/$d"; }
done
# The programs' dynamic loader (their PT_INTERP) must be in the root, found
# through these links and its own (amd64's is an absolute one, which only
# resolves inside the guest).
interp=$(readelf -lW "$tmp/usr/bin/bash" | sed -n 's/.*interpreter: \(.*\)]$/\1/p')
loader=$interp
for _ in 1 2 3 4 5 6 7 8; do
	[ -L "$tmp$loader" ] || break
	link=$(readlink "$tmp$loader")
	case $link in
	/*) loader=$link ;;
	*) loader=$(dirname "$loader")/$link ;;
	esac
done
if [ -z "$interp" ] || [ ! -f "$tmp$loader" ] || [ -L "$tmp$loader" ]; then
	die "the dynamic loader '$interp' is not in the root"
fi

# Documentation, manual pages and translations: the guest reads none of
# them (they are what Debian's minimized images leave out, dpkg's
# path-exclude); each package's copyright stays.
find "$tmp/usr/share/doc" ! -type d ! -name copyright -delete
find "$tmp/usr/share/doc" -depth -type d -empty -delete
rm -rf "$tmp/usr/share/man" "$tmp/usr/share/info" "$tmp/usr/share/locale"

# update-alternatives: the generic names (awk, nawk, which, pager...) are
# links that postinst scripts make, through /etc/alternatives, to the
# provider of highest priority. Make the same links from the scripts' own
# calls: "--install LINK NAME PATH PRIORITY", each "--slave LINK NAME PATH"
# after it taking its priority. A call that names its files through shell
# variables, or a provider that is not unpacked, makes none.
for deb in "$debs"/*.deb; do
	dpkg-deb -I "$deb" postinst 2>/dev/null || true
done | sed -e ':a' -e '/\\$/{N;s/\\\n/ /;ba' -e '}' | awk '
	/update-alternatives.*--install/ {
		gsub(/["\047]/, "")
		n = split($0, t, /[ \t]+/)
		for (i = 1; i <= n && t[i] != "--install"; i++) ;
		prio = t[i + 4]
		print t[i + 1], t[i + 2], t[i + 3], prio
		for (i += 5; i + 3 <= n && t[i] == "--slave"; i += 4)
			print t[i + 1], t[i + 2], t[i + 3], prio
	}' | sort -k2,2 -k4,4nr | awk '!seen[$2]++' |
while read -r link name path _; do
	case $link$name$path in *[\$\`]*) continue ;; esac
	[ -e "$tmp$path" ] || continue
	if [ -e "$tmp$link" ] || [ -L "$tmp$link" ]; then
		continue
	fi
	mkdir -p "$tmp/etc/alternatives" "$(dirname "$tmp$link")"
	ln -s "$path" "$tmp/etc/alternatives/$name"
	ln -s "/etc/alternatives/$name" "$tmp$link"
done

# perf: linux-perf 7.3 of trixie-backports ships the program itself as
# /usr/bin/perf (as bookworm's 6.1 and trixie's 6.12 do). Before them
# (bullseye), /usr/bin/perf was a wrapper that ran perf_MAJOR.MINOR for the
# running kernel's version (uname -r) and refused any other; should such a
# wrapper be back, the guest must run the real perf_VERSION itself: say
# which program it is.
perf=/usr/bin/perf
if [ "$(head -c 4 "$tmp$perf" 2>/dev/null)" != $'\x7fELF' ]; then
	perf=$(find "$tmp/usr/bin" -name 'perf_[0-9]*' -printf '/usr/bin/%f\n' | sort -V | tail -1)
fi

# base-files' postinst: /etc/profile (the PATH of login shells), root's
# dotfiles, /run/lock, and /var/run and /var/lock as links into /run; the
# mount points it would make and those the guest mounts on (/proc, /sys
# with tracefs and debugfs, /dev, /tmp).
bf=$tmp/usr/share/base-files
for f in dot.profile:/root/.profile dot.bashrc:/root/.bashrc profile:/etc/profile motd:/etc/motd; do
	if [ -f "$bf/${f%%:*}" ] && [ ! -e "$tmp${f#*:}" ]; then
		mkdir -p "$(dirname "$tmp${f#*:}")"
		cp -p "$bf/${f%%:*}" "$tmp${f#*:}"
	fi
done
mkdir -p "$tmp"/{proc,sys,dev,root,run/lock,tmp,var/tmp,mnt,srv,opt,media}
chmod 700 "$tmp/root"
chmod 1777 "$tmp/tmp" "$tmp/var/tmp" "$tmp/run/lock"
for d in run:/run lock:/run/lock; do
	if [ ! -L "$tmp/var/${d%%:*}" ]; then
		rm -rf "${tmp:?}/var/${d%%:*}"
		ln -s "${d#*:}" "$tmp/var/${d%%:*}"
	fi
done
# base-passwd's postinst writes /etc/passwd and /etc/group: the guest has
# root alone, with no password (nothing in the root asks for one).
# debootstrap makes /etc/mtab a link to the kernel's mount table.
[ -f "$tmp/etc/passwd" ] || echo 'root::0:0:root:/root:/bin/bash' >"$tmp/etc/passwd"
[ -f "$tmp/etc/group" ] || echo 'root:x:0:' >"$tmp/etc/group"
[ -e "$tmp/etc/mtab" ] || ln -s ../proc/self/mounts "$tmp/etc/mtab"
echo probes >"$tmp/etc/hostname"

rm -rf "$root"
mv "$tmp" "$root"

# The image: ext4 made from the root by mke2fs -d, as an ordinary user
# could (no mount, no loop device); files keep their owners as unpacked
# (root's when run as root, as the harness is). Sized for the root plus a
# quarter and 64 MiB free, with twice as many inodes as files (Python
# writes its compiled modules next to them on first use).
used_k=$(du -sk "$root" | cut -f1)
files=$(find "$root" | wc -l)
inodes=$((files * 2 + 1024))
size_k=$(((used_k + used_k / 4 + 65536 + inodes / 4 + 1023) / 1024 * 1024))
rm -f "$img.new"
mke2fs -q -F -t ext4 -L userland -m 0 -N "$inodes" -E root_owner=0:0 \
	-d "$root" "$img.new" "${size_k}k" >/dev/null || die "mke2fs failed"
mv "$img.new" "$img"

mib() { echo "$(((${1} + 524288) / 1048576)) MiB"; }
dl=$(cat "$debs"/*.deb | wc -c)
unpacked=$(du -sb "$root" | cut -f1)
free=$(dumpe2fs -h "$img" 2>/dev/null | awk -F: '
	/^Free blocks/ { f = $2 } /^Block size/ { b = $2 } END { print f * b }')
{
	echo "$(wc -l <"$state/resolved") packages for $DEB_ARCH, $(mib "$dl") of .deb files in $debs"
	echo "unpacked: $(mib "$unpacked") ($files files) in $root"
	echo "image: $(mib "$(stat -c %s "$img")") ext4 ($(mib $(($(stat -c %b "$img") * 512))) on disk), $(mib "$free") free, $img"
	echo "loader: $interp ($loader); perf: ${perf:-none}"
	# The versions of the packages the list names, in its order.
	echo "versions: $(for p in "${want[@]}"; do
		awk -v p="$p" '$1 == p { printf "%s %s\n", $1, $2 }' "$state/resolved"
	done | paste -sd, - | sed 's/,/, /g')"
} >"$summary"
echo "$key" >"$stamp"
sed 's/^/userland: /' "$summary" >&2
say "userland: wall time $((SECONDS - start)) s"
