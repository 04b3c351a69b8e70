#pragma once
/// @file
/// The graph side of the search core: dense node ids, the SearchGraph concept, a compressed
/// sparse row graph for discretisations that store their adjacency, and an adaptor that attaches
/// per-query nodes (a start, a goal) to a base graph without copying it.
///
/// Nothing here knows about geometry: a node is an id, an arc is a target and a non-negative cost.

#include <algorithm>
#include <bit>
#include <cmath>
#include <concepts>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <span>
#include <stdexcept>
#include <string>
#include <vector>

namespace polynav::search {

/// A node of a search graph. Ids are dense, 0 .. node_count() - 1, so that all search state can
/// live in flat arrays indexed by id.
using NodeId = std::uint32_t;

/// "No node": the parent of a start node, the answer of a failed lookup. Never a valid id.
inline constexpr NodeId no_node = std::numeric_limits<NodeId>::max();

/// An outgoing arc: its target and its cost. [Limit: cost finite and >= 0]
struct Arc {
  NodeId to = no_node;
  double cost = 0.0;
};

/// An arc given with its source, as input to graph builders.
struct Edge {
  NodeId from = no_node;
  NodeId to = no_node;
  double cost = 0.0;
};

/// A graph the search algorithms can run on.
///
/// - `g.node_count()` is the number of nodes; valid ids are `0 .. node_count() - 1`.
/// - `g.for_each_neighbour(n, f)` calls `f(NodeId to, double cost)` once per arc leaving n.
///   Costs must be finite and >= 0. It is called once per expansion, so it must not allocate
///   and should be a template over `f` (no `std::function`, no virtual call per neighbour).
///
/// Parallel arcs and self-loops are allowed. A graph is undirected when every arc u -> v has an
/// arc v -> u of the same cost.
template <class G>
concept SearchGraph = requires(const G& g, NodeId n) {
  { g.node_count() } -> std::convertible_to<std::size_t>;
  g.for_each_neighbour(n, [](NodeId, double) {});
};

/// A SearchGraph that can be told which node's arcs will be scanned soon: `g.prefetch(n)` is a
/// hint (say, a cache prefetch of n's arcs) with no observable effect. A* gives it for every
/// node it opens or improves, since on grids and meshes many of those are expanded next; for
/// stored adjacency the arcs are then in cache when they are needed. Optional.
template <class G>
concept PrefetchingGraph = SearchGraph<G> && requires(const G& g, NodeId n) {
  g.prefetch(n);
};

/// A SearchGraph whose node count may grow while it is being searched (an implicit state space
/// that allocates ids as states are discovered). Such a graph declares
/// `static constexpr bool grows_during_search = true;` and the search then checks each
/// neighbour's id against its arrays; for every other graph that check is compiled out.
template <class G>
concept GrowingGraph = SearchGraph<G> && requires {
  requires G::grows_during_search;
};

/// A SearchGraph whose searches reach few of its many nodes, such as jump point search on a
/// large grid (it expands jump points, not cells). Such a graph declares
/// `static constexpr bool sparse_search = true;` and A* then keeps records only for the nodes a
/// search reaches, found through a 4-byte slot per node, instead of 32 bytes for every node: the
/// memory of a search follows what it reaches, not the size of the map.
template <class G>
concept SparseSearchGraph = SearchGraph<G> && requires {
  requires G::sparse_search;
};

/// A SearchGraph whose successors of a node depend on the node's parent in the search (jump
/// point search prunes by the direction of arrival, taut paths turn round corners only). Such a
/// graph declares `static constexpr bool reads_parent = true;` and A* then keeps the record of
/// the node it expands at hand, so that BasicAStar::parent_of_expanded needs no look-up; other
/// graphs' searches do not pay for it.
template <class G>
concept ParentReadingGraph = SearchGraph<G> && requires {
  requires G::reads_parent;
};

namespace detail {

// Asks the processor to bring the cache line holding p closer; nothing where unsupported.
inline void prefetch(const void* p) noexcept {
#if defined(__GNUC__) || defined(__clang__)
  __builtin_prefetch(p);
#else
  (void)p;
#endif
}

inline bool valid_cost(double cost) noexcept {
  return std::isfinite(cost) && cost >= 0.0;
}

inline void check_arc(NodeId from, NodeId to, double cost, std::size_t node_count) {
  if (from >= node_count || to >= node_count) {
    throw std::invalid_argument("search graph: arc " + std::to_string(from) + " -> " +
                                std::to_string(to) + " names a node outside 0.." +
                                std::to_string(node_count) + " (exclusive)");
  }
  if (!valid_cost(cost)) {
    throw std::invalid_argument("search graph: arc " + std::to_string(from) + " -> " +
                                std::to_string(to) + " has cost " + std::to_string(cost) +
                                "; costs must be finite and >= 0");
  }
}

}  // namespace detail

/// Whether each input edge of a builder is one arc or a pair of opposite arcs.
enum class Direction : std::uint8_t { directed, undirected };

/// A graph in compressed sparse row form: the arcs of node n are
/// `arcs()[offsets[n] .. offsets[n + 1])`, in the order the edges were given. Immutable once
/// built; the visibility graph, the navigation mesh and the quadtree store their adjacency here.
///
/// Memory: (V + 1) 32-bit offsets and one 16-byte Arc per arc (two per undirected edge); at most
/// 2^32 - 2 arcs.
class CsrGraph {
 public:
  /// The empty graph.
  CsrGraph() = default;

  /// Builds the graph from an edge list in O(V + E) (a counting sort by source).
  /// With Direction::undirected each edge {a, b} becomes the arcs a -> b and b -> a.
  /// @throws std::invalid_argument if an edge names a node >= node_count or has a cost that is
  ///         negative, infinite or NaN, or if node_count or the arc count do not fit in 32 bits.
  CsrGraph(std::size_t node_count, std::span<const Edge> edges,
           Direction direction = Direction::directed) {
    if (node_count >= no_node) {
      throw std::invalid_argument("CsrGraph: " + std::to_string(node_count) +
                                  " nodes do not fit in a 32-bit NodeId");
    }
    const bool both = direction == Direction::undirected;
    const std::size_t arc_count = (both ? 2 : 1) * edges.size();
    if (arc_count >= std::numeric_limits<std::uint32_t>::max()) {
      throw std::invalid_argument("CsrGraph: " + std::to_string(arc_count) +
                                  " arcs do not fit in 32-bit offsets");
    }
    offsets_.assign(node_count + 1, 0);
    for (const Edge& e : edges) {
      detail::check_arc(e.from, e.to, e.cost, node_count);
      ++offsets_[std::size_t{e.from} + 1];
      if (both) ++offsets_[std::size_t{e.to} + 1];
    }
    for (std::size_t i = 1; i < offsets_.size(); ++i) offsets_[i] += offsets_[i - 1];
    arcs_.resize(offsets_.back());
    std::vector<std::uint32_t> next(offsets_.begin(), offsets_.end() - 1);
    for (const Edge& e : edges) {
      arcs_[next[e.from]++] = Arc{e.to, e.cost};
      if (both) arcs_[next[e.to]++] = Arc{e.from, e.cost};
    }
  }

  /// Number of nodes.
  std::size_t node_count() const noexcept { return offsets_.empty() ? 0 : offsets_.size() - 1; }
  /// Number of arcs (an undirected edge counts twice).
  std::size_t arc_count() const noexcept { return arcs_.size(); }

  /// The arcs leaving n. @pre n < node_count()
  std::span<const Arc> arcs(NodeId n) const noexcept {
    return {arcs_.data() + offsets_[n], arcs_.data() + offsets_[std::size_t{n} + 1]};
  }

  /// Prefetches the first arcs of n (PrefetchingGraph). @pre n < node_count()
  void prefetch(NodeId n) const noexcept { detail::prefetch(arcs_.data() + offsets_[n]); }

  /// Calls f(to, cost) for each arc leaving n. @pre n < node_count()
  template <class F>
  void for_each_neighbour(NodeId n, F&& f) const {
    const Arc* it = arcs_.data() + offsets_[n];
    const Arc* const end = arcs_.data() + offsets_[std::size_t{n} + 1];
    for (; it != end; ++it) f(it->to, it->cost);
  }

 private:
  std::vector<std::uint32_t> offsets_;  // 32 bits: half the cache traffic of size_t
  std::vector<Arc> arcs_;
};

/// A base graph plus a few extra nodes and arcs, without copying the base. A query uses it to
/// attach its start and goal: `add_node()` returns base.node_count(), then base.node_count() + 1,
/// ...; `add_arc` adds arcs out of the new nodes, into them from base nodes, or between base
/// nodes. Arcs added to a base node are reported after that node's own arcs.
///
/// The base graph must outlive the adaptor and keep its node count. `clear()` drops the extras
/// but keeps the memory, so one adaptor can serve query after query without allocating.
///
/// Cost per expansion of a base node: one test when no arc leaves a base node into the extras;
/// otherwise one hash-table probe (expected O(1)).
template <SearchGraph Base>
class AugmentedGraph {
 public:
  /// Searched as sparsely as the base graph (SparseSearchGraph).
  static constexpr bool sparse_search = SparseSearchGraph<Base>;
  /// Reads parents as the base graph does (ParentReadingGraph): the base nodes keep their ids.
  static constexpr bool reads_parent = ParentReadingGraph<Base>;

  /// Wraps base (kept by reference).
  explicit AugmentedGraph(const Base& base)
      : base_(&base), base_count_(static_cast<NodeId>(base.node_count())) {
    if (base.node_count() >= no_node) {
      throw std::invalid_argument("AugmentedGraph: the base graph is too large for NodeId");
    }
  }

  /// Wraps another base graph (or the same one again) and drops the extras, keeping the memory,
  /// so that one adaptor serves queries on several graphs without allocating.
  void rebind(const Base& base) {
    if (base.node_count() >= no_node) {
      throw std::invalid_argument("AugmentedGraph: the base graph is too large for NodeId");
    }
    clear();
    base_ = &base;
    base_count_ = static_cast<NodeId>(base.node_count());
  }

  /// The wrapped graph.
  const Base& base() const noexcept { return *base_; }
  /// Nodes of the base graph plus the extra nodes.
  std::size_t node_count() const noexcept { return std::size_t{base_count_} + extras_.size(); }
  /// Nodes of the base graph; extra node ids start here.
  std::size_t base_node_count() const noexcept { return base_count_; }
  /// Number of extra nodes.
  std::size_t extra_node_count() const noexcept { return extras_.size(); }
  /// Whether n is one of the extra nodes.
  bool is_extra(NodeId n) const noexcept { return n >= base_count_; }

  /// Adds a node without arcs and returns its id (node_count() before the call).
  NodeId add_node() {
    if (node_count() + 1 >= no_node) {
      throw std::length_error("AugmentedGraph: too many nodes for NodeId");
    }
    extras_.push_back(Chain{});
    return static_cast<NodeId>(node_count() - 1);
  }

  /// Adds the arc from -> to. Either end may be a base or an extra node.
  /// @throws std::invalid_argument if an end is >= node_count() or the cost is negative, infinite
  ///         or NaN.
  void add_arc(NodeId from, NodeId to, double cost) {
    detail::check_arc(from, to, cost, node_count());
    Chain& chain = from >= base_count_ ? extras_[from - base_count_] : base_chain(from);
    const auto index = static_cast<std::uint32_t>(links_.size());
    links_.push_back(Link{Arc{to, cost}, no_link});
    if (chain.head == no_link) {
      chain.head = index;
    } else {
      links_[chain.tail].next = index;
    }
    chain.tail = index;
  }

  /// Adds the arcs a -> b and b -> a with the same cost.
  void add_edge(NodeId a, NodeId b, double cost) {
    add_arc(a, b, cost);
    add_arc(b, a, cost);
  }

  /// Removes every extra node and arc; keeps the memory for the next query.
  void clear() noexcept {
    for (const std::uint32_t s : used_slots_) slots_[s] = Slot{};
    used_slots_.clear();
    links_.clear();
    extras_.clear();
  }

  /// Passes the hint on to the base graph for base nodes, if it takes hints (PrefetchingGraph).
  void prefetch(NodeId n) const noexcept {
    if constexpr (PrefetchingGraph<Base>) {
      if (n < base_count_) base_->prefetch(n);
    }
  }

  /// Calls f(to, cost) for each arc leaving n: the base graph's arcs, then the added ones.
  /// @pre n < node_count()
  template <class F>
  void for_each_neighbour(NodeId n, F&& f) const {
    if (n >= base_count_) {
      emit(extras_[n - base_count_].head, f);
      return;
    }
    base_->for_each_neighbour(n, f);
    if (used_slots_.empty()) return;
    for (std::size_t i = slot_index(n);; i = (i + 1) & mask_) {
      const Slot& s = slots_[i];
      if (s.key == n) {
        emit(s.chain.head, f);
        return;
      }
      if (s.key == no_node) return;
    }
  }

 private:
  static constexpr std::uint32_t no_link = std::numeric_limits<std::uint32_t>::max();

  struct Link {
    Arc arc;
    std::uint32_t next;
  };
  struct Chain {
    std::uint32_t head = no_link;
    std::uint32_t tail = no_link;
  };
  // Open addressing with linear probing, at most half full: base nodes with added arcs are few
  // (the neighbours of a start or goal), so the table stays small and probes stay short.
  struct Slot {
    NodeId key = no_node;
    Chain chain;
  };

  template <class F>
  void emit(std::uint32_t link, F& f) const {
    for (; link != no_link; link = links_[link].next) f(links_[link].arc.to, links_[link].arc.cost);
  }

  std::size_t slot_index(NodeId key) const noexcept {
    // Fibonacci hashing: the top bits of key * 2^64/phi spread consecutive ids well.
    return static_cast<std::size_t>((std::uint64_t{key} * 0x9E3779B97F4A7C15ull) >> shift_);
  }

  Chain& base_chain(NodeId key) {
    if (2 * (used_slots_.size() + 1) > slots_.size()) grow_table();
    std::size_t i = slot_index(key);
    while (slots_[i].key != key && slots_[i].key != no_node) i = (i + 1) & mask_;
    if (slots_[i].key == no_node) {
      slots_[i].key = key;
      used_slots_.push_back(static_cast<std::uint32_t>(i));
    }
    return slots_[i].chain;
  }

  void grow_table() {
    std::vector<Slot> old;
    old.reserve(used_slots_.size());
    for (const std::uint32_t s : used_slots_) old.push_back(slots_[s]);
    const std::size_t capacity = std::max<std::size_t>(16, 2 * slots_.size());
    slots_.assign(capacity, Slot{});
    mask_ = capacity - 1;
    shift_ = 64 - static_cast<unsigned>(std::countr_zero(capacity));
    used_slots_.clear();
    for (const Slot& s : old) {
      std::size_t i = slot_index(s.key);
      while (slots_[i].key != no_node) i = (i + 1) & mask_;
      slots_[i] = s;
      used_slots_.push_back(static_cast<std::uint32_t>(i));
    }
  }

  const Base* base_;
  NodeId base_count_;
  std::vector<Chain> extras_;
  std::vector<Link> links_;
  std::vector<Slot> slots_;
  std::vector<std::uint32_t> used_slots_;
  std::size_t mask_ = 0;
  unsigned shift_ = 64;
};

}  // namespace polynav::search
