#!/usr/bin/env bash
# Sets up (installs missing Debian packages), builds the release preset, validates the bundled
# warehouse scene and plans its queries, writing the waypoints and a picture (warehouse.svg).
#   scripts/demo.sh [scene] [output.svg]
set -euo pipefail
cd "$(dirname "$0")/.."
scene="${1:-scenes/warehouse.yaml}"
svg="${2:-warehouse.svg}"
scripts/setup.sh release polynav_cli
build/release/src/cli/polynav validate "$scene"
build/release/src/cli/polynav plan "$scene" --svg "$svg"
