#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# arch-neutral: what perf's parser selects is the same on both guests
# release: each wild_row $TRAFFIC of the table is the perf version's that runs here
#
# What this guest's perf (its version from "perf --version") does with
# the PMU-name forms of the admin guides' table "PMU names and wildcards
# by perf version" (Documentation/admin-guide/perf/nvidia-tegra410-pmu.rst):
# each form counts traffic injected with a different power of two into
# every PMU it could select, so the count names the PMUs it selected; the
# expected selection is the guide's wild_row $TRAFFIC for this perf version. Then bare
# "cycles", which perf 6.19 and later open on every PMU with a "cycles"
# event, ours included.

. "$(dirname "$0")/lib/lib.sh"

PV=$PERF_VERSION
case $PV in
5.10|6.1|6.12|7.3) ok "perf version $PV: a column of the table" ;;
*)	not_ok "perf version '$(perf --version)': not a column of the table"
	done_testing
	exit ;;
esac

PEM0=mrvl_pcie_rc_pmu_1000000000
PEM1=mrvl_pcie_rc_pmu_1000100000

# the traffic: a power of two into every PMU a form could select
TRAFFIC=/tmp/wild.sh
{
	echo "echo event=slc_bytes_rd value=1 > $UNCORE_SIM/nvidia_ucf_pmu_0/inject"
	echo "echo event=slc_bytes_rd value=2 > $UNCORE_SIM/nvidia_ucf_pmu_1/inject"
	for s in 0 1; do
		for r in 0 1 2 3 4 5; do
			echo "echo event=rd_bytes value=$((1 << (s * 6 + r))) >" \
			     "$UNCORE_SIM/nvidia_pcie_pmu_${s}_rc_$r/inject"
		done
	done
	echo "echo event=ib_tlp_npr value=1 > $UNCORE_SIM/$PEM0/inject"
	echo "echo event=ib_tlp_npr value=2 > $UNCORE_SIM/$PEM1/inject"
} > $TRAFFIC

# the table: the form, then what perf 5.10, 6.1, 6.12 and 7.3 select
wild_row $TRAFFIC nvidia_ucf_pmu_0/slc_bytes_rd/	   1      1      1      1
wild_row $TRAFFIC nvidia_ucf_pmu/slc_bytes_rd/	   3      3      3      3
wild_row $TRAFFIC nvidia_pcie_pmu_0_rc/rd_bytes/	   63     63     63     63
wild_row $TRAFFIC nvidia_pcie_pmu_1_rc_2/rd_bytes/	   256    256    256    256
wild_row $TRAFFIC nvidia_pcie_pmu/rd_bytes/		   4095   error  error  error
wild_row $TRAFFIC "nvidia_pcie_pmu_*_rc_0/rd_bytes/"	   65     error  65     65
wild_row $TRAFFIC $PEM0/ib_tlp_npr/			   1      1      1      1
wild_row $TRAFFIC $PEM1/ib_tlp_npr/			   2      2      2      2
wild_row $TRAFFIC mrvl_pcie_rc_pmu/ib_tlp_npr/	   3      3      3      3
wild_row $TRAFFIC "mrvl_pcie_rc_pmu_*/ib_tlp_npr/"	   3      error  3      3

# ---- bare "cycles" ----
# perf 6.19 and later open a bare legacy event on every PMU with an event
# of that name: "cycles" counts on the CPU and on each PMU of ours with a
# "cycles" event, one row per PMU name without its instance suffix. Each such
# PMU gets 1 cycle injected, so the rows of ours add up to how many
# PMUs perf opened; earlier perfs open the CPU's alone.
CYC=/tmp/cycles.sh
ncyc=0
for p in $(our_pmus); do
	[ -f "$EV/$p/events/cycles" ] || continue
	echo "echo event=cycles value=1 > $UNCORE_SIM/$p/inject"
	ncyc=$((ncyc + 1))
done > $CYC
# the CPU's row: a count where the guest has a CPU PMU (arm64's PMUv3;
# QEMU's TCG x86 CPUs have none)
cpu_pmu=no
for p in cpu armv8_pmuv3 armv8_pmuv3_0; do
	[ -d "$EV/$p" ] && cpu_pmu=yes
done
case $PV in
5.10|6.1|6.12)	want_ours=0 ;;
*)		want_ours=$ncyc ;;
esac

# cycles_rows OUT: "CPU=<count or what perf said> ours=<sum of our rows>"
cycles_rows() {
	echo "$1" | awk -F';' -v cpu=$cpu_pmu '
		$3 ~ /^(cpu|armv8_pmuv3(_0)?)\/cycles\/$/ || $3 == "cycles" || $3 == "cpu-cycles" {
			c = $1; if (cpu == "yes" && c ~ /^[0-9]+$/ && c > 0) c = "counted"; next }
		$3 ~ /\/cycles\/$/ { o += $1 }
		END { printf "CPU=%s ours=%d\n", c, o }'
}
if [ $cpu_pmu = yes ]; then
	want_cpu=counted
else
	want_cpu="<not supported>"
fi
out=$(perf stat -a -x';' -e cycles -- sh $CYC 2>&1 >/dev/null)
check_eq "perf $PV: perf stat -e cycles -a exits 0" 0 $?
echo "$out" | awk -F';' '{ print "# cycles: " $3 " " $1 }'
check_eq "perf $PV: bare cycles: the CPU's row, and our $want_ours PMUs" \
	"CPU=$want_cpu ours=$want_ours" "$(cycles_rows "$out")"
out=$(perf stat -a -x';' -I 100 -e cycles -- \
	sh -c "sleep 0.25; sh $CYC; sleep 0.25" 2>&1 >/dev/null)
check_eq "perf $PV: perf stat -e cycles -a -I 100 exits 0" 0 $?
check_eq "perf $PV: bare cycles -I 100: our PMUs over the intervals" \
	"ours=$want_ours" "$(echo "$out" | awk -F';' '$4 ~ /\/cycles\/$/ { o += $2 }
		END { printf "ours=%d\n", o }')"

# Does bare cycles take a counter from another user? UCF has one cycle
# counter. Session A counts $U/cycles/; bare cycles runs for part of
# it, and with perf 7.3 opens $U/cycles/ too. The cycle counter is shared
# by every cycles event, so A keeps every count and runs all the time,
# whatever perf runs beside it, pinned (modifier "D") or not.
U=nvidia_ucf_pmu_0
# beside MOD: A's "count running%" with bare cycles beside it. A's
# command runs the rest, so nothing depends on how long a perf takes to
# start: 100 cycles, then bare cycles for 1.2 s with 7 cycles in it, then
# 1000 once bare cycles ended.
cat > /tmp/beside.sh <<SH
echo event=cycles value=100 > $UNCORE_SIM/$U/inject
perf stat -a -x';' -e cycles -- sleep 1.2 >/dev/null 2>&1 &
sleep 0.6
echo event=cycles value=7 > $UNCORE_SIM/$U/inject
wait
echo event=cycles value=1000 > $UNCORE_SIM/$U/inject
SH
beside() {
	perf stat -a -x';' -o /tmp/cyc_a -e "$U/cycles/$1" -- sh /tmp/beside.sh
	awk -F';' -v e="$U/cycles/" 'index($3, e) == 1 {
		printf "%s %s\n", $1, ($5 + 0 == 100 ? "all" : "part") }' /tmp/cyc_a
}
check_eq "perf $PV: $U/cycles/ beside bare cycles: count and running share" \
	"1107 all" "$(beside "")"
check_eq "perf $PV: pinned, $U/cycles/D keeps every count beside bare cycles" \
	"1107 all" "$(beside D)"

done_testing
