#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Exact counts on one PMU of each CSPMU driver with a malformed APMT node beside good ones.

. "$(dirname "$0")/lib/lib.sh"

check_cspmu_counts

done_testing
