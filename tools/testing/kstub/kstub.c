// SPDX-License-Identifier: GPL-2.0
/*
 * The kernel functions of kstub.h that do not depend on the fuzz input:
 * device-managed allocations, sysfs_emit(), kstrtou32() with the kernel's
 * rules, and perf and hotplug calls that only record what happened.
 */
#include "kstub.h"

unsigned int nr_cpu_ids = KSTUB_NR_CPUS;
static const struct cpumask kstub_all = { { (1UL << KSTUB_NR_CPUS) - 1 } };
const struct cpumask *cpu_possible_mask = &kstub_all, *cpu_online_mask = &kstub_all;
bool acpi_disabled;

const struct cpumask *cpumask_of(unsigned int cpu)
{
	static struct cpumask one[KSTUB_NR_CPUS];

	if (cpu >= KSTUB_NR_CPUS)
		kstub_warn("a cpumask of a CPU that does not exist");
	one[cpu].bits[0] = 1UL << cpu;
	return &one[cpu];
}

void kstub_log(const char *fmt, ...)
{
	static int verbose = -1;
	va_list ap;

	if (verbose < 0)
		verbose = !!getenv("KSTUB_VERBOSE");
	if (!verbose)
		return;
	va_start(ap, fmt);
	/* %pe, %pR, %pV print as pointers: the message is what matters */
	vfprintf(stderr, fmt, ap);
	va_end(ap);
}

void kstub_warn(const char *what)
{
	fprintf(stderr, "kstub: WARNING: %s\n", what);
	abort();
}

int sysfs_emit(char *buf, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(buf, 4096, fmt, ap);
	va_end(ap);
	return n;
}

/* ---- device-managed resources, released in reverse order ---- */

struct kstub_devres {
	struct kstub_devres *next;
	void (*fn)(void *data);
	void *data;
};

static struct kstub_devres *kstub_devres;

static int kstub_devres_add(void (*fn)(void *), void *data)
{
	struct kstub_devres *r = malloc(sizeof(*r));

	if (!r)
		abort();
	r->fn = fn;
	r->data = data;
	r->next = kstub_devres;
	kstub_devres = r;
	return 0;
}

void *devm_kzalloc(struct device *dev, size_t size, int gfp)
{
	void *p = calloc(1, size);

	if (!p)
		abort();
	kstub_devres_add(free, p);
	return p;
}

char *devm_kasprintf(struct device *dev, int gfp, const char *fmt, ...)
{
	va_list ap;
	char *p;

	va_start(ap, fmt);
	if (vasprintf(&p, fmt, ap) < 0)
		abort();
	va_end(ap);
	kstub_devres_add(free, p);
	return p;
}

int devm_add_action_or_reset(struct device *dev, void (*fn)(void *), void *data)
{
	return kstub_devres_add(fn, data);
}

void kstub_devm_release(void)
{
	struct kstub_devres *r;

	while ((r = kstub_devres)) {
		kstub_devres = r->next;
		r->fn(r->data);
		free(r);
	}
}

/*
 * As lib/kstrtox.c: base 0 takes 0x/0 prefixes, one trailing newline is
 * allowed, an empty string, a sign or overflow are errors.
 */
int kstrtou32(const char *s, unsigned int base, u32 *res)
{
	unsigned long long v = 0;
	const char *p = s;
	unsigned int d;
	bool any = false;

	if (*p == '+')
		p++;
	if (base == 0) {
		if (p[0] == '0' && (p[1] | 0x20) == 'x' && isxdigit((unsigned char)p[2])) {
			base = 16;
			p += 2;
		} else if (p[0] == '0') {
			base = 8;
		} else {
			base = 10;
		}
	} else if (base == 16 && p[0] == '0' && (p[1] | 0x20) == 'x') {
		p += 2;
	}
	for (; *p; p++, any = true) {
		if (*p >= '0' && *p <= '9')
			d = *p - '0';
		else if ((*p | 0x20) >= 'a' && (*p | 0x20) <= 'f')
			d = (*p | 0x20) - 'a' + 10;
		else
			break;
		if (d >= base)
			break;
		v = v * base + d;
		if (v > UINT32_MAX)
			return -ERANGE;
	}
	if (!any)
		return -EINVAL;
	if (*p == '\n')
		p++;
	if (*p)
		return -EINVAL;
	*res = v;
	return 0;
}

/* ---- perf and hotplug: recorded, never refused ---- */

struct pmu *kstub_last_pmu;

int perf_pmu_register(struct pmu *pmu, const char *name, int type)
{
	kstub_last_pmu = pmu;
	static int next_type = 100;

	pmu->name = name;
	pmu->type = next_type++;
	return 0;
}

void perf_pmu_unregister(struct pmu *pmu)
{
}

void perf_pmu_migrate_context(struct pmu *pmu, int src, int dst)
{
}

static int (*kstub_cpu_up)(unsigned int cpu, struct hlist_node *n);

int cpuhp_setup_state_multi(enum cpuhp_state s, const char *name,
			    int (*up)(unsigned int, struct hlist_node *),
			    int (*down)(unsigned int, struct hlist_node *))
{
	kstub_cpu_up = up;
	return CPUHP_AP_ONLINE_DYN;
}

/* As the kernel does: the online callback on every online CPU. */
int cpuhp_state_add_instance(enum cpuhp_state s, struct hlist_node *n)
{
	unsigned int cpu;

	for (cpu = 0; cpu < KSTUB_NR_CPUS; cpu++)
		if (kstub_cpu_up && cpumask_test_cpu(cpu, cpu_online_mask))
			kstub_cpu_up(cpu, n);
	return 0;
}

void cpuhp_remove_multi_state(enum cpuhp_state s)
{
}

int cpuhp_state_remove_instance_nocalls(enum cpuhp_state s, struct hlist_node *n)
{
	return 0;
}

int irq_set_affinity(unsigned int irq, const struct cpumask *m)
{
	return 0;
}

void put_device(struct device *d)
{
}

const char *acpi_format_exception(acpi_status s)
{
	return "AE_ERROR";
}

/* libFuzzer's entry point: the target's fuzz_one() */
int LLVMFuzzerTestOneInput(const u8 *data, size_t size)
{
	return fuzz_one(data, size);
}
