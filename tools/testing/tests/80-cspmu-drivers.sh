#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# The CSPMU engine and its driver modules. One platform driver, the
# engine's (uncore_cspmu), binds the APMT devices and hands each to the
# module of its product: the three Tegra410 ones here, never the Grace or
# the generic NVIDIA module, also loaded. Interrupts on the PMUs' CPUs.
# Unloading a module removes its PMUs only; loading it again brings them
# back, in any order, and probes no device of another product. With the
# engine alone, the kernel asks for each product's module once, and the
# devices bind when it is there.

. "$(dirname "$0")/lib/lib.sh"
. /etc/uncore-vm.conf

MODDIR=${UNCORE_MODDIR:-/lib/modules-test}
ENGINE=/sys/bus/platform/drivers/uncore-cspmu
DEVS=/sys/bus/platform/devices
T410="nvidia_t410_ucf_pmu nvidia_t410_pcie_pmu nvidia_t410_pcie_tgt_pmu"

check_eq "26 arm-cs-arch-pmu devices from the APMT" 26 \
	"$(ls -d $DEVS/arm-cs-arch-pmu.* | wc -l)"
# Per device: the firmware resource and the driver's request in it; plus
# the PCIE-TGT address-filter blocks, requested in the device's name too.
check_eq "their windows are claimed: 2 x 26 + 12 filter blocks" 64 \
	"$(grep -c ' : arm-cs-arch-pmu\.' /proc/iomem)"

# Only the engine's module matches the devices, so udev loads it alone;
# the product modules register no driver of their own.
for m in uncore_cspmu $T410 nvidia_t241_pmu nvidia_generic_pmu; do
	a=no
	grep -q 'alias=platform:arm-cs-arch-pmu' $MODDIR/$m.ko && a=yes
	d=$(ls /sys/module/$m/drivers 2>/dev/null | xargs)
	case $m in
	uncore_cspmu) want="yes platform:uncore-cspmu" ;;
	*) want="no " ;;
	esac
	check_eq "$m: device alias, drivers" "$want" "$a $d"
done

bound() {
	ls $ENGINE 2>/dev/null | grep -c '^arm-cs-arch-pmu\.'
}

# families: how many UCF, PCIE and PCIE-TGT PMUs are registered
families() {
	echo "$(ls $EV | grep -c '^nvidia_ucf_pmu_')" \
		"$(ls $EV | grep -c '^nvidia_pcie_pmu_[0-9]*_rc_')" \
		"$(ls $EV | grep -c '^nvidia_pcie_tgt_pmu_')"
}

# check_bindings DESC UCF PCIE TGT: those PMUs, their devices bound to the
# engine, and no PMU of the Grace or the generic module
check_bindings() {
	check_eq "$1: UCF, PCIE, PCIE-TGT PMUs" "$2 $3 $4" "$(families)"
	check_eq "$1: the engine bound $(($2 + $3 + $4)) devices" $(($2 + $3 + $4)) "$(bound)"
	check_eq "$1: no Grace or generic PMU" 0 \
		"$(ls $EV | grep -cE '^nvidia_(scf|pcie|nvlink_c2c[01]|cnvlink|uncore)_pmu_[0-9]+$')"
}

counts() {
	for spec in "nvidia_ucf_pmu_1 slc_access_rd" "nvidia_pcie_pmu_1_rc_5 wr_req" \
		    "nvidia_pcie_tgt_pmu_0_rc_2 rd_req"; do
		set -- $spec
		c=$(stat_count "$1/$2/" "echo 'event=$2 value=41' > $UNCORE_SIM/$1/inject")
		[ "$c" = 41 ] || echo "$1=$c"
	done
}

# mod M: the module of family M (ucf, pcie or tgt)
mod() {
	case $1 in
	ucf) echo nvidia_t410_ucf_pmu ;;
	pcie) echo nvidia_t410_pcie_pmu ;;
	tgt) echo nvidia_t410_pcie_tgt_pmu ;;
	esac
}

# sim_dev M: one device of family M, by its simulator name
sim_dev() {
	case $1 in
	ucf) echo nvidia_ucf_pmu_1 ;;
	pcie) echo nvidia_pcie_pmu_1_rc_5 ;;
	tgt) echo nvidia_pcie_tgt_pmu_0_rc_2 ;;
	esac
}

# wait_bound N: up to 60 s for N devices bound to the engine
wait_bound() {
	i=0
	while [ "$(bound)" != "$1" ] && [ $i -lt 60 ]; do
		sleep 1
		i=$((i + 1))
	done
}

# The kernel asks for a module by running kernel.modprobe ("modprobe -q --
# <module>"); busybox's modprobe finds no modules here. This stand-in
# notes the request and loads the module from where the guest keeps them.
cat >/tmp/cspmu-modprobe <<EOF
#!/bin/sh
for a; do m=\$a; done
echo "\$m" >>/tmp/cspmu-requests
exec insmod $MODDIR/\$m.ko
EOF
chmod +x /tmp/cspmu-modprobe
MODPROBE=$(cat /proc/sys/kernel/modprobe)

# on_demand DESC [CMD...]: with the stand-in as kernel.modprobe, CMD (if
# any), then every device offered to the engine again: the modules the
# kernel asked for, once each
on_demand() {
	local desc=$1

	shift
	: >/tmp/cspmu-requests
	echo /tmp/cspmu-modprobe >/proc/sys/kernel/modprobe
	[ $# -eq 0 ] || check_cmd "$desc: $*" "$@"
	for d in $DEVS/arm-cs-arch-pmu.*; do
		echo "${d##*/}" >/sys/bus/platform/drivers_probe
	done
	wait_bound 26
	echo "$MODPROBE" >/proc/sys/kernel/modprobe
	check_eq "$desc: the kernel asked for each Tegra410 module once, for no other" \
		"$(echo $T410 | tr ' ' '\n' | sort | xargs)" "$(sort /tmp/cspmu-requests | xargs)"
}

check_bindings "all loaded" 2 12 12
bad=""
for d in $(ls -d $DEVS/arm-cs-arch-pmu.*); do
	irq=$(awk -v d="${d##*/}" '$NF == d { sub(":", "", $1); print $1 }' /proc/interrupts)
	[ -n "$irq" ] || { bad="$bad ${d##*/}:noirq"; continue; }
	aff=$(cat /proc/irq/$irq/effective_affinity_list)
	case "$aff" in
	0 | 2) ;;
	*) bad="$bad ${d##*/}:affinity=$aff" ;;
	esac
done
check_eq "every device has its overflow IRQ on socket's first CPU" "" "$bad"

for order in "pcie tgt ucf" "ucf pcie tgt" "tgt ucf pcie"; do
	n_ucf=2 n_pcie=12 n_tgt=12
	for m in $order; do
		check_cmd "($order) rmmod $(mod $m)" rmmod $(mod $m)
		eval "n_$m=0"
		check_eq "($order) $(mod $m) gone: its PMUs only" \
			"$n_ucf $n_pcie $n_tgt" "$(families)"
	done
	check_eq "unloaded ($order): devices stay" 26 "$(ls -d $DEVS/arm-cs-arch-pmu.* | wc -l)"
	check_bindings "unloaded ($order)" 0 0 0
	if [ "$order" = "tgt ucf pcie" ]; then
		on_demand "unloaded ($order), offered"
		check_bindings "loaded on demand" 2 12 12
		check_eq "loaded on demand: counts exact" "" "$(counts)"
		continue
	fi
	# A module probes the devices of its products and no other: a device
	# of a product whose module is still away is not read.
	for m in $order; do
		for o in ucf pcie tgt; do
			echo 0 >$UNCORE_SIM/$(sim_dev $o)/stats
		done
		check_cmd "($order) insmod $(mod $m)" insmod $MODDIR/$(mod $m).ko
		case $m in ucf) n_ucf=2 ;; pcie) n_pcie=12 ;; tgt) n_tgt=12 ;; esac
		check_eq "($order) $(mod $m) back: its PMUs" "$n_ucf $n_pcie $n_tgt" "$(families)"
		unread=""
		for o in ucf pcie tgt; do
			[ "$(eval echo \$n_$o)" = 0 ] || continue
			r=$(sim_stat $(sim_dev $o) mmio_reads)
			[ "$r" = 0 ] || unread="$unread $(sim_dev $o):$r"
		done
		check_eq "($order) $(mod $m) back: no device of another product probed" "" \
			"$unread"
	done
	check_bindings "reloaded ($order)" 2 12 12
	check_eq "reloaded ($order): counts exact" "" "$(counts)"
done

# Modules still away: the engine asks for them (busybox's modprobe finds
# nothing here), and the devices stay unbound until they come.
for m in $T410; do
	rmmod $m
done
for d in $DEVS/arm-cs-arch-pmu.*; do
	echo "${d##*/}" >/sys/bus/platform/drivers_probe
done
check_bindings "no module, devices offered" 0 0 0
for m in $T410; do
	insmod $MODDIR/$m.ko
done
check_bindings "loaded by hand for the waiting devices" 2 12 12

# The engine alone: every module after uncore_pmu goes, then uncore_cspmu
# and the simulator come back, the devices are offered, and the kernel
# loads what they need. (With the APMT in the firmware, x86 here, the
# engine's own first probe came before the simulator, so it read no
# product and the offer is what asks; with the APMT handed over by the
# simulator, arm64 here, the devices come with it and their first probe
# asks, as on hardware.)
after=""
for m in $MODULES; do
	[ "$m" = uncore_pmu ] || after="$after $m"
done
rev=""
for m in $after; do
	rev="$m $rev"
done
for m in $rev; do
	grep -q "^$m " /proc/modules && rmmod $m
done
check_eq "only uncore_pmu left" "uncore_pmu" \
	"$(awk '{ print $1 }' /proc/modules | grep -E '^(uncore_|nvidia_|marvell_)' | xargs)"
check_cmd "insmod uncore_cspmu" insmod $MODDIR/uncore_cspmu.ko $(cmdline_args uncore_cspmu)
# shellcheck disable=SC2046 # the module's arguments, one word each
on_demand "the engine alone" insmod $MODDIR/uncore_sim.ko $(cmdline_args uncore_sim)
check_bindings "the engine alone: loaded on demand" 2 12 12
check_eq "the engine alone: Grace and generic modules not loaded" "" \
	"$(awk '{ print $1 }' /proc/modules | grep -E '^nvidia_(t241|generic)_pmu$')"
check_eq "the engine alone: counts exact" "" "$(counts)"
# the rest as the guest init loaded it, for the tests after this one
for m in $after; do
	grep -q "^$m " /proc/modules ||
		check_cmd "insmod $m again" insmod $MODDIR/$m.ko $(cmdline_args $m)
done
check_bindings "all loaded again" 2 12 12

done_testing
