#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Grace (Tegra241) SCF, PCIE, NVLink-C2C0/1 and CNVLink, and the generic
# NVIDIA PMU, on the grace firmware: our two drivers and the upstream
# engine with its NVIDIA module (twin_arm_cspmu, twin_nvidia_cspmu) side by
# side. The same ABI on all 11 PMUs (names, format/, events/, identifier,
# cpumask, associated_cpus); every event of every PMU by name, with
# traffic on every port and values above 2^32, all PMUs in one run per
# batch; each filter with several masks; the filter registers each side
# writes; the generic PMU's raw filters.
# twins: twin_arm_cspmu twin_nvidia_cspmu
# firmware: grace

. "$(dirname "$0")/lib/lib.sh"
. "$(dirname "$0")/lib/twins.sh"

OURS="nvidia_t241_pmu nvidia_generic_pmu"
TWIN="twin_arm_cspmu twin_nvidia_cspmu"
# 7 events a PMU and run: 8 counters whether or not cycles takes its own
BATCH=7

PMUS="nvidia_uncore_pmu_0"
for s in 0 1; do
	for p in scf pcie nvlink_c2c0 nvlink_c2c1 cnvlink; do
		PMUS="$PMUS nvidia_${p}_pmu_$s"
	done
done

# ports PMU: the inject attribute of each port of PMU's filter
ports() {
	case $1 in
	nvidia_pcie_*)	echo "rp=0 rp=1 rp=2 rp=3 rp=4 rp=5 rp=6 rp=7 rp=8 rp=9" ;;
	nvidia_nvlink_*) echo "port=0 port=1" ;;
	nvidia_cnvlink_*) echo "rsock=0 rsock=1 rsock=2 rsock=3" ;;
	*)		echo "-" ;;
	esac
}

# scenario OUT EXPECTED
scenario() {
	out=$1 want=$2
	abi_snapshot $PMUS >"$out"
	: >"$want"
	b=0
	while :; do
		rm -f /tmp/gr.inj.*
		ev="" k=0
		for p in $PMUS; do
			lo=$((b * BATCH + 1))
			evs=$(ls $EV/$p/events | sed -n "$lo,$((lo + BATCH - 1))p")
			for e in $evs; do
				k=$((k + 1))
				ev="$ev $p/$e/"
				sum=0 j=0
				for a in $(ports $p); do
					[ "$e" = cycles ] && a=-
					v=$((4294967296 * (k % 7 + 1) + 100 * k + 10 * j + 3))
					echo "event=$e value=$v ${a#-}" >>/tmp/gr.inj.$p
					sum=$((sum + v))
					j=$((j + 1))
					[ "$e" = cycles ] && break
				done
				echo "count $p/$e/ $sum" >>"$want"
			done
		done
		[ -n "$ev" ] || break
		stat_all "for p in $PMUS; do [ ! -f /tmp/gr.inj.\$p ] ||
			cat /tmp/gr.inj.\$p > $UNCORE_SIM/\$p/inject; done" $ev >>"$out"
		b=$((b + 1))
	done

	# the filters: port n injects 1 << n, each mask counts its ports
	for spec in "nvidia_pcie_pmu_0 root_port 0 0x1 0x200 0x155 0x3ff 0x2aa 0x201" \
		    "nvidia_nvlink_c2c0_pmu_1 port 0 0x1 0x2 0x3" \
		    "nvidia_nvlink_c2c1_pmu_0 port 0 0x2 0x3" \
		    "nvidia_cnvlink_pmu_0 rem_socket 0 0x1 0x8 0xe 0x5"; do
		set -- $spec
		p=$1 f=$2
		shift 2
		: >/tmp/gr.inj
		n=0
		for a in $(ports $p); do
			echo "event=rd_bytes_rem value=$((1 << n)) $a" >>/tmp/gr.inj
			n=$((n + 1))
		done
		ev=""
		for m in "$@"; do
			ev="$ev $p/rd_bytes_rem,$f=$m/"
			w=$((m))
			[ $w = 0 ] && w=$(((1 << n) - 1))
			echo "count $p/rd_bytes_rem,$f=$m/ $w" >>"$want"
		done
		stat_all "cat /tmp/gr.inj > $UNCORE_SIM/$p/inject" $ev >>"$out"
	done

	# the filter registers each side leaves while an event counts
	for spec in "nvidia_pcie_pmu_0 rd_req_loc page0:0xa00" \
		    "nvidia_pcie_pmu_0 rd_req_loc,root_port=0x6 page0:0xa00" \
		    "nvidia_pcie_pmu_0 cycles page0:0x47c" \
		    "nvidia_nvlink_c2c0_pmu_0 rd_req_loc page0:0xa00" \
		    "nvidia_cnvlink_pmu_1 rd_req_loc,rem_socket=0x9 page0:0xa00" \
		    "nvidia_scf_pmu_0 scf_cache page0:0xa00" \
		    "nvidia_scf_pmu_1 cycles page0:0x47c" \
		    "nvidia_uncore_pmu_0 event=0x123 page0:0xa00" \
		    "nvidia_uncore_pmu_0 event=0x123 page0:0x800" \
		    "nvidia_uncore_pmu_0 event=0x123,filter=0x5,filter2=0x6 page0:0xa00" \
		    "nvidia_uncore_pmu_0 event=0x123,filter=0x5,filter2=0x6 page0:0x800"; do
		set -- $spec
		perf stat -a -e "$1/$2/" -- sh -c "awk '\$1 == \"$3\" { print \$2 }' \
			$UNCORE_SIM/$1/regs > /tmp/gr.reg" >/dev/null 2>&1
		echo "reg $1/$2/$3 $(cat /tmp/gr.reg)" >>"$out"
	done
	stat_all "echo 'event=0x123 value=4294967299' > $UNCORE_SIM/nvidia_uncore_pmu_0/inject" \
		nvidia_uncore_pmu_0/event=0x123,filter=0x5/ >>"$out"
	echo "count nvidia_uncore_pmu_0/event=0x123,filter=0x5/ 4294967299" >>"$want"
}

twin_run grace "$OURS" "$TWIN"

done_testing
