#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# release: the rows of hex suffixes with a letter, with each release's perf
#
# The rows of the admin guides' table "PMU names and wildcards by perf
# version" that need a PMU name whose hex suffix has a letter: the DDR
# controllers mrvl_ddr_pmu_1000200000 and mrvl_ddr_pmu_10002a0000. Perf
# 6.1 takes only a suffix of decimal digits as an instance number, so its
# mrvl_ddr_pmu/.../ selects the first controller alone (and it refuses a
# glob); the table's other rows are tests/86-perf-versions.sh's.

. "$(dirname "$0")/lib/lib.sh"

D0=mrvl_ddr_pmu_1000200000
D1=mrvl_ddr_pmu_10002a0000
TRAFFIC=/tmp/wild.sh
{
	echo "echo event=ddr_ddr_reads value=1 > $UNCORE_SIM/$D0/inject"
	echo "echo event=ddr_ddr_reads value=2 > $UNCORE_SIM/$D1/inject"
} > $TRAFFIC

# the table: the form, then what perf 5.10, 6.1, 6.12 and 7.3 select
wild_row $TRAFFIC $D0/ddr_ddr_reads/			1	1	1	1
wild_row $TRAFFIC $D1/ddr_ddr_reads/			2	2	2	2
wild_row $TRAFFIC mrvl_ddr_pmu/ddr_ddr_reads/		3	1	3	3
wild_row $TRAFFIC "mrvl_ddr_pmu_*/ddr_ddr_reads/"	3	error	3	3

done_testing
