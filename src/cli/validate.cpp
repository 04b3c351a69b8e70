// `polynav validate SCENE [--json]`: loads a scene, builds its free space and summarises both,
// checking every query. The scene is valid when it loads; invalid queries are reported, not
// treated as a broken scene (a benchmark may well contain them on purpose).

#include <CLI/CLI.hpp>
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <iomanip>
#include <iostream>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "commands.hpp"
#include "common.hpp"

namespace polynav::cli {
namespace {

// Keys in the order they are written, so the object reads like the text summary.
using json = nlohmann::ordered_json;

struct ValidateArgs {
  std::string scene;
  bool as_json = false;
};

struct QueryCheck {
  std::string name;
  Point start;
  Point goal;
  std::optional<double> reference_length;
  std::optional<std::uint32_t> start_component;
  std::optional<std::uint32_t> goal_component;
  std::vector<std::string> problems;  // empty = valid
};

struct Summary {
  std::string name;
  std::string source;
  SceneFormat format;
  Box bounds;
  std::size_t bounds_vertices = 0;
  double radius = 0.0;
  double max_climb = INFINITY;
  bool cell_map = false;
  std::size_t obstacles = 0;
  std::size_t obstacle_vertices = 0;
  std::size_t obstacle_holes = 0;
  std::vector<Region> regions;
  double free_area = 0.0;
  std::size_t components = 0;
  std::size_t boundary_rings = 0;
  std::size_t boundary_edges = 0;
  double inflation_tolerance = 0.0;
  std::string inflation;  // how the obstacles grew: exact or cells
  double min_cost = 1.0;
  std::vector<QueryCheck> queries;
  std::size_t invalid_queries = 0;
  std::optional<OccupancyMap> map;  // without its cells
  std::size_t occupied = 0, free_cells = 0, unknown = 0;
  std::optional<VectorisationReport> vectorisation;
  double load_ms = 0.0;
  std::vector<std::string> unused;
  std::vector<std::string> repairs;
};

QueryCheck check_query(const Query& q, std::size_t index, const FreeSpace& space) {
  QueryCheck c{q.name.empty() ? "queries[" + std::to_string(index) + "]" : q.name,
               q.start,
               q.goal,
               q.reference_length,
               space.component(q.start),
               space.component(q.goal),
               {}};
  auto blocked = [&](const char* which, Point p) {
    std::string why = space.explain_blocked(p);
    if (why.empty()) why = "not in free space";
    c.problems.push_back(std::string(which) + " " + format_point(p) + " is " + why);
  };
  if (!space.is_free(q.start)) blocked("start", q.start);
  if (!space.is_free(q.goal)) blocked("goal", q.goal);
  // A point where components touch (a closed zero-width gap) is in each of them.
  const std::vector<std::uint32_t> from = space.components(q.start), to = space.components(q.goal);
  if (c.problems.empty() && !from.empty() && !to.empty() &&
      std::find_first_of(from.begin(), from.end(), to.begin(), to.end()) == from.end()) {
    c.problems.push_back("no path possible: start and goal are in different components");
  }
  return c;
}

Summary summarise(const LoadedScene& loaded) {
  const Scene& scene = loaded.scene;
  const FreeSpace& space = loaded.space;
  Summary s;
  s.name = scene_display_name(scene);
  s.source = scene.source.string();
  s.format = scene_format(scene);
  s.bounds = scene.bounds.empty() ? space.box() : bounding_box(scene.bounds);
  s.bounds_vertices = scene.bounds.size();
  s.radius = space.agent().radius;
  s.max_climb = space.agent().max_climb;
  s.cell_map = scene.cell_map.has_value();
  if (scene.occupancy) {
    for (const OccupancyMap::Cell c : scene.occupancy->cells) {
      if (c == OccupancyMap::Cell::occupied) ++s.occupied;
      if (c == OccupancyMap::Cell::free) ++s.free_cells;
      if (c == OccupancyMap::Cell::unknown) ++s.unknown;
    }
    s.map = OccupancyMap{.width = scene.occupancy->width,
                         .height = scene.occupancy->height,
                         .resolution = scene.occupancy->resolution,
                         .origin = scene.occupancy->origin,
                         .yaw = scene.occupancy->yaw,
                         .cells = {},
                         .unknown_free = scene.occupancy->unknown_free,
                         .image = scene.occupancy->image};
  }
  s.vectorisation = scene.vectorisation;
  s.unused = scene.unused;
  s.repairs = scene.repairs;
  s.load_ms = loaded.load_ms;
  s.obstacles = scene.obstacles.size();
  for (const Obstacle& o : scene.obstacles) {
    s.obstacle_vertices += o.shape.outer.size();
    s.obstacle_holes += o.shape.holes.size();
    for (const Ring& h : o.shape.holes) s.obstacle_vertices += h.size();
  }
  s.regions = scene.regions;
  s.free_area = space.area();
  s.components = space.component_count();
  s.boundary_rings = space.boundary().size();
  s.boundary_edges = space.edge_count();
  s.inflation_tolerance = space.inflation_tolerance();
  s.inflation = name_of(inflation_names, space.inflation());
  s.min_cost = space.min_cost();
  for (std::size_t i = 0; i < scene.queries.size(); ++i) {
    s.queries.push_back(check_query(scene.queries[i], i, space));
    if (!s.queries.back().problems.empty()) ++s.invalid_queries;
  }
  return s;
}

json to_json(Point p) {
  return json::array({p.x, p.y});
}

template <class T>
json optional_json(const std::optional<T>& v) {
  return v ? json(*v) : json(nullptr);
}

json map_json(const Summary& s) {
  if (!s.map) return nullptr;
  return {{"image", s.map->image.string()},
          {"width", s.map->width},
          {"height", s.map->height},
          {"resolution", s.map->resolution},
          {"origin", to_json(s.map->origin)},
          {"yaw", s.map->yaw},
          {"occupied", s.occupied},
          {"free", s.free_cells},
          {"unknown", s.unknown},
          {"unknown_is", s.map->unknown_free ? "free" : "blocked"}};
}

json vectorisation_json(const Summary& s) {
  if (!s.vectorisation) return nullptr;
  const VectorisationReport& v = *s.vectorisation;
  return {{"rings", v.rings},
          {"traced_vertices", v.traced_vertices},
          {"vertices", v.vertices},
          {"tolerance", v.tolerance},
          {"fills", v.fills},
          {"trace_ms", v.trace_ms},
          {"simplify_ms", v.simplify_ms}};
}

json to_json(const Summary& s) {
  json regions = json::array();
  for (const Region& r : s.regions) {
    regions.push_back({{"name", r.name},
                       {"cost", r.cost},
                       {"height", optional_json(r.height)},
                       {"vertices", r.polygon.size()}});
  }
  json queries = json::array();
  for (const QueryCheck& q : s.queries) {
    json j = {{"name", q.name},
              {"start", to_json(q.start)},
              {"goal", to_json(q.goal)},
              {"valid", q.problems.empty()},
              {"problems", q.problems},
              {"start_component", optional_json(q.start_component)},
              {"goal_component", optional_json(q.goal_component)}};
    if (q.reference_length) j["reference_length"] = *q.reference_length;
    queries.push_back(std::move(j));
  }
  return {
      {"valid", true},
      {"name", s.name},
      {"source", s.source},
      {"format", s.format.id},
      {"bounds",
       {{"min", to_json(s.bounds.min)},
        {"max", to_json(s.bounds.max)},
        {"width", s.bounds.width()},
        {"height", s.bounds.height()},
        {"vertices", s.bounds_vertices}}},
      {"agent",
       {{"radius", s.radius},
        {"max_climb", std::isfinite(s.max_climb) ? json(s.max_climb) : json(nullptr)}}},
      {"obstacles",
       {{"count", s.obstacles}, {"vertices", s.obstacle_vertices}, {"holes", s.obstacle_holes}}},
      {"regions", regions},
      {"free_space",
       {{"area", s.free_area},
        {"components", s.components},
        {"boundary_rings", s.boundary_rings},
        {"boundary_edges", s.boundary_edges},
        {"inflation_tolerance", s.inflation_tolerance},
        {"inflation", s.inflation},
        {"min_cost", s.min_cost}}},
      {"queries", queries},
      {"valid_queries", s.queries.size() - s.invalid_queries},
      {"invalid_queries", s.invalid_queries},
      {"map", map_json(s)},
      {"vectorisation", vectorisation_json(s)},
      {"load_ms", s.load_ms},
      {"unused", s.unused},
      {"repairs", s.repairs},
  };
}

std::string plural(std::size_t n, const char* one, const char* many) {
  return std::to_string(n) + " " + (n == 1 ? one : many);
}

void print_text(const Summary& s, std::ostream& out) {
  auto row = [&out](const char* key, const std::string& value) {
    out << "  " << std::left << std::setw(12) << key << value << '\n';
  };
  out << "scene " << s.name << '\n';
  row("source", s.source + " (" + s.format.description + ")");
  row("bounds", format_number(s.bounds.width()) + " x " + format_number(s.bounds.height()) +
                    ", from " + format_point(s.bounds.min) + " to " + format_point(s.bounds.max));
  std::string agent = s.radius > 0 ? "radius " + format_number(s.radius) : "a point (radius 0)";
  if (std::isfinite(s.max_climb)) agent += ", climbs at most " + format_number(s.max_climb);
  row("agent", agent);
  if (s.map) {
    row("map", std::to_string(s.map->width) + " x " + std::to_string(s.map->height) + " cells of " +
                   format_number(s.map->resolution) + ", origin " + format_point(s.map->origin) +
                   (s.map->yaw != 0.0 ? ", turned by yaw " + format_number(s.map->yaw) : "") +
                   "; " + std::to_string(s.occupied) + " occupied, " +
                   std::to_string(s.free_cells) + " free, " + std::to_string(s.unknown) +
                   " unknown (read as " + (s.map->unknown_free ? "free" : "blocked") + ")");
  }
  if (s.vectorisation) {
    const VectorisationReport& v = *s.vectorisation;
    std::string outline = plural(v.traced_vertices, "vertex", "vertices") + " in " +
                          plural(v.rings, "ring", "rings") + " along cell sides, traced in " +
                          format_number(v.trace_ms, 3) + " ms";
    if (v.tolerance > 0) {
      outline += "; simplified with tolerance " + format_number(v.tolerance) + " to " +
                 plural(v.vertices, "vertex", "vertices") + " (" +
                 plural(v.fills, "fill polygon", "fill polygons") + ") in " +
                 format_number(v.simplify_ms, 3) + " ms";
    }
    row("outline", outline);
    row("loaded in", format_number(s.load_ms, 3) + " ms");
  }
  // A map's obstacles are its blocked cells, a row's run of them each, and are better called
  // so; a simplified map's obstacles also hold the fill polygons of the simplification.
  const std::size_t fills = s.vectorisation ? s.vectorisation->fills : 0;
  std::string obstacles =
      s.cell_map ? plural(s.obstacles - fills, "run of blocked cells", "runs of blocked cells")
      : s.map
          ? plural(s.obstacles - fills, "rectangle of blocked cells", "rectangles of blocked cells")
          : plural(s.obstacles, "obstacle", "obstacles");
  if (fills > 0) obstacles += " and " + plural(fills, "fill polygon", "fill polygons");
  obstacles += ", " + plural(s.obstacle_vertices, "vertex", "vertices");
  if (s.obstacle_holes > 0) obstacles += ", " + plural(s.obstacle_holes, "hole", "holes");
  row("obstacles", obstacles);
  std::string regions = std::to_string(s.regions.size());
  // A long list of regions says nothing at a glance; the JSON output has them all.
  constexpr std::size_t regions_listed = 8;
  for (std::size_t i = 0; i < s.regions.size() && i < regions_listed; ++i) {
    const Region& r = s.regions[i];
    regions += (i == 0 ? ": " : ", ") +
               (r.name.empty() ? std::string("#") + std::to_string(i) : r.name) + " cost x" +
               format_number(r.cost);
    if (r.height) regions += " height " + format_number(*r.height);
  }
  if (s.regions.size() > regions_listed) regions += ", ...";
  row("regions", regions);
  std::string free = "area " + format_number(s.free_area) + " in " +
                     plural(s.components, "component", "components") + ", " +
                     plural(s.boundary_edges, "boundary edge", "boundary edges");
  if (s.radius > 0)
    free += " (" + s.inflation + " inflation, tolerance " + format_number(s.inflation_tolerance) +
            (s.inflation == "cells" ? ": a cell diagonal)" : ")");
  row("free space", free);
  std::string queries = std::to_string(s.queries.size());
  if (!s.queries.empty()) {
    queries += ": " + std::to_string(s.queries.size() - s.invalid_queries) + " valid, " +
               std::to_string(s.invalid_queries) + " invalid";
  }
  row("queries", queries);
  for (const std::string& u : s.unused) row("not used", u);
  for (const std::string& r : s.repairs) row("repaired", r);

  // Scenario-sized query lists are shown by their invalid members only.
  constexpr std::size_t queries_listed = 50;
  const bool list_all = s.queries.size() <= queries_listed;
  std::size_t width = 0;
  for (const QueryCheck& q : s.queries) width = std::max(width, q.name.size());
  width = std::min<std::size_t>(width, 24);
  for (const QueryCheck& q : s.queries) {
    const bool valid = q.problems.empty();
    if (valid && !list_all) continue;
    out << "    " << (valid ? "ok       " : "INVALID  ") << std::left
        << std::setw(static_cast<int>(width)) << q.name << "  " << format_point(q.start) << " -> "
        << format_point(q.goal);
    for (std::size_t i = 0; i < q.problems.size(); ++i) {
      out << (i == 0 ? ": " : "; ") << q.problems[i];
    }
    out << '\n';
  }
  if (!list_all && s.invalid_queries < s.queries.size()) {
    out << "    (" << plural(s.queries.size() - s.invalid_queries, "valid query", "valid queries")
        << " not listed)\n";
  }

  if (s.invalid_queries == 0) {
    out << "valid scene" << (s.queries.empty() ? "" : "; every query is valid") << '\n';
  } else {
    out << "valid scene, but " << s.invalid_queries << " of "
        << plural(s.queries.size(), "query", "queries") << (s.invalid_queries == 1 ? " is" : " are")
        << " invalid\n";
  }
}

int run_validate(const ValidateArgs& args, SceneOptions options) {
  options.report_repairs = false;  // the summary lists them
  const LoadedScene loaded(args.scene, options);
  const Summary summary = summarise(loaded);
  if (args.as_json) {
    std::cout << to_json(summary).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace)
              << '\n';
  } else {
    print_text(summary, std::cout);
  }
  return exit_ok;
}

}  // namespace

void add_validate_command(CLI::App& app) {
  auto args = std::make_shared<ValidateArgs>();
  CLI::App* cmd = app.add_subcommand("validate", "Check a scene and summarise it, query by query");
  cmd->add_option("SCENE", args->scene, "Scene file to check")->required()->type_name("");
  cmd->add_flag("--json", args->as_json, "Print the summary as one JSON object");
  cmd->footer(
      std::string("Prints the scene's size, agent, obstacles, regions and free space (area,\n"
                  "connected components, boundary edges after inflation), then each query: ok,\n"
                  "or why not (an end outside free space, or the ends in different components).\n"
                  "With --repair, each obstacle made valid is listed ('repaired'), with what was\n"
                  "wrong and its area before and after.\n"
                  "Exits 0 when the scene is valid, even if some queries are not.\n"
                  "\n"
                  "Examples:\n"
                  "  polynav validate scenes/warehouse.yaml\n"
                  "  polynav validate maps/arena.map --radius 0.4 --json\n"
                  "\n") +
      global_options_help + "\n\n" + exit_codes_help);
  cmd->callback([args, cmd] { set_exit_status(run_validate(*args, scene_options(*cmd))); });
}

}  // namespace polynav::cli
