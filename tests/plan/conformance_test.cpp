// Every discretisation (and the grid's 16-connected, Theta* and central-path variants) and smoother
// on every bundled scene, held to the same invariants: the path joins the query's points, every
// segment is a valid motion (exact check), its cost is at least the straight-line distance times
// the cheapest multiplier, smoothing never raises the cost (spline excepted: curves are not
// shortest), a method never finds a path where another proved there is none, and the default
// navigation mesh, where it searches by Polyanya, gives the visibility graph's exact lengths.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <map>
#include <optional>
#include <utility>

#include "polynav/discretise/navmesh/navmesh.hpp"
#include "polynav/error.hpp"
#include "polynav/plan/planner.hpp"
#include "polynav/smooth/path_simplifier.hpp"
#include "support/quick_weighted.hpp"
#include "support/scale.hpp"

namespace polynav {
namespace {

namespace fs = std::filesystem;

struct Case {
  fs::path scene;
  fs::path scenario;  // empty: the scene's own queries
};

std::vector<Case> bundled_cases() {
  const fs::path root = fs::path(POLYNAV_SOURCE_DIR) / "scenes";
  std::vector<Case> cases;
  for (const auto& e : fs::directory_iterator(root))
    if (e.path().extension() == ".yaml" || e.path().extension() == ".json")
      cases.push_back({e.path(), {}});
  for (const auto& e : fs::directory_iterator(root / "movingai"))
    if (e.path().extension() == ".map") cases.push_back({e.path(), fs::path(e.path()) += ".scen"});
  cases.push_back({root / "mesh" / "arena.mesh", root / "mesh" / "arena-euclidean.scen"});
  std::sort(cases.begin(), cases.end(),
            [](const Case& a, const Case& b) { return a.scene < b.scene; });
  return cases;
}

class Conformance : public testing::TestWithParam<Case> {};

TEST_P(Conformance, EveryMethodAndSmootherKeepsTheInvariants) {
  const Case& c = GetParam();
  const Scene scene = load_scene(c.scene);
  // Long scenario files: an even sample keeps the suite quick.
  const std::vector<Query> queries = test::evenly(
      c.scenario.empty() ? scene.queries : load_scenario(c.scenario, scene), test::scaled(40, 10));
  ASSERT_FALSE(queries.empty());
  // Every method with its defaults, and the navigation mesh with each node placement it
  // declares.
  std::vector<std::pair<std::string, Settings>> variants;
  for (const std::string& method : method_names()) variants.push_back({method, Settings{}});
  // The weighted method's Steiner graph costs about a tenth of a second a query at its default
  // epsilon even on small scenes: here it runs coarser, on the first queries only (its own
  // tests hold it to its bound at finer epsilon).
  constexpr std::size_t weighted_queries = 6;
  for (auto& [method, settings] : variants)
    if (method == "weighted") settings.set("weighted.epsilon", test::quick_weighted_epsilon);
  for (const OptionSpec& spec : find_method("navmesh").options) {
    if (spec.name != "nodes") continue;
    for (const std::string& nodes : spec.choices) {
      if (nodes == spec.default_value) continue;
      Settings settings;
      settings.set("navmesh.nodes", nodes);
      variants.push_back({"navmesh nodes=" + nodes, settings});
    }
  }
  // The grid's own variants, centre- and corner-aligned: 16-connected, Theta*, central paths.
  for (const char* align : {"centre", "corner"}) {
    for (const auto& [key, value] :
         {std::pair{"connectivity", "16"}, {"search", "theta"}, {"paths", "central"}}) {
      Settings settings;
      settings.set(std::string("grid.") + key, value);
      settings.set("grid.align", align);
      variants.push_back({std::string("grid ") + key + "=" + value + " align=" + align, settings});
    }
  }
  // Corner-aligned grids refuse terrain heights with a climb limit (an InputError naming
  // grid.align): such variants are left out on those scenes.
  const bool climb_limit = std::isfinite(scene.agent.max_climb) &&
                           std::any_of(scene.regions.begin(), scene.regions.end(),
                                       [](const Region& r) { return r.height.has_value(); });
  std::erase_if(variants, [&](const auto& v) {
    return climb_limit && v.first.find("align=corner") != std::string::npos;
  });
  // And searched by Polyanya, and as a graph (the default, auto, is either, by scene).
  for (const char* search : {"optimal", "graph"}) {
    Settings settings;
    settings.set("navmesh.search", std::string(search));
    variants.push_back({std::string("navmesh search=") + search, settings});
  }
  // Free space is built once per scene and shared by every planner (no variant sets space.*).
  const auto space_shared = std::make_shared<const FreeSpace>(scene);
  // found[query] per method, to compare methods.
  std::map<std::string, std::vector<search::SearchStatus>> status_by_method;
  // The visibility graph's raw lengths (the exact Euclidean optimum), per query; the navigation
  // mesh's default where it is Polyanya (navmesh.search=auto resolved to optimal), funnelled or
  // not, must give them.
  std::vector<double> optimum(queries.size(), NAN);
  for (const auto& [method, settings] : variants) {
    for (const std::string& smoother : smoother_names()) {
      PlanOptions options;
      options.method = method.substr(0, method.find(' '));
      options.smoother = smoother;
      options.settings = settings;
      std::optional<Planner> built;
      try {
        built.emplace(space_shared, options);
      } catch (const InputError& e) {
        // Polyanya refuses one-way moves (heights beyond the climb limit), naming its option.
        ASSERT_EQ(method, "navmesh search=optimal") << e.what();
        EXPECT_NE(std::string(e.what()).find("navmesh.search"), std::string::npos) << e.what();
        status_by_method.erase(method);
        break;
      }
      const Planner& planner = *built;
      const FreeSpace& space = planner.free_space();
      NavMeshOptions automatic;
      automatic.search = NavMeshSearch::automatic;
      const bool exact = method == "navmesh" && (smoother == "none" || smoother == "funnel") &&
                         resolve_navmesh_search(space, automatic) == NavMeshSearch::optimal;
      const PathSimplifier checker(space);
      std::vector<search::SearchStatus>& statuses = status_by_method[method];
      statuses.clear();
      for (std::size_t i = 0; i < queries.size(); ++i) {
        const Query& q = queries[i];
        if (method == "weighted" && i >= weighted_queries) {
          // Not planned: a status that claims nothing either way in the comparison below.
          statuses.push_back(search::SearchStatus::limit_reached);
          continue;
        }
        SCOPED_TRACE(method + "/" + smoother + " " + q.where.to_string() + " " + q.name);
        const PlanResult r = planner.plan(q.start, q.goal);
        statuses.push_back(r.status);
        if (method == "visgraph" && smoother == "none" && r.found()) optimum[i] = r.length;
        if (exact && r.found() && std::isfinite(optimum[i])) {
          EXPECT_NEAR(r.length, optimum[i], 1e-9 * std::max(1.0, optimum[i]));
        }
        if (!space.is_free(q.start) || !space.is_free(q.goal)) {
          EXPECT_EQ(r.status, search::SearchStatus::invalid_query);
          continue;
        }
        if (!r.found()) {
          EXPECT_TRUE(r.waypoints.empty());
          EXPECT_FALSE(r.message.empty());
          continue;
        }
        ASSERT_GE(r.waypoints.size(), 1u);
        EXPECT_EQ(r.waypoints.front(), q.start);
        EXPECT_EQ(r.waypoints.back(), q.goal);
        EXPECT_EQ(r.raw_waypoints.front(), q.start);
        EXPECT_EQ(r.raw_waypoints.back(), q.goal);
        EXPECT_TRUE(checker.is_valid(r.waypoints));
        EXPECT_TRUE(checker.is_valid(r.raw_waypoints));
        const double straight = distance(q.start, q.goal);
        EXPECT_GE(r.length, straight * (1 - 1e-12));
        EXPECT_GE(r.cost, straight * space.min_cost() * (1 - 1e-12));
        EXPECT_NEAR(r.cost, space.path_cost(r.waypoints), 1e-9 * std::max(1.0, r.cost));
        // spline's curves are not shortest: its contract is validity alone.
        if (smoother != "spline") {
          EXPECT_LE(r.cost, r.raw_cost * (1 + 1e-9) + 1e-12) << "smoothing raised the cost";
        }
        EXPECT_NEAR(r.length, polyline_length(r.waypoints), 1e-9 * std::max(1.0, r.length));
        EXPECT_EQ(r.message.find("invalid"), std::string::npos) << r.message;
        if (smoother == "funnel") {
          // Shorter within the corridor; with weighted regions cheaper instead (Polyanya's raw
          // path is already the shortest, and the funnel may trade length for cost).
          if (space.regions().empty()) {
            EXPECT_LE(r.length, r.raw_length * (1 + 1e-9) + 1e-12);
          }
          if (!planner.discretisation().has_corridors()) {
            // No corridor: the raw path, unchanged, and a message saying so.
            EXPECT_EQ(r.waypoints, r.raw_waypoints);
            EXPECT_NE(r.message.find("funnel does not apply"), std::string::npos);
          }
        }
      }
    }
  }
  // A path found by one method is a valid path: no other method may claim there is none. The
  // hybrid method plans for a minimum turning radius, a harder problem: its no_path says that
  // no path keeping that radius was found, which another method's sharper path does not
  // contradict (its found paths are still held to every other method's no_path).
  for (const auto& [method, statuses] : status_by_method) {
    for (const auto& [other, other_statuses] : status_by_method) {
      if (other == "hybrid") continue;
      for (std::size_t k = 0; k < statuses.size(); ++k) {
        if (statuses[k] != search::SearchStatus::found) continue;
        EXPECT_NE(other_statuses[k], search::SearchStatus::no_path)
            << method << " found query " << k << " but " << other << " says no_path";
      }
    }
  }
}

INSTANTIATE_TEST_SUITE_P(BundledScenes, Conformance, testing::ValuesIn(bundled_cases()),
                         [](const testing::TestParamInfo<Case>& param) {
                           std::string name = param.param.scene.filename().string();
                           for (char& ch : name)
                             if (!std::isalnum(static_cast<unsigned char>(ch))) ch = '_';
                           return name;
                         });

}  // namespace
}  // namespace polynav
