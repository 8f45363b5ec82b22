#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Usage: $0 SERIES [x86|arm64]   print the path of a kernel build tree
#        $0 --list               print the series of the build matrix
#        $0 --pin SERIES x86|arm64   print "VERSION ABI" of the Debian packages
#
# 6.1 x86:   the installed Debian amd64 headers (the version
#            linux-headers-amd64 depends on, else the newest installed one).
# 6.1 arm64: Debian's arm64 headers of the same version (arm64.sh kdir).
# Every other series of kernels.conf: a tree prepared once from Debian's
# linux-source-<series> with Debian's own configuration and Module.symvers
# of that architecture (from its headers package), its kernel release
# (so modules built against it carry the vermagic of Debian's image), and
# the host's compiler and tools: "olddefconfig" adapts the configuration
# to them, then "modules_prepare". The source is unpacked once per
# version under /var/cache/uncore-pmu/trees/ and shared by both
# architectures (O= builds). A stamp marks a finished tree; an unfinished
# or stale one is prepared again; the log is <tree>.log next to it.
# Packages come from debian.sh (the private apt configuration).
set -eu

HERE=$(cd "$(dirname "$0")" && pwd)
CACHE=${UNCORE_CACHE:-/var/cache/uncore-pmu}
TREES=$CACHE/trees
CONF=$HERE/kernels.conf

# shellcheck source=../lib/host.sh
. "$(dirname "$0")/../lib/host.sh"

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

# pkg_at PKG VERSION: the archive has PKG at VERSION
pkg_at()
{
	"$HERE/debian.sh" apt-cache madison "$1" 2>/dev/null |
		awk -F' *[|] *' -v v="$2" '$2 == v { f = 1 } END { exit !f }'
}

# base SERIES: the series of its linux-source (an "-rt" series is its
# base series' PREEMPT_RT flavour, a "-16k" one its 16 KiB-page flavour)
base()
{
	local s=${1%-rt}

	echo "${s%-16k}"
}

# flavour SERIES ARCH-FLAVOUR: the flavour of the headers and image
# packages (amd64, arm64; rt-amd64, rt-arm64 for an "-rt" series;
# arm64-16k for a "-16k" one, which has no amd64 flavour)
flavour()
{
	case $1:$2 in
	*-rt:*)		echo "rt-$2" ;;
	*-16k:arm64)	echo "arm64-16k" ;;
	*-16k:*)	die "series $1 is arm64 only" ;;
	*)		echo "$2" ;;
	esac
}

# resolve SERIES FLAVOUR: set VER and ABI from kernels.conf, or, when the
# archive has dropped the pin, from the newest linux-source-<series>
resolve()
{
	local s=$1 fl=$2 pin pabi p b

	b=$(base "$s")

	read -r pin pabi < <(awk -v s="$s" '$1 == s { print $2, $3 }' "$CONF")
	[ -n "${pin:-}" ] || die "series $s is not in $CONF"
	VER=$pin ABI=$pabi
	pkg_at "linux-source-$b" "$VER" && pkg_at "linux-headers-$ABI-$fl" "$VER" &&
		return 0
	VER=$("$HERE/debian.sh" newest "linux-source-$b")
	[ -n "$VER" ] || die "linux-source-$b is not in the archive"
	ABI=
	for p in $("$HERE/debian.sh" apt-cache search --names-only \
		   "^linux-headers-${b//./\\.}[.-][^ ]*-$fl\$" | cut -d' ' -f1); do
		pkg_at "$p" "$VER" || continue
		ABI=${p#linux-headers-}
		ABI=${ABI%-"$fl"}
		break
	done
	[ -n "$ABI" ] || die "no linux-headers-*-$fl at $VER (linux-source-$b)"
	echo "${0##*/}: $s: pinned $pin ($pabi) is gone from the archive;" \
	     "using the newest, $VER ($ABI)" >&2
}

# unpack_source SERIES VERSION: the extracted linux-source tree
unpack_source()
{
	local s=$1 v=$2 src=$TREES/linux-$2 tmp

	exec 7>"$TREES/.src-$v.lock"
	flock 7
	if [ ! -f "$src/.uncore-pmu-stamp" ]; then
		echo "${0##*/}: unpacking linux-source-$s $v" >&2
		rm -rf "$src"
		tmp=$(mktemp -d "$TREES/.tmp.XXXXXX")
		"$HERE/debian.sh" download "$tmp" "linux-source-$s=$v"
		dpkg-deb --fsys-tarfile "$tmp"/linux-source-*.deb |
			tar -xO --wildcards "./usr/src/linux-source-$s.tar.*" |
			tar -xJ -C "$tmp"
		mv "$tmp/linux-source-$s" "$src"
		rm -rf "$tmp"
		echo "$s $v" >"$src/.uncore-pmu-stamp"
	fi
	exec 7>&-
	echo "$src"
}

# prepare TREE SRC FLAVOUR MAKEARGS...: Debian's .config, Module.symvers
# and release of linux-headers-$ABI-FLAVOUR, then modules_prepare
prepare()
{
	local tree=$1 src=$2 fl=$3 tmp rel h
	shift 3

	rm -rf "$tree"
	tmp=$(mktemp -d "$TREES/.tmp.XXXXXX")
	"$HERE/debian.sh" download "$tmp" "linux-headers-$ABI-$fl:$DEBARCH=$VER"
	dpkg-deb --fsys-tarfile "$tmp"/linux-headers-*.deb |
		tar -x -C "$tmp" --wildcards '*/.config' '*/Module.symvers' \
		    '*/include/config/kernel.release'
	h=$tmp/usr/src/linux-headers-$ABI-$fl
	[ -s "$h/.config" ] && [ -s "$h/Module.symvers" ] ||
		die "linux-headers-$ABI-$fl has no .config or Module.symvers"
	rel=$(cat "$h/include/config/kernel.release")
	mkdir -p "$tree"
	cp "$h/.config" "$tree/.config"
	make -C "$src" O="$tree" "$@" olddefconfig
	make -C "$src" O="$tree" "$@" -j"$(nproc)" KERNELRELEASE="$rel" modules_prepare
	# kbuild before 6.x takes no KERNELRELEASE: give the tree Debian's
	# release by hand (external module builds do not regenerate these)
	if ! grep -qx "#define UTS_RELEASE \"$rel\"" "$tree/include/generated/utsrelease.h"; then
		echo "$rel" >"$tree/include/config/kernel.release"
		echo "#define UTS_RELEASE \"$rel\"" >"$tree/include/generated/utsrelease.h"
	fi
	cp "$h/Module.symvers" "$tree/Module.symvers"
	echo "Debian $VER ($ABI-$fl), release $rel"
	rm -rf "$tmp"
}

kdir_tree()
{
	local s=$1 arch=$2 fl tree log src id rc
	local args=()

	case $arch in
	x86)	fl=amd64 DEBARCH=amd64 ;;
	arm64)	fl=arm64 DEBARCH=arm64
		args=(ARCH=arm64 CROSS_COMPILE=aarch64-linux-gnu-) ;;
	*)	die "unknown architecture $arch" ;;
	esac
	fl=$(flavour "$s" "$fl")
	mkdir -p "$TREES"
	resolve "$s" "$fl"
	tree=$TREES/$s-$arch
	log=$tree.log
	id="$VER $ABI-$fl 3 $(pahole --version 2>/dev/null)"
	exec 9>"$TREES/.$s-$arch.lock"
	flock 9
	if [ "$(cat "$tree/.uncore-pmu-stamp" 2>/dev/null)" != "$id" ]; then
		src=$(unpack_source "$(base "$s")" "$VER")
		echo "${0##*/}: preparing $tree (log: $log)" >&2
		# not "if ! prepare": set -e must stay active inside it
		set +e
		(set -e; prepare "$tree" "$src" "$fl" "${args[@]}") >"$log" 2>&1
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

# The series of the build matrix: 6.1 and those of kernels.conf, the
# flavours ("-rt", "-16k") first, so that the last line is the newest
# plain series
list()
{
	{ echo 6.1; awk '!/^#/ && NF { print $1 }' "$CONF"; } | sort -V |
		awk '/-(rt|16k)$/ { print; next } { l[n++] = $0 }
		     END { for (i = 0; i < n; i++) print l[i] }'
}

case "${1:-}" in
--list)		list; exit 0 ;;
--pin)		[ $# -eq 3 ] || die "usage: --pin SERIES x86|arm64"
		case $3 in
		x86)	fl=amd64 ;;
		arm64)	fl=arm64 ;;
		*)	die "unknown architecture $3" ;;
		esac
		resolve "$2" "$(flavour "$2" "$fl")"
		echo "$VER $ABI"
		exit 0 ;;
esac
[ $# -ge 1 ] && [ $# -le 2 ] || { sed -n "4,6{s/^# \\{0,1\\}//;s|\\\$0|$0|;p}" "$0" >&2; exit 2; }
case "$1:${2:-x86}" in
6.1:x86)	kdir_61 ;;
6.1:arm64)	exec "$HERE/arm64.sh" kdir ;;
*)		kdir_tree "$1" "${2:-x86}" ;;
esac
