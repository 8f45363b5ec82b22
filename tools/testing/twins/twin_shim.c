// SPDX-License-Identifier: GPL-2.0
/*
 * twin_shim.ko: the register windows of the upstream twin drivers, mapped
 * with uncore_map_resource() and looked up by address on every access, so
 * that a twin reads and writes the test simulator's model (or the real
 * registers, where no backend claims them) through the helper layer's
 * accessors. Test-only, never shipped: tools/testing/twins/README.md.
 */
#include <linux/device.h>
#include <linux/err.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/platform_device.h>
#include <linux/rculist.h>
#include <linux/slab.h>

#include "uncore_compat.h"
#include "uncore_backend.h"
/* last: its accessor macros must not reach the headers above */
#include "twin_shim.h"

struct twin_win {
	struct list_head node;
	struct uncore_win win;
	resource_size_t size;
	struct rcu_head rcu;
};

static LIST_HEAD(twin_wins);		/* RCU readers; writers take twin_lock */
static DEFINE_MUTEX(twin_lock);

static void twin_unmap(void *data)
{
	struct twin_win *tw = data;

	mutex_lock(&twin_lock);
	list_del_rcu(&tw->node);
	mutex_unlock(&twin_lock);
	kfree_rcu(tw, rcu);
}

/**
 * twin_map_res - map @res for @dev through the helper layer
 * @dev: the twin's device (the mapping is device managed)
 * @res: a MEM resource
 *
 * Return: the mapping's address, or an IOMEM_ERR_PTR().
 */
void __iomem *twin_map_res(struct device *dev, struct resource *res)
{
	struct twin_win *tw;
	int ret;

	tw = kzalloc_obj(*tw, GFP_KERNEL);
	if (!tw)
		return IOMEM_ERR_PTR(-ENOMEM);
	tw->size = resource_size(res);
	ret = uncore_map_resource(dev, res, &tw->win);
	if (ret) {
		kfree(tw);
		return IOMEM_ERR_PTR(ret);
	}
	mutex_lock(&twin_lock);
	list_add_rcu(&tw->node, &twin_wins);
	mutex_unlock(&twin_lock);
	ret = devm_add_action_or_reset(dev, twin_unmap, tw);
	if (ret)
		return IOMEM_ERR_PTR(ret);
	return tw->win.base;
}
EXPORT_SYMBOL_GPL(twin_map_res);

/* the MEM resources of a twin's platform device as its probe found them */
struct twin_res_saved {
	struct platform_device *pdev;
	unsigned int n;
	resource_size_t start[];
};

static void twin_res_put_back(void *data)
{
	struct twin_res_saved *saved = data;
	unsigned int i;

	for (i = 0; i < saved->n; i++)
		saved->pdev->resource[i].start = saved->start[i];
}

static void twin_res_release(struct device *dev, void *data)
{
}

/*
 * The resources of @dev (a platform device) as they are now, saved at the
 * first twin_ioremap() of a probe: the first of the device's mappings, so
 * the resources are as the firmware gave them.
 */
static struct twin_res_saved *twin_res_save(struct device *dev)
{
	struct platform_device *pdev;
	struct twin_res_saved *saved;
	unsigned int i;

	saved = devres_find(dev, twin_res_release, NULL, NULL);
	if (saved || !dev_is_platform(dev))
		return saved;
	pdev = to_platform_device(dev);
	saved = devres_alloc(twin_res_release,
			     struct_size(saved, start, pdev->num_resources), GFP_KERNEL);
	if (!saved)
		return NULL;
	saved->pdev = pdev;
	saved->n = pdev->num_resources;
	for (i = 0; i < saved->n; i++)
		saved->start[i] = pdev->resource[i].start;
	devres_add(dev, saved);
	return saved;
}

/**
 * twin_ioremap - a twin's devm_ioremap(): map [@offset, @offset + @size)
 * @dev:    the twin's device (the mapping is device managed)
 * @offset: physical address
 * @size:   bytes
 *
 * Mapped through the helper layer as twin_map_res() maps a resource. The
 * device's MEM resources are put back as they were at its first mapping
 * before any of its mappings goes (device-managed actions run last added
 * first), so a driver that moves them leaves the device as it found it.
 *
 * Return: the mapping's address, or NULL (devm_ioremap()'s failure).
 */
void __iomem *twin_ioremap(struct device *dev, resource_size_t offset,
			   resource_size_t size)
{
	struct resource res = DEFINE_RES_MEM(offset, size);
	struct twin_res_saved *saved = twin_res_save(dev);
	void __iomem *base;

	base = twin_map_res(dev, &res);
	if (IS_ERR(base))
		return NULL;
	if (saved && devm_add_action_or_reset(dev, twin_res_put_back, saved))
		return NULL;
	return base;
}
EXPORT_SYMBOL_GPL(twin_ioremap);

/**
 * twin_map - map MEM resource @index of @pdev through the helper layer
 * @pdev:  the twin's device
 * @index: the resource's index among the MEM resources
 * @res:   if not NULL, set to the resource
 *
 * Return: the mapping's address, or an IOMEM_ERR_PTR().
 */
void __iomem *twin_map(struct platform_device *pdev, unsigned int index,
		       struct resource **res)
{
	struct resource *r = platform_get_resource(pdev, IORESOURCE_MEM, index);
	void __iomem *base;

	if (!r)
		return IOMEM_ERR_PTR(-EINVAL);
	base = twin_map_res(&pdev->dev, r);
	if (!IS_ERR(base) && res)
		*res = r;
	return base;
}
EXPORT_SYMBOL_GPL(twin_map);

/**
 * twin_irq - a twin's platform_get_irq_optional()
 * @pdev: the twin's device
 * @num:  the interrupt's index
 *
 * Where the firmware gives the device no interrupt, the register backend
 * may have one for the window of its first MEM resource (the simulator
 * hands CoreSight PMUs without an APMT interrupt one of its own): the one
 * our CSPMU engine takes there too, so both count wraps the same way.
 *
 * Return: the Linux IRQ number, or a negative errno (-ENXIO for none).
 */
int twin_irq(struct platform_device *pdev, unsigned int num)
{
	struct resource *r = platform_get_resource(pdev, IORESOURCE_MEM, 0);
	const struct twin_win *tw;
	/* the function itself, not twin_shim.h's macro */
	int irq = (platform_get_irq_optional)(pdev, num);

	if (irq != -ENXIO || num || !r)
		return irq;
	/* probe time, not the access path: the writers' mutex will do */
	mutex_lock(&twin_lock);
	list_for_each_entry(tw, &twin_wins, node) {
		if (tw->win.phys == r->start) {
			irq = uncore_backend_irq(&tw->win) ?: -ENXIO;
			break;
		}
	}
	mutex_unlock(&twin_lock);
	return irq;
}
EXPORT_SYMBOL_GPL(twin_irq);

/* The window holding [@addr, @addr + @bytes), and the offset in it. */
static const struct uncore_win *twin_find(const void __iomem *addr,
					  unsigned int bytes, u32 *off)
{
	const struct twin_win *tw;

	list_for_each_entry_rcu(tw, &twin_wins, node) {
		unsigned long d = (unsigned long)addr - (unsigned long)tw->win.base;

		if ((unsigned long)addr >= (unsigned long)tw->win.base &&
		    d + bytes <= tw->size) {
			*off = d;
			return &tw->win;
		}
	}
	return NULL;
}

/**
 * twin_read - a twin's readl()/readq()
 * @addr:  the register's address in a mapping of twin_map()
 * @bytes: 4 or 8
 *
 * Return: the register's value; all ones, with a warning, for an address
 * outside every mapping.
 */
u64 twin_read(const void __iomem *addr, unsigned int bytes)
{
	const struct uncore_win *win;
	u64 val = U64_MAX;
	u32 off;

	rcu_read_lock();
	win = twin_find(addr, bytes, &off);
	if (win)
		val = bytes == 8 ? uncore_read64(win, off) : uncore_read32(win, off);
	rcu_read_unlock();
	WARN_ONCE(!win, "twin_shim: read outside the mapped windows\n");
	return bytes == 8 ? val : (u32)val;
}
EXPORT_SYMBOL_GPL(twin_read);

/**
 * twin_write - a twin's writel()/writeq()
 * @val:   the value
 * @addr:  the register's address in a mapping of twin_map()
 * @bytes: 4 or 8
 */
void twin_write(u64 val, void __iomem *addr, unsigned int bytes)
{
	const struct uncore_win *win;
	u32 off;

	rcu_read_lock();
	win = twin_find(addr, bytes, &off);
	if (win && bytes == 8)
		uncore_write64(win, off, val);
	else if (win)
		uncore_write32(win, off, val);
	rcu_read_unlock();
	WARN_ONCE(!win, "twin_shim: write outside the mapped windows\n");
}
EXPORT_SYMBOL_GPL(twin_write);

MODULE_DESCRIPTION("Test-only: upstream twin drivers on the uncore helper layer");
MODULE_LICENSE("GPL");
UNCORE_IMPORT_NS();
UNCORE_BACKEND_IMPORT_NS();
