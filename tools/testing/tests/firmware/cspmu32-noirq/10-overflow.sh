#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# 32-bit CSPMU counters and no overflow interrupt at all: the helper layer
# folds the counters from a timer often enough that more than 2^32 is still
# counted exactly (the simulator waits for each read before the next
# chunk).

. "$(dirname "$0")/lib/lib.sh"

U=nvidia_ucf_pmu_1
P=nvidia_pcie_tgt_pmu_1_rc_5

check_eq "no overflow interrupt requested" "" "$(grep arm-cs-arch-pmu /proc/interrupts)"
big=$(((1 << 33) + 777))
c=$(stat_count "$U/slc_bytes_wr/" "echo 'event=slc_bytes_wr value=$big' > $UNCORE_SIM/$U/inject")
check_eq "2^33 + 777 on a 32-bit counter, no interrupt" "$big" "$c"
c=$(stat_count "$U/cycles/" "echo 'event=cycles value=$big' > $UNCORE_SIM/$U/inject")
check_eq "cycle counter, 32 bits, no interrupt" "$big" "$c"
c=$(stat_count "$P/wr_req/" "echo 'event=wr_req value=$big rp=1' > $UNCORE_SIM/$P/inject")
check_eq "PCIE-TGT 32-bit counter, no interrupt" "$big" "$c"

done_testing
