// SPDX-License-Identifier: GPL-2.0
/*
 * Model of the Marvell Odyssey PEM PMU (Documentation/hw/marvell-pem.md section 10):
 * 27 free-running 64-bit counters in one window, each wired to one event
 * signal. Nothing enables them, so they always count; every read of a
 * counter is therefore a read "while running". Writes load the written
 * value (the v5 evidence); the driver must never write, which the stats
 * file shows.
 */

#include <linux/bits.h>
#include <linux/kernel.h>
#include <linux/slab.h>

#include "sim_compat.h"
#include "sim.h"

#define PEM_NR_COUNTERS		27
/* The event format is config:0-5. */
#define PEM_EVENT_MAX		0x3f

static const u16 pem_offsets[PEM_NR_COUNTERS] = {
	0x0000, 0x0008, 0x0010,		/* ib_tlp_{npr,pr,cpl_partid} */
	0x0100, 0x0108, 0x0110,		/* ib_tlp_dwords_* */
	0x0200, 0x0300,			/* ib_inflight, ib_reads */
	0x0400, 0x0408,			/* ib_req_no_ro_{ncb,ebus} */
	0x0500, 0x0508, 0x0510,		/* ob_tlp_*_partid */
	0x0600, 0x0608, 0x0610,		/* ob_tlp_dwords_*_partid */
	0x0700, 0x0800,			/* ob_inflight_partid, ob_reads_partid */
	0x0900, 0x0908, 0x0910,		/* ob_merges_*_partid */
	0x2d18, 0x2d20,			/* ats_trans, ats_trans_latency */
	0x2d28, 0x2d30,			/* ats_pri, ats_pri_latency */
	0x2d38, 0x2d40,			/* ats_inv, ats_inv_latency */
};

static const struct sim_signal pem_signals[PEM_NR_COUNTERS] = {
	{ "ib_tlp_npr", 0x00 },
	{ "ib_tlp_pr", 0x01 },
	{ "ib_tlp_cpl_partid", 0x02 },
	{ "ib_tlp_dwords_npr", 0x03 },
	{ "ib_tlp_dwords_pr", 0x04 },
	{ "ib_tlp_dwords_cpl_partid", 0x05 },
	{ "ib_inflight", 0x06 },
	{ "ib_reads", 0x07 },
	{ "ib_req_no_ro_ncb", 0x08 },
	{ "ib_req_no_ro_ebus", 0x09 },
	{ "ob_tlp_npr_partid", 0x0a },
	{ "ob_tlp_pr_partid", 0x0b },
	{ "ob_tlp_cpl_partid", 0x0c },
	{ "ob_tlp_dwords_npr_partid", 0x0d },
	{ "ob_tlp_dwords_pr_partid", 0x0e },
	{ "ob_tlp_dwords_cpl_partid", 0x0f },
	{ "ob_inflight_partid", 0x10 },
	{ "ob_reads_partid", 0x11 },
	{ "ob_merges_npr_partid", 0x12 },
	{ "ob_merges_pr_partid", 0x13 },
	{ "ob_merges_cpl_partid", 0x14 },
	{ "ats_trans", 0x15 },
	{ "ats_trans_latency", 0x16 },
	{ "ats_pri", 0x17 },
	{ "ats_pri_latency", 0x18 },
	{ "ats_inv", 0x19 },
	{ "ats_inv_latency", 0x1a },
};

/**
 * struct sim_pem - state of one PEM
 * @cnt: the counters, indexed by event id
 */
struct sim_pem {
	u64 cnt[PEM_NR_COUNTERS];
};

/* Counter at @off (8-byte aligned), or -1. */
static int pem_counter(u32 off)
{
	int i;

	for (i = 0; i < PEM_NR_COUNTERS; i++)
		if (pem_offsets[i] == off)
			return i;
	return -1;
}

/* splitmix64: a fixed, well-spread start value per base and counter */
static u64 pem_seed(u64 x)
{
	x += 0x9e3779b97f4a7c15ULL;
	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
	x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
	return x ^ (x >> 31);
}

static int pem_init(struct sim_dev *sdev)
{
	const struct sim_win_desc *win = &sdev->desc->wins[0];
	struct sim_pem *pem;
	int i;

	if (sdev->desc->nr_wins != 1 ||
	    win->size < pem_offsets[PEM_NR_COUNTERS - 1] + 8)
		return -EINVAL;
	pem = kzalloc_obj(*pem, GFP_KERNEL);
	if (!pem)
		return -ENOMEM;
	/* as if counting since reset: a driver assuming 0 at start is wrong */
	for (i = 0; i < PEM_NR_COUNTERS; i++)
		pem->cnt[i] = pem_seed(win->base + pem_offsets[i]) | BIT_ULL(40);
	sdev->model = pem;
	return 0;
}

static void pem_exit(struct sim_dev *sdev)
{
	kfree(sdev->model);
}

static u64 pem_read(struct sim_dev *sdev, unsigned int win, u32 off,
		    unsigned int bytes, bool *counting)
{
	struct sim_pem *pem = sdev->model;
	int i = pem_counter(off & ~7U);

	if (i < 0)
		return 0;
	*counting = true;
	if (bytes == 8)
		return pem->cnt[i];
	return off & 4 ? upper_32_bits(pem->cnt[i]) : lower_32_bits(pem->cnt[i]);
}

static void pem_write(struct sim_dev *sdev, unsigned int win, u32 off, u64 val,
		      unsigned int bytes)
{
	struct sim_pem *pem = sdev->model;
	int i = pem_counter(off & ~7U);

	if (i < 0)
		return;
	if (bytes == 8)
		pem->cnt[i] = val;
	else if (off & 4)
		pem->cnt[i] = (u64)lower_32_bits(val) << 32 | lower_32_bits(pem->cnt[i]);
	else
		pem->cnt[i] = (pem->cnt[i] & GENMASK_ULL(63, 32)) | lower_32_bits(val);
}

static int pem_inject(struct sim_dev *sdev, struct sim_inject *inj)
{
	struct sim_pem *pem = sdev->model;

	/* ids 0x1b-0x3f fit the event format but have no counter */
	if (inj->event < PEM_NR_COUNTERS)
		pem->cnt[inj->event] += inj->value;
	return 0;
}

static void pem_regs_show(struct sim_dev *sdev, struct seq_file *m)
{
	struct sim_pem *pem = sdev->model;
	int i;

	for (i = 0; i < PEM_NR_COUNTERS; i++)
		sim_regs_print(m, sdev, 0, pem_offsets[i], pem->cnt[i]);
}

const struct sim_kind_ops sim_pem_ops = {
	.signals	= pem_signals,
	.nr_signals	= ARRAY_SIZE(pem_signals),
	.event_max	= PEM_EVENT_MAX,
	.init		= pem_init,
	.exit		= pem_exit,
	.read		= pem_read,
	.write		= pem_write,
	.inject		= pem_inject,
	.regs_show	= pem_regs_show,
};
