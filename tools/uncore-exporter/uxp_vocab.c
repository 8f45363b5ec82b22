// SPDX-License-Identifier: GPL-2.0
/*
 * The textfile's vocabulary: which PMU names make a family, which events
 * of a family the daemon counts (in the order it gives them counters),
 * and the series each event's counts are added to, with their labels and
 * the base units of one count. tools/uncore-metrics/README.md
 * ("Prometheus") documents it; this table is its one home.
 */
#include <ctype.h>
#include <stdio.h>
#include <string.h>

#include "uxp.h"

enum {
	M_CYCLES, M_CACHE_BYTES, M_CACHE_REQ, M_CACHE_LOOKUPS, M_CACHE_HITS,
	M_CACHE_ALLOC, M_MEM_BYTES, M_MEM_REQ, M_MEM_OUTS, M_CMEM_REQ,
	M_CMEM_OUTS, M_PCIE_BYTES, M_PCIE_TLPS, M_PCIE_REQ, M_PCIE_OUTS,
	M_TGT_BYTES, M_TGT_REQ, M_LINK_BYTES, M_LINK_REQ, M_LINK_OUTS,
};

/* the metrics, in the order of the file */
const char *const uxp_metrics[] = {
	"cycles", "cache_bytes", "cache_requests", "cache_lookups",
	"cache_hits", "cache_allocations", "memory_bytes", "memory_requests",
	"memory_outstanding", "cpu_memory_requests", "cpu_memory_outstanding",
	"pcie_bytes", "pcie_tlps", "pcie_requests", "pcie_outstanding",
	"pcie_target_bytes", "pcie_target_requests", "link_bytes",
	"link_requests", "link_outstanding",
};

const unsigned int uxp_nr_metrics = ARRAY_SIZE(uxp_metrics);

/*
 * The events of each family, the series the recording rules and the
 * dashboard use first: where counters are allocated per event, the
 * daemon takes the first ones only (half of the PMU's counters unless
 * told otherwise), so the last ones are the first to go.
 */
static const char *const ucf_ev[] = {
	"mem_bytes_rd", "mem_bytes_wr", "slc_bytes_rd", "slc_bytes_wr",
	"mem_access_rd", "mem_access_wr", "slc_access_rd", "slc_access_wr",
	"cycles", NULL,
};

static const char *const pcie_ev[] = {
	"rd_bytes", "wr_bytes", "rd_req", "rd_cum_outs", "wr_req", "cycles",
	NULL,
};

static const char *const tgt_ev[] = {
	"rd_bytes", "wr_bytes", "rd_req", "wr_req", "cycles", NULL,
};

static const char *const cmem_ev[] = {
	"rd_req", "rd_cum_outs", "cycles", NULL,
};

static const char *const c2c_ev[] = {
	"cycles", "in_rd_req", "in_rd_cum_outs", "in_wr_req",
	"in_wr_cum_outs", "out_rd_req", "out_rd_cum_outs", "out_wr_req",
	"out_wr_cum_outs", NULL,
};

/* the bytes first, as on the other Grace PMUs: memory bandwidth */
static const char *const scf_ev[] = {
	"cmem_rd_data", "cmem_wr_total_bytes", "remote_socket_rd_data",
	"remote_socket_wr_total_bytes", "cmem_rd_access", "cmem_rd_outstanding",
	"remote_socket_rd_access", "remote_socket_rd_outstanding", "cycles",
	NULL,
};

static const char *const grace_ev[] = {
	"rd_bytes_loc", "wr_bytes_loc", "rd_bytes_rem", "wr_bytes_rem",
	"rd_req_loc", "rd_cum_outs_loc", "rd_req_rem", "rd_cum_outs_rem",
	"cycles", NULL,
};

static const char *const pem_ev[] = {
	"ib_tlp_npr", "ib_tlp_pr", "ib_tlp_cpl_partid", "ib_tlp_dwords_npr",
	"ib_tlp_dwords_pr", "ib_tlp_dwords_cpl_partid", "ib_inflight",
	"ib_reads", "ob_tlp_npr_partid", "ob_tlp_pr_partid",
	"ob_tlp_cpl_partid", "ob_tlp_dwords_npr_partid",
	"ob_tlp_dwords_pr_partid", "ob_tlp_dwords_cpl_partid",
	"ob_inflight_partid", "ob_reads_partid", NULL,
};

static const char *const ddr_ev[] = {
	"ddr_ddr_reads", "ddr_ddr_writes", NULL,
};

static const char *const tad_ev[] = {
	"tad_tag_rd", "tad_hit_any", "tad_alloc_any", NULL,
};

const struct uxp_family uxp_families[] = {
	{ "ucf", "nvidia_ucf_pmu_#", "nvidia_t410_ucf_pmu", "ucf", ucf_ev, 1, 1 },
	{ "pcie", "nvidia_pcie_pmu_#_rc_#", "nvidia_t410_pcie_pmu", "pcie",
	  pcie_ev, 1, 1 },
	{ "pcie-tgt", "nvidia_pcie_tgt_pmu_#_rc_#", "nvidia_t410_pcie_tgt_pmu",
	  "pcie-tgt", tgt_ev, 1, 1 },
	{ "cmem", "nvidia_cmem_latency_pmu_#", "nvidia_t410_cmem_latency_pmu",
	  "cmem", cmem_ev, 0, 1 },
	{ "c2c", "nvidia_nvlink_c2c_pmu_#", "nvidia_t410_c2c_pmu", "c2c",
	  c2c_ev, 0, 1 },
	{ "nvclink", "nvidia_nvclink_pmu_#", "nvidia_t410_c2c_pmu", "c2c",
	  c2c_ev, 0, 1 },
	{ "nvdlink", "nvidia_nvdlink_pmu_#", "nvidia_t410_c2c_pmu", "c2c",
	  c2c_ev, 0, 1 },
	{ "scf", "nvidia_scf_pmu_#", "nvidia_t241_pmu", "scf", scf_ev, 1, 1 },
	{ "grace-pcie", "nvidia_pcie_pmu_#", "nvidia_t241_pmu", "gpcie",
	  grace_ev, 1, 1 },
	{ "nvlink-c2c0", "nvidia_nvlink_c2c0_pmu_#", "nvidia_t241_pmu", "glink",
	  grace_ev, 1, 1 },
	{ "nvlink-c2c1", "nvidia_nvlink_c2c1_pmu_#", "nvidia_t241_pmu", "glink",
	  grace_ev, 1, 1 },
	{ "cnvlink", "nvidia_cnvlink_pmu_#", "nvidia_t241_pmu", "glink",
	  grace_ev, 1, 1 },
	{ "pem", "mrvl_pcie_rc_pmu_%", "marvell_pem_pmu", "pem", pem_ev, 0, 0 },
	{ "ddr", "mrvl_ddr_pmu_%", "marvell_odyssey_ddr_pmu", "ddr", ddr_ev,
	  0, 0 },
	{ "tad", "tad", "marvell_odyssey_tad_pmu", "tad", tad_ev, 1, 0 },
};

const unsigned int uxp_nr_families = ARRAY_SIZE(uxp_families);

#define RD	",direction=\"read\""
#define WR	",direction=\"write\""
#define LOC	",destination=\"local\""
#define REM	",destination=\"remote\""
#define IN	",flow=\"inbound\""
#define OUT	",flow=\"outbound\""
#define NP	",tlp_type=\"non_posted\""
#define PO	",tlp_type=\"posted\""
#define CP	",tlp_type=\"completion\""

static const struct uxp_series series[] = {
	{ "ucf", "slc_bytes_rd", M_CACHE_BYTES, RD, 1 },
	{ "ucf", "slc_bytes_wr", M_CACHE_BYTES, WR, 1 },
	{ "ucf", "slc_access_rd", M_CACHE_REQ, RD, 1 },
	{ "ucf", "slc_access_wr", M_CACHE_REQ, WR, 1 },
	{ "ucf", "mem_bytes_rd", M_MEM_BYTES, RD, 1 },
	{ "ucf", "mem_bytes_wr", M_MEM_BYTES, WR, 1 },
	{ "ucf", "mem_access_rd", M_MEM_REQ, RD, 1 },
	{ "ucf", "mem_access_wr", M_MEM_REQ, WR, 1 },
	{ "pcie", "rd_bytes", M_PCIE_BYTES, RD, 1 },
	{ "pcie", "wr_bytes", M_PCIE_BYTES, WR, 1 },
	{ "pcie", "rd_req", M_PCIE_REQ, RD, 1 },
	{ "pcie", "wr_req", M_PCIE_REQ, WR, 1 },
	{ "pcie", "rd_cum_outs", M_PCIE_OUTS, RD, 1 },
	{ "pcie-tgt", "rd_bytes", M_TGT_BYTES, RD, 1 },
	{ "pcie-tgt", "wr_bytes", M_TGT_BYTES, WR, 1 },
	{ "pcie-tgt", "rd_req", M_TGT_REQ, RD, 1 },
	{ "pcie-tgt", "wr_req", M_TGT_REQ, WR, 1 },
	{ "cmem", "rd_req", M_CMEM_REQ, RD, 1 },
	{ "cmem", "rd_cum_outs", M_CMEM_OUTS, RD, 1 },
	{ "scf", "cmem_rd_access", M_MEM_REQ, RD LOC, 1 },
	{ "scf", "remote_socket_rd_access", M_MEM_REQ, RD REM, 1 },
	{ "scf", "cmem_rd_outstanding", M_MEM_OUTS, RD LOC, 1 },
	{ "scf", "remote_socket_rd_outstanding", M_MEM_OUTS, RD REM, 1 },
	/* a read data count is 32 bytes (tools/uncore-metrics/README.md) */
	{ "scf", "cmem_rd_data", M_MEM_BYTES, RD LOC, 32 },
	{ "scf", "remote_socket_rd_data", M_MEM_BYTES, RD REM, 32 },
	{ "scf", "cmem_wr_total_bytes", M_MEM_BYTES, WR LOC, 1 },
	{ "scf", "remote_socket_wr_total_bytes", M_MEM_BYTES, WR REM, 1 },
	{ "ddr", "ddr_ddr_reads", M_MEM_REQ, RD, 1 },
	{ "ddr", "ddr_ddr_writes", M_MEM_REQ, WR, 1 },
	{ "tad", "tad_tag_rd", M_CACHE_LOOKUPS, "", 1 },
	{ "tad", "tad_hit_any", M_CACHE_HITS, "", 1 },
	{ "tad", "tad_alloc_any", M_CACHE_ALLOC, "", 1 },
	/* the clock of every NVIDIA PMU */
	{ "ucf", "cycles", M_CYCLES, "", 1 },
	{ "pcie", "cycles", M_CYCLES, "", 1 },
	{ "pcie-tgt", "cycles", M_CYCLES, "", 1 },
	{ "cmem", "cycles", M_CYCLES, "", 1 },
	{ "c2c", "cycles", M_CYCLES, "", 1 },
	{ "scf", "cycles", M_CYCLES, "", 1 },
	{ "gpcie", "cycles", M_CYCLES, "", 1 },
	{ "glink", "cycles", M_CYCLES, "", 1 },
	/* the Tegra410 links */
	{ "c2c", "in_rd_req", M_LINK_REQ, IN RD, 1 },
	{ "c2c", "in_rd_cum_outs", M_LINK_OUTS, IN RD, 1 },
	{ "c2c", "in_wr_req", M_LINK_REQ, IN WR, 1 },
	{ "c2c", "in_wr_cum_outs", M_LINK_OUTS, IN WR, 1 },
	{ "c2c", "out_rd_req", M_LINK_REQ, OUT RD, 1 },
	{ "c2c", "out_rd_cum_outs", M_LINK_OUTS, OUT RD, 1 },
	{ "c2c", "out_wr_req", M_LINK_REQ, OUT WR, 1 },
	{ "c2c", "out_wr_cum_outs", M_LINK_OUTS, OUT WR, 1 },
	/* Grace PCIE and links: local and remote memory */
	{ "gpcie", "rd_bytes_loc", M_PCIE_BYTES, RD LOC, 1 },
	{ "gpcie", "wr_bytes_loc", M_PCIE_BYTES, WR LOC, 1 },
	{ "gpcie", "rd_req_loc", M_PCIE_REQ, RD LOC, 1 },
	{ "gpcie", "rd_cum_outs_loc", M_PCIE_OUTS, RD LOC, 1 },
	{ "gpcie", "rd_bytes_rem", M_PCIE_BYTES, RD REM, 1 },
	{ "gpcie", "wr_bytes_rem", M_PCIE_BYTES, WR REM, 1 },
	{ "gpcie", "rd_req_rem", M_PCIE_REQ, RD REM, 1 },
	{ "gpcie", "rd_cum_outs_rem", M_PCIE_OUTS, RD REM, 1 },
	{ "glink", "rd_bytes_loc", M_LINK_BYTES, RD LOC, 1 },
	{ "glink", "wr_bytes_loc", M_LINK_BYTES, WR LOC, 1 },
	{ "glink", "rd_req_loc", M_LINK_REQ, RD LOC, 1 },
	{ "glink", "rd_cum_outs_loc", M_LINK_OUTS, RD LOC, 1 },
	{ "glink", "rd_bytes_rem", M_LINK_BYTES, RD REM, 1 },
	{ "glink", "wr_bytes_rem", M_LINK_BYTES, WR REM, 1 },
	{ "glink", "rd_req_rem", M_LINK_REQ, RD REM, 1 },
	{ "glink", "rd_cum_outs_rem", M_LINK_OUTS, RD REM, 1 },
	/* PEM: TLPs and their payload (DWORDs, 4 bytes each), reads */
	{ "pem", "ib_tlp_npr", M_PCIE_TLPS, IN NP, 1 },
	{ "pem", "ib_tlp_dwords_npr", M_PCIE_BYTES, IN NP, 4 },
	{ "pem", "ob_tlp_npr_partid", M_PCIE_TLPS, OUT NP, 1 },
	{ "pem", "ob_tlp_dwords_npr_partid", M_PCIE_BYTES, OUT NP, 4 },
	{ "pem", "ib_tlp_pr", M_PCIE_TLPS, IN PO, 1 },
	{ "pem", "ib_tlp_dwords_pr", M_PCIE_BYTES, IN PO, 4 },
	{ "pem", "ob_tlp_pr_partid", M_PCIE_TLPS, OUT PO, 1 },
	{ "pem", "ob_tlp_dwords_pr_partid", M_PCIE_BYTES, OUT PO, 4 },
	{ "pem", "ib_tlp_cpl_partid", M_PCIE_TLPS, IN CP, 1 },
	{ "pem", "ib_tlp_dwords_cpl_partid", M_PCIE_BYTES, IN CP, 4 },
	{ "pem", "ob_tlp_cpl_partid", M_PCIE_TLPS, OUT CP, 1 },
	{ "pem", "ob_tlp_dwords_cpl_partid", M_PCIE_BYTES, OUT CP, 4 },
	{ "pem", "ib_reads", M_PCIE_REQ, IN RD, 1 },
	{ "pem", "ib_inflight", M_PCIE_OUTS, IN RD, 1 },
	{ "pem", "ob_reads_partid", M_PCIE_REQ, OUT RD, 1 },
	{ "pem", "ob_inflight_partid", M_PCIE_OUTS, OUT RD, 1 },
};

/**
 * uxp_match() - does a PMU name fit a family's pattern
 * @pattern: literal text, '#' for one or more decimal digits, '%' for one
 *	or more lowercase hexadecimal digits
 * @name: the name
 *
 * Return: 1 if it fits, else 0.
 */
int uxp_match(const char *pattern, const char *name)
{
	for (; *pattern; pattern++) {
		const char *set;
		size_t n;

		if (*pattern != '#' && *pattern != '%') {
			if (*name++ != *pattern)
				return 0;
			continue;
		}
		set = *pattern == '#' ? "0123456789" : "0123456789abcdef";
		n = strspn(name, set);
		if (!n)
			return 0;
		name += n;
	}
	return *name == '\0';
}

const struct uxp_family *uxp_family_of(const char *pmu)
{
	unsigned int i;

	for (i = 0; i < uxp_nr_families; i++)
		if (uxp_match(uxp_families[i].pattern, pmu))
			return &uxp_families[i];
	return NULL;
}

const struct uxp_family *uxp_family_named(const char *name)
{
	unsigned int i;

	if (!strcmp(name, "nvlink-c2c"))
		name = "c2c";
	for (i = 0; i < uxp_nr_families; i++)
		if (!strcmp(uxp_families[i].name, name))
			return &uxp_families[i];
	return NULL;
}

const struct uxp_series *uxp_series_of(const struct uxp_family *fam,
				       const char *event)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(series); i++)
		if (!strcmp(series[i].key, fam->key) &&
		    !strcmp(series[i].event, event))
			return &series[i];
	return NULL;
}

int uxp_is_cycles(const char *event)
{
	return !strcmp(event, "cycles");
}

int uxp_metric_name(unsigned int metric, char *buf, size_t len)
{
	const char *m = uxp_metrics[metric];
	size_t n = strlen(m);
	int outs = n > 12 && !strcmp(m + n - 12, "_outstanding");

	return snprintf(buf, len, "uncore_pmu_%s%s_total", m,
			outs ? "_request_cycles" : "");
}

const char *uxp_metric_help(unsigned int metric)
{
	const char *m = uxp_metrics[metric];
	size_t n = strlen(m);

	if (metric == M_CYCLES)
		return "PMU clock cycles; rate() is the clock frequency in Hz.";
	if (metric == M_MEM_BYTES)
		return "Bytes transferred, as the PMU counts them; "
		       "a Grace SCF read data count is 32 bytes.";
	if (n > 6 && !strcmp(m + n - 6, "_bytes"))
		return "Bytes transferred, as the PMU counts them.";
	if (n > 9 && !strcmp(m + n - 9, "_requests"))
		return "Requests; rate() is requests per second.";
	if (n > 12 && !strcmp(m + n - 12, "_outstanding"))
		return "Requests in flight, added every PMU clock cycle; "
		       "over requests, the average latency in cycles.";
	if (metric == M_PCIE_TLPS)
		return "PCIe transaction layer packets.";
	if (metric == M_CACHE_LOOKUPS)
		return "Cache lookups (LLC-TAD tag reads); over them, cache_hits is the hit ratio.";
	if (metric == M_CACHE_HITS)
		return "Cache lookups that hit.";
	return "Lines allocated in the cache.";
}

/*
 * natkey: a key that orders PMU names by the values of their numbers:
 * each run of digits padded to 12, a PEM's or DDR controller's
 * hexadecimal address to 16.
 */
static void natkey(const char *p, char *k, size_t len)
{
	static const char *const hexed[] = { "mrvl_pcie_rc_pmu_", "mrvl_ddr_pmu_" };
	size_t o = 0, i;

	for (i = 0; i < 2; i++) {
		size_t n = strlen(hexed[i]);

		if (!strncmp(p, hexed[i], n)) {
			snprintf(k, len, "%s%16s", hexed[i], p + n);
			for (o = n; k[o] == ' '; o++)
				k[o] = '0';
			return;
		}
	}
	while (*p && o + 1 < len) {
		size_t n = strspn(p, "0123456789");

		if (!n) {
			k[o++] = *p++;
			continue;
		}
		for (i = n; i < 12 && o + 1 < len; i++)
			k[o++] = '0';
		for (i = 0; i < n && o + 1 < len; i++)
			k[o++] = *p++;
	}
	k[o] = '\0';
}

int uxp_natcmp(const char *a, const char *b)
{
	char ka[256], kb[256];

	natkey(a, ka, sizeof(ka));
	natkey(b, kb, sizeof(kb));
	return strcmp(ka, kb);
}

/**
 * uxp_pmu_labels() - the labels of every series of a PMU
 * @fam: its family
 * @pmu: its name
 * @buf: where, as pmu="...",family="..."[,socket="N"][,rc="N"]
 * @len: its size
 *
 * Return: what snprintf() returns.
 */
int uxp_pmu_labels(const struct uxp_family *fam, const char *pmu,
		   char *buf, size_t len)
{
	char sock[24] = "", rc[24] = "";
	const char *s;

	if (fam->socket) {
		s = strstr(pmu, "_pmu_");
		if (s) {
			size_t n = strspn(s + 5, "0123456789");

			if (n && n < 16)
				snprintf(sock, sizeof(sock), ",socket=\"%.*s\"",
					 (int)n, s + 5);
		}
		s = strstr(pmu, "_rc_");
		if (s && s[4])
			snprintf(rc, sizeof(rc), ",rc=\"%.16s\"", s + 4);
	}
	return snprintf(buf, len, "pmu=\"%s\",family=\"%s\"%s%s", pmu,
			fam->name, sock, rc);
}
