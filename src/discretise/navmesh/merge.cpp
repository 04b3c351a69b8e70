#include "merge.hpp"

#include <utility>

#include "disjoint_sets.hpp"
#include "polynav/kernel/exact.hpp"

namespace polynav::navmesh_detail {

std::vector<std::uint32_t> merge_convex(const Triangulation& tri,
                                        const std::vector<std::uint8_t>& free,
                                        std::vector<MergePolygon>& polygons) {
  const std::vector<Triangle>& t = tri.triangles;
  const std::vector<Point>& at = tri.vertices;
  const std::size_t n = t.size();
  DisjointSets sets(n);
  for (std::uint32_t f = 0; f < n; ++f) {
    if (!free[f]) continue;
    for (int k = 0; k < 3; ++k) {
      const std::int32_t g = t[f].neighbour[k];
      if (g < 0 || std::uint32_t(g) < f || !free[g]) continue;
      const std::uint32_t P = sets.find(f), Q = sets.find(std::uint32_t(g));
      if (P == Q) continue;
      MergePolygon& p = polygons[P];
      MergePolygon& q = polygons[Q];
      const std::uint32_t a = t[f].v[k], b = t[f].v[(k + 1) % 3];
      const std::size_t np = p.v.size(), nq = q.v.size();
      std::size_t i = np, j = nq;
      for (std::size_t e = 0; e < np; ++e)
        if (p.v[e] == a && p.v[(e + 1) % np] == b) i = e;
      for (std::size_t e = 0; e < nq; ++e)
        if (q.v[e] == b && q.v[(e + 1) % nq] == a) j = e;
      if (i == np || j == nq || !p.mergeable[i]) continue;
      const Point p_before_a = at[p.v[(i + np - 1) % np]], p_after_b = at[p.v[(i + 2) % np]];
      const Point q_after_a = at[q.v[(j + 2) % nq]], q_before_b = at[q.v[(j + nq - 1) % nq]];
      if (exact::orientation(p_before_a, at[a], q_after_a) < 0 ||
          exact::orientation(q_before_b, at[b], p_after_b) < 0)
        continue;
      MergePolygon merged;
      const auto take = [&](const MergePolygon& w, std::size_t e) {
        merged.v.push_back(w.v[e]);
        merged.across.push_back(w.across[e]);
        merged.mergeable.push_back(w.mergeable[e]);
      };
      // P from b round to the edge before a, then Q from a round to the edge before b.
      for (std::size_t s = 1; s < np; ++s) take(p, (i + s) % np);
      for (std::size_t s = 1; s < nq; ++s) take(q, (j + s) % nq);
      sets.attach(Q, P);
      p = std::move(merged);
      q = MergePolygon{};
    }
  }
  std::vector<std::uint32_t> owner(n);
  for (std::uint32_t f = 0; f < n; ++f) owner[f] = sets.find(f);
  return owner;
}

}  // namespace polynav::navmesh_detail
