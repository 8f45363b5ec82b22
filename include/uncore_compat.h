/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Kernel API differences, decided by the probes of scripts/conftest.sh
 * against the target tree (compiled, or for namespaces linked through
 * modpost) rather than by version numbers. Every shim of the shipped
 * modules lives here; the simulator's own are in its sim_compat.h.
 */
#ifndef __UNCORE_COMPAT_H
#define __UNCORE_COMPAT_H

#include <linux/device.h>
#include <linux/hrtimer.h>
#include <linux/interrupt.h>
#include <linux/irq.h>
#include <linux/module.h>
#include <linux/perf_event.h>
#include <linux/slab.h>

#include "uncore_conftest.h"

/*
 * The helper layer's symbol namespace is UNCORE_PMU, written as that bare
 * token in EXPORT_SYMBOL_NS_GPL() and MODULE_IMPORT_NS(). Kernels from
 * 6.13 on take a string literal there: UNCORE_PMU is then a macro for
 * "UNCORE_PMU". Before, it must stay no macro at all: those kernels
 * differ in whether they expand a namespace macro before stringifying it,
 * and differ between exports and imports (5.15.y from 5.15.47), so only a
 * token that is no macro names the same namespace at both ends.
 * conftest.sh links an exporter and an importer written this way to
 * choose the form.
 */
#ifdef UNCORE_HAVE_NS_STRING
#define UNCORE_PMU		"UNCORE_PMU"
#endif

/**
 * kzalloc_obj - allocate one zeroed object of an expression's type
 * @P: the object, as in kzalloc(sizeof(P), ...): ``*ptr``
 * @GFP: the allocation flags
 *
 * Kernels from 7.0 have it in <linux/slab.h>, as a macro, so its absence
 * is the probe. Return: a pointer of P's type, or NULL.
 */
#ifndef kzalloc_obj
#define kzalloc_obj(P, GFP)	({ typeof(P) *__obj = kzalloc(sizeof(P), GFP); __obj; })
#endif

/**
 * UNCORE_IMPORT_NS - import the helper layer's symbol namespace
 *
 * Every driver module using the helper layer states this once.
 */
#define UNCORE_IMPORT_NS()	MODULE_IMPORT_NS(UNCORE_PMU)

/**
 * uncore_compat_set_parent - set the parent device of a PMU where possible
 * @pmu: the perf PMU, before registration
 * @dev: its device
 *
 * &struct pmu has a parent device from 6.5 on; older kernels have none,
 * and the PMU then appears without one in sysfs.
 */
static inline void uncore_compat_set_parent(struct pmu *pmu, struct device *dev)
{
#ifdef UNCORE_HAVE_PMU_PARENT
	pmu->parent = dev;
#endif
}

/**
 * uncore_hrtimer_setup - initialise an hrtimer with its callback
 * @timer: the timer
 * @fn: its callback
 * @clock: the clock it runs on
 * @mode: its mode
 *
 * hrtimer_setup() arrived in 6.13 and replaced hrtimer_init(), which is
 * gone from 6.15 on.
 */
static inline void uncore_hrtimer_setup(struct hrtimer *timer,
					enum hrtimer_restart (*fn)(struct hrtimer *),
					clockid_t clock, enum hrtimer_mode mode)
{
#ifdef UNCORE_HAVE_HRTIMER_SETUP
	hrtimer_setup(timer, fn, clock, mode);
#else
	hrtimer_init(timer, clock, mode);
	timer->function = fn;
#endif
}

/**
 * uncore_irq_set_affinity - move an interrupt to the CPUs of a mask
 * @irq: the interrupt
 * @mask: where it goes; must stay valid (a cpumask_of() mask)
 *
 * irq_set_affinity() is exported from 5.12 on; before, modules have
 * irq_set_affinity_hint(), which moves the interrupt the same way and
 * keeps @mask as the hint shown in /proc/irq/<irq>/affinity_hint.
 *
 * Return: 0 or a negative errno.
 */
static inline int uncore_irq_set_affinity(unsigned int irq, const struct cpumask *mask)
{
#ifdef UNCORE_HAVE_IRQ_SET_AFFINITY
	return irq_set_affinity(irq, mask);
#else
	return irq_set_affinity_hint(irq, mask);
#endif
}

/**
 * uncore_irq_clear_affinity - undo what uncore_irq_set_affinity() leaves behind
 * @irq: the interrupt, before it is freed
 *
 * Before 5.12 uncore_irq_set_affinity() leaves its mask as the
 * interrupt's affinity hint, and free_irq() warns about a hint still set
 * (a panic with panic_on_warn): this clears it. Nothing to do from 5.12.
 */
static inline void uncore_irq_clear_affinity(unsigned int irq)
{
#ifndef UNCORE_HAVE_IRQ_SET_AFFINITY
	irq_set_affinity_hint(irq, NULL);
#endif
}

#endif /* __UNCORE_COMPAT_H */
