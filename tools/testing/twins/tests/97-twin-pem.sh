#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Marvell PEM: our driver and the upstream one (twin_marvell_pem_pmu, built
# from Debian's linux-source by vm-test.sh) in one boot, on the same
# simulated hardware: the same ABI and the same count for every event, in
# named and raw form, with values above 2^32, on both PEMs.

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
}

twin_run pem marvell_pem_pmu

done_testing
