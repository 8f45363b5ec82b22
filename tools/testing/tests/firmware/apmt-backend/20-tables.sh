#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# The walk's table-level checks, through the register backend: every
# module is unloaded, then the simulator is loaded again with this
# firmware's APMT (3 nodes of 56 bytes after the 36-byte header, 204
# bytes) whose header claims a shorter length:
# - 20, less than the header: refused, no device;
# - 36, the header alone: no node, no device;
# - 93, one byte of the second node: the first node's device, then the
#   walk ends, the node cut by the table end;
# - 132, 40 bytes of the second node: the first node's device, then the
#   walk ends, the node's length running past the table end.
# Each time exactly the layer's lines about it, exactly the devices the
# whole nodes make, and none once the simulator goes. Then every module
# loads again as the init loaded it, and every PMU counts exactly.

. "$(dirname "$0")/lib/lib.sh"
. /etc/uncore-vm.conf

LIB=/lib/modules-test
FW=/lib/firmware/uncore-sim
DEVS=/sys/bus/platform/devices

apmt=$(cat /sys/module/uncore_sim/parameters/apmt)
check_eq "the simulator hands over this firmware's APMT of 204 bytes" \
	"uncore-sim/apmt-apmt-backend.dat 204" "$apmt $(wc -c < /lib/firmware/$apmt)"

check_eq "every module unloads" "" "$(unload_ours)"
for m in uncore_pmu uncore_cspmu; do
	# shellcheck disable=SC2086 # the parameters, one word each
	insmod $LIB/$m.ko $(cmdline_args $m)
done

# table LEN: the APMT with LEN in its header's length field (little endian)
table() {
	cp /lib/firmware/$apmt $FW/cut-$1.dat
	printf "$(printf '\\%03o\\%03o\\%03o\\%03o' $(($1 & 255)) $(($1 >> 8 & 255)) 0 0)" |
		dd of=$FW/cut-$1.dat bs=1 seek=4 conv=notrunc 2>/dev/null
}

# cut LEN WANT DEVS: load the simulator with the table cut to LEN; the
# layer's APMT lines must be WANT (lines joined by "; "), the devices DEVS
cut() {
	table "$1"
	n=$(dmesg | wc -l)
	a=$(cmdline_args uncore_sim | sed "s|apmt=[^ ]*|apmt=uncore-sim/cut-$1.dat|")
	# shellcheck disable=SC2086 # the parameters, one word each
	if ! insmod $LIB/uncore_sim.ko $a; then
		not_ok "length $1: the simulator loads" "insmod failed"
		return
	fi
	check_eq "length $1: what the layer says" "$2" \
		"$(dmesg | tail -n +$((n + 1)) | grep -o 'uncore_cspmu: APMT.*' | sed 's/ *$//' |
		   awk '{ printf "%s%s", s, $0; s = "; " }')"
	check_eq "length $1: the devices" "$3" "$(ls $DEVS | grep '^arm-cs-arch-pmu' | xargs)"
	rmmod uncore_sim
	check_eq "length $1: no device once the simulator goes" "" \
		"$(ls $DEVS | grep '^arm-cs-arch-pmu')"
}

W='uncore_cspmu: APMT'
B='became arm-cs-arch-pmu devices (from the register backend)'
cut 20 "$W: table length 20 is shorter than its header" ""
cut 36 "$W: 0 of 0 nodes $B" ""
cut 93 "$W node 1 at offset 92: truncated by the table end (93), ignoring the rest;\
 $W: 1 of 1 nodes $B" arm-cs-arch-pmu.0
cut 132 "$W node 1 at offset 92: length 56 runs past the table end (132), ignoring the rest;\
 $W: 1 of 1 nodes $B" arm-cs-arch-pmu.0
rm -f $FW/cut-*.dat

for m in $MODULES; do
	# shellcheck disable=SC2046 # the parameters, one word each
	grep -q "^$m " /proc/modules || insmod $LIB/$m.ko $(cmdline_args $m)
done
want="nvidia_pcie_pmu_0_rc_0 nvidia_pcie_tgt_pmu_0_rc_0 nvidia_ucf_pmu_0"
check_eq "after the whole table again, our PMUs are its three" "$want" \
	"$(our_pmus | sort | xargs)"
check_eq "every PMU counts 1234567 exactly" "" "$(count_every_pmu 1234567)"

done_testing
