#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Malformed Odyssey firmware beside the good devices (topology.topo):
# each faulty DDR or LLC-TAD device fails its probe with one clear message
# and errno, binds nothing, keeps no region requested, and the good PMUs
# work as before. Mainline's TAD probe checks none of the properties for
# 0, maps past a short window and registers a second tad only to fail in
# sysfs.

. "$(dirname "$0")/lib/lib.sh"

log=$(dmesg)
# expect_log DESC TEXT [MORE]: the kernel log holds TEXT (and MORE after it)
expect_log() {
	if echo "$log" | grep -qF -- "$2${3:-}"; then
		ok "$1"
	else
		not_ok "$1" "no log line: $2${3:-}"
	fi
}

T=odyssey-tad-pmu
expect_log "TAD with tad-cnt 0: EINVAL" \
	"$T MRVL000D:01: error -EINVAL: property marvell,tad-cnt is 0"
expect_log "TAD window short of its blocks: EINVAL" \
	"$T MRVL000D:02: error -EINVAL: MEM resource is 0x30000 bytes, 4 TADs need 0x40000"
expect_log "TAD without _DSD: the property read fails" \
	"cannot read property marvell,tad-page-size"
expect_log "TAD PMU page short of its registers: EINVAL" \
	"$T MRVL000D:04: error -EINVAL: PMU page of 0x900 bytes in a TAD page of 0x10000 bytes"
expect_log "a second TAD: the name is taken (EEXIST)" \
	"$T MRVL000D:05: error -EEXIST: cannot register PMU tad"
expect_log "DDR window short of its registers: EINVAL" \
	"odyssey-ddr-pmu MRVL000C:02: error -EINVAL: MEM resource 0 is 0x20000 bytes," \
	" registers need 0x20260"

for d in MRVL000D:01 MRVL000D:02 MRVL000D:03 MRVL000D:04 MRVL000D:05 MRVL000C:02; do
	check_eq "$d: no driver bound" no \
		"$([ -e /sys/bus/platform/devices/$d/driver ] && echo yes || echo no)"
	check_eq "$d: no region left requested" 0 \
		"$(grep -cE "^ +[0-9a-f]+-[0-9a-f]+ : $d" /proc/iomem)"
done
check_eq "no kernel warning" "" "$(echo "$log" | grep -E 'WARNING|Call Trace' | head -3)"
check_eq "one tad, two DDR PMUs" "mrvl_ddr_pmu_1000200000 mrvl_ddr_pmu_10002a0000 tad" \
	"$(ls $EV | grep -E '^(mrvl_ddr_pmu_|tad$)' | tr '\n' ' ' | sed 's/ $//')"
# the good TAD's four PMU pages are requested, nested in its window (a
# request is named "<device> <resource name>")
n=$(grep -cF ': MRVL000D:00 ' /proc/iomem)
if [ "$n" = 4 ]; then
	ok "tad: its 4 PMU pages requested"
else
	not_ok "tad: its 4 PMU pages requested" "$n requests" "$(grep MRVL000D /proc/iomem)"
fi
c=$(stat_count "tad/tad_hit_ltg/" \
	"echo 'event=tad_hit_ltg value=31 tad=3' > $UNCORE_SIM/tad/inject")
check_eq "tad counts beside the faulty ones" 31 "$c"
c=$(stat_count "mrvl_ddr_pmu_10002a0000/ddr_refresh/" \
	"echo 'event=ddr_refresh value=32' > $UNCORE_SIM/mrvl_ddr_pmu_10002a0000/inject")
check_eq "DDR counts beside the faulty one" 32 "$c"

done_testing
