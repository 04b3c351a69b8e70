"""Plans the queries of a scene from Python and plots them with matplotlib.

    PYTHONPATH=build/release/python /usr/bin/python3 examples/plot_path.py scenes/warehouse.yaml out.png
"""

import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
from matplotlib.patches import Polygon  # noqa: E402

import polynav  # noqa: E402


def main(scene_path, image_path):
    scene = polynav.load_scene(scene_path)
    planner = polynav.Planner(scene, method="navmesh", smoother="funnel")
    figure, axes = plt.subplots(figsize=(8, 6))
    axes.add_patch(Polygon(scene.bounds, closed=True, fill=False, edgecolor="#4a5560"))
    for ring in scene.obstacles:
        axes.add_patch(Polygon(ring, closed=True, facecolor="#9aa4ad", edgecolor="#4a5560"))
    for name, start, goal in scene.queries:
        result = planner.plan(start, goal)
        if result.found:
            axes.plot(result.raw_waypoints[:, 0], result.raw_waypoints[:, 1], ":", color="#8250df")
            axes.plot(result.waypoints[:, 0], result.waypoints[:, 1], "-o", color="#0969da",
                      markersize=3, label=f"{name}: {result.length:.2f}")
        else:
            print(f"{name}: {result.status} ({result.message})")
    axes.set_aspect("equal")
    axes.autoscale()
    axes.legend(loc="upper right", fontsize=8)
    axes.set_title(f"{scene.name}: navmesh + funnel")
    figure.savefig(image_path, dpi=120, bbox_inches="tight")
    print(f"wrote {image_path}")


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else "scenes/warehouse.yaml",
         sys.argv[2] if len(sys.argv) > 2 else "path.png")
