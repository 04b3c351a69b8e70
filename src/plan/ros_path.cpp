#include "polynav/plan/ros_path.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>

#include "polynav/error.hpp"
#include "polynav/number.hpp"

namespace polynav {

std::string frame_id_problem(const std::string& id) {
  if (id.empty()) return "must not be empty (a ROS frame name such as map or odom)";
  for (const char c : id) {
    if (std::isalnum(static_cast<unsigned char>(c)) != 0 || c == '_' || c == '/') continue;
    char shown[16];
    if (std::isprint(static_cast<unsigned char>(c)) != 0) {
      std::snprintf(shown, sizeof shown, "'%c'", c);
    } else {
      std::snprintf(shown, sizeof shown, "byte 0x%02x", static_cast<unsigned char>(c));
    }
    return "may hold only letters, digits, '_' and '/' (a ROS name), found " + std::string(shown) +
           " in '" + id + "'";
  }
  if (id.front() == '/')
    return "must not start with '/' (tf2 in ROS 2 refuses frame ids that do), found '" + id + "'";
  if (id.back() == '/' || id.find("//") != std::string::npos)
    return "must not end with '/' or hold '//' (the names between '/' must not be empty), "
           "found '" +
           id + "'";
  for (std::size_t i = 0; i < id.size(); ++i)
    if ((i == 0 || id[i - 1] == '/') && std::isdigit(static_cast<unsigned char>(id[i])) != 0)
      return "each name between '/' must start with a letter or '_', found '" + id + "'";
  return {};
}

double added_poses(const std::vector<Point>& w, double spacing) {
  if (!(spacing > 0)) return 0;
  double added = 0;
  for (std::size_t i = 0; i + 1 < w.size(); ++i) {
    const double length = std::hypot(w[i + 1].x - w[i].x, w[i + 1].y - w[i].y);
    added += std::max(std::ceil(length / spacing) - 1, 0.0);
  }
  return added;
}

void check_pose_spacing(const std::vector<std::vector<Point>>& paths, double spacing,
                        const std::string& key) {
  double added = 0;
  for (const std::vector<Point>& w : paths) added += added_poses(w, spacing);
  if (added > max_added_poses)
    throw InputError({"", 0, 0, key},
                     "a spacing of " + shortest_text(spacing) + " needs " + shortest_text(added) +
                         " poses between the waypoints, more than the " +
                         shortest_text(max_added_poses) + " allowed: give a larger spacing");
}

std::vector<PathPose> path_poses(const std::vector<Point>& w, double spacing,
                                 std::optional<double> goal_yaw, std::span<const double> headings) {
  std::vector<PathPose> poses;
  if (w.empty()) return poses;
  if (headings.size() == w.size()) {
    // The method's own headings (a car reversing faces against its motion): at the waypoints,
    // and turned evenly, the short way round, across the poses added between them.
    for (std::size_t i = 0; i < w.size(); ++i) {
      poses.push_back({w[i], headings[i]});
      if (i + 1 == w.size() || !(spacing > 0)) continue;
      const double dx = w[i + 1].x - w[i].x, dy = w[i + 1].y - w[i].y;
      const double turn = std::remainder(headings[i + 1] - headings[i], 2 * M_PI);
      const auto n =
          static_cast<std::size_t>(std::max(std::ceil(std::hypot(dx, dy) / spacing), 1.0));
      for (std::size_t k = 1; k < n; ++k) {
        const double t = double(k) / double(n);
        poses.push_back({{w[i].x + t * dx, w[i].y + t * dy}, headings[i] + t * turn});
      }
    }
    return poses;
  }
  // heading[i]: the yaw of the first segment of non-zero length from waypoint i on, else of the
  // last one of the path, else 0 (a path of one point, or of one point repeated).
  const auto yaw_of = [&](std::size_t i) {
    return std::atan2(w[i + 1].y - w[i].y, w[i + 1].x - w[i].x);
  };
  std::optional<double> last, next;
  for (std::size_t i = 0; i + 1 < w.size(); ++i)
    if (!(w[i + 1] == w[i])) last = yaw_of(i);
  std::vector<double> heading(w.size(), 0.0);
  for (std::size_t i = w.size(); i-- > 0;) {
    if (i + 1 < w.size() && !(w[i + 1] == w[i])) next = yaw_of(i);
    heading[i] = next ? *next : last.value_or(0.0);
  }
  if (goal_yaw) heading.back() = *goal_yaw;

  for (std::size_t i = 0; i < w.size(); ++i) {
    poses.push_back({w[i], heading[i]});
    if (i + 1 == w.size() || !(spacing > 0)) continue;
    // n equal steps of at most the spacing: the n - 1 points between the two waypoints.
    const double dx = w[i + 1].x - w[i].x, dy = w[i + 1].y - w[i].y;
    const double steps = std::ceil(std::hypot(dx, dy) / spacing);
    const auto n = static_cast<std::size_t>(std::max(steps, 1.0));
    for (std::size_t k = 1; k < n; ++k) {
      const double t = double(k) / double(n);
      poses.push_back({{w[i].x + t * dx, w[i].y + t * dy}, heading[i]});
    }
  }
  return poses;
}

}  // namespace polynav
