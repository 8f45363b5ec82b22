// SPDX-License-Identifier: GPL-2.0
/*
 * NVIDIA Tegra410 CPU memory (CMEM) latency PMU.
 *
 * Fourteen instances, each with a cycle counter and, per memory controller,
 * a read-request counter and an outstanding-reads accumulator. The counters
 * are fixed function and shared by every event; they are started, stopped
 * and cleared together through a broadcast window.
 *
 * The counters run, uncleared, for as long as any event is scheduled, and
 * every event counts from a snapshot taken when it starts. Stopping them at
 * each pmu_disable, as a per-event counter PMU would, loses whatever traffic
 * arrives while perf reschedules (multiplexing does that every few ms);
 * this way nothing is lost. They are stopped, cleared and clock-gated once
 * the last event goes.
 */

#include <linux/acpi.h>
#include <linux/mod_devicetable.h>
#include <linux/module.h>
#include <linux/platform_device.h>

#include "uncore_pmu.h"

#define CMEM_NUM_INST		14
#define CMEM_NUM_MC		3

#define CMEM_CG_CTRL		0x800
#define CMEM_CTRL		0x808
#define CMEM_CG_ON		0x1
#define CMEM_CG_OFF		0x0
#define CMEM_CTRL_STOP		0x0
#define CMEM_CTRL_COUNT		0x1
#define CMEM_CTRL_CLEAR		0x2

#define CMEM_EV_CYCLES		0x0
#define CMEM_EV_RD_REQ		0x1
#define CMEM_EV_RD_CUM_OUTS	0x2

/*
 * Counter registers, each 64 bits: the cycle counter, then per memory
 * controller a read-request counter and an outstanding-reads accumulator,
 * each MC's pair CMEM_MC_STRIDE after the previous one.
 */
#define CMEM_CYCLE_CNTR		0x818
#define CMEM_RD_REQ_CNTR	0x820
#define CMEM_RD_CUM_OUTS_CNTR	0x830
#define CMEM_MC_STRIDE		0x18

/* Each window must reach the end of the last counter (0x860, 64 bits). */
#define CMEM_WIN_SIZE		0x868
static_assert(CMEM_RD_CUM_OUTS_CNTR + (CMEM_NUM_MC - 1) * CMEM_MC_STRIDE + 8 ==
	      CMEM_WIN_SIZE);

struct cmem_pmu {
	struct uncore_pmu upmu;
	struct uncore_win inst[CMEM_NUM_INST];
	struct uncore_win bcast;
};

static struct cmem_pmu *to_cmem_pmu(struct uncore_pmu *upmu)
{
	return container_of(upmu, struct cmem_pmu, upmu);
}

static void cmem_pmu_bcast(struct cmem_pmu *cmem, u32 reg, u64 val)
{
	uncore_write64(&cmem->bcast, reg, val);
}

/* hw.event_base: the event's counter, of the first MC (cmem_pmu_events[]). */
static int cmem_pmu_read(struct perf_event *event, u64 *val)
{
	struct cmem_pmu *cmem = to_cmem_pmu(to_uncore_pmu(event->pmu));
	u32 cntr = event->hw.event_base;
	u64 sum = 0;
	int i, mc;

	/* The instances run in lock-step: one cycle counter tells the time. */
	if (event->attr.config == CMEM_EV_CYCLES) {
		*val = uncore_read64(&cmem->inst[0], cntr);
		return 0;
	}

	for (i = 0; i < CMEM_NUM_INST; i++)
		for (mc = 0; mc < CMEM_NUM_MC; mc++)
			sum += uncore_read64(&cmem->inst[i], cntr + mc * CMEM_MC_STRIDE);
	*val = sum;
	return 0;
}

/* Run while any event is scheduled; stop, clear and gate when none is. */
static void cmem_pmu_run(struct uncore_pmu *upmu, bool on)
{
	struct cmem_pmu *cmem = to_cmem_pmu(upmu);

	if (on) {
		cmem_pmu_bcast(cmem, CMEM_CG_CTRL, CMEM_CG_ON);
		cmem_pmu_bcast(cmem, CMEM_CTRL, CMEM_CTRL_COUNT);
	} else {
		/* No event is left to fold into: clearing loses nothing. */
		cmem_pmu_bcast(cmem, CMEM_CTRL, CMEM_CTRL_CLEAR);
		cmem_pmu_bcast(cmem, CMEM_CG_CTRL, CMEM_CG_OFF);
	}
}

/* A group read: CTRL = 0 stops every counter and keeps its value. */
static void cmem_pmu_freeze(struct uncore_pmu *upmu)
{
	cmem_pmu_bcast(to_cmem_pmu(upmu), CMEM_CTRL, CMEM_CTRL_STOP);
}

static void cmem_pmu_thaw(struct uncore_pmu *upmu)
{
	cmem_pmu_bcast(to_cmem_pmu(upmu), CMEM_CTRL, CMEM_CTRL_COUNT);
}

static struct attribute *cmem_pmu_events[] = {
	UNCORE_EVENT_ATTR_DATA(cycles, CMEM_EV_CYCLES, 0, CMEM_CYCLE_CNTR),
	UNCORE_EVENT_ATTR_DATA(rd_req, CMEM_EV_RD_REQ, 0, CMEM_RD_REQ_CNTR),
	UNCORE_EVENT_ATTR_DATA(rd_cum_outs, CMEM_EV_RD_CUM_OUTS, 0, CMEM_RD_CUM_OUTS_CNTR),
	NULL
};

static struct attribute *cmem_pmu_formats[] = {
	UNCORE_FORMAT_ATTR(event, "config:0-1"),
	NULL
};

static const struct uncore_pmu_ops cmem_pmu_ops = {
	.read		= cmem_pmu_read,
	.run		= cmem_pmu_run,
	.freeze		= cmem_pmu_freeze,
	.thaw		= cmem_pmu_thaw,
};

static const struct uncore_pmu_desc cmem_pmu_desc = {
	.ops		= &cmem_pmu_ops,
	.formats	= cmem_pmu_formats,
	.events		= cmem_pmu_events,
	.flags		= UNCORE_PMU_FREE_RUNNING | UNCORE_PMU_FIXED_EVENTS |
			  UNCORE_PMU_SHOW_ASSOC,
	.capabilities	= PERF_PMU_CAP_NO_INTERRUPT,
	.counter_width	= 64,
	.event_digits	= 1,
};

static int cmem_pmu_probe(struct platform_device *pdev)
{
	struct device *dev = &pdev->dev;
	struct cmem_pmu *cmem;
	const char *name;
	u32 socket;
	int ret;

	cmem = devm_kzalloc(dev, sizeof(*cmem), GFP_KERNEL);
	if (!cmem)
		return -ENOMEM;

	ret = uncore_pmu_init(&cmem->upmu, dev, &cmem_pmu_desc);
	if (ret)
		return ret;
	ret = uncore_pmu_acpi_socket(&cmem->upmu, &socket);
	if (ret)
		return ret;
	ret = uncore_map_windows(pdev, cmem->inst, CMEM_NUM_INST, CMEM_WIN_SIZE);
	if (ret)
		return ret;
	ret = uncore_map_window(pdev, CMEM_NUM_INST, &cmem->bcast, CMEM_WIN_SIZE);
	if (ret)
		return ret;

	cmem->upmu.identifier = acpi_device_hid(ACPI_COMPANION(dev));
	name = devm_kasprintf(dev, GFP_KERNEL, "nvidia_cmem_latency_pmu_%u", socket);
	if (!name)
		return -ENOMEM;

	/* Start from cleared counters with the clocks gated. */
	cmem_pmu_bcast(cmem, CMEM_CG_CTRL, CMEM_CG_ON);
	cmem_pmu_bcast(cmem, CMEM_CTRL, CMEM_CTRL_CLEAR);
	cmem_pmu_bcast(cmem, CMEM_CG_CTRL, CMEM_CG_OFF);

	ret = devm_uncore_pmu_register(&cmem->upmu, name);
	if (ret)
		return dev_err_probe(dev, ret, "cannot register PMU %s\n", name);
	return 0;
}

static const struct acpi_device_id cmem_pmu_acpi_match[] = {
	{ "NVDA2021" },
	{ }
};
MODULE_DEVICE_TABLE(acpi, cmem_pmu_acpi_match);

static struct platform_driver cmem_pmu_driver = {
	.driver = {
		.name = "nvidia-t410-cmem-latency-pmu",
		.acpi_match_table = cmem_pmu_acpi_match,
		.suppress_bind_attrs = true,
	},
	.probe = cmem_pmu_probe,
};
module_platform_driver(cmem_pmu_driver);

UNCORE_IMPORT_NS();
MODULE_DESCRIPTION("NVIDIA Tegra410 CPU Memory Latency PMU driver");
MODULE_LICENSE("GPL");
MODULE_VERSION(UNCORE_PMU_VERSION);
