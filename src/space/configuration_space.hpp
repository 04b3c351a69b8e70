#pragma once
// Internal: construction of the configuration-space boundary with CGAL (kept out of the query
// code so only one translation unit pays for CGAL's Boolean-operation headers).

#include <vector>

#include "polynav/scene/scene.hpp"
#include "polynav/space/free_space.hpp"

namespace polynav::detail {

/// Number of sides of the regular polygon circumscribing a disc of `radius` whose extra width
/// (circumradius - radius) is at most `tolerance`.
int circumscribed_sides(double radius, double tolerance);

/// Free space of a native scene as boundary rings with free space on their left:
/// (bounds ⊖ disc) minus the union of (obstacle ⊕ disc), the disc replaced by a circumscribed
/// regular polygon so the result never exceeds the true configuration space. Exact Boolean
/// operations (CGAL, exact constructions); vertices are rounded to doubles at the end.
/// Each returned ring carries the index of its connected component.
/// `clock` is checked between the Minkowski sums (the union cannot stop midway). With `reuse`,
/// obstacles summed for an earlier build with the same disc are taken from it (InflationCache).
std::vector<BoundaryRing> build_configuration_space(const Scene& scene, double tolerance,
                                                    const BuildClock& clock,
                                                    InflationCache* reuse = nullptr);

/// Whether CGAL's own validity check for its Boolean operations (is_valid_polygon_with_holes)
/// accepts the obstacle as build_configuration_space hands it over. For tests: CGAL checks it only
/// in builds with its assertions on, and otherwise computes garbage from an invalid polygon.
bool cgal_takes(const Polygon& shape);

}  // namespace polynav::detail
