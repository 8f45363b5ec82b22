// SPDX-License-Identifier: GPL-2.0
/*
 * NVIDIA CoreSight PMUs that no driver of their own knows, such as those of
 * a newer chip: raw event ids with two raw filter registers, so they still
 * count. Named nvidia_uncore_pmu_<n>, n the lowest number free. The
 * engine's table hands this module every NVIDIA product it does not give
 * to another.
 */

#include <linux/module.h>

#include "uncore_cspmu.h"

static DEFINE_IDA(generic_seq);

static struct attribute *generic_formats[] = {
	UNCORE_FORMAT_ATTR(event, "config:0-32"),
	UNCORE_FORMAT_ATTR(filter, "config1:0-31"),
	UNCORE_FORMAT_ATTR(filter2, "config2:0-31"),
	NULL
};

static struct attribute *generic_events[] = {
	UNCORE_EVENT_ATTR_MASK(cycles, CSPMU_EV_CYCLES, UNCORE_CSPMU_ATTR_CC),
	NULL
};

/* Every other NVIDIA product (prodid 0). A filter left 0 selects everything: all ones. */
static const struct uncore_cspmu_impl generic_pmu_impl[] = {
	{
		.name		= "nvidia_uncore_pmu",
		.naming		= UNCORE_CSPMU_BY_SEQ,
		.seq		= &generic_seq,
		.formats	= generic_formats,
		.events		= generic_events,
		.flags		= UNCORE_PMU_SHOW_ASSOC,
		.filter		= U32_MAX,
		.filter2	= U32_MAX,
	},
};

module_uncore_cspmu_backend(generic_pmu_impl);

UNCORE_IMPORT_NS();
MODULE_DESCRIPTION("NVIDIA CoreSight PMU driver for products without their own");
MODULE_LICENSE("GPL");
MODULE_VERSION(UNCORE_PMU_VERSION);
