#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# The APMT from the register backend on x86, with overflow GSIs: every
# node becomes a device; the UCF's GSI 10 is registered and requested by
# the engine under the device's name, the PCIE's GSI 1000 cannot be and
# the PCIE counts without an interrupt; the PCIE-TGT has the simulator's.
# Every PMU counts exactly.

. "$(dirname "$0")/lib/lib.sh"

want="nvidia_pcie_pmu_0_rc_0 nvidia_pcie_tgt_pmu_0_rc_0 nvidia_ucf_pmu_0"
check_eq "our PMUs are the three of the backend's APMT" "$want" "$(our_pmus | sort | xargs)"
W='became arm-cs-arch-pmu devices (from the register backend)'
check_eq "the walk: every node a device, from the backend" \
	"uncore_cspmu: APMT: 3 of 3 nodes $W" \
	"$(dmesg | grep -o 'uncore_cspmu: APMT: .* nodes became .*')"
check_eq "GSI 1000: cannot be registered, said once" \
	"uncore_cspmu: APMT node 1 (id 16): cannot register overflow GSI 1000 (-19), no interrupt" \
	"$(dmesg | grep -o 'uncore_cspmu: APMT node .*GSI.*')"
# /proc/interrupts: the requesting device's name ends each line; the
# devices are arm-cs-arch-pmu.<APMT id>: UCF 0, PCIE 16, PCIE-TGT 32
irqs=$(awk '$NF ~ /^arm-cs-arch-pmu/ { n = split($0, w, " "); print w[n - 2], w[n - 1], $NF }' \
	/proc/interrupts | sort -k3 | xargs)
check_eq "GSI 10 is the UCF's interrupt, the simulator's the PCIE-TGT's, none the PCIE's" \
	"IO-APIC 10-fasteoi arm-cs-arch-pmu.0 uncore_sim 0-level arm-cs-arch-pmu.32" "$irqs"
check_eq "every PMU counts 1234567 exactly" "" "$(count_every_pmu 1234567)"

done_testing
