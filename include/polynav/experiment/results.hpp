#pragma once
/// @file
/// An experiment's rows as files and figures: the CSV (a contract other tools parse), reading it
/// back and merging shards, the summary tables, OMPL's benchmark log, and SVG plots.

#include <cmath>
#include <cstdint>
#include <filesystem>
#include <iosfwd>
#include <string>
#include <utility>
#include <vector>

#include "polynav/experiment/experiment.hpp"

namespace polynav::experiment {

/// The CSV's columns, in order. The first 21 are fixed (scene ... expanded); more may follow.
const std::vector<std::string>& csv_columns();

/// Writes the header and one line per row (RFC 4180 quoting; numbers with 17 significant digits
/// so they read back bit for bit; NaN as an empty field).
void write_csv(std::ostream& out, const std::vector<Row>& rows);
/// One row as its CSV line (no line break).
std::string csv_line(const Row& row);

/// The largest experiment CSV read_csv reads: a run writes at most max_rows rows of a few hundred
/// bytes each.
inline constexpr std::uintmax_t max_csv_bytes = std::uintmax_t{4} << 30;

/// Reads a CSV written by write_csv; an empty `options` field (as files written before
/// default_options was introduced have) reads as default_options. The path must be a regular
/// file (check_input_file: a FIFO or device is refused before it is opened) of at most
/// max_csv_bytes, holding at most `row_limit` rows (one run's most by default).
/// @throws InputError (file:line:column) for anything else
std::vector<Row> read_csv(const std::filesystem::path& path, std::size_t row_limit = max_rows);

/// Joins the rows of an experiment's shards into the rows of the unsharded run (an empty
/// `options` is taken as default_options, so older and newer shards join): the groups
/// (scene, method, options, smoother) in the order of the shard holding each scene's first
/// query, rows by query within a group. @throws InputError naming the file when two shards hold
/// the same run or a group's queries have a gap (a shard missing)
std::vector<Row> merge_shards(const std::vector<std::vector<Row>>& shards,
                              const std::vector<std::string>& names);

/// Per method x option set x smoother: runs, success rate, mean / p95 / max ratio, mean
/// waypoints, mean search and smoothing time; then the literature's aggregate, the mean length
/// per scene averaged over scenes (against the reference's, over the queries every
/// configuration and the reference solved).
void write_summary(std::ostream& out, const std::vector<Row>& rows,
                   const std::vector<SceneReport>& scenes);

/// What an OMPL benchmark log records of one experiment besides its runs. In OMPL's format a
/// log file holds exactly one experiment, and Planner Arena compares planners within an
/// experiment, so each scene is an experiment of its own (one file per scene).
struct OmplLogHeader {
  /// The scene whose rows the log holds; its name is the experiment's name, written as one
  /// word (ompl_benchmark_statistics.py keeps only the last word of the line).
  std::string scene;
  std::size_t scene_index = 0;  ///< its position in the experiment (the runs' `scene index`)
  std::string host;             ///< the machine's name; empty: host_name()
  /// The --seed the random queries were drawn from (0 when the queries were given).
  std::uint64_t seed = 0;
  double time_limit_s = INFINITY;     ///< search.time_limit_ms in force, in seconds
  double memory_limit_mb = INFINITY;  ///< polynav sets none
  double total_seconds = 0.0;         ///< time spent collecting the scene's data
  /// Lines of the free-text setup block: what was run, on what queries, with which options.
  std::vector<std::string> setup;
  /// Experiment properties, ("name TYPE", value): one word names ("search_max_expanded").
  std::vector<std::pair<std::string, std::string>> properties;
};

/// The name of this machine (gethostname), "unknown" when it cannot be read.
std::string host_name();

/// The log header of scene `scene` of an experiment run with `options`: the seed, the limits
/// in force (search.time_limit_ms as the time per run; search.max_expanded, search.max_cost and
/// the build budgets as experiment properties, "inf" when unlimited), the settings, the specs and
/// smoothers, and the reference, in the setup block.
OmplLogHeader ompl_log_header(const Options& options, const SceneReport& scene,
                              std::size_t scene_index);

/// OMPL's benchmark log (the grammar of "The benchmark logfile format", ompl.kavrakilab.org) of
/// the rows of header.scene: one experiment, one planner per method x option set x smoother,
/// one run per query, so ompl_benchmark_statistics.py and Planner Arena can read it.
void write_ompl_log(std::ostream& out, const std::vector<Row>& rows, const OmplLogHeader& header);

/// The experiment's figure as one SVG: for each scene (one panel per scene), per configuration
/// (labelled by name), box plots of length / optimum over the queries with a reference beside
/// box plots of search + smoothing time; then, per configuration, the density of search +
/// smoothing time against path length over every found path.
std::string plot_svg(const std::vector<Row>& rows, const std::string& title);

}  // namespace polynav::experiment
