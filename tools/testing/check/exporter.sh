#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The exporter daemon (tools/uncore-exporter) on the host, TAP lines:
#  - built warning-free (-Wall -Wextra -Werror), once plain and once with
#    ASan and UBSan; its unit tests (sysfs parsing) under the sanitizers;
#  - run, under the sanitizers, against a fake sysfs whose PMUs are the
#    kernel's software PMU (type 1): cpu-clock stands in for cycles and
#    the dummy event for the rest. A stand-in for the uncore PMUs, which
#    the guests count for real; here it shows the daemon's own work: the
#    file's series, one read() per PMU group per interval and no other
#    system call than the file's (the budget), no capability left while
#    it runs, the totals kept across a restart and a kill, SIGTERM
#    writing the last interval, exit 75 for a PMU that needs opening, and
#    each bad setting failing at start with one message.
# Needs root (system-wide software events), gcc, strace.
set -u

HERE=$(cd "$(dirname "$0")" && pwd)
REPO=$(cd "$HERE/../../.." && pwd)
SRC=$REPO/tools/uncore-exporter
W=$(mktemp -d)
trap 'kill $(jobs -p) 2>/dev/null; rm -rf "$W"' EXIT
N=0
FAILED=0
ok() { N=$((N + 1)); echo "ok $N - $1"; }
not_ok() {
	N=$((N + 1)); FAILED=$((FAILED + 1)); echo "not ok $N - $1"
	[ $# -lt 2 ] || sed 's/^/    /' "$2" | head -n 30
}
check() { if [ "$2" = "$3" ]; then ok "$1"; else echo "# want '$2', got '$3'"; not_ok "$1"; fi; }
# check_rel DESC A B EXPR: EXPR, in awk, holds of a=A and b=B
check_rel() {
	if awk -v a="$2" -v b="$3" "BEGIN { exit !($4) }"; then
		ok "$1 ($2 then $3)"
	else
		not_ok "$1: $2 then $3"
	fi
}

for t in gcc strace; do
	command -v $t >/dev/null || { not_ok "$t is needed (deps.sh installs it)"; exit 1; }
done
[ "$(id -u)" = 0 ] || { not_ok "the daemon's tests need root"; exit 1; }

FLAGS="-std=gnu11 -g -Wall -Wextra -Werror"
SAN="-O1 -fsanitize=address,undefined -fno-sanitize-recover=all"
SRCS="$SRC/uncore-metrics-exporter.c $SRC/uxp_parse.c $SRC/uxp_vocab.c"
# shellcheck disable=SC2086 # word splitting wanted
if gcc $FLAGS -O2 -o "$W/plain" $SRCS >"$W/b1" 2>&1 &&
   gcc $FLAGS $SAN -o "$W/xp" $SRCS >"$W/b2" 2>&1 &&
   gcc $FLAGS $SAN -o "$W/unit" "$SRC/tests/test_uxp.c" "$SRC/uxp_parse.c" \
	"$SRC/uxp_vocab.c" >"$W/b3" 2>&1; then
	ok "built with -Wall -Wextra -Werror, plain and with ASan/UBSan"
else
	cat "$W"/b? >"$W/b"
	not_ok "build" "$W/b"
	exit 1
fi

if "$W/unit" >"$W/unit.out" 2>&1 && ! grep -q '^not ok' "$W/unit.out"; then
	ok "unit tests: $(grep -c '^ok' "$W/unit.out") of sysfs parsing and vocabulary"
else
	not_ok "unit tests" "$W/unit.out"
fi

# waitfor PID SECONDS: its exit status, or 124 (and a kill) after SECONDS
waitfor() {
	local i=0
	while kill -0 "$1" 2>/dev/null && [ $i -lt $(($2 * 10)) ]; do
		sleep 0.1
		i=$((i + 1))
	done
	kill -0 "$1" 2>/dev/null && { kill -KILL "$1"; wait "$1" 2>/dev/null; return 124; }
	wait "$1"
}

# shellcheck source=exporter-sysfs.sh
. "$HERE/exporter-sysfs.sh"
FS=$W/sysfs
pmu() { xp_pmu "$FS" "$@"; }
xp_sysfs "$FS"
export UNCORE_METRICS_SYSFS=$FS UNCORE_METRICS_MODULES=$W/modules
mkdir -p "$W/modules/nvidia_t410_cmem_latency_pmu"
echo 1.2.3 >"$W/modules/nvidia_t410_cmem_latency_pmu/version"
OUT=$W/out/uncore.prom
mkdir -p "$W/out"

series() { xp_series "$1"; }
# value FILE SERIES
value() { awk -v s="$2" 'substr($0, 1, length(s) + 1) == s " " { print $NF }' "$1"; }

timeout 30 "$W/xp" --output "$OUT" --interval 200 --count 3 2>"$W/err"
check "three intervals, exit 0, nothing on stderr" "0:" "$?:$(cat "$W/err")"
U='pmu="nvidia_ucf_pmu_1",family="ucf",socket="1"'
M='pmu="nvidia_cmem_latency_pmu_0",family="cmem",socket="0"'
RD=',direction="read"'
cat >"$W/want" <<S
uncore_pmu_cycles_total{$U}
uncore_pmu_cycles_total{$M}
uncore_pmu_memory_bytes_total{$U$RD}
uncore_pmu_memory_bytes_total{$U,direction="write"}
uncore_pmu_cpu_memory_requests_total{$M$RD}
uncore_pmu_cpu_memory_outstanding_request_cycles_total{$M$RD}
uncore_pmu_events_enabled_seconds_total{$U}
uncore_pmu_events_enabled_seconds_total{$M}
uncore_pmu_events_running_seconds_total{$U}
uncore_pmu_events_running_seconds_total{$M}
uncore_pmu_info{$U,identifier="",module="nvidia_t410_ucf_pmu",version=""}
uncore_pmu_info{$M,identifier="NVIDIA CMEM",module="nvidia_t410_cmem_latency_pmu",version="1.2.3"}
uncore_pmu_interval_seconds
uncore_pmu_exporter_last_write_timestamp_seconds
S
series "$OUT" >"$W/got"
if diff -u "$W/want" "$W/got" >"$W/d"; then
	ok "the file's series, in order, with their labels"
else
	not_ok "the file's series" "$W/d"
fi
check "HELP and TYPE for each of the 9 metrics" "9 9" \
	"$(grep -c '^# HELP' "$OUT") $(grep -c '^# TYPE' "$OUT")"

# --list: the events of the groups a start opens, as perf stat -e takes
# them (make bench gives perf stat the daemon's own events so), in the
# file's PMU order; no file written
# (the fake sysfs: software PMUs, its events 9, the dummy, and 0, the clock)
cat >"$W/list.want" <<S
nvidia_ucf_pmu_1/config=0x9,config1=0,config2=0/
nvidia_ucf_pmu_1/config=0x9,config1=0,config2=0/
nvidia_ucf_pmu_1/config=0,config1=0,config2=0/
nvidia_cmem_latency_pmu_0/config=0x9,config1=0,config2=0/
nvidia_cmem_latency_pmu_0/config=0x9,config1=0,config2=0/
nvidia_cmem_latency_pmu_0/config=0,config1=0,config2=0/
S
timeout 30 "$W/xp" --list >"$W/list" 2>"$W/err"
check "--list: exit 0, nothing on stderr" "0:" "$?:$(cat "$W/err")"
check "--list: each event of the two groups, raw" "$(cat "$W/list.want")" "$(cat "$W/list")"
check "--list writes no file" "uncore.prom uncore.prom.state" \
	"$(ls "$W/out" | tr '\n' ' ' | sed 's/ $//')"

# module= names the driver bound to the PMU's device (6.5 on; above, with
# no device link, as before 6.5: our driver of the family): the kernel's
# own CoreSight driver where it registered the PMU, the vendor module
# where our CoreSight engine did
mkdev() {
	mkdir -p "$W/dev/$1" "$W/drv/$2" "$W/mod/$3"
	ln -sfn "$W/mod/$3" "$W/drv/$2/module"
	ln -sfn "$W/drv/$2" "$W/dev/$1/driver"
	ln -sfn "$W/dev/$1" "$FS/$4/device"
}
mkdev cmem0 cmem nvidia_t410_cmem_latency_pmu nvidia_cmem_latency_pmu_0
mkdev cspmu1 arm-cs-arch-pmu arm_cspmu_module nvidia_ucf_pmu_1
timeout 30 "$W/xp" --output "$W/mod.prom" --interval 100 --count 1 2>"$W/err"
w1="uncore_pmu_info{$U,identifier=\"\",module=\"arm_cspmu_module\",version=\"\"} 1"
w2="uncore_pmu_info{$M,identifier=\"NVIDIA CMEM\",module=\"nvidia_t410_cmem_latency_pmu\""
check "module= of the kernel's own driver bound to the UCF, with no version" \
	"$w1
$w2,version=\"1.2.3\"} 1" "$(grep '^uncore_pmu_info{' "$W/mod.prom")"
mkdev cspmu1 uncore-cspmu uncore_cspmu nvidia_ucf_pmu_1
timeout 30 "$W/xp" --output "$W/mod.prom" --interval 100 --count 1 2>"$W/err"
check "module= of the vendor module where our CoreSight engine registered the UCF" \
	"uncore_pmu_info{$U,identifier=\"\",module=\"nvidia_t410_ucf_pmu\",version=\"\"} 1" \
	"$(grep '^uncore_pmu_info{pmu="nvidia_ucf_pmu_1"' "$W/mod.prom")"
rm -f "$FS/nvidia_cmem_latency_pmu_0/device" "$FS/nvidia_ucf_pmu_1/device"

# The vocabulary, against the textfile check/prometheus.sh lints the
# recording rules and the dashboard with (tools/uncore-metrics/fixtures/
# all.prom, from recorded perf output of every Tegra410 family and the
# PEM): on a fake sysfs with the PMUs and events of that recording
# (perf-all.csv), every event taken, the daemon writes exactly those
# counter series, labels included, and the same HELP and TYPE lines.
# (grace.prom and odyssey.prom hold the last interval's PMUs of
# recordings whose events perf spelled as raw terms: not comparable so.)
FIX=$REPO/tools/uncore-metrics/fixtures
for f in all; do
	s=$W/voc-$f
	mkdir -p "$s"
	awk -F, '$4 ~ /^[a-z0-9_]+[.][a-z0-9_]+$/ {
			split($4, a, ".")
			if (!((a[1], a[2]) in seen)) ev[a[1]] = ev[a[1]] " " a[2] "=9"
			seen[a[1], a[2]] = 1
		}
		END { for (p in ev) print p ev[p] }' "$FIX/perf-$f.csv" >"$s.pmus"
	while read -r p evs; do
		# shellcheck disable=SC2086 # one word per event
		xp_pmu "$s" "$p" 1 $evs
	done <"$s.pmus"
	UNCORE_METRICS_SYSFS=$s timeout 30 "$W/xp" --output "$W/voc.prom" --interval 100 \
		--count 1 --counters all 2>"$W/err"
	grep -E '^(# (HELP|TYPE) uncore_pmu_[a-z_]*_total |uncore_pmu_[a-z_]*_total\{)' \
		"$FIX/$f.prom" | sed 's/} [^ ]*$/}/' | sort >"$W/voc.want"
	grep -E '^(# (HELP|TYPE) uncore_pmu_[a-z_]*_total |uncore_pmu_[a-z_]*_total\{)' \
		"$W/voc.prom" | sed 's/} [^ ]*$/}/' | sort >"$W/voc.got"
	if [ -s "$W/voc.want" ] && diff -u "$W/voc.want" "$W/voc.got" >"$W/d"; then
		n=$(grep -c '_total{' "$W/voc.want")
		ok "$f.prom: the same $n counter series and their HELP"
	else
		not_ok "$f.prom: the daemon's counter series and HELP differ" "$W/d"
	fi
	rm -f "$W/voc.prom" "$W/voc.prom.state"
done
C="uncore_pmu_cpu_memory_requests_total{$M$RD}"
check "a count of nothing is exactly 0" 0 "$(value "$OUT" "$C")"
CY="uncore_pmu_cycles_total{$M}"
E="uncore_pmu_events_enabled_seconds_total{$M}"
R="uncore_pmu_events_running_seconds_total{$M}"
c1=$(value "$OUT" "$CY")
# cpu-clock: the nanoseconds the group ran; 3 events, each enabled alike
if awk -v c="$c1" -v e="$(value "$OUT" "$E")" -v r="$(value "$OUT" "$R")" \
	'BEGIN { exit !(c > 0.5e9 && c < 1e9 && e == r && e > 3 * 0.55 && e < 3 * 1.0) }'; then
	ok "the clock counted 0.6 s, enabled = running, summed over 3 events ($c1 ns)"
else
	not_ok "the clock counted 0.6 s, enabled = running: $c1 ns," \
		"$(value "$OUT" "$E"), $(value "$OUT" "$R")"
fi
files() { ls "$W/out" | tr '\n' ' ' | sed 's/ $//'; }
check "no temporary file is left" "uncore.prom uncore.prom.state" "$(files)"

# the totals go on from the state file, which the next start takes up
timeout 30 "$W/xp" --output "$OUT" --interval 200 --count 1 2>"$W/err"
c2=$(value "$OUT" "$CY")
check_rel "a restart adds to the totals of the run before" "$c1" "$c2" \
	'b - a > 0.15e9 && b - a < 0.5e9'
# killed: the last textfile is the state
"$W/xp" --output "$OUT" --interval 200 2>"$W/err" &
pid=$!
sleep 1
kill -KILL $pid
wait $pid 2>/dev/null
c3=$(value "$OUT" "$CY")
check "a kill leaves a whole file, no temporary" "uncore.prom" "$(files)"
timeout 30 "$W/xp" --output "$OUT" --interval 200 --count 1 2>"$W/err"
c4=$(value "$OUT" "$CY")
check_rel "after a kill the totals go on from the last file" "$c3" "$c4" 'b > a && a > 0'

# SIGTERM: the last interval written, exit 0; no capability meanwhile
"$W/plain" --output "$OUT" --interval 60000 2>"$W/err" &
pid=$!
sleep 1
check "the first file gives the interval it waits for (the stale alert allows four)" \
	60.000000000 "$(value "$OUT" uncore_pmu_interval_seconds)"
caps=$(awk '/^Cap(Inh|Prm|Eff|Bnd|Amb):/ { printf "%s%s ", $1, $2 }' /proc/$pid/status)
check "no capability while it runs (inheritable, permitted, effective, bounding, ambient)" \
	"$(for c in Inh Prm Eff Bnd Amb; do printf 'Cap%s:0000000000000000 ' $c; done)" "$caps"
kill -TERM $pid
waitfor $pid 5
rc=$?
iv=$(value "$OUT" uncore_pmu_interval_seconds)
if [ $rc = 0 ] && awk -v i="$iv" 'BEGIN { exit !(i > 0.5 && i < 5) }'; then
	ok "SIGTERM writes the interval it cut short ($iv s) and exits 0"
else
	not_ok "SIGTERM: exit $rc, last interval $iv s"
fi

# the budget: in steady state, per interval, one read() per PMU group,
# the file's openat, write, close and rename, and the wait (ppoll)
rm -f "$OUT".state
timeout 30 strace -f -qq -o "$W/st" "$W/plain" --output "$OUT" --interval 100 --count 6 2>"$W/err"
# the system calls between the 4th and 5th rename of the textfile
awk '/rename\(/ && /uncore\.prom"\)/ { n++; next }
	n == 4 { sub(/^[0-9]+ +/, ""); sub(/\(.*/, ""); print }' "$W/st" |
	sort | uniq -c | awk '{ printf "%s:%s ", $2, $1 }' >"$W/calls"
# with a sysfs of the tests' making there are no uevents: the daemon
# then lists sysfs each interval (openat, getdents64 twice, close);
# with uevents (the real sysfs) these go and ppoll waits on both
check "steady state: 2 group reads, the file's 4 calls, the wait, the look at sysfs" \
	"clock_nanosleep:1 close:2 getdents64:2 newfstatat:1 openat:2 read:2 write:1 " \
	"$(cat "$W/calls")"

# a new PMU, once the capabilities are gone: exit 75 to be started again
"$W/xp" --output "$OUT" --interval 200 2>"$W/err" &
pid=$!
sleep 1
pmu nvidia_cmem_latency_pmu_1 1 cycles=0 rd_req=9
waitfor $pid 5
rc=$?
check "a PMU that registers later: exit 75, the totals saved" "75 yes" \
	"$rc $([ -s "$OUT.state" ] && echo yes)"
check "it says why, once" "uncore-metrics-exporter: nvidia_cmem_latency_pmu_1: to be opened;$(
	) exiting to be started again with the capabilities opening needs" "$(cat "$W/err")"
timeout 30 "$W/xp" --output "$OUT" --interval 200 --count 1 2>"$W/err"
check "started again, it counts the new PMU and says nothing more" "0 1" \
	"$(grep -c . "$W/err") $(grep -c '^uncore_pmu_info{pmu="nvidia_cmem_latency_pmu_1"' "$OUT")"
rm -rf "$FS/nvidia_cmem_latency_pmu_1"

# a PMU whose open fails: named once, across the restarts it asks for;
# not before --retry seconds
pmu nvidia_ucf_pmu_2 99999 cycles=0
timeout 30 "$W/xp" --output "$OUT" --interval 200 --count 3 --retry 5 2>"$W/err"
check "--retry 5: no restart within 0.6 s, the failure named" "0 1" "$? $(grep -c . "$W/err")"
rm -f "$OUT.state"
timeout 30 "$W/xp" --output "$OUT" --interval 200 --count 5 --retry 0 2>"$W/err1"
rc1=$?
timeout 30 "$W/xp" --output "$OUT" --interval 200 --count 5 --retry 0 2>"$W/err2"
rc2=$?
check "a PMU whose open fails: exit 75 each run, one message over two runs" "75 75 1 1" \
	"$rc1 $rc2 $(cat "$W/err1" "$W/err2" | grep -c .) $(grep -c \
	'nvidia_ucf_pmu_2: perf_event_open: No such file or directory; retried' "$W/err1")"
grep -q '^uncore_pmu_info{pmu="nvidia_cmem_latency_pmu_0"' "$OUT"
check "the others are counted meanwhile" 0 $?
rm -rf "$FS/nvidia_ucf_pmu_2" "$OUT.state"

# the real sysfs: a uevent of an event source (the software PMU's, made
# again here) ends the interval at once, 0.2 s later, not at its 60 s
rm -f "$OUT.state"
env -u UNCORE_METRICS_SYSFS "$W/plain" --output "$OUT" --interval 60000 2>"$W/err" &
pid=$!
sleep 1
check "the first file gives the interval it waits for (the stale alert allows four)" \
	60.000000000 "$(value "$OUT" uncore_pmu_interval_seconds)"
ino=$(stat -c %i "$OUT")
echo add >/sys/bus/event_source/devices/software/uevent
sleep 1
ino2=$(stat -c %i "$OUT")
kill -TERM $pid
waitfor $pid 5
check "a uevent of an event source ends the interval within a second" yes \
	"$([ "$ino" != "$ino2" ] && echo yes)"

# bad settings: exit 2 (usage) or 1, one message, before any interval
bad() {
	local want_rc=$1 want=$2
	shift 2
	rm -f "$OUT"
	timeout 30 "$W/xp" "$@" --interval 200 --count 1 >/dev/null 2>"$W/err"
	check "$* fails: $want" "$want_rc $want" "$? $(head -n 1 "$W/err")"
	[ ! -e "$OUT" ] || not_ok "$*: a file was written"
}
mkdir -p "$W/dir"
bad 1 "uncore-metrics-exporter: --output $W/dir: is a directory; give the file's name" \
	--output "$W/dir"
bad 1 "uncore-metrics-exporter: --output $W/none/f.prom: cannot write $(
	)$W/none/f.prom.tmp: No such file or directory" \
	--output "$W/none/f.prom"
bad 2 "uncore-metrics-exporter: unknown option '--famly'" --output "$OUT" --famly ucf
bad 2 "uncore-metrics-exporter: --family: no family 'ufc' (ucf, pcie, pcie-tgt, cmem, $(
	)c2c, nvclink, nvdlink, scf, grace-pcie, nvlink-c2c0, nvlink-c2c1, cnvlink, pem, $(
	)ddr, tad)" \
	--output "$OUT" --family ufc
bad 2 "uncore-metrics-exporter: --interval: '5' is not a number from 100 to 86400000" \
	--output "$OUT" --interval 5
bad 2 "uncore-metrics-exporter: --socket: 'a' is not a socket number" --output "$OUT" -s a
bad 2 "uncore-metrics-exporter: --counters: 'some' is not a number from 1 to 64" \
	--output "$OUT" --counters some
bad 2 "uncore-metrics-exporter: --output FILE is needed"
timeout 30 "$W/xp" --check --family pem 2>"$W/err"
check "--check: no PMU selected, exit 1, said once" \
	"1 uncore-metrics-exporter: no PMU of the families and sockets selected in $FS" \
	"$? $(cat "$W/err")"
timeout 30 "$W/xp" --check --family cmem --socket 0 2>"$W/err"
check "--check: a PMU selected, exit 0" "0" "$?$(cat "$W/err")"
timeout 30 "$W/xp" --check --famly cmem 2>"$W/err"
check "--check: a bad setting is exit 255, a failure to systemd, not a skip" "255" "$?"

echo "1..$N"
[ $FAILED = 0 ]
