/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Shared helper layer for the uncore PMU drivers: struct pmu setup, sysfs
 * attributes, common event validation, counter bookkeeping, CPU hotplug and
 * register access.
 */
#ifndef __UNCORE_PMU_H
#define __UNCORE_PMU_H

#include <linux/bitmap.h>
#include <linux/cpumask.h>
#include <linux/device.h>
#include <linux/hrtimer.h>
#include <linux/io.h>
#include <linux/jump_label.h>
#include <linux/list.h>
#include <linux/module.h>
#include <linux/perf_event.h>
#include <linux/platform_device.h>
#include <linux/sysfs.h>
#include <linux/types.h>

#include "uncore_compat.h"

/*
 * The package version (dkms.conf), stamped into every module: DKMS
 * refuses to install over a same-named in-kernel module whose version
 * string equals ours, and in-kernel modules carry none.
 */
#ifndef UNCORE_PMU_VERSION
#define UNCORE_PMU_VERSION	"0"
#endif

/* Most hardware counters one PMU instance allocates. */
#define UNCORE_PMU_MAX_COUNTERS		64
/* Attribute groups: format, events, cpumask, identifier, driver extras. */
#define UNCORE_PMU_MAX_GROUPS		8
/*
 * Of those, the driver's own (uncore_pmu_desc.extra_groups): format/,
 * events/, the common files and the NULL end take the other four; a
 * description with more is refused.
 */
#define UNCORE_PMU_MAX_EXTRA_GROUPS	(UNCORE_PMU_MAX_GROUPS - 4)

/* uncore_pmu_desc.flags */
/*
 * Counters are shared by all events and run on their own: an event starts
 * from a snapshot of the counter instead of programming one, and takes no
 * counter, so any number of events may count at once. The one statement
 * of it: the description must then say num_counters 0 and have no start,
 * stop, get_counter or put_counter op, or uncore_pmu_init() refuses it.
 */
#define UNCORE_PMU_FREE_RUNNING		BIT(0)
/* The event id must be one of the (visible) entries in events/. */
#define UNCORE_PMU_FIXED_EVENTS		BIT(1)
/* Show associated_cpus in sysfs. */
#define UNCORE_PMU_SHOW_ASSOC		BIT(2)

/*
 * hw_perf_event.flags bit the layer sets at event_init on an event that
 * reads a shared free-running counter: every event of a
 * UNCORE_PMU_FREE_RUNNING PMU, and the events of UNCORE_EVENT_ATTR_SHARED()
 * entries in a PMU that also has counters to allocate.
 */
#define UNCORE_HW_SHARED		BIT(0)

/**
 * struct uncore_win - one mapped register window
 * @base:    kernel virtual address of the mapping
 * @phys:    physical base address
 * @backend: accesses go to the registered register backend
 */
struct uncore_win {
	void __iomem *base;
	phys_addr_t phys;
	bool backend;
};

struct uncore_pmu;

/**
 * struct uncore_pmu_ops - what a driver plugs into the helper layer
 * @event_init:     extra validation after the common checks (optional)
 * @validate_group: shared-resource rules for the group of @event (optional)
 * @get_counter:    allocate a counter for @event; default: first free one.
 *                  What else it takes for @event (a shared filter) is
 *                  held until @put_counter
 * @put_counter:    release what @get_counter took besides the counter,
 *                  which the layer frees (optional; at pmu->del, after
 *                  @stop)
 * @start:          program and start the counter of @event (optional)
 * @stop:           stop the counter of @event (optional)
 * @read:           read the raw counter value of @event into @val; a
 *                  non-zero return leaves the event's count untouched
 * @run:            counting on the PMU's shared counters goes on (@on: the
 *                  first event was scheduled) or off (the last one left),
 *                  from pmu_enable; the layer keeps the state
 *                  (&uncore_pmu.running) and calls @freeze and @thaw only
 *                  while it runs (optional)
 * @enable:         pmu_enable, beyond @run (optional)
 * @disable:        pmu_disable (optional)
 * @freeze:         stop every counter, keeping its value, for the reads of
 *                  one group (a PERF_PMU_TXN_READ transaction); optional
 * @thaw:           undo @freeze once the group is read
 * @poll:           with &uncore_pmu.poll_ns set, called from the poll
 *                  timer on the active CPU for each counting event right
 *                  after the layer folded its count, so that
 *                  &hw_perf_event.prev_count is the value just read: the
 *                  place to restart a counter that saturates (optional)
 *
 * With @freeze and @thaw the layer gives perf read transactions, so a
 * group's counters are one snapshot; the traffic that arrives while the
 * PMU is frozen is not counted, so a driver keeps that window short.
 *
 * Events that read a shared counter (%UNCORE_HW_SHARED) take no counter
 * and never reach @start, @stop or @get_counter: they start from a
 * snapshot taken with @read.
 */
struct uncore_pmu_ops {
	int (*event_init)(struct perf_event *event);
	int (*validate_group)(struct perf_event *event);
	int (*get_counter)(struct uncore_pmu *upmu, struct perf_event *event);
	void (*put_counter)(struct uncore_pmu *upmu, struct perf_event *event);
	void (*start)(struct perf_event *event);
	void (*stop)(struct perf_event *event);
	int (*read)(struct perf_event *event, u64 *val);
	void (*run)(struct uncore_pmu *upmu, bool on);
	void (*enable)(struct uncore_pmu *upmu);
	void (*disable)(struct uncore_pmu *upmu);
	void (*freeze)(struct uncore_pmu *upmu);
	void (*thaw)(struct uncore_pmu *upmu);
	void (*poll)(struct perf_event *event);
};

/**
 * struct uncore_pmu_desc - constant description of one PMU type
 * @ops:           driver callbacks
 * @formats:       NULL-terminated format/ entries, UNCORE_FORMAT_ATTR()
 * @events:        NULL-terminated events/ entries, UNCORE_EVENT_ATTR()
 * @extra_groups:  NULL-terminated further groups (optional)
 * @flags:         UNCORE_PMU_* flags
 * @capabilities:  PERF_PMU_CAP_* flags
 * @num_counters:  hardware counters events are allocated (0 with
 *                 UNCORE_PMU_FREE_RUNNING; a driver that discovers its
 *                 counters sets uncore_pmu.num_counters before registering)
 * @counter_width: implemented counter width in bits (1-64)
 * @event_digits:  minimum hex digits of the id in events/ files
 */
struct uncore_pmu_desc {
	const struct uncore_pmu_ops *ops;
	struct attribute **formats;
	struct attribute **events;
	const struct attribute_group *const *extra_groups;
	u32 flags;
	u32 capabilities;
	unsigned int num_counters;
	unsigned int counter_width;
	unsigned int event_digits;
};

/**
 * struct uncore_pmu - one registered PMU instance
 * @pmu:             the perf PMU
 * @dev:             the device it belongs to
 * @desc:            its type description
 * @identifier:      contents of the identifier file, or NULL for none
 * @associated_cpus: CPUs that may count for this PMU
 * @cpu:             the active CPU, or -1 when no associated CPU is online
 * @node:            preferred NUMA node for the active CPU
 * @irq:             interrupt that follows the active CPU, or -1
 * @attr_mask:       which masked format/ and events/ entries it shows
 * @num_counters:    hardware counters the allocator hands out
 * @counter_width:   counter width used for delta masking
 * @cfg_mask:        config, config1, config2 bits covered by format/
 * @event_mask:      config bits of the "event" format field
 * @warned:          messages already printed (uncore_internal.h)
 * @txn_flags:       the open perf transaction (PERF_PMU_TXN_*), or 0
 * @running:         the driver's @run op last turned counting on
 * @poll_ns:         period of the poll timer that folds every counting
 *                   event (and calls &uncore_pmu_ops.poll) while events
 *                   are scheduled; 0 for none. For counters without an
 *                   overflow interrupt that wrap or saturate: a driver sets
 *                   it before registering
 * @poll_timer:      the poll timer, pinned to the active CPU
 * @poll_cpu:        the CPU @poll_timer was last started on
 * @hp_node:         CPU hotplug instance
 * @entry:           in the helper layer's list of registered PMUs
 * @active:          scheduled events (pmu->add to pmu->del), oldest first,
 *                   linked by &perf_event.active_entry
 * @used:            allocated counters
 * @events:          event on each allocated counter
 * @format_group:    format/, from @desc
 * @events_group:    events/, from @desc
 * @groups:          attribute groups handed to perf
 */
struct uncore_pmu {
	struct pmu pmu;
	struct device *dev;
	const struct uncore_pmu_desc *desc;
	const char *identifier;
	cpumask_t associated_cpus;
	int cpu;
	int node;
	int irq;
	u32 attr_mask;
	unsigned int num_counters;
	unsigned int counter_width;
	u64 cfg_mask[3];
	u64 event_mask;
	unsigned long warned;
	unsigned int txn_flags;
	bool running;
	u64 poll_ns;
	struct hrtimer poll_timer;
	int poll_cpu;
	struct hlist_node hp_node;
	struct list_head entry;
	struct list_head active;
	DECLARE_BITMAP(used, UNCORE_PMU_MAX_COUNTERS);
	struct perf_event *events[UNCORE_PMU_MAX_COUNTERS];
	struct attribute_group format_group;
	struct attribute_group events_group;
	const struct attribute_group *groups[UNCORE_PMU_MAX_GROUPS];
};

/**
 * uncore_pmu_for_each_event - walk the scheduled events of a PMU
 * @upmu:  the PMU
 * @event: the cursor
 *
 * From the PMU's perf callbacks, which run on its active CPU with
 * interrupts off, as every change to the list does.
 */
#define uncore_pmu_for_each_event(upmu, event) \
	list_for_each_entry(event, &(upmu)->active, active_entry)

/**
 * to_uncore_pmu - the uncore PMU that embeds a perf PMU
 * @pmu: &uncore_pmu.pmu of a registered uncore PMU
 *
 * Return: the containing &struct uncore_pmu.
 */
static inline struct uncore_pmu *to_uncore_pmu(struct pmu *pmu)
{
	return container_of(pmu, struct uncore_pmu, pmu);
}

/**
 * struct uncore_format_attr - a format/ entry
 * @attr:     the sysfs attribute
 * @spec:     its contents, e.g. "config:0-5" or "config1"
 * @mask:     &uncore_pmu.attr_mask bits it is shown for; 0: always
 */
struct uncore_format_attr {
	struct device_attribute attr;
	const char *spec;
	u32 mask;
};

/**
 * struct uncore_event_attr - an events/ entry
 * @attr:     the sysfs attribute
 * @id:       the event id, shown as "event=0x<id>"
 * @mask:     &uncore_pmu.attr_mask bits it is shown for; 0: always
 * @data:     the driver's value for the event (a register offset, say);
 *            with %UNCORE_PMU_FIXED_EVENTS every event of this id gets it
 *            in &hw_perf_event.event_base, so the id, its events/ entry
 *            and its register come from one table
 * @shared:   with %UNCORE_PMU_FIXED_EVENTS, the event reads a shared
 *            free-running counter (%UNCORE_HW_SHARED) instead of taking
 *            one of the PMU's counters
 */
struct uncore_event_attr {
	struct device_attribute attr;
	u64 id;
	u32 mask;
	u32 data;
	bool shared;
};

ssize_t uncore_format_show(struct device *dev, struct device_attribute *attr, char *buf);
ssize_t uncore_event_show(struct device *dev, struct device_attribute *attr, char *buf);

/**
 * UNCORE_FORMAT_ATTR_MASK - a format/ entry shown for some instances
 * @_name: the field name, also the file name
 * @_spec: the bits, "config:0-5", "config1:8" or "config2:0-63"
 * @_mask: shown where &uncore_pmu.attr_mask has one of these bits
 *
 * For the NULL-terminated &uncore_pmu_desc.formats array. The bits of the
 * shown entries are the only ones an event may set.
 */
#define UNCORE_FORMAT_ATTR_MASK(_name, _spec, _mask)				\
	(&((struct uncore_format_attr[]) {					\
		{ .attr = __ATTR(_name, 0444, uncore_format_show, NULL),	\
		  .spec = _spec, .mask = _mask }				\
	})[0].attr.attr)

/**
 * UNCORE_FORMAT_ATTR - a format/ entry every instance shows
 * @_name: the field name, also the file name
 * @_spec: the bits, e.g. "config:0-5"
 */
#define UNCORE_FORMAT_ATTR(_name, _spec) UNCORE_FORMAT_ATTR_MASK(_name, _spec, 0)

/**
 * UNCORE_EVENT_ATTR_DATA - an events/ entry with the driver's value for it
 * @_name: the event name, also the file name
 * @_id:   the event id, shown as "event=0x<id>"
 * @_mask: shown where &uncore_pmu.attr_mask has one of these bits; 0: always
 * @_data: &uncore_event_attr.data
 *
 * For the NULL-terminated &uncore_pmu_desc.events array. With
 * %UNCORE_PMU_FIXED_EVENTS only the ids of shown entries are accepted.
 */
#define UNCORE_EVENT_ATTR_DATA(_name, _id, _mask, _data)			\
	(&((struct uncore_event_attr[]) {					\
		{ .attr = __ATTR(_name, 0444, uncore_event_show, NULL),	\
		  .id = _id, .mask = _mask, .data = _data }			\
	})[0].attr.attr)

/**
 * UNCORE_EVENT_ATTR_SHARED - an events/ entry of a shared free-running counter
 * @_name: the event name, also the file name
 * @_id:   the event id
 * @_data: &uncore_event_attr.data
 *
 * For a PMU with counters to allocate and %UNCORE_PMU_FIXED_EVENTS that
 * also has free-running counters: any number of events of this id count
 * at once, each from a snapshot, and none takes a counter or counts
 * against &uncore_pmu.num_counters in a group.
 */
#define UNCORE_EVENT_ATTR_SHARED(_name, _id, _data)				\
	(&((struct uncore_event_attr[]) {					\
		{ .attr = __ATTR(_name, 0444, uncore_event_show, NULL),	\
		  .id = _id, .data = _data, .shared = true }			\
	})[0].attr.attr)

/**
 * UNCORE_EVENT_ATTR_MASK - an events/ entry shown for some instances
 * @_name: the event name, also the file name
 * @_id:   the event id
 * @_mask: shown where &uncore_pmu.attr_mask has one of these bits
 */
#define UNCORE_EVENT_ATTR_MASK(_name, _id, _mask)				\
	UNCORE_EVENT_ATTR_DATA(_name, _id, _mask, 0)

/**
 * UNCORE_EVENT_ATTR - an events/ entry every instance shows
 * @_name: the event name, also the file name
 * @_id:   the event id
 */
#define UNCORE_EVENT_ATTR(_name, _id) UNCORE_EVENT_ATTR_MASK(_name, _id, 0)

/*
 * Register access: relaxed MMIO, or a register backend (the test
 * simulator, uncore_backend.h) for the windows it claims. The redirect is
 * here so that the modules a test loads are the modules that ship: with
 * no backend registered the static branch is a no-op instruction on the
 * access path and the redirect an out-of-line block beside it
 * (BENCHMARKS.md, "Register access", for the measured cost).
 * Drivers only use the accessors below.
 */
DECLARE_STATIC_KEY_FALSE(uncore_backend_active);
u64 uncore_backend_read(const struct uncore_win *win, u32 off, unsigned int bytes);
void uncore_backend_write(const struct uncore_win *win, u32 off, u64 val, unsigned int bytes);

/**
 * uncore_win_redirected - do accesses to @win go to the register backend
 * @win: a mapped window
 *
 * Return: true only while a backend is registered and it claimed @win.
 */
static __always_inline bool uncore_win_redirected(const struct uncore_win *win)
{
	return static_branch_unlikely(&uncore_backend_active) && win->backend;
}

/**
 * uncore_read32 - read a 32-bit register
 * @win: the window
 * @off: register offset in @win
 *
 * Relaxed MMIO (no ordering against memory), or the backend's model.
 *
 * Return: the register value.
 */
static __always_inline u32 uncore_read32(const struct uncore_win *win, u32 off)
{
	if (uncore_win_redirected(win))
		return uncore_backend_read(win, off, 4);
	return readl_relaxed(win->base + off);
}

/**
 * uncore_write32 - write a 32-bit register
 * @win: the window
 * @off: register offset in @win
 * @val: the value
 *
 * Relaxed MMIO (no ordering against memory), or the backend's model.
 */
static __always_inline void uncore_write32(const struct uncore_win *win, u32 off, u32 val)
{
	if (uncore_win_redirected(win))
		uncore_backend_write(win, off, val, 4);
	else
		writel_relaxed(val, win->base + off);
}

/**
 * uncore_read64 - read a 64-bit register with a single access
 * @win: the window
 * @off: register offset in @win, 8-byte aligned
 *
 * For registers that support single-copy atomic 64-bit reads; otherwise
 * use uncore_read_hilohi().
 *
 * Return: the register value.
 */
static __always_inline u64 uncore_read64(const struct uncore_win *win, u32 off)
{
	if (uncore_win_redirected(win))
		return uncore_backend_read(win, off, 8);
	return readq_relaxed(win->base + off);
}

/**
 * uncore_write64 - write a 64-bit register with a single access
 * @win: the window
 * @off: register offset in @win, 8-byte aligned
 * @val: the value
 */
static __always_inline void uncore_write64(const struct uncore_win *win, u32 off, u64 val)
{
	if (uncore_win_redirected(win))
		uncore_backend_write(win, off, val, 8);
	else
		writeq_relaxed(val, win->base + off);
}

int uncore_read_hilohi(const struct uncore_win *win, u32 lo, u32 hi, u64 *val);

int uncore_map_resource(struct device *dev, struct resource *res,
			struct uncore_win *win);
int uncore_map_window(struct platform_device *pdev, unsigned int index,
		      struct uncore_win *win, resource_size_t min_size);
int uncore_map_windows(struct platform_device *pdev, struct uncore_win *wins,
		       unsigned int n, resource_size_t min_size);

int uncore_pmu_init(struct uncore_pmu *upmu, struct device *dev,
		    const struct uncore_pmu_desc *desc);
int __devm_uncore_pmu_register(struct uncore_pmu *upmu, const char *name,
			       struct module *owner);
/**
 * devm_uncore_pmu_register - register a PMU, unregistered when @upmu->dev goes
 * @upmu: PMU set up with uncore_pmu_init()
 * @name: PMU name in /sys/bus/event_source/devices
 *
 * Return: 0 or a negative errno; on failure nothing stays registered.
 */
#define devm_uncore_pmu_register(upmu, name) \
	__devm_uncore_pmu_register(upmu, name, THIS_MODULE)

int uncore_pmu_acpi_socket(struct uncore_pmu *upmu, u32 *socket);
bool uncore_pmu_busy(struct uncore_pmu *upmu);

/**
 * uncore_event_shared - does @event read a shared free-running counter
 * @event: an event of an uncore PMU, past event_init
 *
 * Return: true if it takes no counter of its own (%UNCORE_HW_SHARED).
 */
static inline bool uncore_event_shared(const struct perf_event *event)
{
	return event->hw.flags & UNCORE_HW_SHARED;
}

void uncore_pmu_zero_prev_counts(struct uncore_pmu *upmu);
void uncore_pmu_update_unread(struct uncore_pmu *upmu);

#endif /* __UNCORE_PMU_H */
