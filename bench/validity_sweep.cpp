// Path validity at scale: random queries on seeded random scenes, planned by every registered
// method (and variant) and smoothed by every smoother, each found path and each raw path checked
// by the independent exact checker of tests/validity (which shares nothing with FreeSpace).
//
//   validity_sweep [--queries 100000] [--seed 1] [--per-scene 50] [--far 0]
//                  [--methods grid,visgraph] [--every-choice] [--smoothers none,funnel]
//                  [--cross-check 100] [--failures FILE] [--progress] [--dump-scene SEED]
//
// --queries: start-goal pairs; each is planned once by every method variant.
// --per-scene: queries per random scene (tests/validity/sweep.hpp describes the scenes).
// --far: the fraction of scenes moved by (1024, -2048), where doubles are coarser.
// --methods: keep only these registry methods (default: all of them).
// --every-choice: each method also once per other value of each of its choice and flag options
//   (default: the defaults, and the navigation mesh with each node placement).
// --smoothers: default every registered smoother.
// --cross-check: every this many checked paths, check again with rationals only (default 100;
//   0 = never); a changed verdict fails the run.
// --failures: write every rejected path (variant, smoother, scene seed, query, reason, path).
// --dump-scene SEED: print the scene of that seed (as a failure names it) as a native YAML scene
//   and exit.
//
// Prints Markdown tables: per method variant and per smoother, the counts of found, no_path and
// other answers, rejected (invalid) paths, those of them no deeper than FreeSpace's rounding of
// constructed vertices (validity::rounding_depth), and CPU times of planning and checking. Exits 1
// when a path is invalid beyond that depth or the filter changed a verdict.

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <map>
#include <string>
#include <vector>

#include "bench_cli.hpp"
#include "polynav/plan/registry.hpp"
#include "polynav/scene/scene.hpp"
#include "validity/sweep.hpp"

namespace {

using polynav::validity::MethodVariant;
using polynav::validity::Rejection;
using polynav::validity::SweepOptions;
using polynav::validity::SweepResult;
using polynav::validity::Tally;

std::string with_commas(std::uint64_t n) {
  std::string digits = std::to_string(n), out;
  for (std::size_t i = 0; i < digits.size(); ++i) {
    if (i > 0 && (digits.size() - i) % 3 == 0) out += ',';
    out += digits[i];
  }
  return out;
}

}  // namespace

int main(int argc, char** argv) {
  SweepOptions options;
  options.queries = 100000;
  options.cross_check_every = 100;
  std::vector<std::string> methods;
  bool every_choice = false, progress = false;
  std::string failures_path;
  std::uint64_t dump_seed = 0;
  CLI::App app{
      "Path validity at scale: random queries on seeded random scenes, planned by every method "
      "variant and smoothed by every smoother, each path checked by the exact checker of "
      "tests/validity."};
  bench_cli::add_value(app, "--queries", options.queries, "N",
                       "Start-goal pairs; each is planned once by every method variant");
  bench_cli::add_value(app, "--seed", options.seed, "S", "Seed of the scenes and queries");
  bench_cli::add_value(app, "--per-scene", options.queries_per_scene, "N",
                       "Queries per random scene");
  bench_cli::add_value(app, "--far", options.far_fraction, "F",
                       "The fraction of scenes moved by (1024, -2048), where doubles are coarser");
  bench_cli::add_list(app, "--methods", methods,
                      "Keep only these registry methods (default: all of them)")
      ->type_name("a,b");
  app.add_flag("--every-choice", every_choice,
               "Each method also once per other value of each of its choice and flag options");
  bench_cli::add_list(app, "--smoothers", options.smoothers,
                      "Smoothers (default: every registered smoother)")
      ->type_name("a,b");
  bench_cli::add_value(
      app, "--cross-check", options.cross_check_every, "K",
      "Every this many checked paths, check again with rationals only (0 = never); a "
      "changed verdict fails the run");
  app.add_option("--failures", failures_path,
                 "Write every rejected path (variant, smoother, scene seed, query, reason, path)")
      ->type_name("FILE");
  app.add_flag("--progress", progress,
               "Every 50 scenes, print the scenes, queries and seconds so far on standard error");
  const CLI::Option* dump =
      app.add_option("--dump-scene", dump_seed,
                     "Print the scene of this seed (as a failure names it) as a native YAML "
                     "scene and exit")
          ->type_name("SEED");
  if (const auto status = bench_cli::parse(app, argc, argv)) return *status;
  options.queries_per_scene = std::max<std::size_t>(1, options.queries_per_scene);
  std::erase(methods, "");  // "a,,b" names two
  std::erase(options.smoothers, "");
  if (dump->count() > 0) {
    std::fputs(polynav::export_native_scene(
                   polynav::validity::random_scene(dump_seed, options.far_fraction))
                   .text.c_str(),
               stdout);
    std::printf("# space.gaps: %s\n",
                polynav::validity::random_open_gaps(dump_seed) ? "open" : "closed");
    return 0;
  }
  for (const std::string& m : methods) polynav::find_method(m);  // throws naming the closest
  for (const std::string& s : options.smoothers) polynav::find_smoother(s);
  for (MethodVariant& v : polynav::validity::method_variants(every_choice))
    if (methods.empty() || std::find(methods.begin(), methods.end(), v.method) != methods.end())
      options.variants.push_back(std::move(v));

  std::ofstream failures;
  if (!failures_path.empty()) failures.open(failures_path);
  std::uint64_t rejected = 0;
  const SweepResult result = polynav::validity::run_sweep(
      options,
      [&](const Rejection& r) {
        ++rejected;
        char head[512];
        std::snprintf(head, sizeof head,
                      "%s / %s, scene seed %llu, start (%.17g, %.17g), goal (%.17g, %.17g)",
                      r.variant.c_str(), r.smoother.c_str(), (unsigned long long)r.scene_seed,
                      r.start.x, r.start.y, r.goal.x, r.goal.y);
        const char* kind = r.by_rounding ? "invalid (within rounding)" : "INVALID";
        if (rejected <= 20) std::fprintf(stderr, "%s %s: %s\n", kind, head, r.reason.c_str());
        if (failures.is_open()) {
          failures << kind << " " << head << ": " << r.reason << "\n  path:";
          char p[96];
          for (const polynav::Point& q : r.path) {
            std::snprintf(p, sizeof p, " (%.17g, %.17g)", q.x, q.y);
            failures << p;
          }
          failures << "\n";
        }
      },
      [&](const SweepResult& so_far) {
        if (progress && so_far.scenes % 50 == 0)
          std::fprintf(stderr, "%llu scenes, %llu queries, %.1f s\n",
                       (unsigned long long)so_far.scenes, (unsigned long long)so_far.queries,
                       so_far.seconds);
      });

  // Per variant: its answers (from the first smoother's results; every smoother shares the
  // search) and every path checked for it (each smoother's and the raw path).
  std::printf("## validity_sweep: %s queries, seed %llu, %llu scenes, %zu method variants\n\n",
              with_commas(result.queries).c_str(), (unsigned long long)options.seed,
              (unsigned long long)result.scenes, options.variants.size());
  std::printf(
      "| method | queries | found | no_path | end not attached | other | no_path, found by "
      "another | refused scenes | paths checked | invalid | of which by rounding | plan s | "
      "check s |\n");
  std::printf("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n");
  std::map<std::string, Tally> by_smoother;
  std::vector<std::string> smoother_order;
  std::uint64_t checked_total = 0, invalid_total = 0, rounding_total = 0;
  double plan_total = 0.0, check_total = 0.0, max_depth = 0.0;
  for (std::size_t i = 0; i < result.tallies.size();) {
    const Tally& first = result.tallies[i];
    std::uint64_t checked = 0, invalid = 0, by_rounding = 0;
    double plan = 0.0, check = 0.0;
    std::size_t j = i;
    for (; j < result.tallies.size() && result.tallies[j].variant == first.variant; ++j) {
      const Tally& t = result.tallies[j];
      checked += t.found;
      invalid += t.invalid;
      by_rounding += t.invalid_by_rounding;
      plan += t.plan_seconds;
      check += t.check_seconds;
      max_depth = std::max(max_depth, t.max_depth);
      Tally& s = by_smoother[t.smoother];
      if (s.smoother.empty()) smoother_order.push_back(t.smoother);
      s.smoother = t.smoother;
      s.queries += t.queries;
      s.found += t.found;
      s.invalid += t.invalid;
      s.invalid_by_rounding += t.invalid_by_rounding;
      s.check_seconds += t.check_seconds;
    }
    std::printf("| %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %.1f | %.1f |\n",
                first.variant.c_str(), with_commas(first.queries).c_str(),
                with_commas(first.found).c_str(), with_commas(first.no_path).c_str(),
                with_commas(first.unattached).c_str(), with_commas(first.other).c_str(),
                with_commas(first.no_path_but_found).c_str(), with_commas(first.refused).c_str(),
                with_commas(checked).c_str(), with_commas(invalid).c_str(),
                with_commas(by_rounding).c_str(), plan, check);
    checked_total += checked;
    invalid_total += invalid;
    rounding_total += by_rounding;
    plan_total += plan;
    check_total += check;
    i = j;
  }
  for (const Tally& t : result.tallies)
    if (t.other > 0 && t.smoother == smoother_order.front())
      std::printf("\n%s / %s, %s answers neither found nor no_path, e.g. %s\n", t.variant.c_str(),
                  t.smoother.c_str(), with_commas(t.other).c_str(), t.other_example.c_str());
  for (const Tally& t : result.tallies)
    if (t.no_path_but_found > 0 && t.smoother == smoother_order.front())
      std::printf(
          "\n%s answers no_path to %s queries another method found a valid path for, "
          "e.g. %s\n",
          t.variant.c_str(), with_commas(t.no_path_but_found).c_str(), t.no_path_example.c_str());
  std::printf(
      "\n| smoother | paths checked | invalid | of which by rounding | check s |\n"
      "|---|---:|---:|---:|---:|\n");
  for (const std::string& name : smoother_order) {
    const Tally& s = by_smoother[name];
    std::printf("| %s | %s | %s | %s | %.1f |\n", name.c_str(), with_commas(s.found).c_str(),
                with_commas(s.invalid).c_str(), with_commas(s.invalid_by_rounding).c_str(),
                s.check_seconds);
  }
  const double signs = double(result.exact_signs + result.filtered_signs);
  std::printf(
      "\nqueries %s, paths checked %s, invalid %s (%s within FreeSpace's rounding, %s beyond; "
      "deepest %.3g), plan %.1f s, check %.1f s, total %.1f s CPU; signs decided by rationals: "
      "%.4f%% (paths checked again with rationals only: %s, verdicts changed: %s); query ends "
      "free for FreeSpace but not for the checker (not used): %s\n",
      with_commas(result.queries).c_str(), with_commas(checked_total).c_str(),
      with_commas(invalid_total).c_str(), with_commas(rounding_total).c_str(),
      with_commas(invalid_total - rounding_total).c_str(), max_depth, plan_total, check_total,
      result.seconds, signs > 0 ? 100.0 * double(result.exact_signs) / signs : 0.0,
      with_commas(result.cross_checked).c_str(), with_commas(result.cross_check_mismatches).c_str(),
      with_commas(result.disputed_points).c_str());
  return invalid_total == rounding_total && result.cross_check_mismatches == 0 ? 0 : 1;
}
