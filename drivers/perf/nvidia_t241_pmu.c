// SPDX-License-Identifier: GPL-2.0
/*
 * NVIDIA Tegra241 (Grace) PMUs: the Scalable Coherency Fabric (SCF), and
 * the memory traffic of PCIe, of the two NVLink-C2C links and of CNVLink,
 * each filtered by the port it comes in on. CoreSight PMUs enumerated from
 * the APMT, one per socket each; the helper layer's CSPMU engine counts,
 * this file gives their names, events and filter fields.
 */

#include <linux/module.h>

#include "uncore_cspmu.h"

/* Filters, config1 to PMEVFILTR: bit n selects port n, none means all. */
#define T241_PCIE_ROOT_PORTS	GENMASK(9, 0)
#define T241_C2C_PORTS		GENMASK(1, 0)
#define T241_CNVLINK_SOCKETS	GENMASK(3, 0)

static struct attribute *scf_formats[] = {
	UNCORE_FORMAT_ATTR(event, "config:0-32"),
	NULL
};

static struct attribute *pcie_formats[] = {
	UNCORE_FORMAT_ATTR(event, "config:0-32"),
	UNCORE_FORMAT_ATTR(root_port, "config1:0-9"),
	NULL
};

static struct attribute *c2c_formats[] = {
	UNCORE_FORMAT_ATTR(event, "config:0-32"),
	UNCORE_FORMAT_ATTR(port, "config1:0-1"),
	NULL
};

static struct attribute *cnvlink_formats[] = {
	UNCORE_FORMAT_ATTR(event, "config:0-32"),
	UNCORE_FORMAT_ATTR(rem_socket, "config1:0-3"),
	NULL
};

static struct attribute *scf_events[] = {
	UNCORE_EVENT_ATTR(bus_cycles, 0x1d),
	UNCORE_EVENT_ATTR(scf_cache_allocate, 0xf0),
	UNCORE_EVENT_ATTR(scf_cache_refill, 0xf1),
	UNCORE_EVENT_ATTR(scf_cache, 0xf2),
	UNCORE_EVENT_ATTR(scf_cache_wb, 0xf3),
	UNCORE_EVENT_ATTR(socket_0_rd_data, 0x101),
	UNCORE_EVENT_ATTR(socket_1_rd_data, 0x102),
	UNCORE_EVENT_ATTR(socket_2_rd_data, 0x103),
	UNCORE_EVENT_ATTR(socket_3_rd_data, 0x104),
	UNCORE_EVENT_ATTR(socket_0_wb_data, 0x109),
	UNCORE_EVENT_ATTR(socket_1_wb_data, 0x10a),
	UNCORE_EVENT_ATTR(socket_2_wb_data, 0x10b),
	UNCORE_EVENT_ATTR(socket_3_wb_data, 0x10c),
	UNCORE_EVENT_ATTR(socket_0_rd_outstanding, 0x115),
	UNCORE_EVENT_ATTR(socket_1_rd_outstanding, 0x116),
	UNCORE_EVENT_ATTR(socket_2_rd_outstanding, 0x117),
	UNCORE_EVENT_ATTR(socket_3_rd_outstanding, 0x118),
	UNCORE_EVENT_ATTR(socket_0_rd_access, 0x12d),
	UNCORE_EVENT_ATTR(socket_1_rd_access, 0x12e),
	UNCORE_EVENT_ATTR(socket_2_rd_access, 0x12f),
	UNCORE_EVENT_ATTR(socket_3_rd_access, 0x130),
	UNCORE_EVENT_ATTR(socket_0_wb_access, 0x135),
	UNCORE_EVENT_ATTR(socket_1_wb_access, 0x136),
	UNCORE_EVENT_ATTR(socket_2_wb_access, 0x137),
	UNCORE_EVENT_ATTR(socket_3_wb_access, 0x138),
	UNCORE_EVENT_ATTR(socket_0_wr_access, 0x139),
	UNCORE_EVENT_ATTR(socket_1_wr_access, 0x13a),
	UNCORE_EVENT_ATTR(socket_2_wr_access, 0x13b),
	UNCORE_EVENT_ATTR(socket_3_wr_access, 0x13c),
	UNCORE_EVENT_ATTR(gmem_rd_data, 0x16d),
	UNCORE_EVENT_ATTR(gmem_rd_access, 0x16e),
	UNCORE_EVENT_ATTR(gmem_rd_outstanding, 0x16f),
	UNCORE_EVENT_ATTR(gmem_wb_data, 0x173),
	UNCORE_EVENT_ATTR(gmem_wb_access, 0x174),
	UNCORE_EVENT_ATTR(gmem_wr_data, 0x179),
	UNCORE_EVENT_ATTR(gmem_wr_access, 0x17b),
	UNCORE_EVENT_ATTR(socket_0_wr_data, 0x17c),
	UNCORE_EVENT_ATTR(socket_1_wr_data, 0x17d),
	UNCORE_EVENT_ATTR(socket_2_wr_data, 0x17e),
	UNCORE_EVENT_ATTR(socket_3_wr_data, 0x17f),
	UNCORE_EVENT_ATTR(gmem_wr_total_bytes, 0x1a0),
	UNCORE_EVENT_ATTR(remote_socket_wr_total_bytes, 0x1a1),
	UNCORE_EVENT_ATTR(remote_socket_rd_data, 0x1a2),
	UNCORE_EVENT_ATTR(remote_socket_rd_outstanding, 0x1a3),
	UNCORE_EVENT_ATTR(remote_socket_rd_access, 0x1a4),
	UNCORE_EVENT_ATTR(cmem_rd_data, 0x1a5),
	UNCORE_EVENT_ATTR(cmem_rd_access, 0x1a6),
	UNCORE_EVENT_ATTR(cmem_rd_outstanding, 0x1a7),
	UNCORE_EVENT_ATTR(cmem_wb_data, 0x1ab),
	UNCORE_EVENT_ATTR(cmem_wb_access, 0x1ac),
	UNCORE_EVENT_ATTR(cmem_wr_data, 0x1b1),
	UNCORE_EVENT_ATTR(cmem_wr_access, 0x1ca),
	UNCORE_EVENT_ATTR(cmem_wr_total_bytes, 0x1db),
	UNCORE_EVENT_ATTR_MASK(cycles, CSPMU_EV_CYCLES, UNCORE_CSPMU_ATTR_CC),
	NULL
};

/* PCIE, NVLink-C2C0/1 and CNVLink count the same memory traffic. */
static struct attribute *mcf_events[] = {
	UNCORE_EVENT_ATTR(rd_bytes_loc, 0x0),
	UNCORE_EVENT_ATTR(rd_bytes_rem, 0x1),
	UNCORE_EVENT_ATTR(wr_bytes_loc, 0x2),
	UNCORE_EVENT_ATTR(wr_bytes_rem, 0x3),
	UNCORE_EVENT_ATTR(total_bytes_loc, 0x4),
	UNCORE_EVENT_ATTR(total_bytes_rem, 0x5),
	UNCORE_EVENT_ATTR(rd_req_loc, 0x6),
	UNCORE_EVENT_ATTR(rd_req_rem, 0x7),
	UNCORE_EVENT_ATTR(wr_req_loc, 0x8),
	UNCORE_EVENT_ATTR(wr_req_rem, 0x9),
	UNCORE_EVENT_ATTR(total_req_loc, 0xa),
	UNCORE_EVENT_ATTR(total_req_rem, 0xb),
	UNCORE_EVENT_ATTR(rd_cum_outs_loc, 0xc),
	UNCORE_EVENT_ATTR(rd_cum_outs_rem, 0xd),
	UNCORE_EVENT_ATTR_MASK(cycles, CSPMU_EV_CYCLES, UNCORE_CSPMU_ATTR_CC),
	NULL
};

/* SCF has no filter: its PMEVFILTR and PMCCFILTR are written 0. */
static const struct uncore_cspmu_impl t241_pmu_impls[] = {
	{
		.prodid		= NV_T241_SCF_PRODID,
		.name		= "nvidia_scf_pmu",
		.formats	= scf_formats,
		.events		= scf_events,
		.flags		= UNCORE_PMU_SHOW_ASSOC,
	}, {
		.prodid		= NV_T241_PCIE_PRODID,
		.name		= "nvidia_pcie_pmu",
		.formats	= pcie_formats,
		.events		= mcf_events,
		.flags		= UNCORE_PMU_SHOW_ASSOC,
		.filter		= T241_PCIE_ROOT_PORTS,
	}, {
		.prodid		= NV_T241_C2C0_PRODID,
		.name		= "nvidia_nvlink_c2c0_pmu",
		.formats	= c2c_formats,
		.events		= mcf_events,
		.flags		= UNCORE_PMU_SHOW_ASSOC,
		.filter		= T241_C2C_PORTS,
	}, {
		.prodid		= NV_T241_C2C1_PRODID,
		.name		= "nvidia_nvlink_c2c1_pmu",
		.formats	= c2c_formats,
		.events		= mcf_events,
		.flags		= UNCORE_PMU_SHOW_ASSOC,
		.filter		= T241_C2C_PORTS,
	}, {
		.prodid		= NV_T241_CNVLINK_PRODID,
		.name		= "nvidia_cnvlink_pmu",
		.formats	= cnvlink_formats,
		.events		= mcf_events,
		.flags		= UNCORE_PMU_SHOW_ASSOC,
		.filter		= T241_CNVLINK_SOCKETS,
	},
};

module_uncore_cspmu_backend(t241_pmu_impls);

UNCORE_IMPORT_NS();
MODULE_DESCRIPTION("NVIDIA Tegra241 (Grace) SCF, PCIE, NVLink-C2C and CNVLink PMU driver");
MODULE_LICENSE("GPL");
MODULE_VERSION(UNCORE_PMU_VERSION);
