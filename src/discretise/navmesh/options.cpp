#include "polynav/discretise/navmesh/options.hpp"

#include <algorithm>

#include "polynav/space/free_space.hpp"

namespace polynav {

NavMeshSearch resolve_navmesh_search(const FreeSpace& space, const NavMeshOptions& options) {
  if (options.search != NavMeshSearch::automatic) return options.search;
  if (options.nodes != NavMeshNodes::vertices || space.open_gaps() ||
      space.corners().size() > auto_optimal_max_corners)
    return NavMeshSearch::graph;
  // Heights outside every region are 0; with a climb limit, any two heights further apart than
  // it may make a move one way (regions that do not meet free space only make this cautious).
  if (space.has_clearance_cost()) return NavMeshSearch::graph;
  double lowest = 0.0, highest = 0.0;
  for (const Region& r : space.regions()) {
    if (r.cost != 1.0) return NavMeshSearch::graph;
    if (r.height) {
      lowest = std::min(lowest, *r.height);
      highest = std::max(highest, *r.height);
    }
  }
  if (highest - lowest > space.agent().max_climb) return NavMeshSearch::graph;
  return NavMeshSearch::optimal;
}

}  // namespace polynav
