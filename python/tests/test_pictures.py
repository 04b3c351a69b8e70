"""polynav.draw_plan: the plan picture from Python is well-formed SVG with the path layer, and
the same picture, byte for byte, as `polynav plan --svg`."""

import os
import pathlib
import subprocess
from xml.etree import ElementTree

import pytest

import polynav

SOURCE = pathlib.Path(os.environ.get("POLYNAV_SOURCE_DIR", pathlib.Path(__file__).parents[2]))
CLI = os.environ.get("POLYNAV_CLI", "polynav")
SVG = "{http://www.w3.org/2000/svg}"


def groups(root):
    return {g.get("id"): g for g in root.iter(SVG + "g")}


@pytest.mark.parametrize("scene_name, method", [("warehouse.yaml", "grid"),
                                                ("office.yaml", "navmesh")])
def test_draw_plan_writes_the_picture_plan_draws(tmp_path, scene_name, method):
    scene_path = SOURCE / "scenes" / scene_name
    scene = polynav.load_scene(str(scene_path))
    planner = polynav.Planner(scene, method=method, record_expanded=True)
    results = [planner.plan(start, goal) for _, start, goal in scene.queries]
    assert any(r.found for r in results)
    out = tmp_path / "plan.svg"
    text = polynav.draw_plan(scene, planner, results, out, width=900)
    assert out.read_bytes() == text.encode("utf-8")

    root = ElementTree.parse(out).getroot()
    assert root.tag == SVG + "svg"
    layers = groups(root)
    for layer in ("frame", "expanded", "path", "queries", "legend"):
        assert layer in layers, layer
    assert "grid" in layers or "graph" in layers  # cells, or polygons and arcs
    drawn = [r for r in results if len(r.waypoints) >= 2]
    assert len(layers["path"].findall(SVG + "polyline")) == len(drawn)
    assert len(layers["path"].findall(SVG + "circle")) == sum(len(r.waypoints) for r in drawn)

    cli_out = tmp_path / "cli.svg"
    cli = subprocess.run([CLI, "plan", str(scene_path), "--method", method, "--svg",
                          str(cli_out), "--width", "900"], capture_output=True, text=True,
                         check=False)
    assert cli.returncode in (0, 1), cli.stderr
    assert cli_out.read_bytes() == out.read_bytes()


def test_draw_plan_takes_one_result_and_returns_the_text_without_a_path():
    scene = polynav.load_scene(str(SOURCE / "scenes" / "maze.yaml"))
    planner = polynav.Planner(scene, method="visgraph")
    _, start, goal = scene.queries[0]
    result = planner.plan(start, goal)
    assert result.found
    root = ElementTree.fromstring(polynav.draw_plan(scene, planner, result))
    layers = groups(root)
    assert len(layers["path"].findall(SVG + "polyline")) == 1
    # Not recorded: no expanded nodes drawn.
    assert "expanded" not in layers
    assert float(root.get("width")) == 1000


def test_draw_plan_refuses_a_bad_width_and_an_unwritable_path(tmp_path):
    scene = polynav.load_scene(str(SOURCE / "scenes" / "maze.yaml"))
    planner = polynav.Planner(scene)
    with pytest.raises(polynav.InputError) as error:
        polynav.draw_plan(scene, planner, [], width=20)
    assert error.value.key == "width"
    with pytest.raises(polynav.InputError) as error:
        polynav.draw_plan(scene, planner, [], tmp_path / "missing" / "plan.svg")
    assert "cannot write" in str(error.value)
