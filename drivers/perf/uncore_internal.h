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

/*
 * The CSPMU module's APMT enumeration (uncore_apmt.c): create the
 * arm-cs-arch-pmu platform devices from the firmware's APMT on kernels
 * that have no APMT parser of their own; remove them again. Errors are
 * reported per node and never fail the module load.
 */
void uncore_apmt_init(void);
void uncore_apmt_exit(void);

#endif /* __UNCORE_INTERNAL_H */
