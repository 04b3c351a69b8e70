"""The Python bindings against the command line and the C++ core: the same results as
`polynav plan --json` on every bundled scene, threads that change nothing, errors with their
location, and the experiment runner's rows."""

import json
import math
import os
import pathlib
import subprocess
import threading

import numpy as np
import pytest

import polynav

SOURCE = pathlib.Path(os.environ.get("POLYNAV_SOURCE_DIR", pathlib.Path(__file__).parents[2]))
WAREHOUSE = str(SOURCE / "scenes" / "warehouse.yaml")
CLI = os.environ.get("POLYNAV_CLI", "polynav")
SCENES = sorted((SOURCE / "scenes").glob("*.yaml")) + sorted((SOURCE / "scenes").glob("*.json"))
TIMES = ("build_ms", "search_ms", "smooth_ms")


def without_times(result):
    result["stats"] = {k: v for k, v in result["stats"].items() if k not in TIMES}
    result.pop("query", None)
    return result


@pytest.mark.parametrize("scene_path", SCENES, ids=lambda p: p.name)
@pytest.mark.parametrize("method", ["grid", "visgraph"])
def test_plans_equal_the_command_line(scene_path, method):
    cli = subprocess.run([CLI, "plan", str(scene_path), "--method", method, "--json"],
                         capture_output=True, text=True, check=False)
    assert cli.returncode in (0, 1), cli.stderr
    expected = [without_times(json.loads(line)) for line in cli.stdout.splitlines()]
    scene = polynav.load_scene(str(scene_path))
    planner = polynav.Planner(scene, method=method)
    assert len(expected) == len(scene.queries)
    for (name, start, goal), want in zip(scene.queries, expected):
        result = planner.plan(start, goal)
        assert without_times(json.loads(result.to_json())) == want, name
        if result.found:
            assert result.waypoints.shape == (len(want["waypoints"]), 2)
            assert result.waypoints.dtype == np.float64
            assert math.isclose(result.length, want["length"], rel_tol=0, abs_tol=0)


def test_plan_many_from_threads_equals_sequential_planning():
    scene = polynav.load_scene(str(SOURCE / "scenes" / "maze.yaml"))
    planner = polynav.Planner(scene, method="grid")
    rng = np.random.default_rng(4)
    # Free points: the queries' own, jittered inside their cells, several times over.
    base = np.array([[q[1], q[2]] for q in scene.queries], dtype=float)
    starts = np.repeat(base[:, 0, :], 25, axis=0)
    goals = np.repeat(base[:, 1, :], 25, axis=0)
    order = rng.permutation(len(starts))
    starts, goals = starts[order], goals[order]
    sequential = [planner.plan(s, g) for s, g in zip(starts, goals)]
    results = [None] * 3

    def run(k):
        results[k] = planner.plan_many(starts, goals, threads=2)

    threads = [threading.Thread(target=run, args=(k,)) for k in range(3)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    for many in results:
        assert len(many) == len(sequential)
        for a, b in zip(many, sequential):
            assert a.status == b.status
            assert np.array_equal(a.waypoints, b.waypoints)


def test_bad_input_raises_input_error_with_the_location(tmp_path):
    bad = tmp_path / "bad.yaml"
    bad.write_text("version: 1\nbounds: [[0, 0], [10, 0], [10, 10], [0, 10]]\nagent:\n  radius: -1\n")
    with pytest.raises(polynav.InputError) as error:
        polynav.load_scene(str(bad))
    assert isinstance(error.value, ValueError)
    assert error.value.file == str(bad)
    assert error.value.line == 4
    assert "radius" in error.value.key
    scene = polynav.load_scene(str(SOURCE / "scenes" / "maze.yaml"))
    with pytest.raises(polynav.InputError) as error:
        polynav.Planner(scene, method="grid", resolutoin=0.5)
    assert error.value.key == "grid.resolutoin"
    assert "did you mean 'grid.resolution'" in str(error.value)
    with pytest.raises(polynav.InputError):
        polynav.Planner(scene, method="gird")
    planner = polynav.Planner(scene)
    with pytest.raises(polynav.InputError):
        planner.plan((1, 2, 3), (4, 5))
    with pytest.raises(polynav.InputError):
        planner.plan_many(np.zeros((3, 2)), np.zeros((2, 2)))
    with pytest.raises(polynav.InputError) as error:
        polynav.scene_from_polygons([[0, 0], [1, 0], [1, 1], [0, 1]], [[[0.2, 0.2], [0.4, 0.2]]])
    assert error.value.key == "obstacles[0]"
    # A query outside free space is an answer, not an exception.
    assert planner.plan((-5, -5), (1, 1)).status == "invalid_query"


def test_input_errors_are_one_line_whatever_the_file_holds(tmp_path):
    # A map whose image name holds a line break: the message quotes it escaped.
    ros_map = tmp_path / "broken.yaml"
    ros_map.write_text('image: "a\\nb.pgm"\nresolution: 0.05\norigin: [0, 0, 0]\nnegate: 0\n'
                       "occupied_thresh: 0.65\nfree_thresh: 0.2\n")
    with pytest.raises(polynav.InputError) as error:
        polynav.load_scene(str(ros_map))
    message = str(error.value)
    assert "\n" not in message and len(message.splitlines()) == 1
    assert "cannot read the image 'a\\nb.pgm'" in message
    assert error.value.file == str(ros_map)
    assert error.value.key == "image"
    # A file name that is not UTF-8: the scene is named with U+FFFD, and an error's `file` is
    # the name as os.fsdecode gives it, which opens the same file.
    named = tmp_path / os.fsdecode(b"bad\xff.yaml")
    named.write_text("version: 1\nbounds: [[0, 0], [4, 0], [4, 3], [0, 3]]\n")
    assert polynav.load_scene(str(named)).name == "bad\ufffd"
    named.write_text("version: 1\nbounds: [[0, 0], [4, 0]]\n")
    with pytest.raises(polynav.InputError) as error:
        polynav.load_scene(str(named))
    assert error.value.file == str(named)
    assert "bad\\xff.yaml:2:9: bounds" in str(error.value)


def test_scenes_from_arrays_plan_like_scene_files():
    square = np.array([[4, 4], [6, 4], [6, 6], [4, 6]], dtype=float)
    scene = polynav.scene_from_polygons([[0, 0], [10, 0], [10, 10], [0, 10]], [square])
    result = polynav.Planner(scene, method="visgraph", smoother="none").plan((2, 5), (8, 5))
    assert result.found
    # Around the square's corner: from (2, 5) to (4, 6) to (6, 6) to (8, 5).
    assert math.isclose(result.length, 2 * math.hypot(2, 1) + 2, rel_tol=1e-12)


def test_registry_is_visible_from_python():
    registry = polynav.methods()
    assert [m["name"] for m in registry["methods"]] == polynav.method_names()
    assert [s["name"] for s in registry["smoothers"]] == polynav.smoother_names()
    grid = next(m for m in registry["methods"] if m["name"] == "grid")
    assert "resolution" in [o["name"] for o in grid["options"]]


def test_experiment_rows_and_shards():
    scenes = [str(SOURCE / "scenes" / "maze.yaml"), str(SOURCE / "scenes" / "island.yaml")]
    options = dict(methods=["grid:connectivity=4", "visgraph"], smoothers=["none", "shortcut"],
                   random=5, seed=3)
    rows = polynav.run_experiment(scenes, **options)
    assert len(rows) == 2 * 2 * 2 * 5
    assert list(rows[0]) == polynav.csv_columns()
    for row in rows:
        assert row["status"] == "found"
        assert row["ratio"] >= 1 - 1e-9
    # Never empty (pandas would read an empty field of the CSV as NaN and groupby would drop it).
    assert {r["options"] for r in rows} == {"connectivity=4", "default"}
    parts = [polynav.run_experiment(scenes, shard=(k, 3), **options) for k in (3, 1, 2)]
    merged = polynav.merge_shards(parts)
    strip = lambda rs: [{k: v for k, v in r.items() if not k.endswith(("_ms", "_us"))} for r in rs]
    assert strip(merged) == strip(rows)
    pandas = pytest.importorskip("pandas")
    frame = polynav.run_experiment(scenes, dataframe=True, **options)
    assert isinstance(frame, pandas.DataFrame) and len(frame) == len(rows)


def cli_plan(global_options, scene, start, goal):
    """One `polynav plan --json` answer with the global options given before the subcommand."""
    cli = subprocess.run([CLI, *global_options, "plan", str(scene), "--method", "visgraph",
                          "--start", f"{start[0]!r},{start[1]!r}", "--goal", f"{goal[0]!r},{goal[1]!r}",
                          "--json"], capture_output=True, text=True, check=False)
    assert cli.returncode in (0, 1), cli.stderr
    return without_times(json.loads(cli.stdout.splitlines()[0]))


def test_load_scene_takes_the_command_lines_global_options():
    turtlebot = SOURCE / "scenes" / "ros" / "turtlebot3_world.yaml"
    start, goal = (-2.0, 0.5), (2.0, -0.5)
    plain = polynav.load_scene(str(turtlebot))
    for keywords, options in [
            (dict(radius=0.1), ["--radius", "0.1"]),
            (dict(map_unknown="free"), ["--map-unknown", "free"]),
            (dict(map_simplify=0.15), ["--map-simplify", "0.15"]),
            (dict(radius=0.05, map_unknown="free", map_simplify=0.1),
             ["--radius", "0.05", "--map-unknown", "free", "--map-simplify", "0.1"])]:
        scene = polynav.load_scene(str(turtlebot), **keywords)
        assert scene.radius == keywords.get("radius", 0.0)
        result = polynav.Planner(scene, method="visgraph").plan(start, goal)
        assert without_times(json.loads(result.to_json())) == cli_plan(options, turtlebot, start,
                                                                       goal), keywords
    # Positional, as the signature reads, and the defaults are the plain load.
    assert polynav.load_scene(str(turtlebot), None, "blocked", 0.0).radius == plain.radius
    # max_points counts a native scene's points, as --max-points does.
    maze = str(SOURCE / "scenes" / "maze.yaml")
    polynav.load_scene(maze, max_points=1000)
    with pytest.raises(polynav.InputError) as error:
        polynav.load_scene(maze, max_points=5)
    assert "the scene has more than 5 points" in str(error.value)


def cli_error(global_options):
    """The message after 'error: KEY: ' of a command line refused for a bad global option."""
    maze = SOURCE / "scenes" / "maze.yaml"
    cli = subprocess.run([CLI, *global_options, "validate", str(maze)], capture_output=True,
                         text=True, check=False)
    assert cli.returncode == 2, cli.stderr
    line = cli.stderr.strip()
    key = global_options[0] + ": "
    assert line.startswith("error: " + key), line
    return line[len("error: " + key):]


@pytest.mark.parametrize("keywords, options", [
    (dict(radius=-1.0), ["--radius", "-1"]),
    (dict(radius=1e20), ["--radius", "1e20"]),
    (dict(map_unknown="fre"), ["--map-unknown", "fre"]),
    (dict(map_unknown="unknown"), ["--map-unknown", "unknown"]),
    (dict(map_simplify=-0.5), ["--map-simplify", "-0.5"]),
    (dict(max_points=0), ["--max-points", "0"]),
], ids=["negative-radius", "huge-radius", "misspelt-unknown", "bad-unknown", "negative-simplify",
        "no-points"])
def test_bad_load_options_raise_the_command_lines_message(keywords, options):
    maze = str(SOURCE / "scenes" / "maze.yaml")
    with pytest.raises(polynav.InputError) as error:
        polynav.load_scene(maze, **keywords)
    (keyword,) = keywords
    assert error.value.key == keyword
    assert str(error.value) == keyword + ": " + cli_error(options)


def test_load_options_that_are_not_numbers_are_type_errors():
    maze = str(SOURCE / "scenes" / "maze.yaml")
    with pytest.raises(polynav.InputError) as error:
        polynav.load_scene(maze, radius=float("nan"))
    assert "the agent radius must be a finite number >= 0, found nan" in str(error.value)
    with pytest.raises(TypeError):
        polynav.load_scene(maze, max_points=-3)


@pytest.mark.parametrize("call, key", [
    (lambda p: p.plan((1, 2, 3), (4, 5)), "start"),
    (lambda p: p.plan((float("nan"), 2), (4, 5)), "start"),
    (lambda p: p.plan((2, 1.5), [[30, 20], [3, 4, 5]]), "goal"),     # goals of mixed shapes
    (lambda p: p.plan((2, 1.5), np.zeros((0, 2))), "goal"),         # an empty goal set
    (lambda p: p.plan((2, 1.5), np.zeros((2, 2, 2))), "goal"),
    (lambda p: p.plan((2, 1.5), [[30, 20], [float("inf"), 1]]), "goal[1]"),
    (lambda p: p.plan((2, 1.5), "30,20"), "goal"),
    (lambda p: p.plan((2, 1.5), (30, 20), gaol=1), "gaol"),
    (lambda p: p.plan_many(np.zeros((3, 2)), np.zeros((3, 3))), "goals"),
    (lambda p: p.plan_many([[1, 2]], [[float("nan"), 2]]), "goals[0]"),
    (lambda p: p.reach((2, 1.5), -1.0), "cost"),
    (lambda p: p.reach((2, 1.5), float("inf")), "cost"),
    (lambda p: p.reach((2,), 1.0), "start"),
    (lambda p: p.reach((2, 1.5), 1.0, max_cost=2), "max_cost"),
    (lambda p: p.plan((2, 1.5), (30, 20)).to_ros_path(frame_id="/map"), "frame_id"),
    (lambda p: p.plan((2, 1.5), (30, 20)).to_ros_path(pose_spacing=0.0), "pose_spacing"),
    (lambda p: p.plan((2, 1.5), (30, 20)).to_ros_path(pose_spacing=1e-9), "pose_spacing"),
    (lambda p: p.plan((2, 1.5), (30, 20)).to_ros_path(goal_yaw=float("nan")), "goal_yaw"),
    (lambda p: p.plan((2, 1.5), (30, 20)).to_json(goal_yaw=float("inf")), "goal_yaw"),
    (lambda p: p.plan((2, 1.5), (30, 20)).to_json(querry="a"), "querry"),
    (lambda p: polynav.Planner(polynav.load_scene(WAREHOUSE), inflation="exakt"), "space.inflation"),
    (lambda p: polynav.Planner(polynav.load_scene(WAREHOUSE), inflation_tolerance=-1),
     "space.inflation_tolerance"),
    (lambda p: polynav.load_scene(WAREHOUSE, radus=1), "radus"),
    (lambda p: polynav.run_experiment(WAREHOUSE, ["grid"], random=2, shard=(3, 2)), "shard"),
    (lambda p: polynav.run_experiment(WAREHOUSE, ["grid"], random=2, points="middle"), "points"),
    (lambda p: polynav.run_experiment(WAREHOUSE, ["grid"], ["shortcat"], random=2), "smoothers"),
    (lambda p: polynav.run_experiment(WAREHOUSE, ["grid"], random=2, seeds=3), "seeds"),
    (lambda p: polynav.run_experiment([WAREHOUSE, WAREHOUSE], ["grid"], scen=[WAREHOUSE]),
     "scen"),
])
def test_bad_arguments_raise_input_error_naming_them(call, key):
    planner = polynav.Planner(polynav.load_scene(WAREHOUSE))
    with pytest.raises(polynav.InputError) as error:
        call(planner)
    assert isinstance(error.value, ValueError)
    assert error.value.key == key, str(error.value)


def test_a_mistyped_keyword_gets_the_closest_name():
    with pytest.raises(polynav.InputError) as error:
        polynav.load_scene(WAREHOUSE, map_simplfy=0.1)
    assert "did you mean 'map_simplify'" in str(error.value)


def test_a_calls_radius_plans_as_the_scene_loaded_with_it():
    planner = polynav.Planner(polynav.load_scene(WAREHOUSE), method="visgraph")
    for radius in (0.1, 0.5, 0.8):
        own = polynav.Planner(polynav.load_scene(WAREHOUSE, radius=radius), method="visgraph")
        for start, goal in [((2, 1.5), (30, 20)), ((5, 18), (38, 2))]:
            sized = planner.plan(start, goal, radius=radius)
            direct = own.plan(start, goal)
            assert sized.radius == radius
            assert sized.status == direct.status
            assert np.array_equal(sized.waypoints, direct.waypoints)
    with pytest.raises(polynav.InputError) as error:
        planner.plan((2, 1.5), (30, 20), radius=-1.0)
    assert error.value.key == "radius"


def test_flee_ends_far_enough_from_every_threat():
    planner = polynav.Planner(polynav.load_scene(WAREHOUSE), method="navmesh")
    threats = np.array([[8.0, 6.0], [6.0, 3.0]])
    result = planner.flee((5, 5), threats, 10.0)
    assert result.status == "found", result.message
    goal = np.array(result.goal)
    assert (np.hypot(*(goal - threats).T) >= 10.0).all()
    assert np.array_equal(result.waypoints[-1], goal)
    assert planner.flee((5, 5), threats, 1e4).status == "no_path"
    with pytest.raises(polynav.InputError):
        planner.flee((5, 5), threats, -1.0)


def test_replanner_repairs_its_search_and_answers_as_the_live_planner():
    live = polynav.EditablePlanner(polynav.load_scene(WAREHOUSE))
    route = polynav.Replanner(live, (38, 20))
    first = route.plan((2, 1.5))
    assert first.status == "found" and route.fresh
    middle = first.raw_waypoints[len(first.raw_waypoints) // 2]
    live.add_obstacle(np.array(middle) + [[-0.6, -0.6], [0.6, -0.6], [0.6, 0.6], [-0.6, 0.6]])
    again = route.plan((2, 1.5))
    assert not route.fresh and route.changed_nodes > 0
    fresh = live.plan((2, 1.5), (38, 20))
    assert again.status == fresh.status == "found"
    assert abs(again.raw_length - fresh.raw_length) < 1e-9
    assert again.expanded < polynav.Replanner(live, (38, 20)).plan((2, 1.5)).expanded
    with pytest.raises(polynav.InputError):
        polynav.Replanner(polynav.EditablePlanner(live.scene, method="visgraph"), (38, 20))


def test_replanner_follows_a_mesh_corridor_while_no_edit_could_block_or_shorten_it():
    live = polynav.EditablePlanner(polynav.load_scene(WAREHOUSE), method="navmesh",
                                   options={"navmesh.search": "optimal"})
    route = polynav.Replanner(live, (38, 20))
    first = route.plan((2, 1.5))
    assert first.status == "found" and route.fresh and route.portals > 0
    on = first.raw_waypoints[1]
    followed = route.plan(on)
    assert not route.fresh and followed.expanded == 0
    assert abs(followed.raw_length - live.plan(on, (38, 20)).raw_length) < 1e-9
    middle = followed.raw_waypoints[len(followed.raw_waypoints) // 2]
    live.add_obstacle(np.array(middle) + [[-0.6, -0.6], [0.6, -0.6], [0.6, 0.6], [-0.6, 0.6]])
    around = route.plan(on)
    assert route.fresh and around.status == "found"
    assert abs(around.raw_length - live.plan(on, (38, 20)).raw_length) < 1e-9


def test_editable_planner_answers_as_a_planner_of_the_edited_scene():
    scene = polynav.load_scene(WAREHOUSE)
    live = polynav.EditablePlanner(scene, method="visgraph")
    lane = ((20, 1.5), (20, 19))
    before = live.plan(*lane)
    pallet = live.add_obstacle([[19, 9.5], [21, 9.5], [21, 11.5], [19, 11.5]])
    assert pallet == len(scene.obstacles)
    assert live.version == 1
    around = live.plan(*lane)
    assert around.status == "found" and around.cost > before.cost
    # The same as a planner built from the edited scene.
    direct = polynav.Planner(live.scene, method="visgraph").plan(*lane)
    assert np.array_equal(around.waypoints, direct.waypoints)
    live.move_obstacle(pallet, (10, 0))
    spill = live.add_region([[19, 0.5], [21, 0.5], [21, 20], [19, 20]], 4.0, name="spill")
    assert live.region_ids[-1] == spill
    live.remove_region(spill)
    live.remove_obstacle(pallet)
    assert np.array_equal(live.plan(*lane).waypoints, before.waypoints)
    assert live.version == 5
    with pytest.raises(polynav.InputError) as error:
        live.remove_obstacle(pallet)
    assert "no obstacle has id" in str(error.value)
    with pytest.raises(polynav.InputError):
        live.add_obstacle([[0, 0], [2, 2], [2, 0], [0, 2]])
    assert live.version == 5
