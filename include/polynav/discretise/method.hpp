#pragma once
/// @file
/// Method: a built discretisation together with how its queries are searched, what the
/// registry's rows build (plan/registry.hpp) and the Planner queries. Most methods are a
/// discretisation searched by the query driver's A* (MethodOf<D>); a method searched its own way
/// (Theta* and central paths on the grid, discretise/grid/grid_methods.hpp; Polyanya on the
/// navigation mesh, discretise/navmesh/navmesh_method.hpp) lives in its discretisation's folder,
/// attaches its ends through attach_ends and keeps its search state in the QueryWorkspace.
///
/// The words, once: a *Discretisation* is the const structure (nodes, arcs, attach, corridors,
/// primitives); a *Method* is one built and ready to be queried; a *MethodEntry* is a registry
/// row (name, options, factory).

#include <algorithm>
#include <cstddef>
#include <span>
#include <utility>

#include "polynav/discretise/query.hpp"

namespace polynav {

/// A built discretisation together with how to query it: the registry's factories return these,
/// so that the query driver runs over each method's concrete type.
class Method {
 public:
  virtual ~Method() = default;
  virtual const Discretisation& discretisation() const = 0;
  virtual RawPath find_path(Point start, Point goal, const QueryOptions& options,
                            QueryWorkspace& workspace) const = 0;
  virtual RawPath find_path_to_any(Point start, std::span<const Point> goals,
                                   const QueryOptions& options, QueryWorkspace& workspace,
                                   std::size_t& reached_goal) const = 0;
  virtual Reach reach(Point from, double max_cost, QueryWorkspace& workspace) const = 0;
  /// A path from start to the cheapest end `flee` admits (find_path_away): by default to the
  /// cheapest of `places` (a goal set), which a method searched its own way inherits; a method
  /// searched by the driver's A* also ends at its admitted nodes. `reached_place` is the index
  /// of the place reached, places.size() when the path ends at a node or nowhere.
  virtual RawPath find_path_away(Point start, const FleeGoal& flee, std::span<const Point> places,
                                 const QueryOptions& options, QueryWorkspace& workspace,
                                 std::size_t& reached_place) const {
    (void)flee;
    if (places.empty()) {
      reached_place = 0;
      RawPath out;
      out.method = discretisation().method();
      out.status = search::SearchStatus::no_path;
      out.message = "no_path: no free place at least the flee distance from every threat";
      return out;
    }
    return find_path_to_any(start, places, options, workspace, reached_place);
  }
  /// Readies a workspace for this method's queries before the first one, so that the first
  /// query neither allocates nor first touches its search state. By default the driver's A*
  /// arrays: for every node and a query's start and goal, or, where the queries search a graph
  /// that reaches few of the nodes (Discretisation::sparse_search), a slot per node and room
  /// for a share of them. A method with search state of its own makes it in
  /// QueryWorkspace::state, sized to the method.
  virtual void prepare(QueryWorkspace& workspace) const {
    const Discretisation& d = discretisation();
    const std::size_t nodes = d.node_count() + 2;
    if (d.sparse_search()) {
      workspace.astar.reserve_sparse(nodes, std::min<std::size_t>(nodes, std::size_t{1} << 14));
    } else {
      workspace.astar.reserve(nodes);
    }
  }
};

/// The Method of a concrete discretisation, built in place.
template <SearchableDiscretisation D>
class MethodOf final : public Method {
 public:
  template <class... Args>
  explicit MethodOf(Args&&... args) : d_(std::forward<Args>(args)...) {}
  const D& get() const { return d_; }
  const Discretisation& discretisation() const override { return d_; }
  RawPath find_path(Point start, Point goal, const QueryOptions& options,
                    QueryWorkspace& workspace) const override {
    return polynav::find_path(d_, start, goal, options, workspace);
  }
  RawPath find_path_to_any(Point start, std::span<const Point> goals, const QueryOptions& options,
                           QueryWorkspace& workspace, std::size_t& reached_goal) const override {
    return polynav::find_path_to_any(d_, start, goals, options, workspace, reached_goal);
  }
  Reach reach(Point from, double max_cost, QueryWorkspace& workspace) const override {
    return polynav::reach(d_, from, max_cost, workspace);
  }
  RawPath find_path_away(Point start, const FleeGoal& flee, std::span<const Point> places,
                         const QueryOptions& options, QueryWorkspace& workspace,
                         std::size_t& reached_place) const override {
    return polynav::find_path_away(d_, start, flee, places, options, workspace, reached_place);
  }

 private:
  D d_;
};

}  // namespace polynav
