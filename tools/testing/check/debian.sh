#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Debian packages of other releases (bullseye, trixie, trixie-backports,
# sid) through a private apt configuration under the cache: the mirror is
# the one the machine's own apt sources name (read at run time), the
# system's sources, lists and preferences are never touched.
#
# Usage: $0 download DEST PKG[:ARCH]=VERSION...
#             download the packages into DEST (a directory)
#        $0 apt-cache ARGS... | apt-get ARGS...
#             run apt-cache or apt-get with the private configuration
#        $0 newest PKG     print the newest version of PKG
#        $0 mirror         print the URI of the machine's own Debian mirror
# The lists are fetched once a day (or when a download fails).
set -euo pipefail

CACHE=${UNCORE_CACHE:-/var/cache/uncore-pmu}/apt
SUITES="bullseye trixie trixie-backports sid"
SRC_SUITES="sid"
KEYRING=/usr/share/keyrings/debian-archive-keyring.gpg

# shellcheck source=../lib/host.sh
. "$(dirname "$0")/../lib/host.sh"

# The URI of the system's main Debian archive: the source that serves the
# host's own release (not -security), deb822 or one-line format.
mirror()
{
	local rel uri f

	rel=$(. /etc/os-release && echo "${VERSION_CODENAME:-}")
	[ -n "$rel" ] || die "no VERSION_CODENAME in /etc/os-release"
	for f in /etc/apt/sources.list.d/*.sources; do
		[ -f "$f" ] || continue
		uri=$(awk -v rel="$rel" '
			/^[ \t]*$/ { if (ok && u != "") { print u; exit } ok = 0; u = "" }
			/^URIs:/ { u = $2 }
			/^Suites:/ { for (i = 2; i <= NF; i++) if ($i == rel) ok = 1 }
			END { if (ok && u != "") print u }' "$f" | head -n 1)
		[ -n "$uri" ] && { echo "$uri"; return; }
	done
	for f in /etc/apt/sources.list /etc/apt/sources.list.d/*.list; do
		[ -f "$f" ] || continue
		uri=$(awk -v rel="$rel" '$1 == "deb" {
			for (i = 2; i <= NF; i++) if ($i !~ /^\[/ && $i !~ /\]$/) break
			if ($(i + 1) == rel) { print $i; exit } }' "$f")
		[ -n "$uri" ] && { echo "$uri"; return; }
	done
	die "no apt source for $rel found in /etc/apt"
}

# The binary caches are kept (the system's apt may switch them off, as
# container images do): apt rebuilds them when the lists change, and
# without them every query parses four suites' lists again, some 4 s of
# CPU each, under the lock below, for each of the many kdir.sh calls of
# make check.
APT_OPTS=(-o "Dir::Etc::SourceList=$CACHE/sources.list"
	-o "Dir::Etc::SourceParts=$CACHE/none"
	-o "Dir::Etc::Preferences=$CACHE/none"
	-o "Dir::Etc::PreferencesParts=$CACHE/none"
	-o "Dir::State::Lists=$CACHE/lists"
	-o "Dir::State::Status=$CACHE/status"
	-o "Dir::Cache=$CACHE/cache"
	-o "Dir::Cache::pkgcache=pkgcache.bin"
	-o "Dir::Cache::srcpkgcache=srcpkgcache.bin"
	-o "APT::Architectures::=amd64" -o "APT::Architectures::=arm64"
	-o "APT::Sandbox::User=root" -o "Acquire::Languages=none" -qq)

setup()
{
	local uri s

	mkdir -p "$CACHE/lists/partial" "$CACHE/cache/archives/partial" "$CACHE/none"
	[ -f "$CACHE/status" ] || : >"$CACHE/status"
	uri=$(mirror)
	{
		for s in $SUITES; do
			echo "deb [arch=amd64,arm64 signed-by=$KEYRING] $uri $s main"
		done
		for s in $SRC_SUITES; do
			echo "deb-src [signed-by=$KEYRING] $uri $s main"
		done
	} >"$CACHE/sources.list.new"
	if ! cmp -s "$CACHE/sources.list.new" "$CACHE/sources.list"; then
		mv "$CACHE/sources.list.new" "$CACHE/sources.list"
		rm -f "$CACHE/.updated"
	else
		rm -f "$CACHE/sources.list.new"
	fi
}

update()
{
	apt-get "${APT_OPTS[@]}" update >&2 || die "apt-get update (private lists) failed"
	touch "$CACHE/.updated"
}

if [ "${1:-}" = mirror ]; then
	mirror
	exit 0
fi

mkdir -p "$CACHE"
exec 8>"$CACHE/.lock"
flock 8
setup
[ -n "$(find "$CACHE/.updated" -mmin -1440 2>/dev/null)" ] || update

case "${1:-}" in
download)
	[ $# -ge 3 ] || die "usage: download DEST PKG=VERSION..."
	dest=$2
	shift 2
	mkdir -p "$dest"
	if ! (cd "$dest" && apt-get "${APT_OPTS[@]}" download "$@") >&2; then
		echo "${0##*/}: download failed, updating the lists and retrying" >&2
		update
		(cd "$dest" && apt-get "${APT_OPTS[@]}" download "$@") >&2 ||
			die "cannot download $*"
	fi ;;
apt-cache|apt-get)
	cmd=$1
	shift
	"$cmd" "${APT_OPTS[@]}" "$@" ;;
newest)
	[ $# -eq 2 ] || die "usage: newest PKG"
	# every suite has the same priority: the candidate is the newest
	apt-cache "${APT_OPTS[@]}" policy "$2" |
		sed -n 's/^ *Candidate: \([^(].*\)$/\1/p' ;;
*)	sed -n '9,15{s/^# \{0,1\}//;p}' "$0" >&2; exit 2 ;;
esac
