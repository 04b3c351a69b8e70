"""load_scene(repair=...): invalid obstacle polygons are refused with a hint naming --repair, or
made valid with every change reported in Scene.repairs."""

import os
import pathlib

import pytest

import polynav

SOURCE = pathlib.Path(os.environ.get("POLYNAV_SOURCE_DIR", pathlib.Path(__file__).parents[2]))

BOW_TIE = "POLYGON ((0 0, 10 10, 10 0, 0 10, 0 0))\n"


def test_invalid_polygons_are_refused_unless_repaired(tmp_path):
    path = tmp_path / "bowtie.wkt"
    path.write_text(BOW_TIE)
    with pytest.raises(polynav.InputError) as error:
        polynav.load_scene(str(path))
    assert error.value.line == 1
    assert error.value.key == "geometries[0].exterior"
    assert "edges 0 and 2 cross near (5, 5)" in str(error.value)
    assert "--repair" in str(error.value)

    scene = polynav.load_scene(str(path), repair=True)
    assert len(scene.obstacles) == 2
    assert scene.repairs == [
        f"geometries[0] ({path}:1:1): exterior: ring is self-intersecting: edges 0 and 2 cross "
        "near (5, 5); made valid as 2 polygons; area 0 -> 50"
    ]
    # The two triangles touch at (5, 5): a path goes round them, not between.
    result = polynav.Planner(scene, method="visgraph").plan((5, -0.2), (5, 10.2))
    assert result.found
    assert result.length > 10.4


def test_valid_scenes_load_alike_with_repair():
    yard = str(SOURCE / "scenes" / "polygons" / "yard.wkt")
    scene = polynav.load_scene(yard, repair=True)
    assert scene.repairs == []
    assert len(scene.obstacles) == len(polynav.load_scene(yard).obstacles)
