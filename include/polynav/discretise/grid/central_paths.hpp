#pragma once
/// @file
/// Central grid paths (Goldstein, Walmsley, Bibliowicz, Tessier, Breslav and Khan, "Path Counting
/// for Grid-Based Navigation", JAIR 74, 2022): among the many shortest grid paths between two
/// nodes, the one through the nodes that most shortest paths pass through. A* and jump point
/// search pick one of them by the order of their open list, which leaves paths hugging walls and
/// bending late; a central path stays near the middle of the band of shortest paths, so that
/// line-of-sight smoothing afterwards removes far more of its bends (the Central64 technical
/// report, Autodesk Research 2023: 8-connected central A* + greedy smoothing +0.11% above the
/// shortest length on the Dragon Age maps, against +0.98% for plain A* + greedy).
///
/// How (the report's variant of the paper's Central A*): an A* search from the source that
/// expands every node whose f is at most the optimal cost (not only those below it), so every
/// node on a shortest path gets its final g; then, from the target back, a neighbour P of Q is a
/// predecessor of Q on a shortest path exactly when g(P) + cost(P, Q) = g(Q). Shortest paths are
/// counted from the source forwards over these arcs, in order of increasing g, and from the
/// target backwards; the number through a node is the product of its two counts. The path is
/// traced from the target: each step goes to the predecessor with the highest product (the first
/// in the grid's move order on ties), until the source.
///
/// Ties must be exact. Every move costs 1, sqrt(2) or sqrt(5) cells, and 1, sqrt(2) and sqrt(5)
/// are linearly independent over the rationals, so a g is a triple of move counts (straight,
/// diagonal, knight) and two g are equal exactly when their triples are; the search orders nodes
/// by the double value of the triple, which only decides order among values that differ by far
/// more than rounding. Counts are held as a double mantissa and a 64-bit exponent: they grow
/// like binomial coefficients, past a double's range on long 4-connected paths.
///
/// Applies to grids whose moves all have one cost multiplier and run both ways (no cells of
/// different cost, no height steps the agent cannot climb); applies() says why not otherwise.

#include <cstdint>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "polynav/discretise/grid/occupancy_grid.hpp"
#include "polynav/search/d_ary_heap.hpp"

namespace polynav {

/// A count of paths: mantissa * 2^exponent, the mantissa in [1, 2) (or 0 for none), so that
/// counts far beyond a double's range still add and multiply with a double's relative precision.
struct PathCount {
  double mantissa = 0.0;
  std::int64_t exponent = 0;

  static PathCount one() { return {1.0, 0}; }
  PathCount& operator+=(const PathCount& other);
  friend PathCount operator*(const PathCount& a, const PathCount& b);
  friend bool operator<(const PathCount& a, const PathCount& b);
  friend bool operator==(const PathCount& a, const PathCount& b) = default;
  /// The count as a double (infinity when beyond its range).
  double value() const;
};

/// Central grid paths over one occupancy grid. Reusable across queries (search state is stamped,
/// as in search::BasicAStar); not thread-safe: one object per thread.
class CentralGridPaths {
 public:
  /// Empty when central paths apply to the grid, else why not (for messages).
  static std::string applies(const OccupancyGrid& grid);

  /// A grid cost as (straight, diagonal, knight) move counts: 1, sqrt(2) and sqrt(5) cells.
  struct Moves {
    std::int32_t straight = 0, diagonal = 0, knight = 0;
    double cells() const;
    friend Moves operator+(const Moves& a, const Moves& b) {
      return {a.straight + b.straight, a.diagonal + b.diagonal, a.knight + b.knight};
    }
    friend bool operator==(const Moves&, const Moves&) = default;
  };
  /// An end of the query: a node and the exact cost of the leg between it and the query's point
  /// (a start whose point is a grid node joins its neighbours by legs of one move each).
  struct Seed {
    search::NodeId node = search::no_node;
    Moves leg;
  };

  /// The central shortest grid path from the sources to the targets into path (from a source
  /// to a target, both included): shortest over the legs and the grid's arcs, through the nodes
  /// most of those shortest paths pass through. Returns false when no target is reachable.
  /// @pre applies(grid) is empty
  bool find(const OccupancyGrid& grid, std::span<const Seed> sources, std::span<const Seed> targets,
            std::vector<search::NodeId>& path);
  /// The same from one node to another.
  bool find(const OccupancyGrid& grid, search::NodeId source, search::NodeId target,
            std::vector<search::NodeId>& path) {
    const Seed s{source, {}}, t{target, {}};
    return find(grid, std::span(&s, 1), std::span(&t, 1), path);
  }

  /// After find(): the number of shortest paths from the sources to n, and from n to the
  /// targets (zero for nodes on no shortest path between them).
  PathCount from_source(search::NodeId n) const;
  PathCount to_target(search::NodeId n) const;
  /// Nodes expanded by the latest find() (every node with f up to the optimum).
  std::uint64_t expanded() const { return expanded_; }

 private:
  enum class State : std::uint8_t { unseen, open, closed };
  struct Record {
    Moves g;
    std::uint32_t stamp = 0;
    State state = State::unseen;
    double value = 0.0;  // g in cells
    double h = 0.0;
    std::uint32_t dag = 0;  // 1 + index in dag_, 0 when not on a shortest path
    std::uint8_t seed = 0;  // source_flag: a source whose leg is its g; target_flag: a target
    Moves leg;              // a target's leg
  };
  struct DagNode {
    search::NodeId node;
    PathCount forward, backward;
  };
  static constexpr std::uint8_t source_flag = 1, target_flag = 2;
  Record& touch(search::NodeId n, double h);
  bool settled(search::NodeId n) const {
    return n < records_.size() && records_[n].stamp == generation_ &&
           records_[n].state == State::closed;
  }
  // The moves of the arc from a to b (neighbours in the grid).
  Moves move(search::NodeId a, search::NodeId b) const;
  double heuristic(search::NodeId n) const;
  // Whether P -> Q is an arc of a shortest path from the source.
  bool precedes(search::NodeId p, search::NodeId q) const;

  const OccupancyGrid* grid_ = nullptr;
  int across_ = 0;
  std::vector<std::pair<int, int>> targets_;  // cells of the targets
  std::vector<double> target_legs_;           // their legs in cells
  std::vector<Record> records_;
  std::vector<DagNode> dag_;
  std::vector<search::NodeId> stack_;
  search::DAryHeap<double> heap_;
  std::uint32_t generation_ = 0;
  std::uint64_t expanded_ = 0;
};

}  // namespace polynav
