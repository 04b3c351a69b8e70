// The one place a Rotation is computed (geometry.hpp): out of line, so that the compiler cannot
// round the same expression differently where it would otherwise be inlined (contracting a
// product and a sum into one fused multiply-add in some callers and not in others), which would
// give one lattice point two slightly different positions.

#include "polynav/geometry.hpp"

#include <cmath>

namespace polynav {

Rotation::Rotation(Point pivot, double yaw)
    : pivot_(pivot), yaw_(yaw), cos_(std::cos(yaw)), sin_(std::sin(yaw)) {}

Point Rotation::turned(Point p, double sine) const {
  const double dx = p.x - pivot_.x;
  const double dy = p.y - pivot_.y;
  const double x = cos_ * dx - sine * dy;
  const double y = sine * dx + cos_ * dy;
  return {pivot_.x + x, pivot_.y + y};
}

}  // namespace polynav
