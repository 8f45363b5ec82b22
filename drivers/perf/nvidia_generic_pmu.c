// SPDX-License-Identifier: GPL-2.0
/*
 * NVIDIA CoreSight PMUs that no driver of their own knows, such as those of
 * a newer chip: raw event ids with two raw filter registers, so they still
 * count. Named nvidia_uncore_pmu_<n>, n in probe order.
 */

#include <linux/mod_devicetable.h>
#include <linux/module.h>
#include <linux/platform_device.h>

#include "uncore_cspmu.h"

static atomic_t generic_seq = ATOMIC_INIT(0);

/* Every NVIDIA product with a driver of its own (uncore_cspmu.h). */
static const u32 generic_known[] = {
	NV_T241_SCF_PRODID, NV_T241_PCIE_PRODID, NV_T241_C2C1_PRODID,
	NV_T241_C2C0_PRODID, NV_T241_CNVLINK_PRODID, NV_T410_UCF_PRODID,
	NV_T410_PCIE_PRODID, NV_T410_PCIE_TGT_PRODID,
};

/* An NVIDIA PMU of a product without a driver of its own. */
static bool generic_claims(u32 pmiidr)
{
	unsigned int i;

	if ((pmiidr & CSPMU_IMPLEMENTER) != NV_CSPMU_IMPLEMENTER)
		return false;
	for (i = 0; i < ARRAY_SIZE(generic_known); i++)
		if ((pmiidr & CSPMU_PRODID_MASK) == generic_known[i])
			return false;
	return true;
}

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

/* A filter left 0 selects everything: all ones. */
static const struct uncore_cspmu_impl generic_pmu_impl[] = {
	{
		.claims		= generic_claims,
		.name		= "nvidia_uncore_pmu_%u",
		.name_seq	= &generic_seq,
		.formats	= generic_formats,
		.events		= generic_events,
		.flags		= UNCORE_PMU_SHOW_ASSOC,
		.filter		= U32_MAX,
		.filter2	= U32_MAX,
	},
	{ }
};

module_uncore_cspmu_driver(generic_pmu, "nvidia-generic-pmu", generic_pmu_impl);

UNCORE_IMPORT_NS();
MODULE_DESCRIPTION("NVIDIA CoreSight PMU driver for products without their own");
MODULE_LICENSE("GPL");
MODULE_VERSION(UNCORE_PMU_VERSION);
