#pragma once
/// @file
/// The one A* of polynav (Hart, Nilsson and Raphael 1968), with weighted A* (Pohl 1970), goal
/// sets, limits, a partial-path fallback, reopening, beam search and cost-bounded reachability.
/// Dijkstra's algorithm is the same search with ZeroHeuristic.

#include <algorithm>
#include <bit>
#include <chrono>
#include <concepts>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <limits>
#include <span>
#include <type_traits>
#include <utility>
#include <vector>

#include "polynav/search/budget.hpp"
#include "polynav/search/components.hpp"
#include "polynav/search/d_ary_heap.hpp"
#include "polynav/search/graph.hpp"
#include "polynav/search/search_result.hpp"

namespace polynav::search {

/// A heuristic: `h(n)` estimates the cost from n to the nearest goal. It must return a value
/// >= 0, never NaN; +infinity is allowed for a node known not to reach any goal. It is evaluated
/// at most once per node per search (A* caches it).
///
/// - admissible (h(n) <= true cost to the nearest goal): A* returns an optimal path, provided
///   the heuristic is also consistent or SearchOptions::reopen_closed is set;
/// - consistent (h(u) <= cost(u, v) + h(v) for every arc): no node is ever expanded twice.
///
/// With several goals it is the caller's job to make h a bound for the nearest one, e.g. the
/// minimum of the per-goal estimates.
template <class H>
concept Heuristic =
    std::invocable<H&, NodeId> && std::convertible_to < std::invoke_result_t<H&, NodeId>,
double > ;

/// h = 0: turns A* into Dijkstra's algorithm.
struct ZeroHeuristic {
  constexpr double operator()(NodeId) const noexcept { return 0.0; }
};

/// Receives search events, named after Boost.Graph's visitor events:
/// - `examine(n)`: n was taken from the open list and is about to be expanded;
/// - `relax(from, to, g)`: the arc from -> to gave `to` a better cost g (to is opened or updated);
/// - `finish(n)`: every arc of n was scanned.
/// Each call of `examine` is counted in SearchStats::expanded and followed by one `finish`.
template <class L>
concept SearchListener = requires(L& l, NodeId n, double g) {
  l.examine(n);
  l.relax(n, n, g);
  l.finish(n);
};

/// The default listener: does nothing, and compiles to nothing.
struct NullListener {
  constexpr void examine(NodeId) const noexcept {}
  constexpr void relax(NodeId, NodeId, double) const noexcept {}
  constexpr void finish(NodeId) const noexcept {}
};

/// Which open node of least f is expanded first. Ties are real only where arc costs add up
/// exactly (the grid's fixed-point costs); where costs equal only up to rounding, the rounding
/// decides among them whatever the policy.
enum class TieBreak : std::uint8_t {
  /// The deepest first (largest g), which on grids and meshes avoids expanding whole plateaus of
  /// equally good nodes; among equal f and g, the order of the indexed heap.
  larger_g,
  /// The shallowest first (smallest g); among equal f and g, the order of the indexed heap.
  smaller_g,
  /// The most recently opened or improved first: a stack among equal f.
  lifo,
  /// The earliest opened or improved first: a queue among equal f.
  fifo,
  /// The smallest rank the heuristic gives, `h.tie_rank(n)` (an unsigned integer), e.g. the
  /// grid's distance from the straight line between start and goal; larger_g for a heuristic
  /// without ranks. Among equal f and rank, the order of the indexed heap.
  rank,
  /// f alone, in the order of a binary heap holding one entry per improvement: the layout of
  /// std::priority_queue, where an entry never rises above an equal one, an improved node is
  /// pushed again and its stale entries are skipped when they surface. This is the open list of
  /// the Central64 reference implementation's regular A* (Goldstein et al., Autodesk Research
  /// 2022), so that with its move order a search returns the same path. No beam search.
  binary_heap,
};

/// How a search runs. The defaults give plain, unbounded A*.
struct SearchOptions {
  /// Heuristic weight w of weighted A* (Pohl 1970): nodes are ordered by g + w·h. With an
  /// admissible h the path found costs at most w times the optimum, usually after far fewer
  /// expansions. Closed nodes are not reopened for w > 1 (unless reopen_closed), which keeps
  /// the bound. [Limit: >= 1] [Default: 1, plain A*]
  double weight = 1.0;

  /// Paths costing more than this are not wanted: a node whose g + h exceeds it is never opened.
  /// If that keeps every goal out of reach the status is limit_reached with limit == cost (the
  /// search cannot tell "too far" from "unreachable" without exploring past the bound).
  /// [Limit: >= 0] [Units: arc cost] [Default: +infinity, no limit]
  double max_cost = std::numeric_limits<double>::infinity();

  /// Most nodes to expand; reaching it ends the search with limit == expansions. A goal popped
  /// from the open list is not an expansion, so max_expansions = k finds any goal whose search
  /// needs at most k expansions. [Limit: >= 0] [Default: no limit]
  std::uint64_t max_expansions = std::numeric_limits<std::uint64_t>::max();

  /// Wall-clock budget of the search, checked every 64 expansions; running out ends the search
  /// with limit == time. [Limit: >= 0] [Units: ns] [Default: no limit]
  std::chrono::nanoseconds max_time = std::chrono::nanoseconds::max();

  /// When no goal is reached (unreachable, or a limit), return the path to the reached node with
  /// the smallest heuristic value (ties: the smaller g) with status partial, instead of no_path
  /// or limit_reached. "Reached" means given a finite g, expanded or not. [Default: false]
  bool partial_fallback = false;

  /// Put a closed node back in the open list when a cheaper path to it turns up. Needed for
  /// optimality with an admissible but inconsistent heuristic; never happens with a consistent
  /// one (then the flag only costs a predictable branch). [Default: false]
  bool reopen_closed = false;

  /// Most nodes in the open list; when a push exceeds it the node with the worst (f, -g) is
  /// dropped (beam search). Paths stay valid but lose optimality and completeness; a search
  /// that drops nodes and finds no goal ends with limit == beam_width. Each drop costs
  /// O(beam_width). [Limit: >= 1] [Default: unbounded]
  std::size_t beam_width = std::numeric_limits<std::size_t>::max();

  /// Connected-component labels of the graph (or of its base graph when searching an
  /// AugmentedGraph). When the start and every goal are labelled and no goal shares the start's
  /// label, the answer is no_path in O(goals) without searching. Nodes with ids beyond the labels
  /// disable the shortcut, as does partial_fallback (the closest node needs a search).
  /// Must outlive the call. [Default: none]
  const ComponentLabels* components = nullptr;

  /// Which open node of least f comes first (TieBreak). [Default: larger_g]
  TieBreak ties = TieBreak::larger_g;

  /// Measure the call's wall time into SearchStats::elapsed (two readings of the clock). A
  /// caller that times the search itself, as the Planner does, turns it off: the readings were a
  /// tenth of a short grid query. A time limit reads the clock either way. [Default: true]
  bool measure_time = true;

  /// Whether beam_width bounds the open list (beam search).
  bool beam_search() const noexcept {
    return beam_width != std::numeric_limits<std::size_t>::max();
  }
};

/// The budget of one search with these options (search/budget.hpp); its clock starts now.
inline SearchBudget budget_of(const SearchOptions& o) {
  return SearchBudget(o.max_cost, o.max_expansions, o.max_time, o.beam_width, o.measure_time);
}

/// One node of a reachability query: its cost from the source and its parent on a cheapest path
/// (no_node for the source).
struct ReachedNode {
  NodeId node = no_node;
  double cost = 0.0;
  NodeId parent = no_node;
};

/// The answer to a reachability query. Reuse one object across queries to avoid allocating.
struct ReachableSet {
  /// found when the query was valid (even if only the source is within the bound), else
  /// invalid_query (source out of range, bound NaN or negative).
  SearchStatus status = SearchStatus::invalid_query;
  /// Every node with cost <= the bound, in order of nondecreasing cost, the source first.
  std::vector<ReachedNode> nodes;
  SearchStats stats;
};

/// A* search state and algorithm, reusable across queries and graphs.
///
/// Data layout (why):
/// - Search state lives in flat arrays indexed by NodeId, split by temperature. A 16-byte hot
///   record (g, parent, and a tag: stamp, state, goal) is read for every arc scanned and written
///   when a node improves; the cached heuristic (8 bytes) is read only when a node is opened or
///   improved. Most arcs lead to nodes already settled no cheaper, so the hot array alone
///   decides them, four nodes to a cache line. With the heap's position, a dense search keeps
///   28 bytes a node.
/// - A SparseSearchGraph (jump point search) reaches few of its nodes, so its records are made
///   as the search reaches nodes, in that order, and found by node in a hash table (open
///   addressing, linear probing, at most half full; the next search clears the entries of the
///   records it made). Its memory is then 12 to 24 bytes per record of the largest search, and
///   nothing per node: a slot per node was 4 bytes a cell of a large map, faulted in at build and
///   read at random by the search, where the table of a search's few thousand records stays in
///   cache.
///   Internally every record is named by its index (Ref): the node id itself in a dense search.
/// - Records carry the generation stamp of the query that last touched them (warthog's "search
///   number"): a record whose stamp differs from the current generation is fresh, so nothing is
///   cleared between queries. The tag keeps the stamp above three flag bits; when the stamp
///   wraps, every tag is zeroed once (O(V) every 2^29 queries with the default 32-bit Stamp).
/// - The open list is an indexed 4-ary heap with decrease-key, keyed on f and then on the tie
///   rule (TieBreak: by default -g, so that the deeper node comes first). Where the compiler has
///   128-bit integers the key is packed into one, so that comparisons are branch-free. The
///   binary_heap rule keeps a second open list of its own, a binary heap with one entry per
///   improvement.
/// - The part of a relaxation that only runs when the arc matters (a new node or a cheaper g)
///   is out of line, so that the common case inlines into the graph's neighbour loop.
/// - Graphs that store their arcs can take prefetch hints (PrefetchingGraph) for the nodes
///   being opened, which on grids and meshes are often expanded next.
///
/// Allocation: arrays grow to the largest graph seen and are then reused; a warmed-up search
/// (same or smaller graph, result object reused) allocates nothing.
///
/// Not thread-safe: use one object per thread. The graph, heuristic and listener are used only
/// during a call.
///
/// @tparam Stamp unsigned type of the generation counter; smaller types only make the counter
///         wrap sooner (useful in tests).
template <std::unsigned_integral Stamp = std::uint32_t>
class BasicAStar {
 public:
  BasicAStar() = default;

  /// Searches from start to the cheapest reachable node of goals, writing into out (whose path
  /// memory is reused). h must be admissible for the returned path to be optimal (see
  /// Heuristic); with several goals, h should be the minimum over goals.
  ///
  /// Status: found, no_path (all reachable nodes expanded), limit_reached or partial (see
  /// SearchOptions), or invalid_query when start or a goal is >= graph.node_count(), goals is
  /// empty, or an option is outside its [Limit]. Never throws for these.
  ///
  /// Complexity: O((E + V) log V) time with a consistent heuristic; each expansion allocates
  /// nothing once the arrays have grown to graph.node_count() (or as ids appear, for a
  /// GrowingGraph).
  template <SearchGraph G, Heuristic H, SearchListener L = NullListener>
  void search(const G& graph, NodeId start, std::span<const NodeId> goals, H&& h,
              const SearchOptions& options, SearchResult& out, L&& listener = L{}) {
    const SearchBudget budget = budget_of(options);
    out.reset();
    out.start = start;
    out.node_count = graph.node_count();
    if (validate(start, goals, options, out) && budget.valid(out)) {
      run(graph, start, goals, h, options, budget, out, listener);
    }
    out.stats.elapsed = budget.elapsed();
  }

  /// Single-goal search returning a new result (allocates the path).
  template <SearchGraph G, Heuristic H, SearchListener L = NullListener>
  SearchResult search(const G& graph, NodeId start, NodeId goal, H&& h,
                      const SearchOptions& options = {}, L&& listener = L{}) {
    SearchResult out;
    search(graph, start, std::span<const NodeId>(&goal, 1), h, options, out, listener);
    return out;
  }

  /// Every node whose cheapest path from source costs at most max_cost, with that cost and its
  /// parent, in nondecreasing cost order (Dijkstra's algorithm on the same state arrays). The
  /// listener sees the same events as in search(). Complexity: O((E' + V') log V') over the
  /// V' nodes and E' arcs within the bound.
  template <SearchGraph G, SearchListener L = NullListener>
  void reachable(const G& graph, NodeId source, double max_cost, ReachableSet& out,
                 L&& listener = L{}) {
    SearchOptions options;
    options.max_cost = max_cost;
    const SearchBudget budget = budget_of(options);
    out.nodes.clear();
    out.stats = SearchStats{};
    if (source >= graph.node_count() || !(max_cost >= 0.0)) {
      out.status = SearchStatus::invalid_query;
      return;
    }
    Recorder<std::remove_reference_t<L>> recorder{this, &listener, &out.nodes};
    ZeroHeuristic zero;
    scratch_.reset();
    run(graph, source, std::span<const NodeId>{}, zero, options, budget, scratch_, recorder);
    out.status = SearchStatus::found;
    out.stats = scratch_.stats;
    out.stats.elapsed = budget.elapsed();
  }

  /// Whether n got a finite cost in the latest search.
  bool reached(NodeId n) const noexcept {
    const Ref r = record_of(n);
    return r != no_node && nodes_[r].g < std::numeric_limits<double>::infinity();
  }
  /// n's best known cost in the latest search (exact for expanded nodes with an admissible,
  /// consistent heuristic); +infinity if not reached.
  double cost_to(NodeId n) const noexcept {
    const Ref r = record_of(n);
    return r != no_node ? nodes_[r].g : std::numeric_limits<double>::infinity();
  }
  /// n's parent in the latest search; no_node for the start or an unreached node.
  NodeId parent_of(NodeId n) const noexcept {
    const Ref r = record_of(n);
    return r != no_node && nodes_[r].g < std::numeric_limits<double>::infinity() ? nodes_[r].parent
                                                                                 : no_node;
  }
  /// parent_of(n), read without a look-up while a ParentReadingGraph expands n: such a graph
  /// asks for every node it expands, and a sparse search would otherwise find n's record through
  /// its hash table again.
  NodeId parent_of_expanded(NodeId n) const noexcept {
    return n == expanded_ ? nodes_[expanded_record_].parent : parent_of(n);
  }
  /// The path from the latest start to n (empty if n was not reached), into path.
  void path_to(NodeId n, std::vector<NodeId>& path) const {
    path.clear();
    if (reached(n)) build_path(n, path);
  }
  /// Nodes the state arrays can hold without growing.
  std::size_t capacity() const noexcept { return nodes_.size(); }
  /// Grows the state arrays to hold n nodes now, so that a first search on a graph of n nodes
  /// spends no time allocating them.
  void reserve(std::size_t n) { grow(n); }
  /// The same for searches of a SparseSearchGraph of n nodes: room for `records` reached nodes
  /// (more are made as needed).
  void reserve_sparse(std::size_t n, std::size_t records) {
    records = std::min(n, records);
    grow_records(records);
    reserve_slots(records);
  }

 private:
  // The index of a node's record (see the data layout).
  using Ref = NodeId;

  enum class State : std::uint8_t { unseen, open, closed, dropped };

  // A record's tag: the stamp of the search that made it above these bits, whether its node is
  // a goal, and its State.
  static constexpr Stamp state_mask = 3, goal_flag = 4, flag_mask = 7;
  // Read for every arc scanned: 16 bytes, four to a cache line; the parent is written with the
  // g it goes with.
  struct Node {
    double g = 0.0;
    NodeId parent = no_node;
    Stamp tag = 0;
    State state() const noexcept { return State(tag & state_mask); }
    void set_state(State s) noexcept { tag = Stamp((tag & ~state_mask) | Stamp(s)); }
    bool goal() const noexcept { return (tag & goal_flag) != 0; }
    bool made_by(Stamp stamp) const noexcept { return Stamp(tag & ~flag_mask) == stamp; }
  };

  // The tie rule's part of the key of node n opened at cost g: smaller comes first. For doubles
  // >= 0 the IEEE-754 bit pattern orders like the value (+ 0.0 turns a -0.0 into +0.0, whose
  // pattern is the smallest).
  template <class C>
  static std::uint64_t tie_rank(C& c, NodeId n, double g) noexcept {
    switch (c.ties) {
      case TieBreak::smaller_g:
        return std::bit_cast<std::uint64_t>(g + 0.0);
      case TieBreak::lifo:
        return ~c.order++;
      case TieBreak::fifo:
        return c.order++;
      case TieBreak::rank:
        if constexpr (requires { c.h.tie_rank(n); }) return std::uint64_t(c.h.tie_rank(n));
        break;
      case TieBreak::larger_g:
      case TieBreak::binary_heap:
        break;
    }
    return ~std::bit_cast<std::uint64_t>(g + 0.0);
  }
#ifdef __SIZEOF_INT128__
  // (f, rank) packed into one 128-bit integer, f's bits on top, so that one branch-free integer
  // comparison orders by f and then by the tie rule. Ties are frequent (grids), so branches on a
  // two-field comparison would mispredict.
  __extension__ using Key = unsigned __int128;
  using KeyLess = std::less<Key>;
  static Key make_key(double f, std::uint64_t rank) noexcept {
    return (static_cast<Key>(std::bit_cast<std::uint64_t>(f + 0.0)) << 64) | static_cast<Key>(rank);
  }
#else
  struct Key {
    double f;
    std::uint64_t rank;
  };
  struct KeyLess {
    bool operator()(const Key& a, const Key& b) const noexcept {
      return a.f < b.f || (a.f == b.f && a.rank < b.rank);
    }
  };
  static Key make_key(double f, std::uint64_t rank) noexcept {
    return Key{f, rank};
  }
#endif

  // An entry of the binary_heap open list: the node with its f when pushed (stale once the node
  // is closed or its f, which changes with g alone, differs).
  struct HeapEntry {
    double f;
    Ref node;
  };
  // std::priority_queue's order for a min-heap on f: `a` sinks below `b` when its f is larger.
  struct LargerF {
    bool operator()(const HeapEntry& a, const HeapEntry& b) const noexcept { return a.f > b.f; }
  };

  // Wraps the caller's listener to collect expanded nodes for reachable().
  template <class L>
  struct Recorder {
    const BasicAStar* self;
    L* inner;
    std::vector<ReachedNode>* out;
    void examine(NodeId n) {
      const Ref r = self->record_of(n);
      out->push_back(ReachedNode{n, self->nodes_[r].g, self->nodes_[r].parent});
      inner->examine(n);
    }
    void relax(NodeId from, NodeId to, double g) { inner->relax(from, to, g); }
    void finish(NodeId n) { inner->finish(n); }
  };

  static bool validate(NodeId start, std::span<const NodeId> goals, const SearchOptions& o,
                       SearchResult& out) {
    const auto invalid = [&](SearchNote note, double value) {
      out.status = SearchStatus::invalid_query;
      out.note = note;
      out.limit_value = value;
      return false;
    };
    if (start >= out.node_count) return invalid(SearchNote::start_out_of_range, start);
    if (goals.empty()) return invalid(SearchNote::no_goals, 0.0);
    for (const NodeId goal : goals) {
      if (goal >= out.node_count) return invalid(SearchNote::goal_out_of_range, goal);
    }
    if (!(o.weight >= 1.0)) return invalid(SearchNote::bad_weight, o.weight);
    if (o.beam_width == 0) return invalid(SearchNote::bad_beam_width, 0.0);
    if (o.ties == TieBreak::binary_heap && o.beam_search())
      return invalid(SearchNote::bad_beam_width, double(o.beam_width));
    return true;
  }

  // Starts a query on a graph of n nodes: clears the slots of the latest sparse search, grows
  // the arrays, empties the heap, and moves to a new generation so that every record becomes
  // stale at once.
  template <bool Sparse>
  void begin(std::size_t n) {
    for (Ref r = 0; r < used_; ++r) slots_[slot_at_[r]] = Slot{};
    used_ = 0;
    sparse_ = Sparse;
    if constexpr (Sparse) {
      if (slots_.empty()) reserve_slots(16);
    } else {
      grow(n);
    }
    heap_.clear();
    entries_.clear();
    expanded_ = no_node;
    stamp_ = Stamp(stamp_ + flag_mask + 1);
    if (stamp_ == 0) {
      for (Node& r : nodes_) r.tag = 0;
      stamp_ = flag_mask + 1;
    }
  }

  // Room for n dense records.
  void grow(std::size_t n) {
    if (nodes_.size() < n) [[unlikely]]
      grow_to(n, false);
  }
  // Room for n sparse records, each with its node. Inline: a sparse search checks once per node
  // it reaches.
  void grow_records(std::size_t n) {
    if (record_node_.size() < n) [[unlikely]]
      grow_to(n, true);
  }
  [[gnu::noinline]] void grow_to(std::size_t n, bool records) {
    const auto next = [n](std::size_t have) { return std::max(n, have + have / 2); };
    if (nodes_.size() < n) {
      const std::size_t size = next(nodes_.size());
      nodes_.resize(size);
      h_.resize(size);
      heap_.reserve_ids(size);
    }
    if (records && record_node_.size() < n) record_node_.resize(next(record_node_.size()));
  }

  // Sparse searches: where node n's entry is in slots_, or the empty entry where it would go.
  std::size_t slot_position(NodeId n) const noexcept {
    // Fibonacci hashing: node ids of neighbouring cells differ by small amounts and by the row
    // length, and the multiplication spreads both over the table.
    std::size_t i = std::size_t((std::uint64_t(n) * 0x9e3779b97f4a7c15u) >> slot_shift_);
    while (slots_[i].record != 0 && slots_[i].node != n) i = (i + 1) & (slots_.size() - 1);
    return i;
  }
  // The record of node n + 1 in the latest sparse search, 0 when it has none.
  std::uint32_t slot_of(NodeId n) const noexcept {
    return slots_[slot_position(n)].record;
  }
  // A table for `records` entries at most half full, the entries of this search moved into it.
  [[gnu::noinline]] void reserve_slots(std::size_t records) {
    std::size_t size = 16;
    unsigned bits = 4;
    while (size < 2 * records) {
      size *= 2;
      ++bits;
    }
    if (size <= slots_.size()) return;
    slots_.assign(size, Slot{});
    slot_shift_ = 64 - bits;
    slot_at_.resize(std::max(slot_at_.size(), records));
    for (Ref r = 0; r < used_; ++r) {
      const std::size_t i = slot_position(record_node_[r]);
      slots_[i] = Slot{record_node_[r], r + 1};
      slot_at_[r] = std::uint32_t(i);
    }
  }

  // The record of node n, made fresh if this search has not reached n yet; a sparse search's
  // entry for n is `at` when given (slot_position(n), from the relaxation).
  template <bool Sparse, class H>
  Ref touch(NodeId n, H& h, std::size_t at = no_position) {
    if constexpr (Sparse) {
      std::size_t i = at != no_position ? at : slot_position(n);
      if (const std::uint32_t s = slots_[i].record; s != 0) return s - 1;
      const Ref r = used_++;
      grow_records(std::size_t{r} + 1);
      record_node_[r] = n;
      if (2 * std::size_t{used_} > slots_.size()) [[unlikely]] {
        reserve_slots(used_);
        i = slot_at_[r];
      } else {
        if (slot_at_.size() < used_) slot_at_.resize(2 * std::size_t{used_});
        slot_at_[r] = std::uint32_t(i);
      }
      slots_[i] = Slot{n, r + 1};
      nodes_[r] = Node{std::numeric_limits<double>::infinity(), no_node, stamp_};
      h_[r] = static_cast<double>(h(n));
      return r;
    } else {
      Node& r = nodes_[n];
      if (!r.made_by(stamp_)) {
        r = Node{std::numeric_limits<double>::infinity(), no_node, stamp_};
        h_[n] = static_cast<double>(h(n));
      }
      return n;
    }
  }

  // The node of record r.
  template <bool Sparse>
  NodeId node_of(Ref r) const noexcept {
    if constexpr (Sparse) {
      return record_node_[r];
    } else {
      return r;
    }
  }

  // The record of node n in the latest search; no_node when that search did not reach n.
  Ref record_of(NodeId n) const noexcept {
    if (sparse_) {
      const std::uint32_t s = slot_of(n);
      return s != 0 ? s - 1 : no_node;
    }
    return n < nodes_.size() && nodes_[n].made_by(stamp_) ? n : no_node;
  }

  void build_path(NodeId end, std::vector<NodeId>& path) const {
    for (NodeId n = end; n != no_node; n = nodes_[record_of(n)].parent) path.push_back(n);
    std::reverse(path.begin(), path.end());
  }

  // What one search needs besides the node arrays, gathered so that the out-of-line part of a
  // relaxation can reach it through one pointer.
  template <class H, class L, bool Sparse>
  struct Context {
    static constexpr bool sparse = Sparse;
    H& h;
    L& listener;
    double weight;
    double max_cost;  // the budget's, kept beside the other fields a relaxation reads
    std::size_t beam;
    bool reopen;
    bool track;
    TieBreak ties;
    std::uint64_t order = 0;  // keys made so far (the lifo rule's rank)
    bool pruned = false;
    NodeId current = no_node;  // the node being expanded
    double current_g = 0.0;
    Ref best = no_node;
    double best_h = 0.0;
    double best_g = 0.0;
    // The open node that is certain to be expanded next, held outside the heap (see improve()).
    Ref next = no_node;
    Key next_key{};
    SearchStats st{};
  };

  // The rest of a relaxation once the arc turned out to matter: `to` is new to this search or
  // g improves on it. Kept out of line because the common case (a neighbour already settled no
  // cheaper) is a stamp and a compare, inlined at every neighbour of an implicit grid.
  template <class C>
  [[gnu::noinline]] void improve(C& c, NodeId to, double g) {
    const Ref i = touch<C::sparse>(to, c.h, probed_);
    Node& r = nodes_[i];
    if (!(g < r.g)) return;
    const double h = h_[i];
    if (g + h > c.max_cost) {
      c.pruned = true;
      return;
    }
    if (r.state() == State::closed) {
      if (!c.reopen) return;
      ++c.st.reopened;
    }
    r.g = g;
    r.parent = c.current;
    c.listener.relax(c.current, to, g);
    if (c.ties == TieBreak::binary_heap) [[unlikely]] {
      ++(r.state() == State::open ? c.st.heap_decreases : c.st.heap_pushes);
      r.set_state(State::open);
      push_entry(HeapEntry{g + c.weight * h, i});
      track_best(c, i, h, g);
      return;
    }
    const Key key = make_key(g + c.weight * h, tie_rank(c, to, g));
    // A node whose key beats every open node is the next one expanded, so it bypasses the heap
    // and saves a push and a pop: on grids and meshes, with ties going to the larger g, this is
    // the common case of a search running down a plateau of equal f. Invariant: no key in the
    // heap is below c.next's, so nodes are expanded in the same order as without the bypass
    // (up to the order among equal keys, which the heap leaves open anyway).
    const KeyLess less;
    if (r.state() == State::open) {
      ++c.st.heap_decreases;
      if (i == c.next) {
        if (less(key, c.next_key)) {
          c.next_key = key;  // lower: still below the heap
        } else {
          // Not lower: f stayed the same (+infinity, h known not to reach a goal) while the
          // tie rank grew. Back into the heap, where its key decides its turn.
          heap_.push(i, key);
          c.next = no_node;
        }
      } else {
        heap_.update(i, key);
        if (c.next != no_node && !less(c.next_key, key)) {
          heap_.push(c.next, c.next_key);
          c.next = no_node;
        }
      }
    } else {
      r.set_state(State::open);
      ++c.st.heap_pushes;
      if (c.next != no_node ? less(key, c.next_key) : heap_.empty() || less(key, heap_.top_key())) {
        if (c.next != no_node) heap_.push(c.next, c.next_key);
        c.next = i;
        c.next_key = key;
      } else {
        heap_.push(i, key);
      }
      if (heap_.size() + (c.next != no_node) > c.beam) {
        const Ref worst = heap_.worst();
        heap_.erase(worst);
        nodes_[worst].set_state(State::dropped);
        ++c.st.dropped;
      }
    }
    track_best(c, i, h, g);
  }

  // For the partial fallback: the reached node of least h (ties: the smaller g).
  template <class C>
  static void track_best(C& c, Ref n, double h, double g) noexcept {
    if (c.track && (h < c.best_h || (h == c.best_h && g < c.best_g))) {
      c.best = n;
      c.best_h = h;
      c.best_g = g;
    }
  }

  void push_entry(const HeapEntry& e) {
    entries_.push_back(e);
    std::push_heap(entries_.begin(), entries_.end(), LargerF{});
  }

  // The record of the open node to expand next, taken off the open list; no_node when it is
  // empty.
  template <class C>
  Ref pop_open(C& c) {
    if (c.ties == TieBreak::binary_heap) [[unlikely]] {
      while (!entries_.empty()) {
        std::pop_heap(entries_.begin(), entries_.end(), LargerF{});
        const HeapEntry e = entries_.back();
        entries_.pop_back();
        const Node& r = nodes_[e.node];
        if (r.state() == State::open && r.g + c.weight * h_[e.node] == e.f) return e.node;
      }
      return no_node;
    }
    if (c.next != no_node) return std::exchange(c.next, no_node);
    return heap_.empty() ? no_node : heap_.pop();
  }

  // The search proper (Hart, Nilsson and Raphael 1968): repeatedly expand the open node with the
  // smallest f = g + w·h until a goal is popped. Validation happened at the boundary; an empty
  // goal set means "explore everything within max_cost" (reachable()).
  template <class G, class H, class L>
  void run(const G& graph, NodeId start, std::span<const NodeId> goals, H& h,
           const SearchOptions& o, const SearchBudget& budget, SearchResult& out, L& listener) {
    constexpr bool sparse = SparseSearchGraph<G>;
    // A graph that grows while searched makes its ids as it goes: dense already.
    static_assert(!(sparse && GrowingGraph<G>), "a growing graph is searched densely");
    begin<sparse>(graph.node_count());

    if (o.components != nullptr && !o.partial_fallback && !goals.empty() &&
        start < o.components->size()) {
      const std::uint32_t label = o.components->label(start);
      const bool possible = std::any_of(goals.begin(), goals.end(), [&](NodeId goal) {
        return goal >= o.components->size() || o.components->label(goal) == label;
      });
      if (!possible) {
        out.status = SearchStatus::no_path;
        out.note = SearchNote::different_components;
        return;
      }
    }

    Context<H, L, sparse> c{h,
                            listener,
                            o.weight,
                            budget.max_cost(),
                            o.beam_width,
                            o.reopen_closed,
                            o.partial_fallback,
                            o.ties};
    for (const NodeId goal : goals) nodes_[touch<sparse>(goal, h)].tag |= goal_flag;
    {
      const Ref s = touch<sparse>(start, h);
      Node& rs = nodes_[s];
      rs.g = 0.0;
      rs.set_state(State::open);
      const double f = o.weight * h_[s];
      if (c.ties == TieBreak::binary_heap) {
        push_entry(HeapEntry{f, s});
      } else {
        heap_.push(s, make_key(f, tie_rank(c, start, 0.0)));
      }
      ++c.st.heap_pushes;
      c.best = s;
      c.best_h = h_[s];
    }

    const auto relax = [&](NodeId to, double cost) {
      ++c.st.generated;
      const double g = c.current_g + cost;
      if constexpr (sparse) {
        probed_ = slot_position(to);  // improve's touch starts from here, not hashing again
        if (const std::uint32_t s = slots_[probed_].record; s != 0 && !(g < nodes_[s - 1].g))
          return;
      } else {
        if constexpr (GrowingGraph<G>) grow(std::size_t{to} + 1);
        const Node& r = nodes_[to];
        if (r.made_by(stamp_) && !(g < r.g)) return;
      }
      if constexpr (PrefetchingGraph<G>) graph.prefetch(to);
      improve(c, to, g);
    };

    Ref found = no_node;
    SearchLimit stop = SearchLimit::none;
    for (Ref r = pop_open(c); r != no_node; r = pop_open(c)) {
      ++c.st.heap_pops;
      Node& rc = nodes_[r];
      rc.set_state(State::closed);
      if (rc.goal()) {
        found = r;
        break;
      }
      stop = budget.before_expansion(c.st.expanded);
      if (stop != SearchLimit::none) break;
      const NodeId current = node_of<sparse>(r);
      c.current = current;
      c.current_g = rc.g;
      if constexpr (ParentReadingGraph<G>) {
        expanded_ = current;
        expanded_record_ = r;
      }
      listener.examine(current);
      ++c.st.expanded;
      graph.for_each_neighbour(current, relax);
      listener.finish(current);
    }

    out.stats = c.st;
    if (found != no_node) {
      out.status = SearchStatus::found;
      finish_path(found, out);
      return;
    }
    budget.finish_unreached(stop, c.pruned, c.st.dropped > 0, o.partial_fallback, out);
    if (o.partial_fallback) finish_path(c.best, out);
  }

  void finish_path(Ref end, SearchResult& out) const {
    const NodeId node = sparse_ ? record_node_[end] : end;
    build_path(node, out.path);
    out.cost = nodes_[end].g;
    out.reached = node;
    out.reached_h = h_[end];
  }

  std::vector<Node> nodes_;
  std::vector<double> h_;            // each record's heuristic, computed when it is made
  std::vector<NodeId> record_node_;  // a sparse search's node of each record
  DAryHeap<Key, KeyLess, 4> heap_;
  std::vector<HeapEntry> entries_;  // the binary_heap rule's open list
  // Sparse searches: the table of the latest search's records by node (slot_position), and
  // each record's entry in it, to clear them.
  struct Slot {
    NodeId node = 0;
    std::uint32_t record = 0;  // the record's index + 1; 0: an empty entry
  };
  std::vector<Slot> slots_;
  unsigned slot_shift_ = 60;  // 64 - log2(slots_.size())
  static constexpr std::size_t no_position = std::size_t(-1);
  std::size_t probed_ = no_position;  // the entry of the node being relaxed
  std::vector<std::uint32_t> slot_at_;
  NodeId expanded_ = no_node;  // the node being expanded (or the latest one)
  Ref expanded_record_ = 0;    // its record
  Ref used_ = 0;               // records made by the latest search, if sparse
  bool sparse_ = false;        // whether the latest search was sparse
  Stamp stamp_ = 0;            // the latest search's stamp, a multiple of flag_mask + 1
  SearchResult scratch_;
};

/// A* with the default 32-bit generation counter.
using AStar = BasicAStar<>;

/// One-off A* from start to goal (allocates its state; keep an AStar to reuse it).
template <SearchGraph G, Heuristic H>
SearchResult astar(const G& graph, NodeId start, NodeId goal, H&& h,
                   const SearchOptions& options = {}) {
  AStar search;
  return search.search(graph, start, goal, h, options);
}

/// One-off Dijkstra from start to goal: A* with ZeroHeuristic.
template <SearchGraph G>
SearchResult dijkstra(const G& graph, NodeId start, NodeId goal,
                      const SearchOptions& options = {}) {
  return astar(graph, start, goal, ZeroHeuristic{}, options);
}

}  // namespace polynav::search
