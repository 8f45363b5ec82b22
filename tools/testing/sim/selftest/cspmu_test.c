// SPDX-License-Identifier: GPL-2.0
/*
 * Host-side self-test of the CSPMU model (../sim_cspmu.c), compiled in user
 * space against ../../kstub/ with the framework functions it calls stubbed
 * below. Prints TAP. Run it with ./run.sh.
 */

#include "kstub.h"
#include "../sim_cspmu.c"

/* ---- framework stubs ---- */

/* the model's pr_err(), as kstub.h spells it */
void kstub_log(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
}

static bool irq_level, irq_live;
static int bad_accesses;
static char regs_buf[65536];
static size_t regs_len;

bool sim_prop(const struct sim_dev *sdev, const char *key, u64 *val)
{
	unsigned int i;

	for (i = 0; i < sdev->desc->nr_props; i++) {
		if (!strcmp(sdev->desc->props[i].key, key)) {
			*val = sdev->desc->props[i].val;
			return true;
		}
	}
	return false;
}

void sim_irq_set_level(struct sim_dev *sdev, bool level)
{
	irq_level = level;
}

bool sim_irq_live(const struct sim_dev *sdev)
{
	return irq_live;
}

void sim_bad_access(struct sim_dev *sdev, unsigned int win, u32 off,
		    unsigned int bytes, bool write)
{
	bad_accesses++;
}

void sim_regs_print(struct seq_file *m, struct sim_dev *sdev,
		    unsigned int win, u32 off, u64 val)
{
	regs_len += snprintf(regs_buf + regs_len, sizeof(regs_buf) - regs_len,
			     "%s:0x%x 0x%llx\n", sdev->desc->wins[win].name,
			     off, (unsigned long long)val);
}

/* ---- helpers ---- */

static int tap_n, tap_failed;

static void check(bool cond, const char *what)
{
	tap_n++;
	if (!cond)
		tap_failed++;
	printf("%sok %d - %s\n", cond ? "" : "not ", tap_n, what);
}

static void check_eq(u64 exp, u64 got, const char *what)
{
	check(exp == got, what);
	if (exp != got)
		printf("#   expected 0x%llx, got 0x%llx\n",
		       (unsigned long long)exp, (unsigned long long)got);
}

static const struct sim_win_desc wins_single[] = {
	{ "page0", 0x1000000000ULL, 0x1000 },
};

static const struct sim_win_desc wins_dual[] = {
	{ "page0", 0x1000000000ULL, 0x1000 },
	{ "page1", 0x1000001000ULL, 0x1000 },
};

static const struct sim_win_desc wins_tgt[] = {
	{ "page0", 0x1000000000ULL, 0x1000 },
	{ "filter", 0x1000002000ULL, 0x1000 },
};

struct tdev {
	struct sim_dev sdev;
	struct sim_dev_desc desc;
};

static struct sim_dev *mk(enum sim_kind kind, const struct sim_win_desc *w,
			  unsigned int nw, const struct sim_prop *p,
			  unsigned int np)
{
	static const struct sim_kind_ops *const ops[] = {
		[SIM_KIND_UCF] = &sim_ucf_ops,
		[SIM_KIND_PCIE] = &sim_pcie_ops,
		[SIM_KIND_PCIE_TGT] = &sim_pcie_tgt_ops,
	};
	struct tdev *t = calloc(1, sizeof(*t));

	t->desc.kind = kind;
	t->desc.name = "test";
	t->desc.wins = w;
	t->desc.nr_wins = nw;
	t->desc.props = p;
	t->desc.nr_props = np;
	t->sdev.desc = &t->desc;
	t->sdev.ops = ops[kind];
	if (t->sdev.ops->init(&t->sdev)) {
		free(t);
		return NULL;
	}
	return &t->sdev;
}

static void rm(struct sim_dev *sdev)
{
	sdev->ops->exit(sdev);
	free((struct tdev *)sdev);	/* sdev is the first member */
}

static bool last_counting;

static u64 rd(struct sim_dev *d, unsigned int win, u32 off, unsigned int bytes)
{
	last_counting = false;
	return d->ops->read(d, win, off, bytes, &last_counting);
}

static void wr(struct sim_dev *d, unsigned int win, u32 off, u64 val,
	       unsigned int bytes)
{
	d->ops->write(d, win, off, val, bytes);
}

static u32 rd32(struct sim_dev *d, u32 off)
{
	return rd(d, 0, off, 4);
}

static void wr32(struct sim_dev *d, u32 off, u32 val)
{
	wr(d, 0, off, val, 4);
}

static int inj(struct sim_dev *d, u64 event, u64 value, u64 a0, u64 a1, u64 a2)
{
	struct sim_inject in = {
		.event = event, .value = value, .attr = { a0, a1, a2 },
	};
	int ret;

	/* no waiting here: a partial delivery must not happen */
	ret = d->ops->inject(d, &in);
	return ret ? ret : (int)(in.value != 0);
}

/* The PMIIDR Linux builds from PMPIDR0..4 (hw doc 3.2). */
static u32 pidr_to_iidr(struct sim_dev *d)
{
	u32 p0 = rd32(d, 0xfe0), p1 = rd32(d, 0xfe4), p2 = rd32(d, 0xfe8);
	u32 p3 = rd32(d, 0xfec), p4 = rd32(d, 0xfd0);
	u32 prod = (p0 & 0xff) | (p1 & 0xf) << 8;
	u32 impl = (p1 >> 4 & 0xf) | (p2 & 0x7) << 4 | (p4 & 0xf) << 8;

	return impl | (p3 >> 4 & 0xf) << 12 | (p2 >> 4 & 0xf) << 16 | prod << 20;
}

/* ---- tests ---- */

static void test_identity(void)
{
	static const struct { enum sim_kind k; u32 id; } ids[] = {
		{ SIM_KIND_UCF, 0x2cf2036b },
		{ SIM_KIND_PCIE, 0x1030136b },
		{ SIM_KIND_PCIE_TGT, 0x1070036b },
	};
	static const struct sim_prop p32[] = {
		{ "width", 32 }, { "counters", 4 }, { "cycle", 0 },
	};
	static const struct sim_prop p40[] = { { "counters", 40 } };
	static const struct sim_prop pz[] = { { "pmiidr", 0 } };
	struct sim_dev *d;
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(ids); i++) {
		d = mk(ids[i].k, wins_single, 1, NULL, 0);
		check_eq(ids[i].id, rd32(d, 0xe08), "PMIIDR per kind");
		check_eq(ids[i].id, pidr_to_iidr(d), "PMPIDR0..4 encode PMIIDR");
		rm(d);
	}
	d = mk(SIM_KIND_UCF, wins_single, 1, NULL, 0);
	check_eq(0x7f08, rd32(d, 0xe00), "PMCFGR default: 8 + cycle, 64-bit");
	check_eq(0, rd32(d, 0xe04), "PMCR resets to 0");
	wr32(d, 0xe00, 0);
	wr32(d, 0xe08, 0);
	check_eq(0x7f08, rd32(d, 0xe00), "PMCFGR read-only");
	check_eq(0x2cf2036b, rd32(d, 0xe08), "PMIIDR read-only");
	rm(d);
	d = mk(SIM_KIND_PCIE, wins_single, 1, p32, ARRAY_SIZE(p32));
	check_eq(0x1f03, rd32(d, 0xe00), "PMCFGR 4 counters, 32-bit, no cycle");
	rm(d);
	d = mk(SIM_KIND_PCIE, wins_single, 1, p40, ARRAY_SIZE(p40));
	check_eq(0x7f28, rd32(d, 0xe00), "PMCFGR 40 + cycle");
	wr32(d, 0xc00, ~0U);
	wr32(d, 0xc04, ~0U);
	check_eq(0xffffffff, rd32(d, 0xc00), "40 counters: 0-30 and cycle 31");
	check_eq(0x1ff, rd32(d, 0xc04), "40 counters: 32-40");
	check_eq(0, rd32(d, 0xc08), "no third SET register");
	rm(d);
	d = mk(SIM_KIND_UCF, wins_single, 1, pz, ARRAY_SIZE(pz));
	check_eq(0, rd32(d, 0xe08), "pmiidr=0: PMIIDR reads 0");
	check_eq(0x2cf2036b, pidr_to_iidr(d), "pmiidr=0: PMPIDR still the UCF");
	rm(d);
}

static void test_setclr(void)
{
	struct sim_dev *d = mk(SIM_KIND_UCF, wins_single, 1, NULL, 0);

	wr32(d, 0xc00, 0x80000103);
	check_eq(0x80000003, rd32(d, 0xc00), "PMCNTENSET W1S, unimplemented bits ignored");
	check_eq(0x80000003, rd32(d, 0xc20), "PMCNTENCLR reads the bitmap");
	wr32(d, 0xc20, 0x1);
	check_eq(0x80000002, rd32(d, 0xc00), "PMCNTENCLR W1C");
	wr32(d, 0xc00, 0x0);
	check_eq(0x80000002, rd32(d, 0xc00), "0 bits change nothing");
	wr32(d, 0xc40, 0x5);
	wr32(d, 0xc60, 0x4);
	check_eq(0x1, rd32(d, 0xc40), "PMINTENSET/CLR");
	wr32(d, 0xcc0, 0x80000006);
	check_eq(0x80000006, rd32(d, 0xc80), "PMOVSSET sets, PMOVSCLR reads");
	check(!irq_level, "no interrupt without PMINTEN");
	wr32(d, 0xc40, 0x2);
	check(irq_level, "PMINTENSET on a set PMOVS bit raises the line");
	wr32(d, 0xc80, 0x2);
	check(!irq_level, "PMOVSCLR drops it");
	check_eq(0x80000004, rd32(d, 0xcc0), "PMOVSCLR W1C");
	check_eq(0, bad_accesses, "no bad accesses so far");
	rd(d, 0, 0xc00, 8);
	check_eq(1, bad_accesses, "an 8-byte access to a 32-bit register is bad");
	bad_accesses = 0;
	rm(d);
}

static void test_pmcr_counting(void)
{
	struct sim_dev *d = mk(SIM_KIND_UCF, wins_single, 1, NULL, 0);

	wr32(d, 0x400, 0x113);		/* slc_bytes_rd */
	wr32(d, 0xa00, 0xf07);
	wr32(d, 0x47c, 0x002);		/* PMCCFILTR: src_loc_cpu only */
	wr32(d, 0xc00, 0x80000001);
	inj(d, 0x113, 5, 0, 0, 0);
	check_eq(0, rd(d, 0, 0, 8), "no counting while PMCR.E = 0");
	check(!last_counting, "not a read while running");
	wr32(d, 0xe04, 1);
	check_eq(1, rd32(d, 0xe04), "PMCR.E reads back");
	inj(d, 0x113, 5, 0, 0, 0);
	check_eq(5, rd(d, 0, 0, 8), "counts with E and PMCNTEN");
	check(last_counting, "a read while running");
	inj(d, 0x114, 5, 0, 0, 0);
	check_eq(5, rd(d, 0, 0, 8), "another event does not count");
	inj(d, CSPMU_CYCLES, 7, 2, 3, 0);
	check_eq(7, rd(d, 0, 0xf8, 8), "cycle counter ignores PMCCFILTR");
	inj(d, 0x0, 1, 0, 0, 0);
	check_eq(5, rd(d, 0, 0, 8), "event 0 does not match PMEVTYPER 0x113");
	wr32(d, 0x404, 0x0);
	wr32(d, 0xa04, 0xf07);
	wr32(d, 0xc00, 0x2);
	inj(d, 0x0, 3, 0, 0, 0);
	check_eq(3, rd(d, 0, 0x8, 8), "UCF counts any programmed id (0x0)");
	wr32(d, 0xe04, 0x6 | 1);
	check_eq(0, rd(d, 0, 0, 8) | rd(d, 0, 0x8, 8), "PMCR.P zeroes event counters");
	check_eq(0, rd(d, 0, 0xf8, 8), "PMCR.C zeroes the cycle counter");
	check_eq(1, rd32(d, 0xe04), "P and C read as 0");
	wr(d, 0, 0xf8, 9, 8);
	wr32(d, 0xe04, 0x3);
	check_eq(9, rd(d, 0, 0xf8, 8), "P alone leaves the cycle counter");
	wr32(d, 0xc20, 0x1);
	inj(d, 0x113, 5, 0, 0, 0);
	check_eq(0, rd(d, 0, 0, 8), "disabled counter does not count");
	rm(d);
}

static void test_ucf_filter(void)
{
	struct sim_dev *d = mk(SIM_KIND_UCF, wins_single, 1, NULL, 0);

	wr32(d, 0xe04, 1);
	wr32(d, 0x400, 0x121);
	wr32(d, 0xa00, 0x102);		/* src_loc_cpu, dst_loc_cmem */
	wr32(d, 0xc00, 1);
	inj(d, 0x121, 1, 0, 0, 0);	/* loc_cpu -> loc_cmem */
	inj(d, 0x121, 10, 1, 0, 0);	/* loc_noncpu */
	inj(d, 0x121, 100, 2, 0, 0);	/* rem */
	inj(d, 0x121, 1000, 0, 1, 0);	/* loc_cpu -> loc_gmem */
	check_eq(1, rd(d, 0, 0, 8), "UCF src_loc_cpu is bit 1, dst_loc_cmem bit 8");
	wr32(d, 0xa00, 0x801);		/* src_loc_noncpu, dst_rem */
	inj(d, 0x121, 10, 1, 3, 0);
	inj(d, 0x121, 100, 0, 3, 0);
	check_eq(11, rd(d, 0, 0, 8), "UCF src_loc_noncpu is bit 0, dst_rem bit 11");
	wr32(d, 0xa00, 0x404);		/* src_rem, dst_loc_other */
	inj(d, 0x121, 100, 2, 2, 0);
	check_eq(111, rd(d, 0, 0, 8), "UCF src_rem is bit 2, dst_loc_other bit 10");
	wr32(d, 0xa00, 0x007);
	inj(d, 0x121, 1000, 0, 0, 0);
	check_eq(111, rd(d, 0, 0, 8), "UCF: no destination bit counts nothing");
	rm(d);
}

static void test_pcie_filter(void)
{
	struct sim_dev *d = mk(SIM_KIND_PCIE, wins_single, 1, NULL, 0);

	wr32(d, 0xe04, 1);
	wr32(d, 0x400, 0x2);
	wr32(d, 0xa00, 0x2);		/* RP 1 */
	wr32(d, 0x800, 0x10);		/* dst_rem */
	wr32(d, 0xc00, 1);
	inj(d, 0x2, 1, 1, 0x180, 4);
	inj(d, 0x2, 10, 0, 0x180, 4);
	inj(d, 0x2, 100, 1, 0x180, 0);
	check_eq(1, rd(d, 0, 0, 8), "PCIE RP bit and destination bit");
	wr32(d, 0xa00, 0x1000000 | 0x180 << 8);
	wr32(d, 0x800, 0x1f);
	inj(d, 0x2, 10, 5, 0x180, 2);
	inj(d, 0x2, 100, 0, 0x181, 0);
	check_eq(11, rd(d, 0, 0, 8), "PCIE BDF match with PMEVFILTR[24]");
	wr32(d, 0xa00, 0x180 << 8);
	inj(d, 0x2, 100, 0, 0x180, 0);
	check_eq(11, rd(d, 0, 0, 8), "PCIE BDF without enable and no RP: nothing");
	wr32(d, 0xa00, 0xff);
	wr32(d, 0x800, 0);
	inj(d, 0x2, 100, 0, 0, 0);
	check_eq(11, rd(d, 0, 0, 8), "PCIE PMEVFILT2R 0: nothing");
	rm(d);
}

static void test_tgt_filter(void)
{
	struct sim_dev *d = mk(SIM_KIND_PCIE_TGT, wins_tgt, 2, NULL, 0);
	u32 s1 = 0xd38 + 0x14;

	wr32(d, 0xe04, 1);
	wr32(d, 0x400, 0x1);
	wr32(d, 0x800, 0x4);		/* RP 2 */
	wr32(d, 0xc00, 0x80000001);
	inj(d, 0x1, 64, 2, 0x10040, 0);
	inj(d, 0x1, 1, 2, 0x10040, 1);	/* CXL: the RP filter does not apply */
	inj(d, 0x1, 2, 1, 0x10040, 0);
	check_eq(64, rd(d, 0, 0, 8), "PCIE-TGT RP select, BAR traffic only");
	wr(d, 1, s1 + 4, 0x10000, 4);
	wr(d, 1, s1 + 12, 0xfff00, 4);
	wr32(d, 0x800, 0x200);		/* slot 1 only */
	inj(d, 0x1, 10, 2, 0x100ff, 1);
	check_eq(64, rd(d, 0, 0, 8), "slot with CTRL = 0 does not participate");
	wr(d, 1, s1, 1, 4);
	check_eq(1, rd(d, 1, s1, 4), "slot CTRL reads back");
	check_eq(0xfff00, rd(d, 1, s1 + 12, 4), "slot MASK_LO reads back");
	inj(d, 0x1, 10, 2, 0x100ff, 1);
	inj(d, 0x1, 100, 2, 0x10100, 0);
	check_eq(74, rd(d, 0, 0, 8), "slot match (addr & mask) == (base & mask)");
	wr32(d, 0x800, 0x201);		/* RP 0 or slot 1 */
	inj(d, 0x1, 1000, 0, 0x99999, 0);
	inj(d, 0x1, 10000, 3, 0x10080, 0);
	check_eq(11074, rd(d, 0, 0, 8), "RP select OR slot select");
	inj(d, 0x4, 5, 0, 0, 0);
	check_eq(5, rd(d, 0, 0xf8, 8), "PCIE-TGT cycles (id 4) on the cycle counter");
	check_eq(0, rd(d, 1, 0xd34, 4) | rd(d, 1, 0xdd8, 4), "outside the slots reads 0");
	check_eq(0, rd(d, 0, 0xd38, 4), "no slots in page 0");
	rm(d);
}

static void test_access(void)
{
	static const struct sim_prop noat[] = { { "atomic", 0 } };
	static const struct sim_prop w32[] = { { "width", 32 } };
	struct sim_dev *d = mk(SIM_KIND_UCF, wins_dual, 2, noat, 1);

	wr(d, 1, 0x8, 0x11223344, 4);
	wr(d, 1, 0xc, 0x55667788, 4);
	check_eq(0x11223344, rd(d, 1, 0x8, 4), "low half");
	check_eq(0x55667788, rd(d, 1, 0xc, 4), "high half");
	check_eq(0, bad_accesses, "32-bit halves always work");
	rd(d, 1, 0x8, 8);
	wr(d, 1, 0x8, 0, 8);
	check_eq(2, bad_accesses, "no 64-bit access without ATOMIC");
	bad_accesses = 0;
	check_eq(0x55667788, rd(d, 1, 0xc, 4), "the refused write changed nothing");
	check_eq(0, rd(d, 0, 0x8, 4), "dual page: no counters in page 0");
	check_eq(0x7f08, rd(d, 0, 0xe00, 4), "dual page: PMCFGR in page 0");
	check_eq(0, rd(d, 1, 0xe00, 4), "dual page: no PMCFGR in page 1");
	wr(d, 0, 0xcc0, 1, 4);
	check_eq(0, rd(d, 1, 0xc80, 4), "dual page: no PMOVSSET in page 0");
	wr(d, 1, 0xcc0, 1, 4);
	check_eq(1, rd(d, 1, 0xc80, 4), "dual page: PMOVS in page 1");
	rm(d);
	d = mk(SIM_KIND_UCF, wins_single, 1, NULL, 0);
	wr(d, 0, 0x10, 0x123456789abcdefULL, 8);
	check_eq(0x123456789abcdefULL, rd(d, 0, 0x10, 8), "ATOMIC: 64-bit access");
	check_eq(0x89abcdef, rd(d, 0, 0x10, 4), "ATOMIC: low half too");
	rd(d, 0, 0x14, 8);
	check_eq(1, bad_accesses, "misaligned 64-bit counter access is bad");
	bad_accesses = 0;
	rm(d);
	d = mk(SIM_KIND_UCF, wins_single, 1, w32, 1);
	wr(d, 0, 0x4, 0xdeadbeef, 4);
	check_eq(0xdeadbeef, rd(d, 0, 0x4, 4), "32-bit counters at 4n");
	check_eq(0, rd(d, 0, 0x20, 4), "32-bit: no counter 8");
	rd(d, 0, 0x7c, 4);
	check_eq(0, bad_accesses, "32-bit: cycle counter at 0x7c");
	rd(d, 0, 0x4, 8);
	check_eq(1, bad_accesses, "32-bit counters take no 8-byte access");
	bad_accesses = 0;
	rm(d);
}

static void test_wrap(void)
{
	static const struct sim_prop w32[] = { { "width", 32 } };
	struct sim_dev *d = mk(SIM_KIND_PCIE, wins_single, 1, w32, 1);

	wr32(d, 0xe04, 1);
	wr32(d, 0x400, 0x0);
	wr32(d, 0xa00, 0xff);
	wr32(d, 0x800, 0x1f);
	wr32(d, 0xc00, 1);
	wr32(d, 0x0, 0xfffffff0);
	check_eq(0, inj(d, 0x0, 0x20, 0, 0, 0), "a single wrap is delivered at once");
	check_eq(0x10, rd32(d, 0x0), "wraps modulo 2^32");
	check_eq(1, rd32(d, 0xc80), "wrap sets PMOVS");
	check(!irq_level, "no line without PMINTEN");
	wr32(d, 0xc80, 1);
	wr32(d, 0xc40, 1);
	check_eq(0, inj(d, 0x0, 0xffffffff, 0, 0, 0),
		 "less than the range: at once");
	check_eq(0xf, rd32(d, 0x0), "counter value after it");
	check(irq_level, "overflow with PMINTEN raises the line");
	wr32(d, 0xc80, 1);
	check(!irq_level, "clearing it drops the line");
	rm(d);
}

/* A driver: the IRQ handler or the poller of a 32-bit counter 0. */
static u64 drv_total, drv_prev;

static void drv_update(struct sim_dev *d, bool reload)
{
	u32 now = rd32(d, 0x0);

	drv_total += (u32)(now - (u32)drv_prev);
	drv_prev = now;
	if (reload) {
		wr32(d, 0x0, 0x7fffffff);
		drv_prev = 0x7fffffff;
	}
}

static void test_chunks(bool irq)
{
	static const struct sim_prop w32[] = { { "width", 32 } };
	struct sim_dev *d = mk(SIM_KIND_PCIE, wins_single, 1, w32, 1);
	struct sim_inject in = { .event = 0x2, .value = 5ULL << 32 };
	int ret, waits = 0, early = 0;

	irq_live = irq;
	drv_total = 0;
	drv_prev = 0x7fffffff;
	wr32(d, 0xe04, 1);
	wr32(d, 0x400, 0x2);
	wr32(d, 0xa00, 0xff);
	wr32(d, 0x800, 0x1f);
	wr32(d, 0x0, 0x7fffffff);
	wr32(d, 0xc40, 1);
	wr32(d, 0xc00, 1);
	while ((ret = d->ops->inject(d, &in)) > 0) {
		waits++;
		if (ret != (irq ? 1000 : 5000))
			early |= 1;
		if (d->ops->settled(d))
			early |= 2;
		if (irq) {
			/* the handler: E off, read and reload, clear, E on */
			wr32(d, 0xe04, 0);
			drv_update(d, true);
			wr32(d, 0xc80, rd32(d, 0xc80));
			/* cleared, but the PMU stopped: not yet */
			if (d->ops->settled(d))
				early |= 8;
			wr32(d, 0xe04, 1);
		} else {
			drv_update(d, false);
		}
		if (!d->ops->settled(d))
			early |= 4;
	}
	drv_update(d, false);
	check_eq(0, ret, irq ? "chunked with IRQ: completes" : "chunked polled: completes");
	check_eq(5ULL << 32, drv_total,
		 irq ? "chunked with IRQ: driver sees every count" :
		       "chunked polled: driver sees every count");
	if (waits < 5 || early)
		printf("# waits %d early %d\n", waits, early);
	check(waits >= 5 && !early,
	      irq ? "chunked with IRQ: waits for PMOVS clear (1 s)" :
		    "chunked polled: waits for a read (5 s)");
	/* a counter disabled meanwhile needs nothing more */
	in.value = 5ULL << 32;
	ret = d->ops->inject(d, &in);
	wr32(d, 0xc20, 1);
	check(ret > 0 && d->ops->settled(d), "a disabled counter is settled");
	irq_live = false;
	rm(d);
}

static void test_regs(void)
{
	struct sim_dev *d = mk(SIM_KIND_PCIE_TGT, wins_tgt, 2, NULL, 0);
	unsigned int lines = 0;
	size_t i;

	regs_len = 0;
	d->ops->regs_show(d, NULL);
	for (i = 0; i < regs_len; i++)
		lines += regs_buf[i] == '\n';
	/* 9 counters, 9 x 3 type/filters, SET/CLR x 3, PMCFGR/CR/IIDR, 5 PIDR, 40 slots */
	check_eq(9 + 27 + 6 + 3 + 5 + 40, lines, "regs: every implemented register once");
	check(strstr(regs_buf, "page0:0xe08 0x1070036b\n"), "regs: PMIIDR line");
	check(strstr(regs_buf, "page0:0xf8 0x0\n"), "regs: cycle counter at 0xf8");
	check(strstr(regs_buf, "filter:0xdd4 0x0\n"), "regs: last slot register");
	rm(d);
}

int main(void)
{
	test_identity();
	test_setclr();
	test_pmcr_counting();
	test_ucf_filter();
	test_pcie_filter();
	test_tgt_filter();
	test_access();
	test_wrap();
	test_chunks(true);
	test_chunks(false);
	test_regs();
	printf("1..%d\n", tap_n);
	return tap_failed ? 1 : 0;
}
