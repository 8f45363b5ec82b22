// SPDX-License-Identifier: GPL-2.0
/*
 * Model of the NVIDIA PMUs that follow the Arm CoreSight PMU architecture
 * (Documentation/hw/nvidia-t410-cspmu.md sections 3 and 8): Tegra410 UCF, PCIE and
 * PCIE-TGT, Grace (Tegra241) SCF, PCIE, NVLink-C2C0/1 and CNVLink, and a
 * product no driver knows; one model with per-kind identity, events and
 * filters.
 *
 * Windows: page0; page1 if the topology gives one (dual page, APMT
 * DUAL_PAGE), otherwise page 1 aliases page 0; PCIE-TGT's address-filter
 * slots in a separate "filter" window (the first _CRS memory resource of
 * its ACPI device). With dual page, page 1 holds only the counters and
 * PMOVSCLR/PMOVSSET and page 0 everything else; offsets without a register
 * read 0 and ignore writes.
 *
 * PMCFGR comes from the module parameters cspmu_counters, cspmu_width and
 * cspmu_cycle, or per device from the topology keys counters=, width= and
 * cycle=. 64-bit counters take 64-bit accesses only with the APMT ATOMIC
 * flag (topology key atomic=, default 1) and 32-bit halves always; a
 * counter changes only through injection, so a hi-lo-hi read is stable
 * unless traffic arrives between its reads. Counters wrap at their width
 * and set PMOVS; the overflow interrupt (sim_irq.c) is pending while any
 * PMOVS bit has its PMINTEN bit set. An injection that could wrap a counter
 * more than once is delivered in chunks below half its range, waiting for
 * the driver between them (tools/testing/sim/contract.md 3.1).
 */

#define pr_fmt(fmt) "uncore_sim: " fmt

#include <linux/bits.h>
#include <linux/kernel.h>
#include <linux/minmax.h>
#include <linux/moduleparam.h>
#include <linux/slab.h>
#include <linux/string.h>

#include "sim.h"

static unsigned int cspmu_counters = 8;
module_param(cspmu_counters, uint, 0444);
MODULE_PARM_DESC(cspmu_counters,
		 "CSPMU event counters besides the cycle counter, 1-64 (default 8)");

static unsigned int cspmu_width = 64;
module_param(cspmu_width, uint, 0444);
MODULE_PARM_DESC(cspmu_width, "CSPMU counter width in bits, 8-64 (default 64)");

static bool cspmu_cycle = true;
module_param(cspmu_cycle, bool, 0444);
MODULE_PARM_DESC(cspmu_cycle, "CSPMUs have a cycle counter (default 1)");

#define CSPMU_MAX_CNTR		64
/* The cycle counter's physical index. */
#define CSPMU_CYCLE_IDX		31
/* Physical indices 0..CSPMU_MAX_CNTR (one skipped for the cycle counter). */
#define CSPMU_MAX_PHYS		(CSPMU_MAX_CNTR + 1)
#define CSPMU_NR_WORDS		((CSPMU_MAX_PHYS + 31) / 32)
#define CSPMU_PAGE_SIZE		0x1000

/* Register offsets (section 3.1). */
#define PMEVCNTR		0x000
#define PMEVTYPER		0x400
#define PMEVFILT2R		0x800
#define PMEVFILTR		0xa00
#define PMCNTENSET		0xc00
#define PMCNTENCLR		0xc20
#define PMINTENSET		0xc40
#define PMINTENCLR		0xc60
#define PMOVSCLR		0xc80
#define PMOVSSET		0xcc0
#define PMCFGR			0xe00
#define PMCR			0xe04
#define PMIIDR			0xe08
#define PMPIDR4			0xfd0
#define PMPIDR0			0xfe0
#define PMPIDR3			0xfec

#define PMCFGR_SIZE_SHIFT	8
#define PMCFGR_CC		BIT(14)
#define PMCR_E			BIT(0)
#define PMCR_P			BIT(1)
#define PMCR_C			BIT(2)

/* PCIE-TGT address-filter slots in the filter window (section 5.6.1). */
#define TGT_NR_SLOTS		8
#define TGT_SLOT_BASE		0xd38
#define TGT_SLOT_STRIDE		0x14
#define TGT_SLOT_END		(TGT_SLOT_BASE + TGT_NR_SLOTS * TGT_SLOT_STRIDE)
#define TGT_CTRL_EN		BIT(0)

/* Filter fields (section 8.4). */
#define PCIE_BDF_EN		BIT(24)
#define PCIE_BDF_SHIFT		8
#define TGT_SLOT_SEL_SHIFT	8

/* Longest wait for the driver between chunks (tools/testing/sim/contract.md 3.1). */
#define CSPMU_WAIT_IRQ_MS	1000
#define CSPMU_WAIT_READ_MS	5000

/* The APMT flag the model needs to know (include/uncore_apmt.h). */
#define APMT_FLAG_ATOMIC	BIT(2)

#define CSPMU_CYCLES		BIT_ULL(32)

static const struct sim_signal ucf_signals[] = {
	{ "bus_cycles", 0x1d },
	{ "slc_allocate", 0xf0 },
	{ "slc_wb", 0xf3 },
	{ "slc_refill_rd", 0x109 },
	{ "slc_refill_wr", 0x10a },
	{ "slc_access_rd", 0x111 },
	{ "slc_access_wr", 0x112 },
	{ "slc_bytes_rd", 0x113 },
	{ "slc_bytes_wr", 0x114 },
	{ "slc_hit_rd", 0x119 },
	{ "mem_access_rd", 0x121 },
	{ "mem_access_wr", 0x122 },
	{ "mem_bytes_rd", 0x123 },
	{ "mem_bytes_wr", 0x124 },
	{ "local_snoop", 0x180 },
	{ "ext_snp_access", 0x181 },
	{ "ext_snp_evict", 0x182 },
	{ "slc_access_dataless", 0x183 },
	{ "slc_access_atomic", 0x184 },
	{ "cycles", CSPMU_CYCLES },
};

static const struct sim_signal pcie_signals[] = {
	{ "rd_bytes", 0x0 },
	{ "wr_bytes", 0x1 },
	{ "rd_req", 0x2 },
	{ "wr_req", 0x3 },
	{ "rd_cum_outs", 0x4 },
	{ "cycles", CSPMU_CYCLES },
};

static const struct sim_signal tgt_signals[] = {
	{ "rd_bytes", 0x0 },
	{ "wr_bytes", 0x1 },
	{ "rd_req", 0x2 },
	{ "wr_req", 0x3 },
	{ "cycles", 0x4 },
};

/* Grace (Tegra241): SCF (Documentation/hw/nvidia-t410-cspmu.md 5.4, Grace reference). */
static const struct sim_signal scf_signals[] = {
	{ "bus_cycles", 0x1d },
	{ "scf_cache_allocate", 0xf0 },
	{ "scf_cache_refill", 0xf1 },
	{ "scf_cache", 0xf2 },
	{ "scf_cache_wb", 0xf3 },
	{ "socket_0_rd_data", 0x101 }, { "socket_1_rd_data", 0x102 },
	{ "socket_2_rd_data", 0x103 }, { "socket_3_rd_data", 0x104 },
	{ "socket_0_wb_data", 0x109 }, { "socket_1_wb_data", 0x10a },
	{ "socket_2_wb_data", 0x10b }, { "socket_3_wb_data", 0x10c },
	{ "socket_0_rd_outstanding", 0x115 }, { "socket_1_rd_outstanding", 0x116 },
	{ "socket_2_rd_outstanding", 0x117 }, { "socket_3_rd_outstanding", 0x118 },
	{ "socket_0_rd_access", 0x12d }, { "socket_1_rd_access", 0x12e },
	{ "socket_2_rd_access", 0x12f }, { "socket_3_rd_access", 0x130 },
	{ "socket_0_wb_access", 0x135 }, { "socket_1_wb_access", 0x136 },
	{ "socket_2_wb_access", 0x137 }, { "socket_3_wb_access", 0x138 },
	{ "socket_0_wr_access", 0x139 }, { "socket_1_wr_access", 0x13a },
	{ "socket_2_wr_access", 0x13b }, { "socket_3_wr_access", 0x13c },
	{ "gmem_rd_data", 0x16d },
	{ "gmem_rd_access", 0x16e },
	{ "gmem_rd_outstanding", 0x16f },
	{ "gmem_wb_data", 0x173 },
	{ "gmem_wb_access", 0x174 },
	{ "gmem_wr_data", 0x179 },
	{ "gmem_wr_access", 0x17b },
	{ "socket_0_wr_data", 0x17c }, { "socket_1_wr_data", 0x17d },
	{ "socket_2_wr_data", 0x17e }, { "socket_3_wr_data", 0x17f },
	{ "gmem_wr_total_bytes", 0x1a0 },
	{ "remote_socket_wr_total_bytes", 0x1a1 },
	{ "remote_socket_rd_data", 0x1a2 },
	{ "remote_socket_rd_outstanding", 0x1a3 },
	{ "remote_socket_rd_access", 0x1a4 },
	{ "cmem_rd_data", 0x1a5 },
	{ "cmem_rd_access", 0x1a6 },
	{ "cmem_rd_outstanding", 0x1a7 },
	{ "cmem_wb_data", 0x1ab },
	{ "cmem_wb_access", 0x1ac },
	{ "cmem_wr_data", 0x1b1 },
	{ "cmem_wr_access", 0x1ca },
	{ "cmem_wr_total_bytes", 0x1db },
	{ "cycles", CSPMU_CYCLES },
};

/* Grace PCIE, NVLink-C2C0/1 and CNVLink: memory traffic by port. */
static const struct sim_signal mcf_signals[] = {
	{ "rd_bytes_loc", 0x0 },
	{ "rd_bytes_rem", 0x1 },
	{ "wr_bytes_loc", 0x2 },
	{ "wr_bytes_rem", 0x3 },
	{ "total_bytes_loc", 0x4 },
	{ "total_bytes_rem", 0x5 },
	{ "rd_req_loc", 0x6 },
	{ "rd_req_rem", 0x7 },
	{ "wr_req_loc", 0x8 },
	{ "wr_req_rem", 0x9 },
	{ "total_req_loc", 0xa },
	{ "total_req_rem", 0xb },
	{ "rd_cum_outs_loc", 0xc },
	{ "rd_cum_outs_rem", 0xd },
	{ "cycles", CSPMU_CYCLES },
};

/* The generic NVIDIA PMU counts any id it is programmed with. */
static const struct sim_signal generic_signals[] = {
	{ "cycles", CSPMU_CYCLES },
};

/* Each Grace filter: bit n of PMEVFILTR selects port n of this attribute. */
static const struct sim_attr_desc grace_pcie_attrs[] = {
	{ .key = "rp", .max = 9 },
};

static const struct sim_attr_desc grace_c2c_attrs[] = {
	{ .key = "port", .max = 1 },
};

static const struct sim_attr_desc cnvlink_attrs[] = {
	{ .key = "rsock", .max = 3 },
};

static const char *const ucf_src[] = { "loc_cpu", "loc_noncpu", "rem", NULL };
static const char *const ucf_dst[] = {
	"loc_cmem", "loc_gmem", "loc_other", "rem", NULL
};

static const char *const pcie_dst[] = {
	"loc_cmem", "loc_gmem", "loc_pcie_p2p", "loc_pcie_cxl", "rem", NULL
};

static const char *const tgt_target[] = { "bar", "cxl", NULL };

/* PMEVFILTR source bits of ucf_src[] (table 5.4: noncpu 0, cpu 1, rem 2). */
static const u8 ucf_src_bit[] = { 1, 0, 2 };
#define UCF_DST_SHIFT		8

static const struct sim_attr_desc ucf_attrs[] = {
	{ .key = "src", .values = ucf_src },
	{ .key = "dst", .values = ucf_dst },
};

#define UCF_ATTR_SRC		0
#define UCF_ATTR_DST		1

static const struct sim_attr_desc pcie_attrs[] = {
	{ .key = "rp", .max = 7 },
	{ .key = "bdf", .max = 0xffff },
	{ .key = "dst", .values = pcie_dst },
};

#define PCIE_ATTR_RP		0
#define PCIE_ATTR_BDF		1
#define PCIE_ATTR_DST		2

static const struct sim_attr_desc tgt_attrs[] = {
	{ .key = "rp", .max = 7 },
	{ .key = "addr", .max = U64_MAX },
	{ .key = "target", .values = tgt_target },
};

#define TGT_ATTR_RP		0
#define TGT_ATTR_ADDR		1
#define TGT_ATTR_TARGET		2
#define TGT_TARGET_BAR		0

/**
 * struct sim_cspmu_slot - one PCIE-TGT address-filter slot
 * @ctrl: ADDR_CTRL
 * @reg:  ADDR_BASE_LO, ADDR_BASE_HI, ADDR_MASK_LO, ADDR_MASK_HI
 */
struct sim_cspmu_slot {
	u32 ctrl;
	u32 reg[4];
};

/**
 * struct sim_cspmu - state of one CSPMU
 * @kind:      which of the CSPMU kinds
 * @page0:     window index of page 0
 * @page1:     window index of page 1, or -1 when it aliases page 0
 * @filter:    window index of the PCIE-TGT slots, or -1
 * @width:     counter width in bits
 * @cc:        there is a cycle counter (physical index 31)
 * @atomic:    64-bit counter accesses are allowed (APMT ATOMIC)
 * @nr_words:  SET/CLR registers
 * @pmcfgr:    PMCFGR
 * @pmiidr:    what PMIIDR reads
 * @pidr:      PMPIDR0..4, encoding the kind's identity
 * @cycles_id: the event id of cycles
 * @cmask:     counter mask, GENMASK_ULL(width - 1, 0)
 * @impl:      implemented counters (physical indices)
 * @cnten:     PMCNTEN
 * @inten:     PMINTEN
 * @ovs:       PMOVS
 * @pmcr:      PMCR as it reads (E only)
 * @type:      PMEVTYPER; [31] is PMCCFILTR when @cc
 * @filt:      PMEVFILTR
 * @filt2:     PMEVFILT2R
 * @cnt:       PMEVCNTR
 * @slot:      PCIE-TGT address-filter slots
 * @read:      counters read since the last chunk of a chunked injection
 * @wait_ovs:  counters whose overflow the injection waits to see cleared
 * @wait_read: counters the injection waits to see read
 * @mid_write: traffic delivered between the halves of a counter write
 *             (the "mid_write" property; 0: none)
 * @mid:       the chunked injection waiting for the driver, while @mid_live
 * @mid_taken: how much of @mid went in between halves, taken off its rest
 * @mid_live:  @mid is valid
 */
struct sim_cspmu {
	enum sim_kind kind;
	int page0;
	int page1;
	int filter;
	unsigned int width;
	bool cc;
	bool atomic;
	unsigned int nr_words;
	u32 pmcfgr;
	u32 pmiidr;
	u32 pidr[5];
	u64 cycles_id;
	u64 cmask;
	u32 impl[CSPMU_NR_WORDS];
	u32 cnten[CSPMU_NR_WORDS];
	u32 inten[CSPMU_NR_WORDS];
	u32 ovs[CSPMU_NR_WORDS];
	u32 pmcr;
	u32 type[CSPMU_MAX_PHYS];
	u32 filt[CSPMU_MAX_PHYS];
	u32 filt2[CSPMU_MAX_PHYS];
	u64 cnt[CSPMU_MAX_PHYS];
	struct sim_cspmu_slot slot[TGT_NR_SLOTS];
	u32 read[CSPMU_NR_WORDS];
	u32 wait_ovs[CSPMU_NR_WORDS];
	u32 wait_read[CSPMU_NR_WORDS];
	u64 mid_write;
	struct sim_inject mid;
	u64 mid_taken;
	bool mid_live;
};

static bool bit_test(const u32 *w, unsigned int i)
{
	return w[i / 32] & BIT(i % 32);
}

static void bit_set(u32 *w, unsigned int i)
{
	w[i / 32] |= BIT(i % 32);
}

static bool cspmu_is_cycle(const struct sim_cspmu *cs, unsigned int i)
{
	return cs->cc && i == CSPMU_CYCLE_IDX;
}

static bool cspmu_counting(const struct sim_cspmu *cs, unsigned int i)
{
	return (cs->pmcr & PMCR_E) && bit_test(cs->cnten, i);
}

static void cspmu_update_irq(struct sim_dev *sdev)
{
	struct sim_cspmu *cs = sdev->model;
	unsigned int k;
	bool level = false;

	for (k = 0; k < cs->nr_words; k++)
		level |= !!(cs->ovs[k] & cs->inten[k]);
	sim_irq_set_level(sdev, level);
}

/* ---- creation ---- */

static int cspmu_find_win(const struct sim_dev *sdev, const char *name)
{
	unsigned int i;

	for (i = 0; i < sdev->desc->nr_wins; i++)
		if (!strcmp(sdev->desc->wins[i].name, name))
			return i;
	return -1;
}

static u64 cspmu_prop(const struct sim_dev *sdev, const char *key, u64 def)
{
	u64 v;

	return sim_prop(sdev, key, &v) ? v : def;
}

static u32 cspmu_default_pmiidr(enum sim_kind kind)
{
	switch (kind) {
	case SIM_KIND_UCF:
		return 0x2cf2036b;
	case SIM_KIND_PCIE:
		return 0x1030136b;
	case SIM_KIND_SCF:
		return 0x2cf0036b;
	case SIM_KIND_GRACE_PCIE:
		return 0x1030036b;
	case SIM_KIND_NVLINK_C2C0:
		return 0x1050036b;
	case SIM_KIND_NVLINK_C2C1:
		return 0x1040036b;
	case SIM_KIND_CNVLINK:
		return 0x1060036b;
	case SIM_KIND_NVIDIA_GENERIC:
		return 0x1ff0036b;
	default:
		return 0x1070036b;
	}
}

/* PMPIDR0..4 for @id, the inverse of the mapping of section 3.2. */
static void cspmu_set_pidr(struct sim_cspmu *cs, u32 id)
{
	u32 prod = id >> 20, impl = id & 0xfff;

	cs->pidr[0] = prod & 0xff;
	cs->pidr[1] = ((prod >> 8) & 0xf) | (impl & 0xf) << 4;
	/* bit 3: JEDEC, the implementer is a JEP106 code */
	cs->pidr[2] = ((impl >> 4) & 0x7) | BIT(3) | ((id >> 16) & 0xf) << 4;
	cs->pidr[3] = ((id >> 12) & 0xf) << 4;
	cs->pidr[4] = (impl >> 8) & 0xf;
}

static int cspmu_init(struct sim_dev *sdev)
{
	const struct sim_dev_desc *d = sdev->desc;
	u64 nr_cntr, width, flags;
	struct sim_cspmu *cs;
	unsigned int i, idx, top = 0;
	u32 reset;

	nr_cntr = cspmu_prop(sdev, "counters", cspmu_counters);
	width = cspmu_prop(sdev, "width", cspmu_width);
	if (nr_cntr < 1 || nr_cntr > CSPMU_MAX_CNTR || width < 8 || width > 64) {
		pr_err("%s: bad counters=%llu or width=%llu\n",
		       d->name, nr_cntr, width);
		return -EINVAL;
	}
	cs = kzalloc(sizeof(*cs), GFP_KERNEL);
	if (!cs)
		return -ENOMEM;
	cs->kind = d->kind;
	cs->page0 = cspmu_find_win(sdev, "page0");
	cs->page1 = cspmu_find_win(sdev, "page1");
	cs->filter = d->kind == SIM_KIND_PCIE_TGT ?
		     cspmu_find_win(sdev, "filter") : -1;
	if (cs->page0 < 0 || d->wins[cs->page0].size < CSPMU_PAGE_SIZE ||
	    (cs->page1 >= 0 && d->wins[cs->page1].size < CSPMU_PAGE_SIZE) ||
	    (cs->filter >= 0 && d->wins[cs->filter].size < TGT_SLOT_END)) {
		pr_err("%s: needs a 4 KiB page0 (and page1, filter)\n",
		       d->name);
		kfree(cs);
		return -EINVAL;
	}
	cs->width = width;
	cs->cmask = GENMASK_ULL(width - 1, 0);
	cs->cc = cspmu_prop(sdev, "cycle", cspmu_cycle);
	flags = cspmu_prop(sdev, "apmt_flags",
			   cspmu_prop(sdev, "atomic", 1) ? APMT_FLAG_ATOMIC : 0);
	cs->atomic = flags & APMT_FLAG_ATOMIC;
	cs->mid_write = cspmu_prop(sdev, "mid_write", 0);

	/* regular counters: the lowest physical indices, 31 left to cycles */
	for (i = 0, idx = 0; i < nr_cntr; i++, idx++) {
		if (cs->cc && idx == CSPMU_CYCLE_IDX)
			idx++;
		bit_set(cs->impl, idx);
		top = max(top, idx);
	}
	if (cs->cc) {
		bit_set(cs->impl, CSPMU_CYCLE_IDX);
		top = max_t(unsigned int, top, CSPMU_CYCLE_IDX);
	}
	cs->nr_words = top / 32 + 1;
	cs->pmcfgr = (nr_cntr + cs->cc - 1) |
		     (width - 1) << PMCFGR_SIZE_SHIFT | (cs->cc ? PMCFGR_CC : 0);

	cs->pmiidr = cspmu_prop(sdev, "pmiidr", cspmu_default_pmiidr(d->kind));
	cspmu_set_pidr(cs, cs->pmiidr ? cs->pmiidr :
				       cspmu_default_pmiidr(d->kind));
	cs->cycles_id = d->kind == SIM_KIND_PCIE_TGT ? 0x4 : CSPMU_CYCLES;
	/*
	 * PMEVTYPER, PMEVFILTR, PMEVFILT2R and PMCCFILTR reset to cfg_reset
	 * (the architecture leaves them UNKNOWN), everything else to 0.
	 */
	reset = cspmu_prop(sdev, "cfg_reset", 0);
	for (i = 0; i < CSPMU_MAX_PHYS; i++) {
		if (!bit_test(cs->impl, i))
			continue;
		cs->type[i] = reset;
		cs->filt[i] = reset;
		cs->filt2[i] = reset;
	}
	sdev->model = cs;
	return 0;
}

static void cspmu_exit(struct sim_dev *sdev)
{
	kfree(sdev->model);
}

/* ---- registers ---- */

/* Where a window's offset lands. */
enum cspmu_reg_kind {
	CSPMU_NONE,	/* no register */
	CSPMU_REG,	/* a 32-bit register */
	CSPMU_CNTR,	/* a counter (or one half of a 64-bit counter) */
};

static bool cspmu_cfg_win(const struct sim_cspmu *cs, unsigned int win)
{
	return win == cs->page0;
}

static bool cspmu_cnt_win(const struct sim_cspmu *cs, unsigned int win)
{
	return win == cs->page1 || (cs->page1 < 0 && win == cs->page0);
}

/*
 * Decode @off of window @win: the register kind, and for a counter its
 * physical index in *@idx. For 64-bit counters a counter is at 8n, its
 * high half at 8n + 4.
 */
static enum cspmu_reg_kind cspmu_decode(const struct sim_cspmu *cs,
					unsigned int win, u32 off,
					unsigned int *idx)
{
	unsigned int n;

	if ((int)win == cs->filter)
		return off >= TGT_SLOT_BASE && off < TGT_SLOT_END ?
		       CSPMU_REG : CSPMU_NONE;
	if (cspmu_cnt_win(cs, win)) {
		if (off < PMEVTYPER) {
			n = cs->width > 32 ? off / 8 : off / 4;
			if (n >= CSPMU_MAX_PHYS || !bit_test(cs->impl, n))
				return CSPMU_NONE;
			*idx = n;
			return CSPMU_CNTR;
		}
		if (off >= PMOVSCLR && off < PMOVSCLR + 4 * cs->nr_words)
			return CSPMU_REG;
		if (off >= PMOVSSET && off < PMOVSSET + 4 * cs->nr_words)
			return CSPMU_REG;
	}
	if (!cspmu_cfg_win(cs, win))
		return CSPMU_NONE;
	if (off >= PMEVTYPER && off < PMCNTENSET) {
		n = (off % 0x200) / 4;
		if (off >= 0x600 && off < PMEVFILT2R)
			return CSPMU_NONE;
		return n < CSPMU_MAX_PHYS && bit_test(cs->impl, n) ?
		       CSPMU_REG : CSPMU_NONE;
	}
	if (off >= PMCNTENSET && off < PMOVSCLR)
		return (off % 0x20) / 4 < cs->nr_words ? CSPMU_REG : CSPMU_NONE;
	switch (off) {
	case PMCFGR:
	case PMCR:
	case PMIIDR:
	case PMPIDR4:
	case PMPIDR0 ... PMPIDR3:
		return CSPMU_REG;
	}
	return CSPMU_NONE;
}

/* The 32-bit register at @off (decoded as CSPMU_REG), without side effects. */
static u32 cspmu_reg(const struct sim_cspmu *cs, unsigned int win, u32 off)
{
	unsigned int n = (off % 0x200) / 4, k = (off % 0x20) / 4;
	const struct sim_cspmu_slot *sl;

	if ((int)win == cs->filter) {
		sl = &cs->slot[(off - TGT_SLOT_BASE) / TGT_SLOT_STRIDE];
		n = (off - TGT_SLOT_BASE) % TGT_SLOT_STRIDE / 4;
		return n ? sl->reg[n - 1] : sl->ctrl;
	}
	switch (off & ~0x1ffU) {
	case PMEVTYPER:
		return cs->type[n];
	case PMEVFILT2R:
		return cs->filt2[n];
	case PMEVFILTR:
		return cs->filt[n];
	}
	switch (off & ~0x1fU) {
	case PMCNTENSET:
	case PMCNTENCLR:
		return cs->cnten[k];
	case PMINTENSET:
	case PMINTENCLR:
		return cs->inten[k];
	case PMOVSCLR:
		return cs->ovs[k];
	}
	if (off >= PMOVSSET && off < PMOVSSET + 0x20)
		return cs->ovs[k];
	switch (off) {
	case PMCFGR:
		return cs->pmcfgr;
	case PMCR:
		return cs->pmcr;
	case PMIIDR:
		return cs->pmiidr;
	case PMPIDR4:
		return cs->pidr[4];
	default:
		return cs->pidr[(off - PMPIDR0) / 4];
	}
}

static void cspmu_write_reg(struct sim_dev *sdev, unsigned int win, u32 off,
			    u32 val)
{
	struct sim_cspmu *cs = sdev->model;
	unsigned int n = (off % 0x200) / 4, k = (off % 0x20) / 4, i;
	struct sim_cspmu_slot *sl;

	if ((int)win == cs->filter) {
		sl = &cs->slot[(off - TGT_SLOT_BASE) / TGT_SLOT_STRIDE];
		n = (off - TGT_SLOT_BASE) % TGT_SLOT_STRIDE / 4;
		if (n)
			sl->reg[n - 1] = val;
		else
			sl->ctrl = val;
		return;
	}
	switch (off & ~0x1ffU) {
	case PMEVTYPER:
		cs->type[n] = val;
		return;
	case PMEVFILT2R:
		cs->filt2[n] = val;
		return;
	case PMEVFILTR:
		cs->filt[n] = val;
		return;
	}
	if (off >= PMOVSSET && off < PMOVSSET + 0x20) {
		cs->ovs[k] |= val & cs->impl[k];
		cspmu_update_irq(sdev);
		return;
	}
	switch (off & ~0x1fU) {
	case PMCNTENSET:
		cs->cnten[k] |= val & cs->impl[k];
		return;
	case PMCNTENCLR:
		cs->cnten[k] &= ~val;
		return;
	case PMINTENSET:
		cs->inten[k] |= val & cs->impl[k];
		cspmu_update_irq(sdev);
		return;
	case PMINTENCLR:
		cs->inten[k] &= ~val;
		cspmu_update_irq(sdev);
		return;
	case PMOVSCLR:
		cs->ovs[k] &= ~val;
		cspmu_update_irq(sdev);
		return;
	}
	if (off != PMCR)
		return;		/* read-only identification */
	/* P and C act on the write and read as 0 */
	for (i = 0; i < CSPMU_MAX_PHYS; i++) {
		if (!bit_test(cs->impl, i))
			continue;
		if (cspmu_is_cycle(cs, i) ? val & PMCR_C : val & PMCR_P)
			cs->cnt[i] = 0;
	}
	cs->pmcr = val & PMCR_E;
}

static u64 cspmu_read(struct sim_dev *sdev, unsigned int win, u32 off,
		      unsigned int bytes, bool *counting)
{
	struct sim_cspmu *cs = sdev->model;
	unsigned int idx;

	switch (cspmu_decode(cs, win, off, &idx)) {
	case CSPMU_NONE:
		return 0;
	case CSPMU_REG:
		if (bytes != 4)
			break;
		if ((int)win != cs->filter && cspmu_cnt_win(cs, win) &&
		    off >= PMOVSCLR && off < PMOVSSET + 4 * cs->nr_words)
			sdev->stats.status_reads++;
		return cspmu_reg(cs, win, off);
	case CSPMU_CNTR:
		if (cs->width <= 32 ? bytes != 4 :
		    bytes == 8 && (!cs->atomic || off % 8))
			break;
		bit_set(cs->read, idx);
		*counting = cspmu_counting(cs, idx);
		if (cs->width <= 32 || bytes == 8)
			return cs->cnt[idx];
		return off % 8 ? upper_32_bits(cs->cnt[idx]) :
				 lower_32_bits(cs->cnt[idx]);
	}
	sim_bad_access(sdev, win, off, bytes, false);
	return ~0ULL;
}

static void cspmu_mid_write(struct sim_cspmu *cs, unsigned int idx);

static void cspmu_write(struct sim_dev *sdev, unsigned int win, u32 off,
			u64 val, unsigned int bytes)
{
	struct sim_cspmu *cs = sdev->model;
	unsigned int idx;
	u64 *c;

	switch (cspmu_decode(cs, win, off, &idx)) {
	case CSPMU_NONE:
		return;
	case CSPMU_REG:
		if (bytes != 4)
			break;
		cspmu_write_reg(sdev, win, off, val);
		return;
	case CSPMU_CNTR:
		c = &cs->cnt[idx];
		if (cs->width <= 32) {
			if (bytes != 4)
				break;
			*c = val & cs->cmask;
		} else if (bytes == 8) {
			if (!cs->atomic || off % 8)
				break;
			*c = val & cs->cmask;
		} else if (off % 8) {
			*c = (lower_32_bits(*c) | val << 32) & cs->cmask;
		} else {
			*c = (*c & GENMASK_ULL(63, 32)) | val;
			*c &= cs->cmask;
			cspmu_mid_write(cs, idx);
		}
		return;
	}
	sim_bad_access(sdev, win, off, bytes, true);
}

/* ---- traffic ---- */

static bool ucf_selects(const struct sim_cspmu *cs, unsigned int i,
			const struct sim_inject *inj)
{
	u32 f = cs->filt[i];

	return (f & BIT(ucf_src_bit[inj->attr[UCF_ATTR_SRC]])) &&
	       (f & BIT(UCF_DST_SHIFT + inj->attr[UCF_ATTR_DST]));
}

static bool pcie_selects(const struct sim_cspmu *cs, unsigned int i,
			 const struct sim_inject *inj)
{
	u32 f = cs->filt[i];
	bool src;

	/* each counter uses its own PMEVFILTR copy of the BDF (8.5) */
	src = (f & BIT(inj->attr[PCIE_ATTR_RP])) ||
	      ((f & PCIE_BDF_EN) &&
	       ((f >> PCIE_BDF_SHIFT) & 0xffff) == inj->attr[PCIE_ATTR_BDF]);
	return src && (cs->filt2[i] & BIT(inj->attr[PCIE_ATTR_DST]));
}

static bool tgt_slot_match(const struct sim_cspmu_slot *sl, u64 addr)
{
	u64 base = (u64)sl->reg[1] << 32 | sl->reg[0];
	u64 mask = (u64)sl->reg[3] << 32 | sl->reg[2];

	return (sl->ctrl & TGT_CTRL_EN) && (addr & mask) == (base & mask);
}

static bool tgt_selects(const struct sim_cspmu *cs, unsigned int i,
			const struct sim_inject *inj)
{
	u32 f2 = cs->filt2[i];
	unsigned int s;

	/* OR of the RP select (BAR traffic only) and the slot select (8.5) */
	if (inj->attr[TGT_ATTR_TARGET] == TGT_TARGET_BAR &&
	    (f2 & BIT(inj->attr[TGT_ATTR_RP])))
		return true;
	for (s = 0; s < TGT_NR_SLOTS; s++)
		if ((f2 & BIT(TGT_SLOT_SEL_SHIFT + s)) &&
		    tgt_slot_match(&cs->slot[s], inj->attr[TGT_ATTR_ADDR]))
			return true;
	return false;
}

/* Whether counter @i, counting, adds this traffic. */
static bool cspmu_selects(const struct sim_cspmu *cs, unsigned int i,
			  const struct sim_inject *inj)
{
	/* the cycle counter counts every cycle, whatever PMCCFILTR holds */
	if (cspmu_is_cycle(cs, i))
		return inj->event == cs->cycles_id;
	if (cs->type[i] != inj->event)
		return false;
	/* PCIE-TGT cycles (id 4) on an event counter: not filtered */
	if (inj->event == cs->cycles_id)
		return true;
	switch (cs->kind) {
	case SIM_KIND_UCF:
		return ucf_selects(cs, i, inj);
	case SIM_KIND_PCIE:
		return pcie_selects(cs, i, inj);
	case SIM_KIND_PCIE_TGT:
		return tgt_selects(cs, i, inj);
	case SIM_KIND_GRACE_PCIE:
	case SIM_KIND_NVLINK_C2C0:
	case SIM_KIND_NVLINK_C2C1:
	case SIM_KIND_CNVLINK:
		/* the one attribute: bit n of PMEVFILTR selects port n */
		return cs->filt[i] & BIT(inj->attr[0]);
	default:
		/* SCF and the generic PMU: no filter */
		return true;
	}
}

/* Add @val to counter @i; return true if it wrapped (PMOVS set). */
static bool cspmu_add(struct sim_cspmu *cs, unsigned int i, u64 val)
{
	u64 old = cs->cnt[i], sum = old + val;
	bool wrap = sum < old || sum > cs->cmask;

	cs->cnt[i] = sum & cs->cmask;
	if (wrap)
		bit_set(cs->ovs, i);
	return wrap;
}

/*
 * A counter keeps counting while the driver writes it one word at a time:
 * with the mid_write property, right after the low word of a counting
 * counter is written while a chunked injection waits for that counter's
 * overflow to be handled, up to mid_write of that injection's rest arrives,
 * before the high word is written. It is taken off the rest, so the total
 * stays what was injected.
 */
static void cspmu_mid_write(struct sim_cspmu *cs, unsigned int idx)
{
	u64 n;
	unsigned int i;

	if (!cs->mid_write || !cs->mid_live || !bit_test(cs->wait_ovs, idx) ||
	    !cspmu_counting(cs, idx))
		return;
	n = min(cs->mid_write, cs->mid.value - cs->mid_taken);
	if (!n)
		return;
	for (i = 0; i < CSPMU_MAX_PHYS; i++)
		if (bit_test(cs->impl, i) && cspmu_counting(cs, i) &&
		    cspmu_selects(cs, i, &cs->mid))
			cspmu_add(cs, i, n);
	cs->mid_taken += n;
}

/*
 * Deliver @inj, in chunks when it is a whole counter range or more (so it
 * could wrap a counter more than once): a chunk is below half the range;
 * after a chunk the model waits for the driver to clear each overflow it
 * set whose interrupt is enabled (and requested), and to read each counter
 * it advanced that has no interrupt enabled.
 */
static int cspmu_inject(struct sim_dev *sdev, struct sim_inject *inj)
{
	struct sim_cspmu *cs = sdev->model;
	u32 sel[CSPMU_NR_WORDS], wrapped[CSPMU_NR_WORDS];
	bool any, live, wait, wait_read;
	unsigned int i;
	u64 step;

	live = sim_irq_live(sdev);
	/* a chunked injection comes back after its wait: take off mid-writes */
	if (inj->chunked && cs->mid_live)
		inj->value -= cs->mid_taken;
	cs->mid_live = false;
	cs->mid_taken = 0;
again:
	memset(sel, 0, sizeof(sel));
	memset(wrapped, 0, sizeof(wrapped));
	any = false;
	for (i = 0; i < CSPMU_MAX_PHYS; i++) {
		if (!bit_test(cs->impl, i) || !cspmu_counting(cs, i) ||
		    !cspmu_selects(cs, i, inj))
			continue;
		bit_set(sel, i);
		any = true;
	}
	if (!any || !inj->value) {
		inj->value = 0;
		return 0;
	}
	/*
	 * A whole range or more can wrap a counter twice, or once past the
	 * value the driver last saw, and the driver would lose a range. Once
	 * chunked, the rest goes in chunks too: the driver may not have seen
	 * the last ones.
	 */
	if (inj->value > cs->cmask)
		inj->chunked = true;
	step = inj->chunked ? min(inj->value, cs->cmask >> 1) : inj->value;
	for (i = 0; i < CSPMU_MAX_PHYS; i++)
		if (bit_test(sel, i) && cspmu_add(cs, i, step))
			bit_set(wrapped, i);
	inj->value -= step;
	cspmu_update_irq(sdev);
	if (!inj->value)
		return 0;

	memset(cs->wait_ovs, 0, sizeof(cs->wait_ovs));
	memset(cs->wait_read, 0, sizeof(cs->wait_read));
	wait = false;
	wait_read = false;
	for (i = 0; i < CSPMU_MAX_PHYS; i++) {
		if (!bit_test(sel, i))
			continue;
		if (live && bit_test(cs->inten, i)) {
			if (bit_test(wrapped, i)) {
				bit_set(cs->wait_ovs, i);
				wait = true;
			}
		} else {
			bit_set(cs->wait_read, i);
			cs->read[i / 32] &= ~BIT(i % 32);
			wait = true;
			wait_read = true;
		}
	}
	if (!wait)
		goto again;
	cs->mid = *inj;
	cs->mid_live = true;
	return wait_read ? CSPMU_WAIT_READ_MS : CSPMU_WAIT_IRQ_MS;
}

static bool cspmu_settled(struct sim_dev *sdev)
{
	struct sim_cspmu *cs = sdev->model;
	unsigned int k;
	bool done = true;

	/*
	 * A counter the driver disabled needs nothing more. One it keeps
	 * enabled is waited for until the PMU runs again, too: a handler
	 * may stop the whole PMU (PMCR.E) while it folds and clears, and the
	 * rest of the line, which real traffic would bring later, must find
	 * the counter counting rather than be lost in that instant.
	 */
	for (k = 0; k < CSPMU_NR_WORDS; k++) {
		u32 stopped = (cs->pmcr & PMCR_E) ? 0 : cs->cnten[k];

		cs->wait_ovs[k] &= (cs->ovs[k] | stopped) & cs->cnten[k];
		cs->wait_read[k] &= (~cs->read[k] | stopped) & cs->cnten[k];
		if (cs->wait_ovs[k] || cs->wait_read[k])
			done = false;
	}
	return done;
}

static void cspmu_regs_show(struct sim_dev *sdev, struct seq_file *m)
{
	struct sim_cspmu *cs = sdev->model;
	unsigned int win, idx;
	u32 off;

	for (win = 0; win < sdev->desc->nr_wins; win++) {
		for (off = 0; off < CSPMU_PAGE_SIZE; off += 4) {
			switch (cspmu_decode(cs, win, off, &idx)) {
			case CSPMU_NONE:
				break;
			case CSPMU_REG:
				sim_regs_print(m, sdev, win, off,
					       cspmu_reg(cs, win, off));
				break;
			case CSPMU_CNTR:
				/* a 64-bit counter is one line, at 8n */
				if (cs->width <= 32 || !(off % 8))
					sim_regs_print(m, sdev, win, off,
						       cs->cnt[idx]);
				break;
			}
		}
	}
}

/* Every CSPMU kind: one model; its signals, event field and attributes. */
#define CSPMU_KIND(_signals, _nr_signals, _event_max, _attrs, _nr_attrs) { \
	.signals	= _signals,					\
	.nr_signals	= _nr_signals,					\
	.event_max	= _event_max,					\
	.attrs		= _attrs,					\
	.nr_attrs	= _nr_attrs,					\
	.init		= cspmu_init,					\
	.exit		= cspmu_exit,					\
	.read		= cspmu_read,					\
	.write		= cspmu_write,					\
	.inject		= cspmu_inject,					\
	.settled	= cspmu_settled,				\
	.regs_show	= cspmu_regs_show,				\
	.has_irq	= true,						\
}

/* the event field of the CSPMU formats, config:0-32 */
#define CSPMU_EVENTS	GENMASK_ULL(32, 0)

const struct sim_kind_ops sim_ucf_ops =
	CSPMU_KIND(ucf_signals, ARRAY_SIZE(ucf_signals),
		   CSPMU_EVENTS, ucf_attrs, ARRAY_SIZE(ucf_attrs));
const struct sim_kind_ops sim_pcie_ops =
	CSPMU_KIND(pcie_signals, ARRAY_SIZE(pcie_signals),
		   CSPMU_EVENTS, pcie_attrs, ARRAY_SIZE(pcie_attrs));
const struct sim_kind_ops sim_pcie_tgt_ops =
	CSPMU_KIND(tgt_signals, ARRAY_SIZE(tgt_signals),
		   0x7, tgt_attrs, ARRAY_SIZE(tgt_attrs));
const struct sim_kind_ops sim_scf_ops =
	CSPMU_KIND(scf_signals, ARRAY_SIZE(scf_signals),
		   CSPMU_EVENTS, NULL, 0);
const struct sim_kind_ops sim_grace_pcie_ops =
	CSPMU_KIND(mcf_signals, ARRAY_SIZE(mcf_signals),
		   CSPMU_EVENTS, grace_pcie_attrs, ARRAY_SIZE(grace_pcie_attrs));
const struct sim_kind_ops sim_nvlink_c2c01_ops =
	CSPMU_KIND(mcf_signals, ARRAY_SIZE(mcf_signals),
		   CSPMU_EVENTS, grace_c2c_attrs, ARRAY_SIZE(grace_c2c_attrs));
const struct sim_kind_ops sim_cnvlink_ops =
	CSPMU_KIND(mcf_signals, ARRAY_SIZE(mcf_signals),
		   CSPMU_EVENTS, cnvlink_attrs, ARRAY_SIZE(cnvlink_attrs));
const struct sim_kind_ops sim_nvidia_generic_ops =
	CSPMU_KIND(generic_signals, ARRAY_SIZE(generic_signals),
		   CSPMU_EVENTS, NULL, 0);
