#pragma once
/// @file
/// The command line's JSON output: one object per query (docs/output.md).

#include <string>
#include <string_view>

#include "polynav/plan/planner.hpp"

namespace polynav {

/// One line of JSON for a plan result, keys in the documented order:
/// `{"status", "method", "smoother", "start", "goal", "length", "cost", "waypoints",
///   "raw_length", "raw_cost", "raw_waypoints", "stats": {"nodes", "expanded", "generated",
///   "build_ms", "search_ms", "smooth_ms"}, "message", "query"}`.
/// Lengths and costs are null when there is no path; "query" only when a name is given.
std::string plan_result_json(const PlanResult& result, std::string_view query_name = {});

/// The registry as JSON (`polynav methods --json`, docs/output.md): `{"methods", "smoothers",
/// "search", "space"}`, each option with name, type, default, limits, unit, choices and doc.
/// @param indent as nlohmann::json::dump (-1: one line)
std::string registry_json(int indent = 2);

}  // namespace polynav
