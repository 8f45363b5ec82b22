#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Usage: $0 [SERIES] - install the DKMS package with Debian's dkms and remove
# it again.
#
# Builds against the x86 tree of SERIES (kdir.sh SERIES; default 6.1, the
# installed Debian headers), not the running kernel: `make dkms-src`, dkms
# add, a build with the shipped arch restriction (must be refused), then
# `make dkms-install` and
# `make dkms-remove` with the restriction lifted and COMPILE_TEST=1, under
# a package name of its own so that it cannot meet a real installation.
# Checks each installed module (place, name, vermagic, version, signer)
# and that the removal leaves nothing behind. Needs root; prints one line
# per step, and on the first failed check what failed (with the tail of
# the command's output) and exits non-zero.
set -eu

HERE=$(cd "$(dirname "$0")" && pwd)
REPO=$(cd "$HERE/../../.." && pwd)
CACHE=${UNCORE_CACHE:-/var/cache/uncore-pmu}

# The test package; dkms.conf reads these (see there).
export UNCORE_DKMS_NAME=uncore-pmu-selftest
ARCH=$(uname -m)

# shellcheck source=../lib/host.sh
. "$HERE/../lib/host.sh"
# The modules of the package, as dkms.conf lists them.
MODS=$(dkms_modules "$REPO/dkms.conf" | tr '\n' ' ')

[ "$(id -u)" -eq 0 ] || fail "needs root (dkms installs under /lib/modules and /usr/src)"
command -v dkms >/dev/null || fail "dkms is not installed (deps.sh)"

KDIR=$("$HERE/kdir.sh" "${1:-6.1}")
REL=$(sed -n 's/^#define UTS_RELEASE "\(.*\)"$/\1/p' "$KDIR/include/generated/utsrelease.h")
[ -n "$REL" ] || fail "no UTS_RELEASE in $KDIR/include/generated/utsrelease.h"
VER=$(bash -c '. "$1" && echo "$PACKAGE_VERSION"' _ "$REPO/dkms.conf")
[ -n "$VER" ] || fail "dkms.conf: no PACKAGE_VERSION"
NAME=$UNCORE_DKMS_NAME
MV=(-m "$NAME" -v "$VER")
SRC=/usr/src/$NAME-$VER
LIB=/lib/modules/$REL
echo "package $NAME/$VER, kernel $REL ($ARCH), tree $KDIR"

mkdir -p "$CACHE"
exec 9>"$CACHE/.dkms-test.lock"
flock 9
TMP=$(mktemp -d)
# Signing key and modprobe.d of the test, so that the machine's stay untouched.
export mok_signing_key="$TMP/mok.key" mok_certificate="$TMP/mok.pub"
MK="make -s -C $REPO MODPROBE_D=$TMP/modprobe.d MODULES_LOAD_D=$TMP/modules-load.d"

# cleanup: what a failed run may leave (also a previous run's remains)
cleanup()
{
	dkms status "${MV[@]}" 2>/dev/null | grep -q . &&
		dkms remove "${MV[@]}" --all --no-depmod >/dev/null
	rm -rf "$SRC" "/var/lib/dkms/$NAME"
	[ -z "$MADE_LIB" ] || rm -rf "$LIB"
}
trap 'cleanup; rm -rf "$TMP"' EXIT
MADE_LIB=
cleanup
# A kernel whose headers are not installed (a prepared tree): dkms installs
# only into an existing /lib/modules/<release> and signs with its build/
# tree's sign-file, so give it both for the time of the test.
if [ ! -e "$LIB" ]; then
	mkdir -p "$LIB"
	ln -s "$KDIR" "$LIB/build"
	MADE_LIB=1
fi

step "BUILD_EXCLUSIVE_KERNEL: 5.10 or newer"
for k in 4.19.0-27-arm64:n 5.4.0-150-generic:n 5.9.16:n 5.10.0-32-arm64:y 5.13.19:y \
	 5.14.0-427.el9.aarch64:y 5.15.0-91-generic:y 6.1.0-57-arm64:y \
	 6.12.48+deb13-arm64:y 7.3.4+deb13-arm64:y 10.1.0:y; do
	got=$(bash -c '. "$1"; [[ $2 =~ $BUILD_EXCLUSIVE_KERNEL ]] && echo y || echo n' \
	      _ "$REPO/dkms.conf" "${k%:*}")
	[ "$got" = "${k##*:}" ] || fail "kernel ${k%:*}: matched=$got, expected ${k##*:}"
done

step "dkms add"
run $MK dkms-src
[ -e "$SRC/tools" ] && fail "$SRC/tools: the simulator must not be packaged"
run dkms add "${MV[@]}"

step "dkms build with the shipped BUILD_EXCLUSIVE_ARCH on $ARCH: refused"
rc=0
dkms build "${MV[@]}" -k "$REL" --kernelsourcedir "$KDIR" >"$TMP/excl.log" 2>&1 || rc=$?
if [ $rc -ne 77 ] ||
   ! grep -q 'BUILD_EXCLUSIVE directive which does not match' "$TMP/excl.log"; then
	tail -n 25 "$TMP/excl.log"
	fail "dkms build exited $rc, expected 77 (BUILD_EXCLUSIVE)"
fi

step "make dkms-install (dkms build, install) with COMPILE_TEST=1 on $ARCH"
export UNCORE_DKMS_ARCH="^$ARCH\$" UNCORE_DKMS_COMPILE_TEST=1
run $MK dkms-install DKMS_KVER="$REL" DKMS_FLAGS="--kernelsourcedir $KDIR --no-depmod"
st=$(dkms status "${MV[@]}")
echo "$st"
[ "$st" = "$NAME/$VER, $REL, $ARCH: installed" ] || fail "dkms status: '$st'"
cmp "$REPO/packaging/modprobe.d/uncore-pmu.conf" "$TMP/modprobe.d/uncore-pmu.conf" ||
	fail "modprobe.d file not installed"
cmp "$REPO/packaging/modules-load.d/uncore-pmu.conf" "$TMP/modules-load.d/uncore-pmu.conf" ||
	fail "modules-load.d file not installed"

step "installed modules"
built=$(cd "/var/lib/dkms/$NAME/$VER/$REL/$ARCH/module" && ls | sort | tr '\n' ' ')
want=$(for m in $MODS; do echo "$m.ko"; done | sort | tr '\n' ' ')
[ "$built" = "$want" ] || fail "dkms built '$built', expected '$want'"
# shellcheck disable=SC2086 # one word per module
DKMS_SIGNER="DKMS module signing key" check_dkms_modules "$LIB" "$REL" "$VER" $MODS
[ -z "$(find "$LIB" "/var/lib/dkms/$NAME" -name 'uncore_sim.ko*')" ] ||
	fail "the simulator was built or installed"

step "make dkms-remove (dkms remove)"
run $MK dkms-remove DKMS_FLAGS=--no-depmod
for m in $MODS; do
	f=$(find "$LIB" -name "$m.ko*")
	[ -z "$f" ] || fail "left behind: $f"
done
[ -z "$(dkms status "${MV[@]}")" ] || fail "dkms status: $(dkms status "${MV[@]}")"
[ ! -e "/var/lib/dkms/$NAME" ] || fail "left behind: /var/lib/dkms/$NAME"
[ ! -e "$SRC" ] || fail "left behind: $SRC"
[ ! -e "$TMP/modprobe.d/uncore-pmu.conf" ] || fail "modprobe.d file left behind"
[ ! -e "$TMP/modules-load.d/uncore-pmu.conf" ] || fail "modules-load.d file left behind"
echo "all removed"
