// The only file of the navigation mesh that includes CGAL's triangulation headers (they are slow
// to compile).
#include "triangulate.hpp"

#include <CGAL/Constrained_Delaunay_triangulation_2.h>
#include <CGAL/Exact_predicates_inexact_constructions_kernel.h>
#include <CGAL/Triangulation_face_base_with_info_2.h>
#include <CGAL/Triangulation_vertex_base_with_info_2.h>

#include <algorithm>
#include <utility>

namespace polynav::navmesh_detail {
namespace {

using K = CGAL::Exact_predicates_inexact_constructions_kernel;
using Vb = CGAL::Triangulation_vertex_base_with_info_2<std::uint32_t, K>;
using Fb =
    CGAL::Triangulation_face_base_with_info_2<std::int32_t, K,
                                              CGAL::Constrained_triangulation_face_base_2<K>>;
using Tds = CGAL::Triangulation_data_structure_2<Vb, Fb>;
// Exact_predicates_tag: constraints may cross; the crossing point is constructed (rounded).
using Cdt = CGAL::Constrained_Delaunay_triangulation_2<K, Tds, CGAL::Exact_predicates_tag>;

bool less(Point a, Point b) {
  return a.x < b.x || (a.x == b.x && a.y < b.y);
}

}  // namespace

Triangulation triangulate(const std::vector<Ring>& rings, std::size_t max_triangles,
                          std::size_t& face_count, const std::vector<Point>& rounded) {
  std::vector<K::Point_2> points;
  std::vector<std::pair<std::size_t, std::size_t>> edges;
  std::vector<Point> given;
  for (const Ring& ring : rings) {
    const std::size_t first = points.size();
    for (const Point& p : ring) {
      points.emplace_back(p.x, p.y);
      given.push_back(p);
    }
    for (std::size_t k = 0; k < ring.size(); ++k) {
      const std::size_t a = first + k, b = first + (k + 1) % ring.size();
      if (!(ring[k] == ring[(k + 1) % ring.size()])) edges.emplace_back(a, b);
    }
  }
  Cdt cdt;
  // Spatially sorted insertion of all points, then the constraints by index.
  cdt.insert_constraints(points.begin(), points.end(), edges.begin(), edges.end());

  Triangulation out;
  face_count = cdt.number_of_faces();
  std::sort(given.begin(), given.end(), less);
  std::uint32_t next = 0;
  for (auto v = cdt.finite_vertices_begin(); v != cdt.finite_vertices_end(); ++v) {
    v->info() = next++;
    const Point p{v->point().x(), v->point().y()};
    out.vertices.push_back(p);
    out.given.push_back(std::binary_search(given.begin(), given.end(), p, less) &&
                        !std::binary_search(rounded.begin(), rounded.end(), p, less));
  }
  if (face_count > max_triangles) return out;
  std::int32_t id = 0;
  for (auto f = cdt.finite_faces_begin(); f != cdt.finite_faces_end(); ++f) f->info() = id++;
  out.triangles.reserve(face_count);
  for (auto f = cdt.finite_faces_begin(); f != cdt.finite_faces_end(); ++f) {
    Triangle t{};
    for (int k = 0; k < 3; ++k) {
      t.v[k] = f->vertex(k)->info();
      // Our edge k runs from vertex k to vertex k + 1: CGAL's edge opposite vertex k + 2.
      const int opposite = (k + 2) % 3;
      const auto n = f->neighbor(opposite);
      t.neighbour[k] = cdt.is_infinite(n) ? -1 : n->info();
      t.constrained[k] = f->is_constrained(opposite);
    }
    out.triangles.push_back(t);
  }
  return out;
}

}  // namespace polynav::navmesh_detail
