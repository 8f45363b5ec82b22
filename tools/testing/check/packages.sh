#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Usage: $0 - the Debian packages, built, linted, installed and purged.
#
# make deb; the .debs hold the same files as the RPMs (rpm.sh --filelist);
# lintian, info and pedantic tags included, finds nothing. Then, in a
# throwaway Debian 12 root (debootstrap from the mirror the machine's apt
# uses, with dkms, the headers of the kernel the DKMS test uses, systemd
# and perf; made once and cached as a tarball):
#
#   1. headers first: dpkg -i both packages; DKMS must have built and
#      installed every module of dkms.conf for that kernel at install time;
#      the conffiles are the tree's; the exporter unit is enabled and
#      passes systemd-analyze verify; its ExecCondition, ExecStartPre,
#      ExecStart (ended with SIGTERM) and ExecStopPost, run with its
#      settings on a fake sysfs of software PMUs (check/exporter-sysfs.sh),
#      write the textfile of those PMUs and remove it; the condition finds
#      no PMU (so it skips the unit) on this machine, and fails it for a
#      wrong setting; dpkg --purge must leave every file of the root as it
#      was before the install.
#   2. the RPMs' dkms scriptlets in that root (rpm.sh --scriptlets), which
#      must leave it as it was too.
#   3. package first: with the headers absent, the install builds nothing;
#      installing the headers afterwards has dkms's kernel hook build and
#      install every module; purging both leaves the root as it was.
#   4. an upgrade from the sysctl-era tools package (remade from ours:
#      its sysctl.d file and postinst line put back) removes that file;
#      the purge leaves the root as it was.
#   5. an upgrade from the blacklist-era dkms package (remade from ours:
#      /etc/modprobe.d/uncore-pmu.conf, a conffile, instead of
#      /lib/modprobe.d's) removes the old file, or keeps a changed one as
#      .dpkg-bak, so that it shadows the new one no more; dpkg -r (what
#      apt-get remove does) leaves no modprobe.d file of ours; the purge
#      leaves the root as it was.
#
# The drivers build only for arm64: the root's dkms gets the test-only
# overrides dkms.conf reads (UNCORE_DKMS_ARCH, UNCORE_DKMS_COMPILE_TEST),
# as in dkms.sh. Needs root; prints one line per step, and on the first
# failed check what failed and exits non-zero.
set -eu

HERE=$(cd "$(dirname "$0")" && pwd)
REPO=$(cd "$HERE/../../.." && pwd)
CACHE=${UNCORE_CACHE:-/var/cache/uncore-pmu}
SUITE=bookworm
UNIT=uncore-metrics-exporter.service

# shellcheck source=../lib/host.sh
. "$HERE/../lib/host.sh"

[ "$(id -u)" -eq 0 ] || fail "needs root (debootstrap, chroot)"
for c in debootstrap dpkg-buildpackage dh_dkms lintian systemd-analyze man; do
	command -v $c >/dev/null || fail "$c is not installed (deps.sh)"
done
[ "$(. /etc/os-release && echo "${VERSION_CODENAME:-}")" = $SUITE ] ||
	fail "the root's kernel headers come from this machine's $SUITE sources"

KDIR=$("$HERE/kdir.sh" 6.1)
REL=$(sed -n 's/^#define UTS_RELEASE "\(.*\)"$/\1/p' "$KDIR/include/generated/utsrelease.h")
[ -n "$REL" ] || fail "no UTS_RELEASE in $KDIR/include/generated/utsrelease.h"
VER=$(bash -c '. "$1" && echo "$PACKAGE_VERSION"' _ "$REPO/dkms.conf")
MODS=$(dkms_modules "$REPO/dkms.conf" | tr '\n' ' ')
ARCH=$(uname -m)
DKMS_ENV=(env "UNCORE_DKMS_ARCH=^$ARCH\$" UNCORE_DKMS_COMPILE_TEST=1)

mkdir -p "$CACHE/debootstrap"
exec 9>"$CACHE/debootstrap/.lock"
flock 9
TMP=$(mktemp -d)
R=$TMP/root

# cleanup: never remove a root with something mounted in it
cleanup()
{
	local m

	for m in "$TMP"/*/proc; do
		mountpoint -q "$m" && umount -l "$m"
	done
	rm -rf --one-file-system "$TMP"
}
trap cleanup EXIT

# in_root CMD...: CMD in the root, with the DKMS test overrides
in_root() { chroot "$R" "${DKMS_ENV[@]}" "$@"; }

# make_base: debootstrap a minimal root and install what the test needs
make_base()
{
	local b=$TMP/base

	step "debootstrap $SUITE into the cache (once)"
	# with the machine's own sources (updates, security): the headers of $REL
	debootstrap_root "$b" "$SUITE"
	mount -t proc none "$b/proc"
	run chroot "$b" apt-get update
	# shellcheck disable=SC2086 # one word per package
	run chroot "$b" env DEBIAN_FRONTEND=noninteractive apt-get install -y \
		--no-install-recommends $BASE_PKGS
	# the headers again, for round 2
	mkdir -p "$b/root/debs"
	run chroot "$b" sh -c "cd /root/debs && apt-get download linux-headers-$REL"
	run chroot "$b" apt-get clean
	umount "$b/proc"
	tar -C "$b" -cf "$BASE.tmp" .
	mv "$BASE.tmp" "$BASE"
	rm -rf --one-file-system "$b"
}

# snapshot FILE: every path of the root but the package manager's own
# state, logs and caches, with its type and mode. Not dkms's signing key
# either: dkms makes it at its first build, for every DKMS package, and
# keeps it on purpose (it is the key enrolled for Secure Boot).
snapshot()
{
	(cd "$R" && find . -xdev \( -path ./proc -o -path ./dev -o -path ./tmp -o -path ./run \
		-o -path ./var/log -o -path ./var/cache -o -path ./var/lib/dpkg \
		-o -path ./var/lib/apt -o -path ./root/debs -o -path ./var/lib/dkms/mok.key \
		-o -path ./var/lib/dkms/mok.pub \) -prune -o -printf '%y %m %p\n') |
		sort >"$1"
}

# same_as SNAPSHOT: the root holds exactly the paths of SNAPSHOT
same_as()
{
	snapshot "$TMP/after"
	if ! diff -u "$1" "$TMP/after" >"$TMP/diff"; then
		head -n 40 "$TMP/diff"
		fail "the root is not as it was before the install"
	fi
	! grep -s -e /updates/ -e uncore "$R/lib/modules/$REL/modules.dep" ||
		fail "modules.dep still names the modules"
}

# installed_ok: both packages installed, every module built and installed
installed_ok()
{
	local p st

	for p in uncore-pmu-dkms uncore-pmu-tools; do
		st=$(chroot "$R" dpkg-query -W -f='${Status}' $p)
		[ "$st" = "install ok installed" ] || fail "$p: $st"
	done
	st=$(in_root dkms status -m uncore-pmu -v "$VER")
	echo "$st"
	[ "$st" = "uncore-pmu/$VER, $REL, $ARCH: installed" ] || fail "dkms status: '$st'"
	# shellcheck disable=SC2086 # one word per module
	DKMS_SIGNER="DKMS module signing key" \
		check_dkms_modules "$R/lib/modules/$REL" "$REL" "$VER" $MODS
}

step "make deb"
run make -s -C "$REPO" deb
DARCH=$(dpkg --print-architecture)
DEBS=$(ls "$REPO"/.build/deb/uncore-pmu-dkms_"$VER"_all.deb \
	  "$REPO"/.build/deb/uncore-pmu-tools_"$VER"_"$DARCH".deb) || fail "make deb: no packages"

step "the RPMs hold the .debs' files (rpm.sh --filelist)"
# files only (RPMs list only the directories they own); RPM's unit
# directory; each distribution's own /usr/share/doc and lintian's
# overrides left out
for d in $DEBS; do
	p=$(dpkg-deb -f "$d" Package)
	dpkg-deb -c "$d" | awk -v p="$p" '$1 !~ /^d/ { sub(/^\./, "", $6); print p, $6 }'
done | sed 's| /lib/systemd/system/| /usr/lib/systemd/system/|; s| /lib/udev/| /usr/lib/udev/|
	s| /lib/modprobe.d/| /usr/lib/modprobe.d/|' |
	grep -v -e ' /usr/share/doc/' -e ' /usr/share/lintian/' | sort >"$TMP/deb.files"
"$HERE/rpm.sh" --filelist 2>"$TMP/rpm.err" | grep -v '/$' | sort >"$TMP/rpm.files" ||
	{ cat "$TMP/rpm.err"; fail "rpm.sh --filelist"; }
diff -u "$TMP/deb.files" "$TMP/rpm.files" || fail "the .debs and the RPMs differ (above)"
echo "$(wc -l <"$TMP/deb.files") files, the same in both"

step "lintian: no error, warning, info or pedantic tag"
run lintian -I --pedantic --fail-on error,warning,info,pedantic \
	"$REPO/.build/deb/uncore-pmu_${VER}_$(dpkg --print-architecture).changes"
grep -v '^running with root' "$TMP/cmd.log" && fail "lintian: tags above"

# The root holds the packages' dependencies before the install, so that
# the purge can be compared with it; a new dependency makes a new root.
BASE_PKGS="openssl systemd linux-headers-$REL $(for d in $DEBS; do
	dpkg-deb -f "$d" Depends | tr ',' '\n' | sed 's/[|(].*//; s/ //g' | grep -v '^\$'
done | sort -u | tr '\n' ' ')"
BASE=$CACHE/debootstrap/$SUITE-$(dpkg --print-architecture)-$REL-$(echo "$BASE_PKGS" |
	md5sum | cut -c 1-8).tar
[ -f "$BASE" ] || { rm -f "$CACHE"/debootstrap/*.tar; make_base; }
step "a Debian 12 root with dkms and the headers of $REL"
mkdir -p "$R"
tar -C "$R" -xf "$BASE"
mount -t proc none "$R/proc"
mkdir -p "$R/tmp/debs"
# shellcheck disable=SC2086 # the two package files
cp $DEBS "$R/tmp/debs/"
OURS=(/tmp/debs/uncore-pmu-dkms_"$VER"_all.deb /tmp/debs/uncore-pmu-tools_"$VER"_"$DARCH".deb)

step "round 1: dpkg -i with the headers installed"
# what the kernel image's postinst would have made on a real system
run chroot "$R" depmod "$REL"
snapshot "$TMP/before"
run in_root dpkg -i "${OURS[@]}"
installed_ok
MODPROBE=/lib/modprobe.d/uncore-pmu.conf
cmp "$REPO/packaging/modprobe.d/uncore-pmu.conf" "$R$MODPROBE" || fail "$MODPROBE is not the tree's"
f=modules-load.d/uncore-pmu.conf
cmp "$REPO/packaging/$f" "$R/etc/$f" || fail "/etc/$f is not the tree's"
[ ! -e "$R/etc/modprobe.d/uncore-pmu.conf" ] || fail "/etc/modprobe.d/uncore-pmu.conf installed"

cmp "$REPO/packaging/default/uncore-metrics" "$R/etc/default/uncore-metrics" ||
	fail "/etc/default/uncore-metrics is not the tree's"
[ "$(readlink "$R/etc/systemd/system/multi-user.target.wants/$UNIT")" = \
  "/lib/systemd/system/$UNIT" ] || fail "$UNIT is not enabled"
# MANPATH: its Documentation= check runs man, which looks on this machine
MANPATH=$R/usr/share/man systemd-analyze verify --root="$R" "/lib/systemd/system/$UNIT" \
	>"$TMP/verify" 2>&1 || { cat "$TMP/verify"; fail "systemd-analyze verify $UNIT"; }
[ -s "$TMP/verify" ] && { cat "$TMP/verify"; fail "systemd-analyze verify: warnings"; }
echo "$UNIT: enabled, systemd-analyze verify clean"
# The unit's own command lines, as systemd would run them (its
# Environment= lines, then /etc/default/uncore-metrics), on a fake sysfs
# of software PMUs: the condition passes, ExecStart counts them until a
# SIGTERM, which writes the last interval, the stop removes the link.
# shellcheck source=exporter-sysfs.sh
. "$HERE/exporter-sysfs.sh"
xp_sysfs "$R/tmp/sysfs"
u=$R/lib/systemd/system/$UNIT
unit_env="set -a; $(sed -n 's/^Environment=//p' "$u" | tr '\n' ';')"
unit_env="$unit_env . /etc/default/uncore-metrics; set +a"
textfile=$(chroot "$R" sh -c "$unit_env; echo \$UNCORE_METRICS_TEXTFILE")
# in_unit CMD: CMD in the root as the unit runs it ("+" dropped: the
# sandbox is systemd's; the operator guest runs the unit under systemd;
# $$ is systemd's escape of a $)
in_unit()
{
	local c=${1#+}

	c=${c//\$\$/\$}
	chroot "$R" env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin UNCORE_METRICS_SYSFS=/tmp/sysfs \
		sh -c "$unit_env; exec $c" </dev/null
}
# Each command line in the unit's order, the runtime and state
# directories made as systemd would.
mkdir -p "$R/run/uncore-metrics" "$R/var/lib/uncore-metrics"
grep -E '^Exec(Condition|StartPre|Start|StopPost)=' "$u" >"$TMP/exec"
while IFS= read -r line; do
	k=${line%%=*}
	cmd=${line#*=}
	rc=0
	if [ "$k" = ExecStart ]; then
		in_unit "$cmd" >"$TMP/unit.log" 2>&1 &
		pid=$!
		sleep 2
		pkill -TERM -f "^/usr/sbin/uncore-metrics-exporter --output" ||
			fail "$UNIT: ExecStart is not running: $(cat "$TMP/unit.log")"
		wait $pid || rc=$?
	else
		in_unit "$cmd" >"$TMP/unit.log" 2>&1 || rc=$?
	fi
	[ $rc -eq 0 ] || { cat "$TMP/unit.log"; fail "$UNIT: $k exited $rc: $line"; }
	if [ "$k" = ExecStart ]; then
		[ "$(readlink "$R$textfile")" = /run/uncore-metrics/uncore-pmu.prom ] ||
			fail "$UNIT: $textfile is not a link to its runtime file"
		cp "$R/run/uncore-metrics/uncore-pmu.prom" "$TMP/exporter.prom"
	fi
done <"$TMP/exec"
xp_series "$TMP/exporter.prom" | grep -c '^uncore_pmu_info{pmu="nvidia_' >"$TMP/n"
[ "$(cat "$TMP/n")" = 2 ] || { cat "$TMP/exporter.prom"; fail "$UNIT: not both PMUs counted"; }
grep -qE '^uncore_pmu_interval_seconds (1|2)[.][0-9]+$' "$TMP/exporter.prom" ||
	fail "$UNIT: SIGTERM did not write the interval it cut short"
[ -s "$R/var/lib/uncore-metrics/totals" ] ||
	fail "$UNIT: SIGTERM left no totals in its state directory"
rm -rf "$R/run/uncore-metrics"
[ ! -e "$R$textfile" ] && [ ! -L "$R$textfile" ] || fail "$UNIT: ExecStopPost left $textfile"
echo "$UNIT: its condition, start and stop count two PMUs in $textfile and remove it"
rc=0
in_unit "/usr/sbin/uncore-metrics-exporter --check --famly ucf" >"$TMP/chk" 2>&1 || rc=$?
[ $rc -eq 255 ] || { cat "$TMP/chk"; fail "--check with a wrong setting exited $rc, not 255"; }
rm -rf "$R/tmp/sysfs"
run chroot "$R" uncore-metrics --help
rc=0
chroot "$R" uncore-metrics --list >"$TMP/list" 2>&1 || rc=$?
[ $rc -eq 1 ] || { cat "$TMP/list"; fail "uncore-metrics --list without PMUs exited $rc, not 1"; }
rc=0
chroot "$R" uncore-metrics-exporter --check >"$TMP/list" 2>&1 || rc=$?
[ $rc -eq 1 ] ||
	{ cat "$TMP/list"; fail "uncore-metrics-exporter --check without PMUs exited $rc, not 1"; }
for m in man1/uncore-metrics.1 man1/t410-pcie-rcmap.1 man8/uncore-metrics-exporter.8; do
	MANWIDTH=80 man --warnings=all -l "$R/usr/share/man/$m.gz" >/dev/null 2>"$TMP/man"
	[ -s "$TMP/man" ] && { cat "$TMP/man"; fail "man $m: warnings"; }
done
echo "no PMU: uncore-metrics --list and the exporter's condition exit 1; manual pages render"

step "round 1: dpkg --purge"
run in_root dpkg --purge uncore-pmu-tools uncore-pmu-dkms
same_as "$TMP/before"
echo "nothing left"

step "the RPMs' dkms scriptlets in the same root (rpm.sh --scriptlets)"
umount "$R/proc"
"$HERE/rpm.sh" --scriptlets "$R" | sed 's/^/    /'
[ "${PIPESTATUS[0]}" -eq 0 ] || fail "rpm.sh --scriptlets"
same_as "$TMP/before"
mount -t proc none "$R/proc"

step "round 3: dpkg -i without headers, then the headers (dkms kernel hook)"
run chroot "$R" dpkg --purge linux-headers-"$REL"
snapshot "$TMP/before2"
run in_root dpkg -i "${OURS[@]}"
st=$(in_root dkms status -m uncore-pmu -v "$VER")
[ "$st" = "uncore-pmu/$VER: added" ] || fail "dkms status without headers: '$st'"
hdr=$(cd "$R/root/debs" && echo linux-headers-"$REL"_*.deb)
[ -f "$R/root/debs/$hdr" ] || fail "no headers package in the root's /root/debs"
run in_root dpkg -i "/root/debs/$hdr"
installed_ok
run in_root dpkg --purge uncore-pmu-tools uncore-pmu-dkms linux-headers-"$REL"
same_as "$TMP/before2"
echo "nothing left"

# The tools package of the releases before the exporter daemon installed
# /usr/lib/sysctl.d/60-uncore-metrics.conf (kernel.perf_event_paranoid =
# 2) and applied it from its postinst. That package, remade from this
# one: its version just below ours, its sysctl file and its postinst's
# systemd-sysctl call put back. Installing ours over it must take the
# file away (dpkg's removal of a file the new version no longer has) and
# keep no trace of it in dpkg's database.
step "round 4: an upgrade from the sysctl-era uncore-pmu-tools"
SYSCTL=/usr/lib/sysctl.d/60-uncore-metrics.conf
old=$TMP/sysctl-era
run dpkg-deb -R "$R${OURS[1]}" "$old"
sed -i "s/^Version: .*/Version: $VER~sysctl1/" "$old/DEBIAN/control"
install -d "$old/usr/lib/sysctl.d"
printf '%s\n' '# uncore-metrics: system-wide uncore events for its user' \
	'kernel.perf_event_paranoid = 2' >"$old$SYSCTL"
(cd "$old" && md5sum "${SYSCTL#/}") >>"$old/DEBIAN/md5sums"
p=$old/DEBIAN/postinst
{
	sed -n '1p' "$p"
	printf '%s\n' 'if [ "$1" = configure ] && [ -x /lib/systemd/systemd-sysctl ]; then' \
		'	/lib/systemd/systemd-sysctl 60-uncore-metrics.conf || true' 'fi'
	sed '1d' "$p"
} >"$p.new"
mv "$p.new" "$p"
chmod 755 "$p"
run dpkg-deb -b "$old" "$R/tmp/debs/sysctl-era.deb"
snapshot "$TMP/before4"
run in_root dpkg -i /tmp/debs/sysctl-era.deb
[ -f "$R$SYSCTL" ] || fail "the sysctl-era package did not install $SYSCTL"
grep -qx "$SYSCTL" "$R/var/lib/dpkg/info/uncore-pmu-tools.list" ||
	fail "dpkg does not list $SYSCTL as the sysctl-era package's"
run in_root dpkg -i "${OURS[1]}"
st=$(chroot "$R" dpkg-query -W -f='${Version} ${Status}' uncore-pmu-tools)
[ "$st" = "$VER install ok installed" ] || fail "after the upgrade: uncore-pmu-tools $st"
[ ! -e "$R$SYSCTL" ] || fail "the upgrade left $SYSCTL"
! grep -rqs 60-uncore-metrics "$R/var/lib/dpkg/info/" || fail "dpkg still knows $SYSCTL"
! find "$R/etc/sysctl.d" "$R/usr/lib/sysctl.d" "$R/lib/sysctl.d" -name '*uncore*' 2>/dev/null |
	grep . || fail "a sysctl file of ours is left (above)"
echo "the upgrade to $VER removed $SYSCTL"
run in_root dpkg --purge uncore-pmu-tools
same_as "$TMP/before4"
echo "nothing left"

# Before 0.2.0 the dkms package shipped /etc/modprobe.d/uncore-pmu.conf,
# a conffile that blacklisted the kernel's CoreSight and CN10K drivers on
# every host. Ours ships /lib/modprobe.d/uncore-pmu.conf, of the same
# name, which such an /etc file would shadow: the upgrade must take the
# old one away (rm_conffile), keeping it as .dpkg-bak if it was changed.
# That package, remade from ours: version 0.1.0, the /etc file as a
# conffile, ours and the maintainer scripts' rm_conffile calls gone.
step "round 5: an upgrade from the blacklist-era uncore-pmu-dkms, then dpkg -r"
OLDCONF=/etc/modprobe.d/uncore-pmu.conf
old=$TMP/blacklist-era
run dpkg-deb -R "$R${OURS[0]}" "$old"
sed -i "s/^Version: .*/Version: 0.1.0/" "$old/DEBIAN/control"
rm "$old$MODPROBE"
sed -i "\\|${MODPROBE#/}\$|d" "$old/DEBIAN/md5sums"
install -d "$old/etc/modprobe.d"
printf '%s\n' 'blacklist arm_cspmu_module' 'install arm_cspmu_module /bin/false' >"$old$OLDCONF"
echo "$OLDCONF" >>"$old/DEBIAN/conffiles"
for s in preinst postinst postrm; do
	[ ! -f "$old/DEBIAN/$s" ] || sed -i '/dpkg-maintscript-helper/d' "$old/DEBIAN/$s"
done
run dpkg-deb -b "$old" "$R/tmp/debs/blacklist-era.deb"
snapshot "$TMP/before5"
for changed in no yes; do
	run in_root dpkg -i /tmp/debs/blacklist-era.deb
	[ -f "$R$OLDCONF" ] && [ ! -e "$R$MODPROBE" ] ||
		fail "the blacklist-era package did not install $OLDCONF alone"
	[ $changed = no ] || echo '# changed here' >>"$R$OLDCONF"
	run in_root dpkg -i "${OURS[0]}"
	st=$(chroot "$R" dpkg-query -W -f='${Version} ${Status}' uncore-pmu-dkms)
	[ "$st" = "$VER install ok installed" ] || fail "after the upgrade: uncore-pmu-dkms $st"
	[ ! -e "$R$OLDCONF" ] || fail "the upgrade left $OLDCONF (changed: $changed)"
	cmp "$REPO/packaging/modprobe.d/uncore-pmu.conf" "$R$MODPROBE" ||
		fail "after the upgrade $MODPROBE is not the tree's"
	if [ $changed = yes ]; then
		grep -q '^# changed here' "$R$OLDCONF.dpkg-bak" ||
			fail "the changed $OLDCONF is not kept as $OLDCONF.dpkg-bak"
	else
		[ ! -e "$R$OLDCONF.dpkg-bak" ] || fail "the unchanged $OLDCONF kept as .dpkg-bak"
	fi
	run in_root dpkg -r uncore-pmu-dkms
	left=$(cd "$R" && ls -d etc/modprobe.d/uncore-pmu.conf lib/modprobe.d/uncore-pmu.conf \
		usr/lib/modprobe.d/uncore-pmu.conf 2>/dev/null || true)
	[ -z "$left" ] || fail "dpkg -r left $left"
	run in_root dpkg --purge uncore-pmu-dkms
	same_as "$TMP/before5"
done
echo "the upgrade to $VER removed $OLDCONF (a changed one kept as .dpkg-bak);" \
	"dpkg -r left no modprobe.d file of ours; the purges left nothing"
