/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Interfaces between the helper layer's own files and modules (uncore_pmu,
 * uncore_cspmu), not for drivers.
 */
#ifndef __UNCORE_INTERNAL_H
#define __UNCORE_INTERNAL_H

struct perf_event;

/* Fold a counter's delta into its event (the CSPMU engine's overflow paths). */
void uncore_pmu_event_update(struct perf_event *event);

/* The APMT enumeration (uncore_apmt.c), at uncore_cspmu's init and exit. */
int uncore_apmt_init(void);
void uncore_apmt_exit(void);

#endif /* __UNCORE_INTERNAL_H */
