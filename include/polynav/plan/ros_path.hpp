#pragma once
/// @file
/// A path as a nav_msgs/Path: its poses and frame, shared by `polynav plan --format ros-path`
/// (docs/output.md) and Python's PlanResult.to_ros_path().

#include <optional>
#include <span>
#include <string>
#include <vector>

#include "polynav/geometry.hpp"

namespace polynav {

/// A pose of the path in the plane: a position and a heading (yaw in radians, counterclockwise
/// from +x).
struct PathPose {
  Point at;
  double yaw = 0.0;
};

/// The most poses pose spacing may add between the waypoints of the paths of one output.
inline constexpr double max_added_poses = 1e6;

/// Why `id` cannot be a frame id, or "" when it can: a ROS name as tf2 in ROS 2 takes it, names
/// of letters, digits and '_' not starting with a digit, joined by single '/', with no '/' at
/// either end (tf2 refuses a frame id that starts with one).
std::string frame_id_problem(const std::string& id);

/// How many poses `spacing` adds between the waypoints `w` (a double: it may be beyond any
/// integer; the caller compares it with max_added_poses). 0 when spacing is not > 0.
double added_poses(const std::vector<Point>& w, double spacing);

/// Refuses a spacing that adds more than max_added_poses poses between the waypoints of
/// `paths` in all. @throws InputError keyed `key`, saying how many poses it would take
void check_pose_spacing(const std::vector<std::vector<Point>>& paths, double spacing,
                        const std::string& key);

/// The poses of a nav_msgs/Path through the waypoints `w`: one at every waypoint and, with a
/// spacing > 0, evenly spaced ones between them so that no two consecutive poses are farther
/// apart than it (the waypoints kept exactly). Each pose faces along the segment that leaves it
/// (the first of non-zero length from there on); the last faces as the segment that ends there,
/// or `goal_yaw` when given. A path of one point (or one point repeated) faces 0. With
/// `headings`, one per waypoint (a path planned with headings, PlanResult::headings), the poses
/// face those instead, and added ones turn evenly between them; goal_yaw is then not used.
std::vector<PathPose> path_poses(const std::vector<Point>& w, double spacing = 0.0,
                                 std::optional<double> goal_yaw = std::nullopt,
                                 std::span<const double> headings = {});

}  // namespace polynav
