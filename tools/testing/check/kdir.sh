#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Usage: $0 6.1|6.12 - print the path of a kernel build tree.
#
# 6.1:  the installed Debian amd64 headers (the version linux-headers-amd64
#       depends on, else the newest installed one).
# 6.12: a tree prepared once from /usr/src/linux-source-6.12.tar.xz under
#       /var/cache/uncore-pmu/linux-6.12 (defconfig + our options,
#       modules_prepare).  A stamp marks it complete; an unfinished or stale
#       tree is prepared again.  Progress goes to linux-6.12.log next to it.
set -eu

CACHE=${UNCORE_CACHE:-/var/cache/uncore-pmu}
CONFIGS="ACPI NUMA HOTPLUG_CPU MODULES MODULE_UNLOAD DEBUG_FS"

die() { echo "${0##*/}: $*" >&2; exit 1; }

kdir_61()
{
	local ver dir

	ver=$(dpkg-query -W -f='${Depends}' linux-headers-amd64 2>/dev/null |
	      grep -o 'linux-headers-6\.1\.[^ ,]*-amd64' | head -n1) || true
	dir=/usr/src/${ver:-none}
	if [ -z "$ver" ] || [ ! -f "$dir/Makefile" ]; then
		dir=$(ls -d /usr/src/linux-headers-6.1.*-amd64 2>/dev/null |
		      sort -V | tail -n1) || true
	fi
	[ -n "$dir" ] && [ -f "$dir/Makefile" ] ||
		die "no linux-headers-6.1.*-amd64 installed (run deps.sh)"
	echo "$dir"
}

# Without vmlinux, modpost needs a Module.symvers to resolve symbols and
# namespaces; building vmlinux takes ~30 min here, so borrow the one of
# Debian's 6.12 amd64 headers of the same (else the newest) version.
symvers_612()
{
	local tree=$1 ver pkg tmp

	ver=$(dpkg-query -W -f='${Version}' linux-source-6.12 | sed 's/-.*//')
	pkg=$(apt-cache search --names-only \
	      '^linux-headers-6\.12\.[0-9]+\+deb[0-9]+-amd64$' |
	      cut -d' ' -f1 | sort -V | grep -x "linux-headers-$ver+.*" ||
	      apt-cache search --names-only \
	      '^linux-headers-6\.12\.[0-9]+\+deb[0-9]+-amd64$' |
	      cut -d' ' -f1 | sort -V | tail -n1)
	[ -n "$pkg" ] || { echo "no linux-headers-6.12.*-amd64 in apt" >&2; return 1; }
	tmp=$(mktemp -d)
	(cd "$tmp" && apt-get download "$pkg")
	dpkg-deb --fsys-tarfile "$tmp"/*.deb |
		tar -x -C "$tmp" --wildcards '*/Module.symvers'
	cp "$tmp"/usr/src/*/Module.symvers "$tree/Module.symvers"
	echo "Module.symvers from $pkg"
	rm -rf "$tmp"
}

prepare_612()
{
	local tree=$1 tar=$2 log=$3 tmp opt

	rm -rf "$tree" "$tree.tmp"
	mkdir -p "$tree.tmp"
	echo "${0##*/}: preparing $tree (log: $log)" >&2
	tar -xJf "$tar" -C "$tree.tmp"
	mv "$tree.tmp"/linux-source-6.12 "$tree"
	rmdir "$tree.tmp"
	make -C "$tree" defconfig
	for opt in $CONFIGS; do
		"$tree/scripts/config" --file "$tree/.config" -e "$opt"
	done
	make -C "$tree" olddefconfig
	for opt in $CONFIGS; do
		grep -qx "CONFIG_$opt=y" "$tree/.config" ||
			{ echo "CONFIG_$opt not set" >&2; return 1; }
	done
	tmp=$(nproc)
	make -C "$tree" -j"$tmp" modules_prepare
	symvers_612 "$tree"
}

kdir_612()
{
	local tree=$CACHE/linux-6.12 tar=/usr/src/linux-source-6.12.tar.xz
	local log=$CACHE/linux-6.12.log id rc

	[ -f "$tar" ] || die "$tar missing (run deps.sh)"
	id="$(stat -c '%s %Y' "$tar") $CONFIGS"
	mkdir -p "$CACHE"
	exec 9>"$CACHE/.linux-6.12.lock"
	flock 9
	if [ "$(cat "$tree/.uncore-pmu-stamp" 2>/dev/null)" != "$id" ]; then
		# not "if ! prepare": set -e must stay active inside it
		set +e
		(set -e; prepare_612 "$tree" "$tar" "$log") >"$log" 2>&1
		rc=$?
		set -e
		if [ $rc -ne 0 ]; then
			tail -n 30 "$log" >&2
			die "preparing $tree failed, see $log"
		fi
		echo "$id" >"$tree/.uncore-pmu-stamp"
	fi
	echo "$tree"
}

case "${1:-}" in
6.1)	kdir_61 ;;
6.12)	kdir_612 ;;
*)	echo "usage: $0 6.1|6.12" >&2; exit 2 ;;
esac
