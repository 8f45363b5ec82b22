#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Usage: KDIR OUT.h [kbuild args...]
#
# Compile small probes against the kernel tree KDIR and write the features
# it has as UNCORE_HAVE_* macros into OUT.h (included by uncore_compat.h).
# A probe that needs a feature compiles only where the feature exists.

set -eu

kdir=$1
out=$2
shift 2

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
names=""

probe() {
	{
		printf '#include <linux/module.h>\n#include <linux/perf_event.h>\n'
		printf '%s\nMODULE_LICENSE("GPL");\n' "$2"
	} > "$tmp/$1.c"
	names="$names $1"
}

# Must always compile, or the tree itself is unusable.
probe baseline 'int uncore_probe(void); int uncore_probe(void) { return 0; }'
# struct pmu::parent (6.5)
probe pmu_parent 'void uncore_probe(struct pmu *p, struct device *d);
void uncore_probe(struct pmu *p, struct device *d) { p->parent = d; }'
# hrtimer_setup() (6.13; hrtimer_init() is gone from 6.15 on)
probe hrtimer_setup 'enum hrtimer_restart uncore_fn(struct hrtimer *t);
void uncore_probe(struct hrtimer *t);
void uncore_probe(struct hrtimer *t)
{ hrtimer_setup(t, uncore_fn, CLOCK_MONOTONIC, HRTIMER_MODE_REL); }'
# IRQ_WORK_INIT_HARD() and INIT_CSD() (5.11), used by the test simulator only
probe irq_work_init_hard '#include <linux/irq_work.h>
struct irq_work uncore_probe(void (*fn)(struct irq_work *));
struct irq_work uncore_probe(void (*fn)(struct irq_work *)) { return IRQ_WORK_INIT_HARD(fn); }'
probe init_csd '#include <linux/smp.h>
void uncore_probe(call_single_data_t *c, smp_call_func_t fn);
void uncore_probe(call_single_data_t *c, smp_call_func_t fn) { INIT_CSD(c, fn, c); }'
# IRQ_MOVE_PCNTXT (gone in 6.14), used by the test simulator only
probe irq_move_pcntxt '#include <linux/irq.h>
unsigned long uncore_probe(void); unsigned long uncore_probe(void) { return IRQ_MOVE_PCNTXT; }'
# acpi_load_table()'s table index argument (newer kernels), used by the test
# simulator only
probe acpi_load_table_idx '#include <linux/acpi.h>
acpi_status uncore_probe(struct acpi_table_header *t);
acpi_status uncore_probe(struct acpi_table_header *t) { return acpi_load_table(t, NULL); }'

objs=""
for n in $names; do
	objs="$objs $n.o"
done
echo "obj-m :=$objs" > "$tmp/Kbuild"

make -C "$kdir" M="$tmp" "$@" -k $objs > "$tmp/log" 2>&1 || true

if [ ! -f "$tmp/baseline.o" ]; then
	echo "conftest: cannot compile against $kdir:" >&2
	cat "$tmp/log" >&2
	exit 1
fi

have() {
	[ -f "$tmp/$1.o" ]
}

# ns_pairs FORM KBUILD-ARGS...: an exporting and an importing module, built
# through modpost, pair with the namespace written as uncore_compat.h
# writes it in FORM: the token UNCORE_PROBE_NS, a macro for the string
# "UNCORE_PROBE_NS" (string) or no macro (token), the import behind one
# more macro level: both modules are built, modpost says nothing about a
# namespace, and the export and the import carry the same name,
# UNCORE_PROBE_NS. (5.15.y from 5.15.47 stringifies an export's namespace
# after macro expansion and an import's before it: a namespace given
# through a macro of another name would differ there.)
ns_pairs() {
	local d=$tmp/ns-$1 def= got

	[ "$1" = string ] && def='#define UNCORE_PROBE_NS "UNCORE_PROBE_NS"'
	shift
	mkdir -p "$d"
	cat > "$d/exp.c" <<EOF
#include <linux/module.h>
$def
int uncore_probe_sym(void);
int uncore_probe_sym(void) { return 0; }
EXPORT_SYMBOL_NS_GPL(uncore_probe_sym, UNCORE_PROBE_NS);
MODULE_LICENSE("GPL");
EOF
	cat > "$d/imp.c" <<EOF
#include <linux/module.h>
$def
#define PROBE_IMPORT() MODULE_IMPORT_NS(UNCORE_PROBE_NS)
int uncore_probe_sym(void);
static int __init uncore_probe_init(void) { return uncore_probe_sym(); }
module_init(uncore_probe_init);
PROBE_IMPORT();
MODULE_LICENSE("GPL");
EOF
	echo "obj-m := exp.o imp.o" > "$d/Kbuild"
	make -C "$kdir" M="$d" "$@" modules > "$d/log" 2>&1 || return 1
	[ -f "$d/exp.ko" ] && [ -f "$d/imp.ko" ] || return 1
	grep -qi 'namespace' "$d/log" && return 1
	got=$(modinfo -F import_ns "$d/imp.ko")
	[ "$got" = UNCORE_PROBE_NS ] || return 1
	got=$(awk '$2 == "uncore_probe_sym" { print $NF }' "$d/Module.symvers")
	[ "$got" = UNCORE_PROBE_NS ]
}

# link_probe NAME KBUILD-ARGS...: the module $tmp/link-NAME/NAME.c (written
# by the caller) builds and links through modpost without a message about
# it: every symbol it uses is exported to modules
link_probe() {
	local d=$tmp/link-$1 n=$1

	shift
	echo "obj-m := $n.o" > "$d/Kbuild"
	make -C "$kdir" M="$d" "$@" modules > "$d/log" 2>&1 || return 1
	[ -f "$d/$n.ko" ] && ! grep -qi 'undefined' "$d/log"
}

# irq_set_affinity() exported to modules (5.12; before, only
# irq_set_affinity_hint(), which sets the affinity too)
mkdir -p "$tmp/link-irq_affinity"
cat > "$tmp/link-irq_affinity/irq_affinity.c" <<EOF
#include <linux/interrupt.h>
#include <linux/module.h>
static int __init uncore_probe_init(void) { return irq_set_affinity(0, cpu_online_mask); }
module_init(uncore_probe_init);
MODULE_LICENSE("GPL");
EOF
link_probe irq_affinity "$@" && have_irq_affinity=1 || have_irq_affinity=

if ns_pairs string "$@"; then
	ns=string
elif ns_pairs token "$@"; then
	ns=token
else
	echo "conftest: no namespace form pairs an export with its import on $kdir:" >&2
	cat "$tmp/ns-string/log" "$tmp/ns-token/log" >&2
	exit 1
fi

{
	echo "/* Generated by the compile probes for $kdir. */"
	echo "#ifndef __UNCORE_CONFTEST_H"
	echo "#define __UNCORE_CONFTEST_H"
	if have pmu_parent; then
		echo "#define UNCORE_HAVE_PMU_PARENT 1"
	fi
	if [ $ns = string ]; then
		echo "#define UNCORE_HAVE_NS_STRING 1"
	fi
	if have hrtimer_setup; then
		echo "#define UNCORE_HAVE_HRTIMER_SETUP 1"
	fi
	if [ -n "$have_irq_affinity" ]; then
		echo "#define UNCORE_HAVE_IRQ_SET_AFFINITY 1"
	fi
	if have irq_work_init_hard; then
		echo "#define UNCORE_HAVE_IRQ_WORK_INIT_HARD 1"
	fi
	if have init_csd; then
		echo "#define UNCORE_HAVE_INIT_CSD 1"
	fi
	if have irq_move_pcntxt; then
		echo "#define UNCORE_HAVE_IRQ_MOVE_PCNTXT 1"
	fi
	if have acpi_load_table_idx; then
		echo "#define UNCORE_HAVE_ACPI_LOAD_TABLE_IDX 1"
	fi
	echo "#endif"
} > "$out.tmp"
mv "$out.tmp" "$out"
