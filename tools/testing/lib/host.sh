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
#   fail MESSAGE...            print "FAIL: MESSAGE" on stdout and exit 1
#   step MESSAGE...            print "== MESSAGE" (one line per step of a test)
#   run CMD...                 run CMD quietly (output to $TMP/cmd.log); if
#                              it fails, show its last lines and fail
#   dkms_modules DKMS_CONF     print the BUILT_MODULE_NAME entries of a
#                              dkms.conf, one per line
#   check_dkms_modules LIB REL VER MOD...
#                              each MOD installed once under LIB/updates/
#                              (LIB: a /lib/modules/<release> directory),
#                              named MOD, vermagic REL, version VER, and
#                              signed by DKMS when $DKMS_SIGNER is set to
#                              its signer name; one line per module
#   apt_fetch DEST PKG[=VER]...
#                              apt-get download into DEST from the machine's
#                              own apt sources, once more after an apt-get
#                              update if that fails (other Debian releases:
#                              check/debian.sh)
#   debootstrap_root DIR SUITE [ARCH]
#                              a minimal Debian SUITE root in DIR, from the
#                              mirror the machine's apt uses, with the
#                              machine's own apt sources (updates, security);
#                              of another ARCH through qemu-user (binfmt_arm64)
#   binfmt_arm64               make sure the host runs arm64 programs
#                              (qemu-user-static's binfmt_misc entry)
#   setup_failed WHAT          an EXIT trap: a non-zero exit status before
#                              the guest ran is one "not ok - WHAT: setup
#                              failed" and one failure in $UNCORE_TAP_STATE
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

fail() {
	echo "FAIL: $*"
	exit 1
}

step() {
	echo "== $*"
}

run() {
	local rc=0

	"$@" >"$TMP/cmd.log" 2>&1 || rc=$?
	[ $rc -eq 0 ] && return
	tail -n 25 "$TMP/cmd.log"
	fail "'$*' exited $rc"
}

dkms_modules() {
	# shellcheck disable=SC2016 # expanded by the inner bash
	bash -c '. "$1" && printf "%s\n" "${BUILT_MODULE_NAME[@]}"' _ "$1"
}

check_dkms_modules() {
	local lib=$1 rel=$2 ver=$3 m f vm sg

	shift 3
	for m in "$@"; do
		f=$(find "$lib" -name "$m.ko*")
		[ "$(echo "$f" | wc -w)" -eq 1 ] || fail "$m: found '$f', expected one file"
		case $f in
		"$lib/updates/"*) ;;
		*) fail "$f: not under $lib/updates" ;;
		esac
		[ "$(modinfo -F name "$f")" = "$m" ] || fail "$f: name $(modinfo -F name "$f")"
		vm=$(modinfo -F vermagic "$f")
		[ "${vm%% *}" = "$rel" ] || fail "$f: vermagic '$vm'"
		[ "$(modinfo -F version "$f")" = "$ver" ] ||
			fail "$f: version $(modinfo -F version "$f")"
		if [ -n "${DKMS_SIGNER:-}" ]; then
			sg=$(modinfo -F signer "$f")
			[ "$sg" = "$DKMS_SIGNER" ] || fail "$f: signer '$sg'"
		fi
		echo "${f#"$lib"/}: $m, $rel, $ver${DKMS_SIGNER:+, signed}"
	done
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
	(cd "$dest" && apt-get download -qq -o APT::Sandbox::User=root "$@") >&2 && return 0
	echo "${0##*/}: download failed, running apt-get update and retrying" >&2
	apt-get update -qq >&2 || true
	(cd "$dest" && apt-get download -qq -o APT::Sandbox::User=root "$@") >&2
}

apt_fetch_first() {
	local dest=$1 try pkg

	shift
	mkdir -p "$dest"
	for try in 1 2; do
		for pkg in "$@"; do
			(cd "$dest" &&
				apt-get download -qq -o APT::Sandbox::User=root "$pkg") >&2 &&
				return 0
		done
		[ $try = 2 ] && break
		echo "${0##*/}: download failed, running apt-get update and retrying" >&2
		apt-get update -qq >&2 || true
	done
	return 1
}

debootstrap_root() {
	local f

	run debootstrap --variant=minbase ${3:+--arch="$3"} "$2" "$1" \
		"$("$(dirname "${BASH_SOURCE[0]}")/../check/debian.sh" mirror)"
	rm -f "$1/etc/apt/sources.list"
	for f in /etc/apt/sources.list /etc/apt/sources.list.d/*.list \
		 /etc/apt/sources.list.d/*.sources; do
		[ -f "$f" ] && cp "$f" "$1$f"
	done
	return 0
}

binfmt_arm64() {
	local b=/proc/sys/fs/binfmt_misc conf=/usr/lib/binfmt.d/qemu-aarch64.conf

	[ -e $b/qemu-aarch64 ] && return 0
	[ -f "$conf" ] || DEBIAN_FRONTEND=noninteractive apt-get install -y -qq \
		--no-install-recommends qemu-user-static >&2 ||
		die "cannot install qemu-user-static"
	[ -e $b/register ] || mount -t binfmt_misc binfmt_misc $b ||
		die "cannot mount binfmt_misc"
	# the package's entry, as systemd-binfmt would register it
	grep -v '^#' "$conf" >$b/register || die "cannot register $conf"
	[ -e $b/qemu-aarch64 ] || die "no qemu-aarch64 binfmt_misc entry after registering"
}

setup_failed() {
	local st=$?

	[ $st -ne 0 ] || return 0
	echo "not ok - $1: setup failed with status $st (see above)"
	[ -z "${UNCORE_TAP_STATE:-}" ] || state_add "$UNCORE_TAP_STATE" 0 1
}
