#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Tegra410 CMEM latency: our driver and the upstream one
# (twin_nvidia_t410_cmem_latency_pmu) in one boot, on the same simulated
# hardware: the same ABI, and the same count for every event in named and
# raw form on both sockets, summed over all 14 instances and 3 memory
# controllers with values above 2^32, while the other socket has traffic
# of its own; a group, multiplexing with a pinned event, refused input.
# twins: twin_nvidia_t410_cmem_latency_pmu

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
	# a group (the documented latency group), multiplexing with a pinned
	# event, refused input
	i0=$UNCORE_SIM/$C0/inject
	group_of latency "printf '%s\n' 'event=rd_req value=400 instance=1 mc=0' \
		'event=rd_req value=600 instance=9 mc=2' \
		'event=rd_cum_outs value=9000 instance=1 mc=0' \
		'event=rd_cum_outs value=16000 instance=9 mc=2' \
		'event=cycles value=2000000' > $i0" \
		$C0/rd_req/ $C0/rd_cum_outs/ $C0/cycles/ >>"$1"
	echo "group latency 1000,25000,2000000" >>"$2"
	mux_pinned cmem 35 $C0/rd_req/ $C0/rd_cum_outs/ \
		"printf 'event=rd_req value=10\nevent=rd_cum_outs value=10\n' > $i0" >>"$1"
	echo "mux cmem-pinned 400" >>"$2"
	echo "mux cmem-counted 35" >>"$2"
	t=$(pmu_type $C0)
	tp=$(pmu_type mrvl_pcie_rc_pmu_1000000000)
	{
		errno_of event-3 "$t" 3
		errno_of config-bit-2 "$t" 4
		errno_of config1 -1 1 "$t" 1
		errno_of cpu-of-other-socket -c 2 "$t" 1
		errno_of sampling -s 100 "$t" 1
		errno_of task -p 0 -c -1 "$t" 1
		errno_of group-with-other-hw-pmu -c 0 -L "$tp:0" "$t" 1
		errno_of group-with-sw-leader -L 1:0 "$t" 1
	} >>"$1"
}

twin_run cmem nvidia_t410_cmem_latency_pmu

done_testing
