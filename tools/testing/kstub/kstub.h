/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Just enough of the kernel API, in user space, to compile the helper
 * layer's parsing and validation code (uncore_apmt.c, uncore_core.c) and
 * two drivers (C2C, PCIE-TGT) into libFuzzer targets (../fuzz/), and the
 * simulator's CSPMU model into its self-test (../sim/selftest/): the one
 * kernel-stub tree of the tests. Every header under linux/ here includes
 * this file. Firmware-facing calls (APMT table, _UID, _DSD, _CRS, platform
 * resources) are declared here and defined by each fuzz target from its
 * input; the rest are defined in kstub.c, which the self-test, having no
 * fuzz input, replaces with the few it calls (kstub_log).
 */
#ifndef __KSTUB_H
#define __KSTUB_H

#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif

#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifndef EPROBE_DEFER
#define EPROBE_DEFER		517
#endif

typedef unsigned char u8;
typedef unsigned short u16;
typedef unsigned int u32;
typedef unsigned long long u64;
typedef int s32;
typedef long long s64;
typedef u16 __le16;
typedef u32 __le32;
typedef u64 __le64;
typedef u64 phys_addr_t;
typedef u64 resource_size_t;
typedef unsigned short umode_t;
typedef unsigned long kernel_ulong_t;

#define __packed		__attribute__((packed))
#undef __always_inline
#define __always_inline		inline __attribute__((always_inline))
#define __init
#define __exit
#define __iomem
#define __printf(a, b)		__attribute__((format(printf, a, b)))
#define __maybe_unused		__attribute__((unused))

/* little-endian hosts only, like the arm64 and x86 kernels we build for */
#define le16_to_cpu(x)		((u16)(x))
#define le32_to_cpu(x)		((u32)(x))
#define le64_to_cpu(x)		((u64)(x))

#define BITS_PER_LONG		64
#define BIT(n)			(1UL << (n))
#define BIT_ULL(n)		(1ULL << (n))
#define GENMASK(h, l)		((~0UL << (l)) & (~0UL >> (BITS_PER_LONG - 1 - (h))))
#define GENMASK_ULL(h, l)	((~0ULL << (l)) & (~0ULL >> (63 - (h))))
#define U64_MAX			((u64)~0ULL)
#define SZ_4K			0x1000
#define ARRAY_SIZE(a)		(sizeof(a) / sizeof((a)[0]))
#define __must_be_array(a)	0
#define DIV_ROUND_UP(n, d)	(((n) + (d) - 1) / (d))
#define BITS_TO_LONGS(n)	DIV_ROUND_UP(n, BITS_PER_LONG)
#define min(x, y)		((x) < (y) ? (x) : (y))
#define max(x, y)		((x) > (y) ? (x) : (y))
#define max_t(t, x, y)		max((t)(x), (t)(y))
#define lower_32_bits(n)	((u32)((n) & 0xffffffff))
#define upper_32_bits(n)	((u32)((u64)(n) >> 32))
#define READ_ONCE(x)		(x)
#define WRITE_ONCE(x, v)	((x) = (v))
#define container_of(p, t, m)	((t *)((char *)(p) - offsetof(t, m)))
#define __bf_shf(x)		(__builtin_ffsll(x) - 1)
#define FIELD_GET(m, v)		((typeof(m))(((v) & (m)) >> __bf_shf(m)))
#define hweight_long(x)		__builtin_popcountl(x)

/* IS_ENABLED(), as include/linux/kconfig.h does it */
#define __ARG_PLACEHOLDER_1	0,
#define __take_second_arg(__ignored, val, ...) val
#define __is_defined(x)		___is_defined(x)
#define ___is_defined(val)	____is_defined(__ARG_PLACEHOLDER_##val)
#define ____is_defined(arg1_or_junk) __take_second_arg(arg1_or_junk 1, 0)
#define IS_ENABLED(option)	__is_defined(option)

/* errors in pointers */
#define MAX_ERRNO		4095
#define IS_ERR_VALUE(x)		((unsigned long)(void *)(x) >= (unsigned long)-MAX_ERRNO)
static inline void *ERR_PTR(long e) { return (void *)e; }
static inline long PTR_ERR(const void *p) { return (long)p; }
static inline bool IS_ERR(const void *p) { return IS_ERR_VALUE(p); }

/* messages: arguments evaluated, printed only with KSTUB_VERBOSE set */
void kstub_log(const char *fmt, ...);
#define pr_err(fmt, ...)	kstub_log(fmt, ##__VA_ARGS__)
#define pr_warn(fmt, ...)	kstub_log(fmt, ##__VA_ARGS__)
#define pr_info(fmt, ...)	kstub_log(fmt, ##__VA_ARGS__)
#define dev_err(d, fmt, ...)	kstub_log(fmt, ##__VA_ARGS__)
#define dev_warn(d, fmt, ...)	kstub_log(fmt, ##__VA_ARGS__)
#define dev_info(d, fmt, ...)	kstub_log(fmt, ##__VA_ARGS__)
#define dev_dbg(d, fmt, ...)	kstub_log(fmt, ##__VA_ARGS__)
#define dev_err_probe(d, e, fmt, ...) (kstub_log(fmt, ##__VA_ARGS__), (e))
struct va_format {
	const char *fmt;
	va_list *va;
};

/* A WARN is a kernel bug report: the fuzzer must stop on it. */
#define WARN_ONCE(c, fmt, ...)	({ bool __c = !!(c); if (__c) kstub_warn(#c); __c; })
#define WARN_ON_ONCE(c)		WARN_ONCE(c, "")
void kstub_warn(const char *what);

/* module glue */
struct module { int unused; };
#define THIS_MODULE		((struct module *)0)
/* kbuild names every object's module; these targets are no module */
#define KBUILD_MODNAME		"kstub"
#define module_init(fn)		static int (*const kstub_init_##fn)(void) __maybe_unused = fn
#define module_exit(fn)		static void (*const kstub_exit_##fn)(void) __maybe_unused = fn
#define EXPORT_SYMBOL_NS_GPL(s, ns) extern int kstub_export_##s
#define MODULE_IMPORT_NS(ns)	extern int kstub_import_ns
#define MODULE_DESCRIPTION(s)	extern int kstub_desc
#define MODULE_LICENSE(s)	extern int kstub_license
#define MODULE_VERSION(s)	extern int kstub_version
#define MODULE_DEVICE_TABLE(t, n) extern int kstub_devtable_##n
static inline bool try_module_get(struct module *m) { return true; }
static inline void module_put(struct module *m) { }
#define module_name(m)		"fuzz"

/* locking: single-threaded */
struct mutex { int unused; };
#define DEFINE_MUTEX(n)		struct mutex n
#define mutex_lock(m)		((void)(m))
#define mutex_unlock(m)		((void)(m))
typedef struct { int counter; } atomic_t;
static inline int atomic_fetch_inc(atomic_t *a) { return a->counter++; }

/* static keys */
struct static_key_false { bool enabled; };
#define DEFINE_STATIC_KEY_FALSE(n)	struct static_key_false n
#define DECLARE_STATIC_KEY_FALSE(n)	extern struct static_key_false n
#define static_branch_unlikely(k)	((k)->enabled)
#define static_branch_enable(k)		((k)->enabled = true)
#define static_branch_disable(k)	((k)->enabled = false)

/* memory */
#define GFP_KERNEL		0
#define kzalloc(s, f)		calloc(1, s)
#define kcalloc(n, s, f)	calloc(n, s)
#define kfree(p)		free((void *)(p))

/* bitmaps */
#define DECLARE_BITMAP(n, bits)	unsigned long n[BITS_TO_LONGS(bits)]
static inline void set_bit(unsigned int nr, unsigned long *a) { a[nr / 64] |= 1UL << (nr % 64); }
static inline void __set_bit(unsigned int nr, unsigned long *a) { set_bit(nr, a); }
static inline void clear_bit(unsigned int nr, unsigned long *a)
{
	a[nr / 64] &= ~(1UL << (nr % 64));
}

static inline bool test_bit(unsigned int nr, const unsigned long *a)
{
	return a[nr / 64] >> (nr % 64) & 1;
}

static inline bool test_and_set_bit(unsigned int nr, unsigned long *a)
{
	bool old = test_bit(nr, a);

	set_bit(nr, a);
	return old;
}

static inline unsigned int find_next_bit(const unsigned long *a, unsigned int size,
					 unsigned int i)
{
	for (; i < size; i++)
		if (test_bit(i, a))
			return i;
	return size;
}

static inline unsigned int find_first_zero_bit(const unsigned long *a, unsigned int size)
{
	unsigned int i;

	for (i = 0; i < size; i++)
		if (!test_bit(i, a))
			return i;
	return size;
}

#define for_each_set_bit(b, a, size) \
	for ((b) = find_next_bit(a, size, 0); (b) < (size); (b) = find_next_bit(a, size, (b) + 1))

/* lists */
struct list_head { struct list_head *next, *prev; };
struct hlist_node { struct hlist_node *next, **pprev; };
#define LIST_HEAD_INIT(n)	{ &(n), &(n) }
#define LIST_HEAD(n)		struct list_head n = LIST_HEAD_INIT(n)
static inline void INIT_LIST_HEAD(struct list_head *l) { l->next = l; l->prev = l; }
static inline void list_add_tail(struct list_head *n, struct list_head *h)
{
	n->prev = h->prev;
	n->next = h;
	h->prev->next = n;
	h->prev = n;
}

static inline void list_del(struct list_head *e)
{
	e->prev->next = e->next;
	e->next->prev = e->prev;
	e->next = NULL;
	e->prev = NULL;
}

static inline void list_del_init(struct list_head *e)
{
	list_del(e);
	INIT_LIST_HEAD(e);
}

static inline bool list_empty(const struct list_head *h) { return h->next == h; }
#define list_entry(p, t, m)	container_of(p, t, m)
#define list_for_each_entry(p, h, m)					\
	for (p = list_entry((h)->next, typeof(*p), m); &p->m != (h);	\
	     p = list_entry(p->m.next, typeof(*p), m))
#define list_for_each_entry_safe(p, n, h, m)				\
	for (p = list_entry((h)->next, typeof(*p), m),			\
	     n = list_entry(p->m.next, typeof(*p), m); &p->m != (h);	\
	     p = n, n = list_entry(n->m.next, typeof(*n), m))
#define hlist_entry_safe(p, t, m) ((p) ? container_of(p, t, m) : NULL)

/* CPUs: KSTUB_NR_CPUS possible, node = cpu / 2 (two sockets of two) */
#define KSTUB_NR_CPUS		4
#define NUMA_NO_NODE		(-1)
typedef struct cpumask { DECLARE_BITMAP(bits, KSTUB_NR_CPUS); } cpumask_t;
extern unsigned int nr_cpu_ids;
extern const struct cpumask *cpu_possible_mask, *cpu_online_mask;
static inline void cpumask_clear(struct cpumask *m)
{
	m->bits[0] = 0;
}

static inline void cpumask_set_cpu(unsigned int c, struct cpumask *m) { m->bits[0] |= 1UL << c; }
static inline bool cpumask_test_cpu(int c, const struct cpumask *m)
{
	return c >= 0 && c < KSTUB_NR_CPUS && (m->bits[0] >> c & 1);
}

static inline bool cpumask_empty(const struct cpumask *m) { return !m->bits[0]; }
static inline void cpumask_copy(struct cpumask *d, const struct cpumask *s) { *d = *s; }
const struct cpumask *cpumask_of(unsigned int cpu);
#define cpumask_pr_args(m)	KSTUB_NR_CPUS, (m)->bits
#define for_each_possible_cpu(c) for ((c) = 0; (c) < KSTUB_NR_CPUS; (c)++)
#define for_each_cpu_and(c, a, b)					\
	for ((c) = 0; (c) < KSTUB_NR_CPUS; (c)++)			\
		if (cpumask_test_cpu(c, a) && cpumask_test_cpu(c, b))
static inline int cpu_to_node(unsigned int cpu) { return cpu / 2; }
static inline unsigned int smp_processor_id(void) { return 0; }

/* devices and sysfs */
struct attribute { const char *name; umode_t mode; };
struct kobject { int unused; };
struct acpi_device;
struct device {
	struct kobject kobj;
	const char *init_name;
	void *platform_data;
	void *driver_data;
	struct acpi_device *acpi;
	const void *match_data;
	int numa_node;
};

struct device_attribute {
	struct attribute attr;
	ssize_t (*show)(struct device *dev, struct device_attribute *attr, char *buf);
	ssize_t (*store)(struct device *dev, struct device_attribute *attr,
			 const char *buf, size_t count);
};

struct attribute_group {
	const char *name;
	umode_t (*is_visible)(struct kobject *kobj, struct attribute *attr, int n);
	struct attribute **attrs;
};

#define __ATTR(_name, _mode, _show, _store) \
	{ .attr = { .name = #_name, .mode = _mode }, .show = _show, .store = _store }
#define __ATTR_RO(_name)	__ATTR(_name, 0444, _name##_show, NULL)
#define DEVICE_ATTR_RO(_name)	struct device_attribute dev_attr_##_name = __ATTR_RO(_name)
#define kobj_to_dev(k)		container_of(k, struct device, kobj)
int sysfs_emit(char *buf, const char *fmt, ...);
static inline const char *dev_name(const struct device *d) { return d->init_name ?: "fuzz"; }
static inline void *dev_get_drvdata(const struct device *d) { return d->driver_data; }
static inline void *dev_get_platdata(const struct device *d) { return d->platform_data; }
static inline int dev_to_node(struct device *d) { return d->numa_node; }
static inline const void *device_get_match_data(struct device *d) { return d->match_data; }
void put_device(struct device *d);

/* device-managed resources: a list freed by kstub_devm_release() */
void *devm_kzalloc(struct device *dev, size_t size, int gfp);
__printf(3, 4) char *devm_kasprintf(struct device *dev, int gfp, const char *fmt, ...);
int devm_add_action_or_reset(struct device *dev, void (*fn)(void *), void *data);
void kstub_devm_release(void);

/* resources */
#define IORESOURCE_TYPE_BITS	0x00001f00
#define IORESOURCE_IO		0x00000100
#define IORESOURCE_MEM		0x00000200
#define IORESOURCE_IRQ		0x00000400
#define IORESOURCE_DISABLED	0x10000000
#define IORESOURCE_UNSET	0x20000000
struct resource {
	resource_size_t start, end;
	const char *name;
	unsigned long flags;
};

static inline resource_size_t resource_size(const struct resource *r)
{
	/* the kernel's definition, the operands in an order coccicheck's
	 * resource_size rule does not take for an open-coded copy
	 */
	return r->end + 1 - r->start;
}

static inline unsigned long resource_type(const struct resource *r)
{
	return r->flags & IORESOURCE_TYPE_BITS;
}

struct resource_entry { struct list_head node; struct resource *res; };
void __iomem *devm_ioremap_resource(struct device *dev, const struct resource *res);

/* MMIO, on the buffers devm_ioremap_resource() hands out */
static inline u32 readl_relaxed(const void __iomem *a) { u32 v; memcpy(&v, a, 4); return v; }
static inline u64 readq_relaxed(const void __iomem *a) { u64 v; memcpy(&v, a, 8); return v; }
static inline void writel_relaxed(u32 v, void __iomem *a) { memcpy(a, &v, 4); }
static inline void writeq_relaxed(u64 v, void __iomem *a) { memcpy(a, &v, 8); }

/* platform devices */
struct platform_device {
	const char *name;
	int id;
	struct device dev;
	unsigned int num_resources;
	struct resource *resource;
};

struct platform_device_info {
	const char *name;
	int id;
	const struct resource *res;
	unsigned int num_res;
	const void *data;
	size_t size_data;
};

struct platform_device_id { char name[20]; kernel_ulong_t driver_data; };
struct acpi_device_id { char id[16]; kernel_ulong_t driver_data; };
struct device_driver {
	const char *name;
	const struct acpi_device_id *acpi_match_table;
	bool suppress_bind_attrs;
};

struct platform_driver {
	int (*probe)(struct platform_device *pdev);
	struct device_driver driver;
	const struct platform_device_id *id_table;
};

#define module_platform_driver(d) \
	static struct platform_driver *const kstub_drv_##d __maybe_unused = &d
struct platform_device *platform_device_register_full(const struct platform_device_info *i);
void platform_device_unregister(struct platform_device *pdev);
struct resource *platform_get_resource(struct platform_device *pdev, unsigned int type,
				       unsigned int num);
static inline void platform_set_drvdata(struct platform_device *p, void *d)
{
	p->dev.driver_data = d;
}

/* ACPI */
typedef u32 acpi_status;
typedef void *acpi_handle;
#define AE_OK			0
#define AE_NOT_FOUND		5
#define ACPI_SUCCESS(s)		((s) == AE_OK)
#define ACPI_FAILURE(s)		((s) != AE_OK)
#define ACPI_LEVEL_SENSITIVE	0
#define ACPI_EDGE_SENSITIVE	1
#define ACPI_ACTIVE_HIGH	0
struct acpi_table_header {
	char signature[4];
	u32 length;
	u8 revision;
	u8 checksum;
	char oem_id[6];
	char oem_table_id[8];
	u32 oem_revision;
	char asl_compiler_id[4];
	u32 asl_compiler_revision;
};

struct fwnode_handle { int unused; };
struct acpi_resource;
struct acpi_device {
	struct device dev;
	struct fwnode_handle fwnode;
	const char *hid;
	const char *uid;
};

extern bool acpi_disabled;
acpi_status acpi_get_table(const char *sig, u32 instance, struct acpi_table_header **t);
void acpi_put_table(struct acpi_table_header *t);
const char *acpi_format_exception(acpi_status s);
int acpi_register_gsi(struct device *dev, u32 gsi, int trigger, int polarity);
void acpi_unregister_gsi(u32 gsi);
#define ACPI_COMPANION(d)	((d)->acpi)
#define acpi_fwnode_handle(a)	(&(a)->fwnode)
static inline const char *acpi_device_uid(struct acpi_device *a) { return a->uid; }
static inline const char *acpi_device_hid(struct acpi_device *a) { return a->hid ?: "device"; }
int acpi_dev_get_resources(struct acpi_device *adev, struct list_head *list,
			   int (*preproc)(struct acpi_resource *, void *), void *data);
void acpi_dev_free_resource_list(struct list_head *list);
int device_property_read_u32(struct device *dev, const char *name, u32 *val);
int fwnode_property_read_u32(struct fwnode_handle *f, const char *name, u32 *val);
int kstrtou32(const char *s, unsigned int base, u32 *res);

/* perf */
#define PERF_ATTACH_TASK	0x04
#define PERF_HES_STOPPED	0x01
#define PERF_HES_UPTODATE	0x02
#define PERF_HES_ARCH		0x04
#define PERF_EF_START		0x01
#define PERF_EF_RELOAD		0x02
#define PERF_EF_UPDATE		0x04
#define PERF_PMU_TXN_ADD	0x1
#define PERF_PMU_TXN_READ	0x2
#define PERF_PMU_CAP_NO_INTERRUPT	0x0001
#define PERF_PMU_CAP_NO_EXCLUDE		0x0080
#define PERF_TYPE_SOFTWARE	1
enum perf_event_task_context { perf_invalid_context = -1 };
typedef struct { s64 v; } local64_t;
#define local64_read(l)		((l)->v)
#define local64_set(l, x)	((l)->v = (x))
#define local64_add(x, l)	((l)->v += (x))
static inline s64 local64_cmpxchg(local64_t *l, s64 old, s64 new)
{
	s64 cur = l->v;

	if (cur == old)
		l->v = new;
	return cur;
}

struct perf_event_attr {
	u32 type;
	u64 config, config1, config2;
	u64 sample_period;
};

struct hw_perf_event_extra {
	int idx;
};

struct hw_perf_event {
	u64 config;
	unsigned long event_base;
	int idx;
	struct hw_perf_event_extra extra_reg;
	int state;
	int flags;
	local64_t prev_count;
};

struct perf_event;
struct pmu {
	struct module *module;
	struct device *parent;
	const struct attribute_group **attr_groups;
	const char *name;
	int type;
	int capabilities;
	int task_ctx_nr;
	void (*pmu_enable)(struct pmu *pmu);
	void (*pmu_disable)(struct pmu *pmu);
	int (*event_init)(struct perf_event *event);
	int (*add)(struct perf_event *event, int flags);
	void (*del)(struct perf_event *event, int flags);
	void (*start)(struct perf_event *event, int flags);
	void (*stop)(struct perf_event *event, int flags);
	void (*read)(struct perf_event *event);
	void (*start_txn)(struct pmu *pmu, unsigned int flags);
	int (*commit_txn)(struct pmu *pmu);
	void (*cancel_txn)(struct pmu *pmu);
};

struct perf_event {
	struct list_head sibling_list;
	struct list_head active_entry;
	struct perf_event *group_leader;
	struct pmu *pmu;
	struct perf_event_attr attr;
	struct hw_perf_event hw;
	local64_t count;
	int cpu;
	unsigned int attach_state;
	bool software;
};

#define for_each_sibling_event(s, l) list_for_each_entry(s, &(l)->sibling_list, sibling_list)
static inline bool is_software_event(struct perf_event *e) { return e->software; }
static inline bool is_sampling_event(struct perf_event *e)
{
	return e->attr.sample_period != 0;
}

static inline void perf_event_update_userpage(struct perf_event *e) { }
/* the PMU perf_pmu_register() was last given */
extern struct pmu *kstub_last_pmu;
int perf_pmu_register(struct pmu *pmu, const char *name, int type);
void perf_pmu_unregister(struct pmu *pmu);
void perf_pmu_migrate_context(struct pmu *pmu, int src, int dst);

/* hotplug, interrupts, timers */
enum cpuhp_state { CPUHP_AP_ONLINE_DYN = 100 };
int cpuhp_setup_state_multi(enum cpuhp_state s, const char *name,
			    int (*up)(unsigned int cpu, struct hlist_node *n),
			    int (*down)(unsigned int cpu, struct hlist_node *n));
void cpuhp_remove_multi_state(enum cpuhp_state s);
int cpuhp_state_add_instance(enum cpuhp_state s, struct hlist_node *n);
int cpuhp_state_remove_instance_nocalls(enum cpuhp_state s, struct hlist_node *n);
int irq_set_affinity(unsigned int irq, const struct cpumask *m);
typedef int clockid_t;
enum hrtimer_restart { HRTIMER_NORESTART, HRTIMER_RESTART };
enum hrtimer_mode { HRTIMER_MODE_REL_PINNED, HRTIMER_MODE_REL_PINNED_HARD };
struct hrtimer { enum hrtimer_restart (*function)(struct hrtimer *t); };
static inline void hrtimer_setup(struct hrtimer *t, enum hrtimer_restart (*fn)(struct hrtimer *),
				 clockid_t c, enum hrtimer_mode m)
{
	t->function = fn;
}

/* the layer's poll timer: set up, never run by the targets */
static inline bool irqs_disabled(void) { return true; }
#define CLOCK_MONOTONIC		1
typedef s64 ktime_t;
static inline ktime_t ns_to_ktime(u64 ns) { return (ktime_t)ns; }
static inline u64 hrtimer_forward_now(struct hrtimer *t, ktime_t i) { return 1; }
static inline bool hrtimer_active(const struct hrtimer *t) { return false; }
static inline void hrtimer_start(struct hrtimer *t, ktime_t i, enum hrtimer_mode m) { }
static inline int hrtimer_cancel(struct hrtimer *t) { return 0; }

/* each target's test of one input (LLVMFuzzerTestOneInput() calls it) */
int fuzz_one(const u8 *data, size_t size);

/* the helper layer's register backend, which the targets never register */
struct uncore_win;

/* the simulator's models (sim/selftest/): their state, never used there */
struct seq_file;
struct dentry;
struct delayed_work { int unused; };
struct kstub_raw_spinlock { int unused; };
#define raw_spinlock_t		struct kstub_raw_spinlock
#define module_param(n, t, p)	extern char kstub_param_##n[sizeof(t *) + (p)]
#define MODULE_PARM_DESC(n, d)	extern char kstub_desc_##n[sizeof(d)]

#endif
