#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Tegra410 CMEM latency: our driver and the upstream one
# (twin_nvidia_t410_cmem_latency_pmu) in one boot, on the same simulated
# hardware: the same ABI, and the same count for every event in named and
# raw form on both sockets, summed over all 14 instances and 3 memory
# controllers with values above 2^32, while the other socket has traffic
# of its own.

. "$(dirname "$0")/lib/lib.sh"
. "$(dirname "$0")/lib/twins.sh"

C0=nvidia_cmem_latency_pmu_0
C1=nvidia_cmem_latency_pmu_1

# traffic PMU K EVENT: inject lines for EVENT (K-th event) into PMU, spread
# over every instance and controller; prints the sum a count must give
traffic() {
	if [ "$3" = cycles ]; then
		# the instances' cycle counters run in lock-step
		v=$((4294967296 * $2 + 11))
		echo "event=cycles value=$v" >>/tmp/cmem.inj.$1
		echo $v
		return
	fi
	_i=0 _sum=0
	while [ $_i -lt 14 ]; do
		v=$((4294967296 + 1000 * $2 + 10 * _i + _i % 3))
		echo "event=$3 value=$v instance=$_i mc=$((_i % 3))" >>/tmp/cmem.inj.$1
		_sum=$((_sum + v))
		_i=$((_i + 1))
	done
	echo $_sum
}

# scenario OUT EXPECTED
scenario() {
	abi_snapshot $C0 $C1 >"$1"
	: >"$2"
	for p in $C0 $C1; do
		[ $p = $C0 ] && q=$C1 || q=$C0
		rm -f /tmp/cmem.inj.$p /tmp/cmem.inj.$q
		ev="" k=0
		for f in $EV/$p/events/*; do
			e=${f##*/}
			k=$((k + 1))
			ev="$ev $p/$e/ $p/$(cat "$f")/"
			want=$(traffic $p $k $e)
			traffic $q $((k + 5)) $e >/dev/null
			echo "count $p/$e/ $want" >>"$2"
			echo "count $p/$(cat "$f")/ $want" >>"$2"
		done
		stat_all "cat /tmp/cmem.inj.$p > $UNCORE_SIM/$p/inject;
			cat /tmp/cmem.inj.$q > $UNCORE_SIM/$q/inject" $ev >>"$1"
	done
}

twin_run cmem nvidia_t410_cmem_latency_pmu

done_testing
