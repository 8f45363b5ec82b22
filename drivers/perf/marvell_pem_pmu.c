// SPDX-License-Identifier: GPL-2.0
/*
 * Marvell Odyssey PCIe interface (PEM) performance monitor.
 *
 * Each PEM has 27 free-running 64-bit counters, one per event, that the
 * driver only ever reads: any number of events may share a counter, so a
 * count is always the difference between two readings.
 */

#include <linux/acpi.h>
#include <linux/mod_devicetable.h>
#include <linux/module.h>
#include <linux/platform_device.h>

#include "uncore_pmu.h"

/*
 * The counter at the highest offset (ats_inv_latency, the table's last):
 * the window ends with it.
 */
#define PEM_LAST_CNTR		0x2d40
#define PEM_WIN_SIZE		(PEM_LAST_CNTR + 8)

struct pem_pmu {
	struct uncore_pmu upmu;
	struct uncore_win regs;
};

static struct pem_pmu *to_pem_pmu(struct pmu *pmu)
{
	return container_of(to_uncore_pmu(pmu), struct pem_pmu, upmu);
}

/*
 * The helper layer admits only the ids of pem_pmu_events[] and hands each
 * event its counter's offset from there in hw.event_base.
 */
static int pem_pmu_read(struct perf_event *event, u64 *val)
{
	struct pem_pmu *pem = to_pem_pmu(event->pmu);

	*val = uncore_read64(&pem->regs, event->hw.event_base);
	return 0;
}

static struct attribute *pem_pmu_events[] = {
	UNCORE_EVENT_ATTR_DATA(ib_tlp_npr, 0x00, 0, 0x0000),
	UNCORE_EVENT_ATTR_DATA(ib_tlp_pr, 0x01, 0, 0x0008),
	UNCORE_EVENT_ATTR_DATA(ib_tlp_cpl_partid, 0x02, 0, 0x0010),
	UNCORE_EVENT_ATTR_DATA(ib_tlp_dwords_npr, 0x03, 0, 0x0100),
	UNCORE_EVENT_ATTR_DATA(ib_tlp_dwords_pr, 0x04, 0, 0x0108),
	UNCORE_EVENT_ATTR_DATA(ib_tlp_dwords_cpl_partid, 0x05, 0, 0x0110),
	UNCORE_EVENT_ATTR_DATA(ib_inflight, 0x06, 0, 0x0200),
	UNCORE_EVENT_ATTR_DATA(ib_reads, 0x07, 0, 0x0300),
	UNCORE_EVENT_ATTR_DATA(ib_req_no_ro_ncb, 0x08, 0, 0x0400),
	UNCORE_EVENT_ATTR_DATA(ib_req_no_ro_ebus, 0x09, 0, 0x0408),
	UNCORE_EVENT_ATTR_DATA(ob_tlp_npr_partid, 0x0a, 0, 0x0500),
	UNCORE_EVENT_ATTR_DATA(ob_tlp_pr_partid, 0x0b, 0, 0x0508),
	UNCORE_EVENT_ATTR_DATA(ob_tlp_cpl_partid, 0x0c, 0, 0x0510),
	UNCORE_EVENT_ATTR_DATA(ob_tlp_dwords_npr_partid, 0x0d, 0, 0x0600),
	UNCORE_EVENT_ATTR_DATA(ob_tlp_dwords_pr_partid, 0x0e, 0, 0x0608),
	UNCORE_EVENT_ATTR_DATA(ob_tlp_dwords_cpl_partid, 0x0f, 0, 0x0610),
	UNCORE_EVENT_ATTR_DATA(ob_inflight_partid, 0x10, 0, 0x0700),
	UNCORE_EVENT_ATTR_DATA(ob_reads_partid, 0x11, 0, 0x0800),
	UNCORE_EVENT_ATTR_DATA(ob_merges_npr_partid, 0x12, 0, 0x0900),
	UNCORE_EVENT_ATTR_DATA(ob_merges_pr_partid, 0x13, 0, 0x0908),
	UNCORE_EVENT_ATTR_DATA(ob_merges_cpl_partid, 0x14, 0, 0x0910),
	UNCORE_EVENT_ATTR_DATA(ats_trans, 0x15, 0, 0x2d18),
	UNCORE_EVENT_ATTR_DATA(ats_trans_latency, 0x16, 0, 0x2d20),
	UNCORE_EVENT_ATTR_DATA(ats_pri, 0x17, 0, 0x2d28),
	UNCORE_EVENT_ATTR_DATA(ats_pri_latency, 0x18, 0, 0x2d30),
	UNCORE_EVENT_ATTR_DATA(ats_inv, 0x19, 0, 0x2d38),
	UNCORE_EVENT_ATTR_DATA(ats_inv_latency, 0x1a, 0, PEM_LAST_CNTR),
	NULL
};

static struct attribute *pem_pmu_formats[] = {
	UNCORE_FORMAT_ATTR(event, "config:0-5"),
	NULL
};

static const struct uncore_pmu_ops pem_pmu_ops = {
	.read = pem_pmu_read,
};

static const struct uncore_pmu_desc pem_pmu_desc = {
	.ops		= &pem_pmu_ops,
	.formats	= pem_pmu_formats,
	.events		= pem_pmu_events,
	.flags		= UNCORE_PMU_FREE_RUNNING | UNCORE_PMU_FIXED_EVENTS,
	.counter_width	= 64,
	.event_digits	= 2,
};

static int pem_pmu_probe(struct platform_device *pdev)
{
	struct device *dev = &pdev->dev;
	struct pem_pmu *pem;
	const char *name;
	int ret;

	pem = devm_kzalloc(dev, sizeof(*pem), GFP_KERNEL);
	if (!pem)
		return -ENOMEM;

	ret = uncore_map_window(pdev, 0, &pem->regs, PEM_WIN_SIZE);
	if (ret)
		return ret;

	ret = uncore_pmu_init(&pem->upmu, dev, &pem_pmu_desc);
	if (ret)
		return ret;

	name = devm_kasprintf(dev, GFP_KERNEL, "mrvl_pcie_rc_pmu_%llx",
			      (unsigned long long)pem->regs.phys);
	if (!name)
		return -ENOMEM;

	ret = devm_uncore_pmu_register(&pem->upmu, name);
	if (ret)
		return dev_err_probe(dev, ret, "cannot register PMU %s\n", name);
	return 0;
}

static const struct acpi_device_id pem_pmu_acpi_match[] = {
	{ "MRVL000E", 0 },
	{ }
};
MODULE_DEVICE_TABLE(acpi, pem_pmu_acpi_match);

static struct platform_driver pem_pmu_driver = {
	.driver = {
		.name = "pem-pmu",
		.acpi_match_table = pem_pmu_acpi_match,
		.suppress_bind_attrs = true,
	},
	.probe = pem_pmu_probe,
};
module_platform_driver(pem_pmu_driver);

UNCORE_IMPORT_NS();
MODULE_DESCRIPTION("Marvell PEM Perf driver");
MODULE_LICENSE("GPL");
MODULE_VERSION(UNCORE_PMU_VERSION);
