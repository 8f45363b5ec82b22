#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Firmware pem-only: a machine with three Marvell PEMs and no
# NVIDIA device. The PMU name is the window's physical base in lower-case
# hex without padding, so the bases 0x1000000000, 0x1000005000 (not 64 KiB
# aligned) and 0xfffff00000 (just below 2^40, on socket 1) give three
# distinct names, and each name reads its own window. The NVIDIA modules
# load, find nothing and register no PMU.

. "$(dirname "$0")/lib/lib.sh"

A=mrvl_pcie_rc_pmu_1000000000
B=mrvl_pcie_rc_pmu_1000005000
C=mrvl_pcie_rc_pmu_fffff00000

check_eq "our PMUs are the three PEMs" "$A $B $C" "$(our_pmus | sort | xargs)"
# bound MODULE: "<drivers registered> drivers, <devices bound> devices"
bound() {
	drv=0
	dev=0
	for d in /sys/module/$1/drivers/*/; do
		[ -d "$d" ] || continue
		drv=$((drv + 1))
		for f in "$d"*; do
			case ${f##*/} in
			bind | unbind | uevent | module | new_id | remove_id) ;;
			*) dev=$((dev + 1)) ;;
			esac
		done
	done
	echo "$drv drivers, $dev devices"
}
for m in uncore_cspmu nvidia_t410_cmem_latency_pmu nvidia_t410_c2c_pmu; do
	check_eq "$m loaded, its driver bound nothing" "live 1 drivers, 0 devices" \
		"$(cat /sys/module/$m/initstate 2>&1) $(bound $m)"
done
# the CoreSight PMU modules drive the engine's devices, they bind none
for m in nvidia_t410_ucf_pmu nvidia_t410_pcie_pmu nvidia_t410_pcie_tgt_pmu \
	 nvidia_t241_pmu nvidia_generic_pmu; do
	check_eq "$m loaded, no driver of its own" "live 0 drivers, 0 devices" \
		"$(cat /sys/module/$m/initstate 2>&1) $(bound $m)"
done
check_eq "marvell_pem_pmu bound the three PEMs" "1 drivers, 3 devices" \
	"$(bound marvell_pem_pmu)"

for p in $A $B $C; do
	check_eq "$p has 27 events" 27 "$(ls $EV/$p/events | wc -l)"
	check_one_cpu $p
	echo 0 > "$UNCORE_SIM/$p/stats"
done

# One perf run, a different value into each window: a name bound to the
# wrong window shows as a swapped count.
out=$(perf stat -a -x';' -e $A/ib_tlp_pr/ -e $B/ib_tlp_pr/ -e $C/ib_tlp_pr/ -- \
	sh -c "echo 'event=ib_tlp_pr value=11' > $UNCORE_SIM/$A/inject
	       echo 'event=ib_tlp_pr value=22' > $UNCORE_SIM/$B/inject
	       echo 'event=ib_tlp_pr value=33' > $UNCORE_SIM/$C/inject" 2>&1 >/dev/null |
	awk -F';' '{ printf "%s=%s ", $3, $1 }')
check_eq "each PEM counts its own window" \
	"$A/ib_tlp_pr/=11 $B/ib_tlp_pr/=22 $C/ib_tlp_pr/=33 " "$out"

v=$(((1 << 40) + 7))
cmd="echo 'event=ob_reads_partid value=$v' > $UNCORE_SIM/$C/inject"
check_eq "$C/ob_reads_partid/ counts 2^40 + 7" "$v" "$(stat_count "$C/ob_reads_partid/" "$cmd")"
cmd="echo 'event=ats_inv_latency value=5' > $UNCORE_SIM/$B/inject"
check_eq "$B/event=0x1a/ (ats_inv_latency) counts 5" 5 "$(stat_count "$B/event=0x1a/" "$cmd")"
for p in $A $B $C; do
	check_eq "driver never wrote a register of $p" 0 "$(sim_stat $p mmio_writes)"
done

done_testing
