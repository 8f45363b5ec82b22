#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Firmware nvclink-gpu (CPU-CPU superchip): NV-CLink goes to two
# GPUs (instances 0-5 GPU 0, 6-11 GPU 1), NVLink-C2C to the other SoC.

. "$(dirname "$0")/lib/lib.sh"

CL=nvidia_nvclink_pmu_0
NV=nvidia_nvlink_c2c_pmu_0
ICL=$UNCORE_SIM/$CL/inject
INV=$UNCORE_SIM/$NV/inject

check_eq "nvclink peer" "nr_gpu=2" "$(cat $EV/$CL/peer)"
check_eq "nvclink shows all 9 events" 9 "$(ls $EV/$CL/events | wc -l)"
check_eq "nvclink format/gpu_mask" "config1:0-1" "$(cat $EV/$CL/format/gpu_mask)"
check_eq "nvlink_c2c peer" "nr_cpu=1" "$(cat $EV/$NV/peer)"
check_eq "nvlink_c2c shows the 5 read events" 5 "$(ls $EV/$NV/events | wc -l)"
check_eq "nvlink_c2c has no gpu_mask" "no" \
	"$([ -e $EV/$NV/format/gpu_mask ] && echo yes || echo no)"

traffic="printf '%s\n' 'event=in_wr_req value=5 instance=2' \
	'event=in_wr_req value=70 instance=8' > $ICL"
check_eq "nvclink gpu_mask=0x1: GPU 0" 5 "$(stat_count "$CL/in_wr_req,gpu_mask=0x1/" "$traffic")"
check_eq "nvclink gpu_mask=0x2: GPU 1" 70 "$(stat_count "$CL/in_wr_req,gpu_mask=0x2/" "$traffic")"
check_eq "nvclink gpu_mask unset: both" 75 "$(stat_count "$CL/in_wr_req/" "$traffic")"

T=$(pmu_type $NV)
check_eq "nvlink_c2c to a SoC refuses in_wr_req" "errno 22 EINVAL" "$($PERF_OPEN "$T" 4)"
check_eq "nvlink_c2c to a SoC counts out_rd_req over 14 instances" 9 \
	"$(stat_count "$NV/out_rd_req/" "printf '%s\n' 'event=out_rd_req value=4 instance=0' \
	'event=out_rd_req value=5 instance=13' > $INV")"

done_testing
