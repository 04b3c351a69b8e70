#!/usr/bin/env bash
# Writes src/cli/hot-functions.txt: the tool's functions that its common commands run, for the
# link to lay out together (src/cli/CMakeLists.txt): those the first command below runs, then
# those the second adds, and so on, so that a map's scenario, the commonest run, keeps its code
# in the fewest pages; within each command's share sorted by name, so that the list changes only
# where the code does. Runs each command under valgrind's callgrind (Debian: valgrind) on a
# Release build of the tool.
#   scripts/hot-functions.sh [path/to/polynav]   (default: build/release/src/cli/polynav)
# Rerun it when the commands' code has moved a lot: names the list holds that the code no longer
# has are passed over, and functions it does not list are laid out after it, as before.
set -euo pipefail
cd "$(dirname "$0")/.."
tool="$(realpath "${1:-build/release/src/cli/polynav}")"
out=src/cli/hot-functions.txt
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

# What users run most: a map's scenario with each grid search (the first writing its table, as
# experiments do), a mesh's with Polyanya, a native scene planned with a picture and validated, a
# ROS map planned.
commands=(
  "scen scenes/movingai/arena.map scenes/movingai/arena.map.scen --set grid.search=jps+ --csv $work/arena.csv"
  "scen scenes/movingai/arena.map scenes/movingai/arena.map.scen --set grid.search=jps"
  "scen scenes/movingai/arena.map scenes/movingai/arena.map.scen --set grid.search=astar"
  "scen scenes/mesh/arena.mesh scenes/mesh/arena-euclidean.scen --method navmesh --set navmesh.search=optimal"
  "validate scenes/warehouse.yaml"
  "plan scenes/warehouse.yaml --svg $work/warehouse.svg"
  "plan scenes/warehouse.yaml --method visgraph"
  "plan scenes/ros/depot.yaml --start 16,1 --goal 29,14 --format ros-path"
)
i=0
for c in "${commands[@]}"; do
  # shellcheck disable=SC2086  # the command's words
  valgrind --tool=callgrind --demangle=no --compress-strings=no --compress-pos=no \
    --callgrind-out-file="$work/$i.out" "$tool" $c >/dev/null 2>"$work/$i.err" ||
    { echo "hot-functions: '$c' failed:" >&2; cat "$work/$i.err" >&2; exit 1; }
  i=$((i + 1))
done

# A callgrind file names every function that ran (fn=, cfn=) with its object (ob=, cob=); the
# tool's named ones (callgrind writes a function without a symbol as its address), each once.
/usr/bin/python3 - "$tool" "$out" "$work"/*.out <<'EOF'
import sys
tool, out, files = sys.argv[1], sys.argv[2], sys.argv[3:]
names, seen = [], set()
for path in sorted(files, key=lambda p: int(p.rsplit("/", 1)[1].split(".")[0])):
    ob = cob = None
    added = set()
    for line in open(path, errors="replace"):
        key, _, value = line.rstrip("\n").partition("=")
        if key == "ob":
            ob = value
        elif key == "cob":
            cob = value
        elif key in ("fn", "cfn"):
            obj = ob if key == "fn" or cob is None else cob
            if key == "cfn":
                cob = None
            if obj == tool and not value.startswith("0x") and value not in seen:
                added.add(value)
    names += sorted(added - seen)
    seen |= added
with open(out, "w") as f:
    f.write("".join(n + "\n" for n in names))
print(f"hot-functions: {len(names)} functions into {out}")
EOF
