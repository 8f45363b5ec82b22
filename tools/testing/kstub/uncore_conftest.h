/* SPDX-License-Identifier: GPL-2.0 */
/* The kernel API the fuzz stubs (kstub.h) provide, as conftest.sh would find it. */
#define UNCORE_HAVE_PMU_PARENT
#define UNCORE_HAVE_HRTIMER_SETUP
#define UNCORE_HAVE_IRQ_SET_AFFINITY
