#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# The MMIO branch of the layer's register accessors, which only hardware
# takes otherwise: the UCF's window is guest RAM, mapped and accessed by
# the driver as it would the hardware's, never by the register backend.
# Its PMU registers with the identity found there; a cycles count is
# exactly what reached the cycle counter in RAM, across its high word
# (64-bit reads and writes); while counting, RAM holds what the driver
# wrote (the start value, the enable bits). The PCIE beside it, served
# by the backend, counts exactly.

. "$(dirname "$0")/lib/lib.sh"

U=nvidia_ucf_pmu_0
M=$UNCORE_SIM/$U/mem
check_eq "our PMUs" "nvidia_pcie_pmu_0_rc_0 $U" "$(our_pmus | sort | xargs)"
check_eq "the simulator left the UCF's registers in RAM" \
	"uncore_sim: $U: registers in RAM at 0x10000000, not the backend's" \
	"$(dmesg | grep -o "uncore_sim: $U: registers in RAM.*")"
check_eq "$U: the identifier read from RAM" 2cf2036b "$(cat $EV/$U/identifier 2>&1)"
# PMCCNTR (0xf8, 64 bits), PMCNTENSET0 (0xc00), PMCR (0xe04)
c=$(stat_count "$U/cycles/" "grep -E '^page0:0x(f8|fc|c00|e04) ' $M > /tmp/mmio.run
	echo 'page0:0xf8 +4294967301' > $M")
check_eq "$U/cycles/: the count is what reached RAM, across the high word" 4294967301 "$c"
# the start value is half the range, 2^63: a low word of 0, which the
# memory file does not list
check_eq "$U: while counting, RAM holds the start value, PMCNTENSET and PMCR.E" \
	"page0:0xc00 0x80000000 page0:0xe04 0x1 page0:0xfc 0x80000000" \
	"$(sort /tmp/mmio.run | xargs)"
check_eq "$U: the register backend served none of its accesses" "0 0" \
	"$(sim_stat $U mmio_reads) $(sim_stat $U mmio_writes)"
check_eq "the PCIE counts 1234567 exactly" "1234567" \
	"$(stat_count nvidia_pcie_pmu_0_rc_0/cycles/ \
		"echo 'event=cycles value=1234567' > $UNCORE_SIM/nvidia_pcie_pmu_0_rc_0/inject")"
# The memory file's counters at an offset 4 modulo 8 (C2C's layout): two
# 32-bit words, the carry reaching the high one; 0x804, which no driver
# uses. An offset not a multiple of 4, or 8 bytes leaving the window,
# is refused.
echo 'page0:0x804 =0xffffffff' > $M && echo 'page0:0x804 +1' > $M
check_eq "$U: mem's 64-bit add at 4 modulo 8 carries into the high word" "page0:0x808 0x1" \
	"$(grep -E '^page0:0x80[48] ' $M | xargs)"
check_fail "$U: mem refuses an offset not a multiple of 4" sh -c "echo 'page0:0x802 +1' > $M"
check_fail "$U: mem refuses a counter leaving the window" sh -c "echo 'page0:0xffc +1' > $M"
echo 'page0:0x804 =0' > $M
rm -f /tmp/mmio.run

done_testing
