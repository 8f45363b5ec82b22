#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Exact counts on one PMU of each CSPMU driver, with a value above 2^32 so
# that a torn or wrong-width counter read shows. Linked into firmware
# variants (dual page and hi-lo-hi reads, a malformed APMT node beside good
# ones, an impl_id override).

. "$(dirname "$0")/lib/lib.sh"

v=$(((1 << 40) + 7))
for spec in "nvidia_ucf_pmu_0 slc_bytes_rd" "nvidia_pcie_pmu_1_rc_3 wr_req" \
	    "nvidia_pcie_pmu_0_rc_0 rd_bytes" "nvidia_pcie_tgt_pmu_1_rc_5 wr_bytes"; do
	set -- $spec
	if [ ! -d "$EV/$1" ]; then
		not_ok "$1 registered"
		continue
	fi
	c=$(stat_count "$1/$2/" "echo 'event=$2 value=$v' > $UNCORE_SIM/$1/inject")
	check_eq "$1/$2/ counts 2^40 + 7" "$v" "$c"
	c=$(stat_count "$1/cycles/" "echo 'event=cycles value=$v' > $UNCORE_SIM/$1/inject")
	check_eq "$1/cycles/ counts 2^40 + 7" "$v" "$c"
done

done_testing
