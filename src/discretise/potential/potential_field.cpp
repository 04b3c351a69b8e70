#include "polynav/discretise/potential/potential_field.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <limits>
#include <span>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "polynav/error.hpp"
#include "polynav/kernel/box_index.hpp"
#include "polynav/space/free_space.hpp"

namespace polynav {
namespace {

using Clock = std::chrono::steady_clock;
using search::SearchStatus;

// Why a walk ended.
enum class PotentialEnd : std::uint8_t {
  reached,      // the goal was reached
  no_progress,  // `window` steps without progress
  blocked,      // no step could be taken
  budget,       // max_steps taken
};

std::string point_words(Point p) {
  std::ostringstream out;
  out.precision(6);
  out << "(" << p.x << ", " << p.y << ")";
  return out.str();
}

// The discretisation a potential method reports: named "potential", otherwise the fall-back's
// (its nodes, attachments, components, primitives), or an empty graph without one.
class PotentialField final : public Discretisation {
 public:
  PotentialField(const Discretisation* fallback, std::string summary)
      : fallback_(fallback), summary_(std::move(summary)) {}

  std::string_view method() const override { return "potential"; }
  std::size_t node_count() const override { return fallback_ ? fallback_->node_count() : 0; }
  Point node_position(search::NodeId n) const override { return fallback_->node_position(n); }
  void attach(Point p, AttachDirection direction, std::vector<Attachment>& out) const override {
    out.clear();
    if (fallback_) fallback_->attach(p, direction, out);
  }
  std::string unattached_reason(std::string_view which) const override {
    return fallback_ ? fallback_->unattached_reason(which)
                     : "the potential field has no fall-back graph to attach the " +
                           std::string(which) + " to";
  }
  SearchStatus unattached_status() const override {
    return fallback_ ? fallback_->unattached_status() : SearchStatus::invalid_query;
  }
  std::string_view graph_noun() const override {
    return fallback_ ? fallback_->graph_noun() : "potential field";
  }
  const search::ComponentLabels* components() const override {
    return fallback_ ? fallback_->components() : nullptr;
  }
  Ring node_region(search::NodeId n) const override {
    return fallback_ ? fallback_->node_region(n) : Ring{};
  }
  std::string summary() const override { return summary_; }
  Primitives primitives() const override {
    return fallback_ ? fallback_->primitives() : Primitives{};
  }

 private:
  const Discretisation* fallback_;
  std::string summary_;
};

// Per-query scratch of the repulsion: the edges near a point.
struct FieldScratch {
  std::vector<std::uint32_t> stamps;
  std::uint32_t stamp = 0;
  struct Near {
    std::uint32_t edge;
    double distance;
    Point at;
  };
  std::vector<Near> near;
  std::vector<std::pair<std::size_t, std::size_t>> runs;  // [begin, end) into near
};

// The walk and the method around it.
class PotentialMethod final : public Method {
 public:
  PotentialMethod(const FreeSpace& space, const PotentialOptions& options,
                  std::unique_ptr<Method> fallback)
      : space_(&space), options_(options), fallback_(std::move(fallback)) {
    const Box box = space.box();
    const double side = box.empty() ? 0.0 : std::max(box.width(), box.height());
    step_ = options.step > 0.0 ? options.step : (side > 0.0 ? side / 256.0 : 1.0);
    influence_ = options.influence > 0.0 ? options.influence : 6.0 * step_;
    fallback_name_ = fallback_ ? std::string(fallback_->discretisation().method()) : "none";
    // The boundary edges, ring by ring, so that consecutive edges of a ring have consecutive ids.
    for (const BoundaryRing& ring : space.boundary()) {
      const std::size_t n = ring.points.size();
      if (n < 2) continue;
      const auto first = std::uint32_t(edges_.size());
      for (std::size_t k = 0; k < n; ++k) {
        edges_.push_back({ring.points[k], ring.points[(k + 1) % n]});
        ring_first_.push_back(first);
      }
      const auto end = std::uint32_t(edges_.size());
      for (std::uint32_t e = first; e < end; ++e) ring_end_.push_back(end);
    }
    index_ = BoxIndex(box, std::max<std::size_t>(edges_.size(), 1));
    index_.assign_segments(edges_);
    std::ostringstream summary;
    summary.precision(4);
    summary << "potential field (step " << step_ << ", influence " << influence_ << ", "
            << edges_.size() << " boundary edges) falling back on "
            << (fallback_ ? fallback_name_ : std::string("nothing"));
    if (fallback_) {
      const std::string inner = fallback_->discretisation().summary();
      if (!inner.empty()) summary << " (" << inner << ")";
    }
    field_ = std::make_unique<PotentialField>(fallback_ ? &fallback_->discretisation() : nullptr,
                                              summary.str());
  }

  const Discretisation& discretisation() const override { return *field_; }

  void prepare(QueryWorkspace& workspace) const override {
    if (fallback_) fallback_->prepare(workspace);
    FieldScratch& scratch = workspace.state<FieldScratch>();
    scratch.stamps.assign(edges_.size(), 0);
    scratch.near.reserve(64);
  }

  RawPath find_path(Point start, Point goal, const QueryOptions& options,
                    QueryWorkspace& workspace) const override {
    return answer(start, goal, options, workspace);
  }

  // A goal set: each goal planned on its own (walk and fall-back), the cheapest path found
  // returned, so that the set's answer is the best of the single-goal answers; when none is
  // found, the answer for the first goal.
  RawPath find_path_to_any(Point start, std::span<const Point> goals, const QueryOptions& options,
                           QueryWorkspace& workspace, std::size_t& reached_goal) const override {
    reached_goal = goals.size();
    RawPath best;
    best.method = "potential";
    if (goals.empty()) {
      best.message = "the goal set is empty";
      return best;
    }
    search::SearchStats stats;
    const auto t0 = Clock::now();
    for (std::size_t i = 0; i < goals.size(); ++i) {
      RawPath r = answer(start, goals[i], options, workspace);
      add_stats(stats, r.stats);
      const bool better = r.status == SearchStatus::found &&
                          (best.status != SearchStatus::found || r.graph_cost < best.graph_cost);
      if (i == 0 || better) {
        best = std::move(r);
        if (best.status == SearchStatus::found) reached_goal = i;
      }
    }
    best.stats = stats;
    best.stats.elapsed = Clock::now() - t0;
    return best;
  }

  Reach reach(Point from, double max_cost, QueryWorkspace& workspace) const override {
    if (fallback_) return fallback_->reach(from, max_cost, workspace);
    Reach out;
    out.message = "the potential field has no reach without a fall-back (potential.fallback=none)";
    return out;
  }

 private:
  struct Walk {
    std::vector<Point> points;
    PotentialEnd end = PotentialEnd::reached;
    std::size_t steps = 0;
  };

  // The direction of the force at p (attraction to goal plus repulsion), unnormalised.
  Point force(Point p, Point goal, FieldScratch& scratch) const {
    Point f{0.0, 0.0};
    const Point to_goal = goal - p;
    const double d = norm(to_goal);
    if (d > 0.0) {
      f = options_.attraction_shape == PotentialAttraction::conic
              ? (options_.attraction / d) * to_goal
              : (options_.attraction / influence_) * to_goal;
    }
    if (options_.repulsion == 0.0 || edges_.empty()) return f;
    // The edges within the influence distance, by id.
    const Box around{{p.x - influence_, p.y - influence_}, {p.x + influence_, p.y + influence_}};
    if (++scratch.stamp == 0) {
      std::fill(scratch.stamps.begin(), scratch.stamps.end(), 0);
      scratch.stamp = 1;
    }
    scratch.near.clear();
    index_.visit(around, scratch.stamps, scratch.stamp, [&](std::uint32_t e) {
      const Segment& s = edges_[e];
      const Point ab = s.b - s.a;
      const double ll = dot(ab, ab);
      const double t = ll > 0.0 ? std::clamp(dot(p - s.a, ab) / ll, 0.0, 1.0) : 0.0;
      const Point q = s.a + t * ab;
      const double rho = distance(p, q);
      if (rho < influence_) scratch.near.push_back({e, rho, q});
    });
    if (scratch.near.empty()) return f;
    std::sort(
        scratch.near.begin(), scratch.near.end(),
        [](const FieldScratch::Near& a, const FieldScratch::Near& b) { return a.edge < b.edge; });
    // Pieces: runs of consecutive edges of one ring (the ring's last edge runs on into its
    // first); each repels from its nearest point.
    const auto repel = [&](const FieldScratch::Near& n) {
      const double rho = std::max(n.distance, influence_ * 1e-6);
      Point away;
      if (n.distance > 0.0) {
        away = (1.0 / n.distance) * (p - n.at);
      } else {  // on the boundary: free space lies left of its edges
        const Segment& s = edges_[n.edge];
        const Point ab = s.b - s.a;
        const double l = norm(ab);
        if (!(l > 0.0)) return;
        away = {-ab.y / l, ab.x / l};
      }
      const double r = influence_ / rho;
      f = f + (options_.repulsion * (r - 1.0) * r * r) * away;
    };
    const std::vector<FieldScratch::Near>& near = scratch.near;
    std::size_t k = 0;
    // A run that starts at its ring's first edge joins the run ending at the ring's last edge.
    while (k < near.size()) {
      const std::uint32_t first = ring_first_[near[k].edge], end = ring_end_[near[k].edge];
      std::size_t ring_stop = k;
      while (ring_stop < near.size() && near[ring_stop].edge < end) ++ring_stop;
      // Runs in [k, ring_stop).
      std::vector<std::pair<std::size_t, std::size_t>>& runs = scratch.runs;
      runs.clear();
      for (std::size_t i = k; i < ring_stop;) {
        std::size_t j = i + 1;
        while (j < ring_stop && near[j].edge == near[j - 1].edge + 1) ++j;
        runs.push_back({i, j});
        i = j;
      }
      const bool wraps = runs.size() > 1 && near[runs.front().first].edge == first &&
                         near[runs.back().second - 1].edge == end - 1;
      for (std::size_t r = wraps ? 1 : 0; r < runs.size(); ++r) {
        std::size_t best = runs[r].first;
        for (std::size_t i = runs[r].first; i < runs[r].second; ++i)
          if (near[i].distance < near[best].distance) best = i;
        if (wraps && r + 1 == runs.size())
          for (std::size_t i = runs.front().first; i < runs.front().second; ++i)
            if (near[i].distance < near[best].distance) best = i;
        repel(near[best]);
      }
      k = ring_stop;
    }
    return f;
  }

  // Whether the walk may go on from the last point of `path` to q.
  bool may_step(const std::vector<Point>& path, Point q) const {
    const Point p = path.back();
    if (q == p || !space_->traversable(p, q)) return false;
    return path.size() < 2 || space_->turn_is_free(path[path.size() - 2], p, q);
  }

  Walk walk(Point start, Point goal, FieldScratch& scratch) const {
    Walk w;
    w.points.push_back(start);
    if (start == goal) return w;
    const double straight = distance(start, goal);
    const std::size_t budget =
        options_.max_steps > 0 ? options_.max_steps
                               : std::size_t(std::min(8.0 * std::ceil(straight / step_), 1e8)) + 64;
    double best = straight;
    std::size_t progress_at = 0;
    for (;;) {
      const Point p = w.points.back();
      if (distance(p, goal) <= step_ && may_step(w.points, goal)) {
        w.points.push_back(goal);
        w.end = PotentialEnd::reached;
        return w;
      }
      if (w.steps >= budget) {
        w.end = PotentialEnd::budget;
        return w;
      }
      const Point f = force(p, goal, scratch);
      const double strength = norm(f);
      if (!(strength > 0.0) || !std::isfinite(strength)) {
        w.end = PotentialEnd::blocked;
        return w;
      }
      const Point direction = (1.0 / strength) * f;
      bool moved = false;
      double length = step_;
      for (int tries = 0; tries < 5 && !moved; ++tries, length *= 0.5) {
        const Point q = p + length * direction;
        if (may_step(w.points, q)) {
          w.points.push_back(q);
          moved = true;
        }
      }
      if (!moved) {
        w.end = PotentialEnd::blocked;
        return w;
      }
      ++w.steps;
      const double now = distance(w.points.back(), goal);
      if (now < best - 0.25 * step_) {
        best = now;
        progress_at = w.steps;
      } else if (w.steps - progress_at >= options_.window) {
        w.end = PotentialEnd::no_progress;
        return w;
      }
    }
  }

  std::string why(const Walk& w) const {
    switch (w.end) {
      case PotentialEnd::no_progress:
        return "local minimum (no progress in " + std::to_string(options_.window) + " steps)";
      case PotentialEnd::blocked:
        return "local minimum (step blocked)";
      case PotentialEnd::budget:
        return "local minimum (step budget spent)";
      case PotentialEnd::reached:
        break;
    }
    return {};
  }

  RawPath answer(Point start, Point goal, const QueryOptions& options, QueryWorkspace& ws) const {
    const auto t0 = Clock::now();
    RawPath out;
    out.method = "potential";
    FieldScratch& scratch = ws.state<FieldScratch>();
    if (scratch.stamps.size() != edges_.size()) scratch.stamps.assign(edges_.size(), 0);
    Walk w = walk(start, goal, scratch);
    bool from_start = false;  // the path is the fall-back's own from the start
    const std::string steps = std::to_string(w.steps) + (w.steps == 1 ? " step" : " steps");
    if (w.end == PotentialEnd::reached) {
      out.status = SearchStatus::found;
      out.points = std::move(w.points);
      out.message = "potential field reached the goal on its own in " + steps;
    } else if (!fallback_) {
      const Point at = w.points.back();
      out.message = "potential field stopped at " + point_words(at) + " after " + steps + ": " +
                    why(w) + "; no fall-back (potential.fallback=none)";
      if (options.search.partial_fallback) {
        // Up to the step closest to the goal.
        std::size_t closest = 0;
        for (std::size_t k = 1; k < w.points.size(); ++k)
          if (distance(w.points[k], goal) < distance(w.points[closest], goal)) closest = k;
        w.points.resize(closest + 1);
        out.status = SearchStatus::partial;
        out.points = std::move(w.points);
      } else {
        out.status = SearchStatus::no_path;
      }
    } else {
      const Point at = w.points.back();
      out.message = std::string(potential_fell_back_prefix) + " at " + point_words(at) + " after " +
                    steps + ": " + why(w);
      from_start = fall_back(start, goal, options, ws, w, out);
    }
    if (out.status == SearchStatus::found) {
      out.graph_cost = space_->path_cost(out.points);
      if (out.graph_cost > options.search.max_cost) {
        // Over the cost limit: the fall-back's own path from the start may keep within it.
        RawPath whole;
        if (fallback_ && !from_start) {
          whole = fallback_->find_path(start, goal, options, ws);
          add_stats(out.stats, whole.stats);
        }
        if (whole.status == SearchStatus::found) {
          out.points = std::move(whole.points);
          out.graph_cost = space_->path_cost(out.points);
          out.expanded = std::move(whole.expanded);
          out.message += "; that costs more than search.max_cost, so the whole path is the " +
                         fallback_name_ + " path from the start" + note(whole);
        } else {
          out.status = SearchStatus::limit_reached;
          out.message += "; " + search::limit_reached_explanation(
                                    search::SearchLimit::cost, options.search.max_cost, out.stats);
          out.points.clear();
        }
      }
    }
    out.stats.elapsed = Clock::now() - t0;
    return out;
  }

  // Joins the fall-back's path from where the walk stopped, or plans from the start; returns
  // whether the answer is the fall-back's from the start.
  bool fall_back(Point start, Point goal, const QueryOptions& options, QueryWorkspace& ws,
                 const Walk& w, RawPath& out) const {
    const Point at = w.points.back();
    RawPath rest = fallback_->find_path(at, goal, options, ws);
    add_stats(out.stats, rest.stats);
    if (rest.status == SearchStatus::found && !rest.points.empty() && rest.points.front() == at) {
      // The join: the turn at `at` from the last step to the fall-back's first move.
      std::size_t next = 1;
      while (next < rest.points.size() && rest.points[next] == at) ++next;
      const bool joins = w.points.size() < 2 || next == rest.points.size() ||
                         space_->turn_is_free(w.points[w.points.size() - 2], at, rest.points[next]);
      if (joins) {
        out.status = SearchStatus::found;
        out.points = w.points;
        out.points.insert(out.points.end(), rest.points.begin() + std::ptrdiff_t(next),
                          rest.points.end());
        out.expanded = std::move(rest.expanded);
        out.message += "; the rest follows the " + fallback_name_ + " path" + note(rest);
        return at == start;
      }
    }
    // From the start instead: found whenever the fall-back finds a path from there.
    RawPath whole = at == start && rest.status != SearchStatus::found
                        ? std::move(rest)
                        : fallback_->find_path(start, goal, options, ws);
    if (!(at == start && whole.status != SearchStatus::found)) add_stats(out.stats, whole.stats);
    out.expanded = std::move(whole.expanded);
    if (whole.status == SearchStatus::found) {
      out.status = SearchStatus::found;
      out.points = std::move(whole.points);
      out.message += "; the " + fallback_name_ +
                     " path from there failed, so the whole path is the " + fallback_name_ +
                     " path from the start" + note(whole);
      return true;
    }
    out.status = whole.status;
    if (whole.status == SearchStatus::partial) out.points = std::move(whole.points);
    out.message += "; the " + fallback_name_ + " found no path: " + whole.message;
    return true;
  }

  std::string note(const RawPath& r) const {
    return r.message.empty() ? std::string() : " (" + fallback_name_ + ": " + r.message + ")";
  }

  static void add_stats(search::SearchStats& out, const search::SearchStats& r) {
    out.expanded += r.expanded;
    out.generated += r.generated;
    out.reopened += r.reopened;
    out.heap_pushes += r.heap_pushes;
    out.heap_pops += r.heap_pops;
    out.heap_decreases += r.heap_decreases;
    out.dropped += r.dropped;
  }

  const FreeSpace* space_;
  PotentialOptions options_;
  std::unique_ptr<Method> fallback_;
  std::string fallback_name_;
  double step_ = 1.0;
  double influence_ = 1.0;
  std::vector<Segment> edges_;
  std::vector<std::uint32_t> ring_first_;  // per edge: the first edge of its ring
  std::vector<std::uint32_t> ring_end_;    // per edge: one past the last edge of its ring
  BoxIndex index_;
  std::unique_ptr<PotentialField> field_;
};

void check(bool ok, const char* key, const std::string& what) {
  if (!ok) throw InputError({"", 0, 0, key}, what);
}

}  // namespace

std::unique_ptr<Method> make_potential_method(const FreeSpace& space,
                                              const PotentialOptions& options,
                                              std::unique_ptr<Method> fallback) {
  check(options.step >= 0.0 && std::isfinite(options.step), "potential.step",
        "potential.step must be a finite number >= 0 (0 = auto)");
  check(options.influence >= 0.0 && std::isfinite(options.influence), "potential.influence",
        "potential.influence must be a finite number >= 0 (0 = auto)");
  check(options.attraction > 0.0 && std::isfinite(options.attraction), "potential.attraction",
        "potential.attraction must be a finite number > 0");
  check(options.repulsion >= 0.0 && std::isfinite(options.repulsion), "potential.repulsion",
        "potential.repulsion must be a finite number >= 0");
  check(options.window >= 1, "potential.window", "potential.window must be >= 1");
  return std::make_unique<PotentialMethod>(space, options, std::move(fallback));
}

}  // namespace polynav
