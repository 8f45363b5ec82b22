#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Marvell PEM: our driver and the upstream one (twin_marvell_pem_pmu, built
# from Debian's linux-source by vm-test.sh) in one boot, on the same
# simulated hardware: the same ABI and the same count for every event, in
# named and raw form, with values above 2^32, on both PEMs; a group and
# refused input.
# twins: twin_marvell_pem_pmu

. "$(dirname "$0")/lib/lib.sh"
. "$(dirname "$0")/lib/twins.sh"

P0=mrvl_pcie_rc_pmu_1000000000
P1=mrvl_pcie_rc_pmu_1000100000

# scenario OUT EXPECTED: observations into OUT, what the injections must
# give into EXPECTED
scenario() {
	abi_snapshot $P0 $P1 >"$1"
	: >"$2"
	for p in $P0 $P1; do
		ev="" inj="" n=0
		for f in $EV/$p/events/*; do
			e=${f##*/}
			n=$((n + 1))
			v=$((4294967296 * n + 1000 * n + 7))
			ev="$ev $p/$e/ $p/$(cat "$f")/"
			inj="${inj}echo 'event=$e value=$v' > $UNCORE_SIM/$p/inject; "
			echo "count $p/$e/ $v" >>"$2"
			echo "count $p/$(cat "$f")/ $v" >>"$2"
		done
		stat_all "$inj" $ev >>"$1"
	done
	# a group, refused input
	group_of pem "printf 'event=ib_tlp_npr value=5\nevent=ob_tlp_npr value=7\n' \
		> $UNCORE_SIM/$P0/inject" $P0/ib_tlp_npr/ $P0/ob_tlp_npr/ >>"$1"
	echo "group pem 5,7" >>"$2"
	t=$(pmu_type $P0)
	t1=$(pmu_type $P1)
	{
		errno_of event-0x1b "$t" 0x1b
		errno_of event-0x3f "$t" 0x3f
		errno_of config-bit-40 "$t" 0x10000000000
		errno_of config-bit-6 "$t" 0x40
		errno_of config1 -1 1 "$t" 0
		errno_of sampling -s 1000 "$t" 0
		errno_of task-any-cpu -p 0 -c -1 "$t" 0
		errno_of task-cpu-0 -p 0 -c 0 "$t" 0
		errno_of group-with-other-hw-pmu -L "$t1:0" "$t" 0
		errno_of group-with-sw-leader -L 1:0 "$t" 0
		errno_of group-of-two -L "$t:1" "$t" 0
	} >>"$1"
}

twin_run pem marvell_pem_pmu

done_testing
