/* SPDX-License-Identifier: GPL-2.0 */
/*
 * uncore-metrics-exporter: the parts of the daemon that need no kernel,
 * shared with its unit tests and its fuzzer.
 *
 * uxp_parse.c reads what a PMU's sysfs directory says about its events:
 * format/ (which bits of config, config1 and config2 a term fills) and
 * events/ (an event's terms), and builds perf_event_attr configs from
 * them. uxp_vocab.c holds the vocabulary of the textfile: the families,
 * the events the daemon counts on each, in the order it gives them
 * counters, and the series each event feeds.
 */
#ifndef UXP_H
#define UXP_H

#include <stddef.h>
#include <stdint.h>

#define UXP_MAX_RANGES	8
#ifndef ARRAY_SIZE
#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))
#endif
#define UXP_NAME_MAX	64

/* one format/ entry: "config1:0-7,32-35" */
struct uxp_field {
	unsigned int reg;		/* 0 config, 1 config1, 2 config2 */
	unsigned int nr;		/* ranges, low bits of the value first */
	unsigned char lo[UXP_MAX_RANGES];
	unsigned char hi[UXP_MAX_RANGES];
};

/*
 * uxp_field_lookup: the format/ entry of a term, 0 and *f filled, or
 * -ENOENT where the PMU has none of that name, -EINVAL where its file
 * does not parse.
 */
typedef int (*uxp_field_lookup)(void *ctx, const char *term,
				struct uxp_field *f);

int uxp_parse_format(const char *text, struct uxp_field *f);
int uxp_field_set(const struct uxp_field *f, uint64_t val, uint64_t cfg[3]);
int uxp_parse_event(const char *text, uxp_field_lookup lookup, void *ctx,
		    uint64_t cfg[3], char *why, size_t whylen);

/* a family of PMUs, as its names give it */
struct uxp_family {
	const char *name;		/* as uncore-metrics --family names it */
	const char *pattern;		/* '#' decimal digits, '%' hex digits */
	const char *module;		/* its driver module in this tree */
	const char *key;		/* its series in the vocabulary */
	const char *const *events;	/* counted, in the order of priority */
	unsigned int allocatable;	/* counters are allocated per event */
	unsigned int socket;		/* the first number is the socket */
};

/* an event of a family and the series it feeds */
struct uxp_series {
	const char *key;
	const char *event;
	unsigned int metric;		/* index into uxp_metrics */
	const char *labels;		/* ",direction=\"read\"", or "" */
	unsigned int mul;		/* base units per count */
};

extern const struct uxp_family uxp_families[];
extern const unsigned int uxp_nr_families;
extern const char *const uxp_metrics[];
extern const unsigned int uxp_nr_metrics;

const struct uxp_family *uxp_family_of(const char *pmu);
const struct uxp_family *uxp_family_named(const char *name);
const struct uxp_series *uxp_series_of(const struct uxp_family *fam,
				       const char *event);
const char *uxp_metric_help(unsigned int metric);
int uxp_metric_name(unsigned int metric, char *buf, size_t len);
int uxp_match(const char *pattern, const char *name);
int uxp_natcmp(const char *a, const char *b);
int uxp_pmu_labels(const struct uxp_family *fam, const char *pmu,
		   char *buf, size_t len);
int uxp_is_cycles(const char *event);

#endif
