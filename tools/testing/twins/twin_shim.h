/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Force-included (-include) into every upstream twin driver: its register
 * windows (platform resources, or resources it found itself, as the
 * PCIE-TGT address filter's from _CRS) are mapped through the helper
 * layer, so the test simulator (the layer's register backend) serves them
 * as it serves ours, and its MMIO accessors go through the layer's. A
 * device the firmware gives no overflow interrupt gets the backend's, as
 * our CSPMU engine does. A window mapped by address (devm_ioremap()) goes
 * the same way, and leaves the device's MEM resources as the firmware
 * gave them once the twin lets go of the device (mainline's LLC-TAD
 * probe advances its resource's start past each block it maps).
 * Nothing else of the upstream file is touched. Test-only, never
 * shipped: tools/testing/twins/README.md.
 */
#ifndef __TWIN_SHIM_H
#define __TWIN_SHIM_H

#include <linux/io.h>
#include <linux/platform_device.h>

void __iomem *twin_map(struct platform_device *pdev, unsigned int index,
		       struct resource **res);
void __iomem *twin_map_res(struct device *dev, struct resource *res);
void __iomem *twin_ioremap(struct device *dev, resource_size_t offset,
			   resource_size_t size);
u64 twin_read(const void __iomem *addr, unsigned int bytes);
void twin_write(u64 val, void __iomem *addr, unsigned int bytes);
int twin_irq(struct platform_device *pdev, unsigned int num);

#undef readl
#undef readl_relaxed
#undef readq
#undef readq_relaxed
#undef writel
#undef writel_relaxed
#undef writeq
#undef writeq_relaxed
#define readl(a)		((u32)twin_read(a, 4))
#define readl_relaxed(a)	((u32)twin_read(a, 4))
#define readq(a)		twin_read(a, 8)
#define readq_relaxed(a)	twin_read(a, 8)
#define writel(v, a)		twin_write(v, a, 4)
#define writel_relaxed(v, a)	twin_write(v, a, 4)
#define writeq(v, a)		twin_write(v, a, 8)
#define writeq_relaxed(v, a)	twin_write(v, a, 8)

#define devm_platform_ioremap_resource(pdev, index) \
	twin_map(pdev, index, NULL)
#define devm_platform_get_and_ioremap_resource(pdev, index, res) \
	twin_map(pdev, index, res)
#define devm_ioremap_resource(dev, res)	twin_map_res(dev, res)
#define devm_ioremap(dev, offset, size)	twin_ioremap(dev, offset, size)
#define platform_get_irq_optional(pdev, num)	twin_irq(pdev, num)

#endif /* __TWIN_SHIM_H */
