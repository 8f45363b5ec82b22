// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target: the helper layer's format-derived config checks and
 * group validation, the real drivers/perf/uncore_core.c.
 *
 * A PMU type is made from the input: flags, counter count, attr_mask and
 * up to eight format/ entries whose specs ("config1:8-15") are input
 * text, registered as a driver would (uncore_pmu_parse_formats()). Then
 * events are opened on it as perf would, the first as group leader and
 * the rest as its siblings, mixed with software events and events of
 * another PMU; the accepted ones are scheduled with pmu->add, read in a
 * read transaction and removed with pmu->del.
 *
 * Input: byte 0 flags (bit 0 FIXED_EVENTS, bit 1 FREE_RUNNING), byte 1
 * counters (1 + byte mod 64; none when free-running), byte 2 attr_mask;
 * then lines "<m><spec>\n" up to an empty line, <m> & 3 the entry's mask
 * bits; then 27-byte events: kind
 * (bits 0-1: 0 ours, 1 software, 2 another PMU; bit 2 sampling; bit 3
 * task), CPU, and config, config1, config2 (little-endian u64).
 *
 * Checked beyond the sanitizers: every errno against the design's error
 * table, each accepted config against the masks of canonical specs parsed
 * here independently, the group counter limit, counter allocation.
 */
#include "kstub.h"
#include "../../../drivers/perf/uncore_core.c"

#define FUZZ_MAX_FORMATS	8
#define FUZZ_MAX_EVENTS		40

static void fuzz_fail(const char *what)
{
	fprintf(stderr, "fuzz_config: %s\n", what);
	abort();
}

static u64 fuzz_counter;

static int fuzz_read(struct perf_event *event, u64 *val)
{
	*val = fuzz_counter += 0x1234567;
	return 0;
}

static void fuzz_freeze(struct uncore_pmu *upmu) { }
static void fuzz_thaw(struct uncore_pmu *upmu) { }

static const struct uncore_pmu_ops fuzz_ops = {
	.read = fuzz_read,
	.freeze = fuzz_freeze,
	.thaw = fuzz_thaw,
};

static struct uncore_format_attr fuzz_fmt[FUZZ_MAX_FORMATS];
static struct attribute *fuzz_formats[FUZZ_MAX_FORMATS + 1];
static char fuzz_spec[FUZZ_MAX_FORMATS][64];

static const char *const fuzz_names[FUZZ_MAX_FORMATS] = {
	"event", "f1", "f2", "f3", "f4", "f5", "f6", "f7",
};

/* events/: ids 0-7, the odd ones shown only for attr_mask bit 0 */
static struct attribute *fuzz_events[] = {
	UNCORE_EVENT_ATTR_DATA(e0, 0x0, 0, 0x100),
	UNCORE_EVENT_ATTR_DATA(e1, 0x1, 1, 0x104),
	UNCORE_EVENT_ATTR_DATA(e2, 0x2, 0, 0x108),
	UNCORE_EVENT_ATTR_DATA(e3, 0x3, 1, 0x10c),
	UNCORE_EVENT_ATTR_DATA(e5, 0x5, 1, 0x114),
	UNCORE_EVENT_ATTR_DATA(big, 0xffff, 2, 0x200),
	NULL
};

/* "configN", "configN:lo" or "configN:lo-hi", decimal without extras */
static bool fuzz_canonical(const char *s, unsigned int *word, u64 *mask)
{
	unsigned int lo, hi;
	int n1 = 0, n2 = 0;
	char c = 0;

	if (strncmp(s, "config", 6))
		return false;
	s += 6;
	*word = 0;
	if (*s == '1' || *s == '2')
		*word = *s++ - '0';
	if (!*s) {
		*mask = U64_MAX;
		return true;
	}
	if (sscanf(s, ":%2u%n-%2u%n%c", &lo, &n1, &hi, &n2, &c) < 1 || c)
		return false;
	if (!n2) {
		if (s[n1])
			return false;
		hi = lo;
	}
	if (s[1] < '0' || s[1] > '9' || (n2 && (s[n1 + 1] < '0' || s[n1 + 1] > '9')))
		return false;
	if (hi > 63 || lo > hi)
		return false;
	*mask = GENMASK_ULL(hi, lo);
	return true;
}

/* No resources here: uncore_core.c's mapping helpers are fuzz_acpi's. */
struct resource *platform_get_resource(struct platform_device *pdev, unsigned int type,
				       unsigned int num)
{
	return NULL;
}

void __iomem *devm_ioremap_resource(struct device *dev, const struct resource *res)
{
	return ERR_PTR(-EINVAL);
}

/* a number as %u takes it: blanks, a sign, digits */
static const char *fuzz_skip_num(const char *s)
{
	const char *d;

	while (isspace((unsigned char)*s))
		s++;
	if (*s == '+' || *s == '-')
		s++;
	for (d = s; *s >= '0' && *s <= '9'; s++)
		;
	return s > d ? s : NULL;
}

/* "configN", or "configN:" and one or two numbers, nothing after them */
static bool fuzz_spec_whole(const char *s)
{
	if (strncmp(s, "config", 6))
		return false;
	s += 6;
	if (*s == '1' || *s == '2')
		s++;
	if (!*s)
		return true;
	if (*s++ != ':')
		return false;
	s = fuzz_skip_num(s);
	if (s && *s == '-')
		s = fuzz_skip_num(s + 1);
	return s && !*s;
}

static u64 fuzz_le64(const u8 *p)
{
	u64 v;

	memcpy(&v, p, 8);
	return v;
}

int fuzz_one(const u8 *data, size_t size)
{
	static struct perf_event ev[FUZZ_MAX_EVENTS];
	static struct pmu other_pmu = { .type = 4 }, sw_pmu = { .type = PERF_TYPE_SOFTWARE };
	static struct uncore_pmu upmu;
	static struct device dev;
	static bool once;
	struct uncore_pmu_desc desc = { .ops = &fuzz_ops, .formats = fuzz_formats,
					.events = fuzz_events, .counter_width = 48 };
	u64 ref[3] = { }, refmask;
	bool all_canonical = true;
	unsigned int nfmt = 0, nev = 0, n_ours = 0, added = 0, i, word;
	struct perf_event *leader = NULL;
	const u8 *end = data + size;
	unsigned int attr_mask, n_group;
	u64 ev_mask = 0, id;
	bool foreign;
	int ret, want;

	if (!once) {
		uncore_pmu_module_init();
		once = true;
	}
	if (size < 3)
		return 0;
	attr_mask = data[2] & 3;
	desc.flags = (data[0] & 1 ? UNCORE_PMU_FIXED_EVENTS : 0) |
		     (data[0] & 2 ? UNCORE_PMU_FREE_RUNNING : 0);
	/* counters unless free-running, which has none (uncore_pmu.h) */
	desc.num_counters = desc.flags & UNCORE_PMU_FREE_RUNNING ? 0 : 1 + data[1] % 64;
	data += 3;

	/* format/ entries */
	while (data < end && *data != '\n' && nfmt < FUZZ_MAX_FORMATS) {
		const u8 *nl = memchr(data, '\n', end - data);
		size_t len = (nl ? nl : end) - data;

		if (len > sizeof(fuzz_spec[0]))
			len = sizeof(fuzz_spec[0]);
		memset(fuzz_spec[nfmt], 0, sizeof(fuzz_spec[0]));
		if (len > 1)
			memcpy(fuzz_spec[nfmt], data + 1, len - 1);
		fuzz_spec[nfmt][sizeof(fuzz_spec[0]) - 1] = 0;
		fuzz_fmt[nfmt] = (struct uncore_format_attr) {
			.attr = { .attr = { .name = fuzz_names[nfmt], .mode = 0444 },
				  .show = uncore_format_show },
			.spec = fuzz_spec[nfmt],
			.mask = *data & 3,
		};
		fuzz_formats[nfmt] = &fuzz_fmt[nfmt].attr.attr;
		nfmt++;
		data = nl ? nl + 1 : end;
	}
	fuzz_formats[nfmt] = NULL;
	if (data < end && *data == '\n')
		data++;

	memset(&upmu, 0, sizeof(upmu));
	if (uncore_pmu_init(&upmu, &dev, &desc))
		fuzz_fail("uncore_pmu_init() refused a good desc");
	upmu.attr_mask = attr_mask;

	for (i = 0; i < nfmt; i++) {
		if (fuzz_fmt[i].mask && !(fuzz_fmt[i].mask & upmu.attr_mask))
			continue;
		if (!fuzz_canonical(fuzz_spec[i], &word, &refmask)) {
			all_canonical = false;
			continue;
		}
		ref[word] |= refmask;
		if (!i && !word)
			ev_mask = refmask;
	}
	ret = __devm_uncore_pmu_register(&upmu, "fuzz", THIS_MODULE);
	if (ret) {
		if (all_canonical)
			fuzz_fail("canonical formats refused");
		kstub_devm_release();
		return 0;
	}
	if (all_canonical && memcmp(ref, upmu.cfg_mask, sizeof(ref)))
		fuzz_fail("config masks differ from the formats");
	/* what perf reads in format/ must be all the layer took from it */
	for (i = 0; i < nfmt; i++)
		if ((!fuzz_fmt[i].mask || (fuzz_fmt[i].mask & attr_mask)) &&
		    !fuzz_spec_whole(fuzz_spec[i]))
			fuzz_fail("a format spec with text after the bits accepted");

	/* events, as perf_event_open() makes them */
	for (; end - data >= 26 && nev < FUZZ_MAX_EVENTS; data += 26) {
		struct perf_event *e = &ev[nev];
		unsigned int kind = data[0] & 3;
		bool mine = kind == 0;

		memset(e, 0, sizeof(*e));
		INIT_LIST_HEAD(&e->sibling_list);
		INIT_LIST_HEAD(&e->active_entry);
		e->pmu = mine ? &upmu.pmu : kind == 1 ? &sw_pmu : &other_pmu;
		e->software = kind == 1;
		e->attr.type = e->pmu->type;
		e->attr.sample_period = data[0] & 4 ? 1000 : 0;
		e->attach_state = data[0] & 8 ? PERF_ATTACH_TASK : 0;
		e->cpu = (signed char)data[1];
		e->attr.config = fuzz_le64(data + 2);
		e->attr.config1 = fuzz_le64(data + 10);
		e->attr.config2 = fuzz_le64(data + 18);
		e->group_leader = leader ?: e;

		if (mine) {
			/* the design's error table, in its order */
			foreign = false;
			n_group = 1;
			if (leader) {
				struct perf_event *m;

				foreign = !leader->software && leader->pmu != &upmu.pmu;
				n_group += leader->pmu == &upmu.pmu;
				for_each_sibling_event(m, leader) {
					foreign |= !m->software && m->pmu != &upmu.pmu;
					n_group += m->pmu == &upmu.pmu;
				}
			}
			id = e->attr.config & ev_mask;
			want = 0;
			if (e->attr.sample_period || e->attach_state)
				want = -EOPNOTSUPP;
			else if (!cpumask_test_cpu(e->cpu, &upmu.associated_cpus))
				want = -EINVAL;
			else if ((e->attr.config & ~ref[0]) || (e->attr.config1 & ~ref[1]) ||
				 (e->attr.config2 & ~ref[2]))
				want = -EINVAL;
			else if ((desc.flags & UNCORE_PMU_FIXED_EVENTS) &&
				 !(id == 0 || id == 2 || ((attr_mask & 1) && (id == 1 || id == 3 ||
				   id == 5)) || ((attr_mask & 2) && id == 0xffff)))
				want = -EINVAL;
			else if (foreign || (desc.num_counters && n_group > desc.num_counters))
				want = -EINVAL;
			ret = upmu.pmu.event_init(e);
			if (all_canonical && ret != want) {
				fprintf(stderr, "event %u: got %d, want %d\n", nev, ret, want);
				fuzz_fail("event_init() disagrees with the rules");
			}
			if (ret)
				continue;
			if (all_canonical && (desc.flags & UNCORE_PMU_FIXED_EVENTS) &&
			    e->hw.event_base != uncore_pmu_event_listed(&upmu, id)->data)
				fuzz_fail("event_base is not the listed event's");
			n_ours++;
		} else if (!leader) {
			/* perf would not give us a group led by another PMU's event */
		}
		if (leader)
			list_add_tail(&e->sibling_list, &leader->sibling_list);
		else
			leader = e;
		nev++;
	}

	/* schedule the group, read it in a transaction, take it down */
	for (i = 0; i < nev; i++) {
		if (ev[i].pmu != &upmu.pmu)
			continue;
		ret = upmu.pmu.add(&ev[i], PERF_EF_START);
		if (ret && (ret != -EAGAIN || added < desc.num_counters ||
			    (desc.flags & UNCORE_PMU_FREE_RUNNING)))
			fuzz_fail("pmu->add refused an event with a free counter");
		if (!ret) {
			if (desc.num_counters && (ev[i].hw.idx < 0 ||
						  ev[i].hw.idx >= (int)desc.num_counters ||
						  upmu.events[ev[i].hw.idx] != &ev[i]))
				fuzz_fail("counter index");
			added++;
		} else {
			ev[i].pmu = &other_pmu;	/* never added */
		}
	}
	if (upmu.pmu.start_txn) {
		upmu.pmu.start_txn(&upmu.pmu, PERF_PMU_TXN_READ);
		for (i = 0; i < nev; i++)
			if (ev[i].pmu == &upmu.pmu)
				upmu.pmu.read(&ev[i]);
		upmu.pmu.commit_txn(&upmu.pmu);
	}
	for (i = 0; i < nev; i++)
		if (ev[i].pmu == &upmu.pmu)
			upmu.pmu.del(&ev[i], PERF_EF_UPDATE);
	if (!list_empty(&upmu.active) || upmu.used[0])
		fuzz_fail("counters left allocated");
	kstub_devm_release();
	return 0;
}
