#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# The operator guest's test (tools/testing/operator/README.md): run once
# per boot by uncore-operator-test.service, after the boot has settled,
# TAP on stdout (the unit sends it to the results port). The scenario is
# the kernel command line's uncore_test.scenario=:
#   boot   the simulated hardware is there at boot (uncore-sim-test.service,
#          the one stand-in); the kernel command line keeps udev from
#          loading nvidia_t410_c2c_pmu (modprobe.blacklist=), which this
#          test loads a minute after the others; then node_exporter,
#          the unit's sandbox, no capability, coexistence (half of the
#          counters left, unscaled), README's stop and remove
#   late   the simulator is loaded only after the exporter's first start
#          attempt, with traffic at known rates; Debian's Prometheus
#          evaluates our rules, alerts and dashboard queries on it
#          (prometheus-test.sh); then the condition with arguments no PMU
#          satisfies (skipped), and settings that are wrong (failed)
# Everything else is the operator's: Debian's systemd, udev, perf,
# prometheus-node-exporter, prometheus and our .debs as README installs
# them.

. /usr/local/lib/uncore-test/lib/lib.sh
. /usr/local/lib/uncore-test/prometheus-test.sh

UNIT=uncore-metrics-exporter.service
TEXTFILE=/var/lib/prometheus/node-exporter/uncore-pmu.prom
RUNFILE=/run/uncore-metrics/uncore-pmu.prom
README=/usr/local/lib/uncore-test/README.md
export UNCORE_SIM=/sys/kernel/debug/uncore_sim
scenario=$(tr ' ' '\n' </proc/cmdline | sed -n 's/^uncore_test.scenario=//p')

# wait_for SECS CMD...: until CMD succeeds, at most SECS seconds
wait_for() {
	w=$1
	shift
	while ! "$@" >/dev/null 2>&1; do
		[ "$w" -gt 0 ] || return 1
		sleep 1
		w=$((w - 1))
	done
}

# expected: the PMU names of the simulated devices, sorted
expected() {
	awk '{ print $1 }' $UNCORE_SIM/devices | sort
}

# prom_pmus FILE: the PMU names a textfile has series of, sorted
prom_pmus() {
	sed -n 's/.*[{,]pmu="\([^"]*\)".*/\1/p' "$1" 2>/dev/null | sort -u
}

# have_pmus LIST: the textfile has series of exactly the PMUs of LIST
have_pmus() {
	[ "$(prom_pmus $TEXTFILE | xargs)" = "$1" ]
}

# all_counted: the textfile has series of every simulated PMU
all_counted() {
	have_pmus "$(expected | xargs)"
}

uprop() {
	systemctl show -p "$1" --value $UNIT
}

# udev_wants: the event sources whose add made udev ask systemd for the
# exporter (SYSTEMD_WANTS in udev's database), sorted
udev_wants() {
	for d in /sys/bus/event_source/devices/*; do
		udevadm info -q property "$(readlink -f "$d")" 2>/dev/null |
			grep -q "^SYSTEMD_WANTS=.*$UNIT" && basename "$d"
	done | sort
}

# failures: the exporter's restarts since restarts0 that were not its
# own exit 75 (a PMU to open), from the journal since the boot
failures() {
	journalctl -b -u $UNIT -o cat 2>/dev/null |
		grep -cE 'Failed with result|code=(killed|dumped)'
}

# check_exporter_counts_all WHAT: the exporter runs, it never failed
# (its restarts were its own exit 75, for a PMU to open), and within a
# minute its textfile (through the link) has series of every simulated PMU
check_exporter_counts_all() {
	if wait_for 150 all_counted; then
		ok "$1: the exporter counts every PMU ($(expected | wc -l))"
	else
		not_ok "$1: the exporter counts every PMU" \
			"missing: $(expected | grep -vxF "$(prom_pmus $TEXTFILE)" | xargs)" \
			"unit: $(uprop ActiveState)/$(uprop Result), NRestarts $(uprop NRestarts)"
	fi
	check_eq "$1: the exporter never failed (restarts: exit 75 only)" \
		"active/running 0" "$(uprop ActiveState)/$(uprop SubState) $(failures)"
}

# no_caps: every process of the unit, each of its five capability sets
no_caps() {
	for p in $(cat "/sys/fs/cgroup$(uprop ControlGroup)/cgroup.procs"); do
		awk '$1 ~ /^Cap(Inh|Prm|Eff|Bnd|Amb):$/ { print $2 }' /proc/"$p"/status
	done | sort -u | xargs
}

# total SERIES: its value in the textfile
total() {
	awk -v s="$1" 'substr($0, 1, length(s) + 1) == s " " { print $NF }' $TEXTFILE
}

# bad_setting WHAT LINE MESSAGE: with LINE in /etc/default/uncore-metrics
# (the others as shipped) the unit fails at start, with MESSAGE in its
# journal, once
bad_setting() {
	cp /etc/default/uncore-metrics /tmp/default.ok
	sed -i '/^UNCORE_METRICS_ARGS=/d; /^UNCORE_METRICS_INTERVAL=/d' /etc/default/uncore-metrics
	printf '%s\n' "$2" >>/etc/default/uncore-metrics
	since=$(date '+%Y-%m-%d %H:%M:%S')
	systemctl reset-failed $UNIT 2>/dev/null
	systemctl start $UNIT 2>/dev/null
	wait_for 20 test "$(uprop ActiveState)" = failed
	check_eq "$1: the unit failed, not skipped" failed "$(uprop ActiveState)"
	check_eq "$1: its journal says why, once" 1 \
		"$(journalctl -u $UNIT --since "$since" -o cat | grep -cF "$3")"
	cp /tmp/default.ok /etc/default/uncore-metrics
	systemctl reset-failed $UNIT 2>/dev/null
}

restarts0=0
echo "# scenario $scenario, kernel $(uname -r), perf $(perf version 2>&1)"
st=$(systemctl is-system-running --wait 2>&1)
check_eq "the system came up ($(systemctl --failed --plain --no-legend | xargs))" running "$st"

# Debian's kernels refuse perf_event_open() to all but CAP_SYS_ADMIN at
# their default paranoid level 3: no package of ours lowers it
check_eq "kernel.perf_event_paranoid is Debian's default 3, untouched" 3 \
	"$(cat /proc/sys/kernel/perf_event_paranoid)"
check_eq "no sysctl.d file of ours" "" \
	"$(ls /usr/lib/sysctl.d /etc/sysctl.d 2>/dev/null | grep uncore)"

case $scenario in
boot)
	# udev loaded the drivers when the simulator's devices appeared (the
	# CoreSight PMU ones through uncore_cspmu, which asks for each
	# product's module; the firmware has no generic NVIDIA PMU)
	for m in uncore_pmu uncore_cspmu marvell_pem_pmu nvidia_t410_cmem_latency_pmu \
		 nvidia_t410_ucf_pmu nvidia_t410_pcie_pmu nvidia_t410_pcie_tgt_pmu; do
		f=$(modinfo -n $m | sed 's|.*/lib/modules/[^/]*/||')
		check_cmd "udev loaded $m, from $f" test -d /sys/module/$m
	done
	check_fail "nvidia_t410_c2c_pmu was held back (modprobe.blacklist=)" \
		test -d /sys/module/nvidia_t410_c2c_pmu
	check_eq "every APMT node found the ACPI device it names" "" \
		"$(dmesg | grep 'names no ACPI device')"
	t0=$(cut -d. -f1 /proc/uptime)
	wait_for 60 test "$(uprop ActiveState)" = active
	check_eq "$UNIT started by itself" active/running "$(uprop ActiveState)/$(uprop SubState)"
	check_eq "$TEXTFILE is the link to $RUNFILE" $RUNFILE "$(readlink $TEXTFILE)"
	pid=$(uprop MainPID)
	uid=$(awk '$1 == "Uid:" { print $2 }' /proc/"$pid"/status)
	check_cmd "the exporter runs as a dynamic user (uid $uid)" \
		test "$uid" -ge 61184 -a "$uid" -le 65519
	cg=/sys/fs/cgroup$(uprop ControlGroup)
	# what the C2C driver's PMUs are, for the late load
	re='^nvidia_(nvlink_c2c|nvclink|nvdlink)_pmu_'
	c2c=$(expected | grep -E "$re" | xargs)
	others=$(expected | grep -vE "$re" | xargs)
	wait_for 150 have_pmus "$others"
	check_eq "the exporter counts every PMU but the C2C driver's" "$others" \
		"$(prom_pmus $TEXTFILE | xargs)"
	# steady state: one process, the daemon, no capability in any of the
	# five sets of it (the bounding set included)
	check_eq "the unit is one process, the daemon (no perf, no shell)" uncore-metrics- \
		"$(for p in $(cat "$cg"/cgroup.procs); do cat /proc/"$p"/comm; done 2>/dev/null |
		xargs)"
	check_eq "no capability in steady state: inheritable, permitted, effective, bounding, amb" \
		0000000000000000 "$(no_caps)"
	pid=$(uprop MainPID)
	ucf='uncore_pmu_memory_bytes_total{pmu="nvidia_ucf_pmu_0",family="ucf",socket="0",'
	ucf="${ucf}direction=\"read\"}"
	echo "event=mem_bytes_rd value=1000000" >$UNCORE_SIM/nvidia_ucf_pmu_0/inject
	wait_for 10 test "$(total "$ucf")" -ge 1000000
	before=$(total "$ucf")
	# a minute after the others
	sleep $((60 - ($(cut -d. -f1 /proc/uptime) - t0) ))
	check_cmd "modprobe nvidia_t410_c2c_pmu, a minute after the others" \
		modprobe nvidia_t410_c2c_pmu
	check_exporter_counts_all "C2C loaded a minute late"
	# the daemon, without capabilities, cannot open them: it exits 75
	# and systemd starts it again with them; its totals go on
	check_cmd "a new exporter process picked them up (exit 75)" \
		test "$pid" != "$(uprop MainPID)"
	check_eq "the journal says why, once" 1 \
		"$(journalctl -b -u $UNIT -o cat | grep -c 'to be opened; exiting to be started')"
	check_cmd "its totals went on across the restart ($before, then $(total "$ucf"))" \
		test "$(total "$ucf")" -ge "$before"
	check_eq "no capability after the restart either" 0000000000000000 "$(no_caps)"
	check_eq "the C2C PMUs are among them" "$c2c" \
		"$(prom_pmus $TEXTFILE | grep -E "$re" | xargs)"
	# 60-uncore-pmu.rules, by PMU name: nvidia_*, mrvl_* and the
	# LLC-TAD's bare tad, and no other event source (cpu, software...)
	check_eq "udev asked systemd for the exporter on every simulated PMU's add, no other" \
		"$(expected | xargs)" "$(udev_wants | xargs)"

	# node_exporter, Debian's, on loopback, serves the file
	wait_for 60 curl -sf http://127.0.0.1:9100/metrics
	curl -sf http://127.0.0.1:9100/metrics >/tmp/metrics
	check_eq "node_exporter serves our series of every PMU" "$(expected | xargs)" \
		"$(prom_pmus /tmp/metrics | xargs)"
	check_eq "node_exporter read the textfile without error" 0 \
		"$(sed -n 's/^node_textfile_scrape_error //p' /tmp/metrics)"

	# the unit's sandbox, measured here
	score=$(systemd-analyze security $UNIT 2>&1 |
		sed -n 's/.*Overall exposure level for [^:]*: \([0-9.]*\) .*/\1/p')
	echo "# systemd-analyze security $UNIT: $score"
	check_cmd "systemd-analyze security scores $score, 2.0 or lower" \
		awk -v s="$score" 'BEGIN { exit !(s != "" && s + 0 <= 2.0) }'

	# coexistence: the running exporter holds the modules
	check_fail "modprobe -r nvidia_t410_ucf_pmu is refused while the exporter runs" \
		modprobe -r nvidia_t410_ucf_pmu
	[ -d /sys/module/nvidia_t410_ucf_pmu ] || modprobe nvidia_t410_ucf_pmu
	# it leaves half of the UCF's 8 counters and shares the cycle
	# counter: 4 events and cycles of an operator's perf stat count
	# beside it, exactly and all the time (running = enabled, perf's
	# percentage 100.00), as does README's quick start
	inj="printf '%s\\n' 'event=slc_bytes_rd value=123456789' 'event=cycles value=987654'"
	inj="$inj > $UNCORE_SIM/nvidia_ucf_pmu_0/inject"
	evs=$(for _ in 1 2 3 4; do printf ' -e nvidia_ucf_pmu_0/slc_bytes_rd/'; done)
	# shellcheck disable=SC2086 # one word per option
	got=$(perf stat -a -x';' $evs -e nvidia_ucf_pmu_0/cycles/ -- sh -c "$inj" 2>&1 >/dev/null |
		awk -F';' '{ printf "%s%s/%s", s, $1, $5; s = " " }')
	w="123456789/100.00"
	check_eq "exporter running: half the UCF's counters and cycles count exactly, unscaled" \
		"$w $w $w $w 987654/100.00" "$got"
	qs=$(sed -n '/^## Quick start/,/^## /p' $README |
		grep -E '^    perf stat .*nvidia_ucf_pmu_0' |
		sed 's/^    //; s/ sleep 1$//')
	inj="echo 'event=slc_bytes_rd value=5555 src=loc_cpu dst=loc_cmem'"
	inj="$inj > $UNCORE_SIM/nvidia_ucf_pmu_0/inject"
	# shellcheck disable=SC2086 # the quick start's words
	got=$(perf stat ${qs#perf stat} -x';' -- sh -c "$inj" 2>&1 >/dev/null |
		awk -F';' '{ print $1 "/" $5 }')
	check_eq "with the exporter running, README's quick start counts exactly, unscaled: $qs" \
		5555/100.00 "$got"
	# README's one command pauses it; an ad-hoc count is then exact
	check_cmd "systemctl stop uncore-metrics-exporter" systemctl stop $UNIT
	check_fail "the textfile is gone with the exporter" test -e $TEXTFILE
	inj="echo 'event=slc_bytes_rd value=123456789' > $UNCORE_SIM/nvidia_ucf_pmu_0/inject"
	evs=$(for _ in 1 2 3 4 5 6 7 8; do printf ' -e nvidia_ucf_pmu_0/slc_bytes_rd/'; done)
	# shellcheck disable=SC2086 # one word per option
	got=$(perf stat -a -x';' $evs -- sh -c "$inj" 2>&1 >/dev/null |
		awk -F';' '{ printf "%s%s", s, $1; s = " " }')
	want="123456789 123456789 123456789 123456789"
	check_eq "an ad-hoc perf stat counts exactly with the exporter paused" \
		"$want $want" "$got"
	check_cmd "systemctl start uncore-metrics-exporter" systemctl start $UNIT
	restarts0=$(uprop NRestarts)
	check_exporter_counts_all "started again"

	# README's stop and remove, verbatim; the simulator (the hardware
	# stand-in, which holds the layer's modules) goes before the layer
	dpkg -L uncore-pmu-tools uncore-pmu-dkms | while read -r f; do
		[ -d "$f" ] || echo "$f"
	done >/tmp/files
	check_eq "the packages' files are there" "" \
		"$(while read -r f; do [ -e "$f" ] || echo "$f"; done </tmp/files | xargs)"
	sed -n '/^## Quick start/,/^## /p' $README |
		grep -E '^    (systemctl stop|modprobe -r|apt-get purge) ' |
		sed 's/^    //' >/tmp/remove
	check_eq "README's quick start has the four stop and remove commands" 4 \
		"$(wc -l </tmp/remove)"
	while read -r c; do
		case $c in
		"modprobe -r uncore_cspmu"*) rmmod uncore_sim ;;
		esac
		if out=$(sh -c "$c" 2>&1 </dev/null); then
			ok "README: $c"
		else
			not_ok "README: $c" "$out"
		fi
	done </tmp/remove
	check_eq "no module of ours is loaded" "" \
		"$(lsmod | awk '{ print $1 }' | grep -E '^(uncore_|nvidia_t|marvell_pem|marvell_odyssey)' | xargs)"
	check_eq "no unit of ours is loaded" "not-found inactive" \
		"$(uprop LoadState) $(uprop ActiveState)"
	check_eq "no file of the packages is left" "" \
		"$(while read -r f; do
			[ -e "$f" ] || [ -L "$f" ] && echo "$f"
		done </tmp/files | xargs)"
	check_eq "no module, link, runtime, state or DKMS directory is left" "" \
		"$(ls -d /lib/modules/*/updates/dkms/*.ko* $TEXTFILE /run/uncore-metrics \
			/var/lib/dkms/uncore-pmu /var/lib/uncore-metrics \
			/var/lib/private/uncore-metrics 2>/dev/null | xargs)"
	;;
late)
	check_fail "no simulated hardware at boot" test -d $UNCORE_SIM
	# the exporter's first start attempt, at boot, met no PMU
	wait_for 60 test "$(uprop Result)" = exec-condition
	check_eq "at boot the unit was skipped by its condition, not failed" \
		"inactive exec-condition" "$(uprop ActiveState) $(uprop Result)"
	# The drivers before the hardware, as /etc/modules-load.d would load
	# them at boot: each APMT node's device then probes the moment it
	# appears, and the ACPI device it names (the PCIE's root port) must
	# be in the namespace by then, as firmware has it on the hardware.
	# (udev loading them when the hardware appears is the boot scenario.)
	# every counter, so that every recording rule and panel has its
	# series (by default the exporter leaves half of them, and the
	# series that need more: the tools README); the boot scenario
	# checks the default
	sed -i 's/^UNCORE_METRICS_ARGS=.*/UNCORE_METRICS_ARGS="--counters all"/' \
		/etc/default/uncore-metrics
	first="uncore_cspmu nvidia_t410_pcie_pmu"
	# shellcheck disable=SC2086 # the modules, one word each
	check_cmd "the drivers load before the hardware: modprobe -a $first" \
		modprobe -a $first
	check_cmd "the hardware appears: modprobe uncore_sim" modprobe uncore_sim
	check_eq "every APMT node found the ACPI device it names" "" \
		"$(dmesg | grep 'names no ACPI device')"
	check_cmd "traffic at known rates (the simulator's rate files)" start_rates
	check_exporter_counts_all "simulator loaded late"
	# Debian's Prometheus on the exporter's counters (prometheus-test.sh)
	check_prometheus "$(cut -d. -f1 /proc/uptime)"
	# a condition with the service's own arguments: a PMU family this
	# machine lacks is skipped, not started and restarted
	check_cmd "systemctl stop uncore-metrics-exporter" systemctl stop $UNIT
	sed -i 's/^UNCORE_METRICS_ARGS=.*/UNCORE_METRICS_ARGS="--family cmem --socket 7"/' \
		/etc/default/uncore-metrics
	systemctl start $UNIT
	restarts0=$(uprop NRestarts)
	sleep 15
	check_eq "with --family cmem --socket 7 the unit is skipped, never restarted" \
		"inactive exec-condition $restarts0" \
		"$(uprop ActiveState) $(uprop Result) $(uprop NRestarts)"
	# wrong settings fail the unit, not skip it, with one line that
	# names the setting
	bad_setting "--famly cmem" "UNCORE_METRICS_ARGS=--famly cmem" \
		"uncore-metrics-exporter: unknown option '--famly'"
	bad_setting "--interval 5" "UNCORE_METRICS_INTERVAL=5" \
		"uncore-metrics-exporter: --interval: '5' is not a number from 100 to 86400000"
	mkdir -p /tmp/adir
	bad_setting "a textfile that is a directory" "UNCORE_METRICS_TEXTFILE=/tmp/adir" \
		"ln: /tmp/adir: cannot overwrite directory"
	bad_setting "a textfile in a missing folder" "UNCORE_METRICS_TEXTFILE=/nonexistent/u.prom" \
		"ln: failed to create symbolic link '/nonexistent/u.prom': No such file or $(
		)directory"
	;;
*)
	not_ok "uncore_test.scenario=$scenario: not a scenario"
	;;
esac
done_testing
