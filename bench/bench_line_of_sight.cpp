// Line of sight: FreeSpace::line_of_sight against a brute-force reference that tests the segment
// against every boundary edge, on random scenes of disjoint octagons, and FreeSpace::is_free.
//
//   bench_line_of_sight [--edges 1000,10000,100000] [--segments 100000] [--points 100000]
//                       [--brute-budget 1e9] [--seed 1]
//
// --edges: target boundary edge counts (octagons = edges / 8, plus the 4 sides of the bounds).
// --segments: segments per scene, half short (length 0.5 to 10, about the reach of a smoothing
//   shortcut; the octagons stand on a 4 x 4 lattice) and half long (two free points anywhere).
//   Every endpoint is a free point.
// --points: random points in the scene's box for is_free.
// --brute-budget: most segment x edge tests the brute force may do per scene; it runs on the
//   first budget / edges segments of each kind (all of them when that is enough).
//
// The brute force decides a segment exactly (the library's exact orientation predicate) when it
// meets no boundary vertex and no endpoint lies on an edge: blocked on a proper crossing, else
// free iff its first endpoint is (crossing parity of a ray over every edge). Random segments
// almost never touch the boundary; those that do are counted, not compared. Any disagreement on
// the others fails the run.
//
// Times are CPU time of the benchmark's one thread (CLOCK_THREAD_CPUTIME_ID), so that other load
// on a shared machine does not count.

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <numbers>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include "bench_cli.hpp"
#include "polynav/kernel/exact.hpp"
#include "polynav/scene/scene.hpp"
#include "polynav/space/free_space.hpp"

namespace {

using polynav::FreeSpace;
using polynav::Point;
using polynav::Ring;
using polynav::Scene;

double cpu_seconds() {
  timespec ts{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return double(ts.tv_sec) + 1e-9 * double(ts.tv_nsec);
}

constexpr double lattice = 4.0;  // side of the cell each octagon stands in

// `octagons` disjoint octagons (circumradius 0.6 to 1.7, random rotation) in distinct random cells
// of a square lattice: a scene of about 8 x octagons obstacle edges, about a quarter covered.
// One per cell keeps them at least 0.2 apart without pairwise checks, so 100,000 edges build fast.
Scene octagon_scene(std::size_t octagons, unsigned seed) {
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> unit(0.0, 1.0);
  const auto per_side = std::size_t(std::ceil(std::sqrt(double(octagons))));
  const double side = lattice * double(per_side);
  Scene scene;
  scene.name = "octagons";
  scene.bounds = {{0, 0}, {side, 0}, {side, side}, {0, side}};
  std::vector<std::size_t> cells(per_side * per_side);
  for (std::size_t i = 0; i < cells.size(); ++i) cells[i] = i;
  std::shuffle(cells.begin(), cells.end(), rng);
  for (std::size_t k = 0; k < octagons; ++k) {
    const double r = 0.6 + 1.1 * unit(rng);
    const double slack = lattice - 2.0 * (r + 0.1);
    const Point c{lattice * double(cells[k] % per_side) + r + 0.1 + slack * unit(rng),
                  lattice * double(cells[k] / per_side) + r + 0.1 + slack * unit(rng)};
    const double phase = unit(rng) * std::numbers::pi / 4.0;
    Ring ring;
    for (int i = 0; i < 8; ++i) {
      const double a = phase + i * std::numbers::pi / 4.0;
      ring.push_back({c.x + r * std::cos(a), c.y + r * std::sin(a)});
    }
    scene.obstacles.push_back({{ring, {}}, {}});
  }
  return scene;
}

struct Segment {
  Point a;
  Point b;
};

// The boundary edges as a flat array: what the brute force scans.
struct Edge {
  Point u;
  Point v;
};

std::vector<Edge> boundary_edges(const FreeSpace& space) {
  std::vector<Edge> edges;
  for (const polynav::BoundaryRing& ring : space.boundary())
    for (std::size_t i = 0; i < ring.points.size(); ++i)
      edges.push_back({ring.points[i], ring.points[(i + 1) % ring.points.size()]});
  return edges;
}

enum class Brute { free, blocked, touches };

// Crossing parity of the ray from p towards +x over every edge: odd means inside free space.
bool brute_is_free(const std::vector<Edge>& edges, Point p) {
  bool odd = false;
  for (const Edge& e : edges) {
    if ((e.u.y > p.y) == (e.v.y > p.y)) continue;
    const int o = polynav::exact::orientation(e.u, e.v, p);
    if (o != 0 && (o > 0) == (e.v.y > e.u.y)) odd = !odd;
  }
  return odd;
}

Brute brute_line_of_sight(const std::vector<Edge>& edges, Point a, Point b) {
  using polynav::exact::orientation;
  const double x0 = std::min(a.x, b.x), x1 = std::max(a.x, b.x);
  const double y0 = std::min(a.y, b.y), y1 = std::max(a.y, b.y);
  bool touches = false;
  for (const Edge& e : edges) {
    // Comparisons of the given doubles: exact, and they discard almost every edge.
    if (std::max(e.u.x, e.v.x) < x0 || std::min(e.u.x, e.v.x) > x1 || std::max(e.u.y, e.v.y) < y0 ||
        std::min(e.u.y, e.v.y) > y1)
      continue;
    const int ou = orientation(a, b, e.u), ov = orientation(a, b, e.v);
    if (ou * ov > 0) continue;
    const int oa = orientation(e.u, e.v, a), ob = orientation(e.u, e.v, b);
    if (oa * ob > 0) continue;
    if (ou * ov < 0 && oa * ob < 0) return Brute::blocked;  // a proper crossing decides alone
    touches = true;
  }
  if (touches) return Brute::touches;
  return brute_is_free(edges, a) ? Brute::free : Brute::blocked;
}

Point random_free_point(const FreeSpace& space, std::mt19937_64& rng) {
  const polynav::Box box = space.box();
  std::uniform_real_distribution<double> x(box.min.x, box.max.x), y(box.min.y, box.max.y);
  for (;;) {
    const Point p{x(rng), y(rng)};
    if (space.is_free(p)) return p;
  }
}

std::vector<Segment> short_segments(const FreeSpace& space, std::size_t n, std::mt19937_64& rng) {
  std::uniform_real_distribution<double> length(0.5, 10.0), angle(0.0, 2.0 * std::numbers::pi);
  std::vector<Segment> segments;
  while (segments.size() < n) {
    const Point a = random_free_point(space, rng);
    const double l = length(rng), t = angle(rng);
    const Point b{a.x + l * std::cos(t), a.y + l * std::sin(t)};
    if (space.is_free(b)) segments.push_back({a, b});
  }
  return segments;
}

std::vector<Segment> long_segments(const FreeSpace& space, std::size_t n, std::mt19937_64& rng) {
  std::vector<Segment> segments;
  while (segments.size() < n)
    segments.push_back({random_free_point(space, rng), random_free_point(space, rng)});
  return segments;
}

struct KindResult {
  std::size_t segments = 0;
  std::size_t free = 0;
  double seconds = 0.0;
  std::size_t brute_segments = 0;
  double brute_seconds = 0.0;
  std::size_t agree = 0;
  std::size_t touches = 0;
  std::size_t disagree = 0;
};

KindResult measure(const FreeSpace& space, const std::vector<Edge>& edges,
                   const std::vector<Segment>& segments, std::size_t brute_count) {
  KindResult r;
  r.segments = segments.size();
  std::vector<char> answers(segments.size());
  const double t0 = cpu_seconds();
  for (std::size_t i = 0; i < segments.size(); ++i)
    answers[i] = space.line_of_sight(segments[i].a, segments[i].b) ? 1 : 0;
  r.seconds = cpu_seconds() - t0;
  for (const char answer : answers) r.free += std::size_t(answer);

  r.brute_segments = std::min(brute_count, segments.size());
  std::vector<Brute> brute(r.brute_segments);
  const double t1 = cpu_seconds();
  for (std::size_t i = 0; i < r.brute_segments; ++i)
    brute[i] = brute_line_of_sight(edges, segments[i].a, segments[i].b);
  r.brute_seconds = cpu_seconds() - t1;
  for (std::size_t i = 0; i < r.brute_segments; ++i) {
    if (brute[i] == Brute::touches) {
      ++r.touches;
    } else if ((brute[i] == Brute::free) == (answers[i] != 0)) {
      ++r.agree;
    } else {
      ++r.disagree;
      if (r.disagree <= 5)
        std::fprintf(stderr, "disagreement: (%.17g, %.17g) -> (%.17g, %.17g): FreeSpace %s\n",
                     segments[i].a.x, segments[i].a.y, segments[i].b.x, segments[i].b.y,
                     answers[i] ? "free" : "blocked");
    }
  }
  return r;
}

struct Args {
  std::vector<std::size_t> edges = {1000, 10000, 100000};
  std::size_t segments = 100000;
  std::size_t points = 100000;
  double brute_budget = 1e9;
  unsigned seed = 1;
};

// Reads the command line into `a`; an exit status when the program is to stop (--help, bad usage).
std::optional<int> parse(int argc, char** argv, Args& a) {
  CLI::App app{
      "FreeSpace::line_of_sight and is_free against a brute-force scan of every boundary edge, on "
      "random octagon scenes."};
  bench_cli::add_list(app, "--edges", a.edges, "Target boundary edge counts, one scene each")
      ->type_name("N,N,...");
  bench_cli::add_value(app, "--segments", a.segments, "N",
                       "Segments between free points per scene, half short and half long (>= 2)");
  bench_cli::add_value(app, "--points", a.points, "N",
                       "Uniform points for is_free per scene (>= 1)");
  bench_cli::add_value(app, "--brute-budget", a.brute_budget, "B",
                       "The brute force runs on at most B / edges segments per scene");
  bench_cli::add_value(app, "--seed", a.seed, "S", "Seed of the scenes and the segments");
  if (const auto status = bench_cli::parse(app, argc, argv)) return status;
  a.segments = std::max<std::size_t>(2, a.segments);
  a.points = std::max<std::size_t>(1, a.points);
  return std::nullopt;
}

std::string rate(double count, double seconds) {
  char text[32];
  if (seconds <= 0.0) return "-";
  std::snprintf(text, sizeof text, "%.3g", count / seconds);
  return text;
}

struct Summary {
  std::size_t edges;
  double build_ms;
  double los_rate;
  double brute_rate;
  double is_free_rate;
};

Summary run_scene(std::size_t target_edges, const Args& args, bool& failed) {
  const std::size_t octagons = std::max<std::size_t>(1, target_edges / 8);
  const Scene scene = octagon_scene(octagons, args.seed);
  const double t0 = cpu_seconds();
  const FreeSpace space(scene);
  const double build_ms = (cpu_seconds() - t0) * 1e3;
  const std::vector<Edge> edges = boundary_edges(space);

  std::mt19937_64 rng(args.seed * 7919u + target_edges);
  const std::vector<Segment> shorts = short_segments(space, args.segments / 2, rng);
  const std::vector<Segment> longs = long_segments(space, args.segments - args.segments / 2, rng);
  // Half the budget for each kind.
  const auto brute_count = std::size_t(args.brute_budget / 2.0 / double(edges.size()));
  const KindResult s = measure(space, edges, shorts, brute_count);
  const KindResult l = measure(space, edges, longs, brute_count);

  std::uniform_real_distribution<double> x(space.box().min.x, space.box().max.x);
  std::uniform_real_distribution<double> y(space.box().min.y, space.box().max.y);
  std::vector<Point> points(args.points);
  for (Point& p : points) p = {x(rng), y(rng)};
  std::size_t free_points = 0;
  const double t1 = cpu_seconds();
  for (const Point& p : points) free_points += space.is_free(p) ? 1 : 0;
  const double is_free_seconds = cpu_seconds() - t1;

  std::printf("\n## %zu boundary edges: %zu octagons in a %.0f x %.0f square\n\n", edges.size(),
              octagons, space.box().width(), space.box().height());
  std::printf("FreeSpace built in %.0f ms. is_free: %zu points (%.1f%% free), %s points/s\n\n",
              build_ms, points.size(), 100.0 * double(free_points) / double(points.size()),
              rate(double(points.size()), is_free_seconds).c_str());
  std::printf(
      "| segments | count | free | FreeSpace checks/s | brute-force count | brute-force checks/s |"
      " speed-up | agree | touch boundary (not compared) |\n");
  std::printf("|---|---:|---:|---:|---:|---:|---:|---:|---:|\n");
  KindResult all = s;
  all.segments += l.segments;
  all.free += l.free;
  all.seconds += l.seconds;
  all.brute_segments += l.brute_segments;
  all.brute_seconds += l.brute_seconds;
  all.agree += l.agree;
  all.touches += l.touches;
  all.disagree += l.disagree;
  const auto row = [](const char* name, const KindResult& r) {
    const double ours = double(r.segments) / r.seconds;
    const double brute = double(r.brute_segments) / r.brute_seconds;
    std::printf("| %s | %zu | %.1f%% | %s | %zu | %s | %.1fx | %zu/%zu | %zu |\n", name, r.segments,
                100.0 * double(r.free) / double(r.segments),
                rate(double(r.segments), r.seconds).c_str(), r.brute_segments,
                rate(double(r.brute_segments), r.brute_seconds).c_str(), ours / brute, r.agree,
                r.agree + r.disagree, r.touches);
  };
  row("short (0.5-10)", s);
  row("long (any two free points)", l);
  row("all", all);
  std::fflush(stdout);
  if (all.disagree > 0) {
    std::fprintf(stderr, "%zu segments disagree between FreeSpace and the brute force\n",
                 all.disagree);
    failed = true;
  }
  return {edges.size(), build_ms, double(all.segments) / all.seconds,
          double(all.brute_segments) / all.brute_seconds, double(points.size()) / is_free_seconds};
}

}  // namespace

int main(int argc, char** argv) {
  Args args;
  if (const auto status = parse(argc, argv, args)) return *status;
  std::printf("# Line of sight on random disjoint octagons (seed %u, %zu segments, %zu points)\n",
              args.seed, args.segments, args.points);
  bool failed = false;
  std::vector<Summary> summaries;
  for (const std::size_t edges : args.edges) summaries.push_back(run_scene(edges, args, failed));

  std::printf("\n## Scaling (all segments)\n\n");
  std::printf(
      "| edges | build ms | FreeSpace checks/s | brute-force checks/s | speed-up |"
      " is_free points/s |\n");
  std::printf("|---:|---:|---:|---:|---:|---:|\n");
  for (const Summary& s : summaries)
    std::printf("| %zu | %.0f | %.3g | %.3g | %.1fx | %.3g |\n", s.edges, s.build_ms, s.los_rate,
                s.brute_rate, s.los_rate / s.brute_rate, s.is_free_rate);
  return failed ? 1 : 0;
}
