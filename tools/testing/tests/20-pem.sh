#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# release: the family's ABI, its guide's examples and refused input, with each release's perf
#
# Marvell PEM PMU, end to end through perf: sysfs, exact counts for every
# event in named and raw form, overlapping sessions, refused input with the
# exact errno, CPU hotplug and module reload.

. "$(dirname "$0")/lib/lib.sh"

P0=mrvl_pcie_rc_pmu_1000000000
P1=mrvl_pcie_rc_pmu_1000100000
I0=$UNCORE_SIM/$P0/inject
I1=$UNCORE_SIM/$P1/inject

EVENTS="ib_tlp_npr:0x00 ib_tlp_pr:0x01 ib_tlp_cpl_partid:0x02
ib_tlp_dwords_npr:0x03 ib_tlp_dwords_pr:0x04 ib_tlp_dwords_cpl_partid:0x05
ib_inflight:0x06 ib_reads:0x07 ib_req_no_ro_ncb:0x08 ib_req_no_ro_ebus:0x09
ob_tlp_npr_partid:0x0a ob_tlp_pr_partid:0x0b ob_tlp_cpl_partid:0x0c
ob_tlp_dwords_npr_partid:0x0d ob_tlp_dwords_pr_partid:0x0e
ob_tlp_dwords_cpl_partid:0x0f ob_inflight_partid:0x10 ob_reads_partid:0x11
ob_merges_npr_partid:0x12 ob_merges_pr_partid:0x13 ob_merges_cpl_partid:0x14
ats_trans:0x15 ats_trans_latency:0x16 ats_pri:0x17 ats_pri_latency:0x18
ats_inv:0x19 ats_inv_latency:0x1a"

# ---- sysfs ----
for p in $P0 $P1; do
	if [ -d "$EV/$p" ]; then
		ok "$p registered"
	else
		not_ok "$p registered" "$(ls $EV)"
	fi
	check_eq "$p format/event" "config:0-5" "$(cat $EV/$p/format/event)"
	check_eq "$p format/ has only event" "event" "$(ls $EV/$p/format)"
	check_eq "$p has 27 events" 27 "$(ls $EV/$p/events | wc -l)"
	bad=""
	for e in $EVENTS; do
		name=${e%%:*}
		want="event=${e#*:}"
		got=$(cat "$EV/$p/events/$name" 2>&1)
		[ "$got" = "$want" ] || bad="$bad $name='$got'"
	done
	check_eq "$p events/* contents" "" "$bad"
	check_one_cpu $p
	check_eq "$p has no associated_cpus" "no" \
		"$([ -e $EV/$p/associated_cpus ] && echo yes || echo no)"
done

# ---- exact counts, every event, named and raw ----
# One perf run counts all of them (PEM counters are free-running, so no
# event waits for another): every event gets a value of its own, so a name
# or a raw id that read another event's counter would show that value.
echo 0 > "$UNCORE_SIM/$P0/stats"
n=100
args=""
inj=""
for e in $EVENTS; do
	name=${e%%:*}
	n=$((n + 7))
	args="$args -e $P0/$name/ -e $P0/event=${e#*:}/"
	inj="${inj}echo 'event=$name value=$n' > $I0; "
done
out=$(perf stat -a -x';' $args -- sh -c "$inj" 2>&1 >/dev/null)
n=100
for e in $EVENTS; do
	name=${e%%:*}
	n=$((n + 7))
	for ev in "$P0/$name/" "$P0/event=${e#*:}/"; do
		check_eq "count $ev" "$n" \
			"$(echo "$out" | awk -F';' -v e="$ev" '$3 == e { print $1 }')"
	done
done
check_eq "driver never wrote a PEM register" 0 "$(sim_stat $P0 mmio_writes)"
r=$(sim_stat $P0 mmio_reads)
if [ "${r:-0}" -gt 0 ]; then
	ok "driver read PEM registers ($r reads)"
else
	not_ok "driver read PEM registers" "mmio_reads='$r'"
fi

# The second PEM counts only its own traffic.
c=$(stat_count "$P1/ib_reads/" \
	"echo 'event=ib_reads value=9' > $I1; echo 'event=ib_reads value=50' > $I0")
check_eq "count $P1/ib_reads/ sees only its own PEM" 9 "$c"

# Several events of one PMU at once, including the same event twice.
out=$(perf stat -a -x';' -e "$P0/ib_tlp_pr/,$P0/ib_tlp_pr/,$P0/ats_inv/" -- \
	sh -c "printf 'event=ib_tlp_pr value=31\nevent=ats_inv value=4\n' > $I0" \
	2>&1 >/dev/null | awk -F';' '{ printf "%s ", $1 }')
check_eq "shared counter read by two events at once" "31 31 4 " "$out"

# ---- two overlapping sessions keep their own deltas ----
set -- $(overlap_sessions $I0 "$P0/ib_inflight/" 'event=ib_inflight value=3' \
	'event=ib_inflight value=5' "$P0/ib_inflight/" 'event=ib_inflight value=7')
check_eq "overlapping session B sees its own delta" 7 "$2"
check_eq "overlapping session A sees all of its window" 15 "$1"

# ---- refused input ----
T=$(pmu_type $P0)
T1=$(pmu_type $P1)
check_eq "errno: event id 0x1b" "errno 22 EINVAL" "$($PERF_OPEN "$T" 0x1b)"
check_eq "errno: event id 0x3f" "errno 22 EINVAL" "$($PERF_OPEN "$T" 0x3f)"
check_eq "errno: config bit 40" "errno 22 EINVAL" "$($PERF_OPEN "$T" 0x10000000000)"
check_eq "errno: config bit 6" "errno 22 EINVAL" "$($PERF_OPEN "$T" 0x40)"
check_eq "errno: config1 set" "errno 22 EINVAL" "$($PERF_OPEN -1 1 "$T" 0)"
check_eq "errno: sampling" "errno 95 EOPNOTSUPP" "$($PERF_OPEN -s 1000 "$T" 0)"
check_eq "errno: per-task (pid, any cpu)" "errno 95 EOPNOTSUPP" "$($PERF_OPEN -p 0 -c -1 "$T" 0)"
check_eq "errno: per-task (pid, cpu 0)" "errno 95 EOPNOTSUPP" "$($PERF_OPEN -p 0 -c 0 "$T" 0)"
check_eq "errno: group with another hardware PMU" "errno 22 EINVAL" \
	"$($PERF_OPEN -L "$T1:0" "$T" 0)"
check_eq "group with a software leader opens" "ok" "$($PERF_OPEN -L 1:0 "$T" 0)"
check_eq "group of two events of this PMU opens" "ok" "$($PERF_OPEN -L "$T:1" "$T" 0)"
check_eq "open on another CPU is accepted" "ok" "$($PERF_OPEN -c 3 "$T" 0)"
check_eq "open id 0x1a (last event)" "ok" "$($PERF_OPEN "$T" 0x1a)"

c=$(stat_count "$P0/event=0x1b/" "true")
check_eq "perf stat event=0x1b is $NOTSUP" "$NOTSUP" "$c"
check_fail "perf record is refused" perf record -a -e "$P0/ib_tlp_npr/" -o /tmp/pem.data -- true
c=$(perf stat -x';' -e "$P0/ib_tlp_npr/" -p 1 -- sleep 0.1 2>&1 |
	awk -F';' '/^No supported events found/ { print; next } NF > 1 { print $1 }')
check_eq "per-task perf stat -p 1 is $NOTSUP" "$NOTSUP" "$c"
# perf 5.10 opens an event of a PMU with a cpumask as pid -1, cpu -1 for
# "-p", which the kernel's core refuses (EINVAL) before any driver sees
# it; later perfs open pid 1, cpu -1, which the driver refuses
err="-95 EOPNOTSUPP"
[ "$PERF_VERSION" != 5.10 ] || err="-22 EINVAL"
c=$(perf stat -vv -x';' -e "$P0/ib_tlp_npr/" -p 1 -- sleep 0.1 2>&1 |
	sed -n 's/.*sys_perf_event_open failed, error \(-[0-9]*\).*/\1/p' | tail -n 1)
check_eq "per-task perf stat -p 1 fails with ${err#* }" "${err% *}" "$c"
# Without -a perf still counts system-wide on the CPU in cpumask.
c=$(perf stat -x';' -e "$P0/ib_tlp_npr/" -- sh -c "echo 'event=ib_tlp_npr value=6' > $I0" \
	2>&1 >/dev/null | awk -F';' '{ print $1 }')
check_eq "perf stat without -a uses cpumask" 6 "$c"
c=$(stat_count "$P0/ib_tlp_npr/" "echo 'event=ib_tlp_npr value=12' > $I0")
check_eq "PMU counts after refused input" 12 "$c"

# ---- CPU hotplug: the active CPU goes offline during an interval run ----
cpu=$(cat $EV/$P0/cpumask)
# x86 from 6.5 cannot take its boot CPU offline (no cpu0/online): there the
# section is left out, said in a "# " line; 30-cmem, 40-c2c and 50-ucf move
# PMUs off CPUs of the second socket on every kernel.
if [ ! -e /sys/devices/system/cpu/cpu$cpu/online ]; then
	echo "# hotplug: left out: CPU $cpu cannot go offline on this kernel"
else
	perf stat -a -x';' -I 200 -o /tmp/pem_hp.out -e "$P0/ob_reads_partid/" -- sh -c "
		echo 'event=ob_reads_partid value=11' > $I0
		sleep 0.5
		echo 0 > /sys/devices/system/cpu/cpu$cpu/online
		sleep 0.5
		echo 'event=ob_reads_partid value=13' > $I0
		sleep 0.5"
	new=$(cat $EV/$P0/cpumask)
	sum=$(awk -F';' '$4 ~ /ob_reads_partid/ && $2 ~ /^[0-9]+$/ { s += $2 }
		END { print s + 0 }' /tmp/pem_hp.out)
	check_eq "hotplug: counts before and after offline all reported" 24 "$sum"
	if [ "$new" != "$cpu" ] && [ -n "$new" ]; then
		ok "hotplug: cpumask moved from $cpu to $new"
	else
		not_ok "hotplug: cpumask moved" "before '$cpu' after '$new'"
	fi
	echo 1 > /sys/devices/system/cpu/cpu$cpu/online
	c=$(stat_count "$P0/ib_tlp_npr/" "echo 'event=ib_tlp_npr value=17' > $I0")
	check_eq "hotplug: counts after the CPU is back" 17 "$c"
fi

# ---- module unload and reload ----
MODDIR=${UNCORE_MODDIR:-/lib/modules-test}
# Each window shows in /proc/iomem as the firmware resource plus the
# driver's request nested in it.
iomem_lines() {
	grep -c 'MRVL000E' /proc/iomem
}
loaded=$(iomem_lines)
# An open event holds a reference on the module: wait for it (perf starts
# slowly under TCG, the arm64 guest's in more than a second).
refs=$(cat /sys/module/marvell_pem_pmu/refcnt)
perf stat -a -e "$P0/ib_tlp_npr/" -- sleep 2 >/dev/null 2>&1 &
spid=$!
i=0
while [ "$(cat /sys/module/marvell_pem_pmu/refcnt)" = "$refs" ] && [ $i -lt 200 ]; do
	sleep 0.1
	i=$((i + 1))
done
check_fail "rmmod with an open event is refused" rmmod marvell_pem_pmu
check_fail "simulator cannot go while the driver is bound" rmmod uncore_sim
wait $spid
check_cmd "rmmod without open events" rmmod marvell_pem_pmu
check_eq "PMUs gone after rmmod" "" "$(ls $EV | grep mrvl_pcie_rc_pmu)"
check_eq "register windows released" "$((loaded - 2))" "$(iomem_lines)"
check_cmd "insmod again" insmod "$MODDIR/marvell_pem_pmu.ko"
check_eq "both PMUs back" "$P0 $P1" "$(ls $EV | grep mrvl_pcie_rc_pmu | tr '\n' ' ' | sed 's/ $//')"
check_eq "register windows requested again" "$loaded" "$(iomem_lines)"
c=$(stat_count "$P0/ats_pri/" "echo 'event=ats_pri value=21' > $I0")
check_eq "counts after reload" 21 "$c"

done_testing
