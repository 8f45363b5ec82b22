/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Arm Performance Monitoring Table (APMT) node layout, as firmware lays it
 * out (Arm DEN0117). Kernels before 6.2 have no definition of it, so the
 * helper layer keeps its own; the layout is the ABI, not the kernel's name.
 */
#ifndef __UNCORE_APMT_H
#define __UNCORE_APMT_H

#include <linux/types.h>

/* The platform devices APMT nodes become, as the kernel's parser names them. */
#define UNCORE_APMT_DEV_NAME		"arm-cs-arch-pmu"

#define UNCORE_APMT_NODE_LEN		56

/* uncore_apmt_node.flags */
#define UNCORE_APMT_DUAL_PAGE		BIT(0)
#define UNCORE_APMT_AFFINITY_CONTAINER	BIT(1)
#define UNCORE_APMT_ATOMIC		BIT(2)

/*
 * uncore_apmt_node.type: 0 memory controller, 1 SMMU, 2 PCIe root complex,
 * 3 ACPI device, 4 cache; the kernel knows no other.
 */
#define UNCORE_APMT_TYPE_ACPI		3
#define UNCORE_APMT_TYPE_COUNT		5

/* uncore_apmt_node.ovflw_irq_flags */
#define UNCORE_APMT_IRQ_EDGE		BIT(0)

/**
 * struct uncore_apmt_node - one APMT node (little-endian, packed)
 * @length:          node length in bytes
 * @flags:           UNCORE_APMT_DUAL_PAGE, _AFFINITY_CONTAINER, _ATOMIC
 * @type:            UNCORE_APMT_TYPE_*
 * @id:              unique id, the platform device id
 * @inst_primary:    type ACPI: the HID as 8 ASCII bytes
 * @inst_secondary:  type ACPI: the UID as an integer
 * @base_address0:   page 0
 * @base_address1:   page 1, with UNCORE_APMT_DUAL_PAGE
 * @ovflw_irq:       overflow interrupt GSI, 0 for none
 * @reserved:        reserved
 * @ovflw_irq_flags: UNCORE_APMT_IRQ_EDGE or level
 * @proc_affinity:   ACPI processor UID, or processor container UID
 * @impl_id:         PMIIDR override, 0 to read the hardware
 *
 * A platform device made from a node carries a pointer to the node (in
 * the permanently mapped table) as its platform data.
 */
struct uncore_apmt_node {
	__le16 length;
	u8 flags;
	u8 type;
	__le32 id;
	__le64 inst_primary;
	__le32 inst_secondary;
	__le64 base_address0;
	__le64 base_address1;
	__le32 ovflw_irq;
	__le32 reserved;
	__le32 ovflw_irq_flags;
	__le32 proc_affinity;
	__le32 impl_id;
} __packed;

#endif /* __UNCORE_APMT_H */
