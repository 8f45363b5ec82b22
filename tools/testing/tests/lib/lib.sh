# SPDX-License-Identifier: GPL-2.0
#
# Helpers for the guest tests (busybox sh). Source it, call the checks,
# end with "done_testing". Output is TAP: "ok N - desc" / "not ok N - desc".

TESTLIB=$(dirname "$0")/lib
PERF_OPEN=$TESTLIB/perf_open
TAP_N=0
TAP_FAILED=0
EV=/sys/bus/event_source/devices

ok() {
	TAP_N=$((TAP_N + 1))
	echo "ok $TAP_N - $1"
}

not_ok() {
	TAP_N=$((TAP_N + 1))
	TAP_FAILED=$((TAP_FAILED + 1))
	echo "not ok $TAP_N - $1"
	shift
	for l in "$@"; do
		echo "#   $l"
	done
}

# check_eq DESC EXPECTED ACTUAL
check_eq() {
	if [ "$2" = "$3" ]; then
		ok "$1"
	else
		not_ok "$1" "expected: '$2'" "got:      '$3'"
	fi
}

# check_cmd DESC CMD...: passes if the command succeeds
check_cmd() {
	d=$1
	shift
	if out=$("$@" 2>&1); then
		ok "$d"
	else
		not_ok "$d" "command failed: $*" "$out"
	fi
}

# check_fail DESC CMD...: passes if the command fails
check_fail() {
	d=$1
	shift
	if out=$("$@" 2>&1); then
		not_ok "$d" "command succeeded: $*" "$out"
	else
		ok "$d"
	fi
}

done_testing() {
	echo "1..$TAP_N"
	[ "$TAP_FAILED" -eq 0 ]
}

# inject DEV LINE...: inject traffic into simulated device DEV
inject() {
	dev=$1
	shift
	printf '%s\n' "$@" > "$UNCORE_SIM/$dev/inject"
}

# stat_count EVENT CMD: count of EVENT while sh -c CMD runs, system-wide.
# Prints the count column as perf prints it (a number, <not counted>, or
# <not supported>).
stat_count() {
	perf stat -a -x';' -e "$1" -- sh -c "$2" 2>&1 >/dev/null |
		awk -F';' -v e="$1" '$3 == e { print $1 }'
}

# sim_stat DEV KEY: a counter from the simulator's stats file
sim_stat() {
	awk -v k="$2" '$1 == k { print $2 }' "$UNCORE_SIM/$1/stats"
}

pmu_type() {
	cat "$EV/$1/type"
}

# our_pmus: every PMU of ours that is registered
our_pmus() {
	ls $EV | grep -E '^(mrvl_pcie_rc_pmu_|nvidia_)'
}

# count_every_pmu VALUE: inject VALUE into one event of every PMU of ours
# in one system-wide perf run; prints "pmu/event/=count" for each PMU that
# did not count exactly VALUE (nothing when all did).
count_every_pmu() {
	args=""
	inj=""
	for p in $(our_pmus); do
		case $p in
		mrvl_*)	e=ib_tlp_npr ;;
		*)	e=cycles ;;
		esac
		args="$args -e $p/$e/"
		inj="$inj echo 'event=$e value=$1' > $UNCORE_SIM/$p/inject;"
	done
	perf stat -a -x';' $args -- sh -c "$inj" 2>&1 >/dev/null |
		awk -F';' -v v="$1" '$1 != v { print $3 "=" $1 }'
}

# check_no_event_limit PMU EVENT N INJECT LINE: a PMU of shared
# free-running counters takes any number of events. N separate EVENTs and
# a group of N more count at once in one perf run, while LINE is injected
# 20 times into INJECT: each must count 20 times LINE's value, running all
# the time (no multiplexing).
check_no_event_limit() {
	_v=${5##*value=}
	_v=${_v%% *}
	_sep="" _grp="" _i=0
	while [ $_i -lt "$3" ]; do
		_sep="$_sep,$1/$2/"
		_grp="$_grp,$1/$2/"
		_i=$((_i + 1))
	done
	_out=$(perf stat -a -x';' -e "${_sep#,},{${_grp#,}}" -- sh -c "
		i=0
		while [ \$i -lt 20 ]; do
			echo '$5' > $4
			i=\$((i + 1))
		done" 2>&1 >/dev/null)
	check_eq "$1: $3 events and a group of $3, all exact, none multiplexed" \
		"$(($3 * 2)):" "$(echo "$_out" | awk -F';' -v e="$1/$2/" -v w=$((_v * 20)) '
			$3 == e { n++; if ($1 != w || $5 != "100.00") b = b " " $1 "@" $5 }
			END { print n ":" b }')"
}

# check_one_cpu PMU: its cpumask names exactly one CPU (the PEM PMUs)
check_one_cpu() {
	_cpus=$(cat "$EV/$1/cpumask")
	case "$_cpus" in
	[0-9] | [0-9][0-9])
		ok "$1 cpumask is one CPU ($_cpus)" ;;
	*)
		not_ok "$1 cpumask is one CPU" "got '$_cpus'" ;;
	esac
}

# socket_of CPU: the socket of an online CPU, numbered 0, 1... in the order
# of the package ids. x86 numbers packages 0, 1; arm64 ACPI names them by
# their PPTT offset (e.g. 36, 116): both give 0 and 1 here. All CPUs of the
# guest must be online, for the ranking to see every package.
socket_of() {
	_id=$(cat /sys/devices/system/cpu/cpu$1/topology/physical_package_id 2>&1) ||
		{ echo "$_id"; return 1; }
	cat /sys/devices/system/cpu/cpu[0-9]*/topology/physical_package_id |
		sort -nu | awk -v id="$_id" '$1 == id { print NR - 1 }'
}
