#include "polynav/plan/json.hpp"

#include <nlohmann/json.hpp>

namespace polynav {
namespace {

using Json = nlohmann::ordered_json;

Json point_json(Point p) {
  return Json::array({p.x, p.y});
}

Json points_json(const std::vector<Point>& points) {
  Json out = Json::array();
  for (const Point& p : points) out.push_back(point_json(p));
  return out;
}

}  // namespace

std::string plan_result_json(const PlanResult& r, std::string_view query_name,
                             std::optional<double> goal_yaw, std::optional<EditStamp> edits) {
  const bool has_path = !r.waypoints.empty();
  const bool has_raw = !r.raw_waypoints.empty();
  Json j;
  j["status"] = std::string(search::to_string(r.status));
  j["method"] = r.method;
  j["smoother"] = r.smoother;
  j["start"] = point_json(r.start);
  j["goal"] = point_json(r.goal);
  j["radius"] = r.radius;
  j["length"] = has_path ? Json(r.length) : Json(nullptr);
  j["cost"] = has_path ? Json(r.cost) : Json(nullptr);
  j["waypoints"] = points_json(r.waypoints);
  j["raw_length"] = has_raw ? Json(r.raw_length) : Json(nullptr);
  j["raw_cost"] = has_raw ? Json(r.raw_cost) : Json(nullptr);
  j["raw_waypoints"] = points_json(r.raw_waypoints);
  j["stats"] = {{"nodes", r.stats.nodes},         {"expanded", r.stats.expanded},
                {"generated", r.stats.generated}, {"build_ms", r.stats.build_ms},
                {"search_ms", r.stats.search_ms}, {"smooth_ms", r.stats.smooth_ms}};
  if (!r.headings.empty()) j["headings"] = r.headings;
  if (r.lower_bound) j["lower_bound"] = *r.lower_bound;
  if (!r.message.empty()) j["message"] = r.message;
  if (!query_name.empty()) j["query"] = std::string(query_name);
  if (goal_yaw) j["goal_yaw"] = *goal_yaw;
  if (edits) {
    j["time"] = edits->time ? Json(*edits->time) : Json(nullptr);
    j["version"] = edits->version;
  }
  // Names that did not come through a reader's UTF-8 check (a scene named after its file) have
  // invalid bytes replaced rather than the output cut short.
  return j.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

std::string reach_json(const Reach& reach, std::string_view method, Point from, double cost) {
  Json j;
  j["status"] = std::string(search::to_string(reach.status));
  j["method"] = std::string(method);
  j["from"] = point_json(from);
  j["cost"] = cost;
  j["nodes"] = Json::array();
  for (const ReachedPlace& p : reach.places)
    j["nodes"].push_back({{"node", p.node}, {"at", point_json(p.at)}, {"cost", p.cost}});
  if (!reach.message.empty()) j["message"] = reach.message;
  return j.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

std::string registry_json(int indent) {
  const auto options_json = [](const std::vector<OptionSpec>& specs) {
    nlohmann::ordered_json out = nlohmann::ordered_json::array();
    for (const OptionSpec& o : specs) {
      nlohmann::ordered_json j;
      j["name"] = o.name;
      j["type"] = to_string(o.type);
      j["default"] = o.default_value;
      j["limits"] = o.limits_text();
      if (!o.unit.empty()) j["unit"] = o.unit;
      if (!o.choices.empty()) j["choices"] = o.choices;
      j["doc"] = o.doc;
      out.push_back(j);
    }
    return out;
  };
  const auto rows = [&](const auto& table) {
    nlohmann::ordered_json out = nlohmann::ordered_json::array();
    for (const auto& row : table)
      out.push_back(
          {{"name", row.name}, {"summary", row.summary}, {"options", options_json(row.options)}});
    return out;
  };
  nlohmann::ordered_json j;
  j["methods"] = rows(method_registry());
  j["smoothers"] = rows(smoother_registry());
  j["search"] = options_json(search_option_specs());
  j["space"] = options_json(space_option_specs());
  return j.dump(indent, ' ', false, nlohmann::json::error_handler_t::replace);
}

}  // namespace polynav
