"""polynav.scene_from_occupancy against the ROS map files: the bundled maps' images, read here
with Pillow and classified as map_server classifies pixels (an oracle independent of polynav's
image reader), give the same scene and the same paths as loading the map file; and bad arrays
raise polynav.InputError naming the argument."""

import math
import os
import pathlib

import numpy as np
import pytest
import yaml

import polynav

Image = pytest.importorskip("PIL.Image")

SOURCE = pathlib.Path(os.environ.get("POLYNAV_SOURCE_DIR", pathlib.Path(__file__).parents[2]))
MAPS = sorted((SOURCE / "scenes" / "ros").glob("*.yaml"))


def occupancy_grid(map_file):
    """The map as nav_msgs/OccupancyGrid values (100 occupied, 0 free, -1 unknown), row 0 at
    the origin, and the map file's keys. map_server's trinary mode: p = 1 - mean of the colour
    channels / 255 (negate: the mean itself); p > occupied_thresh occupied, p < free_thresh
    free, else unknown."""
    keys = yaml.safe_load(map_file.read_text())
    assert keys.get("mode", "trinary") == "trinary"
    pixels = np.asarray(Image.open(map_file.parent / keys["image"]).convert("RGB"), dtype=float)
    shade = pixels.mean(axis=2) / 255.0
    p = shade if keys["negate"] else 1.0 - shade
    grid = np.full(p.shape, -1, dtype=np.int8)
    grid[p > keys["occupied_thresh"]] = 100
    grid[p < keys["free_thresh"]] = 0
    return grid[::-1], keys  # image rows run from the top; OccupancyGrid rows from the origin


def free_points(scene, count, seed):
    """Points spread over the scene's bounds (some free, some not: both must agree)."""
    rng = np.random.default_rng(seed)
    low, high = scene.bounds.min(axis=0), scene.bounds.max(axis=0)
    return low + (high - low) * rng.random((count, 2))


@pytest.mark.parametrize("map_file", MAPS, ids=lambda p: p.stem)
@pytest.mark.parametrize("unknown", ["blocked", "free"])
def test_arrays_plan_as_the_map_files(map_file, unknown):
    grid, keys = occupancy_grid(map_file)
    from_file = polynav.load_scene(map_file, radius=0.1, map_unknown=unknown)
    from_array = polynav.scene_from_occupancy(grid, keys["resolution"], keys["origin"][:2],
                                              yaw=keys["origin"][2], radius=0.1,
                                              map_unknown=unknown, name=map_file.stem)
    assert from_array.name == from_file.name
    np.testing.assert_array_equal(from_array.bounds, from_file.bounds)
    assert len(from_array.obstacles) == len(from_file.obstacles)
    for a, b in zip(from_array.obstacles, from_file.obstacles):
        np.testing.assert_array_equal(a, b)
    starts, goals = free_points(from_file, 40, 1), free_points(from_file, 40, 2)
    for method in ("grid", "navmesh"):
        a = polynav.Planner(from_file, method=method).plan_many(starts, goals)
        b = polynav.Planner(from_array, method=method).plan_many(starts, goals)
        assert [r.status for r in a] == [r.status for r in b]
        assert [r.length for r in a] == [r.length for r in b]
        assert any(r.found for r in a)


def test_bool_grids_and_turned_grids(tmp_path):
    grid, keys = occupancy_grid(SOURCE / "scenes" / "ros" / "depot.yaml")
    occupied = grid != 0  # unknown read as blocked, as the default does
    as_bool = polynav.scene_from_occupancy(occupied, 0.2, (15.0, 0.15))
    as_int = polynav.scene_from_occupancy(grid, 0.2, (15.0, 0.15))
    for a, b in zip(as_bool.obstacles, as_int.obstacles):
        np.testing.assert_array_equal(a, b)
    # A map file whose origin turns the grid, against the same turn given to the array.
    image = (SOURCE / "scenes" / "ros" / "depot.pgm").resolve()
    turned = tmp_path / "turned.yaml"
    turned.write_text(f"image: {image}\nresolution: 0.2\norigin: [15.0, 0.15, 0.3]\n"
                      "negate: 0\noccupied_thresh: 0.65\nfree_thresh: 0.25\n")
    from_file = polynav.load_scene(turned)
    from_array = polynav.scene_from_occupancy(grid, 0.2, (15.0, 0.15), yaw=0.3, name="turned")
    np.testing.assert_array_equal(from_array.bounds, from_file.bounds)
    for a, b in zip(from_array.obstacles, from_file.obstacles):
        np.testing.assert_array_equal(a, b)


def test_a_wall_in_a_numpy_grid_is_planned_around():
    grid = np.zeros((40, 60), dtype=np.int8)  # 60 x 40 cells of 5 cm
    grid[5:40, 28:30] = 100                     # a wall from y = 0.25 up to the top
    scene = polynav.scene_from_occupancy(grid, 0.05, origin=(0.0, 0.0), radius=0.05)
    result = polynav.Planner(scene, method="visgraph").plan((0.5, 1.5), (2.5, 1.5))
    assert result.found
    # Around the wall's lower end (x 1.4 to 1.5, y from 0.25), kept 0.05 away.
    assert result.waypoints[:, 1].min() < 0.25
    assert result.length > 2 * math.hypot(1.0, 1.25) - 0.2


@pytest.mark.parametrize("grid, resolution, kwargs, key", [
    (np.zeros((3, 3, 2), dtype=np.int8), 1.0, {}, "grid"),
    (np.zeros(9, dtype=np.int8), 1.0, {}, "grid"),
    (np.zeros((3, 3)), 1.0, {}, "grid"),                      # float64
    (np.full((3, 3), np.nan), 1.0, {}, "grid"),
    (np.array([[0, 101]], dtype=np.int16), 1.0, {}, "grid"),
    (np.array([[0, -2]], dtype=np.int8), 1.0, {}, "grid"),
    (np.zeros((0, 4), dtype=np.int8), 1.0, {}, "grid"),
    (np.zeros((3, 3), dtype=np.int8), 0.0, {}, "resolution"),
    (np.zeros((3, 3), dtype=np.int8), -1.0, {}, "resolution"),
    (np.zeros((3, 3), dtype=np.int8), math.nan, {}, "resolution"),
    (np.zeros((3, 3), dtype=np.int8), 1.0, {"origin": (math.nan, 0)}, "origin"),
    (np.zeros((3, 3), dtype=np.int8), 1.0, {"origin": (1, 2, 3)}, "origin"),
    (np.zeros((3, 3), dtype=np.int8), 1.0, {"yaw": math.inf}, "yaw"),
    (np.zeros((3, 3), dtype=np.int8), 1.0, {"occupied_thresh": 1.5}, "occupied_thresh"),
    (np.zeros((3, 3), dtype=np.int8), 1.0, {"free_thresh": 0.9}, "free_thresh"),
    (np.zeros((3, 3), dtype=np.int8), 1.0, {"radius": -1.0}, "radius"),
    (np.zeros((3, 3), dtype=np.int8), 1.0, {"map_unknown": "fre"}, "map_unknown"),
    (np.zeros((3, 3), dtype=np.int8), 1.0, {"resolutoin": 1.0}, "resolutoin"),
])
def test_bad_arrays_raise_input_error_naming_the_argument(grid, resolution, kwargs, key):
    with pytest.raises(polynav.InputError) as error:
        polynav.scene_from_occupancy(grid, resolution, **kwargs)
    assert isinstance(error.value, ValueError)
    assert error.value.key == key, str(error.value)


def test_oversized_grids_are_refused_before_any_work():
    big = np.broadcast_to(np.int8(0), (1 << 14, 1 << 13))  # 2^27 cells, no memory behind them
    with pytest.raises(polynav.InputError) as error:
        polynav.scene_from_occupancy(big, 1.0)
    assert error.value.key == "grid" and "more than" in str(error.value)
