#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Boot the x86_64 test VM (q35, TCG, 4 CPUs in two NUMA nodes/sockets), print
# the TAP lines its tests report on the results port, then "N passed, N failed".
#   run.sh [--kernel VMLINUZ] --initrd FILE [--acpitable FILE]... [--append "..."]
#          [--timeout SEC] [--log FILE] [--no-summary]
# With UNCORE_TAP_STATE=FILE the counts are also added to FILE ("passed N",
# "failed N"). Exit status 0 only if nothing failed.
set -uo pipefail

here=$(cd "$(dirname "$0")" && pwd)
die() { echo "run.sh: $*" >&2; exit 2; }
usage() { sed -n '5,6s/^# \{0,1\}//p' "$0" >&2; exit 2; }

kernel='' initrd='' append='' tmo=900 log='' summary=1 acpi=() tables=()
while [ $# -gt 0 ]; do
	case $1 in
	--kernel) kernel=$2; shift 2 ;;
	--initrd) initrd=$2; shift 2 ;;
	--acpitable) tables+=("$2"); acpi+=(-acpitable "file=$2"); shift 2 ;;
	--append) append=$2; shift 2 ;;
	--timeout) tmo=$2; shift 2 ;;
	--log) log=$2; shift 2 ;;
	--no-summary) summary=0; shift ;;
	-h|--help) usage ;;
	*) die "unknown argument $1" ;;
	esac
done
[ -f "$initrd" ] || usage
[ -n "$kernel" ] || kernel=$("$here/kernel.sh") || die "no kernel image"
for f in "$kernel" ${tables[@]+"${tables[@]}"}; do [ -f "$f" ] || die "no such file: $f"; done
command -v qemu-system-x86_64 >/dev/null ||
	DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends \
		qemu-system-x86 >&2 ||
	die "cannot install qemu-system-x86"

work=$(mktemp -d "${TMPDIR:-/tmp}/uncore-vm.XXXXXX")
trap 'rm -rf "$work"' EXIT
res=$work/results
[ -n "$log" ] || log=$work/console.log
mkdir -p "$(dirname "$log")"
: >"$res"; : >"$log"

start=$(date +%s)
timeout -k 5 "$tmo" qemu-system-x86_64 -M q35 -cpu max,vendor=GenuineIntel -m 1G -nic none \
	-smp 4,sockets=2,cores=2,threads=1 \
	-object memory-backend-ram,id=m0,size=512M -object memory-backend-ram,id=m1,size=512M \
	-numa node,nodeid=0,cpus=0-1,memdev=m0 -numa node,nodeid=1,cpus=2-3,memdev=m1 \
	-display none -monitor none -no-reboot \
	-serial "file:$log" -serial "file:$res" \
	-kernel "$kernel" -initrd "$initrd" ${acpi[@]+"${acpi[@]}"} \
	-append "console=ttyS0 cpu0_hotplug panic=-1 oops=panic $append" </dev/null &
qpid=$!
trap 'kill $qpid 2>/dev/null; rm -rf "$work"' EXIT
trap 'exit 130' INT TERM

# Stream complete TAP lines while the guest runs.
shown=0
show() {
	local n
	n=$(tr -d '\r' <"$res" | grep -c '')
	[ "$n" -gt "$shown" ] || return 0
	tr -d '\r' <"$res" | sed -n "$((shown + 1)),${n}p" | grep -E '^((not )?ok([ 	]|$)|#)'
	shown=$n
}
while kill -0 $qpid 2>/dev/null; do show; sleep 1; done
wait $qpid
qst=$?
show
secs=$(($(date +%s) - start))

results=$(tr -d '\r' <"$res")
passed=$(grep -cE '^ok([ 	]|$)' <<<"$results")
failed=$(grep -cE '^not ok([ 	]|$)' <<<"$results")

if [ "$qst" -eq 124 ] || [ "$qst" -eq 137 ]; then
	echo "not ok - vm: killed after the ${tmo} s timeout"
	failed=$((failed + 1))
elif ! grep -qx '@@ uncore-vm done' <<<"$results"; then
	last=$(sed -n 's/^@@ start //p' <<<"$results" | tail -n 1)
	echo "not ok - vm: the guest stopped before reporting completion${last:+ (during $last)}"
	failed=$((failed + 1))
fi

# Kernel problems on the console (kernel lines only, they carry a timestamp):
# print each offending line; count one failure per report, a report ending at
# "---[ end" or 100 lines after it began; a panic after a report is not another.
problems=$(tr -d '\r' <"$log" | awk '
	!/\[ *[0-9]+\.[0-9]+\]/ { next }
	/---\[ end/ { open = 0 }
	/Oops|WARNING:|BUG:|KASAN|possible circular locking|INFO: lockdep|Call Trace/ ||
	/Kernel panic|inconsistent lock state|called from invalid context|ODEBUG:/ ||
	/kmemleak: .*(suspected memory leak|detector disabled|Cannot|Failed|pool empty)/ {
		print "# console: " $0
		if (/Kernel panic/ && n) next
		if (!open || NR - open > 100) { n++; open = NR }
	}
	END { print n + 0 }')
nprob=$(tail -n 1 <<<"$problems")
if [ "$nprob" -gt 0 ]; then
	sed '$d' <<<"$problems"
	echo "# console: $nprob kernel problem report(s); full log: $log"
	failed=$((failed + nprob))
fi
echo "# vm: qemu ran ${secs} s" >&2

if [ -n "${UNCORE_TAP_STATE:-}" ]; then
	p=0 f=0
	if [ -f "$UNCORE_TAP_STATE" ]; then
		p=$(awk '$1 == "passed" { print $2 }' "$UNCORE_TAP_STATE"); p=${p:-0}
		f=$(awk '$1 == "failed" { print $2 }' "$UNCORE_TAP_STATE"); f=${f:-0}
	fi
	printf 'passed %d\nfailed %d\n' $((p + passed)) $((f + failed)) >"$UNCORE_TAP_STATE"
fi
[ "$summary" = 0 ] || echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
