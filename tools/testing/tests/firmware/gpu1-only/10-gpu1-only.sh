#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Firmware gpu1-only: NVLink-C2C firmware describes only GPU 1
# (gpu1_en_mask = instances 7-13, no gpu0_en_mask). gpu_mask bit n still
# means GPU n, bits of GPUs it does not describe are masked off, and the
# PMU reports one GPU.

. "$(dirname "$0")/lib/lib.sh"

NV=nvidia_nvlink_c2c_pmu_0
I=$UNCORE_SIM/$NV/inject

check_eq "peer" "nr_gpu=1" "$(cat $EV/$NV/peer)"
check_eq "all 9 events" 9 "$(ls $EV/$NV/events | wc -l)"
check_eq "format/gpu_mask" "config1:0-1" "$(cat $EV/$NV/format/gpu_mask)"

traffic="printf '%s\n' 'event=in_rd_req value=5 instance=3' \
	'event=in_rd_req value=70 instance=9' > $I"
check_eq "gpu_mask=0x2 counts GPU 1" 70 "$(stat_count "$NV/in_rd_req,gpu_mask=0x2/" "$traffic")"
check_eq "gpu_mask unset counts GPU 1 only" 70 "$(stat_count "$NV/in_rd_req/" "$traffic")"
check_eq "cycles come from a GPU 1 instance" 8 \
	"$(stat_count "$NV/cycles/" "echo 'event=cycles value=8' > $I")"

T=$(pmu_type $NV)
# A GPU the firmware does not describe is masked off, as mainline does: a
# script's gpu_mask=0x3 opens here too and counts GPU 1; gpu_mask=0x1
# selects no GPU there is and counts nothing.
check_eq "gpu_mask=0x3 (no GPU 0) opens" ok "$($PERF_OPEN -1 3 "$T" 2)"
check_eq "gpu_mask=0x3 (no GPU 0) counts GPU 1" 70 \
	"$(stat_count "$NV/in_rd_req,gpu_mask=0x3/" "$traffic")"
check_eq "gpu_mask=0x1 (no GPU 0) counts nothing" 0 \
	"$(stat_count "$NV/in_rd_req,gpu_mask=0x1/" "$traffic")"

done_testing
