#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Firmware faults: one device of each Tegra410 kind, one PEM, one Odyssey
# DDR controller, the LLC-TAD and the generic NVIDIA PMU. Each
# registers its one PMU and counts exactly; the UCF, whose PMIIDR reads 0,
# has the identity its peripheral ID registers give. On a kernel with failslab,
# tests/faults/ then loads every module with each allocation failing.

. "$(dirname "$0")/lib/lib.sh"

want="mrvl_ddr_pmu_1000200000 mrvl_pcie_rc_pmu_1000000000 nvidia_cmem_latency_pmu_0"
want="$want nvidia_nvclink_pmu_0 nvidia_nvdlink_pmu_0 nvidia_nvlink_c2c_pmu_0"
want="$want nvidia_pcie_pmu_0_rc_0 nvidia_pcie_tgt_pmu_0_rc_0 nvidia_ucf_pmu_0"
want="$want nvidia_uncore_pmu_0 tad"
check_eq "our PMUs are one of each kind" "$want" "$(our_pmus | sort | xargs)"
check_eq "every PMU counts 1234567 exactly" "" "$(count_every_pmu 1234567)"
check_eq "UCF with PMIIDR 0: the identifier from PMPIDR0..4" 2cf2036b \
	"$(cat $EV/nvidia_ucf_pmu_0/identifier 2>&1)"

done_testing
