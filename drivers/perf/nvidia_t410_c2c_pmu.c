// SPDX-License-Identifier: GPL-2.0
/*
 * NVIDIA Tegra410 C2C PMUs: NVLink-C2C, NV-CLink and NV-DLink.
 *
 * Each link has a set of instances with fixed-function latency counters
 * (request counts and outstanding-request accumulators, incoming and
 * outgoing) and a cycle counter, started and stopped together through a
 * broadcast window. As for the CMEM PMU, the counters run for as long as
 * any event is scheduled and events count from a snapshot, so rescheduling
 * loses nothing. The hardware restarts them from zero when counting is
 * enabled; the events scheduled at that moment restart from zero with it.
 *
 * Firmware says what is on the other side: GPUs (with a mask of instances
 * per GPU), another SoC, or CXL memory. That decides which events exist and
 * whether the gpu_mask filter does.
 */

#include <linux/acpi.h>
#include <linux/bitops.h>
#include <linux/mod_devicetable.h>
#include <linux/module.h>
#include <linux/platform_device.h>
#include <linux/property.h>

#include "uncore_pmu.h"

#define C2C_MAX_INST		16
#define C2C_MAX_GPU		2

#define C2C_CTRL		0x864
#define C2C_CTRL_ON		0x1
#define C2C_CTRL_OFF		0x0

/* Peer kinds; each is also the attr_mask bit of the attributes it has. */
#define C2C_PEER_GPU		BIT(0)
#define C2C_PEER_CPU		BIT(1)
#define C2C_PEER_CXL		BIT(2)
#define C2C_PEER_ANY		(C2C_PEER_GPU | C2C_PEER_CPU | C2C_PEER_CXL)

#define C2C_EV_CYCLES		0x0
/*
 * The low word of the counter at the highest offset (out_wr_req, the
 * table's last): each window ends with its high word.
 */
#define C2C_LAST_CNTR		0x8b0
#define C2C_WIN_SIZE		(C2C_LAST_CNTR + 8)

/**
 * struct c2c_type - one link type, the match data of its HID
 * @name:     PMU name format, with %u for the socket
 * @nr_inst:  instance windows; the broadcast window follows them
 * @cxl_peer: the link carries reads to CXL memory (no firmware masks)
 */
struct c2c_type {
	const char *name;
	unsigned int nr_inst;
	bool cxl_peer;
};

struct c2c_pmu {
	struct uncore_pmu upmu;
	u32 peer;
	unsigned int nr_inst;
	/* Instances per peer; for a GPU link, index n is GPU n. */
	unsigned long peer_insts[C2C_MAX_GPU];
	/* the peers firmware describes, as a mask of peer_insts[] indices */
	unsigned long peers;
	struct uncore_win inst[C2C_MAX_INST];
	struct uncore_win bcast;
};

static struct c2c_pmu *to_c2c_pmu(struct uncore_pmu *upmu)
{
	return container_of(upmu, struct c2c_pmu, upmu);
}

/*
 * The peers an event counts: those gpu_mask selects (bit n = GPU n) that
 * the firmware describes, or all when gpu_mask is 0. A GPU the firmware
 * does not describe is masked off, as mainline does, so a script's
 * gpu_mask=0x3 opens on a one-GPU machine too; one that selects only
 * absent GPUs counts nothing. Only GPU links have gpu_mask; the helper
 * layer refuses config1 bits elsewhere.
 */
static unsigned long c2c_event_peers(struct c2c_pmu *c2c, struct perf_event *event)
{
	if (!event->attr.config1)
		return c2c->peers;
	return event->attr.config1 & c2c->peers;
}

static int c2c_pmu_read(struct perf_event *event, u64 *val)
{
	struct c2c_pmu *c2c = to_c2c_pmu(to_uncore_pmu(event->pmu));
	unsigned long peers = c2c_event_peers(c2c, event);
	/* the low word of the event's counter (c2c_pmu_events[]); high at +4 */
	u32 lo = event->hw.event_base;
	unsigned int p, i;
	u64 sum = 0, v;
	int ret;

	for_each_set_bit(p, &peers, C2C_MAX_GPU) {
		for_each_set_bit(i, &c2c->peer_insts[p], c2c->nr_inst) {
			ret = uncore_read_hilohi(&c2c->inst[i], lo, lo + 4, &v);
			if (ret)
				return ret;
			/* All instances run in lock-step: one tells the time. */
			if (event->attr.config == C2C_EV_CYCLES) {
				*val = v;
				return 0;
			}
			sum += v;
		}
	}
	*val = sum;
	return 0;
}

/* Run while any event is scheduled, stop when none is. */
static void c2c_pmu_run(struct uncore_pmu *upmu, bool on)
{
	struct c2c_pmu *c2c = to_c2c_pmu(upmu);

	/* Enabling zeroes the counters: the new events start from there. */
	if (on)
		uncore_pmu_zero_prev_counts(upmu);
	uncore_write32(&c2c->bcast, C2C_CTRL, on ? C2C_CTRL_ON : C2C_CTRL_OFF);
}

/* A group read: C2C_CTRL = 0 stops every counter and keeps its value. */
static void c2c_pmu_freeze(struct uncore_pmu *upmu)
{
	uncore_write32(&to_c2c_pmu(upmu)->bcast, C2C_CTRL, C2C_CTRL_OFF);
}

/*
 * Counting again zeroes the counters: the group is up to date, the other
 * events are brought up to date from the values held, then all restart.
 */
static void c2c_pmu_thaw(struct uncore_pmu *upmu)
{
	uncore_pmu_update_unread(upmu);
	uncore_pmu_zero_prev_counts(upmu);
	uncore_write32(&to_c2c_pmu(upmu)->bcast, C2C_CTRL, C2C_CTRL_ON);
}

#define C2C_RD		C2C_PEER_ANY
#define C2C_OUT_RD	(C2C_PEER_GPU | C2C_PEER_CPU)
#define C2C_WR		C2C_PEER_GPU

/* id, the peers that have it, the low word of its 64-bit counter */
static struct attribute *c2c_pmu_events[] = {
	UNCORE_EVENT_ATTR_DATA(cycles, 0x0, C2C_RD, 0x86c),
	UNCORE_EVENT_ATTR_DATA(in_rd_cum_outs, 0x1, C2C_RD, 0x874),
	UNCORE_EVENT_ATTR_DATA(in_rd_req, 0x2, C2C_RD, 0x87c),
	UNCORE_EVENT_ATTR_DATA(in_wr_cum_outs, 0x3, C2C_WR, 0x884),
	UNCORE_EVENT_ATTR_DATA(in_wr_req, 0x4, C2C_WR, 0x88c),
	UNCORE_EVENT_ATTR_DATA(out_rd_cum_outs, 0x5, C2C_OUT_RD, 0x898),
	UNCORE_EVENT_ATTR_DATA(out_rd_req, 0x6, C2C_OUT_RD, 0x8a0),
	UNCORE_EVENT_ATTR_DATA(out_wr_cum_outs, 0x7, C2C_WR, 0x8a8),
	UNCORE_EVENT_ATTR_DATA(out_wr_req, 0x8, C2C_WR, C2C_LAST_CNTR),
	NULL
};

static struct attribute *c2c_pmu_formats[] = {
	UNCORE_FORMAT_ATTR(event, "config:0-3"),
	UNCORE_FORMAT_ATTR_MASK(gpu_mask, "config1:0-1", C2C_PEER_GPU),
	NULL
};

static ssize_t peer_show(struct device *dev, struct device_attribute *attr, char *buf)
{
	struct c2c_pmu *c2c = to_c2c_pmu(to_uncore_pmu(dev_get_drvdata(dev)));
	const char *kind = c2c->peer == C2C_PEER_GPU ? "gpu" :
			   c2c->peer == C2C_PEER_CPU ? "cpu" : "cxlmem";

	return sysfs_emit(buf, "nr_%s=%lu\n", kind, hweight_long(c2c->peers));
}
static DEVICE_ATTR_RO(peer);

static struct attribute *c2c_pmu_peer_attrs[] = {
	&dev_attr_peer.attr,
	NULL
};

static const struct attribute_group c2c_pmu_peer_group = {
	.attrs = c2c_pmu_peer_attrs,
};

static const struct attribute_group *const c2c_pmu_extra_groups[] = {
	&c2c_pmu_peer_group,
	NULL
};

static const struct uncore_pmu_ops c2c_pmu_ops = {
	.read		= c2c_pmu_read,
	.run		= c2c_pmu_run,
	.freeze		= c2c_pmu_freeze,
	.thaw		= c2c_pmu_thaw,
};

static const struct uncore_pmu_desc c2c_pmu_desc = {
	.ops		= &c2c_pmu_ops,
	.formats	= c2c_pmu_formats,
	.events		= c2c_pmu_events,
	.extra_groups	= c2c_pmu_extra_groups,
	.flags		= UNCORE_PMU_FREE_RUNNING | UNCORE_PMU_FIXED_EVENTS |
			  UNCORE_PMU_SHOW_ASSOC,
	.capabilities	= PERF_PMU_CAP_NO_INTERRUPT,
	.counter_width	= 64,
	.event_digits	= 1,
};

static u32 c2c_prop(struct device *dev, const char *name, unsigned int nr_inst)
{
	u32 v = 0;

	device_property_read_u32(dev, name, &v);
	return v & GENMASK(nr_inst - 1, 0);
}

/* Learn the peer from firmware: a SoC, GPUs, or (NV-DLink) CXL memory. */
static int c2c_pmu_peers(struct c2c_pmu *c2c, const struct c2c_type *type)
{
	struct device *dev = c2c->upmu.dev;
	int g;

	if (type->cxl_peer) {
		c2c->peer = C2C_PEER_CXL;
		c2c->peer_insts[0] = GENMASK(type->nr_inst - 1, 0);
	} else {
		c2c->peer_insts[0] = c2c_prop(dev, "cpu_en_mask", type->nr_inst);
		c2c->peer = c2c->peer_insts[0] ? C2C_PEER_CPU : C2C_PEER_GPU;
	}
	if (c2c->peer == C2C_PEER_GPU) {
		c2c->peer_insts[0] = c2c_prop(dev, "gpu0_en_mask", type->nr_inst);
		c2c->peer_insts[1] = c2c_prop(dev, "gpu1_en_mask", type->nr_inst);
	}
	for (g = 0; g < C2C_MAX_GPU; g++)
		if (c2c->peer_insts[g])
			c2c->peers |= BIT(g);
	if (!c2c->peers)
		return dev_err_probe(dev, -EINVAL,
				     "firmware enables no instance (cpu_en_mask, gpu0_en_mask, gpu1_en_mask)\n");
	return 0;
}

static int c2c_pmu_probe(struct platform_device *pdev)
{
	struct device *dev = &pdev->dev;
	const struct c2c_type *type;
	struct c2c_pmu *c2c;
	const char *name;
	u32 socket;
	int ret;

	type = device_get_match_data(dev);
	if (!type)
		return dev_err_probe(dev, -EINVAL, "no link type for this device\n");

	c2c = devm_kzalloc(dev, sizeof(*c2c), GFP_KERNEL);
	if (!c2c)
		return -ENOMEM;

	ret = uncore_pmu_init(&c2c->upmu, dev, &c2c_pmu_desc);
	if (ret)
		return ret;
	ret = uncore_pmu_acpi_socket(&c2c->upmu, &socket);
	if (ret)
		return ret;
	c2c->nr_inst = type->nr_inst;
	ret = c2c_pmu_peers(c2c, type);
	if (ret)
		return ret;
	c2c->upmu.attr_mask = c2c->peer;
	ret = uncore_map_windows(pdev, c2c->inst, type->nr_inst, C2C_WIN_SIZE);
	if (ret)
		return ret;
	ret = uncore_map_window(pdev, type->nr_inst, &c2c->bcast, C2C_WIN_SIZE);
	if (ret)
		return ret;

	c2c->upmu.identifier = acpi_device_hid(ACPI_COMPANION(dev));
	name = devm_kasprintf(dev, GFP_KERNEL, type->name, socket);
	if (!name)
		return -ENOMEM;

	ret = devm_uncore_pmu_register(&c2c->upmu, name);
	if (ret)
		return dev_err_probe(dev, ret, "cannot register PMU %s\n", name);
	return 0;
}

static const struct c2c_type c2c_nvlink = {
	.name = "nvidia_nvlink_c2c_pmu_%u",
	.nr_inst = 14,
};

static const struct c2c_type c2c_nvclink = {
	.name = "nvidia_nvclink_pmu_%u",
	.nr_inst = 12,
};

static const struct c2c_type c2c_nvdlink = {
	.name = "nvidia_nvdlink_pmu_%u",
	.nr_inst = 16,
	.cxl_peer = true,
};

static const struct acpi_device_id c2c_pmu_acpi_match[] = {
	{ "NVDA2020", (kernel_ulong_t)&c2c_nvdlink },
	{ "NVDA2022", (kernel_ulong_t)&c2c_nvclink },
	{ "NVDA2023", (kernel_ulong_t)&c2c_nvlink },
	{ }
};
MODULE_DEVICE_TABLE(acpi, c2c_pmu_acpi_match);

static struct platform_driver c2c_pmu_driver = {
	.driver = {
		.name = "nvidia-t410-c2c-pmu",
		.acpi_match_table = c2c_pmu_acpi_match,
		.suppress_bind_attrs = true,
	},
	.probe = c2c_pmu_probe,
};
module_platform_driver(c2c_pmu_driver);

UNCORE_IMPORT_NS();
MODULE_DESCRIPTION("NVIDIA Tegra410 C2C PMU driver");
MODULE_LICENSE("GPL");
MODULE_VERSION(UNCORE_PMU_VERSION);
