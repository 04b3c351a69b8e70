#pragma once
// Obstacles as every polygon reader adds them: checked to be valid polygons (validate.hpp) and,
// when they are not and the caller asked for it (LoadOptions::repair), made valid by GEOS's
// make-valid, each change reported. repair.cpp is the only file that uses GEOS.

#include <string>
#include <vector>

#include "polynav/scene/scene.hpp"
#include "validate.hpp"

namespace polynav::detail {

// An obstacle as written, before its geometry is checked.
struct RawObstacle {
  RawRing outer;
  std::vector<RawRing> holes;
  InputLocation where;
};

// Appends the obstacle to `obstacles` when it is a valid polygon (checked_polygon). When it is
// not (InvalidPolygon): without `repair`, throws that error with a hint naming --repair; with
// `repair`, appends the polygons GEOS's make-valid (the "structure" method: the outer ring's area
// less the holes', self-crossing rings split into their parts) makes of it, each checked again,
// and appends one sentence to `repairs` saying what was wrong and what it became. Throws
// InputError, located at the obstacle, when make-valid leaves no area (the obstacle collapses to
// lines or points) or gives polygons that are still not valid (rounded crossing points can do
// that).
void add_obstacle(const RawObstacle& raw, bool repair, std::vector<Obstacle>& obstacles,
                  std::vector<std::string>& repairs);

// The hint added to the message of an invalid obstacle loaded without repair.
inline constexpr const char* repair_hint =
    "; --repair (LoadOptions::repair) makes such polygons valid, reporting each change";

}  // namespace polynav::detail
