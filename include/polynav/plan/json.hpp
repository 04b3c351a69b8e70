#pragma once
/// @file
/// The command line's JSON output: one object per query (docs/output.md).

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "polynav/plan/planner.hpp"

namespace polynav {

/// When a result was planned on a scene that changes (`plan --edits`): after the edits of
/// `time` (none: before the first), on the EditablePlanner's `version`.
struct EditStamp {
  std::optional<double> time;
  std::uint64_t version = 0;
};

/// One line of JSON for a plan result, keys in the documented order:
/// `{"status", "method", "smoother", "start", "goal", "length", "cost", "waypoints",
///   "raw_length", "raw_cost", "raw_waypoints", "stats": {"nodes", "expanded", "generated",
///   "build_ms", "search_ms", "smooth_ms"}, "message", "query"}`.
/// Lengths and costs are null when there is no path; "query" only when a name is given;
/// "goal_yaw" only when given (the heading asked for at the goal reached, radians); "time" and
/// "version" last, only for results planned between edits (`plan --edits`).
std::string plan_result_json(const PlanResult& result, std::string_view query_name = {},
                             std::optional<double> goal_yaw = std::nullopt,
                             std::optional<EditStamp> edits = std::nullopt);

/// The JSON object `polynav reach --json` prints: `{"status", "method", "from", "cost",
/// "nodes": [{"node", "at", "cost"}, ...]}`, nodes cheapest first, then "message" when the
/// reach has one.
std::string reach_json(const Reach& reach, std::string_view method, Point from, double cost);

/// The registry as JSON (`polynav methods --json`, docs/output.md): `{"methods", "smoothers",
/// "search", "space"}`, each option with name, type, default, limits, unit, choices and doc.
/// @param indent as nlohmann::json::dump (-1: one line)
std::string registry_json(int indent = 2);

}  // namespace polynav
