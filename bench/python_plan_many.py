"""Planner.plan_many against a Python loop over Planner.plan and against the command line
(`polynav scen`), on the same 10,000 queries of a MovingAI map, in the same run.

    PYTHONPATH=build/release/python /usr/bin/python3 bench/python_plan_many.py \
        --cli build/release/src/cli/polynav [--map scenes/movingai/den312d.map] [--queries 10000]
"""

import argparse
import pathlib
import subprocess
import tempfile
import time

import numpy as np

import polynav


def main():
    parser = argparse.ArgumentParser()
    source = pathlib.Path(__file__).parents[1]
    parser.add_argument("--map", default=str(source / "scenes" / "movingai" / "den312d.map"))
    parser.add_argument("--queries", type=int, default=10000)
    parser.add_argument("--cli", default="polynav")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()

    lines = pathlib.Path(args.map).read_text().splitlines()
    height = int(lines[1].split()[1])
    width = int(lines[2].split()[1])
    rows = lines[4:4 + height]
    free = [(x, y) for y in range(height) for x in range(width) if rows[y][x] in ".G"]
    rng = np.random.default_rng(args.seed)
    pick = rng.integers(0, len(free), size=(args.queries, 2))
    cells = [(free[a], free[b]) for a, b in pick]
    # Cell centres with y up, as polynav reads MovingAI maps.
    starts = np.array([[x + 0.5, height - y - 0.5] for (x, y), _ in cells])
    goals = np.array([[x + 0.5, height - y - 0.5] for _, (x, y) in cells])

    scene = polynav.load_scene(args.map)
    planner = polynav.Planner(scene, method="grid", smoother="shortcut")
    timings = {}
    t = time.perf_counter()
    loop = [planner.plan(s, g) for s, g in zip(starts, goals)]
    timings["Python loop over plan"] = time.perf_counter() - t
    for threads in (1, 2):
        t = time.perf_counter()
        many = planner.plan_many(starts, goals, threads=threads)
        timings[f"plan_many, {threads} thread{'s' if threads > 1 else ''}"] = time.perf_counter() - t
        assert all(np.array_equal(a.waypoints, b.waypoints) for a, b in zip(many, loop))

    with tempfile.TemporaryDirectory() as tmp:
        scen = pathlib.Path(tmp) / "queries.scen"
        with scen.open("w") as out:
            out.write("version 1\n")
            for (sx, sy), (gx, gy) in cells:
                out.write(f"0\tmap\t{width}\t{height}\t{sx}\t{sy}\t{gx}\t{gy}\t-1\n")
        t = time.perf_counter()
        subprocess.run([args.cli, "scen", args.map, str(scen), "--smooth", "shortcut"],
                       check=False, capture_output=True)
        timings["polynav scen (process, load and build included)"] = time.perf_counter() - t

    found = sum(r.found for r in loop)
    print(f"{args.queries} queries on {pathlib.Path(args.map).name} ({found} found), grid + shortcut\n")
    print("| how | total s | us per query | vs the Python loop |")
    print("|---|---|---|---|")
    base = timings["Python loop over plan"]
    for name, seconds in timings.items():
        print(f"| {name} | {seconds:.3f} | {seconds / args.queries * 1e6:.1f} | {base / seconds:.2f}x |")


if __name__ == "__main__":
    main()
