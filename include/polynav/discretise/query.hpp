#pragma once
/// @file
/// The one query driver: every discretisation is searched through here. It attaches the start
/// and goal (Discretisation::attach), rules out different components without a search, runs the
/// one A* over the discretisation's concrete type (so neighbours are never reached through a
/// virtual call), records expanded nodes through a listener when asked, and returns the raw path
/// with its node ids and, for methods with regions, its corridor of portals.
///
/// A discretisation is const; all search state of a query lives in a QueryWorkspace, one per
/// thread (the Planner keeps a pool of them and lends one per query): the driver's A*, its
/// attachments, and whatever a method searched its own way keeps there (QueryWorkspace::state).

#include <algorithm>
#include <chrono>
#include <concepts>
#include <limits>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include "polynav/discretise/discretisation.hpp"
#include "polynav/kernel/exact.hpp"
#include "polynav/search/astar.hpp"

namespace polynav {

/// A path through a discretisation, before smoothing.
struct RawPath {
  search::SearchStatus status = search::SearchStatus::invalid_query;
  std::string message;        ///< one line on what happened (why not found, which limit, a note)
  std::vector<Point> points;  ///< start .. goal (found) or start .. closest node (partial)
  std::vector<search::NodeId> nodes;  ///< the discretisation's nodes along the path, in order
  std::vector<Segment> corridor;      ///< the portals between them (Discretisation::corridor)
  /// The corridor is known: the method has corridors (Discretisation::has_corridors) and could
  /// state this path's exactly.
  bool has_corridor = false;
  bool method_has_corridors = false;  ///< Discretisation::has_corridors
  std::string_view method;            ///< the discretisation's name (Discretisation::method)
  double graph_cost = 0.0;            ///< the cost the search minimised (the graph's own arc costs)
  search::SearchStats stats;
  std::vector<Point> expanded;  ///< positions of the expanded nodes, when requested
  /// The heading (radians, counter-clockwise from +x) at every point of `points`, for methods
  /// that plan poses (hybrid); empty for the others.
  std::vector<double> headings;
  /// A certified lower bound on the cost of every path from start to goal in free space, for
  /// methods that state one (weighted); empty otherwise.
  std::optional<double> lower_bound;
};

/// How one query is searched.
struct QueryOptions {
  search::SearchOptions search;  ///< weight, limits, partial fallback, beam width
  bool record_expanded = false;  ///< fill RawPath::expanded (for pictures)
  /// The raw path will be smoothed, so which of the equally cheap paths it is matters (the grid's
  /// automatic tie rule, GridTies::automatic, picks by it).
  bool smoothed = false;
  /// Fill RawPath::corridor. Stating a corridor walks the whole path cell by cell or polygon by
  /// polygon, a third of a short grid query's time, so the Planner asks for it only where a
  /// smoother uses it (funnel) or its caller does (PlanOptions::corridor). Without it
  /// has_corridor is false.
  bool corridor = true;
};

/// Where a flee query may end: any free point at least `distance` in a straight line from every
/// threat (the end of a path that runs away from them).
struct FleeGoal {
  std::span<const Point> threats;
  double distance = 0.0;  ///< >= 0, finite
  /// The least cost multiplier of the scene (FreeSpace::min_cost), which scales the heuristic.
  double min_cost = 1.0;

  /// Whether p is at least `distance` from every threat, decided exactly.
  bool admits(Point p) const {
    return std::all_of(threats.begin(), threats.end(),
                       [&](Point t) { return exact::compare_distance(p, t, distance) >= 0; });
  }
  /// A lower bound on the straight-line distance still to go from p to an admitted point: how
  /// far p lies inside the nearest threat's circle, for the one it lies deepest in (any path out
  /// of that circle is at least that long); 0 when p is admitted.
  double shortfall(Point p) const {
    double most = 0.0;
    for (const Point& t : threats) most = std::max(most, distance - polynav::distance(p, t));
    return most;
  }
};

/// The search state of one query at a time; reuse one per thread so that nothing is allocated
/// per query once it has grown to the graph.
class QueryWorkspace {
 public:
  search::AStar astar;
  search::SearchResult result;
  search::ReachableSet reached;
  std::vector<Attachment> from;                    // the start's arcs
  std::vector<std::vector<Attachment>> goal_arcs;  // per goal, for searches with goal nodes
  std::vector<search::NodeId> goal_nodes;          // the nodes goals attach to (query graphs)
  std::vector<search::NodeId> extra_goal_nodes;    // the goals' own nodes in a goal-set search
  std::vector<Point> bends;                        // the bends of one arc (arc_points)

  QueryWorkspace() = default;
  QueryWorkspace(const QueryWorkspace&) = delete;
  QueryWorkspace& operator=(const QueryWorkspace&) = delete;

  /// The object of type T that this workspace keeps for searches that are not the driver's
  /// plain A* (an engine such as Theta*'s or Polyanya's, a graph adaptor, a buffer), made from
  /// args on first use and kept, memory and all, for the next query. One per type.
  template <class T, class... Args>
  T& state(Args&&... args) {
    for (const Slot& s : slots_)
      if (s.type == &type_tag<T>) return *static_cast<T*>(s.object.get());
    slots_.push_back({&type_tag<T>, Owned(new T(std::forward<Args>(args)...),
                                          [](void* p) { delete static_cast<T*>(p); })});
    return *static_cast<T*>(slots_.back().object.get());
  }

 private:
  template <class T>
  static constexpr char type_tag = 0;  // its address names T
  using Owned = std::unique_ptr<void, void (*)(void*)>;
  struct Slot {
    const void* type;
    Owned object;
  };
  std::vector<Slot> slots_;
};

/// A discretisation the driver can search: a search graph with an admissible heuristic.
/// `d.heuristic(goal_attachments, goal)` returns a callable h(NodeId) -> double that never
/// overestimates the cost from a node of the graph to the goal point through those attachments.
template <class D>
concept SearchableDiscretisation = std::derived_from<D, Discretisation> && search::SearchGraph<D> &&
    requires(const D& d, std::span<const Attachment> goals, Point goal, search::NodeId n) {
  { d.heuristic(goals, goal)(n) } -> std::convertible_to<double>;
};

/// A discretisation that is searched, query by query, through a graph of its own over the same
/// node ids instead of through its own arcs: jump point search (discretise/grid/
/// jump_point_grid.hpp), whose successors depend on the goal nodes and on the parent the search
/// gave a node. `d.query_graph(workspace, goal_nodes)` returns a std::optional of that graph (a
/// SearchGraph to be searched by the workspace's A* only, which may keep buffers in the
/// workspace's state), or nothing to search d itself.
template <class D>
concept HasQueryGraph = requires(const D& d, QueryWorkspace& ws,
                                 std::span<const search::NodeId> goals) {
  { *d.query_graph(ws, goals) } -> search::SearchGraph;
};

/// A discretisation with a note for every result (how it searched), e.g. that it fell back to
/// another search: `d.query_note()`, empty when there is nothing to say.
template <class D>
concept HasQueryNote = requires(const D& d) {
  { d.query_note() } -> std::convertible_to<std::string_view>;
};

/// Attaches a query's ends to d: the start into ws.from, goal i into ws.goal_arcs[i]; `direct`
/// (empty, or one per goal) marks goals joined to the start straight (Discretisation::
/// direct_cost). Rules out without a search a query whose start, or every goal, joins no node
/// (Discretisation::unattached_status and _reason) and one whose start shares a connected
/// component of the graph (Discretisation::components) with no goal: then out says so and the
/// answer is false. Every method that searches attached ends goes through here, the driver's A*
/// and Theta* alike, so each query's component check is made once, here.
template <class D>
bool attach_ends(const D& d, Point start, std::span<const Point> goals,
                 std::span<const std::optional<double>> direct, QueryWorkspace& ws, RawPath& out) {
  const auto refuse = [&](search::SearchStatus status, std::string message) {
    out.status = status;
    out.message = std::move(message);
    return false;
  };
  d.attach(start, AttachDirection::from_point, ws.from);
  if (ws.from.empty()) return refuse(d.unattached_status(), d.unattached_reason("start"));
  ws.goal_arcs.resize(goals.size());
  bool any_goal = false;
  for (std::size_t i = 0; i < goals.size(); ++i) {
    d.attach(goals[i], AttachDirection::to_point, ws.goal_arcs[i]);
    any_goal = any_goal || !ws.goal_arcs[i].empty() || (!direct.empty() && direct[i]);
  }
  if (!any_goal) return refuse(d.unattached_status(), d.unattached_reason("goal"));
  const search::ComponentLabels* labels = d.components();
  if (labels == nullptr) return true;
  for (std::size_t i = 0; i < goals.size(); ++i) {
    if (!direct.empty() && direct[i]) return true;
    for (const Attachment& a : ws.from)
      for (const Attachment& b : ws.goal_arcs[i])
        if (labels->same_component(a.node, b.node)) return true;
  }
  return refuse(search::SearchStatus::no_path,
                goals.size() == 1
                    ? "no_path: start and goal attach to different connected components of the " +
                          std::string(d.graph_noun())
                    : std::string("no_path: no goal of the set is reachable from the start"));
}

namespace detail {

// The discretisation's heuristic towards a goal; from the start's attachments too where it takes
// them (`d.heuristic(starts, goals, goal)`: it may tune itself to the query, as the navigation
// mesh's landmarks do).
template <class D>
auto heuristic_of(const D& d, std::span<const Attachment> starts, std::span<const Attachment> goals,
                  Point goal) {
  if constexpr (requires { d.heuristic(starts, goals, goal); }) {
    return d.heuristic(starts, goals, goal);
  } else {
    return d.heuristic(goals, goal);
  }
}

// Calls f with the graph a query searches: d's query graph for these goal nodes when it has one,
// else d itself.
template <class D, class F>
void with_search_graph(const D& d, QueryWorkspace& ws, std::span<const search::NodeId> goals,
                       F&& f) {
  if constexpr (HasQueryGraph<D>) {
    if (const auto graph = d.query_graph(ws, goals)) {
      f(*graph);
      return;
    }
  }
  f(d);
}

// Adds the discretisation's note, if any, to the path's message.
template <class D>
void add_note(const D& d, RawPath& out) {
  if constexpr (HasQueryNote<D>) {
    const std::string_view note = d.query_note();
    if (note.empty()) return;
    out.message = out.message.empty() ? std::string(note) : out.message + "; " + std::string(note);
  }
}

// The workspace's graph adaptor over `base`, emptied of the previous query's extra nodes.
template <class G>
search::AugmentedGraph<G>& augmented(QueryWorkspace& ws, const G& base) {
  search::AugmentedGraph<G>& graph = ws.state<search::AugmentedGraph<G>>(base);
  graph.rebind(base);
  return graph;
}

// Collects the positions of expanded nodes of the discretisation (not the query's own nodes).
template <class D>
struct ExpandedRecorder {
  const D* discretisation;
  std::vector<Point>* out;
  void examine(search::NodeId n) {
    if (n < discretisation->node_count()) out->push_back(discretisation->node_position(n));
  }
  void relax(search::NodeId, search::NodeId, double) {}
  void finish(search::NodeId) {}
};

// The raw path's points: start, the nodes with the bends of the arcs between them (a point equal
// to the one before is not repeated), then the goal when it was reached; and its corridor.
template <class D>
void trace_points(const D& d, Point start, Point goal, QueryWorkspace& ws, RawPath& out) {
  // Room for the ends, the nodes and one bend between each two (a jump's): one allocation.
  out.points.reserve(2 * out.nodes.size() + 2);
  out.points.push_back(start);
  const auto add = [&](Point p) {
    if (!(p == out.points.back())) out.points.push_back(p);
  };
  std::vector<Point>& bends = ws.bends;
  for (std::size_t k = 0; k < out.nodes.size(); ++k) {
    if (k > 0) {
      bends.clear();
      d.arc_points(out.nodes[k - 1], out.nodes[k], bends);
      for (const Point& p : bends) add(p);
    }
    add(d.node_position(out.nodes[k]));
  }
  if (out.status == search::SearchStatus::found) add(goal);
}

// The raw path's corridor, from its first point through its nodes to its last, when asked for.
template <class D>
void set_corridor(const D& d, const QueryOptions& options, RawPath& out) {
  if (!options.corridor) {
    out.has_corridor = false;
    return;
  }
  std::optional<std::vector<Segment>> corridor =
      d.corridor(out.points.front(), out.nodes, out.points.back());
  out.has_corridor = corridor.has_value();
  if (corridor) out.corridor = std::move(*corridor);
}

// A discretisation that chooses how its searches break ties between open nodes of equal f
// (the grid: `d.tie_break(search, smoothed)`, a search::TieBreak from its options, the search's
// options and whether the raw path will be smoothed).
template <class D>
concept HasTieBreak = requires(const D& d, const search::SearchOptions& search, bool smoothed) {
  { d.tie_break(search, smoothed) } -> std::same_as<search::TieBreak>;
};

template <class D, class G, class H>
void run_search(const D& d, const G& graph, search::NodeId s, std::span<const search::NodeId> goals,
                const H& h, const QueryOptions& options, QueryWorkspace& ws, RawPath& out) {
  const search::SearchOptions* search = &options.search;
  search::SearchOptions with_ties;
  if constexpr (HasTieBreak<D>) {
    with_ties = options.search;
    with_ties.ties = d.tie_break(options.search, options.smoothed);
    search = &with_ties;
  }
  if (options.record_expanded) {
    ws.astar.search(graph, s, goals, h, *search, ws.result, ExpandedRecorder<D>{&d, &out.expanded});
  } else {
    ws.astar.search(graph, s, goals, h, *search, ws.result);
  }
}

// A graph whose search its start's expansion may decide, and says so without the search (jump
// point search: JumpPointGrid::Graph::start_reaches_goal).
template <class G>
concept DecidedAtStart = requires(const G& g, search::NodeId start) {
  { g.start_reaches_goal(start) } -> std::same_as<std::optional<double>>;
};

// Answers a search from start to goal without one, into out as the search would, when the graph
// says its start's expansion ends it (the goal its one successor, at that cost) and nothing in
// the options could end the search otherwise: a valid weight, no beam, no time limit (a search
// reads the clock before its first expansion), and, as the search's own budget says, valid
// limits, room for one expansion and the cost within max_cost; nor when the expanded nodes are
// recorded. The budget's clock gives the time, where the options ask for it. Returns whether it
// answered.
template <class G>
bool decide_at_start(const G& graph, search::NodeId start, search::NodeId goal,
                     const QueryOptions& options, search::SearchResult& out) {
  if constexpr (DecidedAtStart<G>) {
    const search::SearchOptions& o = options.search;
    if (options.record_expanded || !(o.weight >= 1.0) || o.beam_search() ||
        o.max_time != std::chrono::nanoseconds::max())
      return false;
    const search::SearchBudget budget = search::budget_of(o);
    if (!budget.valid(out) || budget.before_expansion(0) != search::SearchLimit::none)
      return false;  // the search then writes out whole
    const std::optional<double> cost = graph.start_reaches_goal(start);
    if (!cost || budget.beyond_cost(*cost)) return false;
    out.reset();
    out.status = search::SearchStatus::found;
    out.path.push_back(start);
    out.path.push_back(goal);
    out.cost = *cost;
    out.start = start;
    out.reached = goal;
    out.reached_h = 0.0;
    out.node_count = graph.node_count();
    out.stats.expanded = 1;   // the start's jumps, made without the open list
    out.stats.generated = 1;  // the goal
    out.stats.elapsed = budget.elapsed();
    return true;
  } else {
    (void)graph, (void)start, (void)goal, (void)options, (void)out;
    return false;
  }
}

// A* from an extra start node (the arcs of ws.from) to one extra node per goal (the arcs of
// ws.goal_arcs[i], and direct[i] straight from the start where the method has one), without
// copying the graph; fills out and returns the index of the goal reached (goals.size() when
// none was).
template <class D>
std::size_t search_to_goals(const D& d, Point start, std::span<const Point> goals,
                            std::span<const std::optional<double>> direct,
                            const QueryOptions& options, QueryWorkspace& ws, RawPath& out) {
  const std::size_t base = d.node_count();  // goal i is node base + 1 + i
  ws.goal_nodes.clear();
  for (std::size_t i = 0; i < goals.size(); ++i)
    for (const Attachment& b : ws.goal_arcs[i]) ws.goal_nodes.push_back(b.node);
  using H = decltype(heuristic_of(d, ws.from, std::span<const Attachment>{}, Point{}));
  std::vector<H>& per_goal = ws.state<std::vector<H>>();  // the heuristic towards each goal
  per_goal.clear();
  for (std::size_t i = 0; i < goals.size(); ++i)
    per_goal.push_back(heuristic_of(d, ws.from, ws.goal_arcs[i], goals[i]));
  const auto h = [&](search::NodeId n) {
    if (n >= base) return 0.0;
    double best = std::numeric_limits<double>::infinity();
    for (const H& to_goal : per_goal) best = std::min(best, double(to_goal(n)));
    return best;
  };
  with_search_graph(d, ws, ws.goal_nodes, [&](const auto& base_graph) {
    // The adaptor keeps its memory from query to query (per workspace and graph type), so that
    // a warmed-up query allocates nothing here.
    auto& graph = augmented(ws, base_graph);
    const search::NodeId s = graph.add_node();
    for (const Attachment& a : ws.from) graph.add_arc(s, a.node, a.cost);
    std::vector<search::NodeId>& goal_nodes = ws.extra_goal_nodes;
    goal_nodes.clear();
    for (std::size_t i = 0; i < goals.size(); ++i) {
      const search::NodeId g = graph.add_node();
      goal_nodes.push_back(g);
      if (direct[i]) graph.add_arc(s, g, *direct[i]);
      for (const Attachment& b : ws.goal_arcs[i]) graph.add_arc(b.node, g, b.cost);
    }
    run_search(d, graph, s, goal_nodes, h, options, ws, out);
  });
  const search::SearchResult& result = ws.result;
  out.status = result.status;
  out.stats = result.stats;
  out.graph_cost = result.cost;
  if (out.status != search::SearchStatus::found) {
    out.message = out.status == search::SearchStatus::no_path && goals.size() > 1
                      ? "no_path: no goal of the set is reachable from the start"
                      : result.explanation();
  }
  add_note(d, out);
  if (result.path.empty()) return goals.size();
  for (search::NodeId n : result.path)
    if (n < base) out.nodes.push_back(n);
  std::size_t reached = goals.size();
  Point goal;
  if (out.status == search::SearchStatus::found) {
    reached = result.path.back() - base - 1;
    goal = goals[reached];
  }
  trace_points(d, start, goal, ws, out);
  set_corridor(d, options, out);
  return reached;
}

}  // namespace detail

/// Searches d from start to goal. Never throws for a bad query: an unattached end is reported
/// in the status and message. @pre start and goal are free points of d's FreeSpace
template <SearchableDiscretisation D>
RawPath find_path(const D& d, Point start, Point goal, const QueryOptions& options,
                  QueryWorkspace& ws) {
  RawPath out;
  out.method = d.method();
  out.method_has_corridors = out.has_corridor = d.has_corridors();
  if (const std::optional<double> cost = d.direct_cost(start, goal)) {
    out.status = search::SearchStatus::found;
    out.points = {start, goal};
    out.graph_cost = *cost;
    return out;
  }
  if (!attach_ends(d, start, std::span(&goal, 1), {}, ws, out)) return out;
  const std::vector<Attachment>& to = ws.goal_arcs[0];
  if (ws.from.size() > 1 || to.size() > 1) {
    // Extra start and goal nodes carry the attachments' arcs.
    const std::optional<double> no_direct[1];
    detail::search_to_goals(d, start, std::span(&goal, 1), no_direct, options, ws, out);
    return out;
  }
  // The usual case on grids: each end joins one node. Search the graph itself, node to node: no
  // extra nodes, so nothing but the discretisation is touched per expansion.
  const search::SearchResult& result = ws.result;
  const std::span<const search::NodeId> target(&to[0].node, 1);
  detail::with_search_graph(d, ws, target, [&](const auto& graph) {
    if (detail::decide_at_start(graph, ws.from[0].node, target[0], options, ws.result)) return;
    detail::run_search(d, graph, ws.from[0].node, target,
                       detail::heuristic_of(d, ws.from, to, goal), options, ws, out);
  });
  out.graph_cost = result.cost + ws.from[0].cost + to[0].cost;
  out.nodes = result.path;
  out.status = result.status;
  out.stats = result.stats;
  if (out.status != search::SearchStatus::found) out.message = result.explanation();
  detail::add_note(d, out);
  if (result.path.empty()) return out;
  detail::trace_points(d, start, goal, ws, out);
  detail::set_corridor(d, options, out);
  return out;
}

/// Searches d from start to the cheapest of several goals (a goal set); RawPath::points ends at
/// the goal reached, `reached_goal` says which. @pre start and every goal are free
template <SearchableDiscretisation D>
RawPath find_path_to_any(const D& d, Point start, std::span<const Point> goals,
                         const QueryOptions& options, QueryWorkspace& ws,
                         std::size_t& reached_goal) {
  RawPath out;
  out.method = d.method();
  out.method_has_corridors = out.has_corridor = d.has_corridors();
  reached_goal = goals.size();
  if (goals.empty()) {
    out.message = "the goal set is empty";
    return out;
  }
  std::vector<std::optional<double>> direct(goals.size());
  for (std::size_t i = 0; i < goals.size(); ++i) direct[i] = d.direct_cost(start, goals[i]);
  if (!attach_ends(d, start, goals, direct, ws, out)) return out;
  reached_goal = detail::search_to_goals(d, start, goals, direct, options, ws, out);
  return out;
}

/// Searches d from start to the cheapest end that `flee` admits: a node of d whose position it
/// admits or one of `places` (free points it admits, e.g. on the threats' circles, where the
/// optimum of a continuous scene lies). One A* over d's own graph (never a query graph: a jump
/// point search would skip the admitted nodes it jumps over) with every admitted end a goal and
/// the heuristic FleeGoal::shortfall scaled by the least cost multiplier, which is admissible
/// for all of them at once. `reached_place` is the index of the place reached, places.size()
/// when the path ends at a node (or nowhere). @pre start and every place are free
template <SearchableDiscretisation D>
RawPath find_path_away(const D& d, Point start, const FleeGoal& flee, std::span<const Point> places,
                       const QueryOptions& options, QueryWorkspace& ws,
                       std::size_t& reached_place) {
  RawPath out;
  out.method = d.method();
  out.method_has_corridors = out.has_corridor = d.has_corridors();
  reached_place = places.size();
  d.attach(start, AttachDirection::from_point, ws.from);
  if (ws.from.empty()) {
    out.status = d.unattached_status();
    out.message = d.unattached_reason("start");
    return out;
  }
  const std::size_t base = d.node_count();  // the start is node base, place i node base + 1 + i
  ws.goal_nodes.clear();
  for (std::size_t n = 0; n < base; ++n)
    if (flee.admits(d.node_position(search::NodeId(n)))) ws.goal_nodes.push_back(search::NodeId(n));
  ws.goal_arcs.resize(places.size());
  for (std::size_t i = 0; i < places.size(); ++i)
    d.attach(places[i], AttachDirection::to_point, ws.goal_arcs[i]);
  auto& graph = detail::augmented(ws, d);
  const search::NodeId s = graph.add_node();
  for (const Attachment& a : ws.from) graph.add_arc(s, a.node, a.cost);
  for (std::size_t i = 0; i < places.size(); ++i) {
    const search::NodeId g = graph.add_node();
    ws.goal_nodes.push_back(g);
    if (const std::optional<double> direct = d.direct_cost(start, places[i]))
      graph.add_arc(s, g, *direct);
    for (const Attachment& b : ws.goal_arcs[i]) graph.add_arc(b.node, g, b.cost);
  }
  if (ws.goal_nodes.empty()) {
    out.status = search::SearchStatus::no_path;
    out.message = "no_path: the " + std::string(d.graph_noun()) +
                  " has no place at least the flee distance from every threat";
    return out;
  }
  const auto h = [&](search::NodeId n) {
    return n >= base ? 0.0 : flee.min_cost * flee.shortfall(d.node_position(n));
  };
  detail::run_search(d, graph, s, ws.goal_nodes, h, options, ws, out);
  const search::SearchResult& result = ws.result;
  out.status = result.status;
  out.stats = result.stats;
  out.graph_cost = result.cost;
  if (out.status != search::SearchStatus::found) out.message = result.explanation();
  detail::add_note(d, out);
  if (result.path.empty()) return out;
  for (search::NodeId n : result.path)
    if (n < base) out.nodes.push_back(n);
  Point end;
  if (out.status == search::SearchStatus::found) {
    const search::NodeId last = result.path.back();
    if (last > base) {
      reached_place = last - base - 1;
      end = places[reached_place];
    } else {
      end = d.node_position(last);
    }
  }
  detail::trace_points(d, start, end, ws, out);
  detail::set_corridor(d, options, out);
  return out;
}

/// One-off search (allocates its state; keep a QueryWorkspace to reuse it).
template <SearchableDiscretisation D>
RawPath find_path(const D& d, Point start, Point goal, const QueryOptions& options = {}) {
  QueryWorkspace ws;
  return find_path(d, start, goal, options, ws);
}

/// A node within reach: its cost from the source point and its parent on a cheapest path
/// (search::no_node when it is joined to the source directly).
struct ReachedPlace {
  search::NodeId node = search::no_node;
  Point at;
  double cost = 0.0;
  search::NodeId parent = search::no_node;
};

/// Everything reachable from a point within a cost.
struct Reach {
  search::SearchStatus status = search::SearchStatus::invalid_query;
  std::string message;
  std::vector<ReachedPlace> places;  ///< in order of nondecreasing cost
  search::SearchStats stats;
};

/// Every node of d whose cheapest path from the free point `from` costs at most max_cost
/// (Dijkstra's algorithm over the graph with `from` attached). @pre from is free
template <SearchableDiscretisation D>
Reach reach(const D& d, Point from, double max_cost, QueryWorkspace& ws) {
  Reach out;
  if (!(max_cost >= 0.0)) {
    out.message = "the cost bound must be a number >= 0";
    return out;
  }
  d.attach(from, AttachDirection::from_point, ws.from);
  if (ws.from.empty()) {
    out.status = d.unattached_status();
    out.message = d.unattached_reason("start");
    return out;
  }
  search::AugmentedGraph<D>& graph = detail::augmented(ws, d);
  const search::NodeId s = graph.add_node();
  for (const Attachment& a : ws.from) graph.add_arc(s, a.node, a.cost);
  ws.astar.reachable(graph, s, max_cost, ws.reached);
  out.status = ws.reached.status;
  out.stats = ws.reached.stats;
  for (const search::ReachedNode& r : ws.reached.nodes) {
    if (r.node == s) continue;
    out.places.push_back(
        {r.node, d.node_position(r.node), r.cost, r.parent == s ? search::no_node : r.parent});
  }
  return out;
}

}  // namespace polynav
