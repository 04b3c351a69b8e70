#!/usr/bin/env bash
# Fails when a C++ file differs from what .clang-format asks for; prints the offending files.
set -euo pipefail
cd "$(dirname "$0")/.."
if git rev-parse --is-inside-work-tree >/dev/null 2>&1; then
  mapfile -t files < <(git ls-files '*.hpp' '*.cpp')
else  # an unpacked archive: every C++ file outside build trees
  mapfile -t files < <(find . -path ./build -prune -o \( -name '*.hpp' -o -name '*.cpp' \) -print | sed 's|^\./||' | sort)
fi
((${#files[@]})) || exit 0
bad=()
for f in "${files[@]}"; do
  clang-format --style=file "$f" | cmp -s - "$f" || bad+=("$f")
done
if ((${#bad[@]})); then
  echo "check-format: these files need clang-format -i:" >&2
  printf '  %s\n' "${bad[@]}" >&2
  exit 1
fi
echo "check-format: ${#files[@]} files formatted"
