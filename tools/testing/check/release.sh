#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The perf of a Debian release, as its operators install it: the release's
# linux-perf of the same version as the kernel of SERIES (check/kernels.conf:
# bullseye's linux-perf-5.10 for 5.10, trixie's linux-perf for 6.12,
# trixie-backports' for 7.3), and the release's bash, the interpreter of
# many of perf's own shell tests (perf test; 7.3's "perf all PMU test"
# among them), with every package they depend on, from that release only,
# unpacked (never installed) into
# ${UNCORE_CACHE:-/var/cache/uncore-pmu}/release/<suite>-<arch>-<version>/root.
#
# Usage: $0 SERIES [x86_64|arm64]   print that root (default x86_64)
#        $0 --version SERIES        print "SUITE PACKAGE VERSION"
#
# The guest's init takes perf, bash and their libraries from the root
# (vm/initramfs.sh --userland); the busybox stays the harness's own. The
# packages come through check/debian.sh's private apt configuration, the
# suites other than the release's pinned away, so that no library comes
# from a newer release. The root is made to look merged-/usr (as every
# Debian since 12 installs it) and its absolute symbolic links are made
# relative, so that a link resolves inside the root, not on the host.
set -euo pipefail

HERE=$(cd "$(dirname "$0")" && pwd)
CACHE=${UNCORE_CACHE:-/var/cache/uncore-pmu}/release
CONF=$HERE/kernels.conf

# shellcheck source=../lib/host.sh
. "$(dirname "$0")/../lib/host.sh"

usage() { sed -n '11,12s/^# \{0,1\}//p' "$0" >&2; exit 2; }

# pkg SERIES: set SUITE, PKG and VER for SERIES
pkg()
{
	local s=$1 abi

	SUITE=$(awk -v s="$s" '!/^#/ && $1 == s { print $4 }' "$CONF")
	[ -n "$SUITE" ] || die "series $s has no release in $CONF (6.1 is the host's own)"
	read -r VER abi < <("$HERE/kdir.sh" --pin "$s" x86)
	# bullseye's perf is versioned by series; later releases' is not
	case $SUITE in
	bullseye)	PKG=linux-perf-$s ;;
	*)		PKG=linux-perf ;;
	esac
}

# The suites a release draws from: its own, and for backports the base.
suites_of()
{
	case $1 in
	*-backports)	echo "${1%-backports} $1" ;;
	*)		echo "$1" ;;
	esac
}

# usrmerge ROOT: bin, sbin, lib, lib64 as links into usr/, the contents of
# a real top-level one moved there first (bullseye's packages still ship
# /lib, trixie's /usr/lib)
usrmerge()
{
	local root=$1 d

	for d in bin sbin lib lib64; do
		if [ -d "$root/$d" ] && [ ! -L "$root/$d" ]; then
			mkdir -p "$root/usr/$d"
			cp -a "$root/$d/." "$root/usr/$d/"
			rm -rf "${root:?}/$d"
		fi
		[ -d "$root/usr/$d" ] && ln -sfn "usr/$d" "$root/$d"
	done
	return 0
}

# relink ROOT: every absolute symbolic link under ROOT made relative
relink()
{
	local root=$1 l t

	while IFS= read -r -d '' l; do
		t=$(readlink "$l")
		case $t in /*) ;; *) continue ;; esac
		ln -sfn "$(realpath -m -s --relative-to="$(dirname "$l")" "$root$t")" "$l"
	done < <(find "$root" -type l -print0)
}

fetch()
{
	local dir=$1 arch=$2 tmp s pin debarch deb

	case $arch in
	x86_64)	debarch=amd64 ;;
	arm64)	debarch=arm64 ;;
	*)	die "unknown architecture $arch" ;;
	esac
	mkdir -p "$CACHE"
	tmp=$(mktemp -d "$CACHE/.tmp.XXXXXX")
	# shellcheck disable=SC2064 # expand now
	trap "rm -rf '$tmp'" EXIT
	pin=$tmp/preferences
	for s in bullseye bookworm trixie trixie-backports sid; do
		case " $(suites_of "$SUITE") " in *" $s "*) continue ;; esac
		printf 'Package: *\nPin: release n=%s\nPin-Priority: -1\n\n' "$s"
	done >"$pin"
	mkdir -p "$tmp/debs/partial" "$tmp/root"
	# the whole closure: the private status file lists nothing installed
	"$HERE/debian.sh" apt-get install -d -y --no-install-recommends \
		-t "$SUITE" -o "APT::Architecture=$debarch" \
		-o "Dir::Etc::Preferences=$pin" -o "Dir::Cache::archives=$tmp/debs" \
		"$PKG:$debarch=$VER" "bash:$debarch" >&2 ||
		die "cannot download $PKG:$debarch=$VER, bash and their dependencies from $SUITE"
	for deb in "$tmp"/debs/*.deb; do
		dpkg -x "$deb" "$tmp/root"
	done
	(cd "$tmp/debs" && ls -- *.deb) >"$tmp/root/.packages"
	usrmerge "$tmp/root"
	relink "$tmp/root"
	ls "$tmp"/root/usr/bin/perf* >/dev/null 2>&1 || die "no perf in $PKG=$VER"
	[ -x "$tmp/root/usr/bin/bash" ] || die "no bash in $SUITE's bash package"
	rm -rf "$dir"
	mkdir -p "$dir"
	mv "$tmp/root" "$dir/root"
	touch "$dir/.done"
}

case ${1:-} in
--version)
	[ $# -eq 2 ] || usage
	pkg "$2"
	echo "$SUITE $PKG $VER"
	exit 0 ;;
''|-*)	usage ;;
esac
[ $# -le 2 ] || usage
pkg "$1"
arch=${2:-x86_64}
dir=$CACHE/$SUITE-$arch-$VER
# a root made before it held bash is made again
if [ ! -f "$dir/.done" ] || [ ! -x "$dir/root/usr/bin/bash" ]; then
	mkdir -p "$CACHE"
	exec 9>"$CACHE/.lock"
	flock 9
	[ -f "$dir/.done" ] && [ -x "$dir/root/usr/bin/bash" ] || fetch "$dir" "$arch"
fi
echo "$dir/root"
