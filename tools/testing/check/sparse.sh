#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Usage: $0 TREE   print the path of a sparse binary that the kernel build
#                  tree TREE (kdir.sh) accepts for C=1/C=2 (as CHECK=<path>)
#
# kbuild of a newer kernel runs the source's scripts/checker-valid.sh on
# $(CHECK) and silently drops C=1/C=2 when sparse is too old for it (7.3
# wants __typeof_unqual__, which the host's bookworm sparse 0.6.4 lacks).
# The source of TREE is its "source" symlink (an O= tree), else the
# directory its Makefile includes (Debian's headers packages), else TREE.
#
# The host's sparse when that script (if the tree has one) accepts it;
# else a sparse built once from Debian sid's source package "sparse"
# (pinned at SID_PIN, the newest version when the archive has dropped the
# pin): fetched with debian.sh, only the upstream .orig tarball is built
# (the Debian patches hard-code gcc-16) with the host's gcc, the sparse
# program alone, into ${UNCORE_CACHE:-/var/cache/uncore-pmu}/sparse-<version>/
# (a stamp marks a finished build, the log is sparse-<version>.log next to
# it; about 20 s). Fails, saying why, when no sparse is accepted.
set -eu

HERE=$(cd "$(dirname "$0")" && pwd)
CACHE=${UNCORE_CACHE:-/var/cache/uncore-pmu}
SID_PIN=0.6.5~rc1-2

# shellcheck source=../lib/host.sh
. "$(dirname "$0")/../lib/host.sh"

# srctree TREE: the kernel source TREE builds from
srctree()
{
	local src

	if [ -d "$1/source" ]; then
		(cd "$1/source" && pwd -P)
		return
	fi
	src=$(sed -n 's|^include \(.*\)/Makefile$|\1|p' "$1/Makefile" | tail -n 1)
	if [ -n "$src" ] && [ -f "$src/Makefile" ]; then
		echo "$src"
	else
		echo "$1"
	fi
}

# accepted SPARSE: the tree's checker-valid.sh, if it has one, accepts SPARSE
# (as kbuild calls it, without the architecture's CHECKFLAGS)
accepted()
{
	local valid=$SRC/scripts/checker-valid.sh

	[ -e "$valid" ] || return 0
	[ "$(sh -eu "$valid" "$1" 2>/dev/null)" = 1 ]
}

# sid_version: the pin if sid still has it, else sid's newest sparse source
sid_version()
{
	local vers v best=

	vers=$("$HERE/debian.sh" apt-cache showsrc sparse 2>/dev/null |
	       sed -n 's/^Version: //p')
	for v in $vers; do
		[ "$v" = "$SID_PIN" ] && { echo "$v"; return; }
		if [ -z "$best" ] || dpkg --compare-versions "$v" gt "$best"; then
			best=$v
		fi
	done
	[ -n "$best" ] || die "no source package sparse in the archive (debian.sh)"
	echo "${0##*/}: pinned sparse $SID_PIN is gone from the archive;" \
	     "using the newest, $best" >&2
	echo "$best"
}

# build VERSION TMP: fetch the source package, build sparse in TMP/src
build()
{
	local ver=$1 tmp=$2 up

	up=${ver#*:}
	up=${up%-*}
	(cd "$tmp" && "$HERE/debian.sh" apt-get source --download-only "sparse=$ver")
	mkdir "$tmp/src"
	tar -xf "$tmp"/sparse_"$up".orig.tar.* -C "$tmp/src" --strip-components=1
	unset MAKEFLAGS MFLAGS MAKELEVEL MAKEOVERRIDES
	make -C "$tmp/src" -j"$(nproc)" sparse CC=gcc HAVE_LLVM=no HAVE_GTK=no \
		HAVE_LIBXML=no SPARSE_VERSION="$up"
	"$tmp/src/sparse" --version
}

# sid_sparse VERSION: the cached sparse of that version, built if need be
sid_sparse()
{
	local ver=$1 dir=$CACHE/sparse-$1 log=$CACHE/sparse-$1.log tmp rc

	mkdir -p "$CACHE"
	exec 9>"$CACHE/.sparse-$ver.lock"
	flock 9
	if [ "$(cat "$dir/.uncore-pmu-stamp" 2>/dev/null)" != "$ver" ] ||
	   [ ! -x "$dir/sparse" ]; then
		echo "${0##*/}: building sparse $ver of Debian sid (log: $log)" >&2
		rm -rf "$dir"
		tmp=$(mktemp -d "$CACHE/.sparse-tmp.XXXXXX")
		# not "if ! build": set -e must stay active inside it
		set +e
		(set -e; build "$ver" "$tmp") >"$log" 2>&1
		rc=$?
		set -e
		if [ $rc -ne 0 ]; then
			tail -n 20 "$log" >&2
			rm -rf "$tmp"
			die "building sparse $ver failed, see $log"
		fi
		mkdir "$dir"
		mv "$tmp/src/sparse" "$dir/sparse"
		rm -rf "$tmp"
		echo "$ver" >"$dir/.uncore-pmu-stamp"
	fi
	exec 9>&-
	echo "$dir/sparse"
}

[ $# -eq 1 ] || { sed -n "4,5{s/^# \\{0,1\\}//;s|\\\$0|$0|;p}" "$0" >&2; exit 2; }
[ -f "$1/Makefile" ] || die "$1: not a kernel build tree"
SRC=$(srctree "$1")

host=$(command -v sparse || true)
if [ -n "$host" ] && accepted "$host"; then
	echo "$host"
	exit 0
fi
if [ -n "$host" ]; then
	echo "${0##*/}: $SRC/scripts/checker-valid.sh refuses the host's" \
	     "sparse $("$host" --version)" >&2
fi
# a cached build of the pin needs no look-up in the archive
if [ "$(cat "$CACHE/sparse-$SID_PIN/.uncore-pmu-stamp" 2>/dev/null)" = "$SID_PIN" ] &&
   [ -x "$CACHE/sparse-$SID_PIN/sparse" ]; then
	ver=$SID_PIN
else
	ver=$(sid_version)
fi
sid=$(sid_sparse "$ver")
accepted "$sid" ||
	die "$SRC/scripts/checker-valid.sh refuses sparse $ver of Debian sid too"
echo "$sid"
