#include "polynav/discretise/navmesh/navmesh_method.hpp"

#include <mutex>
#include <optional>
#include <span>
#include <string>

#include "polynav/discretise/navmesh/hierarchical_navmesh.hpp"
#include "polynav/discretise/navmesh/polyanya.hpp"
#include "polynav/space/free_space.hpp"

namespace polynav {
namespace {

// The navigation mesh searched by Polyanya (navmesh.search=optimal, or auto where it resolves
// to optimal): not A* over a graph, so its own Method. The polygons and point location are the
// NavMesh's; the search state (nodes, open list, best length per turning point) lives in the
// query's workspace (QueryWorkspace::state), sized by prepare. Chosen by auto, it keeps what the
// graph offered: reach, and the search options Polyanya cannot honour (partial paths, beam width,
// reopening), run over the graph of the same polygons, built on first use.
class NavMeshOptimal final : public Method {
 public:
  NavMeshOptimal(const FreeSpace& space, const NavMeshOptions& options)
      : space_(&space),
        options_(options),
        mesh_(space, options),
        search_(mesh_.partition()),
        weighted_(space.weighted()),
        automatic_(options.search == NavMeshSearch::automatic) {}

  const Discretisation& discretisation() const override { return mesh_; }

  void prepare(QueryWorkspace& workspace) const override {
    search_.prepare(state(workspace).workspace);
  }

  RawPath find_path(Point start, Point goal, const QueryOptions& options,
                    QueryWorkspace& workspace) const override {
    if (for_graph(options)) return polynav::find_path(graph(), start, goal, options, workspace);
    // No check first for one polygon holding both ends: the search's first node is then the
    // straight segment, found at once, and locating the ends twice cost more than that on every
    // other query.
    std::size_t reached = 0;
    return run(start, std::span(&goal, 1), options, workspace, reached);
  }

  RawPath find_path_to_any(Point start, std::span<const Point> goals, const QueryOptions& options,
                           QueryWorkspace& workspace, std::size_t& reached_goal) const override {
    if (for_graph(options))
      return polynav::find_path_to_any(graph(), start, goals, options, workspace, reached_goal);
    if (goals.empty()) {
      reached_goal = 0;
      RawPath out = empty();
      out.message = "the goal set is empty";
      return out;
    }
    return run(start, goals, options, workspace, reached_goal);
  }

  Reach reach(Point from, double max_cost, QueryWorkspace& workspace) const override {
    if (automatic_) return polynav::reach(graph(), from, max_cost, workspace);
    Reach out;
    out.message =
        "reach needs a graph, and navmesh.search=optimal builds none; use navmesh.search=graph "
        "or auto";
    return out;
  }

 private:
  // Polyanya's search state, kept in the query's workspace.
  struct State {
    PolyanyaWorkspace workspace;
    PolyanyaResult result;
  };

  State& state(QueryWorkspace& workspace) const { return workspace.state<State>(); }

  // Whether auto's query goes to the graph: options that only a graph search honours.
  bool for_graph(const QueryOptions& options) const {
    const search::SearchOptions& s = options.search;
    return automatic_ && (s.partial_fallback || s.reopen_closed || s.beam_search());
  }

  // The graph over the same polygons (vertex nodes, landmarks), for auto's reach and graph-only
  // options; built once, by the first thread that needs it, over the mesh's own partition.
  const NavMesh& graph() const {
    std::call_once(graph_once_, [this] {
      NavMeshOptions o = options_;
      o.search = NavMeshSearch::graph;
      graph_ = std::make_unique<const NavMesh>(*space_, mesh_.shared_partition(), o);
    });
    return *graph_;
  }

  RawPath empty() const {
    RawPath out;
    out.method = mesh_.method();
    out.method_has_corridors = true;
    out.has_corridor = false;
    return out;
  }

  // Said with every path found in a scene with weighted regions, as the visibility graph's
  // lengths are: Polyanya minimises length.
  std::string note() const {
    return weighted_ ? "navmesh.search=optimal minimises length: in this weighted scene the path "
                       "is the shortest, not the cheapest"
                     : std::string();
  }

  RawPath run(Point start, std::span<const Point> goals, const QueryOptions& options,
              QueryWorkspace& workspace, std::size_t& reached_goal) const {
    State& s = state(workspace);
    PolyanyaResult& r = s.result;
    search_.search(start, goals, options.search, options.record_expanded, s.workspace, r);
    RawPath out = empty();
    out.status = r.status;
    out.stats = r.stats;
    out.expanded = std::move(r.expanded);
    reached_goal = r.status == search::SearchStatus::found ? r.goal : goals.size();
    switch (r.status) {
      case search::SearchStatus::found:
        out.points = r.points;
        if (options.corridor) out.corridor = r.corridor;
        out.has_corridor = options.corridor;
        out.graph_cost = r.length;
        out.message = note();
        break;
      case search::SearchStatus::no_path:
        out.message =
            "no path: no goal is reachable from the start through the navigation mesh "
            "(expanded " +
            std::to_string(r.stats.expanded) + " nodes, all that are reachable)";
        break;
      case search::SearchStatus::limit_reached:
        out.message = search::limit_reached_explanation(r.limit, r.limit_value, r.stats);
        break;
      default:
        out.message = "the start or the goal lies in no polygon of the navigation mesh";
        break;
    }
    return out;
  }

  const FreeSpace* space_;
  NavMeshOptions options_;
  NavMesh mesh_;
  Polyanya search_;
  bool weighted_;
  bool automatic_;  // navmesh.search=auto chose Polyanya
  mutable std::once_flag graph_once_;
  mutable std::unique_ptr<const NavMesh> graph_;
};

}  // namespace

std::unique_ptr<Method> make_navmesh_polyanya(const FreeSpace& space,
                                              const NavMeshOptions& options) {
  return std::make_unique<NavMeshOptimal>(space, options);
}

std::unique_ptr<Method> make_navmesh_method(const FreeSpace& space, const NavMeshOptions& options) {
  // The mesh resolves auto itself, the same way, and remembers that it was asked for.
  const NavMeshSearch search = resolve_navmesh_search(space, options);
  if (search == NavMeshSearch::optimal) return make_navmesh_polyanya(space, options);
  if (search == NavMeshSearch::hierarchical)
    return std::make_unique<HierarchicalNavMeshMethod>(space, options);
  return std::make_unique<MethodOf<NavMesh>>(space, options);
}

}  // namespace polynav
