#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Tegra410 NVLink-C2C, NV-CLink and NV-DLink: our driver and the upstream
# one (twin_nvidia_t410_c2c_pmu) in one boot, on the same simulated
# hardware: the same ABI, the same count for every event in named and raw
# form on both sockets, summed over every link instance with values above
# 2^32 while the other socket has traffic of its own, and every gpu_mask;
# a group, multiplexing with a pinned event, refused input.
# twins: twin_nvidia_t410_c2c_pmu

. "$(dirname "$0")/lib/lib.sh"
. "$(dirname "$0")/lib/twins.sh"

KINDS="nvlink_c2c:14 nvclink:12 nvdlink:16"

# traffic FILE N K EVENT: inject lines for EVENT (K-th event) into FILE.K,
# spread over N instances; prints the sum a count must give. One file per
# event: an inject write takes at most 4096 bytes.
traffic() {
	if [ "$4" = cycles ]; then
		# the instances' cycle counters run in lock-step
		v=$((4294967296 * $3 + 11))
		echo "event=cycles value=$v" >>"$1.$3"
		echo $v
		return
	fi
	_i=0 _sum=0
	while [ $_i -lt "$2" ]; do
		v=$((4294967296 + 1000 * $3 + 10 * _i))
		echo "event=$4 value=$v instance=$_i" >>"$1.$3"
		_sum=$((_sum + v))
		_i=$((_i + 1))
	done
	echo $_sum
}

# scenario OUT EXPECTED
scenario() {
	pmus=""
	for k in $KINDS; do
		pmus="$pmus nvidia_${k%:*}_pmu_0 nvidia_${k%:*}_pmu_1"
	done
	abi_snapshot $pmus >"$1"
	: >"$2"
	log0=$(dmesg | wc -l)
	for k in $KINDS; do
		n=${k#*:}
		for s in 0 1; do
			p=nvidia_${k%:*}_pmu_$s
			q=nvidia_${k%:*}_pmu_$((1 - s))
			rm -f /tmp/c2c.inj.*
			ev="" j=0
			for f in $EV/$p/events/*; do
				e=${f##*/}
				j=$((j + 1))
				ev="$ev $p/$e/ $p/$(cat "$f")/"
				want=$(traffic /tmp/c2c.inj.p $n $j $e)
				traffic /tmp/c2c.inj.q $n $((j + 5)) $e >/dev/null
				echo "count $p/$e/ $want" >>"$2"
				echo "count $p/$(cat "$f")/ $want" >>"$2"
			done
			inj="for f in /tmp/c2c.inj.p.*; do cat \$f > $UNCORE_SIM/$p/inject; done"
			inj="$inj; for f in /tmp/c2c.inj.q.*; do"
			inj="$inj cat \$f > $UNCORE_SIM/$q/inject; done"
			stat_all "$inj" $ev >>"$1"
		done
	done
	# gpu_mask: instances 0-6 are GPU 0, 7-13 GPU 1
	for s in 0 1; do
		p=nvidia_nvlink_c2c_pmu_$s
		rm -f /tmp/c2c.inj.*
		traffic /tmp/c2c.inj.p 14 1 in_rd_req >/dev/null
		g0=0 g1=0 i=0
		while [ $i -lt 14 ]; do
			v=$((4294967296 + 1000 + 10 * i))
			[ $i -lt 7 ] && g0=$((g0 + v)) || g1=$((g1 + v))
			i=$((i + 1))
		done
		echo "count $p/in_rd_req,gpu_mask=0x1/ $g0" >>"$2"
		echo "count $p/in_rd_req,gpu_mask=0x2/ $g1" >>"$2"
		echo "count $p/in_rd_req,gpu_mask=0x3/ $((g0 + g1))" >>"$2"
		stat_all "cat /tmp/c2c.inj.p.1 > $UNCORE_SIM/$p/inject" \
			$p/in_rd_req,gpu_mask=0x1/ $p/in_rd_req,gpu_mask=0x2/ \
			$p/in_rd_req,gpu_mask=0x3/ >>"$1"
	done
	# a group, multiplexing with a pinned event, refused input (raw ids
	# the peer type does not have among them)
	n0=nvidia_nvlink_c2c_pmu_0
	in0=$UNCORE_SIM/$n0/inject
	group_of c2c "printf '%s\n' 'event=in_rd_req value=300 instance=2' \
		'event=in_wr_req value=20 instance=9' 'event=cycles value=4000' > $in0" \
		$n0/in_rd_req/ $n0/in_wr_req/ $n0/cycles/ >>"$1"
	echo "group c2c 300,20,4000" >>"$2"
	mux_pinned c2c 35 $n0/in_wr_req/ $n0/in_rd_req/ \
		"printf 'event=in_wr_req value=10 instance=12\nevent=in_rd_req value=10\n' \
		> $in0" >>"$1"
	echo "mux c2c-pinned 400" >>"$2"
	echo "mux c2c-counted 35" >>"$2"
	t=$(pmu_type $n0)
	tcl=$(pmu_type nvidia_nvclink_pmu_0)
	tdl=$(pmu_type nvidia_nvdlink_pmu_0)
	{
		for id in 3 4 7 8; do
			errno_of nvclink-event-$id "$tcl" $id
		done
		for id in 3 4 5 6 7 8; do
			errno_of nvdlink-event-$id "$tdl" $id
		done
		errno_of nvclink-config1 -1 1 "$tcl" 2
		errno_of nvlink_c2c-event-9 "$t" 9
		errno_of nvlink_c2c-config-bit-8 "$t" 0x100
		errno_of nvlink_c2c-gpu_mask-bit-2 -1 4 "$t" 2
		errno_of nvlink_c2c-gpu_mask-0x3 -1 3 "$t" 2
		errno_of sampling -s 100 "$t" 2
		errno_of task -p 0 -c -1 "$t" 2
	} >>"$1"
	# no counter came near a wrap: an overflow report would be false
	echo "log overflow-report $(dmesg | tail -n +$((log0 + 1)) |
		grep -qi overflow && echo yes || echo no)" >>"$1"
	echo "log overflow-report no" >>"$2"
}

twin_run c2c nvidia_t410_c2c_pmu

done_testing
