#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The coexistence rules of packaging/modprobe.d/uncore-pmu.conf, as this
# machine's kmod applies them ("modprobe" in run.sh; also works alone).
#
# A module tree of stand-ins (objects with only a .modinfo: the module's
# aliases and dependencies), laid out as on a server with the DKMS
# package: our modules under updates/dkms/, the kernel's under
# kernel/drivers/perf/, indexed by depmod. For each device kind of
# modules.manifest ("sim:" lines with a hid=, and the APMT's platform
# device), udev's load (modprobe -b <modalias>) must load our module; the
# same-named kernel copies lose by depmod's ranking of updates/; a rival
# of another name (RIVALS below) may load too, but only after our module
# and, for the CoreSight PMUs, after every product module of the engine
# (the manifest's kinds with an APMT node), so that ours bind first.
# Loading a rival by name, or as another module's dependency, must load
# ours first too. The file blacklists nothing. Without the file the
# rivals load without ours, or the check proves nothing; with an empty
# file of the same name in a directory read first (the operator's
# /etc/modprobe.d), the rivals load as without it. Problems go to stdout,
# one a line; the exit status is 1 if any.
set -u

REPO=$(cd "$(dirname "$0")/../../.." && pwd)
M=$REPO/scripts/manifest.sh
CONF=$REPO/packaging/modprobe.d/uncore-pmu.conf
export LC_ALL=C

# The kernel's modules of other names that match our devices, the
# modalias they match and the module they need: "module pattern depends".
RIVALS="arm_cspmu_module platform:arm-cs-arch-pmu -
nvidia_cspmu - arm_cspmu_module
marvell_cn10k_ddr_pmu acpi*:MRVL000C:* -
marvell_cn10k_tad_pmu acpi*:MRVL000D:* -"

TMP=$(mktemp -d)
[ -z "${KEEP:-}" ] || echo "keeping $TMP" >&2
trap '[ -n "${KEEP:-}" ] || rm -rf "$TMP"' EXIT
REL=0.0.0-uncore-modprobe-test
LIB=$TMP/lib/modules/$REL
bad=0
err() { echo "$*"; bad=1; }

# stub PATH DEPENDS ALIAS...: a module object with these aliases that
# needs the modules DEPENDS (comma-separated, or empty) as depmod sees
# it: each module exports a symbol named after itself, and one that needs
# another refers to that symbol
stub() {
	local f=$LIB/$1.ko mi='' a d n=${1##*/}

	for a in "${@:3}"; do
		mi="$mi""alias=$a\\0"
	done
	mkdir -p "${f%/*}"
	{
		printf '%s %s = "%s";\n' 'const char mi[]' \
			'__attribute__((section(".modinfo"), used, aligned(1)))' "$mi"
		printf 'int stub_%s;\n' "$n"
		printf '%s %s = "stub_%s";\n' 'const char ks[]' \
			'__attribute__((section("__ksymtab_strings"), used, aligned(1)))' "$n"
		for d in ${2//,/ }; do
			printf 'extern int stub_%s;\nint *use_%s = &stub_%s;\n' "$d" "$d" "$d"
		done
	} >"$TMP/mi.c"
	gcc -c -o "$f" "$TMP/mi.c" || err "cannot build the stand-in $1"
}

# The engine's product modules: uncore_cspmu binds their devices once
# they have registered, so they must all load before a rival does.
PRODUCTS=$("$M" kinds | awk '$5 != "-" { print $2 }' | sort -u | xargs)

# Our modules, each with the modaliases of its devices and what it needs
# (the helper layer; the engine for its products); a kernel copy of the
# drivers of ACPI devices (the same name: mainline's PEM, CMEM and C2C
# drivers do so).
while read -r mod; do
	aliases=$("$M" kinds | awk -v m="$mod" '$2 == m && $5 == "-" { print "acpi*:" $3 ":*" }' |
		sort -u)
	dep=uncore_pmu
	case " $PRODUCTS " in *" $mod "*) dep=uncore_pmu,uncore_cspmu ;; esac
	case $mod in
	uncore_pmu) dep= ;;
	uncore_cspmu) aliases=platform:arm-cs-arch-pmu ;;
	esac
	# shellcheck disable=SC2086 # one word each
	stub "updates/dkms/$mod" "$dep" $aliases
	[ -z "$aliases" ] || [ "$mod" = uncore_cspmu ] ||
		stub "kernel/drivers/perf/$mod" "" $aliases
done < <("$M" modules)
while read -r mod pat dep; do
	[ "$pat" = - ] && pat=
	[ "$dep" = - ] && dep=
	# shellcheck disable=SC2086 # none or one word
	stub "kernel/drivers/perf/$mod" "$dep" $pat
done <<<"$RIVALS"
mkdir -p "$TMP/depmod.d" "$TMP/none" "$TMP/conf" "$TMP/etc"
depmod -C "$TMP/depmod.d" -b "$TMP" "$REL" 2>"$TMP/depmod.err" ||
	{ cat "$TMP/depmod.err"; exit 1; }
cp "$CONF" "$TMP/conf/"
: >"$TMP/etc/${CONF##*/}"

# loads MODPROBE-ARGS...: the modules modprobe would load, by name, in
# the order it would load them
loads() {
	modprobe -d "$TMP" -S "$REL" --show-depends "$@" 2>&1 |
		sed -n 's|^insmod .*/\([^/]*\)\.ko *$|\1|p; /^install /p; /FATAL/p' | xargs
}

# first_after LIST RIVAL MOD...: whether each MOD comes before RIVAL in LIST
first() {
	local list=" $1 " r=$2 m

	shift 2
	case $list in *" $r "*) ;; *) return 1 ;; esac
	for m; do
		case ${list%% "$r" *} in *" $m"*) ;; *) return 1 ;; esac
	done
}

n=0
# each kind: an ACPI device of its own, or an APMT node (uncore_cspmu
# binds it once the kind's module, which it loads by name, registered)
while read -r kind mod hid apmt; do
	if [ "$apmt" = - ]; then
		ma="acpi:$hid:"
		ours=$mod
	else
		ma=platform:arm-cs-arch-pmu
		ours="uncore_cspmu $PRODUCTS"
	fi
	n=$((n + 1))
	rival=$(while read -r r pat _; do
		# shellcheck disable=SC2254 # a modalias pattern
		case $ma in $pat) echo "$r" ;; esac
	done <<<"$RIVALS")
	got=$(loads -C "$TMP/conf" -b "$ma")
	case " $got " in
	*" ${ours%% *} "*) ;;
	*) err "$kind: udev's load of $ma with the file: '$got', without ${ours%% *}" ;;
	esac
	[ "$(modinfo -b "$TMP" -k "$REL" -n "$mod" 2>&1)" = "$LIB/updates/dkms/$mod.ko" ] ||
		err "$kind: $mod is not taken from updates/"
	[ -n "$rival" ] || continue
	# shellcheck disable=SC2086 # one word each
	first "$got" "$rival" $ours ||
		err "$kind: udev's load of $ma with the file: '$got': not $ours before $rival"
	got=$(loads -C "$TMP/none" -b "$ma")
	# shellcheck disable=SC2086 # one word each
	! first "$got" "$rival" $ours ||
		err "$kind: without the file $ma loads '$got':" \
		    "the stand-in of $rival proves nothing"
	got=$(loads -C "$TMP/etc" -C "$TMP/conf" -b "$ma")
	# shellcheck disable=SC2086 # one word each
	! first "$got" "$rival" $ours ||
		err "$kind: an empty /etc/modprobe.d/${CONF##*/} does not turn the file off" \
		    "('$got')"
done < <("$M" kinds | awk '{ print $1, $2, $3, $5 }')

# a rival loaded by name (nvidia_cspmu needs arm_cspmu_module: as a
# dependency), or the file's own rule, must load ours before it
while read -r r pat _; do
	case $pat in
	platform:*|-) ours="uncore_cspmu $PRODUCTS" ;;
	*) ours=$("$M" kinds | awk -v h="${pat#acpi\*:}" \
		'h ~ "^" $3 ":" { print $2 }' | sort -u | xargs) ;;
	esac
	[ -n "$ours" ] || { err "$r: no module of ours serves $pat"; continue; }
	got=$(loads -C "$TMP/conf" "$r")
	first "$got" "$(echo "$got" | awk '{ print $NF }')" $ours ||
		err "modprobe $r: '$got': not $ours first"
	case " $got " in *" install "*|*FATAL*) err "modprobe $r: '$got'" ;; esac
	# the rival itself still loads: the file keeps nothing from loading
	[ "$(echo "$got" | awk '{ print $NF }')" = "$r" ] ||
		err "modprobe $r with the file: '$got' does not end with $r"
done <<<"$RIVALS"
other=$(grep -Ev '^[[:space:]]*(#|$|softdep )' "$CONF" | head -1)
[ -z "$other" ] || err "${CONF##*/}: a line that is not a softdep: $other"
[ $n -gt 0 ] || err "no device kinds in modules.manifest"
echo "$n device kinds; $(echo "$RIVALS" | wc -l) of the kernel's modules load after ours"
exit $bad
