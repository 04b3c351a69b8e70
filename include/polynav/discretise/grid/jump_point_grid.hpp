#pragma once
/// @file
/// Jump point search on the occupancy grid: the grid method with `grid.search=jps` or `jps+`.
///
/// Jump point search (Harabor and Grastien, "Online Graph Pruning for Pathfinding on Grid Maps",
/// AAAI 2011) finds the same optimal paths as A* on an 8-connected grid of uniform cost while
/// expanding only "jump points": from a node reached in direction d it follows only the
/// directions an optimal path may still need (d itself, its two components after a diagonal
/// move, and the "forced" turns round an obstacle just behind it after a straight move), and
/// instead of stepping cell by cell it jumps along each direction to the next cell where the
/// same pruning would have to branch. polynav's grids never cut corners (a diagonal move needs
/// both orthogonal neighbours free, as in MovingAI's benchmarks), so a diagonal move has no
/// forced turns and a straight move east has a forced turn north where the cell north of the
/// previous one is blocked and the cell north of this one is free.
///
/// `jps` scans straight lines 64 cells at a time with bit operations on a row-packed copy of the
/// grid's free cells and on a transposed copy for vertical lines (the block-based jumping of
/// Harabor and Grastien, "Improving Jump Point Search", ICAPS 2014). `jps+` precomputes, for
/// every cell and each of the 8 directions, the distance to the next jump point or to the wall
/// (JPS+: the preprocessing of the same paper and S. Rabin's "JPS+" in Game AI Pro 2, 2015), so
/// a jump is a table lookup plus a check of where the goal lies.
///
/// The search is still polynav's one A* (search/astar.hpp): the query driver searches a
/// per-query JumpPointGrid::Graph whose for_each_neighbour yields a node's jump successors with
/// their exact octile costs. The pruning needs the direction in which a node was reached, which
/// the graph reads from the A* that searches it (its parent); and jumps stop at the query's goal
/// cells, so the graph is made per query (query_graph()).
///
/// Where jumping does not apply the method falls back to A* over every cell and says so in each
/// result's message and in summary(): cells of different cost, height steps the agent cannot
/// climb, or walls along cell sides removed from the move masks. 4-connected and
/// corner-aligned grids are refused at build (InputError naming grid.search), since those are
/// the caller's own options.

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "polynav/discretise/grid/occupancy_grid.hpp"
#include "polynav/search/astar.hpp"

namespace polynav {

class QueryWorkspace;

/// How the grid is searched.
enum class GridSearch : std::uint8_t {
  astar,     ///< A* over every cell (any grid)
  jps,       ///< jump point search with block-based (64 cells at a time) jumping
  jps_plus,  ///< jump point search over precomputed jump distances (JPS+)
  theta,     ///< Theta* over the grid's nodes: any-angle paths (discretise/grid/grid_methods.hpp)
  hpa,       ///< HPA* over clusters of the grid (discretise/grid/hierarchical_grid.hpp)
};

inline constexpr auto grid_search_names =
    enum_names(GridSearch::astar, "astar", GridSearch::jps, "jps", GridSearch::jps_plus, "jps+",
               GridSearch::theta, "theta", GridSearch::hpa, "hpa");

inline std::string to_string(GridSearch search) {
  return std::string(name_of(grid_search_names, search));
}

class JumpPointGrid;

struct JumpOptions {
  GridSearch search = GridSearch::jps;
  /// Longest jump a JPS+ table entry holds; a longer one stops at an intermediate cell of the
  /// same line, which is expanded like any jump point (more nodes, the same paths). The table
  /// holds 16-bit distances. [Limit: 1 .. 32767]
  int jump_limit = 32767;
  /// The version before an edit, built with these options over the scene before it: its JPS+
  /// table is updated where the grids differ instead of built whole (the same table). Read by
  /// the constructor only.
  const JumpPointGrid* before = nullptr;
};

/// The occupancy grid with jump point search (see the file comment). It is the grid as a
/// discretisation (attach, components, corridors, pictures are the grid's), plus what the jumps
/// need, built once: the free cells as bits by rows (and by columns for jps), the pruning table,
/// and for jps+ the jump distance table.
class JumpPointGrid final : public Discretisation {
 public:
  /// Builds the grid and, when jumping applies to it, what the jumps need.
  /// @throws InputError (key "grid.search") for a 4-connected or corner-aligned grid, and whatever
  ///         OccupancyGrid's constructor throws.
  JumpPointGrid(const FreeSpace& space, GridOptions grid, JumpOptions options);

  std::string_view method() const override { return grid_.method(); }
  std::string_view graph_noun() const override { return grid_.graph_noun(); }
  std::size_t node_count() const override { return grid_.node_count(); }
  Point node_position(search::NodeId n) const override { return grid_.node_position(n); }
  void attach(Point p, AttachDirection direction, std::vector<Attachment>& out) const override {
    grid_.attach(p, direction, out);
  }
  std::string unattached_reason(std::string_view which) const override {
    return grid_.unattached_reason(which);
  }
  const search::ComponentLabels* components() const override { return grid_.components(); }
  Ring node_region(search::NodeId n) const override { return grid_.node_region(n); }
  /// The grid's corridor of the cell path that the jumps stand for: consecutive jump points are
  /// joined by a diagonal run of grid moves and then a straight one (either may be empty),
  /// expanded cell by cell.
  std::optional<std::vector<Segment>> corridor(Point start, std::span<const search::NodeId> path,
                                               Point end) const override;
  /// The bend of a jump that runs diagonally and then straight (see Graph): the cell centre
  /// where it turns.
  void arc_points(search::NodeId from, search::NodeId to, std::vector<Point>& out) const override;
  bool has_corridors() const override { return grid_.has_corridors(); }
  /// What was built (and its preprocessing time and memory), or why jumping does not apply.
  std::string summary() const override;
  Primitives primitives() const override { return grid_.primitives(); }

  /// The grid's own heuristic (octile by default: consistent for jumps too, since a jump's cost
  /// is the octile distance it covers).
  auto heuristic(std::span<const Attachment> goals, Point goal) const {
    return grid_.heuristic(goals, goal);
  }

  /// SearchGraph: the grid's own arcs, one cell to the next. reach() and the fallback use them;
  /// queries search query_graph().
  template <class F>
  void for_each_neighbour(search::NodeId n, F&& f) const {
    grid_.for_each_neighbour(n, f);
  }

  const OccupancyGrid& grid() const { return grid_; }
  const JumpOptions& options() const { return options_; }
  /// Whether queries jump; false when the method fell back to A* (fallback() says why).
  bool jumps() const { return fallback_.empty(); }
  /// Whether queries search query_graph(), which reaches few cells (the search keeps records
  /// for those only: search::SparseSearchGraph).
  bool sparse_search() const override { return jumps(); }
  /// Why jumping does not apply to this grid; empty when it does.
  const std::string& fallback() const { return fallback_; }
  /// The note every result carries when the method fell back to A*; empty otherwise.
  std::string_view query_note() const { return note_; }
  /// Time spent building what the jumps need (bits, pruning table, jump table), not the grid.
  double preprocessing_ms() const { return preprocessing_ms_; }
  /// JPS+: the table entries computed for this version: all of them (8 per cell) when built
  /// whole, those an edit can change when updated from the version before (JumpOptions::before).
  std::size_t table_entries_computed() const { return table_entries_computed_; }
  /// Memory of what the jumps need, in bytes.
  std::size_t preprocessing_bytes() const {
    return columns_.size() * sizeof(std::uint64_t) + table_.size() * sizeof(std::int16_t) +
           sizeof(prune_);
  }
  /// JPS+: the table entry of cell n in direction k (the grid's move bits: 0 east, 1 north, 2
  /// west, 3 south, 4 north-east, 5 north-west, 6 south-west, 7 south-east): j > 0, the next
  /// jump point lies j steps away; j <= 0, the last free cell before a wall lies -j steps away
  /// and no jump point comes first. @pre jps+ and jumps()
  int jump_distance(search::NodeId n, int k) const { return table_[8 * std::size_t(n) + k]; }

  /// The graph a query searches: jump successors of a node, given the goal cells (jumps stop
  /// there) and the A* that searches it (a node's parent gives the direction it was reached
  /// in). It must be searched by that A* only, and neither may outlive this grid.
  ///
  /// A diagonal jump does not stop at the diagonal cells from which a straight jump finds a jump
  /// point: it yields those straight jump points (and goals) as successors of the node itself
  /// and carries on along the diagonal, so that no intermediate diagonal node enters the open
  /// list (after the idea, in Harabor and Grastien, ICAPS 2014, of not expanding intermediate
  /// jump points). Such an arc runs diagonally, then straight; arc_points() gives its bend.
  ///
  /// With one goal, a node from which a jump reaches the goal has the goal as its only
  /// successor: that jump is a shortest grid route from the node (the octile distance), so no
  /// other successor could lead to the goal more cheaply. The goal's octant is jumped first, and
  /// the other directions only when it does not reach the goal.
  class Graph {
   public:
    struct Cell {
      int x, y;
    };
    struct Successor {
      search::NodeId node;
      double cost;
    };
    /// What the graphs of one workspace's queries reuse (QueryWorkspace::state): the goal cells
    /// and the successors of the node being expanded. Kept there, a query allocates nothing (a
    /// short query's allocations were a fifth of its time).
    struct Buffers {
      std::vector<Cell> goals;
      std::vector<Successor> found;
    };

    Graph(const JumpPointGrid& grid, const search::AStar& astar,
          std::span<const search::NodeId> goals, Buffers& buffers);

    /// A search reaches jump points only, few of the cells (search::SparseSearchGraph).
    static constexpr bool sparse_search = true;
    /// The pruning reads the direction a node was reached in (search::ParentReadingGraph).
    static constexpr bool reads_parent = true;

    std::size_t node_count() const { return cells_; }

    /// SearchGraph: f(successor, cost) for every jump successor of n; the cost is the octile
    /// distance to it times the cell size (and the grid's uniform cost multiplier).
    template <class F>
    void for_each_neighbour(search::NodeId n, F&& f) const {
      successors(n);
      for (const Successor& s : found_) f(s.node, s.cost);
    }

    /// The cost of the jump from `start` that reaches the one goal, when the start's jump
    /// towards the goal's octant does: the goal is then the start's only successor, and a
    /// search from the start returns start, goal at that cost after expanding the start alone.
    /// Nothing otherwise (several goals, the goal the start itself, or a jump that stops short);
    /// then the start's first expansion in a search of this graph keeps that jump's successors
    /// rather than jumping again. Needs no search, so that the query driver answers such a
    /// query without one (discretise/query.hpp).
    std::optional<double> start_reaches_goal(search::NodeId start) const;

   private:
    // Fills found_ with the successors of n.
    void successors(search::NodeId n) const;
    // With one goal: jumps from n = (x, y) towards the goal's octant when `dirs` (the directions
    // worth following) holds it, and takes it out of dirs. True when the jump reaches the goal:
    // then found_ holds the goal alone, n's one successor.
    bool jump_to_goal(search::NodeId n, int x, int y, unsigned& dirs) const;
    // Adds the successors of n = (x, y) in direction k (move bits) to found_.
    void jump(search::NodeId n, int x, int y, int k) const;
    // The directions worth following from n (move bits), from the direction n was reached in.
    unsigned directions(search::NodeId n, int x, int y) const;
    // Steps to the successor in straight direction k, 0 for none.
    int straight(search::NodeId n, int x, int y, int k) const;
    // The successors along diagonal direction K from n = (x, y), into found_.
    template <int K>
    void diagonal(search::NodeId n, int x, int y) const;
    void diagonal_plus(search::NodeId n, int x, int y, int k) const;
    // Adds cell (tx, ty), reached from (x, y) diagonally and then straight, to found_.
    void add(int x, int y, int tx, int ty) const {
      const int ex = tx > x ? tx - x : x - tx, ey = ty > y ? ty - y : y - ty;
      const int lo = ex < ey ? ex : ey, hi = ex < ey ? ey : ex;
      found_.push_back({search::NodeId(std::uint32_t(ty) * split_.width() + std::uint32_t(tx)),
                        lo * diagonal_cost_ + (hi - lo) * straight_cost_});
    }
    // Adds the cell `diagonal` diagonal moves and then `straight` straight moves from the node
    // being expanded: its octile cost without working the moves out from the cells again.
    void add_run(std::int64_t cell, int diagonal, int straight) const {
      found_.push_back(
          {search::NodeId(cell), diagonal * diagonal_cost_ + straight * straight_cost_});
    }
    // Notes that a jump reached a goal, whose successor is the last the jump adds; with one goal
    // that ends the expansion (successors()): true then, and the jump stops.
    bool reach_goal() const {
      reached_goal_ = true;
      return goals_.size() == 1;
    }
    // The nearest goal on the line from (x, y) in straight direction k within `range` steps:
    // its distance, else 0.
    int goal_along(int x, int y, int k, int range) const;
    // Straight jump from (x, y) in direction k with the bit copies: > 0 a jump point that far,
    // <= 0 minus the distance to the last free cell.
    int scan(int x, int y, int k) const;

    const JumpPointGrid* grid_;
    const search::AStar* astar_;
    std::span<const Cell> goals_;        // in buffers
    std::vector<Successor>& found_;      // the successors of the node being expanded
    mutable bool reached_goal_ = false;  // a jump of this expansion reached a goal
    // The start whose jump towards the goal start_reaches_goal made, short of the goal, and its
    // directions still to follow: its expansion starts from there.
    mutable search::NodeId primed_ = search::no_node;
    mutable unsigned primed_dirs_ = 0;
    CellSplit split_;  // and the grid's width
    std::size_t cells_;
    bool plus_;
    std::int64_t offset_[8];
    double straight_cost_, diagonal_cost_;
  };

  /// The graph of one query to the given goal cells, or nothing when the method fell back to A*
  /// (the driver then searches the grid itself). See discretise/query.hpp.
  std::optional<Graph> query_graph(QueryWorkspace& workspace,
                                   std::span<const search::NodeId> goals) const;

 private:
  friend class Graph;
  void build_bits(bool columns);
  void build_prune_table();
  void build_table();
  // The table updated from `before`'s where the grids' cells or moves differ; false (nothing
  // changed) when before's table does not apply (another size, limit or search).
  bool update_table(const JumpPointGrid& before);
  // The jps+ entry of cell (x, y) in direction k, from the entries of the next cell along k;
  // with k a constant, so that each direction's sweep compiles to a loop of its own.
  template <int k>
  int table_value(int x, int y) const;
  int table_value(int x, int y, int k) const;
  const std::uint64_t* row(int y) const { return grid_.free_row(y); }
  // The 3 x 3 cells around (x, y) as 9 bits, 1 = free: bit 3 (j + 1) + (i + 1) is (x + i, y + j).
  unsigned neighbourhood(int x, int y) const;
  const std::uint64_t* column(int x) const {
    return columns_.data() + std::size_t(x + 1) * column_words_;
  }

  OccupancyGrid grid_;
  JumpOptions options_;
  std::string fallback_;
  std::string note_;
  double multiplier_ = 1.0;  // the cells' one cost multiplier
  double preprocessing_ms_ = 0.0;
  // Free cells, one bit each: the grid's rows (OccupancyGrid::free_row), and (jps only) their
  // transpose, columns_: line x + 1 for x = -1 .. width, bit y + 64 of it the cell (x, y). Lines
  // beyond the grid and the padding words are zero (blocked).
  std::vector<std::uint64_t> columns_;
  // The pruned directions (move bits) of a node by the direction it was reached in (0-7; 8 for
  // a start) and its neighbourhood().
  std::uint8_t prune_[9][512] = {};
  std::size_t column_words_ = 0;
  // jps+: per cell, the 8 jump distances (see jump_distance).
  std::vector<std::int16_t> table_;
  std::size_t table_entries_computed_ = 0;
};

}  // namespace polynav
