# Type stubs for editors; the implementation is the C++ module polynav._polynav and
# python/polynav/__init__.py.
import os
from typing import Any, Iterable, Sequence

import numpy as np
import numpy.typing as npt

PointLike = Sequence[float] | npt.ArrayLike

class InputError(ValueError):
    file: str
    line: int
    column: int
    key: str
    def __init__(self, message: str, file: str = ..., line: int = ..., column: int = ...,
                 key: str = ...) -> None: ...

class Scene:
    name: str
    @property
    def bounds(self) -> npt.NDArray[np.float64]: ...
    @property
    def obstacles(self) -> list[npt.NDArray[np.float64]]: ...
    @property
    def radius(self) -> float: ...
    repairs: list[str]
    @property
    def queries(self) -> list[tuple[str, tuple[float, float], tuple[float, float]]]: ...
    @staticmethod
    def from_text(text: str, name: str = ...) -> Scene: ...

class PlanResult:
    status: str
    found: bool
    message: str
    method: str
    smoother: str
    start: tuple[float, float]
    goal: tuple[float, float]
    waypoints: npt.NDArray[np.float64]
    raw_waypoints: npt.NDArray[np.float64]
    length: float
    cost: float
    raw_length: float
    expanded: int
    search_ms: float
    smooth_ms: float
    def to_json(self) -> str: ...

class Planner:
    method: str
    smoother: str
    build_ms: float
    nodes: int
    def __init__(self, scene: Scene, method: str = ..., smoother: str = ...,
                 options: dict[str, Any] = ..., record_expanded: bool = ...,
                 **method_options: Any) -> None: ...
    def plan(self, start: PointLike, goal: PointLike) -> PlanResult: ...
    def plan_many(self, starts: npt.ArrayLike, goals: npt.ArrayLike,
                  threads: int = ...) -> list[PlanResult]: ...

def load_scene(path: str, radius: float | None = None, map_unknown: str = "blocked",
               map_simplify: float = 0.0, max_points: int = 2000000,
               repair: bool = False) -> Scene:
    """Loads a scene file with the command line's global options: radius (--radius),
    map_unknown "blocked" or "free" (--map-unknown), map_simplify (--map-simplify), max_points
    (--max-points), repair (--repair: invalid obstacle polygons made valid, the changes in
    Scene.repairs). A bad value raises InputError with the command line's message."""
    ...
def method_names() -> list[str]: ...
def smoother_names() -> list[str]: ...
def csv_columns() -> list[str]: ...
def methods() -> dict[str, Any]: ...
def draw_plan(scene: Scene, planner: Planner, results: PlanResult | Iterable[PlanResult],
              path: str | os.PathLike[str] | None = ..., width: float = ...) -> str: ...
def scene_from_polygons(bounds: npt.ArrayLike, obstacles: Iterable[npt.ArrayLike] = ...,
                        radius: float = ..., regions: Iterable[dict[str, Any]] = ...,
                        name: str = ...) -> Scene: ...
def run_experiment(scenes: str | Sequence[str], methods: Sequence[str] | None = ...,
                   smoothers: Sequence[str] = ..., *, scen: str | Sequence[str] | None = ...,
                   random: int = ..., seed: int = ..., any_component: bool = ...,
                   settings: dict[str, Any] | None = ..., jobs: int = ...,
                   shard: tuple[int, int] = ..., reference_max_corners: int = ...,
                   dataframe: bool = ...) -> Any: ...
def merge_shards(shards: Iterable[list[dict[str, Any]]]) -> list[dict[str, Any]]: ...
