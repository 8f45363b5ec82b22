// SPDX-License-Identifier: GPL-2.0
/*
 * NVIDIA Tegra410 PCIE-TGT PMU: traffic to the PCIe BARs and CXL memory
 * ranges behind one root complex, from any source, filtered by root port
 * (BAR traffic) and by address range. A CoreSight PMU enumerated from the
 * APMT.
 *
 * Address ranges live in eight filter slots outside the PMU pages, in the
 * first memory resource of the ACPI device the APMT node names. Events
 * with the same range share a slot; a slot is programmed by its first user
 * and released by its last.
 */

#include <linux/acpi.h>
#include <linux/bitfield.h>
#include <linux/module.h>

#include "uncore_cspmu.h"

#define TGT_EVENT		GENMASK_ULL(2, 0)
#define TGT_RP			GENMASK_ULL(10, 3)
#define TGT_ADDR_EN		BIT_ULL(11)
#define TGT_EV_CYCLES		0x4

#define TGT_NUM_SLOTS		8
#define TGT_SLOT(s)		(0xd38 + 0x14 * (s))
#define TGT_SLOT_CTRL		0x0
#define TGT_SLOT_BASE_LO	0x4
#define TGT_SLOT_BASE_HI	0x8
#define TGT_SLOT_MASK_LO	0xc
#define TGT_SLOT_MASK_HI	0x10
static const u8 tgt_slot_word[4] = {
	TGT_SLOT_BASE_LO, TGT_SLOT_BASE_HI, TGT_SLOT_MASK_LO, TGT_SLOT_MASK_HI
};

#define TGT_FILT2_RP		GENMASK(7, 0)
#define TGT_FILT2_SLOT(s)	BIT(8 + (s))

/*
 * @base, @mask: the range of the slot's users
 * @users:       events using the slot
 * @hw:          the slot's BASE_LO, BASE_HI, MASK_LO, MASK_HI as last
 *               written, valid once @hw_known
 * @enabled:     CTRL as last written
 */
struct tgt_slot {
	u64 base;
	u64 mask;
	unsigned int users;
	u32 hw[4];
	bool hw_known;
	bool enabled;
};

struct tgt_pmu {
	struct uncore_win filter;
	struct tgt_slot slot[TGT_NUM_SLOTS];
};

static u32 tgt_event_type(struct perf_event *event)
{
	return event->attr.config & TGT_EVENT;
}

static bool tgt_is_cycle(struct perf_event *event)
{
	return tgt_event_type(event) == TGT_EV_CYCLES;
}

/*
 * The slot for @event's range: the one that holds it already, else the
 * first free one; -1 if neither.
 */
static int tgt_find_slot(struct tgt_pmu *tgt, struct perf_event *event)
{
	int s, free = -1;

	for (s = 0; s < TGT_NUM_SLOTS; s++) {
		struct tgt_slot *slot = &tgt->slot[s];

		if (!slot->users) {
			if (free < 0)
				free = s;
		} else if (slot->base == event->attr.config1 &&
			   slot->mask == event->attr.config2) {
			return s;
		}
	}
	return free;
}

static bool tgt_same_range(struct perf_event *a, struct perf_event *b)
{
	return a->attr.config1 == b->attr.config1 && a->attr.config2 == b->attr.config2;
}

/* Distinct address ranges in @event's group, @event included. */
static unsigned int tgt_group_ranges(struct perf_event *event)
{
	struct perf_event *leader = event->group_leader, *m, *seen[TGT_NUM_SLOTS + 1];
	unsigned int n = 0, i;

	seen[n++] = event;
	/* A new leader has no siblings, nor the ctx->mutex to walk them. */
	if (leader == event)
		return n;
	if (leader->pmu == event->pmu &&
	    (leader->attr.config & TGT_ADDR_EN) && !tgt_same_range(leader, event))
		seen[n++] = leader;
	for_each_sibling_event(m, leader) {
		if (m->pmu != event->pmu || !(m->attr.config & TGT_ADDR_EN))
			continue;
		for (i = 0; i < n; i++)
			if (tgt_same_range(seen[i], m))
				break;
		if (i == n && n <= TGT_NUM_SLOTS)
			seen[n++] = m;
	}
	return n;
}

/* A group fits the slots: at most TGT_NUM_SLOTS distinct ranges. */
static int tgt_validate_group(struct uncore_cspmu *c, struct perf_event *event)
{
	if (!(event->attr.config & TGT_ADDR_EN))
		return 0;
	return tgt_group_ranges(event) > TGT_NUM_SLOTS ? -EINVAL : 0;
}

/* Program slot @s with its range, writing only the words that change. */
static void tgt_slot_program(struct tgt_pmu *tgt, int s)
{
	struct tgt_slot *slot = &tgt->slot[s];
	u32 off = TGT_SLOT(s), w[4] = {
		lower_32_bits(slot->base), upper_32_bits(slot->base),
		lower_32_bits(slot->mask), upper_32_bits(slot->mask),
	};
	int i;

	for (i = 0; i < ARRAY_SIZE(w); i++) {
		if (slot->hw_known && slot->hw[i] == w[i])
			continue;
		uncore_write32(&tgt->filter, off + tgt_slot_word[i], w[i]);
		slot->hw[i] = w[i];
	}
	slot->hw_known = true;
	if (!slot->enabled)
		uncore_write32(&tgt->filter, off + TGT_SLOT_CTRL, 1);
	slot->enabled = true;
}

/* A slot without users is disabled; its range stays for a next user. */
static void tgt_slot_release(struct tgt_pmu *tgt, int s)
{
	uncore_write32(&tgt->filter, TGT_SLOT(s) + TGT_SLOT_CTRL, 0);
	tgt->slot[s].enabled = false;
}

/*
 * At pmu->add: an address-filtered event takes its range's slot, the
 * first user programming it, and holds it until pmu->del (the slot's
 * number in hw.extra_reg.idx), so a slot cannot go to another range
 * between the event's add and its start.
 */
static int tgt_claim(struct uncore_cspmu *c, struct perf_event *event)
{
	struct tgt_pmu *tgt = c->priv;
	struct tgt_slot *slot;
	int s;

	if (!(event->attr.config & TGT_ADDR_EN))
		return 0;
	s = tgt_find_slot(tgt, event);
	if (s < 0)
		return -EINVAL;
	slot = &tgt->slot[s];
	if (!slot->users++) {
		slot->base = event->attr.config1;
		slot->mask = event->attr.config2;
		tgt_slot_program(tgt, s);
	}
	event->hw.extra_reg.idx = s;
	return 0;
}

static void tgt_unclaim(struct uncore_cspmu *c, struct perf_event *event)
{
	struct tgt_pmu *tgt = c->priv;
	int s = event->hw.extra_reg.idx;

	if ((event->attr.config & TGT_ADDR_EN) && !--tgt->slot[s].users)
		tgt_slot_release(tgt, s);
}

static void tgt_set_ev_filter(struct uncore_cspmu *c, struct perf_event *event,
			      unsigned int phys)
{
	u64 config = event->attr.config;
	u32 filt = FIELD_GET(TGT_RP, config);

	if (config & TGT_ADDR_EN)
		filt |= TGT_FILT2_SLOT(event->hw.extra_reg.idx);
	else if (!filt)
		filt = TGT_FILT2_RP;
	uncore_cspmu_write_cfg(c, CSPMU_PMEVFILT2R(phys), filt);
}

/* Start from what the slots hold; no slot has a user yet. */
static void tgt_slots_read(struct tgt_pmu *tgt)
{
	struct tgt_slot *slot;
	int s, i;

	for (s = 0; s < TGT_NUM_SLOTS; s++) {
		slot = &tgt->slot[s];
		for (i = 0; i < ARRAY_SIZE(slot->hw); i++)
			slot->hw[i] = uncore_read32(&tgt->filter, TGT_SLOT(s) + tgt_slot_word[i]);
		slot->hw_known = true;
		slot->enabled = uncore_read32(&tgt->filter, TGT_SLOT(s) + TGT_SLOT_CTRL);
		if (slot->enabled)
			tgt_slot_release(tgt, s);
	}
}

static void tgt_set_cc_filter(struct uncore_cspmu *c, struct perf_event *event)
{
	uncore_cspmu_write_cfg(c, CSPMU_PMCCFILTR, 0);
}

/* Map the slot block: the first memory resource of the ACPI device. */
static int tgt_init(struct uncore_cspmu *c, struct acpi_device *adev)
{
	struct device *dev = c->upmu.dev;
	struct resource_entry *entry;
	struct resource res = { };
	struct tgt_pmu *tgt;
	LIST_HEAD(list);
	int ret;

	tgt = devm_kzalloc(dev, sizeof(*tgt), GFP_KERNEL);
	if (!tgt)
		return -ENOMEM;
	c->priv = tgt;

	ret = acpi_dev_get_resources(adev, &list, NULL, NULL);
	if (ret < 0)
		return dev_err_probe(dev, ret, "cannot read the resources of %s\n",
				     dev_name(&adev->dev));
	ret = -ENODEV;
	list_for_each_entry(entry, &list, node) {
		if (resource_type(entry->res) == IORESOURCE_MEM) {
			res = *entry->res;
			ret = 0;
			break;
		}
	}
	acpi_dev_free_resource_list(&list);
	if (ret)
		return dev_err_probe(dev, ret, "%s has no address-filter registers\n",
				     dev_name(&adev->dev));
	if (resource_size(&res) < TGT_SLOT(TGT_NUM_SLOTS))
		return dev_err_probe(dev, -EINVAL, "address-filter block %pR too small\n", &res);
	res.name = dev_name(dev);
	ret = uncore_map_resource(dev, &res, &tgt->filter);
	if (ret)
		return ret;
	tgt_slots_read(tgt);
	return 0;
}

static struct attribute *tgt_pmu_formats[] = {
	UNCORE_FORMAT_ATTR(event, "config:0-2"),
	UNCORE_FORMAT_ATTR(dst_rp_mask, "config:3-10"),
	UNCORE_FORMAT_ATTR(dst_addr_en, "config:11"),
	UNCORE_FORMAT_ATTR(dst_addr_base, "config1:0-63"),
	UNCORE_FORMAT_ATTR(dst_addr_mask, "config2:0-63"),
	NULL
};

static struct attribute *tgt_pmu_events[] = {
	UNCORE_EVENT_ATTR(rd_bytes, 0x0),
	UNCORE_EVENT_ATTR(wr_bytes, 0x1),
	UNCORE_EVENT_ATTR(rd_req, 0x2),
	UNCORE_EVENT_ATTR(wr_req, 0x3),
	UNCORE_EVENT_ATTR(cycles, TGT_EV_CYCLES),
	NULL
};

static const struct uncore_cspmu_impl tgt_pmu_impl[] = {
	{
		.prodid		= NV_T410_PCIE_TGT_PRODID,
		.name		= "nvidia_pcie_tgt_pmu",
		.naming		= UNCORE_CSPMU_BY_SOCKET_RC,
		.formats	= tgt_pmu_formats,
		.events		= tgt_pmu_events,
		.flags		= UNCORE_PMU_SHOW_ASSOC | UNCORE_PMU_FIXED_EVENTS,
		.event_type	= tgt_event_type,
		.is_cycle	= tgt_is_cycle,
		.set_ev_filter	= tgt_set_ev_filter,
		.set_cc_filter	= tgt_set_cc_filter,
		.validate_group	= tgt_validate_group,
		.claim		= tgt_claim,
		.unclaim	= tgt_unclaim,
		.init		= tgt_init,
	},
};

module_uncore_cspmu_backend(tgt_pmu_impl);

UNCORE_IMPORT_NS();
MODULE_DESCRIPTION("NVIDIA Tegra410 PCIE-TGT PMU driver");
MODULE_LICENSE("GPL");
MODULE_VERSION(UNCORE_PMU_VERSION);
