#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Host-side self-test of the CSPMU model: compile ../sim_cspmu.c in user
# space (../../kstub/, the tests' one kernel-stub tree, stands in for the
# kernel headers) and run its TAP checks.
set -e
here=$(cd "$(dirname "$0")" && pwd)
out=${TMPDIR:-/tmp}/uncore-sim-cspmu-test.$$
trap 'rm -f "$out"' EXIT
${CC:-gcc} -std=gnu11 -O1 -g -Wall -Wextra -Wno-unused-parameter \
	-Wno-missing-field-initializers -Wno-sign-compare -fsanitize=address,undefined \
	-I "$here/../../kstub" -I "$here/.." -o "$out" "$here/cspmu_test.c"
"$out"
