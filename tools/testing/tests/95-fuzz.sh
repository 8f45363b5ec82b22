#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# perf_event_open fuzzer over every PMU of ours (progs/pmu_fuzz.c), then proof
# that the kernel stayed healthy and the PMUs kept no state: no oops, WARN,
# lockdep or KASAN report in the kernel log, and an exact count on every
# PMU with a group that needs all of a CSPMU's counters.
#
# UNCORE_FUZZ_SEED reproduces a run (the seed is printed); UNCORE_FUZZ_ITER
# and UNCORE_FUZZ_TIME bound it (make check: 3000 iterations, 120 s; make
# fuzz-soak: more). vm-test.sh hands them over in lib/fuzz.conf.

. "$(dirname "$0")/lib/lib.sh"
[ -f "$TESTLIB/fuzz.conf" ] && . "$TESTLIB/fuzz.conf"

seed=${UNCORE_FUZZ_SEED:-$(od -An -N4 -tu4 /dev/urandom | tr -d ' ')}
iter=${UNCORE_FUZZ_ITER:-3000}
secs=${UNCORE_FUZZ_TIME:-120}
pmus=$(our_pmus)
before=$(dmesg | wc -l)

out=$("$TESTLIB/pmu_fuzz" -s "$seed" -n "$iter" -t "$secs" $pmus 2>&1)
st=$?
echo "$out" | grep -v '^FAIL' | sed 's/^/# /'
if [ $st -eq 0 ] && echo "$out" | grep -q '^pmu_fuzz: PASS'; then
	ok "fuzzer: $(echo "$pmus" | wc -w) PMUs, seed $seed, no failure"
else
	not_ok "fuzzer: seed $seed (rerun with UNCORE_FUZZ_SEED=$seed)" \
		"$(echo "$out" | grep '^FAIL' | head -n 10)"
fi
# The oracle must have judged something on every PMU, or it proves nothing.
check_eq "fuzzer: oracle checks on every PMU" "" \
	"$(echo "$out" | awk '/checked by oracle/ && $(NF - 3) == 0 { print $2 }')"

pat='WARNING:|BUG:|Oops|KASAN|lockdep|possible circular|inconsistent lock'
pat="$pat|general protection|refcount_t|list_(add|del) corruption|Call trace"
bad=$(dmesg | tail -n +$((before + 1)) | grep -E "$pat")
check_eq "fuzzer: no oops, WARN, lockdep or KASAN report" "" "$bad"

# ---- no state left: an exact count on every PMU, in one perf run ----
V=987654321
check_eq "after fuzzing: every PMU counts $V exactly" "" "$(count_every_pmu $V)"

# ---- every counter of a CSPMU is free again: a group needing all of them ----
for p in nvidia_ucf_pmu_0 nvidia_pcie_pmu_1_rc_2; do
	got=$(perf stat -a -x';' -e "{$(events_n 8 "$p/event=0x1/"),$p/cycles/}" -- sh -c \
		"echo 'event=cycles value=$V' > $UNCORE_SIM/$p/inject" 2>&1 >/dev/null |
		awk -F';' 'BEGIN { n = 0 } $1 ~ /^[0-9]+$/ { n++ } END { print n }')
	check_eq "after fuzzing: $p schedules a group of all 8 counters and the cycle counter" \
		9 "$got"
done

done_testing
