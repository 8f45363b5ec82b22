/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Internal interfaces between the files of the uncore_pmu helper module.
 */
#ifndef __UNCORE_INTERNAL_H
#define __UNCORE_INTERNAL_H

struct acpi_table_header;
struct perf_event;
struct uncore_pmu;

/*
 * Messages uncore_pmu_warn_once() prints once per PMU, each a bit number in
 * &uncore_pmu.warned: a counter read that did not settle (the count was
 * kept), an interrupt that could not follow the active CPU.
 */
enum uncore_pmu_warn {
	UNCORE_WARN_READ,
	UNCORE_WARN_IRQ,
};

__printf(3, 4)
void uncore_pmu_warn_once(struct uncore_pmu *upmu, enum uncore_pmu_warn what,
			  const char *fmt, ...);
void uncore_pmu_event_update(struct perf_event *event);

/*
 * Create the arm-cs-arch-pmu platform devices from the firmware's APMT on
 * kernels that have no APMT parser of their own; remove them again. Errors
 * are reported per node and never fail the module load.
 */
void uncore_apmt_init(void);
void uncore_apmt_exit(void);

/*
 * The same for an APMT a register backend hands over (struct
 * uncore_backend.apmt), if the firmware has none; remove its devices again.
 */
void uncore_apmt_add_backend(struct acpi_table_header *hdr);
void uncore_apmt_remove_backend(struct acpi_table_header *hdr);

#endif /* __UNCORE_INTERNAL_H */
