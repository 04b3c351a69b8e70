#!/usr/bin/env bash
# Installs what polynav needs to build and test (Debian packages, only those missing), then
# configures and builds one CMake preset (default: release), all targets or the ones named;
# `packages` in place of the preset stops after the packages (before `pip install .`).
#   scripts/setup.sh [preset|packages] [target...]
set -euo pipefail
cd "$(dirname "$0")/.."
preset="${1:-release}"
shift || true
targets=()
for t in "$@"; do targets+=(--target "$t"); done

packages=(build-essential cmake ccache lld libcgal-dev libgmp-dev libmpfr-dev libboost-dev
          libboost-graph-dev libyaml-cpp-dev nlohmann-json3-dev libcli11-dev libgtest-dev
          libgmock-dev libbenchmark-dev clang-format librsvg2-bin libstb-dev libgeos-dev
          pybind11-dev python3-dev python3-numpy python3-pytest python3-distributed python3-pandas
          python3-matplotlib python3-pil python3-yaml python3-setuptools python3-wheel python3-pip
          python3-venv pkg-config libcpp-httplib-dev chromium chromium-driver python3-selenium)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ((${#missing[@]})); then
  echo "setup: installing ${missing[*]}" >&2
  sudo=""; [[ $(id -u) -ne 0 ]] && sudo="sudo"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

[[ $preset == packages ]] && exit 0
cmake --preset "$preset" >/dev/null
cmake --build --preset "$preset" "${targets[@]}"
