#include "polynav/experiment/experiment.hpp"

#include <algorithm>
#include <atomic>
#include <charconv>
#include <chrono>
#include <cmath>
#include <exception>
#include <iterator>
#include <memory>
#include <mutex>
#include <thread>

#include "polynav/discretise/hybrid/curves.hpp"
#include "polynav/discretise/weighted/weighted_graph.hpp"
#include "polynav/error.hpp"
#include "polynav/plan/planner.hpp"
#include "polynav/plan/registry.hpp"
#include "polynav/space/free_space.hpp"

namespace polynav::experiment {
namespace {

using Clock = std::chrono::steady_clock;

// SplitMix64 (Steele, Lea and Flood, "Fast splittable pseudorandom number generators", OOPSLA
// 2014): a tiny generator whose output is fixed by its definition, so a seed gives the same
// queries with every standard library (std::uniform_real_distribution's is not specified).
class SplitMix64 {
 public:
  explicit SplitMix64(std::uint64_t seed) : state_(seed) {}
  std::uint64_t next() {
    std::uint64_t z = (state_ += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
  }
  /// Uniform in [0, 1), 53 random bits.
  double unit() { return double(next() >> 11) * 0x1.0p-53; }

 private:
  std::uint64_t state_;
};

// Runs body(i) for i in [0, n) on `jobs` threads (the calling thread one of them); after each
// item the calling thread reports the items done so far. The first exception is rethrown once all
// threads have stopped.
template <class Body>
void parallel_for(std::size_t n, unsigned jobs, Body&& body,
                  const std::function<void(std::size_t)>& report) {
  std::atomic<std::size_t> next{0}, done{0};
  std::exception_ptr failure;
  std::mutex failure_mutex;
  const auto work = [&](bool reporter) {
    for (;;) {
      const std::size_t i = next.fetch_add(1);
      if (i >= n) break;
      try {
        body(i);
      } catch (...) {
        const std::lock_guard lock(failure_mutex);
        if (!failure) failure = std::current_exception();
        next.store(n);
      }
      const std::size_t finished = done.fetch_add(1) + 1;
      if (reporter && report) report(finished);
    }
  };
  std::vector<std::jthread> helpers;
  const std::size_t extra = std::min<std::size_t>(jobs > 0 ? jobs - 1 : 0, n > 0 ? n - 1 : 0);
  for (std::size_t t = 0; t < extra; ++t) helpers.emplace_back(work, false);
  work(true);
  helpers.clear();  // joins
  if (report) report(done.load());
  if (failure) std::rethrow_exception(failure);
}

double least_clearance(const FreeSpace& space, const std::vector<Point>& path) {
  if (path.size() == 1) return space.clearance(path[0], path[0]);
  double least = INFINITY;
  for (std::size_t i = 1; i < path.size(); ++i)
    least = std::min(least, space.clearance(path[i - 1], path[i]));
  return least;
}

// The settings one spec plans with: the experiment's, without the free space's (applied when
// the free space was built), then the spec's own.
Settings spec_settings(const Settings& global, const MethodSpec& spec) {
  Settings merged;
  for (const auto& [key, value] : global.values())
    if (!key.starts_with("space.")) merged.set(key, value);
  for (const auto& [key, value] : spec.settings.values()) merged.set(key, value);
  return merged;
}

[[noreturn]] void rethrow_for_scene(const InputError& e, const std::string& scene,
                                    const std::string& what) {
  throw InputError(e.where(), "scene '" + scene + "', " + what + ": " + e.message());
}

}  // namespace

MethodSpec parse_method_spec(std::string_view text) {
  MethodSpec spec;
  const std::size_t colon = text.find(':');
  const std::string name(text.substr(0, colon));
  try {
    spec.method = find_method(name).name;
  } catch (const InputError& e) {
    throw InputError({"", 0, 0, "methods"}, "in '" + std::string(text) + "': " + e.message());
  }
  std::string_view rest = colon == std::string_view::npos ? "" : text.substr(colon + 1);
  while (colon != std::string_view::npos) {
    const std::size_t end = rest.find(':');
    const std::string_view item = rest.substr(0, end);
    const std::size_t eq = item.find('=');
    if (eq == std::string_view::npos || eq == 0)
      throw InputError({"", 0, 0, "methods"}, "in '" + std::string(text) +
                                                  "': expected key=value after ':', found '" +
                                                  std::string(item) + "'");
    spec.settings.set(spec.method + "." + std::string(item.substr(0, eq)),
                      std::string(item.substr(eq + 1)));
    if (end == std::string_view::npos) break;
    rest = rest.substr(end + 1);
  }
  const MethodEntry& entry = find_method(spec.method);
  try {
    OptionValues(entry.name, entry.options, spec.settings);
  } catch (const InputError& e) {
    throw InputError({"", 0, 0, "methods"}, "in '" + std::string(text) + "': " + e.message());
  }
  return spec;
}

Shard parse_shard(std::string_view text) {
  const std::size_t slash = text.find('/');
  Shard shard;
  bool ok = slash != std::string_view::npos;
  if (ok) {
    const char* begin = text.data();
    const char* end = begin + text.size();
    const auto [after_k, ek] = std::from_chars(begin, begin + slash, shard.index);
    const auto [after_n, en] = std::from_chars(begin + slash + 1, end, shard.count);
    ok = ek == std::errc() && en == std::errc() && after_k == begin + slash && after_n == end;
  }
  if (!ok)
    throw InputError({"", 0, 0, "shard"}, "expected K/N with whole numbers 1 <= K <= N, found '" +
                                              std::string(text) + "'");
  if (shard.count == 0 || shard.index == 0 || shard.index > shard.count)
    throw InputError({"", 0, 0, "shard"},
                     "shard K/N needs 1 <= K <= N, found '" + std::string(text) + "'");
  return shard;
}

std::vector<Query> random_queries(const FreeSpace& space, const RandomQueries& random) {
  SplitMix64 rng(random.seed);
  const Box box = space.box();
  constexpr int max_draws = 1'000'000;
  const auto draw = [&](auto&& accept, const char* what) {
    for (int k = 0; k < max_draws; ++k) {
      const Point p{box.min.x + rng.unit() * (box.max.x - box.min.x),
                    box.min.y + rng.unit() * (box.max.y - box.min.y)};
      if (space.is_free(p) && accept(p)) return p;
    }
    throw InputError({"", 0, 0, "random"},
                     std::string("no ") + what + " found in " + std::to_string(max_draws) +
                         " uniform draws over free space's bounding box (free space is empty or "
                         "almost)");
  };
  std::vector<Query> queries;
  for (std::size_t i = 0; i < random.count; ++i) {
    Query q;
    q.name = "random " + std::to_string(i);
    q.start = draw([](Point) { return true; }, "free point");
    const auto component = space.component(q.start);
    q.goal =
        draw([&](Point p) { return !random.same_component || space.component(p) == component; },
             "goal in the start's component");
    queries.push_back(std::move(q));
  }
  return queries;
}

namespace {

// Refuses, before anything is built, more random queries per scene than max_random_queries and
// more rows in all than max_rows.
void check_size(const std::vector<SceneInput>& scenes, const Options& options) {
  if (options.random && options.random->count > max_random_queries)
    throw InputError({"", 0, 0, "random"},
                     "the number of random queries per scene must be at most " +
                         std::to_string(max_random_queries) + ", found " +
                         std::to_string(options.random->count));
  const std::size_t runs_per_query = options.methods.size() * options.smoothers.size();
  const Shard& shard = options.shard;
  std::size_t rows = 0;
  bool over = false;
  for (const SceneInput& scene : scenes) {
    const std::size_t n = options.random ? options.random->count : scene.queries.size();
    // The queries i < n with i % N == K - 1.
    const std::size_t in_shard =
        shard.count == 0 ? n : n / shard.count + (n % shard.count > shard.index - 1 ? 1 : 0);
    if (runs_per_query != 0 && in_shard > (max_rows - rows) / runs_per_query) {
      over = true;
      break;
    }
    rows += in_shard * runs_per_query;
  }
  if (over)
    throw InputError({"", 0, 0, ""},
                     "the experiment would make more than " + std::to_string(max_rows) +
                         " rows (scenes x method specs x smoothers x queries), the most one run "
                         "holds: run it in shards (--shard K/N, Options::shard) and join them "
                         "(polynav merge), or give fewer queries");
}

}  // namespace

void check_options(const Options& options) {
  if (options.methods.empty()) throw InputError({"", 0, 0, "methods"}, "no method to run");
  if (options.smoothers.empty()) throw InputError({"", 0, 0, "smoothers"}, "no smoother to run");
  for (const std::string& s : options.smoothers) {
    try {
      find_smoother(s);
    } catch (const InputError& e) {
      throw InputError({"", 0, 0, "smoothers"}, e.message());
    }
  }
  for (const MethodSpec& spec : options.methods)
    check_settings(spec_settings(options.settings, spec), spec.method, options.smoothers[0]);
}

Results run(const std::vector<SceneInput>& scenes, const Options& options) {
  check_options(options);
  const FreeSpaceOptions space_options = free_space_options(options.settings);
  check_size(scenes, options);

  // The queries of each scene in this shard, drawn up front so the progress total is known.
  struct Work {
    std::vector<Query> queries;
    std::vector<std::size_t> index;  // each query's index in its scene
  };
  std::vector<Work> work(scenes.size());
  std::vector<std::shared_ptr<const FreeSpace>> spaces(scenes.size());
  std::vector<double> space_ms(scenes.size(), 0.0);
  // The progress counts runs, the rows returned: each query gives one per spec and smoother.
  std::size_t total = 0;
  const std::size_t runs_per_query = options.methods.size() * options.smoothers.size();
  std::vector<Clock::duration> prepare(scenes.size());
  for (std::size_t s = 0; s < scenes.size(); ++s) {
    const auto t0 = Clock::now();
    try {
      spaces[s] = scenes[s].space
                      ? scenes[s].space
                      : std::make_shared<const FreeSpace>(scenes[s].scene, space_options);
    } catch (const InputError& e) {
      rethrow_for_scene(e, scenes[s].name, "free space");
    }
    space_ms[s] = std::chrono::duration<double, std::milli>(Clock::now() - t0).count();
    std::vector<Query> all = scenes[s].queries;
    if (options.random) {
      RandomQueries random = *options.random;
      // Each scene its own stream, fixed by the seed and the scene's position.
      random.seed = SplitMix64(random.seed ^ (0x9e3779b97f4a7c15ULL * (s + 1))).next();
      all = random_queries(*spaces[s], random);
    }
    for (std::size_t i = 0; i < all.size(); ++i) {
      if (i % options.shard.count != options.shard.index - 1) continue;
      work[s].queries.push_back(all[i]);
      work[s].index.push_back(i);
    }
    total += work[s].queries.size() * runs_per_query;
    prepare[s] = Clock::now() - t0;
  }

  Results results;
  std::size_t done_before = 0;  // runs of the scenes and specs before the current one
  if (options.progress) options.progress(0, total);
  for (std::size_t s = 0; s < scenes.size(); ++s) {
    const auto scene_start = Clock::now();
    const std::string& name = scenes[s].name;
    const std::vector<Query>& queries = work[s].queries;
    const std::shared_ptr<const FreeSpace> space = spaces[s];
    SceneReport report{name, queries.size(), space_ms[s], false, {}, {}};
    // Queries done by the current parallel_for, each worth `runs` runs.
    const auto progress_of = [&](std::size_t runs) {
      return [&, runs](std::size_t done) {
        if (options.progress) options.progress(done_before + done * runs, total);
      };
    };

    // The reference: the visibility graph's optimum when its quadratic build is affordable, else
    // the navigation mesh searched by Polyanya, the same Euclidean optimum, where that is the
    // objective (no weighted regions) and both see the same free space (zero-width gaps closed).
    // In weighted scenes optimal paths bend where they cross region outlines (Snell's law), so
    // no graph of corners holds them: the reference is the weighted method's path, at most
    // 1 + epsilon times the optimum (with its --set weighted.* options), so that ratios stay at
    // or above 1 / (1 + epsilon).
    std::vector<double> reference(queries.size(), NAN);
    const bool weighted = space->weighted();
    PlanOptions ref_options;
    ref_options.method.clear();  // set below when there is a reference to build
    ref_options.smoother = "none";
    const std::size_t corners = space->corners().size();
    const std::string over_budget = std::to_string(corners) +
                                    " corners, more than the visibility graph's budget of " +
                                    std::to_string(options.reference_max_corners);
    if (weighted) {
      ref_options.method = "weighted";
      for (const auto& [key, value] : options.settings.values())
        if (key.starts_with("weighted.")) ref_options.settings.set(key, value);
      const std::string epsilon = options.settings.has("weighted.epsilon")
                                      ? options.settings.values().at("weighted.epsilon")
                                      : option_number_text(WeightedOptions{}.epsilon);
      report.reference_note = "epsilon = " + epsilon +
                              ": cost within 1 + epsilon of the optimum (optimal paths bend at "
                              "region outlines, where the visibility graph has no corners)";
    } else if (corners <= options.reference_max_corners) {
      ref_options.method = "visgraph";
      ref_options.settings.set("visgraph.max_nodes", std::to_string(options.reference_max_corners));
    } else if (space->open_gaps()) {
      report.reference_note = over_budget +
                              ", and zero-width gaps open (navmesh.search=optimal keeps them "
                              "closed, so its paths may be longer than the optimum)";
    } else {
      ref_options.method = "navmesh";
      ref_options.settings.set("navmesh.search", std::string("optimal"));
      report.reference_note = over_budget + ": scored against navmesh.search=optimal (Polyanya)";
    }
    if (!ref_options.method.empty()) {
      std::optional<Planner> ref;
      try {
        ref.emplace(space, ref_options);
      } catch (const InputError& e) {
        report.reference_note =
            (ref_options.method == "navmesh" ? over_budget + "; " : "") + e.message();
        if (ref_options.method == "weighted")
          report.reference_note = "no weighted reference: " + e.message();
      }
      if (ref) {
        report.has_reference = true;
        report.reference_method =
            ref_options.method == "navmesh" ? "navmesh.search=optimal" : ref_options.method;
        parallel_for(
            queries.size(), options.jobs,
            [&](std::size_t i) {
              const PlanResult r = ref->plan(queries[i].start, queries[i].goal);
              if (r.found()) reference[i] = weighted ? r.cost : r.length;
            },
            progress_of(0));
      }
    }

    for (const MethodSpec& spec : options.methods) {
      PlanOptions plan_options;
      plan_options.method = spec.method;
      plan_options.smoother = options.smoothers.front();
      plan_options.also_smooth.assign(options.smoothers.begin() + 1, options.smoothers.end());
      plan_options.settings = spec_settings(options.settings, spec);
      std::string options_text = plan_options.settings.group_text(spec.method);
      if (options_text.empty()) options_text = default_options;
      std::optional<Planner> planner;
      try {
        planner.emplace(space, plan_options);
      } catch (const InputError& e) {
        rethrow_for_scene(e, name, "method " + spec.method);
      }
      const double build_ms = planner->build_ms();
      const std::size_t k_count = options.smoothers.size();
      std::vector<Row> rows(queries.size() * k_count);
      parallel_for(
          queries.size(), options.jobs,
          [&](std::size_t i) {
            const Query& q = queries[i];
            const std::vector<PlanResult> each = planner->plan_each(q.start, q.goal);
            for (std::size_t k = 0; k < k_count; ++k) {
              const PlanResult& r = each[k];
              Row& row = rows[k * queries.size() + i];
              row.scene = name;
              row.method = spec.method;
              row.options = options_text;
              row.smoother = options.smoothers[k];
              row.query = work[s].index[i];
              row.start = q.start;
              row.goal = q.goal;
              row.status = std::string(search::to_string(r.status));
              row.build_ms = build_ms;
              row.search_us = r.stats.search_ms * 1000.0;
              row.expanded = r.stats.expanded;
              row.space_ms = space_ms[s];
              row.nodes = r.stats.nodes;
              row.message = r.message;
              row.reference = reference[i];
              row.reference_method = report.reference_method;
              if (r.waypoints.empty()) continue;
              row.length = r.length;
              row.cost = r.cost;
              row.raw_length = r.raw_length;
              row.smooth_us = r.stats.smooth_ms * 1000.0;
              row.waypoints = r.waypoints.size();
              row.turning = turning_angle(r.waypoints);
              row.curvature = curves::max_curvature(r.waypoints);
              row.clearance = least_clearance(*space, r.waypoints);
              if (r.found() && std::isfinite(row.reference)) {
                const double objective = space->weighted() ? r.cost : r.length;
                row.ratio = row.reference > 0.0 ? objective / row.reference
                            : objective == 0.0  ? 1.0
                                                : INFINITY;
              }
            }
          },
          progress_of(k_count));
      done_before += queries.size() * k_count;
      std::move(rows.begin(), rows.end(), std::back_inserter(results.rows));
    }
    report.seconds =
        std::chrono::duration<double>(prepare[s] + (Clock::now() - scene_start)).count();
    results.scenes.push_back(std::move(report));
  }
  return results;
}

}  // namespace polynav::experiment
