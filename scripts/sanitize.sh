#!/usr/bin/env bash
# The threaded tests (names containing "Thread": concurrent planning on one Planner, experiment
# worker threads, requests answered at once by `polynav serve`, a map's outline built on demand)
# under ThreadSanitizer, then the test suite under AddressSanitizer + UndefinedBehaviorSanitizer
# (every test but the install check, which links an unsanitized consumer). Any sanitizer report
# fails the test that triggered it.
#   scripts/sanitize.sh [asan|tsan]   (default: both)
# With POLYNAV_SANITIZE_UNTIL set (seconds since the epoch, as `date +%s` prints), each build and
# test run stops at that time: what ran is reported, a failure among it still fails, and what time
# left out is named. CI sets it so that a slow machine ends within its limit (.ci/run).
set -euo pipefail
cd "$(dirname "$0")/.."
which="${1:-both}"
export ASAN_OPTIONS="detect_leaks=1:abort_on_error=1:strict_string_checks=1"
export UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1"
export TSAN_OPTIONS="halt_on_error=1:second_deadlock_stack=1"
# The long tests sample a tenth of their queries here (tests/support/scale.hpp): sanitized code
# runs several times slower, and every kind of query is still reached.
export POLYNAV_TEST_SCALE="${POLYNAV_TEST_SCALE:-0.1}"
until="${POLYNAV_SANITIZE_UNTIL:-}"

# step NAME COMMAND...: runs the command, within the time left when there is a deadline. Out of
# time, it says what was left out and ends the script successfully unless a test had failed.
step() {
  local name=$1
  shift
  if [[ -z $until ]]; then
    "$@"
    return
  fi
  local left=$((until - $(date +%s)))
  if ((left <= 0)); then
    echo "sanitize: out of time before $name; not run" >&2
    exit 0
  fi
  local log
  log=$(mktemp)
  local rc=0
  timeout --kill-after=30 "$left" "$@" 2>&1 | tee "$log" || rc=${PIPESTATUS[0]}
  if ((rc == 124 || rc == 137)); then
    if grep -qE '\*\*\*(Failed|Timeout|Exception)|Subprocess aborted' "$log"; then
      echo "sanitize: $name failed before it ran out of time" >&2
      exit 1
    fi
    echo "sanitize: out of time during $name; $(grep -cE ' Passed ' "$log") tests had passed;" \
      "what it had not reached is not run" >&2
    rm -f "$log"
    exit 0
  fi
  rm -f "$log"
  return "$rc"
}

if [[ $which == both || $which == tsan ]]; then
  step "the tsan build" scripts/setup.sh tsan threads_test experiment_test free_space_test polynav_cli
  step "the tsan tests" ctest --preset tsan -j 2
fi
if [[ $which == both || $which == asan ]]; then
  step "the sanitize build" scripts/setup.sh sanitize
  step "the sanitize tests" ctest --preset sanitize -j 2 -E '^install\.'
fi
