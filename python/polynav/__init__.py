"""polynav: collision-free paths for a point or disc-shaped agent through 2D polygonal scenes.

    import polynav
    scene = polynav.load_scene("scenes/warehouse.yaml")
    planner = polynav.Planner(scene, method="grid", smoother="shortcut", resolution=0.25)
    result = planner.plan((2, 1.5), (30, 20))
    if result.found:
        print(result.length, result.waypoints)      # waypoints: (N, 2) float64 array

Scenes come from files (load_scene: native YAML/JSON, ROS maps, MovingAI maps, Polyanya meshes,
WKT, GeoJSON), from numpy occupancy grids (scene_from_occupancy) or from rings
(scene_from_polygons). A Planner builds free space and one discretisation once, then answers
plan(), plan_many() and reach() from any thread. run_experiment() is `polynav experiment`.
`python -m polynav ARGS` runs the command-line tool itself. Bad input raises polynav.InputError
(a ValueError) with file, line, column and key.
"""

import difflib as _difflib
import functools as _functools
import inspect as _inspect
import json as _json
import os as _os
import re as _re

from ._polynav import (EditablePlanner, InputError, PlanResult, Planner, Reach, Replanner,
                       Scene, __version__, csv_columns, load_scene, method_names,
                       scene_from_occupancy, smoother_names)
from . import _polynav

__all__ = ["EditablePlanner", "InputError", "PlanResult", "Planner", "Reach", "Replanner", "Scene", "__version__", "csv_columns",
           "draw_plan", "load_scene", "merge_shards", "method_names", "methods",
           "run_experiment", "scene_from_occupancy", "scene_from_polygons", "smoother_names"]


def _parameter_names(function):
    """The keyword names a function takes: from its signature, or for a C++ function from the
    signature line pybind11 writes at the top of its docstring ("name(a: T, b: T = 1) -> R")."""
    try:
        return [p.name for p in _inspect.signature(function).parameters.values()
                if p.kind in (p.POSITIONAL_OR_KEYWORD, p.KEYWORD_ONLY)]
    except (TypeError, ValueError):
        pass
    first = (function.__doc__ or "").lstrip().split("\n", 1)[0]
    inside = first[first.find("(") + 1:first.rfind(")")]
    names = []
    depth = 0
    token = ""
    for char in inside + ",":
        if char in "([{":
            depth += 1
        elif char in ")]}":
            depth -= 1
        if char == "," and depth == 0:
            name = _re.match(r"\s*\**(\w+)", token)
            if name and name.group(1) not in ("self", "kwargs", "args") and "*" not in token:
                names.append(name.group(1))
            token = ""
        else:
            token += char
    return names


def _checked_keywords(function, owner=None):
    """`function` with its keyword arguments checked: an unknown one raises InputError naming it,
    with the closest known name, instead of Python's TypeError."""
    names = _parameter_names(function)
    known = frozenset(names)
    title = function.__name__ if owner is None else f"{owner}.{function.__name__}"

    @_functools.wraps(function)
    def checked(*args, **kwargs):
        if kwargs and not known.issuperset(kwargs):
            unknown = sorted(set(kwargs) - known)[0]
            close = _difflib.get_close_matches(unknown, names, n=1)
            hint = f" (did you mean '{close[0]}'?)" if close else ""
            raise InputError(f"{title}() has no argument '{unknown}'{hint}; it takes "
                             f"{', '.join(names)}", key=unknown)
        return function(*args, **kwargs)

    return checked


# The C++ functions and methods whose keywords are fixed (Planner() takes any method option).
load_scene = _checked_keywords(load_scene)
scene_from_occupancy = _checked_keywords(scene_from_occupancy)
for _name in ("plan", "plan_many", "reach"):
    setattr(Planner, _name, _checked_keywords(getattr(Planner, _name), "Planner"))
for _name in ("plan", "add_obstacle", "move_obstacle", "add_region", "move_region"):
    setattr(EditablePlanner, _name,
            _checked_keywords(getattr(EditablePlanner, _name), "EditablePlanner"))
for _name in ("to_json", "to_ros_path"):
    setattr(PlanResult, _name, _checked_keywords(getattr(PlanResult, _name), "PlanResult"))


@_checked_keywords
def methods():
    """Every method, smoother and option of the registry, as `polynav methods --json` gives
    them: {"methods": [...], "smoothers": [...], "search": [...], "space": [...]}.

    >>> grid = polynav.methods()["methods"][0]
    >>> grid["name"], "resolution" in [o["name"] for o in grid["options"]]
    ('grid', True)
    """
    return _json.loads(_polynav._registry_json())


@_checked_keywords
def draw_plan(scene, planner, results, path=None, width=1000):
    """The picture `polynav plan --svg` draws: the scene, the planner's discretisation and each
    result's expanded nodes, raw path and path (with its waypoints), as SVG text. `results` is
    one PlanResult or a sequence of them, planned by `planner` on `scene`. With `path` (a str or
    os.PathLike) the picture is written there too. `width` is in pixels (100 to 20000).
    Expanded nodes show when the planner was built with record_expanded=True.

    >>> scene = polynav.load_scene("scenes/warehouse.yaml")
    >>> planner = polynav.Planner(scene)
    >>> polynav.draw_plan(scene, planner, planner.plan((2, 1.5), (30, 20))).startswith("<svg")
    True
    """
    if isinstance(results, PlanResult):
        results = [results]
    target = "" if path is None else _os.fspath(path)
    return _polynav._draw_plan(scene, planner, list(results), target, float(width))


def _ring(points, what):
    try:
        ring = [[float(x), float(y)] for x, y in points]
    except (TypeError, ValueError) as error:
        raise InputError(f"{what} must be a sequence of (x, y) points ({error})", key=what)
    return ring


@_checked_keywords
def scene_from_polygons(bounds, obstacles=(), radius=0.0, regions=(), name="python"):
    """A scene from rings given as (N, 2) arrays or lists of (x, y): `bounds` one ring,
    `obstacles` a list of rings, `regions` a list of dicts {"polygon": ring, "cost": c,
    "height": h}. It is validated like a scene file; errors name the key ("obstacles[2]").

    >>> square = [[4, 4], [6, 4], [6, 6], [4, 6]]
    >>> scene = polynav.scene_from_polygons([[0, 0], [10, 0], [10, 10], [0, 10]], [square],
    ...                                     radius=0.2)
    >>> len(scene.obstacles), scene.radius
    (1, 0.2)
    """
    document = {
        "version": 1,
        "name": name,
        "bounds": _ring(bounds, "bounds"),
        "agent": {"radius": float(radius)},
        "obstacles": [_ring(o, f"obstacles[{i}]") for i, o in enumerate(obstacles)],
    }
    if regions:
        document["regions"] = [
            dict(r, polygon=_ring(r["polygon"], f"regions[{i}].polygon"))
            for i, r in enumerate(regions)]
    return Scene.from_text(_json.dumps(document), f"{name}.json")


def _paths(value, what):
    """One path or a sequence of them (str or os.PathLike) as a list of str."""
    if isinstance(value, (str, bytes, _os.PathLike)):
        value = [value]
    try:
        return [_os.fsdecode(v) for v in value]
    except TypeError as error:
        raise InputError(f"{what} must be a path or a sequence of paths ({error})", key=what)


def _write_experiment(rows, out, plot):
    """Writes the rows as the experiment's CSV to `out` and its figures to `plot` (either may be
    None), each whole or not at all."""
    if out is not None or plot is not None:
        _polynav._write_experiment(rows, "" if out is None else _os.fspath(out),
                                   "" if plot is None else _os.fspath(plot))


def _rows_as_dataframe(rows):
    try:
        import pandas
    except ImportError as error:
        raise InputError("dataframe=True needs pandas (Debian: apt-get install python3-pandas; "
                         "pip: the polynav[dataframe] extra)", key="dataframe") from error
    return pandas.DataFrame(rows, columns=csv_columns())


@_checked_keywords
def run_experiment(scenes, methods=None, smoothers=("none", "shortcut"), *, scen=None,
                   random=0, seed=1, any_component=False, settings=None, jobs=1, shard=(1, 1),
                   points="auto", reference_max_corners=20000, radius=None, inflation=None,
                   inflation_tolerance=None, map_unknown="blocked", map_simplify=0.0,
                   max_points=2000000, repair=False, out=None, plot=None, dataframe=False):
    """Runs an experiment like `polynav experiment` and returns its rows: one dict per scene x
    method spec x smoother x query with the CSV's columns (csv_columns()), in the CLI's order.

    The arguments are the command line's: scenes (SCENE...), methods (--methods: specs such as
    "grid:connectivity=4"; default every method), smoothers (--smoothers), scen (--scen: one
    MovingAI .scen per scene; default the scenes' own queries, else SCENE.scen), random and seed
    (--random, at most 1000000 per scene, and --seed), any_component (--any-component), settings (--set, as
    {"group.name": value}), jobs (--jobs), shard (--shard K/N as (K, N)), points (--points:
    "auto", "centres" or "corners"), reference_max_corners (--reference-max-corners), out
    (--out: the CSV) and plot (--plot: the SVG figures); radius, inflation,
    inflation_tolerance, map_unknown, map_simplify, max_points and repair are the global
    options. With dataframe=True the rows come as a pandas DataFrame.

    >>> rows = polynav.run_experiment(["scenes/maze.yaml"], ["grid", "visgraph"], ["shortcut"],
    ...                               random=5)
    >>> len(rows), sorted({row["method"] for row in rows})
    (10, ['grid', 'visgraph'])
    """
    scenes = _paths(scenes, "scenes")
    if scen is not None:
        scen = _paths(scen, "scen")
    if isinstance(methods, str):
        methods = methods.split(",")
    if isinstance(smoothers, str):
        smoothers = smoothers.split(",")
    try:
        shard_index, shard_count = (int(k) for k in shard)
    except (TypeError, ValueError) as error:
        raise InputError(f"shard must be (K, N), found {shard!r}", key="shard") from error
    rows = _polynav._run_experiment(
        scenes, list(methods or method_names()), list(smoothers), dict(settings or {}),
        scen or [], int(random), int(seed), not any_component, int(jobs), shard_index,
        shard_count, str(points), int(reference_max_corners), radius, inflation,
        inflation_tolerance, map_unknown, float(map_simplify), int(max_points), bool(repair))
    _write_experiment(rows, out, plot)
    return _rows_as_dataframe(rows) if dataframe else rows


@_checked_keywords
def merge_shards(shards):
    """The rows of an experiment's shards (lists of row dicts or DataFrames, any order) joined
    into the rows of the unsharded run, as `polynav merge` does.

    >>> parts = [polynav.run_experiment("scenes/maze.yaml", ["grid"], ["none"], random=4,
    ...                                 shard=(k, 2)) for k in (1, 2)]
    >>> [row["query"] for row in polynav.merge_shards(parts)]
    [0, 1, 2, 3]
    """
    lists = [s.to_dict("records") if hasattr(s, "to_dict") else list(s) for s in shards]
    return _polynav._merge_shards(lists)
