# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
#
# Helpers of the host-side test scripts (bash), sourced by each:
#
#   die MESSAGE...             print "<script>: MESSAGE" on stderr and exit
#                              $DIE_STATUS (default 1)
#   state_get FILE             print "PASSED FAILED" of a pass/fail state
#                              file ("0 0" when it is missing or empty)
#   state_add FILE PASSED FAILED
#                              add to the counts of FILE (created if missing)
#   apt_fetch DEST PKG[=VER]...
#                              apt-get download into DEST from the machine's
#                              own apt sources, once more after an apt-get
#                              update if that fails (other Debian releases:
#                              check/debian.sh)
#   apt_fetch_first DEST PKG[=VER]...
#                              the same for the first of the alternatives
#                              that downloads (an -unsigned package, say)
#
# A pass/fail state file holds two lines, "passed N" and "failed N": the
# running totals that make check's stages (check/run.sh, each VM boot)
# share, and that check/summary.sh closes with.

die() {
	echo "${0##*/}: $*" >&2
	exit "${DIE_STATUS:-1}"
}

state_get() {
	local p f

	p=$(awk '$1 == "passed" { print $2 }' "$1" 2>/dev/null)
	f=$(awk '$1 == "failed" { print $2 }' "$1" 2>/dev/null)
	echo "${p:-0} ${f:-0}"
}

state_add() {
	local cur

	cur=$(state_get "$1")
	printf 'passed %d\nfailed %d\n' $((${cur% *} + $2)) $((${cur#* } + $3)) >"$1"
}

apt_fetch() {
	local dest=$1

	shift
	mkdir -p "$dest"
	(cd "$dest" && apt-get download -q -o APT::Sandbox::User=root "$@") >&2 && return 0
	echo "${0##*/}: download failed, running apt-get update and retrying" >&2
	apt-get update -q >&2 || true
	(cd "$dest" && apt-get download -q -o APT::Sandbox::User=root "$@") >&2
}

apt_fetch_first() {
	local dest=$1 try pkg

	shift
	mkdir -p "$dest"
	for try in 1 2; do
		for pkg in "$@"; do
			(cd "$dest" && apt-get download -q -o APT::Sandbox::User=root "$pkg") >&2 &&
				return 0
		done
		[ $try = 2 ] && break
		echo "${0##*/}: download failed, running apt-get update and retrying" >&2
		apt-get update -q >&2 || true
	done
	return 1
}
