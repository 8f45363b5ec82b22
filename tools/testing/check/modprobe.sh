#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The coexistence rules of packaging/modprobe.d/uncore-pmu.conf, as this
# machine's kmod applies them ("modprobe" in run.sh; also works alone).
#
# A module tree of stand-ins (objects with only a .modinfo: the module's
# aliases), laid out as on a server with the DKMS package: our modules
# under updates/dkms/, the kernel's under kernel/drivers/perf/, indexed by
# depmod. For each device kind of modules.manifest ("sim:" lines with a
# hid=, and the APMT's platform device), udev's load (modprobe -b
# <modalias>) must pick our module alone, with the kernel's driver of the
# same device beside it: the same-named ones lose by depmod's ranking of
# updates/, the others (RIVALS below) to the file's blacklist; and
# loading a rival by name must run /bin/false. Without the file the
# rivals must load, or the check proves nothing. Problems go to stdout,
# one a line; the exit status is 1 if any.
set -u

REPO=$(cd "$(dirname "$0")/../../.." && pwd)
M=$REPO/scripts/manifest.sh
CONF=$REPO/packaging/modprobe.d/uncore-pmu.conf
export LC_ALL=C

# The kernel's modules of other names that match our devices, and the
# modalias they match: "module modalias-pattern".
RIVALS="arm_cspmu_module platform:arm-cs-arch-pmu
nvidia_cspmu -
marvell_cn10k_ddr_pmu acpi*:MRVL000C:*
marvell_cn10k_tad_pmu acpi*:MRVL000D:*"

TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
REL=0.0.0-uncore-modprobe-test
LIB=$TMP/lib/modules/$REL
bad=0
err() { echo "$*"; bad=1; }

# stub PATH ALIAS...: a module object with these aliases only
stub() {
	local f=$LIB/$1.ko mi='' a

	for a in "${@:2}"; do
		mi="$mi""alias=$a\\0"
	done
	mkdir -p "${f%/*}"
	printf '%s %s = "%sdepends=";\n' 'const char mi[]' \
		'__attribute__((section(".modinfo"), used, aligned(1)))' "$mi" >"$TMP/mi.c"
	gcc -c -o "$f" "$TMP/mi.c" || err "cannot build the stand-in $1"
}

# Our modules, each with the modaliases of its devices; a kernel copy of
# the drivers of ACPI devices (the same name: mainline's PEM, CMEM and C2C
# drivers do so).
while read -r mod; do
	aliases=$("$M" kinds | awk -v m="$mod" '$2 == m && $5 == "-" { print "acpi*:" $3 ":*" }' |
		sort -u)
	case $mod in uncore_cspmu) aliases=platform:arm-cs-arch-pmu ;; esac
	# shellcheck disable=SC2086 # one word each
	stub "updates/dkms/$mod" $aliases
	[ -z "$aliases" ] || [ "$mod" = uncore_cspmu ] ||
		stub "kernel/drivers/perf/$mod" $aliases
done < <("$M" modules)
while read -r mod pat; do
	[ "$pat" = - ] && pat=
	# shellcheck disable=SC2086 # none or one word
	stub "kernel/drivers/perf/$mod" $pat
done <<<"$RIVALS"
mkdir -p "$TMP/depmod.d" "$TMP/none" "$TMP/conf"
depmod -C "$TMP/depmod.d" -b "$TMP" "$REL" 2>"$TMP/depmod.err" ||
	{ cat "$TMP/depmod.err"; exit 1; }
cp "$CONF" "$TMP/conf/"

# loads CONFDIR MODALIAS: the modules udev's modprobe would load, by name
loads() {
	modprobe -d "$TMP" -S "$REL" -C "$1" --show-depends -b "$2" 2>&1 |
		sed -n 's|^insmod .*/\([^/]*\)\.ko *$|\1|p; /^install /p; /FATAL/p' | sort | xargs
}

n=0
# each kind: an ACPI device of its own, or an APMT node (uncore_cspmu
# binds it and loads the kind's module by name)
while read -r kind mod hid apmt; do
	if [ "$apmt" = - ]; then
		ma="acpi:$hid:"
	else
		ma=platform:arm-cs-arch-pmu
		mod=uncore_cspmu
	fi
	n=$((n + 1))
	rival=$(while read -r r pat; do
		# shellcheck disable=SC2254 # a modalias pattern
		case $ma in $pat) echo "$r" ;; esac
	done <<<"$RIVALS")
	want=$mod
	got=$(loads "$TMP/conf" "$ma")
	[ "$got" = "$want" ] ||
		err "$kind: udev's load of $ma with the file: '$got', not '$want'"
	[ "$(modinfo -b "$TMP" -k "$REL" -n "$mod" 2>&1)" = "$LIB/updates/dkms/$mod.ko" ] ||
		err "$kind: $mod is not taken from updates/"
	[ -n "$rival" ] || continue
	got=$(loads "$TMP/none" "$ma")
	[ "$got" = "$(echo "$mod $rival" | tr ' ' '\n' | sort | xargs)" ] ||
		err "$kind: without the file $ma loads '$got':" \
		    "the stand-in of $rival proves nothing"
done < <("$M" kinds | awk '{ print $1, $2, $3, $5 }')
for r in $(echo "$RIVALS" | awk '{ print $1 }'); do
	got=$(modprobe -d "$TMP" -S "$REL" -C "$TMP/conf" --show-depends "$r" 2>&1 | xargs)
	[ "$got" = "install /bin/false" ] || err "modprobe $r: '$got', not 'install /bin/false'"
done
[ $n -gt 0 ] || err "no device kinds in modules.manifest"
echo "$n device kinds, $(echo "$RIVALS" | wc -l) of the kernel's modules kept off"
exit $bad
