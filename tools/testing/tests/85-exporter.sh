#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# The exporter daemon (tools/uncore-exporter), built for the guest's
# architecture, on every simulated PMU of the default firmware, as root
# (which keeps no capability either once its events are open):
#  - exact counts through its file: traffic above 2^32 injected into one
#    PMU of each family, then SIGTERM, which writes the interval it cut
#    short: every series the traffic feeds holds exactly the injected sum
#    (a PEM DWORD 4 bytes), and every PMU is in the file;
#  - on arm64, the packaged binary (uncore-pmu-tools cross-built);
#  - its budget: in steady state, per interval, one read() per PMU group
#    and one write() (/proc/PID/io's syscr and syscw), its own resident
#    memory (anonymous and its binary's pages) under 4 MiB;
#  - no capability in any of its five sets once its events are open;
#  - counters left: on the UCF (8 counters) it takes 4 and reads the
#    cycle counter, which every cycles event shares, so that 4 events and
#    cycles of a perf stat count beside it exactly and all the time
#    (100.00), and a 5th event of it takes turns;
#  - a PMU's CPU going offline while it reads, and back: exact counts;
#  - a PMU that registers later: it exits 75 within the interval (the
#    kernel's uevent), and started again counts the new PMU, its totals
#    going on.

. "$(dirname "$0")/lib/lib.sh"

XP=$TESTLIB/uncore-metrics-exporter
MODDIR=${UNCORE_MODDIR:-/lib/modules-test}
D=/tmp/exporter
OUT=$D/uncore.prom
rm -rf $D
mkdir -p $D

# value SERIES: its value in the file
value() {
	awk -v s="$1" 'substr($0, 1, length(s) + 1) == s " " { print $NF }' $OUT
}

# wait_file N: until the file has been replaced N times since ino0
wait_file() {
	_n=0
	_i=0
	while [ $_n -lt "$1" ] && [ $_i -lt 600 ]; do
		_ino=$(stat -c %i $OUT 2>/dev/null)
		if [ -n "$_ino" ] && [ "$_ino" != "$ino0" ]; then
			_n=$((_n + 1))
			ino0=$_ino
		fi
		sleep 0.05
		_i=$((_i + 1))
	done
	[ $_n -ge "$1" ]
}

io() {
	awk -v k="$1:" '$1 == k { print $2 }' /proc/"$pid"/io
}

# ---- exact counts, one PMU of each family ----
ino0=
$XP --output $OUT --interval 600000 2>$D/err &
pid=$!
wait_file 1
check_eq "the first file comes at once, nothing on stderr" "" "$(cat $D/err)"
ours=$(ls $EV | grep -E '^(nvidia_|mrvl_|tad$)' | grep -vc '^nvidia_uncore')
check_eq "every PMU of ours is in the file" "$ours" "$(grep -c '^uncore_pmu_info{' $OUT)"
# module= and version= name the loaded module of the driver bound to the
# PMU (the vendor module where the CoreSight engine bound it), and that
# module's version; before 6.5 a PMU has no device and module= is the
# family's driver, loaded all the same
q='"\([^"]*\)"'
bad=$(sed -n "s/^uncore_pmu_info{pmu=$q.*module=$q,version=$q}.*/\1 \2 \3/p" $OUT |
	while read -r p m v; do
		b=$(basename "$(readlink $EV/$p/device/driver/module 2>/dev/null)")
		[ "$b" != uncore_cspmu ] || b=$m
		[ -e $EV/$p/device ] || b=$m
		[ "$b" = "$m" ] && [ -d /sys/module/$m ] &&
		[ "$(cat /sys/module/$m/version 2>/dev/null)" = "$v" ] ||
			echo "$p: module=$m version=$v, bound $b"
	done)
check_eq "each PMU's module= is its bound driver's, version= that module's" "" "$bad"
caps=$(awk '$1 ~ /^Cap(Inh|Prm|Eff|Bnd|Amb):$/ { print $2 }' /proc/$pid/status | sort -u | xargs)
check_eq "no capability once its events are open, root as it is" 0000000000000000 "$caps"
# Its own memory, anonymous and its binary's pages. VmRSS also counts the
# shared C library's pages that fault-around maps from the page cache,
# which depend on what ran before: the arm64 boot (the dynamic, packaged
# daemon) measured 5580 kB in a make check where 84-guides.sh had run the
# daemon first, and under 4 MiB before
mem() {
	awk -v k="$1:" '$1 == k { print $2 }' /proc/$pid/status
}
own=$(($(mem RssAnon) + $(awk -v x="$(readlink /proc/$pid/exe)" '
	/^[0-9a-f]+-/ { m = ($NF == x) } m && $1 == "Rss:" { s += $2 } END { print s + 0 }' \
	/proc/$pid/smaps)))
echo "# resident: VmRSS $(mem VmRSS) kB, RssAnon $(mem RssAnon) kB, RssFile $(mem RssFile) kB"
# huge pages would make its memory jump by 2 MiB (a THP "always" kernel)
check_eq "no transparent huge pages for it (THP_enabled 0)" 0 "$(mem THP_enabled)"
check_cmd "resident set of its own ${own} kB (anonymous and its binary), under 4 MiB" \
	test "$own" -lt 4096
# on arm64 the daemon is the packaged one (vm-test.sh takes it out of the
# uncore-pmu-tools .deb that make deb cross-builds), on the guest's C library
if [ "$(uname -m)" = aarch64 ]; then
	check_eq "arm64: the packaged daemon, linked with the guest's C library" yes \
		"$(grep -q '/libc\.so' /proc/$pid/maps && echo yes)"
fi

B=5000000017
inject nvidia_ucf_pmu_0 "event=mem_bytes_rd value=$B" "event=slc_bytes_wr value=$((B + 1))"
inject nvidia_cmem_latency_pmu_1 "event=rd_req value=$((B + 2)) instance=3" \
	"event=rd_cum_outs value=$((B + 3)) instance=3"
inject nvidia_pcie_pmu_0_rc_1 "event=rd_bytes value=$((B + 4))" "event=rd_req value=$((B + 5))"
inject nvidia_pcie_tgt_pmu_1_rc_2 "event=wr_bytes value=$((B + 6))"
inject nvidia_nvlink_c2c_pmu_0 "event=in_rd_req value=$((B + 7)) instance=2"
inject mrvl_pcie_rc_pmu_1000000000 "event=ib_tlp_dwords_pr value=$((B + 8))" \
	"event=ib_tlp_pr value=$((B + 9))"
kill -TERM $pid
wait $pid
check_eq "SIGTERM: exit 0" 0 $?
U='pmu="nvidia_ucf_pmu_0",family="ucf",socket="0"'
M='pmu="nvidia_cmem_latency_pmu_1",family="cmem",socket="1"'
P='pmu="nvidia_pcie_pmu_0_rc_1",family="pcie",socket="0",rc="1"'
T='pmu="nvidia_pcie_tgt_pmu_1_rc_2",family="pcie-tgt",socket="1",rc="2"'
L='pmu="nvidia_nvlink_c2c_pmu_0",family="c2c",socket="0"'
E='pmu="mrvl_pcie_rc_pmu_1000000000",family="pem"'
RD=',direction="read"'
WR=',direction="write"'
for x in "uncore_pmu_memory_bytes_total{$U$RD} $B" \
	 "uncore_pmu_cache_bytes_total{$U$WR} $((B + 1))" \
	 "uncore_pmu_cpu_memory_requests_total{$M$RD} $((B + 2))" \
	 "uncore_pmu_cpu_memory_outstanding_request_cycles_total{$M$RD} $((B + 3))" \
	 "uncore_pmu_pcie_bytes_total{$P$RD} $((B + 4))" \
	 "uncore_pmu_pcie_requests_total{$P$RD} $((B + 5))" \
	 "uncore_pmu_pcie_target_bytes_total{$T$WR} $((B + 6))" \
	 "uncore_pmu_link_requests_total{$L,flow=\"inbound\"$RD} $((B + 7))" \
	 "uncore_pmu_pcie_bytes_total{$E,flow=\"inbound\",tlp_type=\"posted\"} $((4 * (B + 8)))" \
	 "uncore_pmu_pcie_tlps_total{$E,flow=\"inbound\",tlp_type=\"posted\"} $((B + 9))"; do
	s=${x% *}
	check_eq "exact through the file: ${s%%\{*} of ${s#*pmu=}" "${x##* }" "$(value "$s")"
done
U1='pmu="nvidia_ucf_pmu_1",family="ucf",socket="1"'
check_eq "a PMU without traffic counts 0" 0 "$(value "uncore_pmu_memory_bytes_total{$U1$RD}")"
check_eq "the UCF's requests are not taken by default (half of the counters)" "" \
	"$(grep "^uncore_pmu_memory_requests_total{$U" $OUT)"

# ---- the budget, the counters left ----
ino0=$(stat -c %i $OUT)
$XP --output $OUT --interval 1000 2>$D/err &
pid=$!
wait_file 2
r0=$(io syscr)
w0=$(io syscw)
wait_file 3
groups=$(grep -c '^uncore_pmu_info{' $OUT)
check_eq "steady state, 3 intervals: a read() per PMU group and one write() each" \
	"$((3 * groups)) 3" "$(($(io syscr) - r0)) $(($(io syscw) - w0))"
inj="printf '%s\\n' 'event=slc_bytes_rd value=123456789' 'event=cycles value=4242'"
inj="$inj > $UNCORE_SIM/nvidia_ucf_pmu_0/inject"
evs=$(for _ in 1 2 3 4; do printf ' -e nvidia_ucf_pmu_0/slc_bytes_rd/'; done)
# shellcheck disable=SC2086 # one word per option
got=$(perf stat -a -x';' $evs -e nvidia_ucf_pmu_0/cycles/ -- sh -c "$inj" 2>&1 >/dev/null |
	awk -F';' '{ printf "%s%s/%s", s, $1, $5; s = " " }')
w=123456789/100.00
check_eq "beside it, 4 UCF events and cycles of perf stat count exactly, all the time" \
	"$w $w $w $w 4242/100.00" "$got"
# shellcheck disable=SC2086 # one word per option
got=$(perf stat -a -x';' $evs -e nvidia_ucf_pmu_0/slc_bytes_rd/ -- sleep 0.3 2>&1 >/dev/null |
	awk -F';' '$5 != "100.00" { n++ } END { print n + 0 }')
check_cmd "a 5th event takes turns: the exporter holds the other 4 ($got not all the time)" \
	test "$got" -gt 0
kill -TERM $pid
wait $pid

# ---- a PMU that registers later ----
# at 2 (upstream's default) as at Debian's 3, opening system-wide needs a
# capability, which root without any has not
PARANOID=/proc/sys/kernel/perf_event_paranoid
old=$(cat $PARANOID)
echo 2 > $PARANOID
check_cmd "rmmod nvidia_t410_c2c_pmu" rmmod nvidia_t410_c2c_pmu
ino0=$(stat -c %i $OUT)
$XP --output $OUT --interval 60000 2>$D/err &
pid=$!
wait_file 1
c0=$(value "uncore_pmu_memory_bytes_total{$U$RD}")
# shellcheck disable=SC2046 # the module's parameters, a word each
check_cmd "insmod nvidia_t410_c2c_pmu" insmod "$MODDIR/nvidia_t410_c2c_pmu.ko" \
	$(cmdline_args nvidia_t410_c2c_pmu)
i=0
while kill -0 $pid 2>/dev/null && [ $i -lt 100 ]; do
	sleep 0.1
	i=$((i + 1))
done
kill -0 $pid 2>/dev/null && kill -KILL $pid
wait $pid
rc=$?
check_eq "a PMU registered: exit 75 within 10 s, not at the 60 s interval" 75 $rc
[ $rc = 75 ] || sed 's/^/# stderr: /' $D/err
check_cmd "it names the new PMUs" grep -q 'nvidia_nvlink_c2c_pmu_0.*to be opened' $D/err
ino0=$(stat -c %i $OUT)
$XP --output $OUT --interval 60000 2>$D/err &
pid=$!
wait_file 1
inject nvidia_ucf_pmu_0 "event=mem_bytes_rd value=1000"
kill -TERM $pid
wait $pid
check_eq "started again, it counts the C2C PMUs" 2 \
	"$(grep -c '^uncore_pmu_info{pmu="nvidia_nvlink_c2c_pmu_' $OUT)"
check_eq "its totals went on across the restart: $c0, then 1000 more" "$((c0 + 1000))" \
	"$(value "uncore_pmu_memory_bytes_total{$U$RD}")"
echo "$old" > $PARANOID

# ---- the PMU's CPU goes offline while it counts ----
# The daemon reads each CPU's groups bound to that CPU; the kernel moves
# socket 1's CMEM PMU to the socket's other CPU, and the CPU the daemon
# knows for it is then refused: its reads go on from where it runs, exact.
cpu=$(cat $EV/nvidia_cmem_latency_pmu_1/cpumask)
$XP --output $OUT --interval 1000 2>$D/err &
pid=$!
wait_file 2
c0=$(value "uncore_pmu_cpu_memory_requests_total{$M$RD}")
echo 0 > /sys/devices/system/cpu/cpu$cpu/online
moved=$(cat $EV/nvidia_cmem_latency_pmu_1/cpumask)
wait_file 2
inject nvidia_cmem_latency_pmu_1 "event=rd_req value=$B instance=3"
wait_file 2
echo 1 > /sys/devices/system/cpu/cpu$cpu/online
inject nvidia_cmem_latency_pmu_1 "event=rd_req value=1000 instance=3"
wait_file 2
kill -TERM $pid
wait $pid
check_eq "CPU $cpu offline under it (the CMEM PMU moved to CPU $moved) and back: exit 0" \
	"0 yes" "$? $([ -n "$moved" ] && [ "$moved" != "$cpu" ] && echo yes)"
# (socket 1's CoreSight PMUs have that CPU alone: their reads fail while
# it is away, and the daemon closes them, to be opened by a restart)
check_eq "the CMEM PMU's group was never closed" "" \
	"$(grep 'nvidia_cmem_latency_pmu_1:' $D/err)"
check_eq "every request counted across the move, exactly" "$((c0 + B + 1000))" \
	"$(value "uncore_pmu_cpu_memory_requests_total{$M$RD}")"

done_testing
