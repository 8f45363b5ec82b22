// SPDX-License-Identifier: GPL-2.0
/*
 * Marvell Odyssey last-level cache Tag-and-Data (LLC-TAD) performance
 * monitor.
 *
 * One PMU, named tad, covers every TAD block of the SoC. Each block has
 * eight 64-bit counters; counter n is programmed alike in every block and
 * an event's count is the sum over the blocks. Writing an event to a
 * counter's control register starts it, writing 0 stops it.
 */

#include <linux/acpi.h>
#include <linux/bits.h>
#include <linux/ioport.h>
#include <linux/mod_devicetable.h>
#include <linux/module.h>
#include <linux/platform_device.h>
#include <linux/property.h>

#include "uncore_pmu.h"

#define TAD_NUM_COUNTERS	8

/* In each block's PMU page. */
#define TAD_PFC(n)		(0x800 + 8 * (n))
#define TAD_PRF(n)		(0x900 + 8 * (n))
#define TAD_PAGE_MIN		(TAD_PRF(TAD_NUM_COUNTERS - 1) + 8)

struct ody_tad_pmu {
	struct uncore_pmu upmu;
	struct uncore_win *tads;
	u32 nr_tads;
};

static struct ody_tad_pmu *to_ody_tad_pmu(struct pmu *pmu)
{
	return container_of(to_uncore_pmu(pmu), struct ody_tad_pmu, upmu);
}

static int ody_tad_read(struct perf_event *event, u64 *val)
{
	struct ody_tad_pmu *tad = to_ody_tad_pmu(event->pmu);
	int idx = event->hw.idx;
	u64 sum = 0;
	u32 i;

	for (i = 0; i < tad->nr_tads; i++)
		sum += uncore_read64(&tad->tads[i], TAD_PFC(idx));
	*val = sum;
	return 0;
}

/*
 * Every block's counter is cleared before any starts, so the sum starts
 * from 0, and so does the event's next delta.
 */
static void ody_tad_start(struct perf_event *event)
{
	struct ody_tad_pmu *tad = to_ody_tad_pmu(event->pmu);
	int idx = event->hw.idx;
	u32 i;

	for (i = 0; i < tad->nr_tads; i++)
		uncore_write64(&tad->tads[i], TAD_PFC(idx), 0);
	local64_set(&event->hw.prev_count, 0);
	for (i = 0; i < tad->nr_tads; i++)
		uncore_write64(&tad->tads[i], TAD_PRF(idx), event->attr.config);
}

/* The counters hold their values once stopped, for the layer's last read. */
static void ody_tad_stop(struct perf_event *event)
{
	struct ody_tad_pmu *tad = to_ody_tad_pmu(event->pmu);
	int idx = event->hw.idx;
	u32 i;

	for (i = 0; i < tad->nr_tads; i++)
		uncore_write64(&tad->tads[i], TAD_PRF(idx), 0);
}

static struct attribute *ody_tad_events[] = {
	UNCORE_EVENT_ATTR(tad_req_msh_in_exlmn, 0x03),
	UNCORE_EVENT_ATTR(tad_alloc_dtg, 0x1a),
	UNCORE_EVENT_ATTR(tad_alloc_ltg, 0x1b),
	UNCORE_EVENT_ATTR(tad_alloc_any, 0x1c),
	UNCORE_EVENT_ATTR(tad_hit_dtg, 0x1d),
	UNCORE_EVENT_ATTR(tad_hit_ltg, 0x1e),
	UNCORE_EVENT_ATTR(tad_hit_any, 0x1f),
	UNCORE_EVENT_ATTR(tad_tag_rd, 0x20),
	UNCORE_EVENT_ATTR(tad_tot_cycle, 0xff),
	NULL
};

static struct attribute *ody_tad_formats[] = {
	UNCORE_FORMAT_ATTR(event, "config:0-7"),
	NULL
};

static const struct uncore_pmu_ops ody_tad_ops = {
	.start		= ody_tad_start,
	.stop		= ody_tad_stop,
	.read		= ody_tad_read,
};

static const struct uncore_pmu_desc ody_tad_desc = {
	.ops		= &ody_tad_ops,
	.formats	= ody_tad_formats,
	.events		= ody_tad_events,
	.flags		= UNCORE_PMU_FIXED_EVENTS,
	.capabilities	= PERF_PMU_CAP_NO_INTERRUPT,
	.num_counters	= TAD_NUM_COUNTERS,
	.counter_width	= 64,
	.event_digits	= 2,
};

static int ody_tad_prop(struct device *dev, const char *prop, u32 *val)
{
	int ret = device_property_read_u32(dev, prop, val);

	if (ret)
		return dev_err_probe(dev, ret, "cannot read property %s\n", prop);
	if (!*val)
		return dev_err_probe(dev, -EINVAL, "property %s is 0\n", prop);
	return 0;
}

/*
 * Map each block's PMU page: tad-cnt blocks, tad-page-size bytes apart
 * from the start of the MEM resource, tad-pmu-page-size bytes each. The
 * resource must hold them all.
 */
static int ody_tad_map(struct platform_device *pdev, struct ody_tad_pmu *tad)
{
	struct device *dev = &pdev->dev;
	u32 page_size, pmu_page_size;
	struct resource *res;
	u32 i;
	int ret;

	ret = ody_tad_prop(dev, "marvell,tad-page-size", &page_size);
	if (!ret)
		ret = ody_tad_prop(dev, "marvell,tad-pmu-page-size", &pmu_page_size);
	if (!ret)
		ret = ody_tad_prop(dev, "marvell,tad-cnt", &tad->nr_tads);
	if (ret)
		return ret;
	if (pmu_page_size < TAD_PAGE_MIN || pmu_page_size > page_size)
		return dev_err_probe(dev, -EINVAL,
				     "PMU page of %#x bytes in a TAD page of %#x bytes\n",
				     pmu_page_size, page_size);

	res = platform_get_resource(pdev, IORESOURCE_MEM, 0);
	if (!res)
		return dev_err_probe(dev, -ENXIO, "no MEM resource 0\n");
	if ((u64)tad->nr_tads * page_size > resource_size(res))
		return dev_err_probe(dev, -EINVAL,
				     "MEM resource is %#llx bytes, %u TADs need %#llx\n",
				     (unsigned long long)resource_size(res), tad->nr_tads,
				     (unsigned long long)tad->nr_tads * page_size);

	tad->tads = devm_kcalloc(dev, tad->nr_tads, sizeof(*tad->tads), GFP_KERNEL);
	if (!tad->tads)
		return -ENOMEM;
	for (i = 0; i < tad->nr_tads; i++) {
		struct resource page = DEFINE_RES_MEM_NAMED(res->start + (u64)i * page_size,
							    pmu_page_size, dev_name(dev));

		ret = uncore_map_resource(dev, &page, &tad->tads[i]);
		if (ret)
			return ret;
	}
	return 0;
}

static int ody_tad_probe(struct platform_device *pdev)
{
	struct device *dev = &pdev->dev;
	struct ody_tad_pmu *tad;
	int ret;

	tad = devm_kzalloc(dev, sizeof(*tad), GFP_KERNEL);
	if (!tad)
		return -ENOMEM;

	ret = ody_tad_map(pdev, tad);
	if (ret)
		return ret;

	ret = uncore_pmu_init(&tad->upmu, dev, &ody_tad_desc);
	if (ret)
		return ret;

	ret = devm_uncore_pmu_register(&tad->upmu, "tad");
	if (ret)
		return dev_err_probe(dev, ret, "cannot register PMU tad\n");
	return 0;
}

static const struct acpi_device_id ody_tad_acpi_match[] = {
	{ "MRVL000D", 0 },
	{ }
};
MODULE_DEVICE_TABLE(acpi, ody_tad_acpi_match);

static struct platform_driver ody_tad_driver = {
	.driver = {
		.name = "odyssey-tad-pmu",
		.acpi_match_table = ody_tad_acpi_match,
		.suppress_bind_attrs = true,
	},
	.probe = ody_tad_probe,
};
module_platform_driver(ody_tad_driver);

UNCORE_IMPORT_NS();
MODULE_DESCRIPTION("Marvell Odyssey LLC-TAD Perf driver");
MODULE_LICENSE("GPL");
MODULE_VERSION(UNCORE_PMU_VERSION);
