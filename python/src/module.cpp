// The `polynav._polynav` extension module: the C++ facade (scenes, Planner, the registry, the
// experiment runner, the plan picture) for Python. Python-side conveniences live in
// python/polynav/__init__.py. Every C++ exception becomes a Python one: InputError as
// polynav.InputError (a ValueError with file, line, column and key), anything else as
// RuntimeError; none reaches Python as a crash.

#include <pybind11/eval.h>
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

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
#include "polynav/io/plan_picture.hpp"
#include "polynav/plan/json.hpp"
#include "polynav/plan/planner.hpp"
#include "polynav/plan/registry.hpp"
#include "polynav/scene/scene.hpp"

namespace py = pybind11;
using namespace polynav;

namespace {

using Array = py::array_t<double, py::array::c_style | py::array::forcecast>;

Array to_array(const std::vector<Point>& points) {
  Array out({py::ssize_t(points.size()), py::ssize_t(2)});
  auto view = out.mutable_unchecked<2>();
  for (std::size_t i = 0; i < points.size(); ++i) {
    view(py::ssize_t(i), 0) = points[i].x;
    view(py::ssize_t(i), 1) = points[i].y;
  }
  return out;
}

Point to_point(const py::handle& object, const char* what) {
  const Array a = Array::ensure(object);
  if (!a || a.ndim() != 1 || a.shape(0) != 2)
    throw InputError({"", 0, 0, what}, std::string(what) + " must be a point (x, y)");
  return {a.at(0), a.at(1)};
}

std::vector<Point> to_points(const py::handle& object, const char* what) {
  const Array a = Array::ensure(object);
  if (!a || a.ndim() != 2 || a.shape(1) != 2)
    throw InputError({"", 0, 0, what}, std::string(what) + " must be an (N, 2) array of points");
  std::vector<Point> out(std::size_t(a.shape(0)));
  auto view = a.unchecked<2>();
  for (py::ssize_t i = 0; i < a.shape(0); ++i) out[std::size_t(i)] = {view(i, 0), view(i, 1)};
  return out;
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

Settings to_settings(const py::dict& options) {
  Settings settings;
  for (const auto& [key, value] : options)
    settings.set(py::str(key).cast<std::string>(), option_text(value));
  return settings;
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
  return r;
}

// Scenes and their free space, kept for the life of the process: a worker that runs several
// shards of one experiment loads and builds each scene once. Keyed by path, file time and the
// free-space options.
std::pair<Scene, std::shared_ptr<const FreeSpace>> cached_scene(const std::string& path,
                                                                const FreeSpaceOptions& options) {
  static std::mutex mutex;
  static std::map<std::string, std::pair<Scene, std::shared_ptr<const FreeSpace>>> cache;
  std::error_code ec;
  const auto stamp = std::filesystem::last_write_time(path, ec);
  std::ostringstream key;
  key << path << '|' << (ec ? 0 : stamp.time_since_epoch().count()) << '|'
      << options.inflation_tolerance << '|' << options.open_gaps;
  {
    const std::lock_guard lock(mutex);
    if (const auto it = cache.find(key.str()); it != cache.end()) return it->second;
  }
  Scene scene = load_scene(path);
  auto space = std::make_shared<const FreeSpace>(scene, options);
  const std::lock_guard lock(mutex);
  return cache.emplace(key.str(), std::pair{std::move(scene), std::move(space)}).first->second;
}

// A planner built from Python arguments: method-local keyword options ("resolution" for the
// grid) become "grid.resolution"; `options` takes full "group.name" keys.
std::unique_ptr<Planner> make_planner(const Scene& scene, const std::string& method,
                                      const std::string& smoother, const py::dict& options,
                                      bool record_expanded, const py::kwargs& kwargs) {
  PlanOptions plan;
  plan.method = method;
  plan.smoother = smoother;
  plan.record_expanded = record_expanded;
  plan.settings = to_settings(options);
  for (const auto& [key, value] : kwargs)
    plan.settings.set(method + "." + py::str(key).cast<std::string>(), option_text(value));
  py::gil_scoped_release release;
  return std::make_unique<Planner>(scene, plan);
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

  // polynav.InputError: a ValueError carrying where the input is wrong.
  static py::object input_error = [&] {
    py::object cls = py::reinterpret_borrow<py::object>(PyExc_ValueError);
    py::dict ns;
    py::exec(R"(
class InputError(ValueError):
    """Bad input: `file`, `line`, `column` and `key` say where (empty or 0 when unknown)."""
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
      py::object instance = input_error(e.what(), w.file, w.line, w.column, w.key_path);
      PyErr_SetObject(input_error.ptr(), instance.ptr());
    }
  });

  py::class_<Scene>(m, "Scene", "A loaded, validated scene (polynav.load_scene, Scene.from_text)")
      .def_static(
          "from_text",
          [](const std::string& text, const std::string& name) {
            return parse_native_scene(text, name);
          },
          py::arg("text"), py::arg("name") = "<python>.yaml",
          "Parses a native scene (YAML; strict JSON when name ends in .json).")
      .def_readonly("name", &Scene::name)
      .def_property_readonly("bounds", [](const Scene& s) { return to_array(s.bounds); })
      .def_property_readonly("obstacles",
                             [](const Scene& s) {
                               py::list out;
                               for (const Obstacle& o : s.obstacles)
                                 out.append(to_array(o.shape.outer));
                               return out;
                             })
      .def_property_readonly("radius", [](const Scene& s) { return s.agent.radius; })
      .def_readonly("repairs", &Scene::repairs)
      .def_property_readonly(
          "queries",
          [](const Scene& s) {
            py::list out;
            for (const Query& q : s.queries)
              out.append(py::make_tuple(q.name, py::make_tuple(q.start.x, q.start.y),
                                        py::make_tuple(q.goal.x, q.goal.y)));
            return out;
          })
      .def("__repr__", [](const Scene& s) {
        return "<polynav.Scene '" + s.name + "' with " + std::to_string(s.obstacles.size()) +
               " obstacles>";
      });

  m.def(
      "load_scene",
      [](const std::string& path, std::optional<double> radius, const std::string& map_unknown,
         double map_simplify, std::size_t max_points, bool repair) {
        // The command line's global --radius, --map-unknown, --map-simplify, --max-points and
        // --repair, checked by the same library checks, so a bad value gets the same message.
        LoadOptions load;
        load.unknown = parse_unknown_cells(map_unknown, "map_unknown");
        load.simplify = map_simplify;
        load.max_points = max_points;
        load.repair = repair;
        check_load_options(load, "map_simplify", "max_points");
        if (radius) check_agent_radius(*radius, "radius");
        py::gil_scoped_release release;
        Scene scene = load_scene(path, load);
        if (radius) scene.agent.radius = *radius;
        return scene;
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
command line gives, its key the keyword.)");

  py::class_<PlanResult>(m, "PlanResult", "The answer to one query")
      .def_property_readonly("status",
                             [](const PlanResult& r) { return std::string(to_string(r.status)); })
      .def_property_readonly("found", &PlanResult::found)
      .def_readonly("message", &PlanResult::message)
      .def_readonly("method", &PlanResult::method)
      .def_readonly("smoother", &PlanResult::smoother)
      .def_property_readonly(
          "start", [](const PlanResult& r) { return py::make_tuple(r.start.x, r.start.y); })
      .def_property_readonly("goal",
                             [](const PlanResult& r) { return py::make_tuple(r.goal.x, r.goal.y); })
      .def_property_readonly(
          "waypoints", [](const PlanResult& r) { return to_array(r.waypoints); },
          "(N, 2) float64 array, start to goal")
      .def_property_readonly("raw_waypoints",
                             [](const PlanResult& r) { return to_array(r.raw_waypoints); })
      .def_readonly("length", &PlanResult::length)
      .def_readonly("cost", &PlanResult::cost)
      .def_readonly("raw_length", &PlanResult::raw_length)
      .def_property_readonly("expanded", [](const PlanResult& r) { return r.stats.expanded; })
      .def_property_readonly("search_ms", [](const PlanResult& r) { return r.stats.search_ms; })
      .def_property_readonly("smooth_ms", [](const PlanResult& r) { return r.stats.smooth_ms; })
      .def(
          "to_json", [](const PlanResult& r) { return plan_result_json(r); },
          "The JSON object `polynav plan --json` prints for this result")
      .def("__repr__", [](const PlanResult& r) {
        std::ostringstream s;
        s << "<polynav.PlanResult " << to_string(r.status);
        if (r.found()) s << " length=" << r.length << " waypoints=" << r.waypoints.size();
        return s.str() + ">";
      });

  py::class_<Planner>(m, "Planner",
                      "Free space, a method and a smoother, built once; plan() may be called from "
                      "any thread")
      .def(py::init(&make_planner), py::arg("scene"), py::arg("method") = "grid",
           py::arg("smoother") = "shortcut", py::arg("options") = py::dict(),
           py::arg("record_expanded") = false,
           "Planner(scene, method='grid', smoother='shortcut', options={},\n"
           "record_expanded=False, **method_options).\n"
           "method_options are the method's own (resolution=0.25 for the grid); options takes\n"
           "'group.name' keys for any group (search.weight, space.gaps, shortcut-optimal.window).\n"
           "record_expanded keeps the positions of the nodes each search expands, which\n"
           "draw_plan() shows.")
      .def(
          "plan",
          [](const Planner& p, const py::handle& start, const py::handle& goal) {
            const Point s = to_point(start, "start"), g = to_point(goal, "goal");
            py::gil_scoped_release release;
            return p.plan(s, g);
          },
          py::arg("start"), py::arg("goal"))
      .def(
          "plan_many",
          [](const Planner& p, const py::handle& starts, const py::handle& goals,
             unsigned threads) {
            const std::vector<Point> s = to_points(starts, "starts"), g = to_points(goals, "goals");
            if (s.size() != g.size())
              throw InputError({"", 0, 0, "goals"},
                               "starts and goals differ in length: " + std::to_string(s.size()) +
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
          "Plans every (start, goal) pair on `threads` threads (0: one per core), without the "
          "GIL; results in input order.")
      .def_property_readonly("method", [](const Planner& p) { return p.options().method; })
      .def_property_readonly("smoother", [](const Planner& p) { return p.options().smoother; })
      .def_property_readonly("build_ms", &Planner::build_ms)
      .def_property_readonly("nodes",
                             [](const Planner& p) { return p.discretisation().node_count(); });

  m.def("method_names", &method_names);
  m.def("smoother_names", &smoother_names);
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
         std::size_t reference_max_corners) {
        experiment::Options options;
        for (const std::string& spec : methods)
          options.methods.push_back(experiment::parse_method_spec(spec));
        options.smoothers = smoothers;
        options.settings = to_settings(settings);
        if (random > 0) options.random = experiment::RandomQueries{random, seed, same_component};
        options.jobs = std::max(1u, jobs);
        options.shard = {shard_index, shard_count};
        if (shard_index < 1 || shard_index > shard_count)
          throw InputError({"", 0, 0, "shard"}, "shard K/N needs 1 <= K <= N");
        options.reference_max_corners = reference_max_corners;
        std::vector<experiment::Row> rows;
        {
          py::gil_scoped_release release;
          std::vector<experiment::SceneInput> scenes;
          const FreeSpaceOptions space_options = free_space_options(options.settings);
          for (std::size_t i = 0; i < paths.size(); ++i) {
            experiment::SceneInput in;
            std::tie(in.scene, in.space) = cached_scene(paths[i], space_options);
            in.name = in.scene.name.empty() ? std::filesystem::path(paths[i]).stem().string()
                                            : in.scene.name;
            if (random == 0) {
              const std::string& scen = i < scens.size() ? scens[i] : std::string();
              in.queries = scen.empty() ? in.scene.queries : load_scenario(scen, in.scene);
            }
            scenes.push_back(std::move(in));
          }
          rows = experiment::run(scenes, options).rows;
        }
        py::list out;
        for (const experiment::Row& r : rows) out.append(row_to_dict(r));
        return out;
      },
      py::arg("paths"), py::arg("methods"), py::arg("smoothers"), py::arg("settings"),
      py::arg("scens"), py::arg("random"), py::arg("seed"), py::arg("same_component"),
      py::arg("jobs"), py::arg("shard_index"), py::arg("shard_count"),
      py::arg("reference_max_corners"));

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

  m.def("csv_columns", &experiment::csv_columns, "The experiment CSV's columns, in order");

  m.def(
      "_draw_plan",
      [](const Scene& scene, const Planner& planner, const std::vector<PlanResult>& results,
         const std::string& path, double width) {
        py::gil_scoped_release release;
        return draw_plan(scene, planner, results, path, width);
      },
      py::arg("scene"), py::arg("planner"), py::arg("results"), py::arg("path"), py::arg("width"));
}
