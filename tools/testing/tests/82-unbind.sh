#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# release: an unbind with each release's kernel: 5.10 and 5.11 warned at every one
#
# The CoreSight PMU devices of one product unbound (their module
# unloaded, as an upgrade or an operator's rmmod does) and bound again
# (loaded). Their interrupts follow the PMUs' CPUs; before 5.12 the layer
# moves them with irq_set_affinity_hint(), which leaves that CPU as the
# interrupt's hint, and free_irq() warns about a hint still set
# ("WARNING: ... free_irq"; a panic with panic_on_warn): the engine's
# devres clears it first. The kernel log gains no warning (vm/run.sh
# counts each one on the console as a failure too), the PMUs go and come
# back with their interrupts, and every PMU of ours counts exactly.

. "$(dirname "$0")/lib/lib.sh"

MODDIR=${UNCORE_MODDIR:-/lib/modules-test}
M=nvidia_t410_ucf_pmu
ucf_irqs() {
	for d in $(ls -d /sys/bus/platform/drivers/uncore-cspmu/arm-cs-arch-pmu.* 2>/dev/null); do
		grep " ${d##*/}\$" /proc/interrupts
	done | wc -l
}
n0=$(our_pmus | wc -l)
i0=$(ucf_irqs)
w0=$(dmesg | grep -c 'WARNING:')
check_eq "the UCF PMUs are bound, every device with its interrupt" "2 yes" \
	"$(our_pmus | grep -c '^nvidia_ucf_pmu_') $([ "$i0" -gt 0 ] && echo yes)"

check_cmd "rmmod $M" rmmod $M
check_eq "unloaded: the 2 UCF PMUs are gone, their 2 interrupts freed" \
	"$((n0 - 2)) $((i0 - 2))" "$(our_pmus | wc -l) $(ucf_irqs)"
# shellcheck disable=SC2046 # one word per parameter
check_cmd "insmod $M" insmod $MODDIR/$M.ko $(cmdline_args $M)
check_eq "loaded again: the PMUs are back, with their interrupts" "$n0 $i0" \
	"$(our_pmus | wc -l) $(ucf_irqs)"
check_eq "no warning in the kernel log" "$w0" "$(dmesg | grep -c 'WARNING:')"
check_eq "every PMU of ours counts exactly afterwards" "" "$(count_every_pmu 4294967301)"

done_testing
