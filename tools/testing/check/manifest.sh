#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The manifest check: modules.manifest is the one list of the modules,
# and what is not read from it at run time must agree with it.
#
#  1. it parses (scripts/manifest.sh, under this machine's awk and
#     busybox's, as on a server's DKMS build and in a guest);
#  2. Kconfig is what "make manifest" generates from it;
#  3. every drivers/perf/*.c is a source of exactly one module, and every
#     source named exists;
#  4. dkms.conf, sourced as dkms does, names the same modules in order;
#  5. each driver's admin guide exists and is in the admin guides' index;
#  6. the simulator's kinds (enum sim_kind in sim.h) are the "sim:" kinds;
#  7. every kind of PMU of the "pmu:" lines starts the exporter: a name of
#     its pattern matches a KERNEL== glob of packaging/udev/60-uncore-pmu.rules.
# Problems go to stdout, one a line; the exit status is 1 if any.
set -u

REPO=$(cd "$(dirname "$0")/../../.." && pwd)
M=$REPO/scripts/manifest.sh
cd "$REPO" || exit 1
bad=0
err() { echo "$*"; bad=1; }

for a in awk "busybox awk"; do
	# the same parser under another awk: "awk" in it replaced
	sed "s/^exec awk /exec $a /" "$M" >"${TMPDIR:-/tmp}/manifest.$$"
	out=$(sh "${TMPDIR:-/tmp}/manifest.$$" -f modules.manifest kconfig 2>&1) ||
		err "modules.manifest: $a: $out"
	rm -f "${TMPDIR:-/tmp}/manifest.$$"
	[ "$out" = "$(cat Kconfig)" ] ||
		err "Kconfig: not what make manifest generates from modules.manifest under $a" \
		    "(edit the manifest, then run make manifest)"
done

mods=$("$M" modules) || exit 1
srcs=$("$M" kbuild | while IFS=: read -r _ m objs; do
	if [ -z "$objs" ]; then
		echo "$m.c"
	else
		echo "$objs" | tr ',' '\n' | sed 's/$/.c/'
	fi
done | sort)
for f in $srcs; do
	[ -f "drivers/perf/$f" ] || err "modules.manifest: drivers/perf/$f does not exist"
done
for f in drivers/perf/*.c; do
	f=${f##*/}
	case $f in *.mod.c) continue ;; esac
	n=$(echo "$srcs" | grep -cx "$f")
	[ "$n" -eq 1 ] || err "drivers/perf/$f: a source of $n modules of modules.manifest, not 1"
done

dk=$(bash -c '. ./dkms.conf && printf "%s\n" "${BUILT_MODULE_NAME[@]}"' 2>&1)
[ "$dk" = "$mods" ] || err "dkms.conf: modules '$(echo $dk)', the manifest's '$(echo $mods)'"

while read -r m g; do
	[ -f "Documentation/admin-guide/perf/$g.rst" ] ||
		err "modules.manifest: $m: no Documentation/admin-guide/perf/$g.rst"
	grep -qx "   $g" Documentation/admin-guide/perf/index.rst ||
		err "Documentation/admin-guide/perf/index.rst: $g ($m) is not in the toctree"
done < <("$M" guides)

want=$("$M" kinds | awk '{ print "SIM_KIND_" toupper($1) }' | sort)
have=$(sed -n '/^enum sim_kind {/,/^}/s/^\t\(SIM_KIND_[A-Z0-9_]*\),.*/\1/p' \
	tools/testing/sim/sim.h | sort)
[ "$want" = "$have" ] ||
	err "tools/testing/sim/sim.h: enum sim_kind has '$(echo $have)'," \
	    "modules.manifest's sim: kinds '$(echo $want)'"
# A name each pattern matches: its numbers 1a (hex) or 0 (decimal).
rules=packaging/udev/60-uncore-pmu.rules
globs=$(sed -n 's/.*KERNEL=="\([^"]*\)".*/\1/p' $rules)
[ -n "$globs" ] || err "$rules: no KERNEL== match"
while IFS=$'\t' read -r re _; do
	name=$(echo "$re" | sed 's/\[0-9a-f\]+/1a/g; s/\\d+/0/g')
	echo "$name" | grep -qxE "$(echo "$re" | sed 's/\\d/[0-9]/g')" ||
		{ err "modules.manifest: pmu: $re: no example name ($name)"; continue; }
	hit=0
	IFS='|' read -ra gl <<<"$globs"
	for g in "${gl[@]}"; do
		# shellcheck disable=SC2053 # a glob, as udev matches it
		[[ $name == $g ]] && hit=1
	done
	[ $hit = 1 ] ||
		err "$rules: a PMU named $name ($re) does not start the exporter" \
		    "(KERNEL==\"$globs\")"
done < <("$M" pmus)
exit $bad
