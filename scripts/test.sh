#!/usr/bin/env bash
# The whole test suite: installs what is missing, builds with warnings as errors, checks the
# formatting, runs every test (ctest), and builds a consumer project against the installed tree.
#   scripts/test.sh
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh ci
scripts/check-format.sh
ctest --preset ci -j 2
