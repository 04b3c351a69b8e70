"""polynav: collision-free paths for a point or disc-shaped agent through 2D polygonal scenes.

    import polynav
    scene = polynav.load_scene("scenes/warehouse.yaml")
    planner = polynav.Planner(scene, method="grid", smoother="shortcut", resolution=0.25)
    result = planner.plan((2, 1.5), (30, 20))
    if result.found:
        print(result.length, result.waypoints)      # waypoints: (N, 2) float64 array

Bad input raises polynav.InputError (a ValueError) with file, line, column and key.
"""

import json as _json
import os as _os

from ._polynav import (InputError, PlanResult, Planner, Scene, csv_columns, load_scene,
                       method_names, smoother_names)
from . import _polynav

__all__ = ["InputError", "PlanResult", "Planner", "Scene", "csv_columns", "draw_plan",
           "load_scene", "method_names", "methods", "run_experiment", "scene_from_polygons",
           "smoother_names"]


def methods():
    """Every method, smoother and option of the registry, as `polynav methods --json` gives
    them: {"methods": [...], "smoothers": [...], "search": [...], "space": [...]}."""
    return _json.loads(_polynav._registry_json())


def draw_plan(scene, planner, results, path=None, width=1000):
    """The picture `polynav plan --svg` draws: the scene, the planner's discretisation and each
    result's expanded nodes, raw path and path (with its waypoints), as SVG text. `results` is
    one PlanResult or a sequence of them, planned by `planner` on `scene`. With `path` (a str or
    os.PathLike) the picture is written there too. `width` is in pixels (100 to 20000).
    Expanded nodes show when the planner was built with record_expanded=True."""
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


def scene_from_polygons(bounds, obstacles=(), radius=0.0, regions=(), name="python"):
    """A scene from rings given as (N, 2) arrays or lists of (x, y): `bounds` one ring,
    `obstacles` a list of rings, `regions` a list of dicts {"polygon": ring, "cost": c,
    "height": h}. It is validated like a scene file; errors name the key ("obstacles[2]")."""
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


def run_experiment(scenes, methods=None, smoothers=("none", "shortcut"), *, scen=None,
                   random=0, seed=1, any_component=False, settings=None, jobs=1, shard=(1, 1),
                   reference_max_corners=20000, dataframe=False):
    """Runs an experiment like `polynav experiment` and returns its rows: one dict per scene x
    method spec x smoother x query with the CSV's columns (csv_columns()), in the CLI's order.

    scenes: scene file paths; scen: one MovingAI .scen path per scene (None: the scenes' own
    queries); random: draw that many queries per scene instead; methods: specs such as
    "grid:connectivity=4" (default: every method); settings: {"group.name": value};
    shard: (K, N) runs part K of N. With dataframe=True the rows come as a pandas DataFrame."""
    if isinstance(scenes, (str, bytes)):
        scenes = [scenes]
    scenes = [str(s) for s in scenes]
    if scen is not None:
        scen = [str(s) for s in ([scen] if isinstance(scen, str) else scen)]
        if len(scen) != len(scenes):
            raise InputError(f"give one scenario per scene: {len(scenes)} scenes, "
                             f"{len(scen)} scenarios", key="scen")
    rows = _polynav._run_experiment(
        scenes, list(methods or method_names()), list(smoothers), dict(settings or {}),
        scen or [], int(random), int(seed), not any_component, int(jobs), int(shard[0]),
        int(shard[1]), int(reference_max_corners))
    if dataframe:
        import pandas
        return pandas.DataFrame(rows, columns=csv_columns())
    return rows


def merge_shards(shards):
    """The rows of an experiment's shards (lists of row dicts, any order) joined into the rows
    of the unsharded run, as `polynav merge` does."""
    return _polynav._merge_shards([list(s) for s in shards])
