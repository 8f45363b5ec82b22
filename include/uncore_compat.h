/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Kernel API differences, decided by compile probes (scripts/conftest.sh)
 * against the target tree rather than by version numbers.
 */
#ifndef __UNCORE_COMPAT_H
#define __UNCORE_COMPAT_H

#include <linux/device.h>
#include <linux/module.h>
#include <linux/perf_event.h>

#include "uncore_conftest.h"

/* Symbol namespaces are string literals from 6.13 on. */
#ifdef UNCORE_HAVE_NS_STRING
#define UNCORE_NS "UNCORE_PMU"
#else
#define UNCORE_NS UNCORE_PMU
#endif

/**
 * UNCORE_IMPORT_NS - import the helper layer's symbol namespace
 *
 * Every driver module using the helper layer states this once.
 */
#define UNCORE_IMPORT_NS()	MODULE_IMPORT_NS(UNCORE_NS)

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

#endif /* __UNCORE_COMPAT_H */
