// SPDX-License-Identifier: GPL-2.0
/*
 * CSPMU engine of the helper layer: counter discovery, allocation with the
 * dedicated cycle counter, event and filter programming through driver
 * hooks, and overflow handling so that narrow counters never lose counts,
 * with the overflow interrupt or, where there is none, with the layer's poll.
 *
 * A module of its own (uncore_cspmu, with the APMT enumeration of
 * uncore_apmt.c): the one platform driver of the arm-cs-arch-pmu devices.
 * It reads each device's PMIIDR, finds the product in its table and hands
 * the device to the module that drives that product, loading the module
 * on demand.
 */

#define pr_fmt(fmt) "uncore_cspmu: " fmt

#include <linux/acpi.h>
#include <acpi/processor.h>
#include <linux/bitfield.h>
#include <linux/interrupt.h>
#include <linux/kmod.h>
#include <linux/list.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/platform_device.h>
#include <linux/property.h>
#include <linux/slab.h>

#include "uncore_backend.h"
#include "uncore_cspmu.h"
#include "uncore_internal.h"

/*
 * log2 of the most any event of these PMUs adds to its counter in a
 * second. Cycles come at a few GHz (2^32 per second is 4.3 GHz), but the
 * byte events (slc_bytes_*, rd_bytes, wr_bytes, Grace's *_bytes) count
 * memory and fabric traffic, and cumulative-outstanding events add the
 * number of requests in flight every cycle: 2^42 per second (4.4 TB/s)
 * bounds both on every product the engine drives.
 */
#define CSPMU_MAX_RATE_LOG2	42

static unsigned int cspmu_phys(struct uncore_cspmu *c, int idx)
{
	return idx == c->cycle_idx ? CSPMU_CYCLE_PHYS : idx;
}

static bool cspmu_has_cycle(struct uncore_cspmu *c)
{
	return c->cycle_idx < c->upmu.num_counters;
}

static bool cspmu_is_cycle(struct uncore_cspmu *c, struct perf_event *event)
{
	if (!cspmu_has_cycle(c))
		return false;
	if (c->impl->is_cycle)
		return c->impl->is_cycle(event);
	return event->attr.config == CSPMU_EV_CYCLES;
}

static u64 cspmu_period(struct uncore_cspmu *c)
{
	return BIT_ULL(c->upmu.counter_width - 1);
}

static int cspmu_read_counter(struct uncore_cspmu *c, unsigned int phys, u64 *val)
{
	u32 off = CSPMU_PMEVCNTR64(phys);

	if (c->upmu.counter_width <= 32) {
		*val = uncore_read32(&c->page1, CSPMU_PMEVCNTR32(phys));
		return 0;
	}
	if (c->atomic64) {
		*val = uncore_read64(&c->page1, off);
		return 0;
	}
	return uncore_read_hilohi(&c->page1, off, off + 4, val);
}

static void cspmu_write_counter(struct uncore_cspmu *c, unsigned int phys, u64 val)
{
	u32 off = CSPMU_PMEVCNTR64(phys);

	if (c->upmu.counter_width <= 32) {
		uncore_write32(&c->page1, CSPMU_PMEVCNTR32(phys), val);
	} else if (c->atomic64) {
		uncore_write64(&c->page1, off, val);
	} else {
		uncore_write32(&c->page1, off, lower_32_bits(val));
		uncore_write32(&c->page1, off + 4, upper_32_bits(val));
	}
}

/*
 * pmu->read: the counter's value; a stopped counter's is also kept for
 * its next start (cspmu_start() then needs no preload).
 */
static int cspmu_read_and_hold(struct perf_event *event, u64 *val)
{
	struct uncore_cspmu *c = to_uncore_cspmu(event->pmu);
	int idx = event->hw.idx, ret;

	/* cycles events share the cycle counter and hold no value of it */
	if (uncore_event_shared(event))
		return cspmu_read_counter(c, CSPMU_CYCLE_PHYS, val);
	ret = cspmu_read_counter(c, cspmu_phys(c, idx), val);
	/* Stopped, the counter keeps this value until it is started again. */
	if (!ret && (event->hw.state & PERF_HES_STOPPED)) {
		c->regs.held[idx] = *val;
		set_bit(idx, c->regs.held_valid);
	}
	return ret;
}

static const u32 cspmu_cfg_base[3] = {
	CSPMU_PMEVTYPER(0), CSPMU_PMEVFILT2R(0), CSPMU_PMEVFILTR(0)
};

/**
 * uncore_cspmu_write_cfg - write a page 0 register, skipping a repeat
 * @cspmu: the CSPMU
 * @off:   register offset in page 0
 * @val:   value
 *
 * PMEVTYPER, PMCCFILTR, PMEVFILT2R and PMEVFILTR writes are cached: a
 * write of the value the register already holds is left out. Other
 * registers are written every time. For a driver's filter hooks, which run
 * with the PMU's other callbacks.
 */
void uncore_cspmu_write_cfg(struct uncore_cspmu *cspmu, u32 off, u32 val)
{
	unsigned int r, n, bit;

	for (r = 0; r < ARRAY_SIZE(cspmu_cfg_base); r++) {
		n = (off - cspmu_cfg_base[r]) / 4;
		if (off < cspmu_cfg_base[r] || n >= CSPMU_MAX_PHYS)
			continue;
		bit = r * CSPMU_MAX_PHYS + n;
		if (test_bit(bit, cspmu->regs.cfg_valid) && cspmu->regs.cfg[r][n] == val)
			return;
		cspmu->regs.cfg[r][n] = val;
		__set_bit(bit, cspmu->regs.cfg_valid);
		break;
	}
	uncore_write32(&cspmu->page0, off, val);
}
EXPORT_SYMBOL_NS_GPL(uncore_cspmu_write_cfg, UNCORE_PMU);

/*
 * Start from half the range, so an overflow leaves half a range to react.
 * Half is 2^(w-1), whose low word is 0 from 33 bits up: where a counter
 * is written one word at a time, low then high, while it counts (the
 * overflow handler's reload), a count between the two writes stays in the
 * low word instead of carrying into the high word the second write
 * replaces.
 */
static void cspmu_preload(struct uncore_cspmu *c, struct perf_event *event)
{
	u64 period = cspmu_period(c);

	cspmu_write_counter(c, cspmu_phys(c, event->hw.idx), period);
	local64_set(&event->hw.prev_count, period);
}

/* Make PMCNTEN what the started counters need: at most one SET, one CLR. */
static void cspmu_sync_cnten(struct uncore_cspmu *c)
{
	unsigned int k;
	u32 on, off;

	for (k = 0; k < CSPMU_NR_SETS; k++) {
		off = c->regs.cnten_hw[k] & ~c->regs.cnten_want[k];
		on = c->regs.cnten_want[k] & ~c->regs.cnten_hw[k];
		if (off)
			uncore_write32(&c->page0, CSPMU_PMCNTENCLR(k), off);
		if (on)
			uncore_write32(&c->page0, CSPMU_PMCNTENSET(k), on);
		c->regs.cnten_hw[k] = c->regs.cnten_want[k];
	}
}

/*
 * Counter @phys on or off. Between pmu_disable and pmu_enable nothing
 * counts (PMCR.E is 0), so the change waits for pmu_enable, where a whole
 * group's changes make one write.
 */
static void cspmu_set_cnten(struct uncore_cspmu *c, unsigned int phys, bool on)
{
	if (on)
		c->regs.cnten_want[phys / 32] |= BIT(phys % 32);
	else
		c->regs.cnten_want[phys / 32] &= ~BIT(phys % 32);
	if (!c->regs.disabled)
		cspmu_sync_cnten(c);
}

/* A filter of the @mask bits of @config; all of them if it sets none. */
static u32 cspmu_filter(u64 config, u32 mask)
{
	return (config & mask) ?: mask;
}

/* The filters of a driver without filter hooks: impl->filter, ->filter2. */
static void cspmu_set_ev_filter(struct uncore_cspmu *c, struct perf_event *event,
				unsigned int phys)
{
	uncore_cspmu_write_cfg(c, CSPMU_PMEVFILTR(phys),
			       cspmu_filter(event->attr.config1, c->impl->filter));
	if (c->impl->filter2)
		uncore_cspmu_write_cfg(c, CSPMU_PMEVFILT2R(phys),
				       cspmu_filter(event->attr.config2, c->impl->filter2));
}

static void cspmu_set_cc_filter(struct uncore_cspmu *c, struct perf_event *event)
{
	uncore_cspmu_write_cfg(c, CSPMU_PMCCFILTR,
			       cspmu_filter(event->attr.config1, c->impl->filter));
}

static void cspmu_start(struct perf_event *event)
{
	struct uncore_cspmu *c = to_uncore_cspmu(event->pmu);
	const struct uncore_cspmu_impl *impl = c->impl;
	unsigned int phys = cspmu_phys(c, event->hw.idx);

	/*
	 * A counter that held its value since it stopped needs no preload if
	 * that value is in the upper half of the range, as a preload would
	 * be: an overflow then still comes less than a range after the value
	 * the event saw last.
	 */
	u32 type = impl->event_type ? impl->event_type(event) :
				      lower_32_bits(event->attr.config);

	if (test_and_clear_bit(event->hw.idx, c->regs.held_valid) &&
	    c->regs.held[event->hw.idx] >= cspmu_period(c))
		local64_set(&event->hw.prev_count, c->regs.held[event->hw.idx]);
	else
		cspmu_preload(c, event);
	uncore_cspmu_write_cfg(c, CSPMU_PMEVTYPER(phys), type);
	(impl->set_ev_filter ?: cspmu_set_ev_filter)(c, event, phys);
	/* Overflow interrupts are enabled for every counter at probe. */
	cspmu_set_cnten(c, phys, true);
}

static void cspmu_stop(struct perf_event *event)
{
	struct uncore_cspmu *c = to_uncore_cspmu(event->pmu);
	unsigned int phys = cspmu_phys(c, event->hw.idx);

	cspmu_set_cnten(c, phys, false);
	if (c->impl->reset_ev_filter)
		c->impl->reset_ev_filter(c, event, phys);
}

static int cspmu_get_counter(struct uncore_pmu *upmu, struct perf_event *event)
{
	struct uncore_cspmu *c = container_of(upmu, struct uncore_cspmu, upmu);
	unsigned int n = upmu->num_counters, idx;
	int ret;

	/* Regular events only: cycles events share the cycle counter. */
	idx = find_first_zero_bit(upmu->used, min(c->cycle_idx, n));
	if (idx >= c->cycle_idx && c->cycle_idx < n)
		idx = find_next_zero_bit(upmu->used, n, c->cycle_idx + 1);
	if (idx >= n)
		return -EAGAIN;
	if (c->impl->claim) {
		ret = c->impl->claim(c, event);
		if (ret)
			return ret;
	}
	set_bit(idx, upmu->used);
	return idx;
}

static void cspmu_put_counter(struct uncore_pmu *upmu, struct perf_event *event)
{
	struct uncore_cspmu *c = container_of(upmu, struct uncore_cspmu, upmu);

	if (c->impl->unclaim)
		c->impl->unclaim(c, event);
}

/*
 * Where there is a dedicated cycle counter, every cycles event reads it,
 * started or not by the others: any number count at once, none takes a
 * regular counter, and the operator's cycles never wait for a daemon's.
 */
static int cspmu_event_init(struct perf_event *event)
{
	struct uncore_cspmu *c = to_uncore_cspmu(event->pmu);

	if (cspmu_is_cycle(c, event)) {
		event->hw.flags |= UNCORE_HW_SHARED;
		return 0;
	}
	/*
	 * PMEVTYPER holds 32 bits; config bit 32 only means cycles. Without
	 * a cycle counter, cycles (or any id with bit 32) would count event
	 * config[31:0] instead, silently: refused.
	 */
	if (!c->impl->event_type && upper_32_bits(event->attr.config))
		return -EINVAL;
	return 0;
}

/* Would the group of @event fit the regular counters? */
static int cspmu_validate_group(struct perf_event *event)
{
	struct uncore_cspmu *c = to_uncore_cspmu(event->pmu);
	struct perf_event *leader = event->group_leader, *sib;
	unsigned int regular = 0;
	unsigned int slots = c->upmu.num_counters - cspmu_has_cycle(c);

	if (leader->pmu == event->pmu && !uncore_event_shared(leader))
		regular++;
	/* A new leader has no siblings, nor the ctx->mutex to walk them. */
	if (leader != event) {
		for_each_sibling_event(sib, leader)
			if (sib->pmu == event->pmu && !uncore_event_shared(sib))
				regular++;
		if (!uncore_event_shared(event))
			regular++;
	}

	if (regular > slots)
		return -EINVAL;
	if (!uncore_event_shared(event) && c->impl->validate_group)
		return c->impl->validate_group(c, event);
	return 0;
}

/* PMCR.E on or off, written only when it changes. */
static void cspmu_set_pmcr_e(struct uncore_cspmu *c, bool on)
{
	if (c->regs.pmcr_e == on)
		return;
	uncore_write32(&c->page0, CSPMU_PMCR, on ? CSPMU_PMCR_E : 0);
	c->regs.pmcr_e = on;
}

/* The first counting cycles event, or NULL. */
static struct perf_event *cspmu_cycles_user(struct uncore_cspmu *c)
{
	struct perf_event *event;

	uncore_pmu_for_each_event(&c->upmu, event)
		if (uncore_event_shared(event) && !(event->hw.state & PERF_HES_STOPPED))
			return event;
	return NULL;
}

/* Every counting cycles event takes its next delta from @val. */
static void cspmu_cycles_set_prev(struct uncore_cspmu *c, u64 val)
{
	struct perf_event *event;

	uncore_pmu_for_each_event(&c->upmu, event)
		if (uncore_event_shared(event) && !(event->hw.state & PERF_HES_STOPPED))
			local64_set(&event->hw.prev_count, val);
}

/*
 * From pmu_enable, PMCR.E still 0: the cycle counter on while a cycles
 * event counts, off once none does. Each started from a snapshot of the
 * stopped counter (the layer's start of a shared event); switched on, a
 * counter in the lower half of its range is reloaded first, as
 * cspmu_start() does, and the snapshots with it.
 */
static void cspmu_cycles_sync(struct uncore_cspmu *c)
{
	u32 bit = BIT(CSPMU_CYCLE_PHYS % 32), *want;
	struct perf_event *user;
	u64 period;

	if (!cspmu_has_cycle(c))
		return;
	want = &c->regs.cnten_want[CSPMU_CYCLE_PHYS / 32];
	user = cspmu_cycles_user(c);
	if (!user) {
		*want &= ~bit;
		return;
	}
	if (*want & bit)
		return;
	(c->impl->set_cc_filter ?: cspmu_set_cc_filter)(c, user);
	period = cspmu_period(c);
	if (local64_read(&user->hw.prev_count) < period) {
		cspmu_write_counter(c, CSPMU_CYCLE_PHYS, period);
		cspmu_cycles_set_prev(c, period);
	}
	*want |= bit;
}

static void cspmu_enable(struct uncore_pmu *upmu)
{
	struct uncore_cspmu *c = container_of(upmu, struct uncore_cspmu, upmu);

	c->regs.disabled = false;
	cspmu_cycles_sync(c);
	cspmu_sync_cnten(c);
	if (!uncore_pmu_busy(upmu))
		return;
	cspmu_set_pmcr_e(c, true);
}

static void cspmu_disable(struct uncore_pmu *upmu)
{
	struct uncore_cspmu *c = container_of(upmu, struct uncore_cspmu, upmu);

	c->regs.disabled = true;
	cspmu_set_pmcr_e(c, false);
}

/* A group read: every counter stops, keeping its value, until thaw. */
static void cspmu_freeze(struct uncore_pmu *upmu)
{
	struct uncore_cspmu *c = container_of(upmu, struct uncore_cspmu, upmu);

	c->regs.frozen = c->regs.pmcr_e;
	cspmu_set_pmcr_e(c, false);
}

static void cspmu_thaw(struct uncore_pmu *upmu)
{
	struct uncore_cspmu *c = container_of(upmu, struct uncore_cspmu, upmu);

	if (c->regs.frozen)
		cspmu_set_pmcr_e(c, true);
	c->regs.frozen = false;
}

/* The helper-layer callbacks of every CSPMU: the engine's, not a driver's. */
static const struct uncore_pmu_ops cspmu_ops = {
	.event_init	= cspmu_event_init,
	.validate_group	= cspmu_validate_group,
	.get_counter	= cspmu_get_counter,
	.put_counter	= cspmu_put_counter,
	.start		= cspmu_start,
	.stop		= cspmu_stop,
	.read		= cspmu_read_and_hold,
	.enable		= cspmu_enable,
	.disable	= cspmu_disable,
	.freeze		= cspmu_freeze,
	.thaw		= cspmu_thaw,
};

/* Fold an overflowed counting event and start it from half again. */
static void cspmu_fold(struct uncore_cspmu *c, struct perf_event *event)
{
	if (event->hw.state & PERF_HES_STOPPED)
		return;
	uncore_pmu_event_update(event);
	cspmu_preload(c, event);
}

/* The same for the cycle counter: every cycles event, then one reload. */
static void cspmu_fold_cycles(struct uncore_cspmu *c)
{
	struct perf_event *event;
	u64 period = cspmu_period(c);

	uncore_pmu_for_each_event(&c->upmu, event)
		if (uncore_event_shared(event) && !(event->hw.state & PERF_HES_STOPPED))
			uncore_pmu_event_update(event);
	cspmu_write_counter(c, CSPMU_CYCLE_PHYS, period);
	cspmu_cycles_set_prev(c, period);
}

/*
 * Overflow: fold and preload each overflowed counter, then clear its status.
 * Clearing last means a new overflow of the same counter cannot be lost.
 */
static irqreturn_t cspmu_irq(int irq, void *data)
{
	struct uncore_cspmu *c = data;
	unsigned int nregs = DIV_ROUND_UP(max_t(unsigned int, CSPMU_CYCLE_PHYS + 1,
						  c->upmu.num_counters), 32);
	irqreturn_t ret = IRQ_NONE;
	unsigned int k, b, idx;
	unsigned long ovs;

	for (k = 0; k < nregs; k++) {
		ovs = uncore_read32(&c->page1, CSPMU_PMOVSCLR(k));
		if (!ovs)
			continue;
		for_each_set_bit(b, &ovs, 32) {
			/* the cycle counter's status is bit 31, else the index's */
			idx = 32 * k + b;
			if (idx == CSPMU_CYCLE_PHYS && cspmu_has_cycle(c))
				cspmu_fold_cycles(c);
			else if (idx < c->upmu.num_counters && c->upmu.events[idx])
				cspmu_fold(c, c->upmu.events[idx]);
		}
		uncore_write32(&c->page1, CSPMU_PMOVSCLR(k), ovs);
		ret = IRQ_HANDLED;
	}
	return ret;
}

/*
 * Without an overflow interrupt the layer's poll folds the counters, every
 * half range at the fastest rate: a counter then never wraps twice
 * between two folds. At 32 bits that is every 0.5 ms, at 48 every 32 s,
 * at 64 every 24 days.
 */
static u64 cspmu_fold_ns(unsigned int width)
{
	unsigned int shift = width - 1;

	if (shift >= CSPMU_MAX_RATE_LOG2)
		return (u64)NSEC_PER_SEC << (shift - CSPMU_MAX_RATE_LOG2);
	return max_t(u64, (NSEC_PER_SEC >> (CSPMU_MAX_RATE_LOG2 - shift)), 1);
}

/* PMIIDR, or the same fields from the peripheral ID registers. */
static u32 cspmu_read_pmiidr(struct uncore_cspmu *c)
{
	u32 id = uncore_read32(&c->page0, CSPMU_PMIIDR);
	u32 p0, p1, p2, p3, p4;

	if (id)
		return id;
	p0 = uncore_read32(&c->page0, CSPMU_PMPIDR(0));
	p1 = uncore_read32(&c->page0, CSPMU_PMPIDR(1));
	p2 = uncore_read32(&c->page0, CSPMU_PMPIDR(2));
	p3 = uncore_read32(&c->page0, CSPMU_PMPIDR(3));
	p4 = uncore_read32(&c->page0, CSPMU_PMPIDR4);
	return (p0 & 0xff) << 20 | (p1 & 0xf) << 28 |	/* product id */
	       (p1 >> 4 & 0xf) | (p2 & 0x7) << 4 |	/* implementer 6:0 */
	       (p4 & 0xf) << 8 |			/* implementer 11:8 */
	       (p2 >> 4 & 0xf) << 16 |			/* variant */
	       (p3 >> 4 & 0xf) << 12;			/* revision */
}

/* Is @handle below a processor container (ACPI0010) with UID @uid? */
static bool cspmu_in_container(acpi_handle handle, u32 uid)
{
	struct acpi_device_info *info;
	acpi_handle parent;
	bool found = false;
	u32 v;

	while (!found && ACPI_SUCCESS(acpi_get_parent(handle, &parent))) {
		handle = parent;
		if (ACPI_FAILURE(acpi_get_object_info(handle, &info)))
			continue;
		found = (info->valid & ACPI_VALID_HID) && (info->valid & ACPI_VALID_UID) &&
			!strcmp(info->hardware_id.string, "ACPI0010") &&
			!kstrtou32(info->unique_id.string, 0, &v) && v == uid;
		kfree(info);
	}
	return found;
}

/* CPUs the node names: one processor UID, or every CPU of a container. */
static void cspmu_apmt_cpus(const struct uncore_apmt_node *node, struct cpumask *mask)
{
	u32 uid = le32_to_cpu(node->proc_affinity);
	struct acpi_processor *pr;
	unsigned int cpu;

	cpumask_clear(mask);
	for_each_possible_cpu(cpu) {
		pr = per_cpu(processors, cpu);
		if (!pr)
			continue;
		if (!(node->flags & UNCORE_APMT_AFFINITY_CONTAINER)) {
			if (pr->acpi_id == uid) {
				cpumask_set_cpu(cpu, mask);
				return;
			}
		} else if (cspmu_in_container(pr->handle, uid)) {
			cpumask_set_cpu(cpu, mask);
		}
	}
}

/* The ACPI device a type-3 node names by HID and UID, with a reference. */
static struct acpi_device *cspmu_apmt_acpi_dev(const struct uncore_apmt_node *node)
{
	char hid[9] = { }, uid[11];
	__le64 hid_le = node->inst_primary;

	if (node->type != UNCORE_APMT_TYPE_ACPI)
		return NULL;
	memcpy(hid, &hid_le, 8);
	snprintf(uid, sizeof(uid), "%u", le32_to_cpu(node->inst_secondary));
	return acpi_dev_get_first_match_dev(hid, uid, -1);
}

/* Discover the counters: how many, how wide, and the cycle counter. */
static void cspmu_discover(struct uncore_cspmu *c)
{
	u32 pmcfgr = uncore_read32(&c->page0, CSPMU_PMCFGR);
	unsigned int n, width;

	n = FIELD_GET(CSPMU_PMCFGR_N, pmcfgr) + 1;
	width = FIELD_GET(CSPMU_PMCFGR_SIZE, pmcfgr) + 1;
	if (n > UNCORE_PMU_MAX_COUNTERS) {
		dev_info(c->upmu.dev, "using %u of %u counters\n", UNCORE_PMU_MAX_COUNTERS, n);
		n = UNCORE_PMU_MAX_COUNTERS;
	}
	c->upmu.num_counters = n;
	c->upmu.counter_width = width;
	c->cycle_idx = n;
	if (pmcfgr & CSPMU_PMCFGR_CC) {
		c->cycle_idx = n <= CSPMU_CYCLE_PHYS ? n - 1 : CSPMU_CYCLE_PHYS;
		c->upmu.attr_mask |= UNCORE_CSPMU_ATTR_CC;
	}
}

/* Socket, RC number and the driver's own setup from the node's ACPI device. */
static int cspmu_acpi_setup(struct uncore_cspmu *c)
{
	struct device *dev = c->upmu.dev;
	bool rc_name = c->impl->naming == UNCORE_CSPMU_BY_SOCKET_RC;
	struct acpi_device *adev = NULL;
	int ret = 0;

	if (rc_name || c->impl->init) {
		adev = cspmu_apmt_acpi_dev(c->apmt);
		if (!adev)
			return dev_err_probe(dev, -ENODEV,
					     "APMT node %u names no ACPI device\n",
					     le32_to_cpu(c->apmt->id));
	}
	if (rc_name &&
	    fwnode_property_read_u32(acpi_fwnode_handle(adev), "instance_id", &c->rc))
		ret = dev_err_probe(dev, -ENODEV, "%s has no instance_id\n",
				    dev_name(&adev->dev));
	if (!ret && c->impl->init)
		ret = c->impl->init(c, adev);
	if (adev)
		put_device(&adev->dev);
	return ret;
}

/*
 * Start the register caches from what the hardware holds, so that no
 * later write repeats a value already there, and switch off any counter
 * left enabled.
 */
static void cspmu_read_cfg(struct uncore_cspmu *c)
{
	unsigned int idx, phys, r, k;

	for (idx = 0; idx < c->upmu.num_counters; idx++) {
		phys = cspmu_phys(c, idx);
		for (r = 0; r < ARRAY_SIZE(cspmu_cfg_base); r++) {
			/* The cycle counter has PMCCFILTR, PMEVTYPER31's place, only. */
			if (idx == c->cycle_idx && r)
				break;
			c->regs.cfg[r][phys] = uncore_read32(&c->page0,
							     cspmu_cfg_base[r] + 4 * phys);
			__set_bit(r * CSPMU_MAX_PHYS + phys, c->regs.cfg_valid);
		}
		c->regs.cnten_hw[phys / 32] |= BIT(phys % 32);
	}
	for (k = 0; k < CSPMU_NR_SETS; k++)
		if (c->regs.cnten_hw[k])
			c->regs.cnten_hw[k] &= uncore_read32(&c->page0, CSPMU_PMCNTENSET(k));
	cspmu_sync_cnten(c);
}

/*
 * The overflow interrupt of every counter, once: a counter that is not
 * enabled cannot overflow, so start and stop need not touch PMINTEN.
 */
static void cspmu_enable_irqs(struct uncore_cspmu *c)
{
	u32 mask[DIV_ROUND_UP(CSPMU_MAX_PHYS, 32)] = { };
	unsigned int idx, phys, k;

	if (c->upmu.irq <= 0)
		return;
	for (idx = 0; idx < c->upmu.num_counters; idx++) {
		phys = cspmu_phys(c, idx);
		mask[phys / 32] |= BIT(phys % 32);
	}
	for (k = 0; k < ARRAY_SIZE(mask); k++)
		if (mask[k])
			uncore_write32(&c->page0, CSPMU_PMINTENSET(k), mask[k]);
}

static int cspmu_setup_irq(struct platform_device *pdev, struct uncore_cspmu *c)
{
	struct device *dev = &pdev->dev;
	int irq, ret;

	irq = platform_get_irq_optional(pdev, 0);
	if (irq == -EPROBE_DEFER)
		return irq;
	if (irq <= 0)
		irq = uncore_backend_irq(&c->page0);
	if (irq > 0) {
		ret = devm_request_irq(dev, irq, cspmu_irq, IRQF_NOBALANCING | IRQF_NO_THREAD,
				       dev_name(dev), c);
		if (ret)
			return dev_err_probe(dev, ret, "cannot request IRQ %d\n", irq);
		c->upmu.irq = irq;
		return 0;
	}
	c->upmu.poll_ns = cspmu_fold_ns(c->upmu.counter_width);
	return 0;
}

/**
 * struct cspmu_product - a CoreSight PMU product and the module driving it
 * @implementer: PMIIDR implementer (JEP106 code)
 * @prodid:      PMIIDR product, variant and revision (CSPMU_PRODID_MASK);
 *               0: every other product of @implementer
 * @module:      name of the module that drives it
 * @impl:        that module's entry for it, while the module is registered
 * @backend:     the array @impl is in
 * @owner:       that module
 * @requested:   @module was asked for since it last came or went
 *
 * The fields after @module change under cspmu_lock.
 */
struct cspmu_product {
	u32 implementer;
	u32 prodid;
	const char *module;
	const struct uncore_cspmu_impl *impl;
	const struct uncore_cspmu_impl *backend;
	struct module *owner;
	bool requested;
};

#define CSPMU_PRODUCT(_impl, _prodid, _module) \
	{ .implementer = (_impl), .prodid = (_prodid), .module = (_module) }

/*
 * Every product the engine hands to a driver module, and the one list of
 * them. The first entry that matches a PMIIDR wins: an implementer's
 * catch-all entry comes after its products.
 */
static struct cspmu_product cspmu_products[] = {
	CSPMU_PRODUCT(NV_CSPMU_IMPLEMENTER, NV_T410_UCF_PRODID, "nvidia_t410_ucf_pmu"),
	CSPMU_PRODUCT(NV_CSPMU_IMPLEMENTER, NV_T410_PCIE_PRODID, "nvidia_t410_pcie_pmu"),
	CSPMU_PRODUCT(NV_CSPMU_IMPLEMENTER, NV_T410_PCIE_TGT_PRODID, "nvidia_t410_pcie_tgt_pmu"),
	CSPMU_PRODUCT(NV_CSPMU_IMPLEMENTER, NV_T241_SCF_PRODID, "nvidia_t241_pmu"),
	CSPMU_PRODUCT(NV_CSPMU_IMPLEMENTER, NV_T241_PCIE_PRODID, "nvidia_t241_pmu"),
	CSPMU_PRODUCT(NV_CSPMU_IMPLEMENTER, NV_T241_C2C0_PRODID, "nvidia_t241_pmu"),
	CSPMU_PRODUCT(NV_CSPMU_IMPLEMENTER, NV_T241_C2C1_PRODID, "nvidia_t241_pmu"),
	CSPMU_PRODUCT(NV_CSPMU_IMPLEMENTER, NV_T241_CNVLINK_PRODID, "nvidia_t241_pmu"),
	/* NVIDIA's other products, such as a newer chip's: raw events */
	CSPMU_PRODUCT(NV_CSPMU_IMPLEMENTER, 0, "nvidia_generic_pmu"),
};

/*
 * A device the engine identified, and its product: a device is probed
 * again when its product's module registers, not when another does.
 */
struct cspmu_seen {
	struct list_head node;
	struct device *dev;
	struct cspmu_product *prod;
};

/* Serialises the modules' registrations with the probes. */
static DEFINE_MUTEX(cspmu_lock);
static LIST_HEAD(cspmu_seen_list);
static struct platform_driver cspmu_driver;

/* The table's entry of @pmiidr, or NULL for a product nobody drives. */
static struct cspmu_product *cspmu_product_of(u32 pmiidr)
{
	struct cspmu_product *p;

	for (p = cspmu_products; p < cspmu_products + ARRAY_SIZE(cspmu_products); p++)
		if ((pmiidr & CSPMU_IMPLEMENTER) == p->implementer &&
		    (!p->prodid || (pmiidr & CSPMU_PRODID_MASK) == p->prodid))
			return p;
	return NULL;
}

/* What the engine knows of @dev, or NULL. Under cspmu_lock. */
static struct cspmu_seen *cspmu_seen_find(struct device *dev)
{
	struct cspmu_seen *s;

	list_for_each_entry(s, &cspmu_seen_list, node)
		if (s->dev == dev)
			return s;
	return NULL;
}

/*
 * Note that @dev is a @prod, and forget devices that are gone. Under
 * cspmu_lock. Without memory the device is merely probed more often.
 */
static void cspmu_remember(struct device *dev, struct cspmu_product *prod)
{
	struct cspmu_seen *s, *tmp;

	list_for_each_entry_safe(s, tmp, &cspmu_seen_list, node) {
		if (s->dev != dev && !device_is_registered(s->dev)) {
			list_del(&s->node);
			put_device(s->dev);
			kfree(s);
		}
	}
	s = cspmu_seen_find(dev);
	if (!s) {
		s = kzalloc_obj(*s, GFP_KERNEL);
		if (!s)
			return;
		s->dev = get_device(dev);
		list_add_tail(&s->node, &cspmu_seen_list);
	}
	s->prod = prod;
}

static void cspmu_put_seq(void *data)
{
	struct uncore_cspmu *c = data;

	ida_free(c->impl->seq, c->seq_id);
}

/*
 * The PMU name: the driver's, then the numbers its naming asks for. A
 * sequence number is the device's until it goes (or its probe fails), so
 * a failed probe leaves no gap and a device that comes back gets the
 * lowest one free.
 */
static const char *cspmu_name(struct uncore_cspmu *c)
{
	const struct uncore_cspmu_impl *impl = c->impl;
	struct device *dev = c->upmu.dev;
	const char *name;
	int ret;

	switch (impl->naming) {
	case UNCORE_CSPMU_BY_SEQ:
		c->seq_id = ida_alloc(impl->seq, GFP_KERNEL);
		if (c->seq_id < 0)
			return ERR_PTR(c->seq_id);
		ret = devm_add_action_or_reset(dev, cspmu_put_seq, c);
		if (ret)
			return ERR_PTR(ret);
		name = devm_kasprintf(dev, GFP_KERNEL, "%s_%d", impl->name, c->seq_id);
		break;
	case UNCORE_CSPMU_BY_SOCKET_RC:
		name = devm_kasprintf(dev, GFP_KERNEL, "%s_%u_rc_%u", impl->name,
				      c->socket, c->rc);
		break;
	default:
		name = devm_kasprintf(dev, GFP_KERNEL, "%s_%u", impl->name, c->socket);
		break;
	}
	return name ?: ERR_PTR(-ENOMEM);
}

/* The device's PMU, with the driver's @impl; @owner is held by the caller. */
static int cspmu_setup(struct platform_device *pdev, struct uncore_cspmu *c,
		       const struct uncore_cspmu_impl *impl, struct module *owner)
{
	struct device *dev = &pdev->dev;
	const char *name;
	int ret;

	c->impl = impl;
	/* the driver's tables; the ops and the counters are the engine's */
	c->desc = (struct uncore_pmu_desc) {
		.ops		= &cspmu_ops,
		.formats	= impl->formats,
		.events		= impl->events,
		.flags		= impl->flags,
		.counter_width	= 64,
	};
	ret = uncore_pmu_init(&c->upmu, dev, &c->desc);
	if (ret)
		return ret;
	cspmu_discover(c);

	cspmu_apmt_cpus(c->apmt, &c->upmu.associated_cpus);
	if (cpumask_empty(&c->upmu.associated_cpus))
		return dev_err_probe(dev, -ENODEV, "no CPU matches APMT affinity %u\n",
				     le32_to_cpu(c->apmt->proc_affinity));
	c->socket = cpu_to_node(cpumask_first(&c->upmu.associated_cpus));
	c->upmu.node = c->socket;

	ret = cspmu_acpi_setup(c);
	if (ret)
		return ret;

	name = cspmu_name(c);
	if (IS_ERR(name))
		return PTR_ERR(name);
	c->upmu.identifier = devm_kasprintf(dev, GFP_KERNEL, "%x", c->pmiidr);
	if (!c->upmu.identifier)
		return -ENOMEM;

	ret = cspmu_setup_irq(pdev, c);
	if (ret)
		return ret;

	/* Every counter from zero, counting off. */
	uncore_write32(&c->page0, CSPMU_PMCR, CSPMU_PMCR_C | CSPMU_PMCR_P);
	cspmu_read_cfg(c);
	cspmu_enable_irqs(c);

	ret = __devm_uncore_pmu_register(&c->upmu, name, owner);
	if (ret)
		return dev_err_probe(dev, ret, "cannot register PMU %s\n", name);
	platform_set_drvdata(pdev, c);
	return 0;
}

/*
 * Probe of every arm-cs-arch-pmu device: identify it, then build its PMU
 * with the driver of its product, or ask for that module and leave the
 * device unbound until the module registers.
 */
static int cspmu_probe(struct platform_device *pdev)
{
	const struct uncore_apmt_node *const *plat = dev_get_platdata(&pdev->dev);
	const struct uncore_cspmu_impl *impl = NULL;
	struct device *dev = &pdev->dev;
	struct cspmu_product *prod;
	struct module *owner = NULL;
	struct uncore_cspmu *c;
	bool request = false;
	int ret;

	if (!plat || !*plat)
		return -ENODEV;

	c = devm_kzalloc(dev, sizeof(*c), GFP_KERNEL);
	if (!c)
		return -ENOMEM;
	c->apmt = *plat;
	c->atomic64 = c->apmt->flags & UNCORE_APMT_ATOMIC;

	ret = uncore_map_window(pdev, 0, &c->page0, CSPMU_PAGE_SIZE);
	if (ret)
		return ret;
	c->page1 = c->page0;
	if (platform_get_resource(pdev, IORESOURCE_MEM, 1)) {
		ret = uncore_map_window(pdev, 1, &c->page1, CSPMU_PAGE_SIZE);
		if (ret)
			return ret;
	}
	c->pmiidr = le32_to_cpu(c->apmt->impl_id) ?: cspmu_read_pmiidr(c);

	mutex_lock(&cspmu_lock);
	prod = cspmu_product_of(c->pmiidr);
	if (prod) {
		cspmu_remember(dev, prod);
		/* a module that is going cannot be held: wait for its return */
		if (prod->impl && try_module_get(prod->owner)) {
			impl = prod->impl;
			owner = prod->owner;
			c->backend = prod->backend;
		} else if (!prod->impl && !prod->requested) {
			prod->requested = true;
			request = true;
		}
	}
	mutex_unlock(&cspmu_lock);

	if (!prod) {
		/* Normal for other vendors' PMUs: not an error. */
		dev_dbg(dev, "PMIIDR %#x: a product no module drives\n", c->pmiidr);
		return -ENODEV;
	}
	if (!impl) {
		/*
		 * Not deferred: the module's registration probes the device
		 * again, and only then, so devices bind in their order.
		 */
		if (request)
			request_module_nowait("%s", prod->module);
		dev_dbg(dev, "PMIIDR %#x: waiting for %s\n", c->pmiidr, prod->module);
		return -ENODEV;
	}
	ret = cspmu_setup(pdev, c, impl, owner);
	/* The PMU holds the module while it counts, and the module's exit unbinds. */
	module_put(owner);
	return ret;
}

static const struct platform_device_id cspmu_id[] = {
	{ UNCORE_APMT_DEV_NAME },
	{ }
};

/*
 * What MODULE_DEVICE_TABLE(platform, cspmu_id) would say, so udev loads
 * this module for the devices; that macro cannot name a module of several
 * objects whose name has a directory (7.x builds the symbol from it).
 */
MODULE_ALIAS("platform:" UNCORE_APMT_DEV_NAME);

static struct platform_driver cspmu_driver = {
	.driver = {
		.name = "uncore-cspmu",
		.suppress_bind_attrs = true,
	},
	.probe = cspmu_probe,
	.id_table = cspmu_id,
};

/* @impls' entry for product @prodid, or NULL. */
static const struct uncore_cspmu_impl *
cspmu_impl_of(const struct uncore_cspmu_impl *impls, unsigned int n, u32 prodid)
{
	for (; n; impls++, n--)
		if (impls->prodid == prodid)
			return impls;
	return NULL;
}

/* A driver's mistake, not the firmware's: loud, once. Under cspmu_lock. */
static int cspmu_check_backend(const struct uncore_cspmu_impl *impls, unsigned int n,
			       const char *modname)
{
	const struct uncore_cspmu_impl *impl;
	struct cspmu_product *p;
	unsigned int mine;

	for (impl = impls; impl < impls + n; impl++) {
		if (WARN_ONCE(!impl->name || !impl->formats || !impl->events ||
			      impl->naming > UNCORE_CSPMU_BY_SEQ ||
			      (impl->naming == UNCORE_CSPMU_BY_SEQ && !impl->seq),
			      "%s: malformed uncore_cspmu_impl of product %#x\n",
			      modname, impl->prodid))
			return -EINVAL;
		mine = 0;
		for (p = cspmu_products; p < cspmu_products + ARRAY_SIZE(cspmu_products); p++)
			mine += p->prodid == impl->prodid && !strcmp(p->module, modname);
		if (WARN_ONCE(mine != 1, "%s: product %#x is not its own in the engine's table\n",
			      modname, impl->prodid))
			return -EINVAL;
	}
	for (p = cspmu_products; p < cspmu_products + ARRAY_SIZE(cspmu_products); p++) {
		if (strcmp(p->module, modname))
			continue;
		if (WARN_ONCE(!cspmu_impl_of(impls, n, p->prodid),
			      "%s: no uncore_cspmu_impl for its product %#x\n",
			      modname, p->prodid))
			return -EINVAL;
		if (p->impl)
			return -EBUSY;
	}
	return 0;
}

/*
 * At a module's registration: probe each unbound device of its products,
 * and each one the engine could not identify (another driver had it, or
 * it was probed before it read right); the devices of other modules'
 * products wait for those. A probe in flight is waited for, then the
 * device is probed again (device_attach() leaves a bound one alone).
 */
static int cspmu_attach_one(struct device *dev, void *backend)
{
	struct cspmu_seen *s;
	bool attach;

	if (strcmp(to_platform_device(dev)->name, UNCORE_APMT_DEV_NAME))
		return 0;
	mutex_lock(&cspmu_lock);
	s = cspmu_seen_find(dev);
	attach = !s || s->prod->backend == backend;
	mutex_unlock(&cspmu_lock);
	if (attach && device_attach(dev) < 0)
		dev_dbg(dev, "gone before its probe\n");
	return 0;
}

/**
 * uncore_cspmu_backend_register - a CSPMU driver module's products come
 * @impls:   the module's entries, one per product of the engine's table
 *           that names @modname
 * @n:       how many
 * @owner:   the module
 * @modname: its name, as the engine's table has it
 *
 * The devices of those products, which waited for the module, are probed
 * again. Drivers use module_uncore_cspmu_backend(), which calls this.
 *
 * Return: 0, -EINVAL (with a warning) if @impls do not match the engine's
 * table, or -EBUSY if the products are registered already.
 */
int uncore_cspmu_backend_register(const struct uncore_cspmu_impl *impls,
				  unsigned int n, struct module *owner,
				  const char *modname)
{
	struct cspmu_product *p;
	int ret;

	mutex_lock(&cspmu_lock);
	ret = cspmu_check_backend(impls, n, modname);
	for (p = cspmu_products; !ret && p < cspmu_products + ARRAY_SIZE(cspmu_products); p++) {
		if (strcmp(p->module, modname))
			continue;
		p->impl = cspmu_impl_of(impls, n, p->prodid);
		p->backend = impls;
		p->owner = owner;
		p->requested = false;
	}
	mutex_unlock(&cspmu_lock);
	if (ret)
		return ret;
	bus_for_each_dev(&platform_bus_type, NULL, (void *)impls, cspmu_attach_one);
	return 0;
}
EXPORT_SYMBOL_NS_GPL(uncore_cspmu_backend_register, UNCORE_PMU);

static int cspmu_bound_to(struct device *dev, const void *backend)
{
	struct uncore_cspmu *c = dev_get_drvdata(dev);

	return c && c->backend == backend;
}

/**
 * uncore_cspmu_backend_unregister - a CSPMU driver module's products go
 * @impls: what the module registered
 *
 * Unbinds the devices the module drives, so that their PMUs are gone
 * before the module is; the devices stay, waiting for the module again.
 */
void uncore_cspmu_backend_unregister(const struct uncore_cspmu_impl *impls)
{
	struct cspmu_product *p;
	struct device *dev;

	/* No device binds with @impls from here on, nor asks for the module. */
	mutex_lock(&cspmu_lock);
	for (p = cspmu_products; p < cspmu_products + ARRAY_SIZE(cspmu_products); p++) {
		if (p->backend != impls)
			continue;
		p->impl = NULL;
		p->owner = NULL;
		p->requested = true;
	}
	mutex_unlock(&cspmu_lock);

	while ((dev = driver_find_device(&cspmu_driver.driver, NULL, impls, cspmu_bound_to))) {
		device_release_driver(dev);
		put_device(dev);
	}

	/* Gone: a device of these products asks for the module again. */
	mutex_lock(&cspmu_lock);
	for (p = cspmu_products; p < cspmu_products + ARRAY_SIZE(cspmu_products); p++) {
		if (p->backend != impls)
			continue;
		p->backend = NULL;
		p->requested = false;
	}
	mutex_unlock(&cspmu_lock);
}
EXPORT_SYMBOL_NS_GPL(uncore_cspmu_backend_unregister, UNCORE_PMU);

/* The driver first, so that the APMT's devices find it when they appear. */
static int __init cspmu_module_init(void)
{
	int ret;

	ret = platform_driver_register(&cspmu_driver);
	if (ret)
		return ret;
	uncore_apmt_init();
	return 0;
}

static void __exit cspmu_module_exit(void)
{
	struct cspmu_seen *s, *tmp;

	uncore_apmt_exit();
	platform_driver_unregister(&cspmu_driver);
	list_for_each_entry_safe(s, tmp, &cspmu_seen_list, node) {
		put_device(s->dev);
		kfree(s);
	}
}

module_init(cspmu_module_init);
module_exit(cspmu_module_exit);

UNCORE_IMPORT_NS();
UNCORE_BACKEND_IMPORT_NS();
MODULE_DESCRIPTION("CoreSight PMU engine and APMT enumeration of the uncore PMU helper layer");
MODULE_LICENSE("GPL");
MODULE_VERSION(UNCORE_PMU_VERSION);
