#include "validity/sweep.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <ctime>
#include <memory>
#include <numbers>

#include "polynav/error.hpp"
#include "polynav/plan/planner.hpp"
#include "polynav/plan/registry.hpp"
#include "support/quick_weighted.hpp"
#include "validity/exact_checker.hpp"

namespace polynav::validity {
namespace {

constexpr double side = 20.0;

class Random {
 public:
  explicit Random(std::uint64_t seed) : rng_(seed) {}
  double uniform(double lo, double hi) {
    return std::uniform_real_distribution<double>(lo, hi)(rng_);
  }
  int integer(int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng_); }
  bool chance(double p) { return uniform(0.0, 1.0) < p; }
  // A multiple of 1/16: obstacles built to touch share exact coordinates.
  double grid(double lo, double hi) { return std::round(uniform(lo, hi) * 16.0) / 16.0; }
  template <class T, std::size_t N>
  T pick(const T (&values)[N]) {
    return values[std::size_t(integer(0, int(N) - 1))];
  }

 private:
  std::mt19937_64 rng_;
};

Ring box(double x0, double y0, double x1, double y1) {
  return {{x0, y0}, {x1, y0}, {x1, y1}, {x0, y1}};
}

void add(Scene& scene, Ring outer, std::vector<Ring> holes = {}) {
  scene.obstacles.push_back({{std::move(outer), std::move(holes)}, {}});
}

// Angles round a circle in order, evenly spaced with jitter, so that a polygon through points at
// these angles (any positive distances from its centre) is simple.
std::vector<double> angles(Random& random, int count) {
  const double phase = random.uniform(0.0, 2.0 * std::numbers::pi);
  std::vector<double> out;
  for (int i = 0; i < count; ++i)
    out.push_back(phase + 2.0 * std::numbers::pi * (i + random.uniform(-0.3, 0.3)) / count);
  return out;
}

// The width of a narrow gap: for a disc, a little narrower or wider than its diameter (the
// planner's inflation adds up to 1% of the radius on each side); for a point, touching or
// nearly.
double gap_width(Random& random, double radius) {
  if (radius == 0.0) {
    static const double widths[] = {0.0, 0.0, 0x1p-30, 0x1p-12, 0.05};
    return random.pick(widths);
  }
  static const double factors[] = {0.98, 1.0, 1.005, 1.01, 1.015, 1.02, 1.03, 1.1, 1.5};
  return 2.0 * radius * random.pick(factors);
}

void add_item(Scene& scene, Random& random, double radius) {
  const double x0 = random.grid(0.5, side - 4.0), y0 = random.grid(0.5, side - 4.0);
  const double x1 = x0 + random.grid(0.5, 3.5), y1 = y0 + random.grid(0.5, 3.5);
  const int kind = random.integer(0, 99);
  if (kind < 20) {  // a box
    add(scene, box(x0, y0, x1, y1));
  } else if (kind < 35) {  // a convex polygon: points of an ellipse in angular order
    const Point c{random.uniform(1.0, side - 1.0), random.uniform(1.0, side - 1.0)};
    const double rx = random.uniform(0.4, 2.5), ry = random.uniform(0.4, 2.5);
    Ring ring;
    for (double a : angles(random, random.integer(3, 9)))
      ring.push_back({c.x + rx * std::cos(a), c.y + ry * std::sin(a)});
    add(scene, ring);
  } else if (kind < 50) {  // a star-shaped, non-convex polygon
    const Point c{random.uniform(1.0, side - 1.0), random.uniform(1.0, side - 1.0)};
    Ring ring;
    for (double a : angles(random, random.integer(5, 14))) {
      const double r = random.uniform(0.3, 2.5);
      ring.push_back({c.x + r * std::cos(a), c.y + r * std::sin(a)});
    }
    add(scene, ring);
  } else if (kind < 55) {  // a box with a box-shaped hole: a courtyard
    const double w = random.grid(3.0, 6.0), h = random.grid(3.0, 6.0);
    const double t = random.grid(0.5, 1.0);
    add(scene, box(x0, y0, x0 + w, y0 + h), {box(x0 + t, y0 + t, x0 + w - t, y0 + h - t)});
  } else if (kind < 63) {  // two boxes sharing part of a side
    add(scene, box(x0, y0, x1, y1));
    // The second box's side overlaps the first's over a positive length.
    const double lo = y0 + random.grid(-1.0, y1 - y0 - 0.25);
    const double hi = std::max(lo + random.grid(0.5, 3.0), y0 + 0.25);
    add(scene, box(x1, lo, x1 + random.grid(0.5, 3.0), hi));
  } else if (kind < 71) {  // two boxes touching at a corner
    add(scene, box(x0, y0, x1, y1));
    const double w = random.grid(0.5, 3.0), h = random.grid(0.5, 3.0);
    if (random.chance(0.5))
      add(scene, box(x1, y1, x1 + w, y1 + h));
    else
      add(scene, box(x1, y0 - h, x1 + w, y0));
  } else if (kind < 78) {  // a triangle's apex on a box's top side, or on its corner
    add(scene, box(x0, y0, x1, y1));
    const double m = random.chance(0.7) ? std::round((x0 + x1) * 8.0) / 16.0 : x1;
    const double w = random.grid(0.25, 1.5), h = random.grid(0.5, 2.0);
    add(scene, {{m, y1}, {m + w, y1 + h}, {m - w, y1 + h}});
  } else if (kind < 88) {  // two boxes across a narrow gap, side by side or one above the other
    const double g = gap_width(random, radius);
    const double w = random.grid(0.5, 3.0), h = random.grid(0.5, 3.0);
    const double shift = random.grid(-1.0, 1.0);
    if (random.chance(0.5)) {
      add(scene, box(x0, y0, x1, y1));
      add(scene, box(x1 + g, y0 + shift, x1 + g + w, y0 + shift + h));
    } else {
      add(scene, box(x0, y0, x1, y1));
      add(scene, box(x0 + shift, y1 + g, x0 + shift + w, y1 + g + h));
    }
  } else if (kind < 95) {  // two triangles across a narrow slanted gap
    const double g = gap_width(random, radius);
    const Point c{random.uniform(3.0, side - 3.0), random.uniform(3.0, side - 3.0)};
    const double a = random.uniform(0.0, std::numbers::pi);
    const Point d{std::cos(a), std::sin(a)}, n{-std::sin(a), std::cos(a)};
    const double length = random.uniform(0.5, 2.5), depth = random.uniform(0.5, 2.0);
    const Point lower = c - (0.5 * g) * n, upper = c + (0.5 * g) * n;
    add(scene, {lower - length * d, lower + length * d, lower - depth * n});
    add(scene, {upper + length * d, upper - length * d, upper + depth * n});
  } else {  // a box against the bounds, or through them
    const double inset = random.chance(0.5) ? 0.0 : -1.0;
    const double y = random.grid(0.5, side - 3.0);
    add(scene, box(inset, y, random.grid(0.5, 3.0), y + random.grid(0.5, 3.0)));
  }
}

std::string describe(const PlanResult& r, std::uint64_t scene_seed) {
  char buf[160];
  std::snprintf(buf, sizeof buf, " (scene seed %llu, start (%.17g, %.17g), goal (%.17g, %.17g))",
                (unsigned long long)scene_seed, r.start.x, r.start.y, r.goal.x, r.goal.y);
  return std::string(search::to_string(r.status)) + ": " + r.message + buf;
}

}  // namespace

bool random_open_gaps(std::uint64_t seed) {
  return std::mt19937_64(seed ^ 0x6a09e667f3bcc908ULL)() % 4 == 0;
}

Scene random_scene(std::uint64_t seed, double far_fraction) {
  Random random(seed);
  Scene scene;
  scene.name = "validity-" + std::to_string(seed);
  static const double radii[] = {0.0, 0.0, 0.0, 0.0, 0.02, 0.1, 0.1, 0.25, 0.25, 0.5};
  scene.agent.radius = random.pick(radii);
  const int outline = random.integer(0, 9);
  if (outline < 7) {
    scene.bounds = box(0, 0, side, side);
  } else if (outline < 9) {  // an L
    scene.bounds = {{0, 0}, {side, 0}, {side, 10}, {10, 10}, {10, side}, {0, side}};
  } else {  // a V-shaped notch from the top
    scene.bounds = {{0, 0}, {side, 0}, {side, side}, {12, side}, {10, 12}, {8, side}, {0, side}};
  }
  const int items = random.integer(6, 14);
  for (int i = 0; i < items; ++i) add_item(scene, random, scene.agent.radius);
  if (random.chance(far_fraction)) {
    // Far from the origin, where a double's spacing is coarser (an exact power of two keeps the
    // touching constructions exact).
    const Point offset{1024.0, -2048.0};
    for (Point& p : scene.bounds) p = p + offset;
    for (Obstacle& o : scene.obstacles) {
      for (Point& p : o.shape.outer) p = p + offset;
      for (Ring& hole : o.shape.holes)
        for (Point& p : hole) p = p + offset;
    }
  }
  // Read back from its native text: validated as a loaded scene is.
  return parse_native_scene(export_native_scene(scene).text, scene.name + ".yaml");
}

std::vector<std::pair<Point, Point>> random_queries(const Scene& scene, const FreeSpace& space,
                                                    const std::function<bool(Point)>& free,
                                                    std::size_t count, std::uint64_t seed,
                                                    std::uint64_t* disputed) {
  Random random(seed);
  std::vector<Point> special;
  for (const Corner& c : space.corners()) special.push_back(c.at);
  for (const BoundaryRing& ring : space.boundary())
    for (const Point& p : ring.points) special.push_back(p);
  if (scene.agent.radius == 0.0) {
    for (const Obstacle& o : scene.obstacles) {
      for (std::size_t i = 0; i < o.shape.outer.size(); ++i) {
        const Point u = o.shape.outer[i], w = o.shape.outer[(i + 1) % o.shape.outer.size()];
        special.push_back(u);
        special.push_back(0.5 * (u + w));
      }
    }
  }
  std::sort(special.begin(), special.end(),
            [](Point l, Point r) { return l.x < r.x || (l.x == r.x && l.y < r.y); });
  special.erase(std::unique(special.begin(), special.end()), special.end());
  const auto usable = [&](Point p) {
    if (!space.is_free(p)) return false;
    if (free(p)) return true;
    if (disputed) ++*disputed;
    return false;
  };
  std::erase_if(special, [&](Point p) { return !usable(p); });
  const Box b = bounding_box(scene.bounds);
  const auto draw = [&]() -> Point {
    if (!special.empty() && random.chance(0.3))
      return special[std::size_t(random.integer(0, int(special.size()) - 1))];
    for (int tries = 0; tries < 10000; ++tries) {
      const Point p{random.uniform(b.min.x, b.max.x), random.uniform(b.min.y, b.max.y)};
      if (usable(p)) return p;
    }
    return special.empty() ? b.min : special.front();
  };
  std::vector<std::pair<Point, Point>> queries;
  for (std::size_t i = 0; i < count; ++i) {
    const Point start = draw();
    queries.push_back({start, draw()});
  }
  return queries;
}

std::vector<MethodVariant> method_variants(bool every_choice) {
  std::vector<MethodVariant> variants;
  for (const MethodEntry& method : method_registry()) {
    // Validity, not the weighted method's epsilon, is swept: it runs at a quick one.
    Settings base;
    if (method.name == "weighted") base.set("weighted.epsilon", test::quick_weighted_epsilon);
    variants.push_back({method.name, method.name, base});
    for (const OptionSpec& spec : method.options) {
      std::vector<std::string> values;
      if (spec.type == OptionType::flag) {
        values = {"true", "false"};
      } else if (spec.type == OptionType::choice ||
                 (spec.type == OptionType::integer && !spec.choices.empty())) {
        values = spec.choices;
      }
      // Without every_choice: the choices that pick another algorithm or other graph nodes
      // (grid.search's JPS, JPS+ and Theta*, grid.paths, each method's node placement,
      // visgraph.attach, navmesh.search's Polyanya), each a method of its own in effect.
      if (!every_choice && spec.name != "search" && spec.name != "paths" && spec.name != "nodes" &&
          spec.name != "attach")
        continue;
      for (const std::string& value : values) {
        if (value == spec.default_value) continue;
        Settings settings = base;
        settings.set(method.name + "." + spec.name, value);
        variants.push_back(
            {method.name + " " + spec.name + "=" + value, method.name, std::move(settings)});
      }
    }
  }
  return variants;
}

double rounding_depth(const Scene& scene) {
  double largest = 0.0;
  const auto take = [&](const Ring& ring) {
    for (const Point& p : ring) largest = std::max({largest, std::abs(p.x), std::abs(p.y)});
  };
  take(scene.bounds);
  for (const Obstacle& o : scene.obstacles) {
    take(o.shape.outer);
    for (const Ring& hole : o.shape.holes) take(hole);
  }
  largest += scene.agent.radius;
  return 2.0 * (std::nextafter(largest, INFINITY) - largest);
}

double thread_cpu_seconds() {
  timespec ts{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return double(ts.tv_sec) + 1e-9 * double(ts.tv_nsec);
}

SweepResult run_sweep(const SweepOptions& options,
                      const std::function<void(const Rejection&)>& on_failure,
                      const std::function<void(const SweepResult&)>& on_scene) {
  const double t_start = thread_cpu_seconds();
  const std::vector<std::string> smoothers =
      options.smoothers.empty() ? smoother_names() : options.smoothers;
  const std::size_t columns = smoothers.size() + 1;  // each smoother, then the raw path
  SweepResult result;
  for (const MethodVariant& v : options.variants) {
    for (std::size_t s = 0; s < columns; ++s) {
      Tally t;
      t.variant = v.label;
      t.smoother = s < smoothers.size() ? smoothers[s] : "raw";
      result.tallies.push_back(std::move(t));
    }
  }
  const auto tally = [&](std::size_t v, std::size_t s) -> Tally& {
    return result.tallies[v * columns + s];
  };

  std::uint64_t checked = 0;
  for (std::uint64_t index = 0; result.queries < options.queries; ++index) {
    const std::uint64_t scene_seed = options.seed * 0x9e3779b97f4a7c15ULL + index;
    const Scene scene = random_scene(scene_seed, options.far_fraction);
    FreeSpaceOptions space_options;
    space_options.open_gaps = random_open_gaps(scene_seed);
    const auto space = std::make_shared<const FreeSpace>(scene, space_options);
    CheckerOptions checker_options;
    checker_options.open_gaps = space_options.open_gaps;
    const ExactChecker checker(scene, checker_options);
    const double rounding = rounding_depth(scene);
    checker_options.filtered = false;
    const ExactChecker rationals_only(scene, checker_options);
    const std::size_t count =
        std::min<std::size_t>(options.queries_per_scene, options.queries - result.queries);
    const auto queries = random_queries(
        scene, *space, [&](Point p) { return checker.check_point(p).valid(); }, count,
        scene_seed ^ 0x3c6ef372fe94f82bULL, &result.disputed_points);

    // found[v][q]: the variant found a path the checker accepted; no_path[v][q].
    std::vector<std::vector<char>> found(options.variants.size(),
                                         std::vector<char>(queries.size(), 0));
    std::vector<std::vector<char>> no_path = found;
    for (std::size_t v = 0; v < options.variants.size(); ++v) {
      const MethodVariant& variant = options.variants[v];
      PlanOptions plan_options;
      plan_options.method = variant.method;
      plan_options.settings = variant.settings;
      plan_options.smoother = smoothers.front();
      plan_options.also_smooth.assign(smoothers.begin() + 1, smoothers.end());
      double t0 = thread_cpu_seconds();
      std::unique_ptr<Planner> planner;
      try {
        planner = std::make_unique<Planner>(space, plan_options);
      } catch (const InputError&) {
        for (std::size_t s = 0; s < columns; ++s) ++tally(v, s).refused;
        continue;
      }
      tally(v, 0).plan_seconds += thread_cpu_seconds() - t0;
      for (std::size_t q = 0; q < queries.size(); ++q) {
        const auto [start, goal] = queries[q];
        t0 = thread_cpu_seconds();
        const std::vector<PlanResult> results = planner->plan_each(start, goal);
        tally(v, 0).plan_seconds += thread_cpu_seconds() - t0;
        const auto check = [&](std::size_t s, const std::vector<Point>& path) {
          const double t1 = thread_cpu_seconds();
          const Verdict verdict = checker.check_path(path);
          if (options.cross_check_every > 0 && ++checked % options.cross_check_every == 0) {
            ++result.cross_checked;
            if (rationals_only.check_path(path).failure != verdict.failure)
              ++result.cross_check_mismatches;
          }
          std::string reason = verdict.reason;
          if (verdict.valid() && (!(path.front() == start) || !(path.back() == goal)))
            reason = "the path does not join the query's start and goal";
          tally(v, s).check_seconds += thread_cpu_seconds() - t1;
          if (reason.empty()) return true;
          Tally& t = tally(v, s);
          ++t.invalid;
          t.max_depth = std::max(t.max_depth, verdict.depth);
          const bool by_rounding = verdict.depth > 0 && verdict.depth <= rounding;
          t.invalid_by_rounding += by_rounding;
          on_failure({variant.label, t.smoother, scene_seed, start, goal,
                      std::string(to_string(verdict.failure)) + ": " + reason, verdict.depth,
                      by_rounding, path});
          return false;
        };
        bool all_valid = true;
        for (std::size_t s = 0; s < results.size(); ++s) {
          const PlanResult& r = results[s];
          Tally& t = tally(v, s);
          ++t.queries;
          if (r.status == search::SearchStatus::no_path) {
            ++t.no_path;
            no_path[v][q] = 1;
          } else if (r.status == search::SearchStatus::invalid_query) {
            ++t.unattached;
          } else if (!r.found()) {
            if (t.other++ == 0) t.other_example = describe(r, scene_seed);
          } else {
            ++t.found;
            if (r.message.find("smoothing produced an invalid path") != std::string::npos)
              ++t.fell_back;
            all_valid = check(s, r.waypoints) && all_valid;
          }
        }
        Tally& raw = tally(v, columns - 1);
        ++raw.queries;
        const PlanResult& first = results.front();
        if (first.status == search::SearchStatus::no_path) {
          ++raw.no_path;
        } else if (first.status == search::SearchStatus::invalid_query) {
          ++raw.unattached;
        } else if (!first.found()) {
          if (raw.other++ == 0) raw.other_example = describe(first, scene_seed);
        } else {
          ++raw.found;
          all_valid = check(columns - 1, first.raw_waypoints) && all_valid;
        }
        found[v][q] = first.found() && all_valid;
      }
    }
    for (std::size_t q = 0; q < queries.size(); ++q) {
      std::size_t finder = options.variants.size();
      for (std::size_t v = 0; v < options.variants.size() && finder == options.variants.size(); ++v)
        if (found[v][q]) finder = v;
      if (finder == options.variants.size()) continue;
      for (std::size_t v = 0; v < options.variants.size(); ++v) {
        if (!no_path[v][q]) continue;
        for (std::size_t s = 0; s < columns; ++s) {
          Tally& t = tally(v, s);
          if (t.no_path_but_found++ > 0) continue;
          char buf[200];
          std::snprintf(buf, sizeof buf,
                        "scene seed %llu, start (%.17g, %.17g), goal (%.17g, %.17g), found by ",
                        (unsigned long long)scene_seed, queries[q].first.x, queries[q].first.y,
                        queries[q].second.x, queries[q].second.y);
          t.no_path_example = buf + options.variants[finder].label;
        }
      }
    }
    ++result.scenes;
    result.queries += queries.size();
    const CheckerCounters counters = checker.counters();
    result.exact_signs += counters.exact;
    result.filtered_signs += counters.filtered;
    result.seconds = thread_cpu_seconds() - t_start;
    if (on_scene) on_scene(result);
  }
  result.seconds = thread_cpu_seconds() - t_start;
  return result;
}

}  // namespace polynav::validity
