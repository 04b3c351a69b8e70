// FreeSpace's services over the weighted regions and the clearance cost: the range of cost or
// height over a box, the cost or height at a point, and a segment's exact cost and climbability,
// cut at region and clearance-band boundaries.

#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

#include "free_space_impl.hpp"
#include "polynav/kernel/exact.hpp"
#include "polynav/space/free_space.hpp"

namespace polynav {
namespace {

// Whether the closed box b and the open box o are disjoint.
bool misses_open(const Box& b, const Box& o) {
  return b.max.x <= o.min.x || b.min.x >= o.max.x || b.max.y <= o.min.y || b.min.y >= o.max.y;
}

// Appends where segment a -> a + d meets segment uv (known to meet it): the parameter of the
// crossing, or of both ends of uv when the two are collinear.
void append_crossing(Point a, Point d, Point u, Point v, std::vector<double>& cuts) {
  const Point e = v - u;
  const double denom = cross(d, e);
  if (denom != 0.0) {
    cuts.push_back(std::clamp(cross(u - a, e) / denom, 0.0, 1.0));
  } else {  // collinear overlap: cut at the edge's ends
    const double dd = dot(d, d);
    cuts.push_back(std::clamp(dot(u - a, d) / dd, 0.0, 1.0));
    cuts.push_back(std::clamp(dot(v - a, d) / dd, 0.0, 1.0));
  }
}

}  // namespace

template <class Value>
FieldRange FreeSpace::Impl::field_range(const Box& where, double ground, Value&& value) const {
  FieldRange range{std::numeric_limits<double>::infinity(),
                   -std::numeric_limits<double>::infinity()};
  const auto include = [&](double v) {
    range.lowest = std::min(range.lowest, v);
    range.highest = std::max(range.highest, v);
  };
  const Point centre{where.min.x + 0.5 * where.width(), where.min.y + 0.5 * where.height()};
  bool covered = false;
  // The last region wins where regions overlap: from the last one down to the first that
  // covers the whole box.
  for (std::size_t i = regions.size(); i-- > 0 && !covered;) {
    const std::optional<double> v = value(regions[i]);
    if (!v || misses_open(region_boxes[i], where)) continue;
    const Ring& ring = regions[i].polygon;
    bool edge_inside = false;
    for (std::size_t k = 0; k < ring.size() && !edge_inside; ++k)
      edge_inside = exact::meets_open_box(ring[k], ring[(k + 1) % ring.size()], where);
    const bool centre_inside = exact::side_of_ring(ring, centre) == exact::Side::inside;
    if (!edge_inside && !centre_inside) continue;  // the region misses the box
    include(*v);
    covered = !edge_inside;  // no edge inside and the centre inside: the whole box
  }
  if (!covered) include(ground);
  return range;
}

void FreeSpace::Impl::build_clearance(const Scene& scene, const FreeSpaceOptions& options) {
  const int bands = options.clearance_bands;
  FreeSpaceOptions level_options = options;
  level_options.clearance_distance = 0.0;
  Scene level = scene;
  level.regions.clear();
  level.queries.clear();
  for (int k = 1; k <= bands; ++k) {
    clearance_costs.push_back(1.0 + (options.clearance_factor - 1.0) * (bands - k + 1) / bands);
  }
  for (int k = 1; k <= bands; ++k) {
    level.agent.radius = scene.agent.radius + options.clearance_distance * k / bands;
    try {
      FreeSpace space(level, level_options);
      if (space.area() <= 0.0) break;  // nothing farther out: every deeper band is empty too
      clearance_levels.push_back(std::move(space));
    } catch (const InputError& e) {
      // A radius that leaves nothing free ends the bands; any other problem is the user's.
      if (e.where().key_path != "agent.radius") throw;
      break;
    }
  }
}

double FreeSpace::Impl::clearance_multiplier(Point p) const {
  for (std::size_t k = 0; k < clearance_levels.size(); ++k)
    if (!clearance_levels[k].is_free(p)) return clearance_costs[k];
  return clearance_levels.size() < clearance_costs.size() ? clearance_costs[clearance_levels.size()]
                                                          : 1.0;
}

FieldRange FreeSpace::Impl::clearance_range(const Box& where) const {
  if (clearance_costs.empty()) return {1.0, 1.0};
  const std::size_t levels = clearance_levels.size();
  const auto beyond = [&](std::size_t k) {  // the multiplier of points free in k levels, no more
    return k < clearance_costs.size() ? clearance_costs[k] : 1.0;
  };
  // Highest: the nearest band the box reaches; lowest: the farthest.
  FieldRange range{beyond(0), beyond(levels)};
  for (std::size_t k = 0; k < levels; ++k)
    if (clearance_levels[k].classify(where) != BoxClass::free) {
      range.highest = clearance_costs[k];
      break;
    }
  for (std::size_t k = levels; k-- > 0;)
    if (clearance_levels[k].classify(where) != BoxClass::blocked) {
      range.lowest = beyond(k + 1);
      return range;
    }
  return range;
}

void FreeSpace::Impl::boundary_cuts(Point a, Point b, std::vector<double>& cuts) const {
  const Impl& s = outlined();
  const Point d = b - a;
  s.grid.walk(a, b, [&](std::size_t cell) {
    for (const std::uint32_t e : s.grid.edges_in(cell)) {
      const Point u = s.edges[e].a, v = s.edges[e].b;
      if (exact::segments_intersect(a, b, u, v)) append_crossing(a, d, u, v, cuts);
    }
    return false;
  });
}

bool FreeSpace::weighted() const {
  return !impl_->regions.empty() || has_clearance_cost();
}

bool FreeSpace::has_clearance_cost() const {
  return !impl_->clearance_costs.empty();
}

std::vector<ClearanceBand> FreeSpace::clearance_bands() const {
  std::vector<ClearanceBand> bands;
  for (std::size_t k = 0; k < impl_->clearance_costs.size(); ++k)
    bands.push_back({impl_->clearance_costs[k], k < impl_->clearance_levels.size()
                                                    ? &impl_->clearance_levels[k].boundary()
                                                    : nullptr});
  return bands;
}

std::vector<Ring> FreeSpace::cost_boundaries() const {
  std::vector<Ring> rings;
  for (const Region& region : impl_->regions) rings.push_back(region.polygon);
  for (const ClearanceBand& band : clearance_bands())
    if (band.beyond)
      for (const BoundaryRing& ring : *band.beyond) rings.push_back(ring.points);
  return rings;
}

FieldRange FreeSpace::cost_range(const Box& box) const {
  const FieldRange terrain =
      impl_->field_range(box, 1.0, [](const Region& r) { return std::optional(r.cost); });
  const FieldRange clearance = impl_->clearance_range(box);
  return {terrain.lowest * clearance.lowest, terrain.highest * clearance.highest};
}

FieldRange FreeSpace::height_range(const Box& box) const {
  return impl_->field_range(box, 0.0, [](const Region& r) { return r.height; });
}

double FreeSpace::cost_at(Point p) const {
  const double clearance = impl_->clearance_multiplier(p);
  for (std::size_t i = impl_->regions.size(); i-- > 0;) {
    const Box& b = impl_->region_boxes[i];
    if (!b.contains(p)) continue;
    if (exact::side_of_ring(impl_->regions[i].polygon, p) != exact::Side::outside)
      return impl_->regions[i].cost * clearance;
  }
  return clearance;
}

double FreeSpace::height_at(Point p) const {
  for (std::size_t i = impl_->regions.size(); i-- > 0;) {
    const Region& region = impl_->regions[i];
    if (!region.height) continue;
    const Box& b = impl_->region_boxes[i];
    if (!b.contains(p)) continue;
    if (exact::side_of_ring(region.polygon, p) != exact::Side::outside) return *region.height;
  }
  return 0.0;
}

template <class F>
void FreeSpace::for_each_piece(Point a, Point b, F&& f) const {
  // Split the segment where it meets region boundaries; each piece lies in a fixed set of
  // regions, whose winner is found at the piece's midpoint.
  thread_local std::vector<double> cuts;
  cuts.assign({0.0, 1.0});
  const Point d = b - a;
  for (std::size_t i = 0; i < impl_->regions.size(); ++i) {
    const Box& rb = impl_->region_boxes[i];
    if (std::max(a.x, b.x) < rb.min.x || std::min(a.x, b.x) > rb.max.x ||
        std::max(a.y, b.y) < rb.min.y || std::min(a.y, b.y) > rb.max.y)
      continue;
    const Ring& ring = impl_->regions[i].polygon;
    for (std::size_t k = 0; k < ring.size(); ++k) {
      const Point u = ring[k], v = ring[(k + 1) % ring.size()];
      if (exact::segments_intersect(a, b, u, v)) append_crossing(a, d, u, v, cuts);
    }
  }
  for (const FreeSpace& level : impl_->clearance_levels) level.impl_->boundary_cuts(a, b, cuts);
  std::sort(cuts.begin(), cuts.end());
  for (std::size_t k = 1; k < cuts.size(); ++k) {
    const double t0 = cuts[k - 1], t1 = cuts[k];
    if (t1 > t0) f(t0, t1, a + (0.5 * (t0 + t1)) * d);
  }
}

double FreeSpace::segment_cost(Point a, Point b) const {
  if (a == b) return 0.0;  // an end on its node's own point, the grid's usual attachment
  const double length = distance(a, b);
  if (!weighted()) return length;
  double cost = 0.0;
  for_each_piece(
      a, b, [&](double t0, double t1, Point mid) { cost += cost_at(mid) * (t1 - t0) * length; });
  return cost;
}

bool FreeSpace::climbable(Point a, Point b) const {
  if (!impl_->has_heights || !std::isfinite(impl_->agent.max_climb) || a == b) return true;
  bool ok = true;
  double previous = height_at(a);
  for_each_piece(a, b, [&](double, double, Point mid) {
    const double h = height_at(mid);
    ok = ok && h - previous <= impl_->agent.max_climb;
    previous = h;
  });
  return ok && height_at(b) - previous <= impl_->agent.max_climb;
}

double FreeSpace::path_cost(const std::vector<Point>& path) const {
  double cost = 0.0;
  for (std::size_t i = 1; i < path.size(); ++i) cost += segment_cost(path[i - 1], path[i]);
  return cost;
}

}  // namespace polynav
