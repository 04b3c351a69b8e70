#pragma once
/// @file
/// A discretisation's structure as plain data, for pictures: the core exports it, io/ draws it.

#include <vector>

#include "polynav/geometry.hpp"

namespace polynav {

struct Primitives {
  std::vector<Ring> blocked;     ///< regions the method treats as blocked (blocked grid cells)
  std::vector<Ring> regions;     ///< free regions that are nodes (navmesh polygons, leaves)
  std::vector<Segment> lattice;  ///< thin lines (grid lines)
  std::vector<Segment> arcs;     ///< graph edges between nodes
  std::vector<Point> nodes;      ///< node positions worth marking
};

}  // namespace polynav
