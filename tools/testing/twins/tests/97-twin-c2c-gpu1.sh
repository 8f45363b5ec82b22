#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# NVLink-C2C on firmware that describes only GPU 1 (the gpu1-only firmware:
# gpu1_en_mask, no gpu0_en_mask): our driver and the upstream one
# (twin_nvidia_t410_c2c_pmu) side by side. The same ABI; every event by
# name with traffic on every link instance, of which only GPU 1's (7-13)
# count; each gpu_mask; refused input.
# twins: twin_nvidia_t410_c2c_pmu
# firmware: gpu1-only

. "$(dirname "$0")/lib/lib.sh"
. "$(dirname "$0")/lib/twins.sh"

# scenario OUT EXPECTED
scenario() {
	abi_snapshot nvidia_nvlink_c2c_pmu_0 nvidia_nvlink_c2c_pmu_1 >"$1"
	: >"$2"
	for s in 0 1; do
		p=nvidia_nvlink_c2c_pmu_$s
		rm -f /tmp/c2c.inj.*
		ev="" j=0
		for f in $EV/$p/events/*; do
			e=${f##*/}
			j=$((j + 1))
			ev="$ev $p/$e/"
			if [ "$e" = cycles ]; then
				v=$((4294967296 * j + 11))
				echo "event=cycles value=$v" >>/tmp/c2c.inj.$j
				echo "count $p/$e/ $v" >>"$2"
				continue
			fi
			# every instance: GPU 0's slots (0-6) have no link here
			i=0 sum=0
			while [ $i -lt 14 ]; do
				v=$((4294967296 + 1000 * j + 10 * i))
				echo "event=$e value=$v instance=$i" >>/tmp/c2c.inj.$j
				[ $i -lt 7 ] || sum=$((sum + v))
				i=$((i + 1))
			done
			echo "count $p/$e/ $sum" >>"$2"
		done
		stat_all "for f in /tmp/c2c.inj.*; do cat \$f > $UNCORE_SIM/$p/inject; done" \
			$ev >>"$1"
		g1=0 i=7
		while [ $i -lt 14 ]; do
			g1=$((g1 + 4294967296 + 1000 + 10 * i))
			i=$((i + 1))
		done
		rm -f /tmp/c2c.inj.*
		i=0
		while [ $i -lt 14 ]; do
			echo "event=in_rd_req value=$((4294967296 + 1000 + 10 * i)) instance=$i" \
				>>/tmp/c2c.inj.1
			i=$((i + 1))
		done
		echo "count $p/in_rd_req,gpu_mask=0x2/ $g1" >>"$2"
		stat_all "cat /tmp/c2c.inj.1 > $UNCORE_SIM/$p/inject" \
			$p/in_rd_req,gpu_mask=0x2/ >>"$1"
	done
	t=$(pmu_type nvidia_nvlink_c2c_pmu_0)
	{
		errno_of gpu_mask-0x1 -1 1 "$t" 2
		errno_of gpu_mask-0x2 -1 2 "$t" 2
		errno_of gpu_mask-0x3 -1 3 "$t" 2
	} >>"$1"
}

twin_run c2c-gpu1 nvidia_t410_c2c_pmu

done_testing
