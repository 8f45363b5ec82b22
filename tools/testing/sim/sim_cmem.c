// SPDX-License-Identifier: GPL-2.0
/*
 * Model of the NVIDIA Tegra410 CMEM latency PMU (Documentation/hw/nvidia-t410-cmem-c2c.md
 * section 7.1): 14 instance windows and a broadcast window, 64-bit
 * registers only. Each instance has a cycle counter and, per memory
 * controller, a read-request and an outstanding-reads counter, all wired to
 * one signal. An instance counts while CTRL bit 0 and CG_CTRL bit 0 are
 * set; CTRL bit 1 clears its counters and STATUS first. Writes of CG_CTRL
 * and CTRL to the broadcast window reach every instance; reads of the
 * broadcast window return 0.
 */

#include <linux/bits.h>
#include <linux/kernel.h>
#include <linux/slab.h>
#include <linux/string.h>

#include "sim_compat.h"
#include "sim.h"

#define CMEM_NR_INST		14
#define CMEM_NR_MC		3
/* Instance windows 0-13, then the broadcast window. */
#define CMEM_BCAST		CMEM_NR_INST
#define CMEM_NR_WINS		(CMEM_NR_INST + 1)
/* The event format is config:0-1. */
#define CMEM_EVENT_MAX		0x3

#define CMEM_CG_CTRL		0x800
#define CMEM_CTRL		0x808
#define CMEM_STATUS		0x810
#define CMEM_CYCLE_CNTR		0x818
/* End of the last register (MC2_AOR_CNTR): the smallest window. */
#define CMEM_WIN_MIN		0x868

#define CMEM_CG_ON		BIT_ULL(0)
#define CMEM_CTRL_COUNT		BIT_ULL(0)
#define CMEM_CTRL_CLEAR		BIT_ULL(1)

/* Event ids, as in the driver's events/. */
#define CMEM_EV_CYCLES		0x0
#define CMEM_EV_RD_REQ		0x1
#define CMEM_EV_RD_CUM_OUTS	0x2

/* STATUS bits: CYCLE, then per MC AOR, (unused), REQ. */
#define CMEM_ST_CYCLE		BIT_ULL(0)
#define CMEM_ST_AOR(mc)		BIT_ULL(1 + 3 * (mc))
#define CMEM_ST_REQ(mc)		BIT_ULL(3 + 3 * (mc))
#define CMEM_ST_ALL		(CMEM_ST_CYCLE | CMEM_ST_AOR(0) | CMEM_ST_REQ(0) | \
				 CMEM_ST_AOR(1) | CMEM_ST_REQ(1) | \
				 CMEM_ST_AOR(2) | CMEM_ST_REQ(2))

static const u16 cmem_req_off[CMEM_NR_MC] = { 0x820, 0x838, 0x850 };
static const u16 cmem_aor_off[CMEM_NR_MC] = { 0x830, 0x848, 0x860 };

static const struct sim_signal cmem_signals[] = {
	{ "cycles", CMEM_EV_CYCLES },
	{ "rd_req", CMEM_EV_RD_REQ },
	{ "rd_cum_outs", CMEM_EV_RD_CUM_OUTS },
};

static const struct sim_attr_desc cmem_attrs[] = {
	{ .key = "instance", .max = CMEM_NR_INST - 1 },
	{ .key = "mc", .max = CMEM_NR_MC - 1 },
};

/* Indices of the attributes in cmem_attrs[]. */
#define CMEM_ATTR_INSTANCE	0
#define CMEM_ATTR_MC		1

/**
 * struct sim_cmem_inst - registers of one CMEM instance
 * @cg_ctrl: CG_CTRL as last written
 * @ctrl:    CTRL as last written
 * @status:  STATUS overflow bits
 * @cycle:   CYCLE_CNTR
 * @req:     MCm_REQ_CNTR, by memory controller
 * @aor:     MCm_AOR_CNTR, by memory controller
 */
struct sim_cmem_inst {
	u64 cg_ctrl;
	u64 ctrl;
	u64 status;
	u64 cycle;
	u64 req[CMEM_NR_MC];
	u64 aor[CMEM_NR_MC];
};

/**
 * struct sim_cmem - state of one CMEM latency PMU
 * @inst:        the instances
 * @bcast_cg:    CG_CTRL as last written through the broadcast window
 * @bcast_ctrl:  CTRL as last written through the broadcast window
 */
struct sim_cmem {
	struct sim_cmem_inst inst[CMEM_NR_INST];
	u64 bcast_cg;
	u64 bcast_ctrl;
};

static bool cmem_counting(const struct sim_cmem_inst *ci)
{
	return (ci->ctrl & CMEM_CTRL_COUNT) && (ci->cg_ctrl & CMEM_CG_ON);
}

/* Add @val to counter @cnt, setting @bit in STATUS when it wraps. */
static void cmem_add(struct sim_cmem_inst *ci, u64 *cnt, u64 val, u64 bit)
{
	u64 old = *cnt;

	*cnt = old + val;
	if (*cnt < old)
		ci->status |= bit;
}

/*
 * The counter at @off of @ci, or NULL for any other offset; @off is 8-byte
 * aligned.
 */
static u64 *cmem_counter(struct sim_cmem_inst *ci, u32 off)
{
	int mc;

	if (off == CMEM_CYCLE_CNTR)
		return &ci->cycle;
	for (mc = 0; mc < CMEM_NR_MC; mc++) {
		if (off == cmem_req_off[mc])
			return &ci->req[mc];
		if (off == cmem_aor_off[mc])
			return &ci->aor[mc];
	}
	return NULL;
}

static void cmem_write_ctrl(struct sim_cmem_inst *ci, u64 val)
{
	/* bit 1 clears first, whatever CG_CTRL says; bit 0 then counts */
	if (val & CMEM_CTRL_CLEAR) {
		ci->status = 0;
		ci->cycle = 0;
		memset(ci->req, 0, sizeof(ci->req));
		memset(ci->aor, 0, sizeof(ci->aor));
	}
	ci->ctrl = val;
}

/* A write of CG_CTRL or CTRL to one instance; other offsets are ignored. */
static void cmem_write_inst(struct sim_cmem_inst *ci, u32 off, u64 val)
{
	switch (off) {
	case CMEM_CG_CTRL:
		ci->cg_ctrl = val;
		break;
	case CMEM_CTRL:
		cmem_write_ctrl(ci, val);
		break;
	case CMEM_STATUS:
		ci->status &= ~val;
		break;
	default:
		/* counters are read-only, the gaps hold nothing */
		break;
	}
}

static int cmem_init(struct sim_dev *sdev)
{
	struct sim_cmem *cmem;
	unsigned int i;

	if (sdev->desc->nr_wins != CMEM_NR_WINS)
		return -EINVAL;
	for (i = 0; i < CMEM_NR_WINS; i++)
		if (sdev->desc->wins[i].size < CMEM_WIN_MIN)
			return -EINVAL;
	/* reset state: everything 0 */
	cmem = kzalloc_obj(*cmem, GFP_KERNEL);
	if (!cmem)
		return -ENOMEM;
	sdev->model = cmem;
	return 0;
}

static void cmem_exit(struct sim_dev *sdev)
{
	kfree(sdev->model);
}

static u64 cmem_read(struct sim_dev *sdev, unsigned int win, u32 off,
		     unsigned int bytes, bool *counting)
{
	struct sim_cmem *cmem = sdev->model;
	struct sim_cmem_inst *ci;
	u64 *cnt;

	if (bytes != 8) {
		sim_bad_access(sdev, win, off, bytes, false);
		return ~0ULL;
	}
	/* the broadcast window is for writes */
	if (win == CMEM_BCAST)
		return 0;
	ci = &cmem->inst[win];
	switch (off) {
	case CMEM_CG_CTRL:
		return ci->cg_ctrl;
	case CMEM_CTRL:
		return ci->ctrl;
	case CMEM_STATUS:
		sdev->stats.status_reads++;
		return ci->status;
	}
	cnt = cmem_counter(ci, off);
	if (!cnt)
		return 0;
	*counting = cmem_counting(ci);
	return *cnt;
}

static void cmem_write(struct sim_dev *sdev, unsigned int win, u32 off, u64 val,
		       unsigned int bytes)
{
	struct sim_cmem *cmem = sdev->model;
	unsigned int i;

	if (bytes != 8) {
		sim_bad_access(sdev, win, off, bytes, true);
		return;
	}
	if (win != CMEM_BCAST) {
		cmem_write_inst(&cmem->inst[win], off, val);
		return;
	}
	sdev->stats.bcast_writes++;
	/* only CG_CTRL and CTRL fan out */
	if (off == CMEM_CG_CTRL)
		cmem->bcast_cg = val;
	else if (off == CMEM_CTRL)
		cmem->bcast_ctrl = val;
	else
		return;
	for (i = 0; i < CMEM_NR_INST; i++)
		cmem_write_inst(&cmem->inst[i], off, val);
}

static int cmem_inject(struct sim_dev *sdev, struct sim_inject *inj)
{
	struct sim_cmem *cmem = sdev->model;
	unsigned int mc = inj->attr[CMEM_ATTR_MC];
	struct sim_cmem_inst *ci;
	unsigned int i;

	if (inj->event == CMEM_EV_CYCLES) {
		/* the instances run in lock-step */
		for (i = 0; i < CMEM_NR_INST; i++) {
			ci = &cmem->inst[i];
			if (cmem_counting(ci))
				cmem_add(ci, &ci->cycle, inj->value, CMEM_ST_CYCLE);
		}
		return 0;
	}
	ci = &cmem->inst[inj->attr[CMEM_ATTR_INSTANCE]];
	if (!cmem_counting(ci))
		return 0;
	if (inj->event == CMEM_EV_RD_REQ)
		cmem_add(ci, &ci->req[mc], inj->value, CMEM_ST_REQ(mc));
	else if (inj->event == CMEM_EV_RD_CUM_OUTS)
		cmem_add(ci, &ci->aor[mc], inj->value, CMEM_ST_AOR(mc));
	/* id 0x3 fits the event format but has no signal */
	return 0;
}

static void cmem_regs_show(struct sim_dev *sdev, struct seq_file *m)
{
	struct sim_cmem *cmem = sdev->model;
	unsigned int i, mc;

	for (i = 0; i < CMEM_NR_INST; i++) {
		struct sim_cmem_inst *ci = &cmem->inst[i];

		sim_regs_print(m, sdev, i, CMEM_CG_CTRL, ci->cg_ctrl);
		sim_regs_print(m, sdev, i, CMEM_CTRL, ci->ctrl);
		sim_regs_print(m, sdev, i, CMEM_STATUS, ci->status);
		sim_regs_print(m, sdev, i, CMEM_CYCLE_CNTR, ci->cycle);
		for (mc = 0; mc < CMEM_NR_MC; mc++) {
			sim_regs_print(m, sdev, i, cmem_req_off[mc], ci->req[mc]);
			sim_regs_print(m, sdev, i, cmem_aor_off[mc], ci->aor[mc]);
		}
	}
	/* what was written there last; reads of the window return 0 */
	sim_regs_print(m, sdev, CMEM_BCAST, CMEM_CG_CTRL, cmem->bcast_cg);
	sim_regs_print(m, sdev, CMEM_BCAST, CMEM_CTRL, cmem->bcast_ctrl);
}

const struct sim_kind_ops sim_cmem_ops = {
	.signals	= cmem_signals,
	.nr_signals	= ARRAY_SIZE(cmem_signals),
	.event_max	= CMEM_EVENT_MAX,
	.attrs		= cmem_attrs,
	.nr_attrs	= ARRAY_SIZE(cmem_attrs),
	.init		= cmem_init,
	.exit		= cmem_exit,
	.read		= cmem_read,
	.write		= cmem_write,
	.inject		= cmem_inject,
	.regs_show	= cmem_regs_show,
	.reg_bytes	= 8,
};
