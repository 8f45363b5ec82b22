// SPDX-License-Identifier: GPL-2.0
/*
 * NVIDIA Tegra410 Unified Coherence Fabric (UCF) PMU: SLC and memory
 * traffic of one socket, filtered by source and destination class.
 * A CoreSight PMU enumerated from the APMT; the helper layer's CSPMU engine
 * does the counting, this file says what is UCF about it.
 */

#include <linux/module.h>

#include "uncore_cspmu.h"

#define UCF_FILTER_MASK		GENMASK(11, 0)
#define UCF_SRC			GENMASK(2, 0)
#define UCF_DST			GENMASK(11, 8)
/* No filter given: every source and every destination. */
#define UCF_FILTER_ALL		(UCF_SRC | UCF_DST)

/* An empty source or destination group means the whole group. */
static void ucf_set_ev_filter(struct uncore_cspmu *c, struct perf_event *event,
			      unsigned int phys)
{
	u32 f = event->attr.config1 & UCF_FILTER_MASK;

	if (!(f & UCF_SRC))
		f |= UCF_SRC;
	if (!(f & UCF_DST))
		f |= UCF_DST;
	uncore_cspmu_write_cfg(c, CSPMU_PMEVFILTR(phys), f);
}

static void ucf_set_cc_filter(struct uncore_cspmu *c, struct perf_event *event)
{
	uncore_cspmu_write_cfg(c, CSPMU_PMCCFILTR,
			       (event->attr.config1 & UCF_FILTER_MASK) ?: UCF_FILTER_ALL);
}

static struct attribute *ucf_pmu_formats[] = {
	UNCORE_FORMAT_ATTR(event, "config:0-32"),
	UNCORE_FORMAT_ATTR(src_loc_noncpu, "config1:0"),
	UNCORE_FORMAT_ATTR(src_loc_cpu, "config1:1"),
	UNCORE_FORMAT_ATTR(src_rem, "config1:2"),
	UNCORE_FORMAT_ATTR(dst_loc_cmem, "config1:8"),
	UNCORE_FORMAT_ATTR(dst_loc_gmem, "config1:9"),
	UNCORE_FORMAT_ATTR(dst_loc_other, "config1:10"),
	UNCORE_FORMAT_ATTR(dst_rem, "config1:11"),
	NULL
};

static struct attribute *ucf_pmu_events[] = {
	UNCORE_EVENT_ATTR(bus_cycles, 0x1d),
	UNCORE_EVENT_ATTR(slc_allocate, 0xf0),
	UNCORE_EVENT_ATTR(slc_wb, 0xf3),
	UNCORE_EVENT_ATTR(slc_refill_rd, 0x109),
	UNCORE_EVENT_ATTR(slc_refill_wr, 0x10a),
	UNCORE_EVENT_ATTR(slc_access_rd, 0x111),
	UNCORE_EVENT_ATTR(slc_access_wr, 0x112),
	UNCORE_EVENT_ATTR(slc_bytes_rd, 0x113),
	UNCORE_EVENT_ATTR(slc_bytes_wr, 0x114),
	UNCORE_EVENT_ATTR(slc_hit_rd, 0x119),
	UNCORE_EVENT_ATTR(mem_access_rd, 0x121),
	UNCORE_EVENT_ATTR(mem_access_wr, 0x122),
	UNCORE_EVENT_ATTR(mem_bytes_rd, 0x123),
	UNCORE_EVENT_ATTR(mem_bytes_wr, 0x124),
	UNCORE_EVENT_ATTR(local_snoop, 0x180),
	UNCORE_EVENT_ATTR(ext_snp_access, 0x181),
	UNCORE_EVENT_ATTR(ext_snp_evict, 0x182),
	UNCORE_EVENT_ATTR(slc_access_dataless, 0x183),
	UNCORE_EVENT_ATTR(slc_access_atomic, 0x184),
	UNCORE_EVENT_ATTR_MASK(cycles, CSPMU_EV_CYCLES, UNCORE_CSPMU_ATTR_CC),
	NULL
};

static const struct uncore_cspmu_impl ucf_pmu_impl[] = {
	{
		.prodid		= NV_T410_UCF_PRODID,
		.name		= "nvidia_ucf_pmu",
		.formats	= ucf_pmu_formats,
		.events		= ucf_pmu_events,
		.flags		= UNCORE_PMU_SHOW_ASSOC,
		.set_ev_filter	= ucf_set_ev_filter,
		.set_cc_filter	= ucf_set_cc_filter,
	},
};

module_uncore_cspmu_backend(ucf_pmu_impl);

UNCORE_IMPORT_NS();
MODULE_DESCRIPTION("NVIDIA Tegra410 UCF PMU driver");
MODULE_LICENSE("GPL");
MODULE_VERSION(UNCORE_PMU_VERSION);
