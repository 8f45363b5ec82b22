#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The RPMs of packaging/rpm/ (uncore-pmu-dkms, uncore-pmu-tools), checked
# with Debian's rpm tools. Installing them needs RHEL, which we do not
# have: this tests what can be tested here. Each mode runs `make rpm`
# first, so it checks the tree as it is.
#
# Usage: $0
#   The static check "rpm" of run.sh: rpmlint (with packaging/rpm/
#   rpmlint.toml) on both RPMs and the spec reports nothing; each RPM
#   holds exactly the files, modes and %config flags the Makefile's
#   install targets produce from the tree (dkms-src install-conf;
#   install-tools install-exporter with PREFIX=/usr and RHEL's unit and
#   udev rules directories), plus what RPM conventions add (the license,
#   the exporter's textfile directory); its %doc files are those make
#   install-docs installs; the scriptlets run dkms add, build, install and
#   remove with dkms.conf's name and version, and the systemd helper steps
#   for the exporter unit.
#   Prints one line per step; on failure what failed, exit 1.
#
# Usage: $0 --filelist
#   Prints the file list of both RPMs, sorted, one "PACKAGE PATH" a line,
#   a directory with a trailing "/" (only those the package owns), e.g.
#   "uncore-pmu-dkms /usr/src/uncore-pmu-0.1.0/Kbuild". Left out: what
#   each distribution lays out its own way, /usr/share/doc/ and
#   /usr/share/licenses/. RPM paths, not Debian's: manual pages are
#   gzipped as on Debian, but the unit is under /usr/lib/systemd/system.
#   Nothing else on stdout; exit 1 if make rpm fails.
#
# Usage: $0 --scriptlets ROOT
#   Runs the dkms RPM's scriptlets as rpm would, in the chroot ROOT: a
#   Debian root with dkms, make, kmod and the headers (with their compiler) of at least
#   one kernel (ROOT/lib/modules/<release>/build), such as packages.sh
#   makes. Needs root; mounts /proc and binds /dev into ROOT for
#   the time of the test (dkms needs both). Twice: once as shipped (x86
#   is not arm64: %post must succeed and install nothing), then with
#   UNCORE_DKMS_ARCH=. and UNCORE_DKMS_COMPILE_TEST=1 (dkms.conf reads
#   them) so that dkms builds here. Each time: unpack the payload into
#   ROOT (rpm2cpio | cpio); run %post with $1 = 1 (chroot ROOT /bin/sh -c,
#   environment: PATH and those two only); check that every
#   BUILT_MODULE_NAME of dkms.conf is under
#   ROOT/lib/modules/<release>/updates/ for every kernel with headers
#   (the second time) and that a kernel without headers (an empty
#   lib/modules/0.0-uncore-rpm-test-no-headers/, made for the test) was
#   left out; run %preun with $1 = 0; delete the payload; check that
#   nothing is left: /usr/src/uncore-pmu-*, /var/lib/dkms/uncore-pmu,
#   the modules under updates/, payload files, dkms status. A failed run
#   removes what it installed; ROOT must not hold the package before.
#   Exit 0 if all passed, 1 with "FAIL: ..." otherwise.
set -eu

HERE=$(cd "$(dirname "$0")" && pwd)
REPO=$(cd "$HERE/../../.." && pwd)
RPMDIR=$REPO/.build/rpm/RPMS
# the dkms package is noarch, the tools (the exporter daemon) the machine's
RPM_ARCH_dkms=noarch
RPM_ARCH_tools=$(rpm --eval '%{_arch}')

# A test's overrides must not rename the package (see dkms.conf).
unset UNCORE_DKMS_NAME UNCORE_DKMS_ARCH UNCORE_DKMS_COMPILE_TEST
unset MAKEFLAGS MFLAGS MAKELEVEL MAKEOVERRIDES
export LC_ALL=C
umask 022

# shellcheck source=../lib/host.sh
. "$HERE/../lib/host.sh"

TMP=$(mktemp -d)
CLEANUP=
trap 'eval "$CLEANUP"; rm -rf "$TMP"' EXIT

# The package name, version and modules, from dkms.conf as dkms reads it.
NAME=$(bash -c '. "$1" && echo "$PACKAGE_NAME"' _ "$REPO/dkms.conf")
VER=$(bash -c '. "$1" && echo "$PACKAGE_VERSION"' _ "$REPO/dkms.conf")
MODS=$(bash -c '. "$1" && echo "${BUILT_MODULE_NAME[*]}"' _ "$REPO/dkms.conf")
[ -n "$NAME" ] && [ -n "$VER" ] && [ -n "$MODS" ] ||
	fail "dkms.conf: no PACKAGE_NAME, PACKAGE_VERSION or BUILT_MODULE_NAME"
UNIT=$(basename "$REPO"/packaging/systemd/*.service)

# rpm_eval EXPR: EXPR as make rpm's rpmbuild sees it (with
# packaging/rpm/macros.debian where rpm has no systemd macros)
rpm_eval()
{
	if [ -n "$(rpm --eval '%{?systemd_post:1}')" ]; then
		rpm --eval "$1"
	else
		rpm --load "$REPO/packaging/rpm/macros.debian" --eval "$1"
	fi
}

# build: make rpm; sets DKMS_RPM and TOOLS_RPM
build()
{
	local n

	command -v rpmbuild >/dev/null || fail "rpmbuild is not installed (deps.sh: rpm)"
	if ! make -s -C "$REPO" rpm >"$TMP/make.log" 2>&1; then
		tail -n 30 "$TMP/make.log"
		fail "make rpm failed"
	fi
	for n in dkms tools; do
		a=$(eval echo "\$RPM_ARCH_$n")
		set -- "$RPMDIR/$a/$NAME-$n-$VER"-*."$a".rpm
		[ $# -eq 1 ] && [ -f "$1" ] ||
			fail "make rpm: want one $NAME-$n-$VER-*.$a.rpm in $RPMDIR/$a, have: $*"
		[ "$(rpm -qp --qf '%{VERSION}' "$1")" = "$VER" ] ||
			fail "$1: version $(rpm -qp --qf '%{VERSION}' "$1"), dkms.conf says $VER"
		if [ "$n" = dkms ]; then DKMS_RPM=$1; else TOOLS_RPM=$1; fi
	done
}

# rpm_of dkms|tools: the RPM file of that package (after build)
rpm_of()
{
	if [ "$1" = dkms ]; then echo "$DKMS_RPM"; else echo "$TOOLS_RPM"; fi
}

# rpm_list RPM: "MODE FLAGS PATH" per file of RPM; FLAGS is "c" for
# %config(noreplace) ("cn" in rpm's terms), "-" otherwise; licenses and
# documentation, and rpm's /usr/lib/.build-id links, are left out
rpm_list()
{
	rpm -qp --qf '[%{FILEMODES:perms} %{FILEFLAGS:fflags} %{FILENAMES}\n]' "$1" |
	awk '{ if (NF == 2) { p = $2; f = "" } else { p = $3; f = $2 }
	       if (p ~ "^/usr/share/(doc|licenses)/") next
	       # the links from the build id to the daemon, as on RHEL
	       if (p ~ "^/usr/lib/[.]build-id(/|$)") next
	       print $1, (f ~ /c/ && f ~ /n/) ? "c" : "-", p }' | sort -k 3
}

# expected_list: what rpm_list should print for each package, from the
# tree: "PACKAGE MODE FLAGS PATH"
expected_list()
{
	local d=$TMP/stage prefix=/usr unitdir rulesdir textdir mpdir

	unitdir=$(rpm_eval '%{_unitdir}')
	[ -n "$unitdir" ] && [ "$unitdir" != '%{_unitdir}' ] || fail "rpm: no %_unitdir"
	rulesdir=$(rpm_eval '%{_udevrulesdir}')
	[ -n "$rulesdir" ] && [ "$rulesdir" != '%{_udevrulesdir}' ] || fail "rpm: no %_udevrulesdir"
	mpdir=$(rpm_eval '%{_modprobedir}')
	[ -n "$mpdir" ] && [ "$mpdir" != '%{_modprobedir}' ] || fail "rpm: no %_modprobedir"
	rm -rf "$d"
	make -s -C "$REPO" dkms-src install-conf DESTDIR="$d/dkms" MODPROBE_D="$mpdir" \
		>"$TMP/stage.log" 2>&1 &&
	make -s -C "$REPO" install-tools install-exporter DESTDIR="$d/tools" PREFIX=$prefix \
		SYSTEMD_UNITDIR="$unitdir" UDEV_RULESDIR="$rulesdir" >>"$TMP/stage.log" 2>&1 ||
		{ cat "$TMP/stage.log"; fail "make (the install targets) into $d"; }
	# The textfile directory the exporter's settings name, and its
	# parent: the package owns both.
	textdir=$(sed -n 's/^UNCORE_METRICS_TEXTFILE=\(.*\)\/[^/]*$/\1/p' \
		"$REPO/packaging/default/uncore-metrics")
	[ -n "$textdir" ] || fail "packaging/default/uncore-metrics: no UNCORE_METRICS_TEXTFILE"
	mkdir -p "$d/tools$textdir"
	# brp-compress gzips manual pages (RHEL, and make rpm here)
	find "$d" -path '*/man/man*/*' -type f -exec gzip -9 -n {} +
	# The dkms package owns its source directory and all below, the tools
	# package its data directory (the Prometheus rules, the dashboard);
	# either owns its files elsewhere, /etc ones as %config(noreplace).
	{
		(cd "$d/dkms" && find . -path "./usr/src/$NAME-$VER" -prune -o \
			\( -type f -o -type l \) -print && find "./usr/src/$NAME-$VER") |
			sed "s|^\\.|$NAME-dkms |"
		(cd "$d/tools" && find . \( -type f -o -type l \) -print &&
			find ".$prefix/share/$NAME-tools" -type d &&
			echo ".$(dirname "$textdir")" && echo ".$textdir") |
			sed "s|^\\.|$NAME-tools |"
	} | while read -r pkg p; do
		case $p in /etc/*) f=c ;; *) f=- ;; esac
		echo "$pkg $(stat -c %A "$d/${pkg#"$NAME"-}$p") $f $p"
	done | sort -k 4
}

# scriptlet RPM TAG: the body of the %TAG scriptlet (POSTIN, PREUN, ...)
scriptlet()
{
	local s

	s=$(rpm -qp --qf "%{$2}" "$1")
	[ "$s" = "(none)" ] && s=
	printf '%s\n' "$s"
}

# has DESC FILE REGEX: FILE has a line matching REGEX (grep -E)
has()
{
	grep -qE -- "$3" "$2" || { sed 's/^/    /' "$2"; fail "$1: no line matching '$3'"; }
}

check_static()
{
	local t out

	step "make rpm"
	build
	echo "${DKMS_RPM#"$REPO"/}"
	echo "${TOOLS_RPM#"$REPO"/}"

	step "rpmlint"
	command -v rpmlint >/dev/null || fail "rpmlint is not installed (deps.sh)"
	# The spec needs the version make rpm defines, and on Debian the
	# macros make rpm loads: rpmlint parses it with ~/.rpmmacros.
	mkdir -p "$TMP/home"
	{
		echo "%version_from_dkms $VER"
		[ -n "$(rpm --eval '%{?systemd_post:1}')" ] ||
			cat "$REPO/packaging/rpm/macros.debian"
	} >"$TMP/home/.rpmmacros"
	out=$TMP/rpmlint.out
	HOME=$TMP/home rpmlint -c "$REPO/packaging/rpm/rpmlint.toml" "$DKMS_RPM" "$TOOLS_RPM" \
		"$REPO/packaging/rpm/uncore-pmu.spec" >"$out" 2>&1 || t=$?
	tail -n 1 "$out"
	if [ -n "${t:-}" ] || grep -qE ': [EW]: ' "$out" ||
	   ! grep -q ' 0 errors, 0 warnings' "$out"; then
		cat "$out"
		fail "rpmlint is not clean (exit ${t:-0})"
	fi

	step "file lists"
	expected_list >"$TMP/want"
	for t in dkms tools; do
		rpm_list "$(rpm_of $t)" | sed "s|^|$NAME-$t |"
	done | sort -k 4 >"$TMP/got"
	if ! diff -u "$TMP/want" "$TMP/got" >"$TMP/diff"; then
		cat "$TMP/diff"
		fail "file lists differ from the tree's install targets (- expected, + in the RPMs)"
	fi
	for t in dkms tools; do
		echo "$NAME-$t: $(grep -c "^$NAME-$t " "$TMP/got") paths as expected"
	done

	step "documents"
	rm -rf "$TMP/docs"
	make -s -C "$REPO" install-docs DESTDIR="$TMP/docs" PREFIX=/usr >"$TMP/docs.log" 2>&1 ||
		{ cat "$TMP/docs.log"; fail "make install-docs into $TMP/docs"; }
	(cd "$TMP/docs" && find . -type f | sed 's|^\.||' | sort) >"$TMP/docs.want"
	for t in dkms tools; do
		rpm -qpd "$(rpm_of $t)" | grep '^/usr/share/doc/'
	done | sort >"$TMP/docs.got"
	if ! diff -u "$TMP/docs.want" "$TMP/docs.got" >"$TMP/diff"; then
		cat "$TMP/diff"
		fail "the RPMs' documents differ from make install-docs (- expected, + in the RPMs)"
	fi
	echo "$(wc -l <"$TMP/docs.got") documents, as make install-docs installs them"

	step "scriptlets"
	scriptlet "$DKMS_RPM" POSTIN >"$TMP/post"
	scriptlet "$DKMS_RPM" PREUN >"$TMP/preun"
	t="-m $NAME -v $VER"
	has "dkms %post" "$TMP/post" "dkms add $t( |\$)"
	has "dkms %post" "$TMP/post" "dkms build $t -k \"\\\$kver\""
	has "dkms %post" "$TMP/post" "dkms install $t -k \"\\\$kver\""
	has "dkms %post" "$TMP/post" '77\)'
	has "dkms %preun" "$TMP/preun" "dkms remove $t --all"
	has "dkms %preun" "$TMP/preun" 'if \[ \$1 -eq 0 \]'
	scriptlet "$TOOLS_RPM" POSTIN >"$TMP/tpost"
	scriptlet "$TOOLS_RPM" PREUN >"$TMP/tpreun"
	scriptlet "$TOOLS_RPM" POSTUN >"$TMP/tpostun"
	t=/usr/lib/systemd/systemd-update-helper
	has "tools %post" "$TMP/tpost" "^if \[ \\\$1 -eq 1 \] && \[ -x \"$t\" \]"
	has "tools %post" "$TMP/tpost" "$t install-system-units $UNIT \|\| :"
	has "tools %preun" "$TMP/tpreun" "^if \[ \\\$1 -eq 0 \] && \[ -x \"$t\" \]"
	has "tools %preun" "$TMP/tpreun" "$t remove-system-units $UNIT \|\| :"
	has "tools %postun" "$TMP/tpostun" "^if \[ \\\$1 -ge 1 \] && \[ -x \"$t\" \]"
	has "tools %postun" "$TMP/tpostun" "$t mark-restart-system-units $UNIT \|\| :"
	has "tools %postun" "$TMP/tpostun" \
		"rm -rf /var/lib/private/uncore-metrics /var/lib/uncore-metrics"
	for t in post preun tpost tpreun tpostun; do
		sh -n "$TMP/$t" 2>"$TMP/sh.err" || { cat "$TMP/sh.err"; fail "$t: not valid sh"; }
	done
	for t in "$DKMS_RPM" "$TOOLS_RPM"; do
		rpm -qp --scripts "$t" | grep -o 'scriptlet (using [^)]*)' |
			grep -v '(using /bin/sh)' && fail "${t##*/}: a scriptlet not run by /bin/sh"
	done
	echo "dkms add, build, install, remove -m $NAME -v $VER; $UNIT: systemd helper steps"

	step "dependencies"
	rpm -qp --requires "$DKMS_RPM" >"$TMP/req"
	has "$NAME-dkms Requires" "$TMP/req" '^dkms$'
	rpm -qp --requires "$TOOLS_RPM" >"$TMP/req"
	has "$NAME-tools Requires" "$TMP/req" '^gawk$'
	if grep -qE '^(perf|pciutils)$' "$TMP/req"; then
		fail "$NAME-tools Requires perf or pciutils: Recommends only"
	fi
	rpm -qp --recommends "$TOOLS_RPM" >"$TMP/rec"
	for t in perf pciutils; do
		has "$NAME-tools Recommends" "$TMP/rec" "^$t\$"
	done
	echo "dkms; gawk; Recommends perf pciutils"
	echo "rpm: all passed"
}

print_filelist()
{
	local t

	build >&2
	for t in dkms tools; do
		rpm_list "$(rpm_of $t)" |
			awk -v p="$NAME-$t" '{ print p, $3 ($1 ~ /^d/ ? "/" : "") }'
	done | sort
}

# ---- --scriptlets ROOT ----

# in_root SCRIPT ARG: run SCRIPT as rpm runs a scriptlet (/bin/sh -c,
# $1 = ARG) in ROOT, output to $TMP/script.log
in_root()
{
	local env=(PATH=/usr/sbin:/usr/bin:/sbin:/bin)

	[ -z "${UNCORE_DKMS_ARCH:-}" ] || env+=(UNCORE_DKMS_ARCH="$UNCORE_DKMS_ARCH"
		UNCORE_DKMS_COMPILE_TEST="${UNCORE_DKMS_COMPILE_TEST:-0}")
	chroot "$ROOT" /usr/bin/env -i "${env[@]}" /bin/sh -c "$1" rpm-scriptlet "$2" \
		>"$TMP/script.log" 2>&1
}

# leftovers: what the package left in ROOT, one line each
leftovers()
{
	local k m

	ls -d "$ROOT/usr/src/$NAME"-* 2>/dev/null || :
	[ ! -e "$ROOT/var/lib/dkms/$NAME" ] || echo "$ROOT/var/lib/dkms/$NAME"
	for k in $KERNELS; do
		for m in $MODS; do
			find "$ROOT/lib/modules/$k/updates" -name "$m.ko*" 2>/dev/null || :
		done
	done
	while read -r p; do
		[ ! -e "$ROOT$p" ] || echo "$ROOT$p"
	done <"$TMP/payload.files"
	chroot "$ROOT" dkms status -m "$NAME" 2>/dev/null | sed 's/^/dkms status: /'
}

# remove_payload: delete the payload's files, then its directories that
# are empty, as rpm -e does
remove_payload()
{
	local p

	[ -s "$TMP/payload.files" ] || return 0
	while read -r p; do
		rm -f "$ROOT$p"
	done <"$TMP/payload.files"
	sort -r "$TMP/payload.all" "$TMP/payload.parents" | while read -r p; do
		[ ! -d "$ROOT$p" ] || rmdir "$ROOT$p" 2>/dev/null || :
	done
}

# undo: after a failure, what a run installed goes. dkms remove needs
# the sources, which may be gone already: the payload comes back first.
# Whatever dkms leaves is deleted by hand.
undo()
{
	local k m

	if [ -e "$ROOT/var/lib/dkms/$NAME" ]; then
		rpm2cpio "$DKMS_RPM" | (cd "$ROOT" && cpio -idmu --quiet) || :
		chroot "$ROOT" dkms remove -m "$NAME" -v "$VER" --all >/dev/null 2>&1 || :
	fi
	remove_payload
	rm -rf "${ROOT:?}/var/lib/dkms/$NAME"
	for k in $KERNELS; do
		for m in $MODS; do
			find "$ROOT/lib/modules/$k/updates" -name "$m.ko*" -delete 2>/dev/null || :
		done
		chroot "$ROOT" depmod -a "$k" 2>/dev/null || :
	done
}

MOUNTED=
MADE_NOHDR=
NOHDR=0.0-uncore-rpm-test-no-headers
umount_root()
{
	local m

	for m in $MOUNTED; do
		umount "$m" || echo "umount $m failed" >&2
	done
	[ -z "$MADE_NOHDR" ] || rmdir "$ROOT/lib/modules/$NOHDR"
}

# scriptlet_run DESC: one install and erase of the dkms RPM in ROOT;
# DESC says which. With UNCORE_DKMS_ARCH set the modules must be
# installed for every kernel with headers, without it none.
scriptlet_run()
{
	local k m f p left post preun

	step "$1: unpack the payload into $ROOT"
	rpm -qpl "$DKMS_RPM" >"$TMP/payload.all"
	rpm -qp --qf '[%{FILEMODES:perms} %{FILENAMES}\n]' "$DKMS_RPM" |
		awk '$1 !~ /^d/ { print $2 }' >"$TMP/payload.files"
	# parents the unpack makes that the payload does not list (on RHEL
	# the filesystem package owns them, /usr/share/licenses say)
	awk -F/ '{ p = ""; for (i = 2; i < NF; i++) { p = p "/" $i; print p } }' \
		"$TMP/payload.all" | sort -u | while read -r p; do
		[ -e "$ROOT$p" ] || echo "$p"
	done >"$TMP/payload.parents"
	CLEANUP="undo; umount_root"
	rpm2cpio "$DKMS_RPM" | (cd "$ROOT" && cpio -idmu --quiet) ||
		fail "rpm2cpio | cpio into $ROOT failed"

	step "$1: %post (\$1 = 1)"
	post=$(scriptlet "$DKMS_RPM" POSTIN)
	if ! in_root "$post" 1; then
		tail -n 30 "$TMP/script.log"
		fail "%post exited non-zero"
	fi
	sed 's/^/    /' "$TMP/script.log" | grep -vE '^    *$' | tail -n 15
	grep -q "no headers for kernel $NOHDR" "$TMP/script.log" ||
		fail "%post did not skip kernel $NOHDR, which has no headers"
	for k in $KERNELS; do
		for m in $MODS; do
			f=$(find "$ROOT/lib/modules/$k/updates" -name "$m.ko*" 2>/dev/null || :)
			if [ -n "${UNCORE_DKMS_ARCH:-}" ]; then
				[ "$(echo "$f" | wc -w)" -eq 1 ] ||
					fail "$k: $m: found '$f', expected one file under updates/"
			else
				[ -z "$f" ] || fail "$k: $m installed despite BUILD_EXCLUSIVE: $f"
			fi
		done
		if [ -n "${UNCORE_DKMS_ARCH:-}" ]; then
			echo "$k: $(echo "$MODS" | wc -w) modules under updates/"
		else
			echo "$k: refused, nothing installed"
		fi
	done

	step "$1: %preun (\$1 = 0), then the payload deleted"
	preun=$(scriptlet "$DKMS_RPM" PREUN)
	if ! in_root "$preun" 0; then
		tail -n 30 "$TMP/script.log"
		fail "%preun exited non-zero"
	fi
	remove_payload
	left=$(leftovers)
	[ -z "$left" ] || { echo "$left"; fail "left behind in $ROOT (above)"; }
	CLEANUP=umount_root
	echo "nothing left"
}

check_scriptlets()
{
	local k

	ROOT=$(cd "${1:?--scriptlets needs ROOT}" && pwd) || fail "no directory $1"
	[ "$(id -u)" -eq 0 ] || fail "--scriptlets needs root (chroot)"
	for k in /bin/sh /usr/sbin/dkms /usr/bin/make; do
		[ -x "$ROOT$k" ] || fail "$ROOT has no $k"
	done
	command -v rpm2cpio >/dev/null && command -v cpio >/dev/null ||
		fail "rpm2cpio or cpio missing (deps.sh: rpm, cpio)"
	KERNELS=
	for k in "$ROOT"/lib/modules/*; do
		[ -d "$k/build" ] && KERNELS="$KERNELS ${k##*/}"
	done
	KERNELS=${KERNELS# }
	[ -n "$KERNELS" ] || fail "$ROOT: no kernel with headers (lib/modules/*/build)"
	[ ! -e "$ROOT/lib/modules/$NOHDR" ] || fail "$ROOT/lib/modules/$NOHDR exists"
	build
	# dkms needs /proc (and /dev/fd, which points there), as on a real
	# system
	CLEANUP=umount_root
	mount -t proc none "$ROOT/proc"
	MOUNTED="$ROOT/proc"
	mount --bind /dev "$ROOT/dev"
	MOUNTED="$ROOT/dev $MOUNTED"
	# a kernel without headers, which %post must leave out
	mkdir "$ROOT/lib/modules/$NOHDR"
	MADE_NOHDR=1
	: >"$TMP/payload.files"; : >"$TMP/payload.parents"
	left=$(leftovers)
	[ -z "$left" ] || { echo "$left"; fail "$ROOT already holds $NAME (above)"; }
	echo "root $ROOT, kernels with headers: $KERNELS; $NAME $VER"

	scriptlet_run "as shipped (arm64 only)"
	export UNCORE_DKMS_ARCH=. UNCORE_DKMS_COMPILE_TEST=1
	scriptlet_run "built here (UNCORE_DKMS_ARCH=. UNCORE_DKMS_COMPILE_TEST=1)"
	echo "rpm scriptlets: all passed"
}

case ${1:-} in
'')		check_static ;;
--filelist)	print_filelist ;;
--scriptlets)	check_scriptlets "${2:-}" ;;
-h|--help)	sed -n '4,49{s/^# \{0,1\}//;s|\$0|'"$0"'|;p}' "$0" ;;
*)		fail "unknown option $1 (see $0 --help)" ;;
esac
