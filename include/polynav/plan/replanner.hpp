#pragma once
/// @file
/// Replanning towards one goal while the scene changes and the agent moves: each plan() reuses
/// what the one before it found instead of searching again, on an EditablePlanner of the grid
/// method (its search repaired: D* Lite, Koenig and Likhachev, AAAI 2002; search/d_star_lite.hpp)
/// or of the navmesh method (its corridor followed while it holds).
/// @code
///   polynav::PlanOptions options;                    // the grid method, searched by A*
///   polynav::EditablePlanner live(polynav::load_scene("scenes/warehouse.yaml"), options);
///   polynav::Replanner route(live, {38, 20});
///   polynav::PlanResult r = route.plan({1, 1});      // a first search
///   live.apply(edits);                               // a pallet dropped across the aisle
///   r = route.plan({3, 1});                          // repaired around it, from where it is now
/// @endcode
///
/// On a grid the search runs from the goal, so what an edit or a move leaves unchanged is kept:
/// after an edit only the grid nodes whose moves it changed are looked at again, and the nodes
/// whose cost to the goal it alters are expanded again. Its raw path is a cheapest path of that
/// version's grid, of the cost plan()'s raw path has (which of several equally cheap paths may
/// differ).
///
/// On a navigation mesh the corridor of the last search (its portals, the polygon edges it
/// crossed) is kept, and the next answer is the shortest path through the part of it ahead of
/// the start (the funnel, smooth/funnel.hpp), found without a search, as Recast/Detour's path
/// corridor does. The mesh is built anew for each version, so the corridor is kept as geometry:
/// the hull of each two consecutive portals lies in the polygon between them, and a start in one
/// of those hulls is in the corridor. The replanner searches again (and keeps the new corridor)
/// when the start lies in none of them; when an edit changed free space within reach of a path
/// as short as the corridor's (a changed box, FreeSpace::edit_extent, meets the ellipse of the
/// points whose distances to the start and the goal add up to at most its length: only there
/// can an edit block that path or open a shorter way); and in scenes with weighted regions
/// unless the mesh is searched by Polyanya (the funnel shortens; the graph search minimises
/// cost). An agent that follows its path keeps getting the answer a fresh search gives: with
/// navmesh.search=optimal, from a point of the last path the rest of it is a shortest path
/// (Polyanya's corridor holds it), and edits out of reach leave it so. From elsewhere in the
/// corridor the answer is the corridor's shortest path, which a fresh search may beat through
/// other polygons.
///
/// Each answer goes through the version's Planner (Planner::plan_with): the same checks of the
/// start and goal, the same smoothing and exact validation as plan().

#include <cmath>
#include <cstdint>
#include <memory>

#include "polynav/plan/editable_planner.hpp"

namespace polynav {

class Replanner {
 public:
  /// Follows `goal` on `live`, which must outlive it. Nothing is searched until plan().
  /// @throws InputError (key "method" or "grid.search") unless live's method is the navmesh
  ///         (any navmesh.* option) or the grid searched for cheapest grid paths (grid.search
  ///         astar, jps or jps+; any alignment, connectivity and tie rule; terrain costs and
  ///         heights, whose climb limit makes some moves one way, included).
  Replanner(const EditablePlanner& live, Point goal);
  ~Replanner();
  Replanner(const Replanner&) = delete;
  Replanner& operator=(const Replanner&) = delete;

  /// The path from `start` to the goal on live's current version, as that version's Planner
  /// answers plan(start, goal) (status, checks, smoothing, validation); stats.expanded counts
  /// the nodes this repair expanded (none where a mesh's corridor was followed). Not thread-safe:
  /// one Replanner per agent, while edits and other queries go on from any thread.
  PlanResult plan(Point start);

  /// What the last plan() reused.
  struct Repair {
    std::uint64_t version = 0;      ///< the version it planned on
    bool fresh = true;              ///< searched from scratch (see below), not repaired
    std::size_t changed_nodes = 0;  ///< grid nodes whose moves differ from the version before
    /// The raw path's cost on the grid, its length on a mesh (infinite: none found).
    double cost = INFINITY;
    /// On a mesh: the portals of the corridor ahead of the start (followed, or just found).
    std::size_t portals = 0;
  };
  /// On a grid, the nodes compared between versions are those near what the edits touched (the old
  /// and new places of each obstacle and region changed, grown by the agent's radius), or every
  /// node where a clearance cost reaches farther or the first region came or the last went.
  /// A search starts from scratch on the first plan(), after a plan() whose start or goal
  /// joined no grid node, when the version's grid has other dimensions (edits of obstacles and
  /// regions keep the grid's frame, so they do not), and when an edit changed the cheapest cost
  /// multiplier of the scene (a region cheaper than any before, or the cheapest removed), which
  /// scales the heuristic everywhere.
  const Repair& last_repair() const;

 private:
  struct State;
  std::unique_ptr<State> state_;
};

}  // namespace polynav
