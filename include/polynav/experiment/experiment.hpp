#pragma once
/// @file
/// Smoothing experiments: the same queries through every method x option set x smoother, each
/// path scored against the exact optimum (the visibility graph's shortest path), one row per
/// run. The rows are what `polynav experiment` writes as CSV (experiment/results.hpp), sums up
/// and plots.
/// @code
///   polynav::experiment::Options options;
///   options.methods = {polynav::experiment::parse_method_spec("grid:connectivity=4"),
///                      polynav::experiment::parse_method_spec("visgraph")};
///   options.smoothers = {"none", "shortcut"};
///   std::vector<polynav::experiment::SceneInput> scenes = ...;  // scenes and their queries
///   polynav::experiment::Results results = polynav::experiment::run(scenes, options);
/// @endcode

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "polynav/plan/options.hpp"
#include "polynav/scene/scene.hpp"

namespace polynav {
class FreeSpace;
}

namespace polynav::experiment {

/// One method with one set of its own options, written `NAME[:key=value]...`
/// ("grid:connectivity=4:align=corner").
struct MethodSpec {
  std::string method;  ///< registry name
  /// The spec's own options as "method.key" settings (they override --set for this spec).
  Settings settings;
};

/// Parses `NAME[:key=value]...`; the method and option names are checked against the registry.
/// @throws InputError (key "methods") naming what is wrong, with the closest name
MethodSpec parse_method_spec(std::string_view text);

/// Part K of N of an experiment: the queries whose index i has i % N == K - 1.
struct Shard {
  std::size_t index = 1;  ///< K, from 1
  std::size_t count = 1;  ///< N
};
/// Parses "K/N" with 1 <= K <= N. @throws InputError (key "shard")
Shard parse_shard(std::string_view text);

/// The most random queries drawn per scene (RandomQueries::count, `polynav experiment --random`):
/// every query is drawn up front and gives a row per method spec and smoother, all kept until the
/// run ends. More is refused before anything is built.
inline constexpr std::size_t max_random_queries = 1'000'000;

/// The most runs (rows) one run() returns: scenes x method specs x smoothers x the queries of
/// its shard, each row held until the run ends (about 400 bytes each, so 4 GB at the limit).
/// More is refused before anything is built: run the experiment in shards (Options::shard,
/// `--shard K/N`) and join them with merge_shards (`polynav merge`).
inline constexpr std::size_t max_rows = 10'000'000;

/// Random queries drawn for each scene (instead of its own).
struct RandomQueries {
  std::size_t count = 0;  ///< per scene, at most max_random_queries
  std::uint64_t seed = 0;
  /// Draw each goal in the start's connected component of free space (so a path exists).
  bool same_component = true;
};

/// A scene of the experiment with its queries.
struct SceneInput {
  std::string name;  ///< the CSV's `scene` column
  Scene scene;
  std::vector<Query> queries;  ///< ignored when Options::random is set
  /// The scene's free space when it is built already (built with the experiment's "space.*"
  /// settings and kept across runs, e.g. by a worker running several shards); else run()
  /// builds it.
  std::shared_ptr<const FreeSpace> space;
};

/// The `options` of a row run with none of its method's options set (rather than an empty text,
/// which CSV readers such as pandas read as a missing value).
inline constexpr std::string_view default_options = "default";

struct Options {
  std::vector<MethodSpec> methods;
  std::vector<std::string> smoothers = {"none"};
  /// Options for every spec (method groups), the smoothers, the search and the free space
  /// ("space.*", applied once per scene when its free space is built).
  Settings settings;
  std::optional<RandomQueries> random;
  unsigned jobs = 1;  ///< threads planning queries; the rows do not depend on it
  Shard shard;
  /// Score against the visibility graph's optimum on scenes with at most this many corners (its
  /// build is quadratic in them). Larger scenes without weighted regions (and with zero-width
  /// gaps closed) are scored against the navigation mesh searched by Polyanya
  /// (navmesh.search=optimal), the same exact Euclidean optimum without a quadratic build; other
  /// large scenes get no reference. Weighted scenes (regions or a clearance cost) are scored
  /// against the `weighted` method (with the settings' weighted.* options) whatever their size:
  /// its cost is within 1 + weighted.epsilon of the optimum, which bends at region outlines.
  /// Each row names its reference method; the summary says which scenes used which, and why a
  /// scene has none.
  std::size_t reference_max_corners = 20000;
  /// Called from the thread that called run() as queries finish: runs done, runs in all. A run
  /// is a row (scene x spec x smoother x query of this shard), so the total is the number of
  /// rows run() returns; the reference's searches are not runs and do not advance it.
  std::function<void(std::size_t, std::size_t)> progress;
};

/// One scene x method x option set x smoother x query.
struct Row {
  std::string scene;
  std::string method;
  /// The spec's option set and --set options of its method, "k=v;k=v" in name order, or
  /// default_options when there are none.
  std::string options;
  std::string smoother;
  std::size_t query = 0;  ///< index of the query in its scene
  Point start, goal;
  std::string status;  ///< search::to_string of the status
  double length = NAN;
  double cost = NAN;
  /// The optimum's length; in weighted scenes the cost of the `weighted` method's path, within
  /// 1 + weighted.epsilon of the optimum; NaN when unknown.
  double reference = NAN;
  double ratio = NAN;  ///< cost / reference (length / reference without regions)
  std::size_t waypoints = 0;
  double turning = NAN;    ///< total turning angle, radians
  double clearance = NAN;  ///< least distance from the path to the free-space boundary
  double build_ms = NAN;   ///< the method's build over the shared free space
  double search_us = NAN;
  double smooth_us = NAN;
  std::uint64_t expanded = 0;
  // Beyond the contract's columns:
  double raw_length = NAN;  ///< length before smoothing
  double space_ms = NAN;    ///< free-space build, once per scene
  std::size_t nodes = 0;    ///< nodes of the method's graph
  std::string message;      ///< why not found, or a smoother's note
  /// What `reference` came from: "visgraph", "navmesh.search=optimal", "weighted" (scenes with
  /// weighted regions or a clearance cost), or empty when the scene has no reference.
  std::string reference_method;
  /// The largest curvature along the path (1 / scene units), from the circumcircles of
  /// consecutive waypoints (curves::max_curvature): at most 1 / turning radius for the
  /// hybrid method's unsmoothed paths, large at a polyline's sharp corners; 0 for a straight path.
  double curvature = NAN;
};

/// What is known of each scene beyond its rows.
struct SceneReport {
  std::string name;
  std::size_t queries = 0;
  double space_ms = 0.0;
  bool has_reference = false;
  std::string reference_method;  ///< as Row::reference_method
  /// Why there is no reference (too many corners and weighted regions, ...), or why the
  /// reference is not the visibility graph.
  std::string reference_note;
  double seconds = 0.0;  ///< wall-clock time spent on the scene: free space, reference, runs
};

struct Results {
  std::vector<Row> rows;  ///< scene, then spec, then smoother, then query, in input order
  std::vector<SceneReport> scenes;
};

/// Refuses options run() cannot run, before any scene is read: no method or no smoother, an
/// unknown smoother (key "smoothers", with the closest name), settings check_settings refuses for
/// a method spec. run() calls it too; callers that read scenes first call it earlier, so that a
/// mistyped option costs nothing. @throws InputError
void check_options(const Options& options);

/// Runs the experiment. Free space is built once per scene and shared by every method and the
/// reference. @throws InputError for an unknown method, smoother or option, more random queries
/// than max_random_queries (key "random") or more rows than max_rows (both before anything is
/// built), or a method that cannot be built on a scene (the message names the scene)
Results run(const std::vector<SceneInput>& scenes, const Options& options);

/// Where an experiment puts MovingAI scenario points: `choice` "centres", "corners", or "auto"
/// (corners when every grid spec has grid.align=corner, its own or from Options::settings, the
/// any-angle literature's convention; else centres). @throws InputError (key
/// `key_prefix` + "points") for another choice
ScenarioPoints scenario_points(std::string_view choice, const Options& options,
                               std::string_view key_prefix = "");

/// The files an experiment reads its scenes and queries from.
struct SceneFiles {
  std::vector<std::string> scenes;  ///< scene paths
  /// A MovingAI scenario per scene, in scene order, or none at all; "" for a scene: its own.
  std::vector<std::string> scens;
  ScenarioPoints points = ScenarioPoints::centres;  ///< see scenario_points()
};

/// An experiment's scenes read from files, as `polynav experiment` reads them. `load` reads a
/// scene from its path (with the caller's load options; it may fill SceneInput::space from a
/// cache). Each gets its name (Scene::name, else the file's stem; the path when another scene
/// has that name already) and, unless options.random is set, its queries: those of its scenario
/// file, else its own, else those of SCENE.scen when that file exists. @throws InputError (keys
/// `key_prefix` + "scen") for scenario files given with random queries or not one per scene,
/// and for a scene left without queries
std::vector<SceneInput> read_scene_inputs(
    const SceneFiles& files, const Options& options,
    const std::function<SceneInput(const std::string& path)>& load,
    std::string_view key_prefix = "");

/// Queries drawn uniformly from free space with a generator seeded by `seed` (the same seed,
/// the same queries on every platform). @throws InputError when free space is empty or no
/// partner is found in the start's component after many draws
std::vector<Query> random_queries(const FreeSpace& space, const RandomQueries& random);

}  // namespace polynav::experiment
