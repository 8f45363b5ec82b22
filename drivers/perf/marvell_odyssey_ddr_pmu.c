// SPDX-License-Identifier: GPL-2.0
/*
 * Marvell Odyssey DRAM subsystem (DSS) performance monitor.
 *
 * Each DDR controller has eight programmable 64-bit counters, each selecting
 * its event with a bitmap, and two free-running 64-bit counters of DDR reads
 * and writes. The programmable counters saturate instead of wrapping and
 * raise no interrupt: the helper layer's poll restarts a saturated one. The
 * free-running counters are shared by any number of events, each counting
 * from a snapshot; they are enabled while an event reads them and are never
 * cleared.
 */

#include <linux/acpi.h>
#include <linux/bits.h>
#include <linux/mod_devicetable.h>
#include <linux/module.h>
#include <linux/platform_device.h>

#include "uncore_pmu.h"

#define DDR_NUM_COUNTERS	8

/* Per programmable counter n, at a stride of 8 bytes. */
#define DDR_OP_MODE(n)		(0x20020 + 8 * (n))
#define DDR_START(n)		(0x200a0 + 8 * (n))
#define DDR_END(n)		(0x200e0 + 8 * (n))
#define DDR_CFG(n)		(0x20160 + 8 * (n))
#define DDR_CNT(n)		(0x201c0 + 8 * (n))

#define DDR_OP_MODE_MANUAL	1
#define DDR_START_OP		1
#define DDR_END_OP		1
#define DDR_CFG_ENABLE		BIT_ULL(63)
/* A programmable counter stops at its maximum. */
#define DDR_CNT_MAX		U64_MAX

/* The free-running counters: enable bits, clear commands (unused), values. */
#define DDR_FREERUN_CTRL	0x20240
#define DDR_FREERUN_WRITE_EN	BIT_ULL(0)
#define DDR_FREERUN_READ_EN	BIT_ULL(1)
#define DDR_FREERUN_WR_CNT	0x20250
#define DDR_FREERUN_RD_CNT	0x20258
#define DDR_WIN_SIZE		(DDR_FREERUN_RD_CNT + 8)

/* Event ids with a 4-bit group in the bitmap; every other sets one bit. */
#define DDR_EV_ENTER_SELFREF	27
#define DDR_EV_ENTER_POWERDOWN	31
#define DDR_EV_ENTER_MPSM	35

static unsigned long poll_period_sec = 100;
module_param(poll_period_sec, ulong, 0444);
MODULE_PARM_DESC(poll_period_sec,
		 "Seconds between checks for saturated counters (default 100, at least 1)");

struct ody_ddr_pmu {
	struct uncore_pmu upmu;
	struct uncore_win regs;
	u64 freerun_en;
};

static struct ody_ddr_pmu *to_ody_ddr_pmu(struct pmu *pmu)
{
	return container_of(to_uncore_pmu(pmu), struct ody_ddr_pmu, upmu);
}

/* The CFG bitmap of a programmable event: bit (id - 1), or four from there. */
static u64 ody_ddr_bitmap(u64 id)
{
	switch (id) {
	case DDR_EV_ENTER_SELFREF:
	case DDR_EV_ENTER_POWERDOWN:
	case DDR_EV_ENTER_MPSM:
		return GENMASK_ULL(id + 2, id - 1);
	default:
		return BIT_ULL(id - 1);
	}
}

/*
 * The helper layer admits only the ids of ody_ddr_events[]; the shared
 * entries (the free-running counters) give their value register in
 * hw.event_base, the others their id.
 */
static int ody_ddr_read(struct perf_event *event, u64 *val)
{
	struct ody_ddr_pmu *ddr = to_ody_ddr_pmu(event->pmu);

	if (uncore_event_shared(event))
		*val = uncore_read64(&ddr->regs, event->hw.event_base);
	else
		*val = uncore_read64(&ddr->regs, DDR_CNT(event->hw.idx));
	return 0;
}

/* START zeroes the counter: the event's next delta is taken from 0. */
static void ody_ddr_restart(struct ody_ddr_pmu *ddr, struct perf_event *event)
{
	int idx = event->hw.idx;

	uncore_write64(&ddr->regs, DDR_END(idx), DDR_END_OP);
	uncore_write64(&ddr->regs, DDR_START(idx), DDR_START_OP);
	local64_set(&event->hw.prev_count, 0);
}

static void ody_ddr_start(struct perf_event *event)
{
	struct ody_ddr_pmu *ddr = to_ody_ddr_pmu(event->pmu);
	int idx = event->hw.idx;

	uncore_write64(&ddr->regs, DDR_CFG(idx),
		       ody_ddr_bitmap(event->attr.config) | DDR_CFG_ENABLE);
	uncore_write64(&ddr->regs, DDR_START(idx), DDR_START_OP);
	local64_set(&event->hw.prev_count, 0);
}

/* The counter holds its value once stopped, for the layer's last read. */
static void ody_ddr_stop(struct perf_event *event)
{
	struct ody_ddr_pmu *ddr = to_ody_ddr_pmu(event->pmu);
	int idx = event->hw.idx;

	uncore_write64(&ddr->regs, DDR_CFG(idx), ody_ddr_bitmap(event->attr.config));
	uncore_write64(&ddr->regs, DDR_END(idx), DDR_END_OP);
}

/*
 * A saturated counter is frozen, so the value the poll just folded is its
 * whole count: restart it from zero.
 */
static void ody_ddr_poll(struct perf_event *event)
{
	if (uncore_event_shared(event) ||
	    local64_read(&event->hw.prev_count) != DDR_CNT_MAX)
		return;
	ody_ddr_restart(to_ody_ddr_pmu(event->pmu), event);
}

/*
 * pmu_enable: a free-running counter counts while an event reads it. It
 * keeps its value when disabled and is never cleared, so events that come
 * and go never disturb each other.
 */
static void ody_ddr_enable(struct uncore_pmu *upmu)
{
	struct ody_ddr_pmu *ddr = container_of(upmu, struct ody_ddr_pmu, upmu);
	struct perf_event *event;
	u64 en = 0;

	uncore_pmu_for_each_event(upmu, event) {
		if (!uncore_event_shared(event))
			continue;
		en |= event->hw.event_base == DDR_FREERUN_RD_CNT ?
		      DDR_FREERUN_READ_EN : DDR_FREERUN_WRITE_EN;
	}
	if (en == ddr->freerun_en)
		return;
	uncore_write64(&ddr->regs, DDR_FREERUN_CTRL, en);
	ddr->freerun_en = en;
}

static struct attribute *ody_ddr_events[] = {
	UNCORE_EVENT_ATTR(ddr_hif_rd_or_wr_access, 1),
	UNCORE_EVENT_ATTR(ddr_hif_wr_access, 2),
	UNCORE_EVENT_ATTR(ddr_hif_rd_access, 3),
	UNCORE_EVENT_ATTR(ddr_hif_rmw_access, 4),
	UNCORE_EVENT_ATTR(ddr_hif_pri_rdaccess, 5),
	UNCORE_EVENT_ATTR(ddr_rd_bypass_access, 6),
	UNCORE_EVENT_ATTR(ddr_act_bypass_access, 7),
	UNCORE_EVENT_ATTR(ddr_dfi_wr_data_access, 8),
	UNCORE_EVENT_ATTR(ddr_dfi_rd_data_access, 9),
	UNCORE_EVENT_ATTR(ddr_hpri_sched_rd_crit_access, 10),
	UNCORE_EVENT_ATTR(ddr_lpri_sched_rd_crit_access, 11),
	UNCORE_EVENT_ATTR(ddr_wr_trxn_crit_access, 12),
	UNCORE_EVENT_ATTR(ddr_cam_active_access, 13),
	UNCORE_EVENT_ATTR(ddr_cam_rd_or_wr_access, 14),
	UNCORE_EVENT_ATTR(ddr_cam_rd_active_access, 15),
	UNCORE_EVENT_ATTR(ddr_cam_read, 16),
	UNCORE_EVENT_ATTR(ddr_cam_write, 17),
	UNCORE_EVENT_ATTR(ddr_cam_mwr, 18),
	UNCORE_EVENT_ATTR(ddr_precharge, 19),
	UNCORE_EVENT_ATTR(ddr_precharge_for_rdwr, 20),
	UNCORE_EVENT_ATTR(ddr_precharge_for_other, 21),
	UNCORE_EVENT_ATTR(ddr_rdwr_transitions, 22),
	UNCORE_EVENT_ATTR(ddr_write_combine, 23),
	UNCORE_EVENT_ATTR(ddr_war_hazard, 24),
	UNCORE_EVENT_ATTR(ddr_raw_hazard, 25),
	UNCORE_EVENT_ATTR(ddr_waw_hazard, 26),
	UNCORE_EVENT_ATTR(ddr_enter_selfref, DDR_EV_ENTER_SELFREF),
	UNCORE_EVENT_ATTR(ddr_enter_powerdown, DDR_EV_ENTER_POWERDOWN),
	UNCORE_EVENT_ATTR(ddr_enter_mpsm, DDR_EV_ENTER_MPSM),
	UNCORE_EVENT_ATTR(ddr_refresh, 39),
	UNCORE_EVENT_ATTR(ddr_crit_ref, 40),
	UNCORE_EVENT_ATTR(ddr_spec_ref, 41),
	UNCORE_EVENT_ATTR(ddr_load_mode, 42),
	UNCORE_EVENT_ATTR(ddr_zqcl, 43),
	UNCORE_EVENT_ATTR(ddr_cam_wr_access, 44),
	UNCORE_EVENT_ATTR(ddr_dfi_cycles, 45),
	UNCORE_EVENT_ATTR(ddr_retry_fifo_full, 46),
	UNCORE_EVENT_ATTR(ddr_bsm_alloc, 47),
	UNCORE_EVENT_ATTR(ddr_bsm_starvation, 48),
	UNCORE_EVENT_ATTR(ddr_win_limit_reached_rd, 49),
	UNCORE_EVENT_ATTR(ddr_win_limit_reached_wr, 50),
	UNCORE_EVENT_ATTR(ddr_dqsosc_mpc, 51),
	UNCORE_EVENT_ATTR(ddr_dqsosc_mrr, 52),
	UNCORE_EVENT_ATTR(ddr_tcr_mrr, 53),
	UNCORE_EVENT_ATTR(ddr_zqstart, 54),
	UNCORE_EVENT_ATTR(ddr_zqlatch, 55),
	UNCORE_EVENT_ATTR(ddr_dfi_parity_poison, 56),
	UNCORE_EVENT_ATTR(ddr_wr_crc_error, 57),
	UNCORE_EVENT_ATTR(ddr_capar_error, 58),
	UNCORE_EVENT_ATTR(ddr_rd_crc_error, 59),
	UNCORE_EVENT_ATTR(ddr_rd_uc_ecc_error, 60),
	UNCORE_EVENT_ATTR(ddr_dfi_cmd_is_retry, 61),
	UNCORE_EVENT_ATTR_SHARED(ddr_ddr_writes, 100, DDR_FREERUN_WR_CNT),
	UNCORE_EVENT_ATTR_SHARED(ddr_ddr_reads, 101, DDR_FREERUN_RD_CNT),
	NULL
};

static struct attribute *ody_ddr_formats[] = {
	UNCORE_FORMAT_ATTR(event, "config:0-8"),
	NULL
};

static const struct uncore_pmu_ops ody_ddr_ops = {
	.start		= ody_ddr_start,
	.stop		= ody_ddr_stop,
	.read		= ody_ddr_read,
	.enable		= ody_ddr_enable,
	.poll		= ody_ddr_poll,
};

static const struct uncore_pmu_desc ody_ddr_desc = {
	.ops		= &ody_ddr_ops,
	.formats	= ody_ddr_formats,
	.events		= ody_ddr_events,
	.flags		= UNCORE_PMU_FIXED_EVENTS,
	.num_counters	= DDR_NUM_COUNTERS,
	.counter_width	= 64,
	.event_digits	= 2,
};

static int ody_ddr_probe(struct platform_device *pdev)
{
	struct device *dev = &pdev->dev;
	struct ody_ddr_pmu *ddr;
	const char *name;
	int i, ret;

	ddr = devm_kzalloc(dev, sizeof(*ddr), GFP_KERNEL);
	if (!ddr)
		return -ENOMEM;

	ret = uncore_map_window(pdev, 0, &ddr->regs, DDR_WIN_SIZE);
	if (ret)
		return ret;

	ret = uncore_pmu_init(&ddr->upmu, dev, &ody_ddr_desc);
	if (ret)
		return ret;
	ddr->upmu.poll_ns = max(poll_period_sec, 1UL) * NSEC_PER_SEC;

	/*
	 * Every programmable counter runs in manual mode (started and ended
	 * by command), set once here rather than at each start; both
	 * free-running counters start disabled, whatever firmware left.
	 */
	for (i = 0; i < DDR_NUM_COUNTERS; i++)
		uncore_write64(&ddr->regs, DDR_OP_MODE(i), DDR_OP_MODE_MANUAL);
	uncore_write64(&ddr->regs, DDR_FREERUN_CTRL, 0);

	name = devm_kasprintf(dev, GFP_KERNEL, "mrvl_ddr_pmu_%llx",
			      (unsigned long long)ddr->regs.phys);
	if (!name)
		return -ENOMEM;

	ret = devm_uncore_pmu_register(&ddr->upmu, name);
	if (ret)
		return dev_err_probe(dev, ret, "cannot register PMU %s\n", name);
	return 0;
}

static const struct acpi_device_id ody_ddr_acpi_match[] = {
	{ "MRVL000C", 0 },
	{ }
};
MODULE_DEVICE_TABLE(acpi, ody_ddr_acpi_match);

static struct platform_driver ody_ddr_driver = {
	.driver = {
		.name = "odyssey-ddr-pmu",
		.acpi_match_table = ody_ddr_acpi_match,
		.suppress_bind_attrs = true,
	},
	.probe = ody_ddr_probe,
};
module_platform_driver(ody_ddr_driver);

UNCORE_IMPORT_NS();
MODULE_DESCRIPTION("Marvell Odyssey DRAM Subsystem (DSS) Performance Monitor Driver");
MODULE_LICENSE("GPL");
MODULE_VERSION(UNCORE_PMU_VERSION);
