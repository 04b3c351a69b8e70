#include "polynav/discretise/grid/central_paths.hpp"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <limits>

namespace polynav {
namespace {

const double sqrt2 = std::sqrt(2.0);
const double sqrt5 = std::sqrt(5.0);

PathCount normalised(double mantissa, std::int64_t exponent) {
  if (mantissa == 0.0) return {};
  int e = 0;
  const double m = std::frexp(mantissa, &e);  // m in [0.5, 1)
  return {2.0 * m, exponent + e - 1};
}

}  // namespace

PathCount& PathCount::operator+=(const PathCount& other) {
  if (other.mantissa == 0.0) return *this;
  if (mantissa == 0.0) return *this = other;
  const PathCount& big = exponent >= other.exponent ? *this : other;
  const PathCount& small = exponent >= other.exponent ? other : *this;
  const std::int64_t shift = big.exponent - small.exponent;
  // Beyond 64 binary places the smaller count is below a double's precision of the larger.
  const double sum = big.mantissa + (shift > 64 ? 0.0 : std::ldexp(small.mantissa, -int(shift)));
  return *this = normalised(sum, big.exponent);
}

PathCount operator*(const PathCount& a, const PathCount& b) {
  return normalised(a.mantissa * b.mantissa, a.exponent + b.exponent);
}

bool operator<(const PathCount& a, const PathCount& b) {
  if (a.mantissa == 0.0 || b.mantissa == 0.0) return a.mantissa < b.mantissa;
  return a.exponent != b.exponent ? a.exponent < b.exponent : a.mantissa < b.mantissa;
}

double PathCount::value() const {
  if (exponent > 1100) return std::numeric_limits<double>::infinity();
  return std::ldexp(mantissa, int(exponent));
}

std::string CentralGridPaths::applies(const OccupancyGrid& grid) {
  // Undirected arcs: the grid has component labels exactly when no height step makes moves
  // one way (see OccupancyGrid's constructor).
  if (grid.components() == nullptr && grid.node_count() > 0)
    return "height steps make moves one way";
  bool first = true;
  double multiplier = 1.0;
  for (int y = 0; y < grid.height(); ++y)
    for (int x = 0; x < grid.width(); ++x) {
      if (grid.blocked(x, y)) continue;
      if (first) multiplier = grid.cell_cost(x, y);
      first = false;
      if (grid.cell_cost(x, y) != multiplier) return "cells of different cost";
    }
  return {};
}

double CentralGridPaths::Moves::cells() const {
  return straight + diagonal * sqrt2 + knight * sqrt5;
}

CentralGridPaths::Record& CentralGridPaths::touch(search::NodeId n, double h) {
  Record& r = records_[n];
  if (r.stamp != generation_) r = Record{{}, generation_, State::unseen, INFINITY, h, 0, 0, {}};
  return r;
}

CentralGridPaths::Moves CentralGridPaths::move(search::NodeId a, search::NodeId b) const {
  const auto w = std::uint32_t(across_);
  const int dx = std::abs(int(a % w) - int(b % w)), dy = std::abs(int(a / w) - int(b / w));
  Moves m;
  if (dx + dy == 1)
    m.straight = 1;
  else if (dx + dy == 2)
    m.diagonal = 1;
  else
    m.knight = 1;
  return m;
}

double CentralGridPaths::heuristic(search::NodeId n) const {
  // The shortest distance in cells on an open grid of the same moves, to the nearest target plus
  // its leg: consistent, so every node's g is final when it is expanded.
  const auto w = std::uint32_t(across_);
  double best = INFINITY;
  for (std::size_t j = 0; j < targets_.size(); ++j) {
    const int dx = std::abs(int(n % w) - targets_[j].first);
    const int dy = std::abs(int(n / w) - targets_[j].second);
    const int hi = std::max(dx, dy), lo = std::min(dx, dy);
    double h;
    switch (grid_->options().connectivity) {
      case 4:
        h = double(hi + lo);
        break;
      case 8:
        h = double(hi - lo) + lo * sqrt2;
        break;
      default:
        h = 2 * lo <= hi ? lo * sqrt5 + double(hi - 2 * lo)
                         : double(hi - lo) * sqrt5 + double(2 * lo - hi) * sqrt2;
    }
    best = std::min(best, h + target_legs_[j]);
  }
  return best;
}

bool CentralGridPaths::precedes(search::NodeId p, search::NodeId q) const {
  return settled(p) && records_[p].g + move(p, q) == records_[q].g;
}

bool CentralGridPaths::find(const OccupancyGrid& grid, std::span<const Seed> sources,
                            std::span<const Seed> targets, std::vector<search::NodeId>& path) {
  path.clear();
  grid_ = &grid;
  across_ = grid.corners() ? grid.width() + 1 : grid.width();
  expanded_ = 0;
  dag_.clear();
  targets_.clear();
  target_legs_.clear();
  for (const Seed& t : targets) {
    targets_.push_back(
        {int(t.node % std::uint32_t(across_)), int(t.node / std::uint32_t(across_))});
    target_legs_.push_back(t.leg.cells());
  }
  // The goal point is one more node, after the grid's: its predecessors are the targets.
  const auto goal = search::NodeId(grid.node_count());
  if (records_.size() < grid.node_count() + 1) {
    records_.resize(grid.node_count() + 1);
    heap_.reserve_ids(grid.node_count() + 1);
  }
  heap_.clear();
  if (++generation_ == 0) {
    for (Record& r : records_) r.stamp = 0;
    generation_ = 1;
  }
  for (const Seed& t : targets) {
    Record& r = touch(t.node, heuristic(t.node));
    r.seed |= target_flag;
    r.leg = t.leg;
  }

  // 1. A* from the sources (each at the cost of its leg) on until every node whose f is at most
  // the optimal cost is expanded. The slack only expands a few more nodes (harmless); exact ties
  // are decided on the move counts.
  const auto relax = [&](search::NodeId to, const Moves& g) {
    Record& t = touch(to, INFINITY);
    if (t.state == State::closed) return;
    const double value = g.cells();
    if (!(value < t.value)) return;
    if (t.state == State::unseen) t.h = to == goal ? 0.0 : heuristic(to);
    t.g = g;
    t.value = value;
    if (t.state == State::open) {
      heap_.update(to, value + t.h);
    } else {
      t.state = State::open;
      heap_.push(to, value + t.h);
    }
  };
  for (const Seed& s : sources) relax(s.node, s.leg);
  double bound = INFINITY;
  while (!heap_.empty()) {
    if (heap_.top_key() > bound) break;
    const search::NodeId s = heap_.pop();
    Record& r = records_[s];
    r.state = State::closed;
    if (s == goal) {
      bound = r.value * (1.0 + 1e-12) + 1e-9;
      continue;
    }
    ++expanded_;
    const Moves g = r.g;
    if (r.seed & target_flag) relax(goal, g + r.leg);
    grid.for_each_neighbour(s, [&](search::NodeId to, double) { relax(to, g + move(s, to)); });
  }
  if (!settled(goal)) return false;
  for (const Seed& s : sources)
    if (records_[s.node].g == s.leg && settled(s.node)) records_[s.node].seed |= source_flag;
  // Whether t is a target whose leg ends a shortest path at the goal point.
  const auto ends = [&](search::NodeId t) {
    return settled(t) && (records_[t].seed & target_flag) &&
           records_[t].g + records_[t].leg == records_[goal].g;
  };

  // 2. The nodes on shortest paths, from the goal point back over exact predecessors.
  const auto dag_index = [&](search::NodeId n) -> std::uint32_t& { return records_[n].dag; };
  stack_.clear();
  const auto add = [&](search::NodeId p) {
    if (dag_index(p) != 0) return;
    dag_.push_back({p, {}, {}});
    dag_index(p) = std::uint32_t(dag_.size());
    stack_.push_back(p);
  };
  for (const Seed& t : targets)
    if (ends(t.node)) add(t.node);
  while (!stack_.empty()) {
    const search::NodeId q = stack_.back();
    stack_.pop_back();
    grid.for_each_neighbour(q, [&](search::NodeId p, double) {
      if (precedes(p, q)) add(p);
    });
  }
  // 3. Count: forwards in order of increasing g (a predecessor's g is smaller), backwards in
  // the reverse order; a source counts the path from the start point, a target the path to the
  // goal point.
  std::sort(dag_.begin(), dag_.end(), [&](const DagNode& a, const DagNode& b) {
    return records_[a.node].value < records_[b.node].value;
  });
  for (std::size_t i = 0; i < dag_.size(); ++i) dag_index(dag_[i].node) = std::uint32_t(i + 1);
  const auto in_dag = [&](search::NodeId n) {
    return records_[n].stamp == generation_ && records_[n].dag != 0;
  };
  for (DagNode& d : dag_) {
    if (records_[d.node].seed & source_flag) d.forward = PathCount::one();
    grid.for_each_neighbour(d.node, [&](search::NodeId p, double) {
      if (in_dag(p) && precedes(p, d.node)) d.forward += dag_[records_[p].dag - 1].forward;
    });
  }
  for (auto it = dag_.rbegin(); it != dag_.rend(); ++it) {
    if (ends(it->node)) it->backward = PathCount::one();
    grid.for_each_neighbour(it->node, [&](search::NodeId q, double) {
      if (in_dag(q) && precedes(it->node, q)) it->backward += dag_[records_[q].dag - 1].backward;
    });
  }
  // 4. From the goal point, each step to the predecessor most shortest paths pass through; the
  // start point is the predecessor of a source that every shortest path passes through, so a
  // source ends the path.
  const auto through = [&](search::NodeId n) {
    const DagNode& d = dag_[records_[n].dag - 1];
    return d.forward * d.backward;
  };
  search::NodeId q = search::no_node;
  PathCount most;
  for (const Seed& t : targets)
    if (ends(t.node) && (q == search::no_node || most < through(t.node))) {
      q = t.node;
      most = through(q);
    }
  if (q == search::no_node) return false;
  path.push_back(q);
  while (!(records_[q].seed & source_flag)) {
    search::NodeId best = search::no_node;
    grid.for_each_neighbour(q, [&](search::NodeId p, double) {
      if (!in_dag(p) || !precedes(p, q)) return;
      if (best == search::no_node || most < through(p)) {
        best = p;
        most = through(p);
      }
    });
    if (best == search::no_node) return false;  // cannot happen: q is on a shortest path
    path.push_back(best);
    q = best;
  }
  std::reverse(path.begin(), path.end());
  return true;
}

PathCount CentralGridPaths::from_source(search::NodeId n) const {
  if (n >= records_.size() || records_[n].stamp != generation_ || records_[n].dag == 0) return {};
  return dag_[records_[n].dag - 1].forward;
}

PathCount CentralGridPaths::to_target(search::NodeId n) const {
  if (n >= records_.size() || records_[n].stamp != generation_ || records_[n].dag == 0) return {};
  return dag_[records_[n].dag - 1].backward;
}

}  // namespace polynav
