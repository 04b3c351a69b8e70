#pragma once
// Internal to space/: the star of every boundary vertex, the one place where the free and blocked
// sectors around a point of the boundary are worked out. Line of sight (passing a vertex or
// leaving one), turns (bending at a vertex) and the corners a visibility graph or a funnel bends
// around are all decided from these sectors.
//
// At a vertex v, each boundary edge is a ray from v. Free space lies on the left of every directed
// edge, so the sector just counter-clockwise of an outgoing ray is free and the one just
// counter-clockwise of an incoming (reversed) ray is blocked; around v the sectors alternate. How
// the rings pair incoming and outgoing edges at a point where several blocked parts touch is
// arbitrary (two squares touching at a corner may come as one ring through the point twice or as
// two rings), so every decision looks at all rays at the point, never at one ring's corner: that
// is what keeps zero-width gaps closed. A wall (an edge traced once each way, free on both sides)
// gives two rays in one direction, an incoming one and an outgoing one; the sector between them
// is empty, and the free sectors on either side end and start at them.

#include <cstdint>
#include <span>
#include <vector>

#include "polynav/geometry.hpp"
#include "polynav/space/free_space.hpp"

namespace polynav::detail {

/// A boundary edge seen from one of its end vertices.
struct Ray {
  Point toward;   ///< the edge's other end
  bool outgoing;  ///< the edge leaves the vertex (free space just counter-clockwise of it)
};

/// Whether the directions just counter-clockwise of direction q at v are free: decided by the
/// first ray at or clockwise of q. @pre rays is not empty
bool free_after(Point v, Point q, std::span<const Ray> rays);
/// Whether direction q at v lies in the closure of free space.
bool free_direction(Point v, Point q, std::span<const Ray> rays);
/// Whether the closed segment ab, which passes through the boundary point v strictly between a
/// and b, may do so: one side of it must be wholly free near v. With open gaps (blocked parts
/// touching at v do not close the way between them) both of its directions must be free.
bool passes_through(Point a, Point b, Point v, std::span<const Ray> rays, bool open_gaps);
/// Whether a path arriving at w from `from` and leaving towards `to` sweeps through free space
/// on one side (see FreeSpace::turn_is_free); with open gaps, whether both directions are free.
bool turn_is_free(Point from, Point w, Point to, std::span<const Ray> rays, bool open_gaps);

/// The stars of all boundary vertices, built once per FreeSpace.
class VertexStars {
 public:
  VertexStars() = default;
  /// @param edges directed boundary edges (free space on their left), ring by ring
  explicit VertexStars(std::span<const Segment> edges);

  /// The vertex at the start of edge e (its end is the start of the next edge of the ring).
  std::uint32_t start_of(std::uint32_t e) const { return edge_start_[e]; }
  std::uint32_t end_of(std::uint32_t e) const { return edge_end_[e]; }
  Point position(std::uint32_t v) const { return points_[v]; }
  /// The rays at vertex v, counter-clockwise, into `out` (replacing what it held).
  std::span<const Ray> rays(std::uint32_t v, std::vector<Ray>& out) const {
    out.clear();
    for (std::uint32_t i = offsets_[v]; i < offsets_[v + 1]; ++i)
      out.push_back({points_[rays_[i] >> 1], (rays_[i] & 1u) != 0});
    return out;
  }
  std::size_t size() const { return points_.size(); }
  /// The corners: free sectors wider than 180 degrees (with open gaps, blocked parts touching at
  /// a point leaving the way between them open: blocked sectors narrower than 180 degrees,
  /// pinches included), in the order of their vertices. Worked out when asked, not kept: only
  /// some methods bend round corners (a traced map has one at about every other vertex).
  /// @param component the free-space component of each edge
  std::vector<Corner> corners(std::span<const std::uint32_t> component, bool open_gaps) const;

 private:
  std::vector<Point> points_;  // sorted by (x, y), unique
  std::vector<std::uint32_t> edge_start_, edge_end_;
  std::vector<std::uint32_t> offsets_;  // CSR into rays_, rays of a vertex counter-clockwise
  // Per ray: the vertex it points to, times two, plus one when it is outgoing (4 bytes for a
  // Ray's 24: most of the stars of a mesh of 35,000 triangles were their rays).
  std::vector<std::uint32_t> rays_;

  // Calls f(vertex, ray code, edge) for both rays of every edge, in edge order: the outgoing one
  // at its start, the incoming one at its end. Edges of a repeated point have none.
  template <class F>
  void for_each_ray(F&& f) const {
    for (std::uint32_t e = 0; e < edge_start_.size(); ++e) {
      const std::uint32_t from = edge_start_[e], to = edge_end_[e];
      if (from == to) continue;
      f(from, 2 * to + 1, e);
      f(to, 2 * from, e);
    }
  }
};

}  // namespace polynav::detail
