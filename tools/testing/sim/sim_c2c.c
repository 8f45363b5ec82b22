// SPDX-License-Identifier: GPL-2.0
/*
 * Model of the NVIDIA Tegra410 C2C PMUs, NVLink-C2C, NV-CLink and NV-DLink
 * (Documentation/hw/nvidia-t410-cmem-c2c.md section 7.2): one model for the three, which
 * differ only in their number of instance windows (14, 12, 16), followed by
 * the broadcast window. Registers are 32 bits wide and only 32-bit accesses
 * exist; each 64-bit counter is a lo/hi pair. C2C_CTRL = 1 counts, 0 stops
 * and holds; the 0 -> 1 transition zeroes the instance's counters and both
 * status registers. A C2C_CTRL write to the broadcast window reaches every
 * instance; reads of the broadcast window return 0. OUT_STATUS is at 0x894,
 * so 0x890 is the high word of IN_WR_REQ (the section 7.2 modelling choice).
 */

#include <linux/bits.h>
#include <linux/kernel.h>
#include <linux/slab.h>
#include <linux/string.h>

#include "sim_compat.h"
#include "sim.h"

/* Most instances of a link (NV-DLink); the broadcast window follows them. */
#define C2C_MAX_INST		16
#define C2C_NR_CNTR		9
/* The event format is config:0-3. */
#define C2C_EVENT_MAX		0xf

#define C2C_CTRL		0x864
#define C2C_IN_STATUS		0x868
#define C2C_OUT_STATUS		0x894
/* First and last register: the range regs shows. */
#define C2C_REG_FIRST		C2C_CTRL
#define C2C_REG_LAST		0x8b4
/* End of the last register (OUT_WR_REQ high word): the smallest window. */
#define C2C_WIN_MIN		0x8b8

#define C2C_CTRL_ON		BIT(0)

/* Event ids, as in the driver's events/; also the counter indices. */
#define C2C_EV_CYCLES		0x0
/* Counters 0-4 report in IN_STATUS bits 0-4, counters 5-8 in OUT_STATUS. */
#define C2C_FIRST_OUT		5

/* Low word of each counter, by event id; the high word follows at +4. */
static const u16 c2c_cntr_off[C2C_NR_CNTR] = {
	0x86c,	/* cycles */
	0x874,	/* in_rd_cum_outs */
	0x87c,	/* in_rd_req */
	0x884,	/* in_wr_cum_outs */
	0x88c,	/* in_wr_req, high word at 0x890 */
	0x898,	/* out_rd_cum_outs */
	0x8a0,	/* out_rd_req */
	0x8a8,	/* out_wr_cum_outs */
	0x8b0,	/* out_wr_req */
};

static const struct sim_signal c2c_signals[C2C_NR_CNTR] = {
	{ "cycles", 0x0 },
	{ "in_rd_cum_outs", 0x1 },
	{ "in_rd_req", 0x2 },
	{ "in_wr_cum_outs", 0x3 },
	{ "in_wr_req", 0x4 },
	{ "out_rd_cum_outs", 0x5 },
	{ "out_rd_req", 0x6 },
	{ "out_wr_cum_outs", 0x7 },
	{ "out_wr_req", 0x8 },
};

/*
 * The only attribute is the link instance; its largest value is what sets
 * a kind's instance count (c2c_nr_inst()), so inject rejects an instance
 * the kind does not have at parse time, before anything is applied.
 */
static const struct sim_attr_desc c2c_nvlink_attrs[] = {
	{ .key = "instance", .max = 14 - 1 },
};

static const struct sim_attr_desc c2c_nvclink_attrs[] = {
	{ .key = "instance", .max = 12 - 1 },
};

static const struct sim_attr_desc c2c_nvdlink_attrs[] = {
	{ .key = "instance", .max = 16 - 1 },
};

/* Index of the instance attribute in the attrs arrays above. */
#define C2C_ATTR_INSTANCE	0

/**
 * struct sim_c2c_inst - registers of one C2C instance
 * @ctrl:       C2C_CTRL as last written
 * @in_status:  IN_STATUS overflow bits
 * @out_status: OUT_STATUS overflow bits
 * @cnt:        the counters, by event id
 */
struct sim_c2c_inst {
	u32 ctrl;
	u32 in_status;
	u32 out_status;
	u64 cnt[C2C_NR_CNTR];
};

/**
 * struct sim_c2c - state of one C2C PMU
 * @nr_inst:    number of instance windows; window @nr_inst is the broadcast
 *              window
 * @bcast_ctrl: C2C_CTRL as last written through the broadcast window
 * @inst:       the instances
 */
struct sim_c2c {
	unsigned int nr_inst;
	u32 bcast_ctrl;
	struct sim_c2c_inst inst[C2C_MAX_INST];
};

static unsigned int c2c_nr_inst(const struct sim_dev *sdev)
{
	return sdev->ops->attrs[C2C_ATTR_INSTANCE].max + 1;
}

static bool c2c_counting(const struct sim_c2c_inst *ci)
{
	return ci->ctrl & C2C_CTRL_ON;
}

/* The counter whose low or high word is at @off (4-byte aligned), or -1. */
static int c2c_counter(u32 off)
{
	int i;

	for (i = 0; i < C2C_NR_CNTR; i++)
		if (off - c2c_cntr_off[i] < 8)
			return i;
	return -1;
}

/*
 * Value of the 32-bit register at @off of @ci, without side effects; 0 for
 * an offset without a register. *@cntr is set when it is a counter word.
 */
static u32 c2c_reg(const struct sim_c2c_inst *ci, u32 off, bool *cntr)
{
	int i;

	switch (off) {
	case C2C_CTRL:
		return ci->ctrl;
	case C2C_IN_STATUS:
		return ci->in_status;
	case C2C_OUT_STATUS:
		return ci->out_status;
	}
	i = c2c_counter(off);
	if (i < 0)
		return 0;
	*cntr = true;
	if (off == c2c_cntr_off[i])
		return lower_32_bits(ci->cnt[i]);
	return upper_32_bits(ci->cnt[i]);
}

static void c2c_write_ctrl(struct sim_c2c_inst *ci, u32 val)
{
	/* counting restarts from 0 on each enable */
	if (!c2c_counting(ci) && (val & C2C_CTRL_ON)) {
		memset(ci->cnt, 0, sizeof(ci->cnt));
		ci->in_status = 0;
		ci->out_status = 0;
	}
	ci->ctrl = val;
}

static void c2c_write_inst(struct sim_c2c_inst *ci, u32 off, u32 val)
{
	switch (off) {
	case C2C_CTRL:
		c2c_write_ctrl(ci, val);
		break;
	case C2C_IN_STATUS:
		ci->in_status &= ~val;
		break;
	case C2C_OUT_STATUS:
		ci->out_status &= ~val;
		break;
	default:
		/* counters are read-only */
		break;
	}
}

static int c2c_init(struct sim_dev *sdev)
{
	unsigned int nr_inst = c2c_nr_inst(sdev);
	struct sim_c2c *c2c;
	unsigned int i;

	if (nr_inst > C2C_MAX_INST || sdev->desc->nr_wins != nr_inst + 1)
		return -EINVAL;
	for (i = 0; i <= nr_inst; i++)
		if (sdev->desc->wins[i].size < C2C_WIN_MIN)
			return -EINVAL;
	/* reset state: everything 0 */
	c2c = kzalloc_obj(*c2c, GFP_KERNEL);
	if (!c2c)
		return -ENOMEM;
	c2c->nr_inst = nr_inst;
	sdev->model = c2c;
	return 0;
}

static void c2c_exit(struct sim_dev *sdev)
{
	kfree(sdev->model);
}

static u64 c2c_read(struct sim_dev *sdev, unsigned int win, u32 off,
		    unsigned int bytes, bool *counting)
{
	struct sim_c2c *c2c = sdev->model;
	struct sim_c2c_inst *ci;
	bool cntr = false;
	u32 val;

	if (bytes != 4) {
		sim_bad_access(sdev, win, off, bytes, false);
		return ~0ULL;
	}
	/* the broadcast window is for writes */
	if (win == c2c->nr_inst)
		return 0;
	ci = &c2c->inst[win];
	if (off == C2C_IN_STATUS || off == C2C_OUT_STATUS)
		sdev->stats.status_reads++;
	val = c2c_reg(ci, off, &cntr);
	if (cntr)
		*counting = c2c_counting(ci);
	return val;
}

static void c2c_write(struct sim_dev *sdev, unsigned int win, u32 off, u64 val,
		      unsigned int bytes)
{
	struct sim_c2c *c2c = sdev->model;
	unsigned int i;

	if (bytes != 4) {
		sim_bad_access(sdev, win, off, bytes, true);
		return;
	}
	if (win != c2c->nr_inst) {
		c2c_write_inst(&c2c->inst[win], off, val);
		return;
	}
	sdev->stats.bcast_writes++;
	/* only C2C_CTRL fans out */
	if (off != C2C_CTRL)
		return;
	c2c->bcast_ctrl = val;
	for (i = 0; i < c2c->nr_inst; i++)
		c2c_write_ctrl(&c2c->inst[i], val);
}

/* Add @val to counter @i of @ci, setting its status bit when it wraps. */
static void c2c_add(struct sim_c2c_inst *ci, unsigned int i, u64 val)
{
	u64 old = ci->cnt[i];

	ci->cnt[i] = old + val;
	if (ci->cnt[i] >= old)
		return;
	if (i < C2C_FIRST_OUT)
		ci->in_status |= BIT(i);
	else
		ci->out_status |= BIT(i - C2C_FIRST_OUT);
}

static int c2c_inject(struct sim_dev *sdev, struct sim_inject *inj)
{
	struct sim_c2c *c2c = sdev->model;
	struct sim_c2c_inst *ci;
	unsigned int i;

	/* ids 0x9-0xf fit the event format but have no counter */
	if (inj->event >= C2C_NR_CNTR)
		return 0;
	if (inj->event == C2C_EV_CYCLES) {
		/* the instances run in lock-step */
		for (i = 0; i < c2c->nr_inst; i++)
			if (c2c_counting(&c2c->inst[i]))
				c2c_add(&c2c->inst[i], C2C_EV_CYCLES, inj->value);
		return 0;
	}
	/* the hardware counter exists whatever the peer; the driver hides some */
	ci = &c2c->inst[inj->attr[C2C_ATTR_INSTANCE]];
	if (c2c_counting(ci))
		c2c_add(ci, inj->event, inj->value);
	return 0;
}

static void c2c_regs_show(struct sim_dev *sdev, struct seq_file *m)
{
	struct sim_c2c *c2c = sdev->model;
	unsigned int i;
	bool cntr;
	u32 off;

	for (i = 0; i < c2c->nr_inst; i++)
		for (off = C2C_REG_FIRST; off <= C2C_REG_LAST; off += 4)
			sim_regs_print(m, sdev, i, off,
				       c2c_reg(&c2c->inst[i], off, &cntr));
	/* what was written there last; reads of the window return 0 */
	sim_regs_print(m, sdev, c2c->nr_inst, C2C_CTRL, c2c->bcast_ctrl);
}

const struct sim_kind_ops sim_nvlink_c2c_ops = {
	.signals	= c2c_signals,
	.nr_signals	= ARRAY_SIZE(c2c_signals),
	.event_max	= C2C_EVENT_MAX,
	.attrs		= c2c_nvlink_attrs,
	.nr_attrs	= ARRAY_SIZE(c2c_nvlink_attrs),
	.init		= c2c_init,
	.exit		= c2c_exit,
	.read		= c2c_read,
	.write		= c2c_write,
	.inject		= c2c_inject,
	.regs_show	= c2c_regs_show,
};

const struct sim_kind_ops sim_nvclink_ops = {
	.signals	= c2c_signals,
	.nr_signals	= ARRAY_SIZE(c2c_signals),
	.event_max	= C2C_EVENT_MAX,
	.attrs		= c2c_nvclink_attrs,
	.nr_attrs	= ARRAY_SIZE(c2c_nvclink_attrs),
	.init		= c2c_init,
	.exit		= c2c_exit,
	.read		= c2c_read,
	.write		= c2c_write,
	.inject		= c2c_inject,
	.regs_show	= c2c_regs_show,
};

const struct sim_kind_ops sim_nvdlink_ops = {
	.signals	= c2c_signals,
	.nr_signals	= ARRAY_SIZE(c2c_signals),
	.event_max	= C2C_EVENT_MAX,
	.attrs		= c2c_nvdlink_attrs,
	.nr_attrs	= ARRAY_SIZE(c2c_nvdlink_attrs),
	.init		= c2c_init,
	.exit		= c2c_exit,
	.read		= c2c_read,
	.write		= c2c_write,
	.inject		= c2c_inject,
	.regs_show	= c2c_regs_show,
};
