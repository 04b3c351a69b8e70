#pragma once
/// @file
/// An experiment's rows as files and figures: the CSV (a contract other tools parse), reading it
/// back and merging shards, the summary tables, OMPL's benchmark log, and SVG plots.

#include <filesystem>
#include <iosfwd>
#include <string>
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

/// Reads a CSV written by write_csv. @throws InputError (file:line:column) for anything else
std::vector<Row> read_csv(const std::filesystem::path& path);

/// Joins the rows of an experiment's shards into the rows of the unsharded run: the groups
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

/// OMPL's benchmark log (the grammar of "The benchmark logfile format", ompl.kavrakilab.org):
/// one experiment, one planner per method x option set x smoother, one run per scene x query,
/// so ompl_benchmark_statistics.py and Planner Arena can read it.
void write_ompl_log(std::ostream& out, const std::vector<Row>& rows, const std::string& name,
                    double total_seconds);

/// Two plots in one SVG: the distribution of length / optimum per configuration (box plots
/// over the queries with a reference) and search + smoothing time against path length.
std::string plot_svg(const std::vector<Row>& rows, const std::string& title);

}  // namespace polynav::experiment
