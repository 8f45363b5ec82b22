// SPDX-License-Identifier: GPL-2.0
/*
 * NVIDIA Tegra410 PCIE PMU: traffic from the devices below one PCIe root
 * complex to memory, filtered by root port or by one requester BDF, and by
 * destination class. A CoreSight PMU enumerated from the APMT.
 *
 * The RC has one BDF filter for all counters, so at any time every event
 * of the PMU filters on the same BDF or none does.
 */

#include <linux/module.h>

#include "uncore_cspmu.h"

#define PCIE_FILTER_MASK	GENMASK(24, 0)
#define PCIE_RP			GENMASK(7, 0)
#define PCIE_BDF		GENMASK(23, 8)
#define PCIE_BDF_EN		BIT(24)
#define PCIE_DST_MASK		GENMASK(4, 0)

/*
 * Source filter of @event: its own, else a BDF its group leader filters on
 * (siblings inherit it), else every root port.
 */
static u32 pcie_src_filter(struct perf_event *event)
{
	struct perf_event *leader = event->group_leader;
	u32 f = event->attr.config1 & PCIE_FILTER_MASK;

	if (!f && leader != event && leader->pmu == event->pmu &&
	    (leader->attr.config1 & PCIE_BDF_EN))
		return leader->attr.config1 & PCIE_FILTER_MASK;
	return f ?: PCIE_RP;
}

/* The BDF @event filters on with the enable bit, or 0 for none. */
static u32 pcie_bdf(struct perf_event *event)
{
	u32 f = pcie_src_filter(event);

	return (f & PCIE_BDF_EN) ? f & (PCIE_BDF_EN | PCIE_BDF) : 0;
}

/* A BDF excludes root ports, and a group filters on its leader's BDF or none. */
static int pcie_validate_group(struct uncore_cspmu *c, struct perf_event *event)
{
	struct perf_event *leader = event->group_leader;
	u32 bdf = pcie_bdf(event);

	if (bdf && (pcie_src_filter(event) & PCIE_RP))
		return -EINVAL;
	if (leader->pmu == event->pmu && bdf != pcie_bdf(leader))
		return -EINVAL;
	return 0;
}

/* The single BDF filter: every scheduled event must agree on it. */
static int pcie_claim(struct uncore_cspmu *c, struct perf_event *event)
{
	struct perf_event *other;
	u32 bdf = pcie_bdf(event);

	uncore_pmu_for_each_event(&c->upmu, other)
		if (!uncore_cspmu_on_cycle(c, other) && pcie_bdf(other) != bdf)
			return -EINVAL;
	return 0;
}

static void pcie_set_ev_filter(struct uncore_cspmu *c, struct perf_event *event,
			       unsigned int phys)
{
	uncore_cspmu_write_cfg(c, CSPMU_PMEVFILTR(phys), pcie_src_filter(event));
	uncore_cspmu_write_cfg(c, CSPMU_PMEVFILT2R(phys),
			       (event->attr.config2 & PCIE_DST_MASK) ?: PCIE_DST_MASK);
}

/*
 * A stopped counter must not keep a BDF enable: the RC has one BDF filter,
 * and which counter's copy the hardware latches is not documented. Root
 * port and destination filters are per counter, and a stopped counter
 * counts nothing, so they stay (and need no rewrite at the next start).
 */
static void pcie_reset_ev_filter(struct uncore_cspmu *c, struct perf_event *event,
				 unsigned int phys)
{
	if (pcie_bdf(event))
		uncore_cspmu_write_cfg(c, CSPMU_PMEVFILTR(phys), 0);
}

/*
 * The cycle counter counts every cycle, and every cycles event shares it:
 * its filter is always every root port, never a requester, so that a
 * cycles event's terms cannot put a second BDF beside the one the
 * counting events agree on.
 */
static void pcie_set_cc_filter(struct uncore_cspmu *c, struct perf_event *event)
{
	uncore_cspmu_write_cfg(c, CSPMU_PMCCFILTR, PCIE_RP);
}

static struct attribute *pcie_pmu_formats[] = {
	UNCORE_FORMAT_ATTR(event, "config:0-32"),
	UNCORE_FORMAT_ATTR(src_rp_mask, "config1:0-7"),
	UNCORE_FORMAT_ATTR(src_bdf, "config1:8-23"),
	UNCORE_FORMAT_ATTR(src_bdf_en, "config1:24"),
	UNCORE_FORMAT_ATTR(dst_loc_cmem, "config2:0"),
	UNCORE_FORMAT_ATTR(dst_loc_gmem, "config2:1"),
	UNCORE_FORMAT_ATTR(dst_loc_pcie_p2p, "config2:2"),
	UNCORE_FORMAT_ATTR(dst_loc_pcie_cxl, "config2:3"),
	UNCORE_FORMAT_ATTR(dst_rem, "config2:4"),
	NULL
};

static struct attribute *pcie_pmu_events[] = {
	UNCORE_EVENT_ATTR(rd_bytes, 0x0),
	UNCORE_EVENT_ATTR(wr_bytes, 0x1),
	UNCORE_EVENT_ATTR(rd_req, 0x2),
	UNCORE_EVENT_ATTR(wr_req, 0x3),
	UNCORE_EVENT_ATTR(rd_cum_outs, 0x4),
	UNCORE_EVENT_ATTR_MASK(cycles, CSPMU_EV_CYCLES, UNCORE_CSPMU_ATTR_CC),
	NULL
};

static const struct uncore_cspmu_impl pcie_pmu_impl[] = {
	{
		.prodid		= NV_T410_PCIE_PRODID,
		.name		= "nvidia_pcie_pmu",
		.naming		= UNCORE_CSPMU_BY_SOCKET_RC,
		.formats	= pcie_pmu_formats,
		.events		= pcie_pmu_events,
		.flags		= UNCORE_PMU_SHOW_ASSOC,
		.set_ev_filter	= pcie_set_ev_filter,
		.set_cc_filter	= pcie_set_cc_filter,
		.reset_ev_filter = pcie_reset_ev_filter,
		.validate_group	= pcie_validate_group,
		.claim		= pcie_claim,
	},
};

module_uncore_cspmu_backend(pcie_pmu_impl);

UNCORE_IMPORT_NS();
MODULE_DESCRIPTION("NVIDIA Tegra410 PCIE PMU driver");
MODULE_LICENSE("GPL");
MODULE_VERSION(UNCORE_PMU_VERSION);
