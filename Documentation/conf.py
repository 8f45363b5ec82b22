# SPDX-License-Identifier: GPL-2.0
#
# Sphinx configuration of this project's documentation. It uses the
# kernel's own kernel-doc Sphinx extension and script, taken from
# linux-source-6.1 (tools/testing/check/docs.sh sets the two paths):
#   UNCORE_SPHINX_EXT  directory holding kerneldoc.py and kernellog.py
#   UNCORE_KERNELDOC   the kernel-doc script
# Build: sphinx-build -W -b html Documentation <output directory>

import os
import sys

sys.path.insert(0, os.environ.get('UNCORE_SPHINX_EXT',
                                  '/var/cache/uncore-pmu/docs/sphinx'))

project = 'Uncore PMU drivers'
copyright = 'The uncore PMU driver authors'
master_doc = 'index'
source_suffix = '.rst'
exclude_patterns = []
extensions = ['kerneldoc']

kerneldoc_bin = os.environ.get('UNCORE_KERNELDOC',
                               '/var/cache/uncore-pmu/linux-source-6.1/scripts/kernel-doc')
kerneldoc_srctree = os.path.abspath(os.path.join(os.path.dirname(__file__), '..'))

# Kernel annotations the C domain must accept in prototypes.
c_id_attributes = ['__iomem', '__init', '__exit', '__must_check', '__always_inline']

html_theme = 'alabaster'
