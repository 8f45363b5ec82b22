# SPDX-License-Identifier: GPL-2.0
#
# Shared by the odyssey firmware's tests (busybox sh; source it after
# lib.sh): the DDR PMU's events and the multiplexing run of the DDR and
# LLC-TAD tests.
#
#   ODY_DDR_PROG   the 52 programmable DDR events, NAME:ID (ID in hex)
#   ODY_DDR_FREE   the two free-running DDR events, NAME:ID
#   ody_mux PINNED FLEX INJECT LINE LINES
#       perf stat -a --no-scale -x';' with PINNED ("PMU/EV/") pinned (D) and the
#       events of FLEX (",EV,EV...") beside it, while LINE and LINES (inject
#       lines, each ending in \n) go to INJECT 40 times; the CSV in $ody_out
#   ody_mux_check N PINNED_COUNT MAX
#       the pinned event counted PINNED_COUNT at 100%, and N flexible
#       events each at most MAX (no delta from a stale value), some of them
#       not at 100% (they were multiplexed)

# shellcheck disable=SC2034 # used by the tests that source this file
ODY_DDR_PROG="ddr_hif_rd_or_wr_access:0x01 ddr_hif_wr_access:0x02
ddr_hif_rd_access:0x03 ddr_hif_rmw_access:0x04 ddr_hif_pri_rdaccess:0x05
ddr_rd_bypass_access:0x06 ddr_act_bypass_access:0x07
ddr_dfi_wr_data_access:0x08 ddr_dfi_rd_data_access:0x09
ddr_hpri_sched_rd_crit_access:0x0a ddr_lpri_sched_rd_crit_access:0x0b
ddr_wr_trxn_crit_access:0x0c ddr_cam_active_access:0x0d
ddr_cam_rd_or_wr_access:0x0e ddr_cam_rd_active_access:0x0f ddr_cam_read:0x10
ddr_cam_write:0x11 ddr_cam_mwr:0x12 ddr_precharge:0x13
ddr_precharge_for_rdwr:0x14 ddr_precharge_for_other:0x15
ddr_rdwr_transitions:0x16 ddr_write_combine:0x17 ddr_war_hazard:0x18
ddr_raw_hazard:0x19 ddr_waw_hazard:0x1a ddr_enter_selfref:0x1b
ddr_enter_powerdown:0x1f ddr_enter_mpsm:0x23 ddr_refresh:0x27
ddr_crit_ref:0x28 ddr_spec_ref:0x29 ddr_load_mode:0x2a ddr_zqcl:0x2b
ddr_cam_wr_access:0x2c ddr_dfi_cycles:0x2d ddr_retry_fifo_full:0x2e
ddr_bsm_alloc:0x2f ddr_bsm_starvation:0x30 ddr_win_limit_reached_rd:0x31
ddr_win_limit_reached_wr:0x32 ddr_dqsosc_mpc:0x33 ddr_dqsosc_mrr:0x34
ddr_tcr_mrr:0x35 ddr_zqstart:0x36 ddr_zqlatch:0x37
ddr_dfi_parity_poison:0x38 ddr_wr_crc_error:0x39 ddr_capar_error:0x3a
ddr_rd_crc_error:0x3b ddr_rd_uc_ecc_error:0x3c ddr_dfi_cmd_is_retry:0x3d"
# shellcheck disable=SC2034 # used by the tests that source this file
ODY_DDR_FREE="ddr_ddr_writes:0x64 ddr_ddr_reads:0x65"

ody_out=""

ody_mux() {
	ody_out=$(perf stat -a --no-scale -x';' -e "${1}D$2" -- sh -c "
		i=0
		while [ \$i -lt 40 ]; do
			printf '$4\n$5' > $3
			i=\$((i + 1))
			sleep 0.02
		done" 2>&1 >/dev/null)
}

ody_mux_check() {
	check_eq "pinned event exact beside $1 multiplexed ones" "$2:100.00" \
		"$(echo "$ody_out" | awk -F';' 'NR == 1 { print $1 ":" $5 }')"
	check_eq "multiplexed events: $1, each at most the $3 injected, some below 100%" \
		"$1 0 1" \
		"$(echo "$ody_out" | awk -F';' -v max="$3" 'NR > 1 && NF >= 5 {
			n++; if ($1 > max + 0) bad++; if ($5 != "100.00") m = 1 }
			END { print n, bad + 0, m + 0 }')"
}

# ody_toggle EVENT INJECT ON1 OFF ON2: perf stat of EVENT started disabled
# (-D -1) and switched by its control FIFO: enabled while ON1 goes to
# INJECT, disabled while OFF does, enabled again for ON2, then disabled;
# prints the count, which must be ON1's and ON2's traffic exactly (each
# disable stops the event's counter and each enable restarts it)
ody_toggle() {
	rm -f /tmp/ody_ctl /tmp/ody_ack /tmp/ody_toggle.out
	mkfifo /tmp/ody_ctl /tmp/ody_ack
	perf stat -a -x';' -D -1 --control fifo:/tmp/ody_ctl,/tmp/ody_ack \
		-o /tmp/ody_toggle.out -e "$1" &
	_pid=$!
	exec 3>/tmp/ody_ctl 4</tmp/ody_ack
	for _step in "enable:$3" "disable:$4" "enable:$5" "disable:"; do
		echo "${_step%%:*}" >&3
		read -r _ack <&4
		[ -z "${_step#*:}" ] || echo "${_step#*:}" > "$2"
	done
	exec 3>&- 4<&-
	kill -INT $_pid
	wait $_pid
	awk -F';' '$3 != "" && $1 ~ /^[0-9]+$/ { print $1 }' /tmp/ody_toggle.out
}
