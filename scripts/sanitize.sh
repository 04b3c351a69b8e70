#!/usr/bin/env bash
# The test suite under AddressSanitizer + UndefinedBehaviorSanitizer (every test but the
# install check, which links an unsanitized consumer), then the threaded tests (names containing
# "Thread": concurrent planning on one Planner, experiment worker threads, requests answered at
# once by `polynav serve`, a map's outline built on demand) under ThreadSanitizer. Any sanitizer
# report fails the test that triggered it.
#   scripts/sanitize.sh [asan|tsan]   (default: both)
set -euo pipefail
cd "$(dirname "$0")/.."
which="${1:-both}"
export ASAN_OPTIONS="detect_leaks=1:abort_on_error=1:strict_string_checks=1"
export UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1"
export TSAN_OPTIONS="halt_on_error=1:second_deadlock_stack=1"
# The long tests sample a quarter of their queries here (tests/support/scale.hpp): sanitized code
# runs several times slower, and every kind of query is still reached.
export POLYNAV_TEST_SCALE="${POLYNAV_TEST_SCALE:-0.25}"
if [[ $which == both || $which == asan ]]; then
  scripts/setup.sh sanitize
  ctest --preset sanitize -j 2 -E '^install\.'
fi
if [[ $which == both || $which == tsan ]]; then
  scripts/setup.sh tsan threads_test experiment_test free_space_test polynav_cli
  ctest --preset tsan -j 2
fi
