// Invalid obstacles made valid with GEOS's make-valid (repair.hpp). GEOS is used through its C
// API, which keeps a stable ABI across releases (its C++ API does not), with one context handle
// per call so that loads on several threads never share GEOS state. The C library is loaded on
// the first repair (dlopen), not linked: linked, it costs every process that loads polynav
// 2.3 MB of memory and 1.5 ms at start, and only a repair needs it.

#include "repair.hpp"

#include <dlfcn.h>
#include <geos_c.h>

#include <charconv>
#include <memory>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace polynav::detail {
namespace {

// Numbers in reports: up to 10 significant digits, no trailing zeros ("12.5", "84").
std::string number(double v) {
  char buf[32];
  const auto r = std::to_chars(buf, buf + sizeof buf, v, std::chars_format::general, 10);
  return std::string(buf, r.ptr);
}

std::string plural(std::size_t n, const char* one, const char* many) {
  return std::to_string(n) + " " + (n == 1 ? one : many);
}

// The GEOS C functions used here, resolved by name from libgeos_c on first use.
#define POLYNAV_GEOS_FUNCTIONS(X)           \
  X(GEOSArea_r)                             \
  X(GEOSContext_setErrorMessageHandler_r)   \
  X(GEOSContext_setNoticeMessageHandler_r)  \
  X(GEOSCoordSeq_create_r)                  \
  X(GEOSCoordSeq_getSize_r)                 \
  X(GEOSCoordSeq_getXY_r)                   \
  X(GEOSCoordSeq_setXY_r)                   \
  X(GEOSGeomTypeId_r)                       \
  X(GEOSGeom_createLinearRing_r)            \
  X(GEOSGeom_createPolygon_r)               \
  X(GEOSGeom_destroy_r)                     \
  X(GEOSGeom_getCoordSeq_r)                 \
  X(GEOSGetExteriorRing_r)                  \
  X(GEOSGetGeometryN_r)                     \
  X(GEOSGetInteriorRingN_r)                 \
  X(GEOSGetNumGeometries_r)                 \
  X(GEOSGetNumInteriorRings_r)              \
  X(GEOSMakeValidParams_create_r)           \
  X(GEOSMakeValidParams_destroy_r)          \
  X(GEOSMakeValidParams_setKeepCollapsed_r) \
  X(GEOSMakeValidParams_setMethod_r)        \
  X(GEOSMakeValidWithParams_r)              \
  X(GEOS_finish_r)                          \
  X(GEOS_init_r)                            \
  X(GEOSisEmpty_r)

struct GeosApi {
#define POLYNAV_GEOS_POINTER(name) decltype(&::name) name = nullptr;
  POLYNAV_GEOS_FUNCTIONS(POLYNAV_GEOS_POINTER)
#undef POLYNAV_GEOS_POINTER
};

// The functions, loaded once (a failed load is tried again on the next repair). @throws
// std::runtime_error when GEOS's C library is missing: an incomplete installation, not bad input
const GeosApi& geos_api() {
  static const GeosApi api = [] {
    constexpr const char* library = "libgeos_c.so.1";
    void* handle = dlopen(library, RTLD_NOW | RTLD_LOCAL);  // never closed: the API stays usable
    if (handle == nullptr)
      throw std::runtime_error(std::string("repairing needs GEOS's C library (") + library +
                               ", Debian package libgeos-c1v5): " + dlerror());
    GeosApi loaded;
#define POLYNAV_GEOS_LOAD(name)                                             \
  loaded.name = reinterpret_cast<decltype(&::name)>(dlsym(handle, #name));  \
  if (loaded.name == nullptr)                                               \
    throw std::runtime_error(std::string(library) + " has no " #name        \
                                                    " (GEOS 3.10 or later " \
                                                    "is needed)");
    POLYNAV_GEOS_FUNCTIONS(POLYNAV_GEOS_LOAD)
#undef POLYNAV_GEOS_LOAD
    return loaded;
  }();
  return api;
}

// A GEOS context whose errors are kept as text for our messages (GEOS's default handlers print
// to stderr, which a library must not do).
class Geos {
 public:
  Geos() : handle_(geos_api().GEOS_init_r()) {
    if (handle_ == nullptr) throw std::runtime_error("GEOS could not be initialised");
    geos_api().GEOSContext_setErrorMessageHandler_r(handle_, &Geos::keep, &error_);
    geos_api().GEOSContext_setNoticeMessageHandler_r(handle_, &Geos::ignore, nullptr);
  }
  ~Geos() { geos_api().GEOS_finish_r(handle_); }
  Geos(const Geos&) = delete;
  Geos& operator=(const Geos&) = delete;

  GEOSContextHandle_t get() const { return handle_; }
  const std::string& error() const { return error_; }

  // Owning pointers to geometries of this context.
  struct Destroy {
    GEOSContextHandle_t handle;
    void operator()(GEOSGeometry* g) const { geos_api().GEOSGeom_destroy_r(handle, g); }
  };
  using Geometry = std::unique_ptr<GEOSGeometry, Destroy>;
  Geometry own(GEOSGeometry* g) const { return Geometry(g, Destroy{handle_}); }

 private:
  static void keep(const char* message, void* error) {
    *static_cast<std::string*>(error) = message;
  }
  static void ignore(const char*, void*) {}

  GEOSContextHandle_t handle_;
  std::string error_;
};

// A closed GEOS ring of the points as written (repeated points are harmless to make-valid). A
// ring too short to close (fewer than 3 distinct points) has no area to repair, and says so.
GEOSGeometry* linear_ring(const Geos& geos, const RawRing& ring) {
  std::vector<Point> points;
  for (const Point& p : ring.points) {
    if (points.empty() || !(points.back() == p)) points.push_back(p);
  }
  while (points.size() > 1 && points.back() == points.front()) points.pop_back();
  if (points.size() < 3) {
    throw InputError(ring.where,
                     "cannot be repaired: a ring needs at least 3 distinct points, got " +
                         std::to_string(points.size()));
  }
  points.push_back(points.front());
  GEOSCoordSequence* sequence =
      geos_api().GEOSCoordSeq_create_r(geos.get(), unsigned(points.size()), 2);
  for (std::size_t i = 0; i < points.size(); ++i)
    geos_api().GEOSCoordSeq_setXY_r(geos.get(), sequence, unsigned(i), points[i].x, points[i].y);
  GEOSGeometry* r =
      geos_api().GEOSGeom_createLinearRing_r(geos.get(), sequence);  // takes the sequence
  if (r == nullptr)
    throw InputError(ring.where, "cannot be repaired: GEOS refused the ring: " + geos.error());
  return r;
}

Geos::Geometry polygon_of(const Geos& geos, const RawObstacle& raw) {
  GEOSGeometry* shell = linear_ring(geos, raw.outer);
  std::vector<GEOSGeometry*> holes;
  try {
    for (const RawRing& h : raw.holes) holes.push_back(linear_ring(geos, h));
  } catch (...) {
    geos_api().GEOSGeom_destroy_r(geos.get(), shell);
    for (GEOSGeometry* h : holes) geos_api().GEOSGeom_destroy_r(geos.get(), h);
    throw;
  }
  // Takes the rings, not the array.
  return geos.own(
      geos_api().GEOSGeom_createPolygon_r(geos.get(), shell, holes.data(), unsigned(holes.size())));
}

std::vector<Point> ring_points(const Geos& geos, const GEOSGeometry* ring) {
  const GEOSCoordSequence* sequence = geos_api().GEOSGeom_getCoordSeq_r(geos.get(), ring);
  unsigned size = 0;
  geos_api().GEOSCoordSeq_getSize_r(geos.get(), sequence, &size);
  std::vector<Point> points(size);
  for (unsigned i = 0; i < size; ++i)
    geos_api().GEOSCoordSeq_getXY_r(geos.get(), sequence, i, &points[i].x, &points[i].y);
  return points;
}

// What make-valid returned: its polygons, and how many parts of no area (lines, points) it kept
// of what collapsed.
struct Parts {
  std::vector<const GEOSGeometry*> polygons;
  std::size_t collapsed = 0;
};

void collect(const Geos& geos, const GEOSGeometry* g, Parts& parts) {
  if (geos_api().GEOSisEmpty_r(geos.get(), g) == 1) return;
  switch (geos_api().GEOSGeomTypeId_r(geos.get(), g)) {
    case GEOS_POLYGON:
      parts.polygons.push_back(g);
      return;
    case GEOS_MULTIPOLYGON:
    case GEOS_GEOMETRYCOLLECTION:
      for (int i = 0, n = geos_api().GEOSGetNumGeometries_r(geos.get(), g); i < n; ++i)
        collect(geos, geos_api().GEOSGetGeometryN_r(geos.get(), g, i), parts);
      return;
    case GEOS_MULTILINESTRING:
    case GEOS_MULTIPOINT:
      parts.collapsed += std::size_t(geos_api().GEOSGetNumGeometries_r(geos.get(), g));
      return;
    default:
      ++parts.collapsed;
  }
}

// What was wrong, for the report: the message, prefixed by the ring's own key when it is not the
// obstacle's outer ring as such ("holes[1]: hole is not strictly inside ...").
std::string problem(const InvalidPolygon& e, const InputLocation& obstacle) {
  const std::string& key = e.where().key_path;
  if (key.size() > obstacle.key_path.size() + 1 && key.starts_with(obstacle.key_path) &&
      key[obstacle.key_path.size()] == '.') {
    return key.substr(obstacle.key_path.size() + 1) + ": " + e.message();
  }
  return e.message();
}

std::string subject(const InputLocation& where) {
  const std::string place = InputLocation{where.file, where.line, where.column, ""}.to_string();
  if (where.key_path.empty()) return place;
  return place.empty() ? where.key_path : where.key_path + " (" + place + ")";
}

void repair_obstacle(const RawObstacle& raw, const InvalidPolygon& invalid,
                     std::vector<Obstacle>& obstacles, std::vector<std::string>& repairs) {
  const std::string what = subject(raw.where) + ": " + problem(invalid, raw.where);
  const Geos geos;
  const Geos::Geometry input = polygon_of(geos, raw);
  if (!input) throw InputError(raw.where, "cannot be repaired: GEOS refused it: " + geos.error());

  struct DestroyParams {
    GEOSContextHandle_t handle;
    void operator()(GEOSMakeValidParams* p) const {
      geos_api().GEOSMakeValidParams_destroy_r(handle, p);
    }
  };
  const std::unique_ptr<GEOSMakeValidParams, DestroyParams> params(
      geos_api().GEOSMakeValidParams_create_r(geos.get()), DestroyParams{geos.get()});
  // The structure method reads rings as the format means them (the outer ring's area less its
  // holes'), where the linework method would keep every piece the rings enclose, holes outside the
  // outer ring among them. Parts that collapse are kept as lines and points so that they can be
  // counted in the report.
  geos_api().GEOSMakeValidParams_setMethod_r(geos.get(), params.get(), GEOS_MAKE_VALID_STRUCTURE);
  geos_api().GEOSMakeValidParams_setKeepCollapsed_r(geos.get(), params.get(), 1);
  const Geos::Geometry valid =
      geos.own(geos_api().GEOSMakeValidWithParams_r(geos.get(), input.get(), params.get()));
  if (!valid) throw InputError(raw.where, "cannot be repaired: make-valid failed: " + geos.error());

  Parts parts;
  collect(geos, valid.get(), parts);
  if (parts.polygons.empty()) {
    throw InputError(
        raw.where,
        problem(invalid, raw.where) + "; it cannot be repaired: make-valid leaves no area (" +
            (parts.collapsed > 0 ? "the obstacle collapses to lines or points" : "nothing at all") +
            ")");
  }

  std::vector<Obstacle> made;
  std::size_t holes = 0;
  for (const GEOSGeometry* polygon : parts.polygons) {
    RawRing outer{ring_points(geos, geos_api().GEOSGetExteriorRing_r(geos.get(), polygon)),
                  raw.where};
    std::vector<RawRing> inner;
    for (int i = 0, n = geos_api().GEOSGetNumInteriorRings_r(geos.get(), polygon); i < n; ++i)
      inner.push_back({ring_points(geos, geos_api().GEOSGetInteriorRingN_r(geos.get(), polygon, i)),
                       raw.where});
    holes += inner.size();
    try {
      made.push_back({checked_polygon(outer, inner), raw.where});
    } catch (const InputError& e) {
      // Crossing points computed in doubles may land where the exact checks see the rings cross.
      throw InputError(raw.where, problem(invalid, raw.where) +
                                      "; it cannot be repaired: make-valid's result is still not "
                                      "valid (" +
                                      e.message() + ")");
    }
  }

  double before = 0.0, after = 0.0;
  geos_api().GEOSArea_r(geos.get(), input.get(), &before);
  geos_api().GEOSArea_r(geos.get(), valid.get(), &after);
  std::string report =
      what + "; made valid as " + plural(parts.polygons.size(), "polygon", "polygons");
  if (holes > 0) report += " with " + plural(holes, "hole", "holes");
  if (parts.collapsed > 0) {
    report +=
        ", dropping " + plural(parts.collapsed, "part", "parts") + " of no area (lines or points)";
  }
  report += "; area " + number(before) + " -> " + number(after);
  repairs.push_back(std::move(report));
  for (Obstacle& o : made) obstacles.push_back(std::move(o));
}

}  // namespace

void add_obstacle(const RawObstacle& raw, bool repair, std::vector<Obstacle>& obstacles,
                  std::vector<std::string>& repairs) {
  try {
    obstacles.push_back({checked_polygon(raw.outer, raw.holes), raw.where});
    return;
  } catch (const InvalidPolygon& e) {
    if (!repair) throw InvalidPolygon(e.where(), e.message() + repair_hint);
    repair_obstacle(raw, e, obstacles, repairs);
  }
}

}  // namespace polynav::detail
