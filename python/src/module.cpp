// The `polynav._polynav` extension module: the C++ facade (scenes, Planner, the registry, the
// experiment runner, the plan picture) for Python. Python-side conveniences live in
// python/polynav/__init__.py. Every C++ exception becomes a Python one: InputError as
// polynav.InputError (a ValueError with file, line, column and key), anything else as
// RuntimeError; none reaches Python as a crash.

#include <pybind11/eval.h>
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>
#include <pybind11/stl/filesystem.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <map>
#include <mutex>
#include <nlohmann/json.hpp>
#include <optional>
#include <sstream>
#include <thread>

#include "polynav/error.hpp"
#include "polynav/experiment/experiment.hpp"
#include "polynav/experiment/results.hpp"
#include "polynav/io/output_file.hpp"
#include "polynav/io/plan_picture.hpp"
#include "polynav/number.hpp"
#include "polynav/plan/editable_planner.hpp"
#include "polynav/plan/json.hpp"
#include "polynav/plan/planner.hpp"
#include "polynav/plan/registry.hpp"
#include "polynav/plan/replanner.hpp"
#include "polynav/plan/ros_path.hpp"
#include "polynav/scene/scene.hpp"
#include "polynav/text.hpp"
#include "polynav/version.hpp"

namespace py = pybind11;
using namespace polynav;

// Arguments taken as any Python object and checked in the function itself, so that a bad value
// raises polynav.InputError naming the argument (pybind11's own conversion would raise a
// TypeError naming none), while signatures and help() still show the type expected.
struct PointArg {
  py::object value;
};
struct PointsArg {
  py::object value;
};
struct GoalArg {
  py::object value;
};

namespace pybind11::detail {
// Each caster takes any object as it is; `name` is what signatures show.
#define POLYNAV_ANY_OBJECT_CASTER(Type, name)                                                    \
  template <>                                                                                    \
  struct type_caster<Type> {                                                                     \
    PYBIND11_TYPE_CASTER(Type, const_name(name));                                                \
    bool load(handle source, bool) {                                                             \
      value.value = reinterpret_borrow<object>(source);                                          \
      return true;                                                                               \
    }                                                                                            \
    static handle cast(const Type& v, return_value_policy, handle) { return v.value.inc_ref(); } \
  };
POLYNAV_ANY_OBJECT_CASTER(PointArg, "tuple[float, float]")
POLYNAV_ANY_OBJECT_CASTER(PointsArg, "numpy.typing.ArrayLike")
POLYNAV_ANY_OBJECT_CASTER(GoalArg, "tuple[float, float] | numpy.typing.ArrayLike")
#undef POLYNAV_ANY_OBJECT_CASTER
}  // namespace pybind11::detail

namespace {

using Array = py::array_t<double, py::array::c_style | py::array::forcecast>;

[[noreturn]] void refuse(const std::string& key, const std::string& message) {
  throw InputError({"", 0, 0, key}, message);
}

Array to_array(const std::vector<Point>& points) {
  Array out({py::ssize_t(points.size()), py::ssize_t(2)});
  auto view = out.mutable_unchecked<2>();
  for (std::size_t i = 0; i < points.size(); ++i) {
    view(py::ssize_t(i), 0) = points[i].x;
    view(py::ssize_t(i), 1) = points[i].y;
  }
  return out;
}

// The object as a float64 array, or an empty handle when numpy cannot make one (ragged lists,
// text), with numpy's error cleared.
Array as_array(const py::handle& object) {
  return Array::ensure(object);
}

// What the argument was, for a message: the array's shape, or the object itself when numpy
// could not make an array of it.
std::string found_text(const Array& a, const py::handle& object) {
  if (!a) return py::repr(object).cast<std::string>();
  std::string s = "shape (";
  for (py::ssize_t d = 0; d < a.ndim(); ++d) s += (d ? ", " : "") + std::to_string(a.shape(d));
  return s + (a.ndim() == 1 ? ",)" : ")");
}

Point finite_point(double x, double y, const std::string& what) {
  if (!std::isfinite(x) || !std::isfinite(y))
    refuse(what, "must be finite, found (" + shortest_text(x) + ", " + shortest_text(y) + ")");
  return {x, y};
}

// The point (x, y) that `a` (made from `object`) holds.
Point point_of(const Array& a, const py::handle& object, const std::string& what) {
  if (!a || a.ndim() != 1 || a.shape(0) != 2)
    refuse(what, "must be a point (x, y), found " + found_text(a, object));
  return finite_point(a.at(0), a.at(1), what);
}

// The points of the (N, 2) array `a` (made from `object`); a point that is not finite is
// refused as what[i].
std::vector<Point> points_of(const Array& a, const py::handle& object, const std::string& what) {
  if (!a || a.ndim() != 2 || a.shape(1) != 2)
    refuse(what, "must be an (N, 2) array of points, found " + found_text(a, object));
  std::vector<Point> out(std::size_t(a.shape(0)));
  auto view = a.unchecked<2>();
  for (py::ssize_t i = 0; i < a.shape(0); ++i) {
    const double x = view(i, 0), y = view(i, 1);
    out[std::size_t(i)] = std::isfinite(x) && std::isfinite(y)
                              ? Point{x, y}
                              : finite_point(x, y, what + "[" + std::to_string(i) + "]");
  }
  return out;
}

Point to_point(const py::handle& object, const std::string& what) {
  return point_of(as_array(object), object, what);
}

std::vector<Point> to_points(const py::handle& object, const std::string& what) {
  return points_of(as_array(object), object, what);
}

// A goal or a goal set: (x, y), or an (N, 2) array of N >= 1 goals.
std::vector<Point> to_goals(const py::handle& object) {
  const Array a = as_array(object);
  if (a && a.ndim() == 1 && a.shape(0) == 2) return {point_of(a, object, "goal")};
  if (a && a.ndim() == 2 && a.shape(1) == 2 && a.shape(0) >= 1) return points_of(a, object, "goal");
  refuse("goal", "must be a point (x, y) or an (N, 2) array of N >= 1 goals, found " +
                     found_text(a, object));
}

// Option values as the registry reads them: text ("0.25", "true", "octile").
std::string option_text(const py::handle& value) {
  if (py::isinstance<py::bool_>(value)) return value.cast<bool>() ? "true" : "false";
  if (py::isinstance<py::float_>(value)) {
    std::ostringstream s;
    s.precision(17);
    s << value.cast<double>();
    return s.str();
  }
  return py::str(value).cast<std::string>();
}

// Adds {"group.name": value} options to `settings` (a later value of a name replaces one set
// before).
void add_settings(Settings& settings, const py::dict& options) {
  for (const auto& [key, value] : options)
    settings.set(py::str(key).cast<std::string>(), option_text(value));
}

py::dict row_to_dict(const experiment::Row& r) {
  py::dict d;
  d["scene"] = r.scene;
  d["method"] = r.method;
  d["options"] = r.options;
  d["smoother"] = r.smoother;
  d["query"] = r.query;
  d["start_x"] = r.start.x;
  d["start_y"] = r.start.y;
  d["goal_x"] = r.goal.x;
  d["goal_y"] = r.goal.y;
  d["status"] = r.status;
  d["length"] = r.length;
  d["cost"] = r.cost;
  d["reference"] = r.reference;
  d["ratio"] = r.ratio;
  d["waypoints"] = r.waypoints;
  d["turning"] = r.turning;
  d["clearance"] = r.clearance;
  d["build_ms"] = r.build_ms;
  d["search_us"] = r.search_us;
  d["smooth_us"] = r.smooth_us;
  d["expanded"] = r.expanded;
  d["raw_length"] = r.raw_length;
  d["space_ms"] = r.space_ms;
  d["nodes"] = r.nodes;
  d["message"] = r.message;
  d["reference_method"] = r.reference_method;
  d["curvature"] = r.curvature;
  return d;
}

experiment::Row dict_to_row(const py::dict& d) {
  experiment::Row r;
  r.scene = d["scene"].cast<std::string>();
  r.method = d["method"].cast<std::string>();
  r.options = d["options"].cast<std::string>();
  r.smoother = d["smoother"].cast<std::string>();
  r.query = d["query"].cast<std::size_t>();
  r.start = {d["start_x"].cast<double>(), d["start_y"].cast<double>()};
  r.goal = {d["goal_x"].cast<double>(), d["goal_y"].cast<double>()};
  r.status = d["status"].cast<std::string>();
  r.length = d["length"].cast<double>();
  r.cost = d["cost"].cast<double>();
  r.reference = d["reference"].cast<double>();
  r.ratio = d["ratio"].cast<double>();
  r.waypoints = d["waypoints"].cast<std::size_t>();
  r.turning = d["turning"].cast<double>();
  r.clearance = d["clearance"].cast<double>();
  r.build_ms = d["build_ms"].cast<double>();
  r.search_us = d["search_us"].cast<double>();
  r.smooth_us = d["smooth_us"].cast<double>();
  r.expanded = d["expanded"].cast<std::uint64_t>();
  r.raw_length = d["raw_length"].cast<double>();
  r.space_ms = d["space_ms"].cast<double>();
  r.nodes = d["nodes"].cast<std::size_t>();
  r.message = d["message"].cast<std::string>();
  if (d.contains("reference_method"))
    r.reference_method = d["reference_method"].cast<std::string>();
  if (d.contains("curvature")) r.curvature = d["curvature"].cast<double>();
  return r;
}

// The command line's global --map-unknown, --map-simplify, --max-points and --repair as Python
// keywords, checked by the same library checks (a bad value gets the same message, keyed by the
// keyword).
LoadOptions load_options(const std::string& map_unknown, double map_simplify,
                         std::size_t max_points, bool repair) {
  LoadOptions load;
  load.unknown = parse_unknown_cells(map_unknown, "map_unknown");
  load.simplify = map_simplify;
  load.max_points = max_points;
  load.repair = repair;
  check_load_options(load, "map_simplify", "max_points");
  return load;
}

// A scene file read with load options and, when given, another agent radius (--radius).
Scene read_scene(const std::filesystem::path& path, const LoadOptions& load,
                 std::optional<double> radius) {
  if (radius) check_agent_radius(*radius, "radius");
  Scene scene = load_scene(path, load);
  if (radius) scene.agent.radius = *radius;
  return scene;
}

// Scenes and their free space, kept for the life of the process: a worker that runs several
// shards of one experiment loads and builds each scene once. Keyed by path, file time, load
// options, radius and every "space.*" setting.
experiment::SceneInput cached_scene(const std::string& path, const LoadOptions& load,
                                    std::optional<double> radius, const Settings& settings) {
  static std::mutex mutex;
  static std::map<std::string, experiment::SceneInput> cache;
  std::error_code ec;
  const auto stamp = std::filesystem::last_write_time(path, ec);
  std::ostringstream key;
  key.precision(17);
  key << path << '|' << (ec ? 0 : stamp.time_since_epoch().count()) << '|' << int(load.unknown)
      << '|' << load.simplify << '|' << load.max_points << '|' << load.repair << '|'
      << (radius ? *radius : -1.0);
  for (const auto& [name, value] : settings.values())
    if (name.rfind("space.", 0) == 0) key << '|' << name << '=' << value;
  {
    const std::lock_guard lock(mutex);
    if (const auto it = cache.find(key.str()); it != cache.end()) return it->second;
  }
  experiment::SceneInput input;
  input.scene = read_scene(path, load, radius);
  input.space = std::make_shared<const FreeSpace>(input.scene, free_space_options(settings));
  const std::lock_guard lock(mutex);
  return cache.emplace(key.str(), std::move(input)).first->second;
}

// Settings a Planner keyword sets (snap aside): the free-space inflation and its tolerance.
void set_free_space_keywords(Settings& settings, const std::optional<std::string>& inflation,
                             std::optional<double> inflation_tolerance) {
  if (inflation) settings.set("space.inflation", *inflation);
  if (inflation_tolerance) settings.set("space.inflation_tolerance", *inflation_tolerance);
}

// A planner built from Python arguments: method-local keyword options ("resolution" for the
// grid) become "grid.resolution"; `options` takes full "group.name" keys.
// The planner's options from Planner's and EditablePlanner's keywords.
PlanOptions plan_options_of(const std::string& method, const std::string& smoother,
                            const py::dict& options, bool record_expanded, bool snap,
                            const std::optional<std::string>& inflation,
                            std::optional<double> inflation_tolerance, std::size_t max_radii,
                            const py::kwargs& kwargs) {
  PlanOptions plan;
  plan.max_radii = max_radii;
  plan.method = method;
  plan.smoother = smoother;
  plan.record_expanded = record_expanded;
  plan.snap_to_free = snap;
  set_free_space_keywords(plan.settings, inflation, inflation_tolerance);
  add_settings(plan.settings, options);
  for (const auto& [key, value] : kwargs)
    plan.settings.set(method + "." + py::str(key).cast<std::string>(), option_text(value));
  return plan;
}

std::unique_ptr<Planner> make_planner(const Scene& scene, const std::string& method,
                                      const std::string& smoother, const py::dict& options,
                                      bool record_expanded, bool snap,
                                      const std::optional<std::string>& inflation,
                                      std::optional<double> inflation_tolerance,
                                      std::size_t max_radii, const py::kwargs& kwargs) {
  const PlanOptions plan = plan_options_of(method, smoother, options, record_expanded, snap,
                                           inflation, inflation_tolerance, max_radii, kwargs);
  py::gil_scoped_release release;
  return std::make_unique<Planner>(scene, plan);
}

std::unique_ptr<EditablePlanner> make_editable(const Scene& scene, const std::string& method,
                                               const std::string& smoother, const py::dict& options,
                                               bool snap, const py::kwargs& kwargs) {
  const PlanOptions plan = plan_options_of(method, smoother, options, false, snap, std::nullopt,
                                           std::nullopt, 0, kwargs);
  py::gil_scoped_release release;
  return std::make_unique<EditablePlanner>(scene, plan);
}

// Applies one edit, without the GIL while the version builds; the id it took, for adds.
std::size_t apply_one(EditablePlanner& live, const SceneEdit& edit) {
  py::gil_scoped_release release;
  const EditablePlanner::Applied applied = live.apply(std::span(&edit, 1));
  return applied.added.empty() ? edit.id : applied.added.front();
}

// EditablePlanner.remove_obstacle(id) and remove_region(id).
auto remove_edit(SceneEdit::Kind kind) {
  return [kind](EditablePlanner& live, std::size_t id) {
    SceneEdit e;
    e.kind = kind;
    e.id = id;
    apply_one(live, e);
  };
}

// EditablePlanner.move_obstacle(id, by) and move_region(id, by).
auto move_edit(SceneEdit::Kind kind) {
  return [kind](EditablePlanner& live, std::size_t id, const PointArg& by) {
    SceneEdit e;
    e.kind = kind;
    e.id = id;
    e.by = to_point(by.value, "by");
    apply_one(live, e);
  };
}

// A scene from a 2D array of cells, row 0 at the origin's y (nav_msgs/OccupancyGrid's order):
// bool cells are occupied (true) or free; integer cells are nav_msgs/OccupancyGrid values, -1
// unknown and 0 to 100 the occupancy probability in percent, classified as map_server's trinary
// mode classifies a map image's pixels.
Scene occupancy_from_array(const py::array& grid, double resolution, const PointArg& origin,
                           double yaw, double occupied_thresh, double free_thresh,
                           std::optional<double> radius, const LoadOptions& load,
                           const std::string& name) {
  if (grid.ndim() != 2)
    refuse("grid", "must be a 2D array of cells (rows, columns), found " +
                       std::to_string(grid.ndim()) + " dimensions");
  const char kind = grid.dtype().kind();
  if (kind != 'b' && kind != 'i' && kind != 'u')
    refuse("grid",
           "must hold bool (occupied or not) or integers (nav_msgs/OccupancyGrid: "
           "-1 unknown, 0 to 100 occupancy in percent), found dtype " +
               py::str(grid.dtype()).cast<std::string>());
  for (const auto& [value, key] :
       {std::pair{occupied_thresh, "occupied_thresh"}, std::pair{free_thresh, "free_thresh"}})
    if (!(value >= 0.0 && value <= 1.0))
      refuse(key, "must be from 0 to 1, found " + shortest_text(value));
  if (free_thresh > occupied_thresh)
    refuse("free_thresh", "must not be above occupied_thresh " + shortest_text(occupied_thresh) +
                              ", found " + shortest_text(free_thresh));
  if (radius) check_agent_radius(*radius, "radius");
  OccupancyMap map;
  map.height = int(std::min<py::ssize_t>(grid.shape(0), INT32_MAX));
  map.width = int(std::min<py::ssize_t>(grid.shape(1), INT32_MAX));
  map.resolution = resolution;
  map.origin = to_point(origin.value, "origin");
  map.yaw = yaw;
  if (map.width > 0 && map.height > 0 &&
      static_cast<long long>(map.width) * map.height <= max_occupancy_cells) {
    using Cell = OccupancyMap::Cell;
    map.cells.resize(std::size_t(map.width) * std::size_t(map.height));
    const auto h = py::ssize_t(map.height), w = py::ssize_t(map.width);
    // cells[] starts at the top row, the array at the bottom one.
    const auto place = [&](py::ssize_t row, py::ssize_t column, Cell cell) {
      map.cells[std::size_t(h - 1 - row) * std::size_t(w) + std::size_t(column)] = cell;
    };
    if (kind == 'b') {
      const auto array = py::array_t<bool, py::array::forcecast>::ensure(grid);
      const auto cells = array.unchecked<2>();
      for (py::ssize_t r = 0; r < h; ++r)
        for (py::ssize_t c = 0; c < w; ++c) place(r, c, cells(r, c) ? Cell::occupied : Cell::free);
    } else {
      const auto array = py::array_t<long long, py::array::forcecast>::ensure(grid);
      const auto cells = array.unchecked<2>();
      for (py::ssize_t r = 0; r < h; ++r)
        for (py::ssize_t c = 0; c < w; ++c) {
          const long long v = cells(r, c);
          if (v < -1 || v > 100)
            refuse("grid", "grid[" + std::to_string(r) + ", " + std::to_string(c) + "] is " +
                               std::to_string(v) +
                               ": nav_msgs/OccupancyGrid cells are -1 (unknown) or 0 to 100 "
                               "(occupancy in percent); give a grid of 0 and 1 as bool");
          const double p = double(v) / 100.0;
          place(r, c,
                v == -1               ? Cell::unknown
                : p > occupied_thresh ? Cell::occupied
                : p < free_thresh     ? Cell::free
                                      : Cell::unknown);
        }
    }
  }
  py::gil_scoped_release release;
  // scene_from_occupancy refuses what is left: an empty or oversized grid, the resolution, the
  // origin and the yaw.
  Scene scene = scene_from_occupancy(std::move(map), load, name);
  if (radius) scene.agent.radius = *radius;
  return scene;
}

// A reach with what to_json() and regions() need: the planner's method, the query and each
// reached node's region.
struct ReachResult {
  Reach reach;
  std::string method;
  Point from;
  double cost = 0.0;
  std::vector<Ring> regions;
};

// A nav_msgs/Path as Python dicts, the ROS 2 message's field names: {"header": {"frame_id",
// "stamp": {"sec", "nanosec"}}, "poses": [{"header", "pose": {"position": {"x", "y", "z"},
// "orientation": {"x", "y", "z", "w"}}}, ...]}.
py::dict ros_path(const PlanResult& r, const std::string& frame_id,
                  std::optional<double> pose_spacing, std::optional<double> goal_yaw) {
  if (const std::string problem = frame_id_problem(frame_id); !problem.empty())
    refuse("frame_id", problem);
  if (pose_spacing && !(*pose_spacing > 0.0 && std::isfinite(*pose_spacing)))
    refuse("pose_spacing", "must be a finite number > 0, found " + shortest_text(*pose_spacing));
  if (goal_yaw && !std::isfinite(*goal_yaw))
    refuse("goal_yaw", "must be finite, found " + shortest_text(*goal_yaw));
  const double spacing = pose_spacing.value_or(0.0);
  check_pose_spacing({r.waypoints}, spacing, "pose_spacing");
  const auto header = [&] {
    py::dict h, stamp;
    stamp["sec"] = 0;
    stamp["nanosec"] = 0;
    h["frame_id"] = frame_id;
    h["stamp"] = stamp;
    return h;
  };
  py::list poses;
  for (const PathPose& p :
       path_poses(r.waypoints, spacing, r.found() ? goal_yaw : std::nullopt, r.headings)) {
    py::dict position, orientation, pose, stamped;
    position["x"] = p.at.x;
    position["y"] = p.at.y;
    position["z"] = 0.0;
    orientation["x"] = 0.0;
    orientation["y"] = 0.0;
    orientation["z"] = std::sin(p.yaw / 2);
    orientation["w"] = std::cos(p.yaw / 2);
    pose["position"] = position;
    pose["orientation"] = orientation;
    stamped["header"] = header();
    stamped["pose"] = pose;
    poses.append(stamped);
  }
  py::dict path;
  path["header"] = header();
  path["poses"] = poses;
  return path;
}

// The plan picture `polynav plan --svg` draws, for results of `planner` on `scene`; written to
// `path` too unless it is empty.
std::string draw_plan(const Scene& scene, const Planner& planner,
                      const std::vector<PlanResult>& results, const std::string& path,
                      double width) {
  if (!(width >= 100 && width <= 20000))
    throw InputError({"", 0, 0, "width"}, "width must be from 100 to 20000 pixels");
  std::vector<PathDrawing> paths;
  paths.reserve(results.size());
  for (const PlanResult& r : results) paths.push_back({r.waypoints, r.raw_waypoints, r.expanded});
  const SvgCanvas canvas = plan_picture(
      scene, planner.free_space(), planner.discretisation().primitives(), paths, {.width = width});
  if (!path.empty()) canvas.save(path);
  return canvas.str();
}

}  // namespace

PYBIND11_MODULE(_polynav, m) {
  m.doc() = "polynav: collision-free paths through 2D polygonal scenes (C++ core)";
  m.attr("__version__") = std::string(version());

  // polynav.InputError: a ValueError carrying where the input is wrong.
  static py::object input_error = [&] {
    py::dict ns;
    py::exec(R"(
class InputError(ValueError):
    """Bad input: `file`, `line`, `column` and `key` say where (empty or 0 when unknown).

    A ValueError, raised for a broken scene file, an unknown method or option, an option out
    of its limits, or an argument of the wrong shape or value; `key` names the scene key or the
    argument ("agent.radius", "grid.resolution", "goal"). The message is always one line: line
    breaks and bytes that are not UTF-8 in what it quotes from the input are escaped.

    >>> try:
    ...     polynav.Planner(polynav.load_scene("scenes/maze.yaml"), resolutoin=0.5)
    ... except polynav.InputError as error:
    ...     print(error.key)
    grid.resolutoin
    """
    def __init__(self, message, file="", line=0, column=0, key=""):
        super().__init__(message)
        self.file, self.line, self.column, self.key = file, line, column, key
)",
             py::globals(), ns);
    py::object type = ns["InputError"];
    type.attr("__module__") = "polynav";
    return type;
  }();
  m.attr("InputError") = input_error;
  py::register_exception_translator([](std::exception_ptr p) {
    try {
      if (p) std::rethrow_exception(p);
    } catch (const InputError& e) {
      const InputLocation& w = e.where();
      // The message is one line of UTF-8 (polynav/text.hpp); the file name and key are as
      // given, which need not be UTF-8: they are decoded as Python decodes file names
      // (os.fsdecode), so that `file` names the same file.
      const auto decoded = [](const std::string& text) -> py::object {
        PyObject* s = PyUnicode_DecodeFSDefaultAndSize(text.data(), Py_ssize_t(text.size()));
        if (s != nullptr) return py::reinterpret_steal<py::object>(s);
        PyErr_Clear();
        return py::str(valid_utf8(text));
      };
      py::object instance =
          input_error(e.what(), decoded(w.file), w.line, w.column, decoded(w.key_path));
      PyErr_SetObject(input_error.ptr(), instance.ptr());
    }
  });

  py::class_<Scene>(m, "Scene",
                    R"(A loaded, validated scene: bounds, obstacles, regions, agent and queries.

Made by polynav.load_scene (any file the command line reads), polynav.scene_from_occupancy
(a numpy occupancy grid), polynav.scene_from_polygons (rings as arrays) or Scene.from_text.

>>> scene = polynav.load_scene("scenes/warehouse.yaml")
>>> scene.name, len(scene.queries), scene.radius
('warehouse', 4, 0.25)
>>> scene.bounds.shape
(4, 2))")
      .def_static(
          "from_text",
          [](const std::string& text, const std::string& name) {
            return parse_native_scene(text, name);
          },
          py::arg("text"), py::arg("name") = "<python>.yaml",
          R"(A native scene parsed from text: YAML, or strict JSON when `name` ends in .json.

>>> scene = polynav.Scene.from_text("version: 1\nbounds: [[0, 0], [4, 0], [4, 3], [0, 3]]\n")
>>> scene.bounds.tolist()
[[0.0, 0.0], [4.0, 0.0], [4.0, 3.0], [0.0, 3.0]])")
      .def_readonly("name", &Scene::name, "The scene's name (a file's stem when it has none)")
      .def_property_readonly(
          "bounds", [](const Scene& s) { return to_array(s.bounds); },
          "The outer boundary, an (N, 2) float64 array")
      .def_property_readonly(
          "obstacles",
          [](const Scene& s) {
            py::list out;
            for (const Obstacle& o : s.obstacles) out.append(to_array(o.shape.outer));
            return out;
          },
          "Each obstacle's outer ring as an (N, 2) float64 array (a map's blocked cells as "
          "rectangles)")
      .def_property_readonly(
          "radius", [](const Scene& s) { return s.agent.radius; },
          "The agent's radius: obstacles grow by it")
      .def_readonly("repairs", &Scene::repairs,
                    "What load_scene(..., repair=True) changed, one sentence per change")
      .def_property_readonly(
          "queries",
          [](const Scene& s) {
            py::list out;
            for (const Query& q : s.queries)
              out.append(py::make_tuple(q.name, py::make_tuple(q.start.x, q.start.y),
                                        py::make_tuple(q.goal.x, q.goal.y)));
            return out;
          },
          "The scene's own queries as (name, (x, y) start, (x, y) goal) tuples")
      .def("__repr__", [](const Scene& s) {
        return "<polynav.Scene '" + s.name + "' with " + std::to_string(s.obstacles.size()) +
               " obstacles>";
      });

  m.def(
      "load_scene",
      [](const std::filesystem::path& path, std::optional<double> radius,
         const std::string& map_unknown, double map_simplify, std::size_t max_points, bool repair) {
        const LoadOptions load = load_options(map_unknown, map_simplify, max_points, repair);
        py::gil_scoped_release release;
        return read_scene(path, load, radius);
      },
      py::arg("path"), py::arg("radius") = py::none(), py::arg("map_unknown") = "blocked",
      py::arg("map_simplify") = 0.0, py::arg("max_points") = LoadOptions{}.max_points,
      py::arg("repair") = false,
      R"(Loads a scene file: native (.yaml, .yml, .json), ROS map (.yaml with image:), MovingAI
(.map), Polyanya mesh (.mesh), WKT (.wkt) or GeoJSON (.geojson).

The keywords are the command line's global options: radius (--radius) plans for a disc of
that radius instead of the scene's own agent; map_unknown (--map-unknown) reads a ROS map's
unknown cells as "blocked" (the default) or "free"; map_simplify (--map-simplify) simplifies a
raster map's outline by up to that distance, never opening a passage the map closes (0 = the
exact cells); max_points (--max-points) is the most points a native scene may hold; repair
(--repair) makes invalid obstacle polygons valid (GEOS's make-valid) instead of refusing them,
and Scene.repairs says what changed. A bad value raises polynav.InputError with the message the
command line gives, its key the keyword.

>>> depot = polynav.load_scene("scenes/ros/depot.yaml", radius=0.22, map_unknown="free")
>>> depot.radius
0.22)");

  m.def(
      "scene_from_occupancy",
      [](const py::array& grid, double resolution, const PointArg& origin, double yaw,
         double occupied_thresh, double free_thresh, std::optional<double> radius,
         const std::string& map_unknown, double map_simplify, const std::string& name) {
        const LoadOptions load = load_options(map_unknown, map_simplify, 1, false);
        return occupancy_from_array(grid, resolution, origin, yaw, occupied_thresh, free_thresh,
                                    radius, load, name);
      },
      py::arg("grid"), py::arg("resolution"), py::arg("origin") = py::make_tuple(0.0, 0.0),
      py::kw_only(), py::arg("yaw") = 0.0, py::arg("occupied_thresh") = 0.65,
      py::arg("free_thresh") = 0.196, py::arg("radius") = py::none(),
      py::arg("map_unknown") = "blocked", py::arg("map_simplify") = 0.0,
      py::arg("name") = "occupancy",
      R"(A scene from an occupancy grid held as a 2D numpy array, as a ROS map file with those
cells would load.

grid[row, column] is the cell whose lower-left corner is origin + resolution * (column, row):
row 0 lies at the origin's y, as in nav_msgs/OccupancyGrid's data reshaped to (height, width)
(an image's rows run the other way: flip it with grid[::-1]). A bool grid marks occupied cells
True. An integer grid holds nav_msgs/OccupancyGrid values: -1 unknown, 0 to 100 the occupancy
in percent, read as map_server reads a map image's pixels: above occupied_thresh occupied,
below free_thresh free, else unknown (map_unknown decides, blocked by default). yaw turns the
grid about the origin (radians, as a map file's origin yaw); radius, map_unknown and
map_simplify are load_scene's. Arrays of another shape or dtype, cells outside -1..100, a
resolution that is not > 0 and an origin or yaw that is not finite raise polynav.InputError
naming the argument.

>>> import numpy as np
>>> grid = np.zeros((40, 60), dtype=np.int8)    # 60 x 40 cells of 5 cm, all free
>>> grid[10:30, 25:30] = 100                     # a wall
>>> scene = polynav.scene_from_occupancy(grid, 0.05, origin=(-1.0, -1.0), radius=0.1)
>>> result = polynav.Planner(scene, resolution=0.05).plan((-0.7, 0.0), (1.6, 0.0))
>>> result.status
'found')");

  py::class_<PlanResult>(m, "PlanResult", R"(The answer to one query (Planner.plan).

status is "found", "no_path", "partial", "invalid_query", "limit_reached" or "internal_error";
found is status == "found". waypoints is the smoothed path as an (N, 2) float64 array, start to
goal; raw_waypoints the discretisation's path before smoothing.

>>> planner = polynav.Planner(polynav.load_scene("scenes/warehouse.yaml"))
>>> result = planner.plan((2, 1.5), (30, 20))
>>> result.found, result.waypoints.shape[1]
(True, 2))")
      .def_property_readonly(
          "status", [](const PlanResult& r) { return std::string(to_string(r.status)); },
          "found, no_path, partial, invalid_query, limit_reached or internal_error")
      .def_property_readonly("found", &PlanResult::found, "status == 'found'")
      .def_readonly("message", &PlanResult::message, "Why no path was found; empty when found")
      .def_readonly("method", &PlanResult::method)
      .def_readonly("smoother", &PlanResult::smoother)
      .def_property_readonly(
          "start", [](const PlanResult& r) { return py::make_tuple(r.start.x, r.start.y); },
          "The start as planned (moved to free space when the planner snaps)")
      .def_property_readonly(
          "goal", [](const PlanResult& r) { return py::make_tuple(r.goal.x, r.goal.y); },
          "The goal reached (of a goal set: the cheapest one; of a flee: the point reached)")
      .def_readonly("radius", &PlanResult::radius, "The agent radius the path was planned for")
      .def_property_readonly(
          "headings",
          [](const PlanResult& r) {
            py::array_t<double> out(py::ssize_t(r.headings.size()));
            auto v = out.mutable_unchecked<1>();
            for (std::size_t i = 0; i < r.headings.size(); ++i) v(py::ssize_t(i)) = r.headings[i];
            return out;
          },
          "The heading at each waypoint (radians) for the hybrid method's unsmoothed paths; empty "
          "otherwise")
      .def_property_readonly(
          "waypoints", [](const PlanResult& r) { return to_array(r.waypoints); },
          "(N, 2) float64 array, start to goal")
      .def_property_readonly(
          "raw_waypoints", [](const PlanResult& r) { return to_array(r.raw_waypoints); },
          "(N, 2) float64 array: the discretisation's path before smoothing")
      .def_readonly("length", &PlanResult::length, "Euclidean length of waypoints")
      .def_readonly("cost", &PlanResult::cost,
                    "Cost of waypoints: length weighted by terrain and clearance costs")
      .def_readonly("raw_length", &PlanResult::raw_length)
      .def_readonly("raw_cost", &PlanResult::raw_cost)
      .def_property_readonly(
          "nodes", [](const PlanResult& r) { return r.stats.nodes; }, "Nodes of the discretisation")
      .def_property_readonly(
          "expanded", [](const PlanResult& r) { return r.stats.expanded; },
          "Nodes the search expanded")
      .def_property_readonly("generated", [](const PlanResult& r) { return r.stats.generated; })
      .def_property_readonly(
          "build_ms", [](const PlanResult& r) { return r.stats.build_ms; },
          "The planner's build time (free space and discretisation)")
      .def_property_readonly("search_ms", [](const PlanResult& r) { return r.stats.search_ms; })
      .def_property_readonly("smooth_ms", [](const PlanResult& r) { return r.stats.smooth_ms; })
      .def(
          "to_json",
          [](const PlanResult& r, const std::string& query, std::optional<double> goal_yaw) {
            if (goal_yaw && !std::isfinite(*goal_yaw))
              refuse("goal_yaw", "must be finite, found " + shortest_text(*goal_yaw));
            return plan_result_json(r, query, goal_yaw);
          },
          py::arg("query") = "", py::arg("goal_yaw") = py::none(),
          R"(The JSON object `polynav plan --json` prints for this result (docs/output.md): query
names the query ("query" key), goal_yaw adds the heading asked for at the goal ("goal_yaw").

>>> import json
>>> planner = polynav.Planner(polynav.load_scene("scenes/warehouse.yaml"))
>>> sorted(json.loads(planner.plan((2, 1.5), (30, 20)).to_json()))[:4]
['cost', 'goal', 'length', 'method'])")
      .def("to_ros_path", &ros_path, py::arg("frame_id") = "map",
           py::arg("pose_spacing") = py::none(), py::arg("goal_yaw") = py::none(),
           R"(The path as a nav_msgs/Path message: a dict with ROS 2's field names, as
`polynav plan --format ros-path` writes it ("header": {"frame_id", "stamp"}, "poses": [...]).

Every waypoint is a pose at z = 0 facing along the segment that leaves it; pose_spacing adds
evenly spaced poses so that consecutive poses are at most that far apart; goal_yaw turns the
last pose (radians, counterclockwise from +x). Stamps are zero.

>>> planner = polynav.Planner(polynav.load_scene("scenes/warehouse.yaml"))
>>> path = planner.plan((2, 1.5), (30, 20)).to_ros_path(frame_id="map", pose_spacing=0.5)
>>> path["header"]["frame_id"], sorted(path["poses"][0]["pose"])
('map', ['orientation', 'position']))")
      .def("__repr__", [](const PlanResult& r) {
        std::ostringstream s;
        s << "<polynav.PlanResult " << to_string(r.status);
        if (r.found()) s << " length=" << r.length << " waypoints=" << r.waypoints.size();
        return s.str() + ">";
      });

  py::class_<ReachResult>(m, "Reach",
                          R"(Everything reachable from a point within a cost (Planner.reach).

nodes, points and costs are arrays over the reached nodes of the discretisation, cheapest
first; regions() gives each node's region of the plane (a grid cell, a mesh polygon) as an
(N, 2) array, empty for nodes that are points.

>>> planner = polynav.Planner(polynav.load_scene("scenes/warehouse.yaml"))
>>> reach = planner.reach((2, 1.5), 2.0)
>>> len(reach) == len(reach.nodes) == len(reach.costs) == len(reach.regions())
True)")
      .def_property_readonly(
          "status", [](const ReachResult& r) { return std::string(to_string(r.reach.status)); },
          "found (some node within reach), invalid_query (the point is not free), ...")
      .def_property_readonly("message", [](const ReachResult& r) { return r.reach.message; })
      .def_property_readonly(
          "nodes",
          [](const ReachResult& rr) {
            const Reach& r = rr.reach;
            py::array_t<std::int64_t> out(py::ssize_t(r.places.size()));
            auto v = out.mutable_unchecked<1>();
            for (std::size_t i = 0; i < r.places.size(); ++i)
              v(py::ssize_t(i)) = std::int64_t(r.places[i].node);
            return out;
          },
          "The reached nodes' ids, an int64 array")
      .def_property_readonly(
          "points",
          [](const ReachResult& rr) {
            const Reach& r = rr.reach;
            std::vector<Point> at;
            at.reserve(r.places.size());
            for (const ReachedPlace& p : r.places) at.push_back(p.at);
            return to_array(at);
          },
          "Each reached node's position, an (N, 2) float64 array")
      .def_property_readonly(
          "costs",
          [](const ReachResult& rr) {
            const Reach& r = rr.reach;
            py::array_t<double> out(py::ssize_t(r.places.size()));
            auto v = out.mutable_unchecked<1>();
            for (std::size_t i = 0; i < r.places.size(); ++i) v(py::ssize_t(i)) = r.places[i].cost;
            return out;
          },
          "The cheapest path's cost to each reached node, a float64 array (nondecreasing)")
      .def_property_readonly("expanded",
                             [](const ReachResult& rr) {
                               const Reach& r = rr.reach;
                               return r.stats.expanded;
                             })
      .def("__len__",
           [](const ReachResult& rr) {
             const Reach& r = rr.reach;
             return r.places.size();
           })
      .def(
          "to_json",
          [](const ReachResult& r) { return reach_json(r.reach, r.method, r.from, r.cost); },
          "The JSON object `polynav reach --json` prints")
      .def(
          "regions",
          [](const ReachResult& r) {
            py::list out;
            for (const Ring& ring : r.regions) out.append(to_array(ring));
            return out;
          },
          "Each reached node's region as an (N, 2) float64 array (empty for point nodes)")
      .def("__repr__", [](const ReachResult& rr) {
        const Reach& r = rr.reach;
        return "<polynav.Reach " + std::string(to_string(r.status)) + " with " +
               std::to_string(r.places.size()) + " nodes>";
      });

  py::class_<Planner>(m, "Planner",
                      R"(Free space, a method and a smoother, built once; plan() may be called
from any number of threads at once.

Planner(scene, method="grid", smoother="shortcut", options={}, record_expanded=False,
snap=False, inflation=None, inflation_tolerance=None, max_radii=4, **method_options)

method is a discretisation ("grid", "navmesh", ...: polynav.method_names() lists them)
and smoother one of polynav.smoother_names(). method_options are the method's own options
(resolution=0.25 for the grid, as --set grid.resolution=0.25); options takes "group.name" keys
of any group (search.weight, space.gaps, shortcut-optimal.window); polynav.methods() documents
them all. snap moves a start or goal that is not free to the nearest free point (--snap);
inflation ("auto", "exact", "cells") and inflation_tolerance are the command line's
--inflation and --inflation-tolerance. record_expanded keeps the positions of the nodes each
search expands, which draw_plan() shows. max_radii is how many agent radii other than the
scene's plan(radius=) serves at once (each its own free space; 0 keeps no copy of the scene and
serves none). Bad names and values raise polynav.InputError with a did-you-mean.

>>> scene = polynav.load_scene("scenes/warehouse.yaml")
>>> planner = polynav.Planner(scene, method="grid", smoother="shortcut", resolution=0.25,
...                           options={"search.weight": 1.0})
>>> planner.method, planner.nodes > 0
('grid', True))")
      .def(py::init(&make_planner), py::arg("scene"), py::arg("method") = "grid",
           py::arg("smoother") = "shortcut", py::arg("options") = py::dict(),
           py::arg("record_expanded") = false, py::arg("snap") = false,
           py::arg("inflation") = py::none(), py::arg("inflation_tolerance") = py::none(),
           py::arg("max_radii") = 4)
      .def(
          "plan",
          [](const Planner& p, const PointArg& start, const GoalArg& goal,
             std::optional<double> radius) {
            const Point s = to_point(start.value, "start");
            const std::vector<Point> goals = to_goals(goal.value);
            py::gil_scoped_release release;
            // The planner for this agent: built on the first call with this radius, then shared.
            const std::shared_ptr<const Planner> sized = p.for_radius(radius.value_or(p.radius()));
            return goals.size() == 1 ? sized->plan(s, goals.front())
                                     : sized->plan(s, std::span<const Point>(goals));
          },
          py::arg("start"), py::arg("goal"), py::arg("radius") = py::none(),
          R"(Plans from start to goal, or to the cheapest reachable goal of a goal set (an (N, 2)
array: one search, as `polynav plan --goal` given several times); result.goal is the goal
reached. A start or goal outside free space is a result (status "invalid_query", or moved to
free space when the planner snaps), not an exception; a point of the wrong shape or not finite
raises polynav.InputError. radius plans for an agent of that radius instead of the scene's: the
same answer as a planner of the scene loaded with that radius, its free space built on the first
call with that radius and kept for later ones (up to four radii; result.radius says which).

>>> planner = polynav.Planner(polynav.load_scene("scenes/warehouse.yaml"))
>>> planner.plan((2, 1.5), (30, 20)).status
'found'
>>> planner.plan((2, 1.5), [[30, 20], [3, 2]]).goal
(3.0, 2.0)
>>> planner.plan((2, 1.5), (30, 20), radius=0.6).radius
0.6)")
      .def(
          "flee",
          [](const Planner& p, const PointArg& start, const PointsArg& threats, double distance) {
            const Point s = to_point(start.value, "start");
            const std::vector<Point> t = to_points(threats.value, "threats");
            if (!(distance >= 0.0) || !std::isfinite(distance))
              refuse("distance", "must be a finite number >= 0, found " + shortest_text(distance));
            py::gil_scoped_release release;
            return p.flee(s, t, distance);
          },
          py::arg("start"), py::arg("threats"), py::arg("distance"),
          R"(Runs away: plans from start to the cheapest free point at least distance in a straight
line from every threat (an (N, 2) array), as `polynav plan --flee-from`; result.goal is the
point reached. No such point reachable is status "no_path".

>>> planner = polynav.Planner(polynav.load_scene("scenes/warehouse.yaml"))
>>> r = planner.flee((5, 5), [[8, 6]], 12.0)
>>> r.status, bool(((r.goal[0] - 8) ** 2 + (r.goal[1] - 6) ** 2) ** 0.5 >= 12.0)
('found', True))")
      .def(
          "plan_many",
          [](const Planner& p, const PointsArg& starts, const PointsArg& goals, unsigned threads) {
            const std::vector<Point> s = to_points(starts.value, "starts");
            const std::vector<Point> g = to_points(goals.value, "goals");
            if (s.size() != g.size())
              refuse("goals", "starts and goals differ in length: " + std::to_string(s.size()) +
                                  " and " + std::to_string(g.size()));
            std::vector<PlanResult> out(s.size());
            {
              py::gil_scoped_release release;
              if (threads == 0) threads = std::max(1u, std::thread::hardware_concurrency());
              threads =
                  unsigned(std::min<std::size_t>(threads, std::max<std::size_t>(s.size(), 1)));
              std::atomic<std::size_t> next{0};
              const auto work = [&] {
                for (std::size_t i; (i = next.fetch_add(1)) < s.size();)
                  out[i] = p.plan(s[i], g[i]);
              };
              std::vector<std::jthread> pool;
              for (unsigned t = 1; t < threads; ++t) pool.emplace_back(work);
              work();
            }
            return out;
          },
          py::arg("starts"), py::arg("goals"), py::arg("threads") = 0,
          R"(Plans every (start, goal) pair of two (N, 2) arrays on `threads` threads (0: one per
core), without the GIL; the results in input order, the same as planning them one by one.

>>> import numpy as np
>>> planner = polynav.Planner(polynav.load_scene("scenes/warehouse.yaml"))
>>> results = planner.plan_many(np.array([[2, 1.5], [5, 18]]), np.array([[30, 20], [38, 2]]))
>>> [r.status for r in results]
['found', 'found'])")
      .def(
          "reach",
          [](const Planner& p, const PointArg& start, double cost) {
            const Point from = to_point(start.value, "start");
            if (!(cost >= 0.0) || !std::isfinite(cost))
              refuse("cost", "must be a finite number >= 0, found " + shortest_text(cost));
            ReachResult out;
            {
              py::gil_scoped_release release;
              out.reach = p.reach(from, cost);
              out.method = std::string(p.discretisation().method());
              out.from = from;
              out.cost = cost;
              for (const ReachedPlace& place : out.reach.places)
                out.regions.push_back(p.discretisation().node_region(place.node));
            }
            return out;
          },
          py::arg("start"), py::arg("cost"),
          R"(Every node of the discretisation whose cheapest path from start costs at most cost
(`polynav reach --from X,Y --cost C`), cheapest first, as a polynav.Reach: nodes, points and
costs arrays, regions() and to_json(). A start outside free space gives status
"invalid_query" and no nodes.

>>> planner = polynav.Planner(polynav.load_scene("scenes/warehouse.yaml"))
>>> reach = planner.reach((2, 1.5), 3.0)
>>> reach.status, bool((reach.costs <= 3.0).all())
('found', True))")
      .def_property_readonly(
          "method", [](const Planner& p) { return p.options().method; }, "The method's name")
      .def_property_readonly(
          "smoother", [](const Planner& p) { return p.options().smoother; }, "The smoother's name")
      .def_property_readonly("build_ms", &Planner::build_ms,
                             "Free space and discretisation build time, in milliseconds")
      .def_property_readonly(
          "nodes", [](const Planner& p) { return p.discretisation().node_count(); },
          "Nodes of the discretisation")
      .def_property_readonly(
          "summary", [](const Planner& p) { return p.discretisation().summary(); },
          "The discretisation in a line, as `polynav plan` prints it first");

  py::class_<EditablePlanner>(m, "EditablePlanner",
                              R"(A planner over a scene that changes: obstacles and regions added,
removed and moved while plan() goes on from any threads.

EditablePlanner(scene, method="grid", smoother="shortcut", options={}, snap=False,
**method_options)

Obstacles and regions are named by id: the scene's own are 0, 1, ... in file order, and each one
added takes the next id (returned by add_obstacle and add_region; ids are never reused). Each
edit makes a new version from the edited scene (the obstacles it leaves alone are not grown by
the agent's disc again), so answers equal those of a Planner built from it; a plan() started
before an edit answers for the scene before it. A bad edit (an id
that names nothing, a polygon that is not valid) raises polynav.InputError and changes nothing.

>>> live = polynav.EditablePlanner(polynav.load_scene("scenes/warehouse.yaml"))
>>> pallet = live.add_obstacle([[19, 9.5], [21, 9.5], [21, 11.5], [19, 11.5]])
>>> pallet, live.version, live.plan((20, 1.5), (20, 19)).length > 17.5
(14, 1, True)
>>> live.remove_obstacle(pallet); live.plan((20, 1.5), (20, 19)).length
17.5)")
      .def(py::init(&make_editable), py::arg("scene"), py::arg("method") = "grid",
           py::arg("smoother") = "shortcut", py::arg("options") = py::dict(),
           py::arg("snap") = false)
      .def(
          "plan",
          [](const EditablePlanner& live, const PointArg& start, const PointArg& goal) {
            const Point s = to_point(start.value, "start"), g = to_point(goal.value, "goal");
            py::gil_scoped_release release;
            return live.plan(s, g);
          },
          py::arg("start"), py::arg("goal"),
          "Plans on the current version, as Planner.plan(start, goal)")
      .def(
          "add_obstacle",
          [](EditablePlanner& live, const PointsArg& outer, const std::vector<py::object>& holes) {
            SceneEdit e;
            e.shape.outer = to_points(outer.value, "outer");
            for (std::size_t i = 0; i < holes.size(); ++i)
              e.shape.holes.push_back(to_points(holes[i], "holes[" + std::to_string(i) + "]"));
            return apply_one(live, e);
          },
          py::arg("outer"), py::arg("holes") = std::vector<py::object>{},
          "Adds an obstacle (an (N, 2) ring and optional hole rings); returns its id")
      .def("remove_obstacle", remove_edit(SceneEdit::Kind::remove_obstacle), py::arg("id"),
           "Removes the obstacle with this id")
      .def("move_obstacle", move_edit(SceneEdit::Kind::move_obstacle), py::arg("id"), py::arg("by"),
           "Moves the obstacle with this id by (dx, dy)")
      .def(
          "add_region",
          [](EditablePlanner& live, const PointsArg& polygon, double cost,
             const std::string& name) {
            SceneEdit e;
            e.kind = SceneEdit::Kind::add_region;
            e.region.polygon = to_points(polygon.value, "polygon");
            e.region.cost = cost;
            e.region.name = name;
            return apply_one(live, e);
          },
          py::arg("polygon"), py::arg("cost"), py::arg("name") = "",
          "Adds a region of terrain (a simple (N, 2) ring, its cost multiplier > 0); returns "
          "its id")
      .def("remove_region", remove_edit(SceneEdit::Kind::remove_region), py::arg("id"),
           "Removes the region with this id")
      .def("move_region", move_edit(SceneEdit::Kind::move_region), py::arg("id"), py::arg("by"),
           "Moves the region with this id by (dx, dy)")
      .def_property_readonly("version", &EditablePlanner::version,
                             "0 as built, one more for each edit")
      .def_property_readonly(
          "scene", [](const EditablePlanner& live) { return *live.scene(); },
          "The current version's scene (a copy)")
      .def_property_readonly(
          "obstacle_ids", [](const EditablePlanner& live) { return live.ids().obstacles; },
          "The ids of the current obstacles, in the scene's order")
      .def_property_readonly(
          "region_ids", [](const EditablePlanner& live) { return live.ids().regions; },
          "The ids of the current regions, in the scene's order");

  py::class_<Replanner>(m, "Replanner",
                        R"(Replanning towards one goal while an EditablePlanner's scene changes
and the agent moves: each plan() reuses what the one before found instead of searching again.
On the grid method (grid.search astar, jps or jps+) it repairs the search (D* Lite): answers are
of the raw cost live.plan(start, goal) finds. On the navmesh method it follows the last search's
corridor (its shortest path from the start, no search) until the start leaves it or an edit
within reach could block or shorten it; with navmesh.search=optimal an agent that follows its
path gets the length a fresh search finds.

Replanner(live, goal)

Answers go through live's planner (checks, smoothing, validation); stats.expanded counts what
the repair expanded.

>>> live = polynav.EditablePlanner(polynav.load_scene("scenes/warehouse.yaml"))
>>> route = polynav.Replanner(live, (38, 20))
>>> first = route.plan((2, 1.5))
>>> pallet = live.add_obstacle([[19, 9.5], [21, 9.5], [21, 11.5], [19, 11.5]])
>>> again = route.plan((2, 1.5))
>>> again.status, route.fresh, abs(again.raw_length - live.plan((2, 1.5), (38, 20)).raw_length) < 1e-9
('found', False, True))")
      .def(py::init([](const EditablePlanner& live, const PointArg& goal) {
             return std::make_unique<Replanner>(live, to_point(goal.value, "goal"));
           }),
           py::arg("live"), py::arg("goal"), py::keep_alive<1, 2>())
      .def(
          "plan",
          [](Replanner& route, const PointArg& start) {
            const Point s = to_point(start.value, "start");
            py::gil_scoped_release release;
            return route.plan(s);
          },
          py::arg("start"), "The path from start to the goal on the current version")
      .def_property_readonly(
          "fresh", [](const Replanner& route) { return route.last_repair().fresh; },
          "Whether the last plan() searched from scratch rather than repairing")
      .def_property_readonly(
          "changed_nodes", [](const Replanner& route) { return route.last_repair().changed_nodes; },
          "Grid nodes whose moves the edits before the last plan() changed")
      .def_property_readonly(
          "portals", [](const Replanner& route) { return route.last_repair().portals; },
          "On a mesh: the portals of the corridor ahead of the last plan()'s start");

  m.def("method_names", &method_names,
        R"(The methods (discretisations) a Planner takes, in the registry's order.

>>> polynav.method_names()[:4]
['grid', 'quadtree', 'visgraph', 'navmesh'])");
  m.def("smoother_names", &smoother_names,
        R"(The smoothers a Planner takes.

>>> "shortcut" in polynav.smoother_names()
True)");
  m.def("_registry_json", [] {
    // The same document as `polynav methods --json`.
    return registry_json(-1);
  });

  m.def(
      "_run_experiment",
      [](const std::vector<std::string>& paths, const std::vector<std::string>& methods,
         const std::vector<std::string>& smoothers, const py::dict& settings,
         const std::vector<std::string>& scens, std::size_t random, std::uint64_t seed,
         bool same_component, unsigned jobs, std::size_t shard_index, std::size_t shard_count,
         const std::string& points, std::size_t reference_max_corners, std::optional<double> radius,
         const std::optional<std::string>& inflation, std::optional<double> inflation_tolerance,
         const std::string& map_unknown, double map_simplify, std::size_t max_points, bool repair) {
        experiment::Options options;
        for (const std::string& spec : methods)
          options.methods.push_back(experiment::parse_method_spec(spec));
        options.smoothers = smoothers;
        set_free_space_keywords(options.settings, inflation, inflation_tolerance);
        add_settings(options.settings, settings);
        experiment::check_options(options);
        if (random > 0) options.random = experiment::RandomQueries{random, seed, same_component};
        options.jobs = std::max(1u, jobs);
        if (shard_index < 1 || shard_index > shard_count)
          refuse("shard", "(K, N) needs 1 <= K <= N, found (" + std::to_string(shard_index) + ", " +
                              std::to_string(shard_count) + ")");
        options.shard = {shard_index, shard_count};
        options.reference_max_corners = reference_max_corners;
        const ScenarioPoints scenario_points = experiment::scenario_points(points, options);
        const LoadOptions load = load_options(map_unknown, map_simplify, max_points, repair);
        if (radius) check_agent_radius(*radius, "radius");
        std::vector<experiment::Row> rows;
        {
          py::gil_scoped_release release;
          const std::vector<experiment::SceneInput> scenes = experiment::read_scene_inputs(
              {paths, scens, scenario_points}, options, [&](const std::string& path) {
                return cached_scene(path, load, radius, options.settings);
              });
          rows = experiment::run(scenes, options).rows;
        }
        py::list out;
        for (const experiment::Row& r : rows) out.append(row_to_dict(r));
        return out;
      },
      py::arg("paths"), py::arg("methods"), py::arg("smoothers"), py::arg("settings"),
      py::arg("scens"), py::arg("random"), py::arg("seed"), py::arg("same_component"),
      py::arg("jobs"), py::arg("shard_index"), py::arg("shard_count"), py::arg("points"),
      py::arg("reference_max_corners"), py::arg("radius"), py::arg("inflation"),
      py::arg("inflation_tolerance"), py::arg("map_unknown"), py::arg("map_simplify"),
      py::arg("max_points"), py::arg("repair"));

  m.def(
      "_merge_shards",
      [](const std::vector<py::list>& shards) {
        std::vector<std::vector<experiment::Row>> rows;
        std::vector<std::string> names;
        for (std::size_t k = 0; k < shards.size(); ++k) {
          rows.emplace_back();
          for (const auto& item : shards[k])
            rows.back().push_back(dict_to_row(item.cast<py::dict>()));
          names.push_back("shard " + std::to_string(k + 1));
        }
        py::list out;
        for (const experiment::Row& r : experiment::merge_shards(rows, names))
          out.append(row_to_dict(r));
        return out;
      },
      py::arg("shards"));

  m.def(
      "_write_experiment",
      [](const py::list& rows, const std::string& csv_path, const std::string& plot_path) {
        std::vector<experiment::Row> r;
        for (const auto& item : rows) r.push_back(dict_to_row(item.cast<py::dict>()));
        py::gil_scoped_release release;
        if (!csv_path.empty()) {
          std::ostringstream csv;
          experiment::write_csv(csv, r);
          write_output_file(csv_path, csv.str(), "out");
        }
        if (!plot_path.empty())
          write_output_file(plot_path, experiment::plot_svg(r, "polynav experiment"), "plot");
      },
      py::arg("rows"), py::arg("csv_path"), py::arg("plot_path"));

  m.def("csv_columns", &experiment::csv_columns,
        R"(The experiment CSV's columns, in order: the keys of run_experiment()'s rows.

>>> polynav.csv_columns()[:4]
['scene', 'method', 'options', 'smoother'])");

  m.def(
      "_draw_plan",
      [](const Scene& scene, const Planner& planner, const std::vector<PlanResult>& results,
         const std::string& path, double width) {
        py::gil_scoped_release release;
        return draw_plan(scene, planner, results, path, width);
      },
      py::arg("scene"), py::arg("planner"), py::arg("results"), py::arg("path"), py::arg("width"));
}
