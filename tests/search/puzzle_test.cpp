// The 8-puzzle through ImplicitGraph: A*, weighted A*, IDA* and reachability on a state space
// whose nodes are discovered during the search. Optimal move counts come from an independent
// breadth-first search over the whole space, not from the literature.

#include <gtest/gtest.h>

#include <array>
#include <cstdint>
#include <cstdlib>
#include <deque>
#include <random>
#include <unordered_map>
#include <utility>
#include <vector>

#include "polynav/search/astar.hpp"
#include "polynav/search/ida_star.hpp"
#include "polynav/search/implicit_graph.hpp"

namespace polynav::search {
namespace {

// Tiles row by row, 0 is the blank.
using Board = std::array<std::uint8_t, 9>;

constexpr Board solved{1, 2, 3, 4, 5, 6, 7, 8, 0};

struct BoardHash {
  std::size_t operator()(const Board& b) const noexcept {
    std::uint64_t key = 0;
    for (const std::uint8_t t : b) key = key * 9 + t;
    return static_cast<std::size_t>(key);
  }
};

// Slides a tile next to the blank into it: up to four moves of cost 1.
struct Moves {
  template <class Emit>
  void operator()(const Board& b, Emit&& emit) const {
    int blank = 0;
    while (b[static_cast<std::size_t>(blank)] != 0) ++blank;
    const int r = blank / 3, c = blank % 3;
    constexpr int dr[] = {-1, 1, 0, 0};
    constexpr int dc[] = {0, 0, -1, 1};
    for (int k = 0; k < 4; ++k) {
      const int nr = r + dr[k], nc = c + dc[k];
      if (nr < 0 || nr > 2 || nc < 0 || nc > 2) continue;
      Board next = b;
      std::swap(next[static_cast<std::size_t>(blank)], next[static_cast<std::size_t>(nr * 3 + nc)]);
      emit(next, 1.0);
    }
  }
};

using PuzzleGraph = ImplicitGraph<Board, Moves, BoardHash>;
static_assert(GrowingGraph<PuzzleGraph>);

int manhattan(const Board& b) {
  int sum = 0;
  for (int i = 0; i < 9; ++i) {
    const int t = b[static_cast<std::size_t>(i)];
    if (t == 0) continue;
    sum += std::abs(i / 3 - (t - 1) / 3) + std::abs(i % 3 - (t - 1) % 3);
  }
  return sum;
}

// Breadth-first search over the whole space from the solved board, on boards packed into 4-bit
// nibbles: written separately from Moves so that it checks rather than repeats it.
class Distances {
 public:
  Distances() {
    const std::uint64_t start = pack(solved);
    dist_.emplace(start, 0);
    std::deque<std::uint64_t> queue{start};
    while (!queue.empty()) {
      const std::uint64_t s = queue.front();
      queue.pop_front();
      const int d = dist_.at(s);
      int blank = 0;
      while (nibble(s, blank) != 0) ++blank;
      for (const int other :
           {blank - 3, blank + 3, blank % 3 ? blank - 1 : -1, blank % 3 != 2 ? blank + 1 : -1}) {
        if (other < 0 || other > 8) continue;
        const std::uint64_t tile = nibble(s, other);
        const std::uint64_t next = s - (tile << (4 * other)) + (tile << (4 * blank));
        if (dist_.emplace(next, d + 1).second) queue.push_back(next);
      }
    }
  }
  static std::uint64_t pack(const Board& b) {
    std::uint64_t s = 0;
    for (int i = 0; i < 9; ++i) s |= std::uint64_t{b[static_cast<std::size_t>(i)]} << (4 * i);
    return s;
  }
  // -1 if unreachable from the solved board.
  int operator()(const Board& b) const {
    const auto it = dist_.find(pack(b));
    return it == dist_.end() ? -1 : it->second;
  }
  std::size_t size() const { return dist_.size(); }
  std::size_t count_within(int moves) const {
    std::size_t n = 0;
    for (const auto& [s, d] : dist_) n += d <= moves;
    return n;
  }
  int max() const {
    int m = 0;
    for (const auto& [s, d] : dist_) m = std::max(m, d);
    return m;
  }

 private:
  static std::uint64_t nibble(std::uint64_t s, int i) { return (s >> (4 * i)) & 0xF; }
  std::unordered_map<std::uint64_t, int> dist_;
};

const Distances& distances() {
  static const Distances d;
  return d;
}

constexpr Board hardest{8, 6, 7, 2, 5, 4, 3, 0, 1};

bool one_move_apart(const Board& a, const Board& b) {
  int differ = 0, ia = -1, ib = -1;
  for (int i = 0; i < 9; ++i) {
    if (a[static_cast<std::size_t>(i)] != b[static_cast<std::size_t>(i)]) {
      ++differ;
      if (a[static_cast<std::size_t>(i)] == 0) ia = i;
      if (b[static_cast<std::size_t>(i)] == 0) ib = i;
    }
  }
  if (differ != 2 || ia < 0 || ib < 0) return false;
  return std::abs(ia - ib) == 3 || (std::abs(ia - ib) == 1 && ia / 3 == ib / 3);
}

void expect_solution(const PuzzleGraph& g, const Board& from, const SearchResult& r, int moves) {
  ASSERT_EQ(r.status, SearchStatus::found) << r.explanation();
  EXPECT_EQ(r.cost, moves);
  ASSERT_EQ(r.path.size(), static_cast<std::size_t>(moves) + 1);
  EXPECT_EQ(g.state(r.path.front()), from);
  EXPECT_EQ(g.state(r.path.back()), solved);
  for (std::size_t i = 1; i < r.path.size(); ++i) {
    EXPECT_TRUE(one_move_apart(g.state(r.path[i - 1]), g.state(r.path[i]))) << "step " << i;
  }
}

TEST(ImplicitGraph, InternsEachStateOnce) {
  PuzzleGraph g{Moves{}};
  EXPECT_EQ(g.find(solved), no_node);
  const NodeId s = g.id_of(solved);
  EXPECT_EQ(s, 0u);
  EXPECT_EQ(g.id_of(solved), s);
  EXPECT_EQ(g.find(solved), s);
  EXPECT_EQ(g.state(s), solved);
  std::vector<NodeId> first, second;
  g.for_each_neighbour(s, [&](NodeId n, double cost) {
    first.push_back(n);
    EXPECT_EQ(cost, 1.0);
  });
  EXPECT_EQ(first, (std::vector<NodeId>{1, 2}));  // the blank in a corner has two moves
  g.for_each_neighbour(s, [&](NodeId n, double) { second.push_back(n); });
  EXPECT_EQ(second, first);
  EXPECT_EQ(g.node_count(), 3u);
  // Moving back from a neighbour finds the solved board again.
  bool back = false;
  g.for_each_neighbour(first[0], [&](NodeId n, double) { back |= n == s; });
  EXPECT_TRUE(back);
  // Many states: the table rehashes and every id still maps to its own state.
  std::mt19937_64 rng(3);
  std::vector<Board> boards;
  for (int i = 0; i < 5000; ++i) {
    Board b = solved;
    std::shuffle(b.begin(), b.end(), rng);
    boards.push_back(b);
    const NodeId id = g.id_of(b);
    ASSERT_EQ(g.state(id), b);
  }
  for (const Board& b : boards) ASSERT_EQ(g.state(g.find(b)), b);
  g.clear();
  EXPECT_EQ(g.node_count(), 0u);
  EXPECT_EQ(g.find(solved), no_node);
}

TEST(EightPuzzle, BreadthFirstSearchConfirmsTheHardestInstance) {
  EXPECT_EQ(distances().size(), 181440u);  // 9!/2: half the permutations are solvable
  EXPECT_EQ(distances()(hardest), 31);
  EXPECT_EQ(distances().max(), 31);
}

TEST(EightPuzzle, AStarWithManhattanSolvesTheHardestInstanceOptimally) {
  PuzzleGraph g{Moves{}};
  const NodeId start = g.id_of(hardest);
  const NodeId goal = g.id_of(solved);
  AStar astar;
  const auto h = [&](NodeId n) { return static_cast<double>(manhattan(g.state(n))); };
  const SearchResult r = astar.search(g, start, goal, h);
  expect_solution(g, hardest, r, distances()(hardest));
  EXPECT_LE(g.node_count(), 181440u);

  SearchOptions weighted;
  weighted.weight = 2.0;
  const SearchResult w = astar.search(g, start, goal, h, weighted);
  ASSERT_EQ(w.status, SearchStatus::found);
  EXPECT_LE(w.cost, 2.0 * 31);
}

TEST(EightPuzzle, RandomInstancesMatchBreadthFirstDistances) {
  PuzzleGraph g{Moves{}};  // shared: ids persist and the graph keeps growing across queries
  AStar astar;
  SearchResult r;
  const auto h = [&](NodeId n) { return static_cast<double>(manhattan(g.state(n))); };
  std::mt19937_64 rng(8);
  int solvable = 0, unsolvable = 0;
  for (int q = 0; q < 40 && !HasFailure(); ++q) {
    Board b = solved;
    std::shuffle(b.begin(), b.end(), rng);
    SCOPED_TRACE(q);
    const NodeId goals[] = {g.id_of(solved)};
    const int d = distances()(b);
    if (d < 0 && unsolvable >= 2) continue;  // each unsolvable one exhausts the whole half-space
    astar.search(g, g.id_of(b), goals, h, SearchOptions{}, r);
    if (d < 0) {
      EXPECT_EQ(r.status, SearchStatus::no_path);
      EXPECT_EQ(r.stats.expanded, 181440u);
      ++unsolvable;
    } else {
      expect_solution(g, b, r, d);
      ++solvable;
    }
  }
  EXPECT_GT(solvable, 10);
  EXPECT_EQ(unsolvable, 2);
}

TEST(EightPuzzle, IdaStarSolvesTheHardestInstanceOptimally) {
  PuzzleGraph g{Moves{}};
  const NodeId start = g.id_of(hardest);
  const NodeId goal = g.id_of(solved);
  const auto h = [&](NodeId n) { return static_cast<double>(manhattan(g.state(n))); };
  const SearchResult r = ida_star(g, start, goal, h);
  expect_solution(g, hardest, r, 31);
  EXPECT_GT(r.stats.iterations, 1u);
}

TEST(EightPuzzle, ReachabilityFindsExactlyTheStatesWithinTheBound) {
  PuzzleGraph g{Moves{}};
  AStar astar;
  ReachableSet set;
  astar.reachable(g, g.id_of(solved), 10.0, set);
  ASSERT_EQ(set.status, SearchStatus::found);
  for (const ReachedNode& n : set.nodes) {
    ASSERT_EQ(static_cast<double>(distances()(g.state(n.node))), n.cost);
  }
  EXPECT_EQ(set.nodes.size(), distances().count_within(10));

  astar.reachable(g, g.id_of(solved), 31.0, set);
  EXPECT_EQ(set.nodes.size(), 181440u);
}

}  // namespace
}  // namespace polynav::search
