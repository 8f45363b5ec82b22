// SPDX-License-Identifier: GPL-2.0
/*
 * Shared helper layer for the uncore PMU drivers.
 *
 * A driver describes its PMU type with a const struct uncore_pmu_desc and
 * gets a complete struct pmu: sysfs attributes, the common event checks,
 * counter bookkeeping and a CPU that follows hotplug. Registers are reached
 * through the inline accessors of uncore_pmu.h, which a register backend
 * (the test simulator) may take over for the windows it models.
 */

#define pr_fmt(fmt) "uncore_pmu: " fmt

#include <linux/acpi.h>
#include <linux/cpuhotplug.h>
#include <linux/interrupt.h>
#include <linux/kernel.h>
#include <linux/list.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/perf_event.h>
#include <linux/platform_device.h>
#include <linux/string.h>

#include "uncore_backend.h"
#include "uncore_internal.h"

/* How often a hi-lo-hi read retries before it gives up. */
#define UNCORE_HILOHI_TRIES	8

static enum cpuhp_state uncore_hp_state;

DEFINE_STATIC_KEY_FALSE(uncore_backend_active);
EXPORT_SYMBOL_NS_GPL(uncore_backend_active, UNCORE_PMU);

static DEFINE_MUTEX(uncore_backend_lock);
static const struct uncore_backend *uncore_backend;

/* ---- register backend ---- */

/**
 * uncore_backend_register - let @be serve the register windows it claims
 * @be: the backend
 *
 * Only windows mapped after this call are redirected, so a backend must be
 * registered before the drivers probe. One backend at a time.
 *
 * Return: 0, or -EBUSY if another backend is registered.
 */
int uncore_backend_register(const struct uncore_backend *be)
{
	int ret = 0;

	mutex_lock(&uncore_backend_lock);
	if (uncore_backend) {
		ret = -EBUSY;
	} else {
		WRITE_ONCE(uncore_backend, be);
		static_branch_enable(&uncore_backend_active);
	}
	mutex_unlock(&uncore_backend_lock);
	return ret;
}
EXPORT_SYMBOL_NS_GPL(uncore_backend_register, UNCORE_PMU_BACKEND);

/**
 * uncore_backend_unregister - remove a backend registered earlier
 * @be: the backend
 *
 * A backend module is pinned while any window it serves is mapped, so no
 * window is left redirected to a backend that is gone.
 */
void uncore_backend_unregister(const struct uncore_backend *be)
{
	mutex_lock(&uncore_backend_lock);
	if (uncore_backend == be) {
		static_branch_disable(&uncore_backend_active);
		WRITE_ONCE(uncore_backend, NULL);
	}
	mutex_unlock(&uncore_backend_lock);
}
EXPORT_SYMBOL_NS_GPL(uncore_backend_unregister, UNCORE_PMU_BACKEND);

/**
 * uncore_backend_read - read through the backend (use uncore_read32/64())
 * @win:   a window the backend claimed
 * @off:   register offset
 * @bytes: 4 or 8
 *
 * Return: the register value.
 */
u64 uncore_backend_read(const struct uncore_win *win, u32 off, unsigned int bytes)
{
	return READ_ONCE(uncore_backend)->read(win->phys + off, bytes);
}
EXPORT_SYMBOL_NS_GPL(uncore_backend_read, UNCORE_PMU);

/**
 * uncore_backend_write - write through the backend (use uncore_write32/64())
 * @win:   a window the backend claimed
 * @off:   register offset
 * @val:   value
 * @bytes: 4 or 8
 */
void uncore_backend_write(const struct uncore_win *win, u32 off, u64 val, unsigned int bytes)
{
	READ_ONCE(uncore_backend)->write(win->phys + off, val, bytes);
}
EXPORT_SYMBOL_NS_GPL(uncore_backend_write, UNCORE_PMU);

/**
 * uncore_backend_irq - an interrupt the backend provides for a device
 * @win: the device's first window
 *
 * Return: a Linux IRQ number, or 0 if @win is not redirected or the
 * backend has no interrupt for it.
 */
int uncore_backend_irq(const struct uncore_win *win)
{
	const struct uncore_backend *be = READ_ONCE(uncore_backend);

	if (!uncore_win_redirected(win) || !be->irq)
		return 0;
	return be->irq(win->phys);
}
EXPORT_SYMBOL_NS_GPL(uncore_backend_irq, UNCORE_PMU_BACKEND);

static void uncore_backend_put(void *owner)
{
	module_put(owner);
}

/**
 * uncore_map_resource - request and map a MEM resource for @dev
 * @dev: the device the mapping belongs to (device managed)
 * @res: the resource
 * @win: filled in with the mapping
 *
 * If a register backend claims the physical range, accesses through @win
 * go to the backend.
 *
 * Return: 0 or a negative errno (the resource code prints the reason).
 */
int uncore_map_resource(struct device *dev, struct resource *res,
			struct uncore_win *win)
{
	const struct uncore_backend *be;
	void __iomem *base;
	int ret = 0;

	base = devm_ioremap_resource(dev, res);
	if (IS_ERR(base))
		return PTR_ERR(base);

	win->base = base;
	win->phys = res->start;
	win->backend = false;

	mutex_lock(&uncore_backend_lock);
	be = uncore_backend;
	if (be && be->claims(win->phys, resource_size(res)) && try_module_get(be->owner)) {
		win->backend = true;
		ret = devm_add_action_or_reset(dev, uncore_backend_put, be->owner);
	}
	mutex_unlock(&uncore_backend_lock);
	return ret;
}
EXPORT_SYMBOL_NS_GPL(uncore_map_resource, UNCORE_PMU);

/**
 * uncore_map_window - request and map MEM resource @index of @pdev
 * @pdev:     the platform device
 * @index:    index of the MEM resource
 * @win:      filled in with the mapping
 * @min_size: the window must hold this many bytes (the last register's end)
 *
 * Return: 0, -ENXIO (printed) if firmware gives no such resource, -EINVAL
 * (printed) if it is shorter than @min_size, or uncore_map_resource()'s errno.
 */
int uncore_map_window(struct platform_device *pdev, unsigned int index,
		      struct uncore_win *win, resource_size_t min_size)
{
	struct resource *res = platform_get_resource(pdev, IORESOURCE_MEM, index);

	if (!res)
		return dev_err_probe(&pdev->dev, -ENXIO, "no MEM resource %u\n", index);
	if (resource_size(res) < min_size)
		return dev_err_probe(&pdev->dev, -EINVAL,
				     "MEM resource %u is %#llx bytes, registers need %#llx\n",
				     index, (unsigned long long)resource_size(res),
				     (unsigned long long)min_size);
	return uncore_map_resource(&pdev->dev, res, win);
}
EXPORT_SYMBOL_NS_GPL(uncore_map_window, UNCORE_PMU);

/**
 * uncore_map_windows - map MEM resources 0 to @n - 1 of @pdev, in order
 * @pdev:     the platform device
 * @wins:     @n windows filled in
 * @n:        how many
 * @min_size: the size each must have at least, as for uncore_map_window()
 *
 * Return: 0 or the errno of the first window that failed.
 */
int uncore_map_windows(struct platform_device *pdev, struct uncore_win *wins,
		       unsigned int n, resource_size_t min_size)
{
	unsigned int i;
	int ret;

	for (i = 0; i < n; i++) {
		ret = uncore_map_window(pdev, i, &wins[i], min_size);
		if (ret)
			return ret;
	}
	return 0;
}
EXPORT_SYMBOL_NS_GPL(uncore_map_windows, UNCORE_PMU);

/**
 * uncore_read_hilohi - read a 64-bit counter kept in two 32-bit registers
 * @win: register window
 * @lo:  offset of bits 31:0
 * @hi:  offset of bits 63:32
 * @val: the value read
 *
 * Reads hi, lo, hi until both hi reads agree, at most UNCORE_HILOHI_TRIES
 * times: three reads when the low word does not wrap in between.
 *
 * Return: 0, or -EBUSY if the value never settled (@val is not written, so
 * a caller never folds a torn or made-up value into a count).
 */
int uncore_read_hilohi(const struct uncore_win *win, u32 lo, u32 hi, u64 *val)
{
	u32 h1, h2, l;
	int i;

	h1 = uncore_read32(win, hi);
	for (i = 0; i < UNCORE_HILOHI_TRIES; i++) {
		l = uncore_read32(win, lo);
		h2 = uncore_read32(win, hi);
		if (h1 == h2) {
			*val = (u64)h1 << 32 | l;
			return 0;
		}
		h1 = h2;
	}
	return -EBUSY;
}
EXPORT_SYMBOL_NS_GPL(uncore_read_hilohi, UNCORE_PMU);

/*
 * Messages printed once per PMU, each a bit of &uncore_pmu.warned: a
 * counter read that did not settle (the count was kept), an interrupt
 * that could not follow the active CPU.
 */
enum uncore_pmu_warn {
	UNCORE_WARN_READ,
	UNCORE_WARN_IRQ,
};

__printf(3, 4)
static void uncore_pmu_warn_once(struct uncore_pmu *upmu, enum uncore_pmu_warn what,
				 const char *fmt, ...)
{
	struct va_format vaf;
	va_list args;

	if (test_and_set_bit(what, &upmu->warned))
		return;
	va_start(args, fmt);
	vaf.fmt = fmt;
	vaf.va = &args;
	dev_warn(upmu->dev, "%pV", &vaf);
	va_end(args);
}

/* ---- sysfs ---- */

static struct uncore_pmu *dev_to_uncore_pmu(struct device *dev)
{
	return to_uncore_pmu(dev_get_drvdata(dev));
}

static bool uncore_attr_shown(struct uncore_pmu *upmu, u32 mask)
{
	return !mask || (mask & upmu->attr_mask);
}

/**
 * uncore_format_show - show function of UNCORE_FORMAT_ATTR() entries
 * @dev:  PMU device
 * @attr: the attribute
 * @buf:  output
 *
 * Return: bytes written.
 */
ssize_t uncore_format_show(struct device *dev, struct device_attribute *attr, char *buf)
{
	struct uncore_format_attr *fa = container_of(attr, struct uncore_format_attr, attr);

	return sysfs_emit(buf, "%s\n", fa->spec);
}
EXPORT_SYMBOL_NS_GPL(uncore_format_show, UNCORE_PMU);

/**
 * uncore_event_show - show function of UNCORE_EVENT_ATTR() entries
 * @dev:  PMU device
 * @attr: the attribute
 * @buf:  output
 *
 * Return: bytes written.
 */
ssize_t uncore_event_show(struct device *dev, struct device_attribute *attr, char *buf)
{
	struct uncore_event_attr *ea = container_of(attr, struct uncore_event_attr, attr);
	struct uncore_pmu *upmu = dev_to_uncore_pmu(dev);

	return sysfs_emit(buf, "event=0x%0*llx\n", (int)upmu->desc->event_digits, ea->id);
}
EXPORT_SYMBOL_NS_GPL(uncore_event_show, UNCORE_PMU);

/* Show format and events entries only where the PMU's attr_mask asks. */
static umode_t uncore_attr_visible(struct kobject *kobj, struct attribute *attr, int n)
{
	struct uncore_pmu *upmu = dev_to_uncore_pmu(kobj_to_dev(kobj));
	struct device_attribute *da = container_of(attr, struct device_attribute, attr);
	u32 mask = 0;

	if (da->show == uncore_format_show)
		mask = container_of(da, struct uncore_format_attr, attr)->mask;
	else if (da->show == uncore_event_show)
		mask = container_of(da, struct uncore_event_attr, attr)->mask;

	return uncore_attr_shown(upmu, mask) ? attr->mode : 0;
}

static ssize_t cpumask_show(struct device *dev, struct device_attribute *attr, char *buf)
{
	int cpu = READ_ONCE(dev_to_uncore_pmu(dev)->cpu);

	if (cpu < 0)
		return sysfs_emit(buf, "\n");
	return sysfs_emit(buf, "%d\n", cpu);
}
static DEVICE_ATTR_RO(cpumask);

static ssize_t associated_cpus_show(struct device *dev, struct device_attribute *attr,
				    char *buf)
{
	return sysfs_emit(buf, "%*pbl\n",
			  cpumask_pr_args(&dev_to_uncore_pmu(dev)->associated_cpus));
}
static DEVICE_ATTR_RO(associated_cpus);

static ssize_t identifier_show(struct device *dev, struct device_attribute *attr, char *buf)
{
	return sysfs_emit(buf, "%s\n", dev_to_uncore_pmu(dev)->identifier);
}
static DEVICE_ATTR_RO(identifier);

static struct attribute *uncore_common_attrs[] = {
	&dev_attr_cpumask.attr,
	&dev_attr_associated_cpus.attr,
	&dev_attr_identifier.attr,
	NULL
};

static umode_t uncore_common_visible(struct kobject *kobj, struct attribute *attr, int n)
{
	struct uncore_pmu *upmu = dev_to_uncore_pmu(kobj_to_dev(kobj));

	if (attr == &dev_attr_associated_cpus.attr &&
	    !(upmu->desc->flags & UNCORE_PMU_SHOW_ASSOC))
		return 0;
	if (attr == &dev_attr_identifier.attr && !upmu->identifier)
		return 0;
	return attr->mode;
}

static const struct attribute_group uncore_common_group = {
	.attrs = uncore_common_attrs,
	.is_visible = uncore_common_visible,
};

/* Parse "configN[:lo[-hi]]" into the config word and bit mask it names. */
static int uncore_parse_format(const char *spec, unsigned int *word, u64 *mask)
{
	unsigned int lo, hi;
	const char *p;
	int n, len = 0;

	if (strncmp(spec, "config", 6))
		return -EINVAL;
	p = spec + 6;
	*word = 0;
	if (*p == '1' || *p == '2')
		*word = *p++ - '0';
	if (!*p) {
		*mask = U64_MAX;
		return 0;
	}
	if (*p != ':')
		return -EINVAL;
	/* nothing after the bits: perf would read "config:0-5,8" as 0-5 and 8 */
	n = sscanf(p + 1, "%u%n-%u%n", &lo, &len, &hi, &len);
	if (n == 1)
		hi = lo;
	if (n < 1 || p[1 + len] || hi > 63 || lo > hi)
		return -EINVAL;
	*mask = GENMASK_ULL(hi, lo);
	return 0;
}

static int uncore_pmu_parse_formats(struct uncore_pmu *upmu)
{
	struct attribute **a;

	memset(upmu->cfg_mask, 0, sizeof(upmu->cfg_mask));
	upmu->event_mask = 0;
	for (a = upmu->desc->formats; *a; a++) {
		struct uncore_format_attr *fa;
		unsigned int word;
		u64 mask;

		fa = container_of(*a, struct uncore_format_attr, attr.attr);
		if (!uncore_attr_shown(upmu, fa->mask))
			continue;
		if (uncore_parse_format(fa->spec, &word, &mask)) {
			dev_err(upmu->dev, "bad format %s: %s\n", (*a)->name, fa->spec);
			return -EINVAL;
		}
		upmu->cfg_mask[word] |= mask;
		if (!word && !strcmp((*a)->name, "event"))
			upmu->event_mask = mask;
	}
	return 0;
}

/* ---- event validation ---- */

/* The shown events/ entry of @id, or NULL. */
static const struct uncore_event_attr *
uncore_pmu_event_listed(struct uncore_pmu *upmu, u64 id)
{
	struct attribute **a;

	for (a = upmu->desc->events; *a; a++) {
		const struct uncore_event_attr *ea;

		ea = container_of(*a, struct uncore_event_attr, attr.attr);
		if (ea->id == id && uncore_attr_shown(upmu, ea->mask))
			return ea;
	}
	return NULL;
}

static int uncore_pmu_check_config(struct uncore_pmu *upmu, struct perf_event *event)
{
	const struct perf_event_attr *attr = &event->attr;
	const struct uncore_event_attr *ea;

	if ((attr->config & ~upmu->cfg_mask[0]) ||
	    (attr->config1 & ~upmu->cfg_mask[1]) ||
	    (attr->config2 & ~upmu->cfg_mask[2]))
		return -EINVAL;
	if (upmu->desc->flags & UNCORE_PMU_FREE_RUNNING)
		event->hw.flags |= UNCORE_HW_SHARED;
	if (!(upmu->desc->flags & UNCORE_PMU_FIXED_EVENTS))
		return 0;
	ea = uncore_pmu_event_listed(upmu, attr->config & upmu->event_mask);
	if (!ea)
		return -EINVAL;
	event->hw.event_base = ea->data;
	if (ea->shared)
		event->hw.flags |= UNCORE_HW_SHARED;
	return 0;
}

/*
 * Count group member @m in *@n if it is ours and takes a counter; return
 * true if it belongs to another hardware PMU (the group cannot be
 * scheduled with ours).
 */
static bool uncore_pmu_count_member(struct perf_event *event, struct perf_event *m,
				    unsigned int *n)
{
	if (m->pmu == event->pmu) {
		if (!uncore_event_shared(m))
			(*n)++;
		return false;
	}
	return !is_software_event(m);
}

static int uncore_pmu_validate_group(struct uncore_pmu *upmu, struct perf_event *event)
{
	struct perf_event *leader = event->group_leader, *sib;
	unsigned int n = 0;

	if (uncore_pmu_count_member(event, leader, &n))
		return -EINVAL;
	/*
	 * A new leader has no siblings yet. Only a new sibling is initialised
	 * under the leader's ctx->mutex, which walking the siblings needs.
	 */
	if (leader != event) {
		for_each_sibling_event(sib, leader)
			if (uncore_pmu_count_member(event, sib, &n))
				return -EINVAL;
		if (!uncore_event_shared(event))
			n++;
	}
	if (upmu->num_counters && n > upmu->num_counters)
		return -EINVAL;
	if (upmu->desc->ops->validate_group)
		return upmu->desc->ops->validate_group(event);
	return 0;
}

static int uncore_pmu_event_init(struct perf_event *event)
{
	struct uncore_pmu *upmu = to_uncore_pmu(event->pmu);
	const struct uncore_pmu_ops *ops = upmu->desc->ops;
	int cpu, ret;

	if (event->attr.type != event->pmu->type)
		return -ENOENT;
	if (is_sampling_event(event) || (event->attach_state & PERF_ATTACH_TASK))
		return -EOPNOTSUPP;
	if (event->cpu < 0 || !cpumask_test_cpu(event->cpu, &upmu->associated_cpus))
		return -EINVAL;
	cpu = READ_ONCE(upmu->cpu);
	if (cpu < 0)
		return -EINVAL;

	ret = uncore_pmu_check_config(upmu, event);
	if (!ret && ops->event_init)
		ret = ops->event_init(event);
	if (!ret)
		ret = uncore_pmu_validate_group(upmu, event);
	if (ret)
		return ret;

	event->cpu = cpu;
	event->hw.idx = -1;
	return 0;
}

/* ---- counting ---- */

/**
 * uncore_pmu_event_update - fold the hardware delta into the event count
 * @event: an event of an uncore PMU
 *
 * The delta is taken modulo the counter width. If the driver cannot read a
 * settled value the count is left alone, and the PMU warns once.
 */
void uncore_pmu_event_update(struct perf_event *event)
{
	struct uncore_pmu *upmu = to_uncore_pmu(event->pmu);
	struct hw_perf_event *hwc = &event->hw;
	u64 prev, now;

	do {
		prev = local64_read(&hwc->prev_count);
		if (upmu->desc->ops->read(event, &now)) {
			uncore_pmu_warn_once(upmu, UNCORE_WARN_READ,
					     "counter read did not settle, count kept\n");
			return;
		}
	} while (local64_cmpxchg(&hwc->prev_count, prev, now) != prev);

	local64_add((now - prev) & GENMASK_ULL(upmu->counter_width - 1, 0),
		    &event->count);
}
EXPORT_SYMBOL_NS_GPL(uncore_pmu_event_update, UNCORE_PMU);

/**
 * uncore_pmu_busy - is any event of @upmu scheduled
 * @upmu: the PMU
 *
 * Return: true if at least one event is between pmu->add and pmu->del.
 */
bool uncore_pmu_busy(struct uncore_pmu *upmu)
{
	return !list_empty(&upmu->active);
}
EXPORT_SYMBOL_NS_GPL(uncore_pmu_busy, UNCORE_PMU);

/**
 * uncore_pmu_zero_prev_counts - take every event's next delta from 0
 * @upmu: the PMU, right before its hardware zeroes the counters
 *
 * For shared counters that the hardware zeroes (on a clear command, or
 * when counting is enabled) while the scheduled events are up to date:
 * each takes its next delta from 0.
 */
void uncore_pmu_zero_prev_counts(struct uncore_pmu *upmu)
{
	struct perf_event *event;

	uncore_pmu_for_each_event(upmu, event)
		local64_set(&event->hw.prev_count, 0);
}
EXPORT_SYMBOL_NS_GPL(uncore_pmu_zero_prev_counts, UNCORE_PMU);

/*
 * hw.state bit of an event read in the open read transaction; the layer
 * sets it only there and clears it when the next one starts.
 */
#define UNCORE_HES_TXN_READ	PERF_HES_ARCH

/**
 * uncore_pmu_update_unread - update the events a read transaction left out
 * @upmu: the PMU, frozen, in its read transaction
 *
 * For a thaw that zeroes the counters: the events of the group are up to
 * date already, this brings every other counting event up to date too, so
 * uncore_pmu_zero_prev_counts() loses nothing.
 */
void uncore_pmu_update_unread(struct uncore_pmu *upmu)
{
	struct perf_event *event;

	uncore_pmu_for_each_event(upmu, event)
		if (!(event->hw.state & (PERF_HES_STOPPED | UNCORE_HES_TXN_READ)))
			uncore_pmu_event_update(event);
}
EXPORT_SYMBOL_NS_GPL(uncore_pmu_update_unread, UNCORE_PMU);

/* ---- poll ---- */

/* A hard timer: its callback runs with interrupts off, PREEMPT_RT too. */
#define UNCORE_POLL_MODE	HRTIMER_MODE_REL_PINNED_HARD

/*
 * The poll timer runs on the active CPU, where every perf callback of the
 * PMU runs with interrupts off, as the timer's does: it needs no lock. It
 * is a hard timer, so that this holds under PREEMPT_RT too, where a soft
 * one would run in a thread that pmu->del could preempt mid-walk.
 * Started by pmu->add on that CPU, it stops by itself once no event is
 * scheduled or the active CPU moved; the move re-adds every event on the
 * new CPU, which starts it there.
 */
static enum hrtimer_restart uncore_pmu_poll(struct hrtimer *timer)
{
	struct uncore_pmu *upmu = container_of(timer, struct uncore_pmu, poll_timer);
	const struct uncore_pmu_ops *ops = upmu->desc->ops;
	struct perf_event *event;

	/* what the walk below stands on; a soft timer under PREEMPT_RT breaks it */
	WARN_ON_ONCE(!irqs_disabled());
	if (smp_processor_id() != READ_ONCE(upmu->cpu) || !uncore_pmu_busy(upmu))
		return HRTIMER_NORESTART;
	uncore_pmu_for_each_event(upmu, event) {
		if (event->hw.state & PERF_HES_STOPPED)
			continue;
		uncore_pmu_event_update(event);
		if (ops->poll)
			ops->poll(event);
	}
	hrtimer_forward_now(timer, ns_to_ktime(upmu->poll_ns));
	return HRTIMER_RESTART;
}

/*
 * From pmu->add: (re)start the poll timer here unless it runs here already.
 * After a move, the timer may still be queued on the old CPU, or its
 * callback be running there: hrtimer_start() leaves a timer whose callback
 * runs on the base it runs on, where it would find itself off the active
 * CPU and stop. So it is cancelled first, which waits for that callback
 * (a hard timer's, which takes no lock this CPU could hold).
 */
static void uncore_pmu_poll_arm(struct uncore_pmu *upmu)
{
	int cpu = smp_processor_id();

	if (!upmu->poll_ns)
		return;
	if (upmu->poll_cpu != cpu) {
		hrtimer_cancel(&upmu->poll_timer);
		upmu->poll_cpu = cpu;
	} else if (hrtimer_active(&upmu->poll_timer)) {
		return;
	}
	hrtimer_start(&upmu->poll_timer, ns_to_ktime(upmu->poll_ns), UNCORE_POLL_MODE);
}

static void uncore_pmu_start(struct perf_event *event, int flags)
{
	struct uncore_pmu *upmu = to_uncore_pmu(event->pmu);
	const struct uncore_pmu_ops *ops = upmu->desc->ops;
	struct hw_perf_event *hwc = &event->hw;
	u64 now;

	hwc->state = 0;
	if (uncore_event_shared(event)) {
		if (!ops->read(event, &now))
			local64_set(&hwc->prev_count, now);
	} else if (ops->start) {
		ops->start(event);
	}
	perf_event_update_userpage(event);
}

static void uncore_pmu_stop(struct perf_event *event, int flags)
{
	struct uncore_pmu *upmu = to_uncore_pmu(event->pmu);
	struct hw_perf_event *hwc = &event->hw;

	if (!(hwc->state & PERF_HES_STOPPED)) {
		if (upmu->desc->ops->stop && !uncore_event_shared(event))
			upmu->desc->ops->stop(event);
		hwc->state |= PERF_HES_STOPPED;
	}
	if ((flags & PERF_EF_UPDATE) && !(hwc->state & PERF_HES_UPTODATE)) {
		uncore_pmu_event_update(event);
		hwc->state |= PERF_HES_UPTODATE;
	}
}

static int uncore_pmu_get_counter(struct uncore_pmu *upmu, struct perf_event *event)
{
	unsigned int idx = find_first_zero_bit(upmu->used, upmu->num_counters);

	if (idx >= upmu->num_counters)
		return -EAGAIN;
	set_bit(idx, upmu->used);
	return idx;
}

static int uncore_pmu_add(struct perf_event *event, int flags)
{
	struct uncore_pmu *upmu = to_uncore_pmu(event->pmu);
	const struct uncore_pmu_ops *ops = upmu->desc->ops;
	struct hw_perf_event *hwc = &event->hw;
	int idx = -1;

	if (!uncore_event_shared(event)) {
		idx = ops->get_counter ? ops->get_counter(upmu, event) :
					 uncore_pmu_get_counter(upmu, event);
		if (idx < 0)
			return idx;
		upmu->events[idx] = event;
	}
	list_add_tail(&event->active_entry, &upmu->active);
	uncore_pmu_poll_arm(upmu);
	hwc->idx = idx;
	hwc->state = PERF_HES_STOPPED | PERF_HES_UPTODATE;
	if (flags & PERF_EF_START)
		uncore_pmu_start(event, PERF_EF_RELOAD);
	perf_event_update_userpage(event);
	return 0;
}

static void uncore_pmu_del(struct perf_event *event, int flags)
{
	struct uncore_pmu *upmu = to_uncore_pmu(event->pmu);
	struct hw_perf_event *hwc = &event->hw;

	uncore_pmu_stop(event, PERF_EF_UPDATE);
	list_del_init(&event->active_entry);
	if (hwc->idx >= 0) {
		if (upmu->desc->ops->put_counter)
			upmu->desc->ops->put_counter(upmu, event);
		upmu->events[hwc->idx] = NULL;
		clear_bit(hwc->idx, upmu->used);
	}
	hwc->idx = -1;
	perf_event_update_userpage(event);
}

static void uncore_pmu_read(struct perf_event *event)
{
	struct uncore_pmu *upmu = to_uncore_pmu(event->pmu);

	if (upmu->txn_flags & PERF_PMU_TXN_READ)
		event->hw.state |= UNCORE_HES_TXN_READ;
	uncore_pmu_event_update(event);
}

/*
 * Transactions. Every event of an uncore PMU is on its active CPU, where
 * perf opens and closes them with interrupts off, so they never overlap
 * and one set of flags per PMU is enough.
 *
 * A read transaction freezes the counters while perf reads a group, so the
 * group is one snapshot. An add transaction needs nothing: perf schedules
 * groups inside pmu_disable/pmu_enable already (and perf_pmu_disable(),
 * which perf's own add transaction calls, is not exported to modules).
 */
/* Counting, for freeze and thaw: always, unless the driver's run op is off. */
static bool uncore_pmu_counting(struct uncore_pmu *upmu)
{
	return !upmu->desc->ops->run || upmu->running;
}

static void uncore_pmu_start_txn(struct pmu *pmu, unsigned int flags)
{
	struct uncore_pmu *upmu = to_uncore_pmu(pmu);
	struct perf_event *event;

	upmu->txn_flags = flags;
	if ((flags & PERF_PMU_TXN_READ) && uncore_pmu_counting(upmu)) {
		uncore_pmu_for_each_event(upmu, event)
			event->hw.state &= ~UNCORE_HES_TXN_READ;
		upmu->desc->ops->freeze(upmu);
	}
}

static int uncore_pmu_commit_txn(struct pmu *pmu)
{
	struct uncore_pmu *upmu = to_uncore_pmu(pmu);

	if ((upmu->txn_flags & PERF_PMU_TXN_READ) && uncore_pmu_counting(upmu))
		upmu->desc->ops->thaw(upmu);
	upmu->txn_flags = 0;
	return 0;
}

static void uncore_pmu_cancel_txn(struct pmu *pmu)
{
	uncore_pmu_commit_txn(pmu);
}

/*
 * perf needs both callbacks or neither; a driver may give just one. The
 * run op sees the PMU go from no scheduled event to some and back: perf
 * adds and deletes events between pmu_disable and pmu_enable, so the
 * change is known here, once per scheduling round.
 */
static void uncore_pmu_enable(struct pmu *pmu)
{
	struct uncore_pmu *upmu = to_uncore_pmu(pmu);
	const struct uncore_pmu_ops *ops = upmu->desc->ops;
	bool busy;

	if (ops->run) {
		busy = uncore_pmu_busy(upmu);
		if (busy != upmu->running) {
			ops->run(upmu, busy);
			upmu->running = busy;
		}
	}
	if (ops->enable)
		ops->enable(upmu);
}

static void uncore_pmu_disable(struct pmu *pmu)
{
	struct uncore_pmu *upmu = to_uncore_pmu(pmu);

	if (upmu->desc->ops->disable)
		upmu->desc->ops->disable(upmu);
}

/* ---- CPU hotplug ---- */

static void uncore_pmu_set_cpu(struct uncore_pmu *upmu, int cpu)
{
	WRITE_ONCE(upmu->cpu, cpu);
	if (cpu >= 0 && upmu->irq > 0 && uncore_irq_set_affinity(upmu->irq, cpumask_of(cpu)))
		uncore_pmu_warn_once(upmu, UNCORE_WARN_IRQ,
				     "cannot move IRQ %d to CPU %d\n", upmu->irq, cpu);
}

/*
 * Move the active CPU to @to with its events. The PMU is registered before
 * its hotplug instance is added, so there is always a perf context.
 */
static void uncore_pmu_move(struct uncore_pmu *upmu, int to)
{
	perf_pmu_migrate_context(&upmu->pmu, upmu->cpu, to);
	uncore_pmu_set_cpu(upmu, to);
}

static bool uncore_pmu_local(struct uncore_pmu *upmu, unsigned int cpu)
{
	return upmu->node == NUMA_NO_NODE || cpu_to_node(cpu) == upmu->node;
}

static int uncore_cpu_online(unsigned int cpu, struct hlist_node *node)
{
	struct uncore_pmu *upmu = hlist_entry_safe(node, struct uncore_pmu, hp_node);

	if (!cpumask_test_cpu(cpu, &upmu->associated_cpus))
		return 0;
	if (upmu->cpu < 0)
		uncore_pmu_set_cpu(upmu, cpu);
	else if (!uncore_pmu_local(upmu, upmu->cpu) && uncore_pmu_local(upmu, cpu))
		uncore_pmu_move(upmu, cpu);
	return 0;
}

static int uncore_cpu_teardown(unsigned int cpu, struct hlist_node *node)
{
	struct uncore_pmu *upmu = hlist_entry_safe(node, struct uncore_pmu, hp_node);
	unsigned int t, target = nr_cpu_ids;

	if (upmu->cpu != cpu)
		return 0;

	/* Another online associated CPU, on the PMU's own node if possible. */
	for_each_cpu_and(t, &upmu->associated_cpus, cpu_online_mask) {
		if (t == cpu)
			continue;
		if (uncore_pmu_local(upmu, t)) {
			target = t;
			break;
		}
		if (target >= nr_cpu_ids)
			target = t;
	}

	if (target < nr_cpu_ids)
		uncore_pmu_move(upmu, target);
	else
		uncore_pmu_set_cpu(upmu, -1);
	return 0;
}

/* ---- registration ---- */

/**
 * uncore_pmu_init - set up @upmu with defaults before the driver adjusts it
 * @upmu: the PMU, usually embedded in the driver's own struct
 * @dev:  the device it belongs to
 * @desc: its type description
 *
 * Defaults: every possible CPU is associated, the preferred node is the
 * device's, no IRQ, no identifier, attr_mask 0, the type's counters and width.
 *
 * Return: 0, or -EINVAL (and a warning) for a malformed @desc.
 */
int uncore_pmu_init(struct uncore_pmu *upmu, struct device *dev,
		    const struct uncore_pmu_desc *desc)
{
	const struct attribute_group *const *g;
	unsigned int groups = 0;
	bool free_running = desc->flags & UNCORE_PMU_FREE_RUNNING;

	for (g = desc->extra_groups; g && *g; g++)
		groups++;
	/*
	 * A driver's mistake, not the firmware's: loud, once. A free-running
	 * PMU has no counters to hand out, and nothing to start or stop.
	 */
	if (WARN_ONCE(!desc->ops || !desc->ops->read || !desc->formats || !desc->events ||
		      desc->counter_width < 1 || desc->counter_width > 64 ||
		      desc->num_counters > UNCORE_PMU_MAX_COUNTERS ||
		      groups > UNCORE_PMU_MAX_EXTRA_GROUPS ||
		      (free_running && (desc->num_counters || desc->ops->start ||
					desc->ops->stop || desc->ops->get_counter ||
					desc->ops->put_counter)),
		      "%s: malformed uncore_pmu_desc\n", dev_name(dev)))
		return -EINVAL;

	memset(upmu, 0, sizeof(*upmu));
	upmu->dev = dev;
	upmu->desc = desc;
	upmu->cpu = -1;
	upmu->irq = -1;
	upmu->node = dev_to_node(dev);
	upmu->num_counters = desc->num_counters;
	upmu->counter_width = desc->counter_width;
	cpumask_copy(&upmu->associated_cpus, cpu_possible_mask);
	INIT_LIST_HEAD(&upmu->active);
	return 0;
}
EXPORT_SYMBOL_NS_GPL(uncore_pmu_init, UNCORE_PMU);

/**
 * uncore_pmu_acpi_socket - associate @upmu with the socket its _UID names
 * @upmu:   the PMU, set up with uncore_pmu_init()
 * @socket: the socket number from the ACPI companion's _UID (decimal or
 *          0x hex), which is also the NUMA node of the socket's CPUs
 *
 * The PMU's associated CPUs become the socket's, and its node the socket.
 *
 * Return: 0, -ENODEV without companion, _UID or a possible CPU on that
 * node, or the parse error; the reason is printed.
 */
int uncore_pmu_acpi_socket(struct uncore_pmu *upmu, u32 *socket)
{
	struct acpi_device *adev = ACPI_COMPANION(upmu->dev);
	const char *uid = adev ? acpi_device_uid(adev) : NULL;
	unsigned int cpu;
	int ret;

	if (!uid)
		return dev_err_probe(upmu->dev, -ENODEV, "firmware gives no _UID\n");
	ret = kstrtou32(uid, 0, socket);
	if (ret)
		return dev_err_probe(upmu->dev, ret, "_UID \"%s\" is not a socket number\n", uid);
	cpumask_clear(&upmu->associated_cpus);
	for_each_possible_cpu(cpu)
		if (cpu_to_node(cpu) == *socket)
			cpumask_set_cpu(cpu, &upmu->associated_cpus);
	if (cpumask_empty(&upmu->associated_cpus))
		return dev_err_probe(upmu->dev, -ENODEV, "no CPU on NUMA node %u\n", *socket);
	upmu->node = *socket;
	return 0;
}
EXPORT_SYMBOL_NS_GPL(uncore_pmu_acpi_socket, UNCORE_PMU);

/*
 * PMUs registered through this layer. A name in use here (firmware that
 * gives two devices one PMU name) is refused before perf core passes it
 * on to sysfs, which would refuse it too, but only after a warning with
 * a stack dump. Other drivers' PMU names are not seen here.
 */
static DEFINE_MUTEX(uncore_pmus_lock);
static LIST_HEAD(uncore_pmus);

static int uncore_pmu_add_named(struct uncore_pmu *upmu, const char *name)
{
	struct uncore_pmu *p;
	int ret;

	mutex_lock(&uncore_pmus_lock);
	list_for_each_entry(p, &uncore_pmus, entry) {
		if (!strcmp(p->pmu.name, name)) {
			ret = -EEXIST;
			goto unlock;
		}
	}
	ret = perf_pmu_register(&upmu->pmu, name, -1);
	if (!ret)
		list_add_tail(&upmu->entry, &uncore_pmus);
unlock:
	mutex_unlock(&uncore_pmus_lock);
	return ret;
}

static void uncore_pmu_del_named(struct uncore_pmu *upmu)
{
	mutex_lock(&uncore_pmus_lock);
	list_del(&upmu->entry);
	perf_pmu_unregister(&upmu->pmu);
	mutex_unlock(&uncore_pmus_lock);
}

static void uncore_pmu_unregister(void *data)
{
	struct uncore_pmu *upmu = data;

	cpuhp_state_remove_instance_nocalls(uncore_hp_state, &upmu->hp_node);
	/*
	 * The driver requested the interrupt before registering (the hotplug
	 * callbacks move it), so its devres frees it after this action.
	 */
	if (upmu->irq > 0)
		uncore_irq_clear_affinity(upmu->irq);
	uncore_pmu_del_named(upmu);
	if (upmu->poll_ns)
		hrtimer_cancel(&upmu->poll_timer);
}

static void uncore_pmu_fill(struct uncore_pmu *upmu, struct module *owner)
{
	const struct uncore_pmu_desc *desc = upmu->desc;
	const struct attribute_group *const *g;
	unsigned int n = 0;

	upmu->format_group = (struct attribute_group) {
		.name = "format",
		.attrs = desc->formats,
		.is_visible = uncore_attr_visible,
	};
	upmu->events_group = (struct attribute_group) {
		.name = "events",
		.attrs = desc->events,
		.is_visible = uncore_attr_visible,
	};
	upmu->groups[n++] = &upmu->format_group;
	upmu->groups[n++] = &upmu->events_group;
	upmu->groups[n++] = &uncore_common_group;
	/* uncore_pmu_init() refused more than UNCORE_PMU_MAX_EXTRA_GROUPS */
	for (g = desc->extra_groups; g && *g; g++)
		upmu->groups[n++] = *g;
	upmu->groups[n] = NULL;

	upmu->pmu = (struct pmu) {
		.module		= owner,
		.task_ctx_nr	= perf_invalid_context,
		.capabilities	= desc->capabilities | PERF_PMU_CAP_NO_EXCLUDE,
		.attr_groups	= upmu->groups,
		.event_init	= uncore_pmu_event_init,
		.add		= uncore_pmu_add,
		.del		= uncore_pmu_del,
		.start		= uncore_pmu_start,
		.stop		= uncore_pmu_stop,
		.read		= uncore_pmu_read,
	};
	if (desc->ops->run || desc->ops->enable || desc->ops->disable) {
		upmu->pmu.pmu_enable = uncore_pmu_enable;
		upmu->pmu.pmu_disable = uncore_pmu_disable;
	}
	if (desc->ops->freeze && desc->ops->thaw) {
		upmu->pmu.start_txn = uncore_pmu_start_txn;
		upmu->pmu.commit_txn = uncore_pmu_commit_txn;
		upmu->pmu.cancel_txn = uncore_pmu_cancel_txn;
	}
	uncore_compat_set_parent(&upmu->pmu, upmu->dev);
}

/**
 * __devm_uncore_pmu_register - use devm_uncore_pmu_register()
 * @upmu:  PMU set up with uncore_pmu_init()
 * @name:  PMU name
 * @owner: the driver module, pinned while events are open
 *
 * Return: 0 or a negative errno (-EEXIST: a PMU of this layer has @name);
 * on failure nothing stays registered.
 */
int __devm_uncore_pmu_register(struct uncore_pmu *upmu, const char *name,
			       struct module *owner)
{
	int ret;

	if (cpumask_empty(&upmu->associated_cpus))
		return -ENODEV;
	ret = uncore_pmu_parse_formats(upmu);
	if (ret)
		return ret;
	uncore_pmu_fill(upmu, owner);
	if (upmu->poll_ns)
		uncore_hrtimer_setup(&upmu->poll_timer, uncore_pmu_poll, CLOCK_MONOTONIC,
				     UNCORE_POLL_MODE);

	/*
	 * Register first: until the hotplug instance picks a CPU, event_init
	 * refuses events, and once it has, migration always has a context.
	 */
	ret = uncore_pmu_add_named(upmu, name);
	if (ret)
		return ret;
	ret = cpuhp_state_add_instance(uncore_hp_state, &upmu->hp_node);
	if (ret) {
		if (upmu->irq > 0)
			uncore_irq_clear_affinity(upmu->irq);
		uncore_pmu_del_named(upmu);
		return ret;
	}
	return devm_add_action_or_reset(upmu->dev, uncore_pmu_unregister, upmu);
}
EXPORT_SYMBOL_NS_GPL(__devm_uncore_pmu_register, UNCORE_PMU);

static int __init uncore_pmu_module_init(void)
{
	int ret;

	ret = cpuhp_setup_state_multi(CPUHP_AP_ONLINE_DYN, "perf/uncore_pmu:online",
				      uncore_cpu_online, uncore_cpu_teardown);
	if (ret < 0)
		return ret;
	uncore_hp_state = ret;
	return 0;
}

static void __exit uncore_pmu_module_exit(void)
{
	cpuhp_remove_multi_state(uncore_hp_state);
}

module_init(uncore_pmu_module_init);
module_exit(uncore_pmu_module_exit);

MODULE_DESCRIPTION("Helper layer for uncore perf PMU drivers");
MODULE_LICENSE("GPL");
MODULE_VERSION(UNCORE_PMU_VERSION);
