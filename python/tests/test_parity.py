"""Each Python argument that mirrors a command-line option gives what the command line gives:
the JSON of `polynav plan --json` and `polynav reach --json`, the nav_msgs/Path of
`--format ros-path`, the rows of `polynav experiment`, field for field (timings aside)."""

import csv
import json
import math
import os
import pathlib
import subprocess

import numpy as np
import pytest
import yaml

import polynav

SOURCE = pathlib.Path(os.environ.get("POLYNAV_SOURCE_DIR", pathlib.Path(__file__).parents[2]))
CLI = os.environ.get("POLYNAV_CLI", "polynav")
WAREHOUSE = str(SOURCE / "scenes" / "warehouse.yaml")
DEPOT = str(SOURCE / "scenes" / "ros" / "depot.yaml")
TIMES = ("build_ms", "search_ms", "smooth_ms")


def cli(*args, codes=(0, 1)):
    done = subprocess.run([CLI, *map(str, args)], capture_output=True, text=True, check=False)
    assert done.returncode in codes, f"{args}: exit {done.returncode}\n{done.stdout}{done.stderr}"
    return done


def without_times(result):
    result = dict(result)
    result["stats"] = {k: v for k, v in result["stats"].items() if k not in TIMES}
    return result


def cli_plans(*args):
    return [without_times(json.loads(line)) for line in cli("plan", *args).stdout.splitlines()]


def as_json(result, **kwargs):
    return without_times(json.loads(result.to_json(**kwargs)))


def point_text(p):
    return ",".join(repr(float(v)) for v in p)


def test_version_is_the_command_lines():
    assert cli("--version").stdout.strip() == f"polynav {polynav.__version__}"


def test_snap_moves_points_as_the_command_line_does():
    scene = polynav.load_scene(WAREHOUSE)
    inside = np.mean(scene.obstacles[0], axis=0)  # the middle of a rectangular shelf
    start, goal = inside, (30.0, 20.0)
    want = cli_plans(WAREHOUSE, "--start", point_text(start), "--goal", point_text(goal),
                     "--snap", "--json")
    got = polynav.Planner(scene, snap=True).plan(start, goal)
    assert got.found and got.start != tuple(start)
    assert [as_json(got)] == want
    # Without snap the same start is an invalid query, in both.
    assert polynav.Planner(scene).plan(start, goal).status == "invalid_query"


def test_a_goal_set_reaches_the_goal_the_command_line_reaches():
    goals = [(30.0, 20.0), (38.0, 2.0), (20.0, 12.0)]
    args = [WAREHOUSE, "--start", "2,1.5"]
    for g in goals:
        args += ["--goal", point_text(g)]
    want = cli_plans(*args, "--json")
    got = polynav.Planner(polynav.load_scene(WAREHOUSE)).plan((2, 1.5), np.array(goals))
    assert [as_json(got)] == want
    assert got.goal in goals
    # The goal reached is the cheapest: no single-goal plan is shorter.
    planner = polynav.Planner(polynav.load_scene(WAREHOUSE))
    assert got.cost <= min(planner.plan((2, 1.5), g).cost for g in goals) + 1e-9


def test_goal_yaw_and_query_name_in_the_json():
    want = cli_plans(WAREHOUSE, "--start", "2,1.5", "--goal", "30,20,1.25", "--json")
    got = polynav.Planner(polynav.load_scene(WAREHOUSE)).plan((2, 1.5), (30, 20))
    assert [as_json(got, goal_yaw=1.25)] == want
    assert list(json.loads(got.to_json(goal_yaw=1.25)))[-1] == "goal_yaw"
    named = cli_plans(WAREHOUSE, "--query", "dock-to-shelf", "--json")
    scene = polynav.load_scene(WAREHOUSE)
    name, start, goal = next(q for q in scene.queries if q[0] == "dock-to-shelf")
    assert [as_json(polynav.Planner(scene).plan(start, goal), query=name)] == named


def test_ros_path_is_the_command_lines_nav_msgs_path():
    for spacing, frame, yaw in ((None, "map", None), (0.5, "robot1/odom", 1.5708)):
        goal = "29,14" + ("" if yaw is None else f",{yaw}")
        args = [DEPOT, "--start", "16,1", "--goal", goal, "--format", "ros-path",
                "--frame-id", frame]
        if spacing is not None:
            args += ["--pose-spacing", spacing]
        want = next(yaml.safe_load_all(cli("plan", *args).stdout))
        result = polynav.Planner(polynav.load_scene(DEPOT)).plan((16, 1), (29, 14))
        got = result.to_ros_path(frame_id=frame, pose_spacing=spacing, goal_yaw=yaw)
        assert got == want
        poses = got["poses"]
        assert poses[0]["pose"]["position"] == {"x": 16.0, "y": 1.0, "z": 0.0}
        if spacing is not None:
            steps = [math.dist((a["pose"]["position"]["x"], a["pose"]["position"]["y"]),
                               (b["pose"]["position"]["x"], b["pose"]["position"]["y"]))
                     for a, b in zip(poses, poses[1:])]
            assert max(steps) <= spacing + 1e-12
        if yaw is not None:
            q = poses[-1]["pose"]["orientation"]
            assert math.isclose(2 * math.atan2(q["z"], q["w"]), yaw, abs_tol=1e-12)


def test_reach_is_the_command_lines_reach():
    for method, start, cost in (("grid", (2, 1.5), 4.0), ("visgraph", (2, 1.5), 12.0)):
        want = json.loads(cli("reach", WAREHOUSE, "--from", point_text(start), "--cost", cost,
                              "--method", method, "--json").stdout)
        reach = polynav.Planner(polynav.load_scene(WAREHOUSE), method=method,
                                smoother="none").reach(start, cost)
        assert json.loads(reach.to_json()) == want
        assert reach.status == want["status"] == "found"
        assert reach.nodes.tolist() == [n["node"] for n in want["nodes"]]
        assert reach.points.tolist() == [n["at"] for n in want["nodes"]]
        assert reach.costs.tolist() == [n["cost"] for n in want["nodes"]]
        assert len(reach.regions()) == len(reach)
        assert np.all(np.diff(reach.costs) >= 0) and reach.costs[-1] <= cost
    # A grid cell's region holds the node's point.
    reach = polynav.Planner(polynav.load_scene(WAREHOUSE)).reach((2, 1.5), 1.0)
    for point, region in zip(reach.points, reach.regions()):
        assert region.shape[1] == 2
        assert region[:, 0].min() <= point[0] <= region[:, 0].max()
        assert region[:, 1].min() <= point[1] <= region[:, 1].max()
    assert polynav.Planner(polynav.load_scene(WAREHOUSE)).reach((-5, -5), 1.0).status == \
        "invalid_query"


def test_load_and_free_space_options_plan_as_the_global_options_do():
    want = cli_plans("--radius", "0.22", "--map-unknown", "free", "--map-simplify", "0.1",
                     "--inflation", "exact", "--inflation-tolerance", "0.005", DEPOT,
                     "--start", "16,1", "--goal", "29,14", "--json")
    scene = polynav.load_scene(DEPOT, radius=0.22, map_unknown="free", map_simplify=0.1)
    planner = polynav.Planner(scene, inflation="exact", inflation_tolerance=0.005)
    assert [as_json(planner.plan((16, 1), (29, 14)))] == want
    # The same options through `options` give the same planner.
    same = polynav.Planner(scene, options={"space.inflation": "exact",
                                           "space.inflation_tolerance": 0.005})
    assert as_json(same.plan((16, 1), (29, 14))) == want[0]


def test_max_points_refuses_as_the_command_line_does():
    refused = cli("--max-points", "5", "validate", WAREHOUSE, codes=(2,))
    with pytest.raises(polynav.InputError) as error:
        polynav.load_scene(WAREHOUSE, max_points=5)
    assert str(error.value).split(": ")[-1] in refused.stderr


def read_csv(path):
    with open(path, newline="") as f:
        return list(csv.DictReader(f))


def comparable(rows):
    """Rows as the CSV writes them, timings dropped."""
    return [{k: v for k, v in r.items() if not k.endswith(("_ms", "_us"))} for r in rows]


@pytest.mark.parametrize("case", ["random", "scenario"])
def test_experiment_rows_equal_the_command_lines(tmp_path, case):
    if case == "random":
        scenes = [SOURCE / "scenes" / "maze.yaml", SOURCE / "scenes" / "office.yaml"]
        flags = ["--random", "6", "--seed", "3", "--methods", "grid:connectivity=4,visgraph",
                 "--smoothers", "none,shortcut", "--set", "search.weight=1.5",
                 "--radius", "0.1"]
        kwargs = dict(methods=["grid:connectivity=4", "visgraph"],
                      smoothers=["none", "shortcut"], random=6, seed=3,
                      settings={"search.weight": 1.5}, radius=0.1)
    else:
        scenes = [SOURCE / "scenes" / "movingai" / "arena.map"]
        flags = ["--methods", "grid:align=corner", "--smoothers", "none", "--shard", "2/3",
                 "--points", "auto"]
        kwargs = dict(methods=["grid:align=corner"], smoothers=["none"], shard=(2, 3),
                      points="auto")
    cli("experiment", *scenes, *flags, "--out", tmp_path / "cli.csv")
    rows = polynav.run_experiment(scenes, **kwargs, out=tmp_path / "py.csv",
                                  plot=tmp_path / "py.svg")
    want = comparable(read_csv(tmp_path / "cli.csv"))
    assert comparable(read_csv(tmp_path / "py.csv")) == want
    assert len(rows) == len(want) > 0
    assert (tmp_path / "py.svg").read_text().startswith("<svg")
    if case == "scenario":
        # auto puts MovingAI points on cell corners for corner-aligned grids: integer points.
        assert all(float(r["start_x"]).is_integer() for r in want)


def test_experiment_as_a_dataframe():
    pandas = pytest.importorskip("pandas")
    frame = polynav.run_experiment(str(SOURCE / "scenes" / "maze.yaml"), ["grid"], ["none"],
                                   random=3, dataframe=True)
    assert isinstance(frame, pandas.DataFrame)
    assert list(frame.columns) == polynav.csv_columns() and len(frame) == 3
    # Shards given as DataFrames merge like lists of rows.
    parts = [polynav.run_experiment(str(SOURCE / "scenes" / "maze.yaml"), ["grid"], ["none"],
                                    random=3, shard=(k, 2), dataframe=True) for k in (1, 2)]
    assert [r["query"] for r in polynav.merge_shards(parts)] == [0, 1, 2]
