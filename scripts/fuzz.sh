#!/usr/bin/env bash
# Fuzzes one target of fuzz/ with libFuzzer for SECONDS (default 600): installs clang and its
# runtime libraries when missing, builds the target with ASan + UBSan in build/fuzz (the `fuzz`
# preset), and runs it on a working copy of its corpus (fuzz/corpus/TARGET plus
# fuzz/regressions/TARGET, copied into build/fuzz/run/TARGET/corpus, kept between runs). Options
# after SECONDS go to libFuzzer. Crash, timeout and out-of-memory inputs are saved in
# build/fuzz/run/TARGET/crashes/.
#   scripts/fuzz.sh TARGET [SECONDS] [libFuzzer option...]
set -euo pipefail
cd "$(dirname "$0")/.."

targets=$(ls fuzz/corpus)
if (($# < 1)) || ! grep -qx -- "$1" <<<"$targets"; then
  echo "usage: scripts/fuzz.sh TARGET [SECONDS] [libFuzzer option...]" >&2
  echo "targets:" $targets >&2
  exit 2
fi
target="$1"
seconds="${2:-600}"
shift $(($# >= 2 ? 2 : 1))

missing=()
for p in clang libclang-rt-14-dev; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ((${#missing[@]})); then
  echo "fuzz: installing ${missing[*]}" >&2
  sudo=""; [[ $(id -u) -ne 0 ]] && sudo="sudo"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

# The library's own dependencies (as for every build), then the fuzz preset and this target.
scripts/setup.sh fuzz "fuzz_$target"

run="build/fuzz/run/$target"
mkdir -p "$run/corpus" "$run/crashes"
cp -n fuzz/corpus/"$target"/* "$run/corpus/"
if [[ -d fuzz/regressions/$target ]] && compgen -G "fuzz/regressions/$target/*" >/dev/null; then
  cp -n fuzz/regressions/"$target"/* "$run/corpus/"
fi

echo "fuzz: running fuzz_$target for $seconds s on $run/corpus; log in $run/fuzz-0.log" >&2
before=$(ls "$run/crashes" | wc -l)
binary="$PWD/build/fuzz/fuzz/fuzz_$target"
(cd "$run" && "$binary" corpus -jobs=1 -max_total_time="$seconds" \
  -rss_limit_mb=2048 -timeout=10 -print_final_stats=1 -artifact_prefix=crashes/ "$@") || true
if (($(ls "$run/crashes" | wc -l) > before)); then
  echo "fuzz: inputs that failed are in $run/crashes/:" >&2
  ls -l "$run/crashes/" >&2
  echo "fuzz: replay one with build/fuzz/fuzz/fuzz_$target FILE; minimise it with" \
    "build/fuzz/fuzz/fuzz_$target -minimize_crash=1 -max_total_time=60 FILE" >&2
else
  echo "fuzz: no new failing input (they would be saved in $run/crashes/)" >&2
  exit 0
fi
exit 1
