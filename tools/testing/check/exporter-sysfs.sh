# SPDX-License-Identifier: GPL-2.0
#
# Sourced by exporter.sh and packages.sh: a fake sysfs for the exporter
# daemon whose PMUs are the kernel's software PMU (type 1), a stand-in for
# the uncore PMUs on a host that has none. cpu-clock (config 0) counts
# nanoseconds, the dummy event (config 9) nothing.

# xp_pmu DIR NAME TYPE EVENT=CONFIG...: a PMU directory under DIR
xp_pmu()
{
	local d=$1/$2 e

	mkdir -p "$d/format" "$d/events"
	echo "$3" >"$d/type"
	echo 0 >"$d/cpumask"
	echo config:0-63 >"$d/format/event"
	shift 3
	for e; do echo "event=${e#*=}" >"$d/events/${e%%=*}"; done
}

# xp_sysfs DIR: a CMEM and a UCF PMU of ours and the cpu PMU, not ours
xp_sysfs()
{
	xp_pmu "$1" nvidia_cmem_latency_pmu_0 1 cycles=0 rd_req=9 rd_cum_outs=9
	xp_pmu "$1" nvidia_ucf_pmu_1 1 cycles=0 mem_bytes_rd=9 mem_bytes_wr=9
	echo "NVIDIA CMEM" >"$1/nvidia_cmem_latency_pmu_0/identifier"
	xp_pmu "$1" cpu 4 cycles=0x3c
}

# xp_series FILE: the series of a textfile, without their values
xp_series()
{
	sed -n 's/^\(uncore_.*\) [^ ]*$/\1/p' "$1"
}
