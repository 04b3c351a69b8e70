// Curves of bounded curvature: the cost of one shortest Dubins path (6 words) and of one exact
// Reeds-Shepp path (48 words; reeds_shepp_paths solves them all, shortest_reeds_shepp keeps the
// least), on the same random pose pairs, and their lengths side by side. Hybrid A* computes one of
// them at every state it expands (the heuristic to a goal heading) and at every analytic
// expansion.
//
//   bench_curves [--pairs 20000] [--repeats 5] [--near 0.5] [--seed 1]
//
// --near: the share of pairs within two turning radii of each other, where the words with cusps
// win. Times are CPU time of the one thread (CLOCK_THREAD_CPUTIME_ID), the best of the repeats.

#include <algorithm>
#include <cstdio>
#include <ctime>
#include <numbers>
#include <random>
#include <vector>

#include "bench_cli.hpp"
#include "polynav/discretise/hybrid/curves.hpp"

namespace {

using polynav::curves::Pose;

double cpu_seconds() {
  timespec t{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
  return double(t.tv_sec) + 1e-9 * double(t.tv_nsec);
}

// The best time per pair over the repeats, in microseconds, and the sum of lengths (which also
// keeps the calls from being optimised away).
template <class F>
std::pair<double, double> time_per_pair(const std::vector<std::pair<Pose, Pose>>& pairs,
                                        int repeats, F&& length) {
  double best = 1e300, sum = 0.0;
  for (int r = 0; r < repeats; ++r) {
    sum = 0.0;
    const double t0 = cpu_seconds();
    for (const auto& [a, b] : pairs) sum += length(a, b);
    best = std::min(best, cpu_seconds() - t0);
  }
  return {1e6 * best / double(pairs.size()), sum};
}

}  // namespace

int main(int argc, char** argv) {
  int pairs = 20000, repeats = 5;
  double near = 0.5;
  unsigned seed = 1;
  CLI::App app("Dubins and Reeds-Shepp shortest paths: time per pose pair, lengths");
  bench_cli::add_value(app, "--pairs", pairs, "N", "random pose pairs")->check(CLI::PositiveNumber);
  bench_cli::add_value(app, "--repeats", repeats, "N", "timed runs; the best is kept")
      ->check(CLI::PositiveNumber);
  bench_cli::add_value(app, "--near", near, "SHARE", "pairs within two turning radii")
      ->check(CLI::Range(0.0, 1.0));
  bench_cli::add_value(app, "--seed", seed, "N", "random seed");
  if (const auto status = bench_cli::parse(app, argc, argv)) return *status;

  const double r = 1.0;
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> far(-20, 20), close(-2, 2),
      heading(-std::numbers::pi, std::numbers::pi), unit(0, 1);
  std::vector<std::pair<Pose, Pose>> poses;
  for (int i = 0; i < pairs; ++i) {
    const Pose a{far(rng), far(rng), heading(rng)};
    const bool is_near = unit(rng) < near;
    const Pose b{a.x + (is_near ? close(rng) : far(rng)), a.y + (is_near ? close(rng) : far(rng)),
                 heading(rng)};
    poses.emplace_back(a, b);
  }
  using namespace polynav::curves;
  const auto [dubins_us, dubins_sum] = time_per_pair(
      poses, repeats, [&](Pose a, Pose b) { return shortest_dubins(a, b, r)->length(); });
  // What hybrid A* computed before the exact distance: a Dubins path forwards and one backwards.
  const auto [both_us, both_sum] = time_per_pair(poses, repeats, [&](Pose a, Pose b) {
    return std::min(shortest_dubins(a, b, r)->length(), shortest_dubins(b, a, r)->length());
  });
  const auto [rs_us, rs_sum] = time_per_pair(
      poses, repeats, [&](Pose a, Pose b) { return shortest_reeds_shepp(a, b, r)->length(); });
  std::printf("%d pose pairs (%.0f%% within two turning radii), best of %d\n", pairs, 100 * near,
              repeats);
  std::printf("%-34s %10s %14s\n", "", "us / pair", "mean length");
  std::printf("%-34s %10.3f %14.4f\n", "Dubins (forwards)", dubins_us, dubins_sum / pairs);
  std::printf("%-34s %10.3f %14.4f\n", "Dubins forwards or backwards", both_us, both_sum / pairs);
  std::printf("%-34s %10.3f %14.4f\n", "Reeds-Shepp (exact, 48 words)", rs_us, rs_sum / pairs);
  std::printf("Reeds-Shepp / Dubins time: %.2f; / forwards-or-backwards: %.2f\n", rs_us / dubins_us,
              rs_us / both_us);
  return 0;
}
