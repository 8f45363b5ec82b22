#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# PCIE-TGT with 12 counters: nine distinct address ranges cannot fit the 8
# filter slots. A group of nine is refused at open with EINVAL; of nine
# separate pinned events, eight count exactly and the ninth is not counted;
# the slots are free again afterwards.

. "$(dirname "$0")/lib/lib.sh"

P=nvidia_pcie_tgt_pmu_0_rc_3
I=$UNCORE_SIM/$P/inject

check_eq "12 counters + cycle counter" 0x7f0c \
	"$(awk '$1 == "page0:0xe00" { print $2 }' $UNCORE_SIM/$P/regs)"

evs=$(tgt_range_events $P wr_bytes 9 0x1000000 /tmp/slots)
# the same but the first
eight=${evs#*/,}

check_group_refused "group of nine ranges" "$evs"

pinned=$(echo "$evs" | sed 's|/,|/D,|g; s|/$|/D|')
out=$(perf stat -a -x';' -e "$pinned" -- sh -c "cat /tmp/slots > $I" 2>&1 >/dev/null |
	awk -F';' '{ printf "%s ", $1 }')
check_eq "nine pinned ranges: eight exact, the ninth not counted" \
	"1 2 3 4 5 6 7 8 <not counted> " "$out"

check_tgt_slots_released $P
out=$(perf stat -a -x';' -e "$eight" -- sh -c "cat /tmp/slots > $I" 2>&1 >/dev/null |
	awk -F';' '{ printf "%s ", $1 }')
check_eq "eight new ranges reuse the slots" "2 3 4 5 6 7 8 9 " "$out"

done_testing
