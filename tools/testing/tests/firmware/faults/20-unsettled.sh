#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# A hi-lo-hi read that never settles: the simulator changes the C2C
# counter's high word after each of the eight high-word reads of one
# bounded read (inject_on_read times=8), so no two of them agree. That
# read gives up: the count is kept as it was, not torn or made up, the
# PMU warns once (not again at the second such read), and the next read
# catches up, so every interval of perf stat -I is exact.

. "$(dirname "$0")/lib/lib.sh"

D=nvidia_nvdlink_pmu_0
R=$UNCORE_SIM/$D/inject_on_read
MSG='counter read did not settle, count kept'
# inst0:0x880 is the high word of instance 0's in_rd_req counter
ARM='inst0:0x880 times=8 event=in_rd_req value=4294967296 instance=0'
cat > /tmp/unsettled.sh <<SH
fired() {
	i=0
	while [ -n "\$(cat $R)" ] && [ \$i -lt 50 ]; do sleep 0.1; i=\$((i + 1)); done
	cat $R >> /tmp/unsettled.state
	echo fired >> /tmp/unsettled.state
}
echo 'event=in_rd_req value=100 instance=0' > $UNCORE_SIM/$D/inject
sleep 0.5
echo '$ARM' > $R
fired
sleep 0.5
echo 'event=in_rd_req value=7 instance=0' > $UNCORE_SIM/$D/inject
sleep 0.5
echo '$ARM' > $R
fired
sleep 0.5
SH
rm -f /tmp/unsettled.state
before=$(dmesg | grep -c "$MSG")
out=$(perf stat -a -x';' -I 100 -e "$D/in_rd_req/" -- sh /tmp/unsettled.sh 2>&1 >/dev/null |
	awk -F';' 'NF >= 4 && $2 != 0 { printf "%s ", $2 }')
check_eq "$D: both 8-read injections fired" "fired fired" \
	"$(xargs < /tmp/unsettled.state 2>&1)"
# 8 * 2^32 = 34359738368: what each unsettled read left for the next one
check_eq "$D: the unsettled reads kept the count, the next ones caught up" \
	"100 34359738368 7 34359738368 " "$out"
check_eq "$D: warned once for two unsettled reads" 1 \
	"$(($(dmesg | grep -c "$MSG") - before))"
echo > $R
rm -f /tmp/unsettled.sh /tmp/unsettled.state

done_testing
