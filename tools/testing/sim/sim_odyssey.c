// SPDX-License-Identifier: GPL-2.0
/*
 * Models of the Marvell Odyssey DDR (DSS) PMU and LLC-TAD PMU
 * (Documentation/hw/marvell-odyssey-ddr-tad.md section 4), 64-bit registers.
 *
 * DDR: eight programmable counters, each counting the events its CFG
 * bitmap selects once CFG bit 63 is set, OP_MODE is 1 (manual) and START
 * was written after both; START zeroes the counter, END stops it and it
 * holds its value. They saturate at 2^64 - 1. Two free-running counters
 * (DDR writes, DDR reads) count while their bit of the enable register is
 * set, wrap at 2^64 and are zeroed only by a write of their bit to the
 * clear command register.
 *
 * TAD: tad-cnt blocks, tad-page-size bytes apart, each with eight counters
 * PFC(n) and their controls PRF(n) at +0x800 and +0x900; PRF's event
 * select (bits 7:0) is the only switch, 0 stops. A block sees only the
 * traffic injected with its tad= attribute.
 *
 * Every counter holds junk until the driver zeroes it (START, a clear or a
 * write of 0), so a driver that forgets is caught.
 */

#include <linux/bits.h>
#include <linux/kernel.h>
#include <linux/overflow.h>
#include <linux/slab.h>

#include "sim_compat.h"
#include "sim.h"

/* splitmix64: a fixed, well-spread junk value per address */
static u64 ody_seed(u64 x)
{
	x += 0x9e3779b97f4a7c15ULL;
	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
	x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
	return (x ^ (x >> 31)) | BIT_ULL(36);
}

/* A 4-byte access reaches the addressed half of a 64-bit register. */
static u64 ody_half(u64 reg, u32 off, unsigned int bytes)
{
	if (bytes == 8)
		return reg;
	return off & 4 ? upper_32_bits(reg) : lower_32_bits(reg);
}

static u64 ody_merge(u64 reg, u32 off, u64 val, unsigned int bytes)
{
	if (bytes == 8)
		return val;
	if (off & 4)
		return (u64)lower_32_bits(val) << 32 | lower_32_bits(reg);
	return (reg & GENMASK_ULL(63, 32)) | lower_32_bits(val);
}

/* ---- DDR ---- */

#define DDR_NR_CNT		8
#define DDR_OP_MODE		0x20020
#define DDR_START		0x200a0
#define DDR_END			0x200e0
#define DDR_END_STATUS		0x20120
#define DDR_CFG			0x20160
#define DDR_CNT			0x201c0
#define DDR_FR_EN		0x20240
#define DDR_FR_CLR		0x20248
#define DDR_FR_WR		0x20250
#define DDR_FR_RD		0x20258
#define DDR_WIN_MIN		(DDR_FR_RD + 8)
#define DDR_CFG_EN		BIT_ULL(63)
/* The event format is config:0-8. */
#define DDR_EVENT_MAX		0x1ff
#define DDR_EV_WRITES		100
#define DDR_EV_READS		101
/* Free-running counter index, enable and clear bit. */
#define DDR_FR_W		0
#define DDR_FR_R		1

static const struct sim_signal ddr_signals[] = {
	{ "ddr_hif_rd_or_wr_access", 1 }, { "ddr_hif_wr_access", 2 },
	{ "ddr_hif_rd_access", 3 }, { "ddr_hif_rmw_access", 4 },
	{ "ddr_hif_pri_rdaccess", 5 }, { "ddr_rd_bypass_access", 6 },
	{ "ddr_act_bypass_access", 7 }, { "ddr_dfi_wr_data_access", 8 },
	{ "ddr_dfi_rd_data_access", 9 }, { "ddr_hpri_sched_rd_crit_access", 10 },
	{ "ddr_lpri_sched_rd_crit_access", 11 }, { "ddr_wr_trxn_crit_access", 12 },
	{ "ddr_cam_active_access", 13 }, { "ddr_cam_rd_or_wr_access", 14 },
	{ "ddr_cam_rd_active_access", 15 }, { "ddr_cam_read", 16 },
	{ "ddr_cam_write", 17 }, { "ddr_cam_mwr", 18 },
	{ "ddr_precharge", 19 }, { "ddr_precharge_for_rdwr", 20 },
	{ "ddr_precharge_for_other", 21 }, { "ddr_rdwr_transitions", 22 },
	{ "ddr_write_combine", 23 }, { "ddr_war_hazard", 24 },
	{ "ddr_raw_hazard", 25 }, { "ddr_waw_hazard", 26 },
	{ "ddr_enter_selfref", 27 }, { "ddr_enter_powerdown", 31 },
	{ "ddr_enter_mpsm", 35 }, { "ddr_refresh", 39 },
	{ "ddr_crit_ref", 40 }, { "ddr_spec_ref", 41 },
	{ "ddr_load_mode", 42 }, { "ddr_zqcl", 43 },
	{ "ddr_cam_wr_access", 44 }, { "ddr_dfi_cycles", 45 },
	{ "ddr_retry_fifo_full", 46 }, { "ddr_bsm_alloc", 47 },
	{ "ddr_bsm_starvation", 48 }, { "ddr_win_limit_reached_rd", 49 },
	{ "ddr_win_limit_reached_wr", 50 }, { "ddr_dqsosc_mpc", 51 },
	{ "ddr_dqsosc_mrr", 52 }, { "ddr_tcr_mrr", 53 },
	{ "ddr_zqstart", 54 }, { "ddr_zqlatch", 55 },
	{ "ddr_dfi_parity_poison", 56 }, { "ddr_wr_crc_error", 57 },
	{ "ddr_capar_error", 58 }, { "ddr_rd_crc_error", 59 },
	{ "ddr_rd_uc_ecc_error", 60 }, { "ddr_dfi_cmd_is_retry", 61 },
	{ "ddr_ddr_writes", DDR_EV_WRITES }, { "ddr_ddr_reads", DDR_EV_READS },
};

/**
 * struct sim_ddr - state of one DDR controller's PMU
 * @cfg:     CFG(n) as last written (event bitmap, bit 63 enable)
 * @op_mode: OP_MODE(n) as last written
 * @started: START(n) written with CFG enabled and manual mode, no END since
 * @cnt:     CNT(n)
 * @fr_en:   free-running enable register as last written
 * @fr:      free-running counters, DDR_FR_W and DDR_FR_R
 */
struct sim_ddr {
	u64 cfg[DDR_NR_CNT];
	u64 op_mode[DDR_NR_CNT];
	bool started[DDR_NR_CNT];
	u64 cnt[DDR_NR_CNT];
	u64 fr_en;
	u64 fr[2];
};

/* CFG bits of a programmable event id, 0 for an id that has none. */
static u64 ddr_bits(u64 id)
{
	if (id == 27 || id == 31 || id == 35)
		return GENMASK_ULL(id + 2, id - 1);
	if ((id >= 1 && id <= 26) || (id >= 39 && id <= 61))
		return BIT_ULL(id - 1);
	return 0;
}

static bool ddr_counting(const struct sim_ddr *ddr, unsigned int n)
{
	return ddr->started[n] && (ddr->cfg[n] & DDR_CFG_EN) && ddr->op_mode[n] == 1;
}

static int ddr_init(struct sim_dev *sdev)
{
	const struct sim_win_desc *win = &sdev->desc->wins[0];
	struct sim_ddr *ddr;
	int n;

	if (sdev->desc->nr_wins != 1 || win->size < DDR_WIN_MIN)
		return -EINVAL;
	ddr = kzalloc_obj(*ddr, GFP_KERNEL);
	if (!ddr)
		return -ENOMEM;
	for (n = 0; n < DDR_NR_CNT; n++)
		ddr->cnt[n] = ody_seed(win->base + DDR_CNT + 8 * n);
	ddr->fr[DDR_FR_W] = ody_seed(win->base + DDR_FR_WR);
	ddr->fr[DDR_FR_R] = ody_seed(win->base + DDR_FR_RD);
	sdev->model = ddr;
	return 0;
}

static void ody_exit(struct sim_dev *sdev)
{
	kfree(sdev->model);
}

/*
 * The register at @off (8-byte aligned): its storage in *@reg, or NULL for
 * the command registers, which read 0; *@n is the counter of a per-counter
 * register, *@base the start of its block.
 */
static u64 *ddr_reg(struct sim_ddr *ddr, u32 off, u32 *base, int *n)
{
	static const u32 blocks[] = { DDR_OP_MODE, DDR_START, DDR_END, DDR_CFG, DDR_CNT };
	unsigned int i;

	*n = -1;
	*base = off;
	for (i = 0; i < ARRAY_SIZE(blocks); i++) {
		if (off >= blocks[i] && off < blocks[i] + 8 * DDR_NR_CNT) {
			*base = blocks[i];
			*n = (off - blocks[i]) / 8;
			break;
		}
	}
	switch (*base) {
	case DDR_OP_MODE:
		return &ddr->op_mode[*n];
	case DDR_CFG:
		return &ddr->cfg[*n];
	case DDR_CNT:
		return &ddr->cnt[*n];
	case DDR_FR_EN:
		return &ddr->fr_en;
	case DDR_FR_WR:
		return &ddr->fr[DDR_FR_W];
	case DDR_FR_RD:
		return &ddr->fr[DDR_FR_R];
	}
	/* START, END, END_STATUS, the clear command, unknown offsets */
	return NULL;
}

static u64 ddr_read(struct sim_dev *sdev, unsigned int win, u32 off,
		    unsigned int bytes, bool *counting)
{
	struct sim_ddr *ddr = sdev->model;
	u32 base;
	int n;
	u64 *r = ddr_reg(ddr, off & ~7U, &base, &n);

	if (!r)
		return 0;
	if (base == DDR_CNT)
		*counting = ddr_counting(ddr, n);
	else if (base == DDR_FR_WR)
		*counting = ddr->fr_en & BIT(DDR_FR_W);
	else if (base == DDR_FR_RD)
		*counting = ddr->fr_en & BIT(DDR_FR_R);
	return ody_half(*r, off, bytes);
}

static void ddr_write(struct sim_dev *sdev, unsigned int win, u32 off, u64 val,
		      unsigned int bytes)
{
	struct sim_ddr *ddr = sdev->model;
	u32 base;
	int n;
	u64 *r = ddr_reg(ddr, off & ~7U, &base, &n);

	/* a command register reads 0: a write of its low half commands */
	val = ody_merge(r ? *r : 0, off, val, bytes);
	switch (base) {
	case DDR_CFG:
		ddr->cfg[n] = val;
		if (!(val & DDR_CFG_EN))
			ddr->started[n] = false;
		break;
	case DDR_OP_MODE:
		ddr->op_mode[n] = val;
		if (val != 1)
			ddr->started[n] = false;
		break;
	case DDR_START:
		if (val & 1) {
			ddr->cnt[n] = 0;
			ddr->started[n] = (ddr->cfg[n] & DDR_CFG_EN) && ddr->op_mode[n] == 1;
		}
		break;
	case DDR_END:
		if (val & 1)
			ddr->started[n] = false;
		break;
	case DDR_FR_EN:
		ddr->fr_en = val;
		break;
	case DDR_FR_CLR:
		if (val & BIT(DDR_FR_W))
			ddr->fr[DDR_FR_W] = 0;
		if (val & BIT(DDR_FR_R))
			ddr->fr[DDR_FR_R] = 0;
		break;
	}
	/* CNT, the free-running values, END_STATUS, unknown: ignored */
}

static int ddr_inject(struct sim_dev *sdev, struct sim_inject *inj)
{
	struct sim_ddr *ddr = sdev->model;
	u64 bits = ddr_bits(inj->event);
	int n;

	if (inj->event == DDR_EV_WRITES && (ddr->fr_en & BIT(DDR_FR_W)))
		ddr->fr[DDR_FR_W] += inj->value;
	if (inj->event == DDR_EV_READS && (ddr->fr_en & BIT(DDR_FR_R)))
		ddr->fr[DDR_FR_R] += inj->value;
	if (!bits)
		return 0;
	for (n = 0; n < DDR_NR_CNT; n++) {
		if (!ddr_counting(ddr, n) || !(ddr->cfg[n] & bits))
			continue;
		/* saturates: stays at the maximum until START */
		if (check_add_overflow(ddr->cnt[n], inj->value, &ddr->cnt[n]))
			ddr->cnt[n] = U64_MAX;
	}
	return 0;
}

static void ddr_regs_show(struct sim_dev *sdev, struct seq_file *m)
{
	struct sim_ddr *ddr = sdev->model;
	int n;

	for (n = 0; n < DDR_NR_CNT; n++)
		sim_regs_print(m, sdev, 0, DDR_OP_MODE + 8 * n, ddr->op_mode[n]);
	for (n = 0; n < DDR_NR_CNT; n++)
		sim_regs_print(m, sdev, 0, DDR_CFG + 8 * n, ddr->cfg[n]);
	for (n = 0; n < DDR_NR_CNT; n++)
		sim_regs_print(m, sdev, 0, DDR_CNT + 8 * n, ddr->cnt[n]);
	sim_regs_print(m, sdev, 0, DDR_FR_EN, ddr->fr_en);
	sim_regs_print(m, sdev, 0, DDR_FR_WR, ddr->fr[DDR_FR_W]);
	sim_regs_print(m, sdev, 0, DDR_FR_RD, ddr->fr[DDR_FR_R]);
}

const struct sim_kind_ops sim_odyssey_ddr_ops = {
	.signals	= ddr_signals,
	.nr_signals	= ARRAY_SIZE(ddr_signals),
	.event_max	= DDR_EVENT_MAX,
	.init		= ddr_init,
	.exit		= ody_exit,
	.read		= ddr_read,
	.write		= ddr_write,
	.inject		= ddr_inject,
	.regs_show	= ddr_regs_show,
};

/* ---- TAD ---- */

#define TAD_NR_CNT		8
#define TAD_PFC			0x800
#define TAD_PRF			0x900
#define TAD_CNTSEL		GENMASK_ULL(7, 0)
/* The event format is config:0-7. */
#define TAD_EVENT_MAX		0xff
/* Modelling defaults (facts 4.3) where firmware gives no property. */
#define TAD_DEF_CNT		4
#define TAD_DEF_PAGE		0x10000
#define TAD_DEF_PMU_PAGE	0x1000
#define TAD_MAX_CNT		64

static const struct sim_signal tad_signals[] = {
	{ "tad_req_msh_in_exlmn", 0x03 },
	{ "tad_alloc_dtg", 0x1a },
	{ "tad_alloc_ltg", 0x1b },
	{ "tad_alloc_any", 0x1c },
	{ "tad_hit_dtg", 0x1d },
	{ "tad_hit_ltg", 0x1e },
	{ "tad_hit_any", 0x1f },
	{ "tad_tag_rd", 0x20 },
	{ "tad_tot_cycle", 0xff },
};

static const struct sim_attr_desc tad_attrs[] = {
	{ .key = "tad", .max = TAD_DEF_CNT - 1 },
};

#define TAD_ATTR_TAD		0

/**
 * struct sim_tad_block - one TAD's PMU registers
 * @pfc: counters PFC(n)
 * @prf: controls PRF(n) as last written
 */
struct sim_tad_block {
	u64 pfc[TAD_NR_CNT];
	u64 prf[TAD_NR_CNT];
};

/**
 * struct sim_tad - state of the LLC-TAD PMU
 * @nr:       TAD blocks (marvell,tad-cnt)
 * @page:     stride between blocks (marvell,tad-page-size)
 * @pmu_page: size of each block's PMU page (marvell,tad-pmu-page-size)
 * @blk:      the blocks
 */
struct sim_tad {
	u32 nr;
	u32 page;
	u32 pmu_page;
	struct sim_tad_block blk[];
};

static u64 tad_prop(struct sim_dev *sdev, const char *key, u64 def)
{
	u64 v;

	return sim_prop(sdev, key, &v) ? v : def;
}

static int tad_init(struct sim_dev *sdev)
{
	const struct sim_win_desc *win = &sdev->desc->wins[0];
	u64 nr = tad_prop(sdev, "marvell,tad-cnt", TAD_DEF_CNT);
	u64 page = tad_prop(sdev, "marvell,tad-page-size", TAD_DEF_PAGE);
	u64 pmu_page = tad_prop(sdev, "marvell,tad-pmu-page-size", TAD_DEF_PMU_PAGE);
	struct sim_tad *tad;
	u32 i, n;

	if (sdev->desc->nr_wins != 1 || !nr || nr > TAD_MAX_CNT || !page ||
	    pmu_page < TAD_PRF + 8 * TAD_NR_CNT || pmu_page > page ||
	    nr * page > win->size)
		return -EINVAL;
	tad = kzalloc(struct_size(tad, blk, nr), GFP_KERNEL);
	if (!tad)
		return -ENOMEM;
	tad->nr = nr;
	tad->page = page;
	tad->pmu_page = pmu_page;
	for (i = 0; i < nr; i++)
		for (n = 0; n < TAD_NR_CNT; n++)
			tad->blk[i].pfc[n] = ody_seed(win->base + i * page + TAD_PFC + 8 * n);
	sdev->model = tad;
	return 0;
}

/*
 * The register at @off: its block in *@b and counter in *@n; true for a
 * control PRF(n), false for a counter PFC(n). -1: not a register.
 */
static int tad_reg(struct sim_tad *tad, u32 off, struct sim_tad_block **b, u32 *n)
{
	u32 i = off / tad->page, o = off % tad->page;

	if (i >= tad->nr || o >= tad->pmu_page)
		return -1;
	*b = &tad->blk[i];
	if (o >= TAD_PFC && o < TAD_PFC + 8 * TAD_NR_CNT) {
		*n = (o - TAD_PFC) / 8;
		return 0;
	}
	if (o >= TAD_PRF && o < TAD_PRF + 8 * TAD_NR_CNT) {
		*n = (o - TAD_PRF) / 8;
		return 1;
	}
	return -1;
}

static u64 tad_read(struct sim_dev *sdev, unsigned int win, u32 off,
		    unsigned int bytes, bool *counting)
{
	struct sim_tad_block *b;
	u32 n;

	switch (tad_reg(sdev->model, off & ~7U, &b, &n)) {
	case 0:
		*counting = b->prf[n] & TAD_CNTSEL;
		return ody_half(b->pfc[n], off, bytes);
	case 1:
		return ody_half(b->prf[n], off, bytes);
	}
	return 0;
}

static void tad_write(struct sim_dev *sdev, unsigned int win, u32 off, u64 val,
		      unsigned int bytes)
{
	struct sim_tad_block *b;
	u32 n;

	switch (tad_reg(sdev->model, off & ~7U, &b, &n)) {
	case 0:
		b->pfc[n] = ody_merge(b->pfc[n], off, val, bytes);
		break;
	case 1:
		b->prf[n] = ody_merge(b->prf[n], off, val, bytes);
		break;
	}
}

static int tad_inject(struct sim_dev *sdev, struct sim_inject *inj)
{
	struct sim_tad *tad = sdev->model;
	struct sim_tad_block *b;
	int n;

	if (inj->attr[TAD_ATTR_TAD] >= tad->nr)
		return -EINVAL;
	b = &tad->blk[inj->attr[TAD_ATTR_TAD]];
	for (n = 0; n < TAD_NR_CNT; n++)
		if ((b->prf[n] & TAD_CNTSEL) && (b->prf[n] & TAD_CNTSEL) == inj->event)
			b->pfc[n] += inj->value;
	return 0;
}

static void tad_regs_show(struct sim_dev *sdev, struct seq_file *m)
{
	struct sim_tad *tad = sdev->model;
	u32 i, n;

	for (i = 0; i < tad->nr; i++) {
		for (n = 0; n < TAD_NR_CNT; n++)
			sim_regs_print(m, sdev, 0, i * tad->page + TAD_PFC + 8 * n,
				       tad->blk[i].pfc[n]);
		for (n = 0; n < TAD_NR_CNT; n++)
			sim_regs_print(m, sdev, 0, i * tad->page + TAD_PRF + 8 * n,
				       tad->blk[i].prf[n]);
	}
}

const struct sim_kind_ops sim_odyssey_tad_ops = {
	.signals	= tad_signals,
	.nr_signals	= ARRAY_SIZE(tad_signals),
	.event_max	= TAD_EVENT_MAX,
	.attrs		= tad_attrs,
	.nr_attrs	= ARRAY_SIZE(tad_attrs),
	.init		= tad_init,
	.exit		= ody_exit,
	.read		= tad_read,
	.write		= tad_write,
	.inject		= tad_inject,
	.regs_show	= tad_regs_show,
};
