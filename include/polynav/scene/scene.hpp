#pragma once
/// @file
/// The scene model: what the user wrote, validated once at load time (see docs/scene-format.md).

#include <array>
#include <cmath>
#include <cstdint>
#include <filesystem>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "polynav/enum_names.hpp"
#include "polynav/error.hpp"
#include "polynav/geometry.hpp"

namespace polynav {

/// The moving agent: a disc of `radius` (0 = a point).
struct Agent {
  double radius = 0.0;  ///< [Limit: >= 0, finite] [Units: scene units]
  /// Largest height the agent may step up between two places (regions with a `height`); stepping
  /// down is always allowed. Infinity = no limit. [Limit: >= 0]
  double max_climb = INFINITY;
};

/// A weighted terrain region. Where regions overlap, the later one in the scene wins.
struct Region {
  std::string name;
  double cost = 1.0;             ///< multiplier of length. [Limit: > 0, finite]
  std::optional<double> height;  ///< terrain height; places outside every region are at height 0
  Ring polygon;                  ///< a simple ring, either orientation
  InputLocation where;
};

/// A named start/goal pair. Its validity (inside free space) is decided by FreeSpace, not here.
struct Query {
  std::string name;
  Point start;
  Point goal;
  /// A reference length for the query when its source gives one (column 9 of a `.scen` file).
  std::optional<double> reference_length;
  InputLocation where;
  /// How far the exact length may lie from reference_length given the digits written: half a
  /// unit in the last decimal place ("27.00": 0.005, "3.41421": 0.000005); 0 when it was written
  /// without a decimal point or with an exponent (then the file's own precision is unknown).
  double reference_rounding = 0.0;
  /// The radius of the agent this query is for, when not the scene's (Scene::agent): agents of
  /// several sizes on one scene (Planner::for_radius). [Limit: >= 0, finite]
  std::optional<double> radius = std::nullopt;
};

/// A scene built from a MovingAI cell map: cell (cx, cy), counted from the top-left with y
/// growing downwards, is the unit square [cx, cx+1] x [height-cy-1, height-cy] of the scene.
struct CellMap {
  int width = 0;
  int height = 0;
  std::vector<unsigned char> blocked;  ///< row-major from the top row: blocked[cy * width + cx]

  bool is_blocked(int cx, int cy) const { return blocked[std::size_t(cy) * width + cx] != 0; }
  Point cell_centre(int cx, int cy) const { return {cx + 0.5, height - cy - 0.5}; }
  /// The corner the map's coordinates (cx, cy) name when points lie on cell corners: the
  /// top-left corner of cell (cx, cy) as the map is drawn (x right, y down).
  Point cell_corner(int cx, int cy) const { return {double(cx), double(height - cy)}; }
};

/// An obstacle as written, with where it was written (for messages about it).
struct Obstacle {
  Polygon shape;
  InputLocation where;
};

/// The faces of a navigation mesh the scene was read from (Polyanya `.mesh`), kept so that the
/// navmesh method can search them as they are instead of rebuilding its own polygons.
struct MeshFaces {
  /// The vertices as listed in the file; vertices listed twice at the same coordinates are one
  /// vertex, and faces name only its first listing.
  std::vector<Point> vertices;
  /// The traversable faces of positive area, each counter-clockwise as indices into `vertices`,
  /// in file order (faces of no area and blocked faces are left out): face f's corners are
  /// corners[first[f] .. first[f + 1]) (face(f); add_face appends one). Faces meet along whole
  /// edges: two faces touching along an edge both list its two end vertices.
  std::vector<std::uint32_t> first{0};
  std::vector<std::uint32_t> corners;
  /// Per corner: the face across the edge from it to the next corner of its face, or -1 where
  /// there is none (the border of free space) or the edge is one of the walls. join_faces sets
  /// it; the mesh's reader and the navmesh method both go by it.
  std::vector<std::int32_t> across;
  /// Where each face was written, for messages (name()): its number as the file counts them and
  /// the line its record starts on.
  struct Written {
    std::uint32_t number = 0;
    std::uint32_t line = 0;
  };
  std::vector<Written> written;
  /// What the file calls a face: "face" (version 3) or "polygon" (versions 1 and 2).
  std::string face_word = "face";
  /// The constrained edges between two traversable faces (version 3 walls), as vertex id pairs
  /// (lower id first), sorted. A path may not cross them.
  std::vector<std::pair<std::uint32_t, std::uint32_t>> walls;

  /// How messages name face f, as the file counts them: "face 4 (line 17)" (version 3) or
  /// "polygon 3 (line 12)" (versions 1 and 2). @pre f < written.size()
  std::string name(std::size_t f) const;

  std::size_t face_count() const { return first.size() - 1; }
  std::span<const std::uint32_t> face(std::size_t f) const {
    return {corners.data() + first[f], first[f + 1] - first[f]};
  }
  /// The corner after corner c of face f, going round it. @pre first[f] <= c < first[f + 1]
  std::uint32_t next_corner(std::size_t f, std::uint32_t c) const {
    return c + 1 == first[f + 1] ? first[f] : c + 1;
  }
  /// Appends a face: its vertex ids, counter-clockwise.
  void add_face(std::span<const std::uint32_t> ids);
  /// Sets `across` from the faces and the walls: two faces listing one edge (its two end vertices,
  /// either way round) are across it from each other unless it is a wall; with more than two, each
  /// is across from the first other one in face order. O(corners).
  void join_faces();
};

/// Waypoints placed in the scene file (the `waypoints` key, docs/scene-format.md): points a path
/// may pass through and, when given, the links between them, each a straight motion both ways.
/// The `waypoints` method plans over them. Every point and link keeps where it was written, so
/// that a point inside an obstacle or a link through one is refused at its line and column.
struct Waypoints {
  std::vector<Point> points;
  std::vector<InputLocation> point_where;  ///< one per point
  /// Pairs of indices into `points`, each joining two different points, no pair twice (in either
  /// order); written as given.
  std::vector<std::array<std::uint32_t, 2>> links;
  std::vector<InputLocation> link_where;  ///< one per link
  /// Whether the file gave `links` (possibly empty); when not, every two points in line of sight
  /// are linked.
  bool links_given = false;
  InputLocation where;  ///< the `waypoints` key itself
};

/// A ROS map_server occupancy map as read (docs/scene-format.md, "ROS maps"): every pixel of the
/// image classified as free, occupied or unknown by the map file's thresholds and mode.
struct OccupancyMap {
  enum class Cell : std::uint8_t { free, occupied, unknown };

  int width = 0;            ///< cells (image columns)
  int height = 0;           ///< cells (image rows)
  double resolution = 1.0;  ///< side of a cell [Units: scene units (metres) per cell]
  Point origin;             ///< the lower-left corner of the lower-left cell
  /// The origin's yaw: the map's cells are turned by this much, counter-clockwise, about
  /// `origin` (as Nav2 places an OccupancyGrid whose origin pose has this yaw). [Units: radians]
  double yaw = 0.0;
  /// Row-major from the top row of the image: cells[cy * width + cx]; cy = 0 is the top row, the
  /// row of largest y.
  std::vector<Cell> cells;
  bool unknown_free = false;    ///< unknown cells were read as free (LoadOptions::unknown)
  std::filesystem::path image;  ///< the image file, as the map file names it resolved

  Cell at(int cx, int cy) const { return cells[std::size_t(cy) * std::size_t(width) + cx]; }
  /// The closed square of cell (cx, cy) in the map's own frame (before the yaw), computed as the
  /// vectorised outline computes its corners (origin + resolution * lattice index), so the two
  /// agree bit for bit; to_scene() of its corners places it in the scene.
  Box cell_box(int cx, int cy) const {
    return {{origin.x + resolution * cx, origin.y + resolution * (height - 1 - cy)},
            {origin.x + resolution * (cx + 1), origin.y + resolution * (height - cy)}};
  }
  /// A point of the map's own frame (origin + resolution * lattice index, as cell_box computes
  /// them) in the scene: turned by `yaw` about `origin`, rounded the same way for every caller
  /// (Rotation::apply), so a corner shared by several cells is one point. With yaw 0, the point
  /// itself.
  Point to_scene(Point map_point) const { return rotation().apply(map_point); }
  /// The turn to_scene() applies.
  Rotation rotation() const { return yaw == 0.0 ? Rotation() : Rotation(origin, yaw); }
};

/// What turning a raster map's cells into polygons did (ROS and MovingAI maps), for reports.
struct VectorisationReport {
  std::size_t rings = 0;            ///< rings of the free-space boundary
  std::size_t traced_vertices = 0;  ///< vertices of the exact outline along cell sides
  std::size_t vertices = 0;         ///< vertices after simplification (= traced when tolerance 0)
  double tolerance = 0.0;           ///< LoadOptions::simplify
  std::size_t fills = 0;            ///< polygons simplification added to the blocked cells
  double trace_ms = 0.0;
  double simplify_ms = 0.0;
};

struct Scene {
  std::string name;
  std::filesystem::path source;  ///< the file it was loaded from (empty when built in code)
  Ring bounds;                   ///< outer wall; free space is inside. Either orientation.
  InputLocation bounds_where;    ///< where the bounds were written, when the source has them
  Agent agent;
  std::vector<Obstacle> obstacles;
  std::vector<Region> regions;
  std::vector<Query> queries;
  /// Set for scenes read from cell maps (MovingAI `.map`): how `.scen` cells map to points.
  std::optional<CellMap> cell_map;
  /// For scenes whose source defines free space directly (cell maps, navigation meshes): the
  /// boundary of free space as rings with free space on their left (outer boundaries
  /// counter-clockwise, holes clockwise). Rings meet only at shared vertices and may pass through
  /// a vertex twice where two blocked parts touch at a corner. A wall of zero width with free
  /// space on both sides (a navigation mesh's constrained edge) is traced once each way, by one
  /// ring going along it and back or by the rings on its two sides. Empty for native scenes,
  /// whose free space FreeSpace computes from bounds and obstacles.
  std::vector<Ring> free_boundary;
  /// The natural cell size of scenes that come from rasters (1 for MovingAI maps, the
  /// resolution for ROS maps); the grid method uses it as its default resolution.
  std::optional<double> native_cell_size;
  /// Set for scenes read from navigation meshes (`.mesh`): the mesh's own traversable faces,
  /// shared by the scene's copies and the free spaces built from them (a large mesh's faces are
  /// megabytes).
  std::shared_ptr<const MeshFaces> mesh;
  /// Set when the scene file has a `waypoints` key: hand-placed waypoints and their links.
  std::optional<Waypoints> waypoints;
  /// Set for ROS map_server maps: the cells as classified.
  std::optional<OccupancyMap> occupancy;
  /// Set for raster maps (ROS, MovingAI): how the cells became the free-space boundary.
  std::optional<VectorisationReport> vectorisation;
  /// What the file held that the scene does not use (a GeoJSON feature's properties, a ROS map
  /// file's keys map_server ignores), one sentence each; `polynav validate` shows it and
  /// export_native_scene() notes it.
  std::vector<std::string> unused;
  /// One sentence per obstacle that LoadOptions::repair made valid: where it was written, what
  /// was wrong, what it became and its area before and after, e.g. `obstacles[3] (yard.yaml:9:5):
  /// ring is self-intersecting: edges 0 and 2 cross near (5, 5); made valid as 2 polygons; area
  /// 0 -> 50`. Empty when nothing was changed. `polynav validate` shows them.
  std::vector<std::string> repairs;
};

/// The numeric range polynav plans in. Predicates are exact at any magnitude, but the input is
/// read into doubles: far from the origin the spacing of doubles grows until a scene's own
/// features are rounded away (the same maze moved by 1e15 has walls that are multiples of 0.125
/// thick), and products of coordinates near the top of the double range overflow. Scenes outside
/// these limits are refused with a message naming the offending value, never planned approximately.
struct ScaleLimits {
  /// The largest magnitude of any coordinate, of the agent's radius, of a height and of a cell
  /// size: 2^50, about 1.1e15 (squares and products of such values stay far from overflow).
  static constexpr double max_coordinate = 0x1p50;
  /// How finely doubles must resolve the scene: the spacing of doubles at the scene's largest
  /// coordinate may be at most this fraction of its extent (the larger side of the bounds'
  /// box). 2^-32 keeps lengths of translated copies within 1e-9 of each other; it lets a scene of
  /// extent E lie up to about 2^20 E (1e6 E) from the origin: a 10 m room in UTM coordinates
  /// (1e7) passes, the same room at 1e8 does not. [Units: fraction of the extent]
  static constexpr double min_relative_precision = 0x1p-32;
  /// The largest cost multiplier of a region (path costs then stay finite and exact to double
  /// precision over any path within max_coordinate).
  static constexpr double max_cost = 1e12;
};

/// One change to a scene (apply_edits, EditablePlanner). Obstacles and regions are named by id:
/// a scene's own are 0, 1, ... in order, and each one added takes the next id of its kind; ids
/// are never reused, so an id names one obstacle through any number of edits.
struct SceneEdit {
  enum class Kind : std::uint8_t {
    add_obstacle,     ///< `shape`, a valid polygon as a scene's obstacle must be
    remove_obstacle,  ///< `id`
    move_obstacle,    ///< `id`, translated by `by`
    add_region,       ///< `region`, its polygon a simple ring, its cost > 0
    remove_region,    ///< `id`
    move_region,      ///< `id`, translated by `by`
  };
  Kind kind = Kind::add_obstacle;
  std::size_t id = 0;
  Polygon shape;
  Region region;
  Point by;
  InputLocation where;  ///< where the edit was written, for messages
};

/// The ids of a scene's obstacles and regions, in the order of Scene::obstacles and
/// Scene::regions, and the next id of each kind (see SceneEdit).
struct SceneIds {
  std::vector<std::size_t> obstacles;
  std::vector<std::size_t> regions;
  std::size_t next_obstacle = 0;
  std::size_t next_region = 0;
  /// The ids of a scene as loaded: 0 .. n-1.
  static SceneIds of(const Scene& scene);
};

/// Applies the edits in order to `scene` and `ids`, or to neither: on any error both are left as
/// they were (the edits are applied to copies). Added and moved shapes are checked as a scene's
/// are (a valid polygon; a simple region ring with a cost > 0), and the edited scene against the
/// scale limits (check_scale). Returns the ids the add_* edits took, in the order of those edits.
/// @throws InputError at the edit's `where` (key `edits[i]`): an id that names no obstacle or
///         region (now), a shape that is not valid, a translation that is not finite
std::vector<std::size_t> apply_edits(Scene& scene, SceneIds& ids, std::span<const SceneEdit> edits);

/// The boxes two versions of an edited scene differ in: the old and the new place of each
/// obstacle and region added, removed or changed between them (matched by id). Free space, its
/// costs and heights differ only within FreeSpace::edit_reach of these boxes.
std::vector<Box> edited_boxes(const Scene& before, const SceneIds& before_ids, const Scene& after,
                              const SceneIds& after_ids);

/// A batch of edits applied together at one time (a file of timed edits, `polynav plan
/// --edits`).
struct TimedEdits {
  double time = 0.0;
  std::vector<SceneEdit> edits;
};

/// Reads a file of timed edits (docs/scene-format.md, "Edits"): YAML or JSON, a map with
/// `version: 1` and `edits:`, a list of maps each with a `time:` (finite, never decreasing) and
/// one edit. Edits of equal times form one batch, in file order.
/// @throws InputError with file, line and column for anything else
std::vector<TimedEdits> load_scene_edits(const std::filesystem::path& path);
/// The same from text; `source_name` names it in messages.
std::vector<TimedEdits> parse_scene_edits(std::string_view text, const std::string& source_name);

/// Refuses a scene outside ScaleLimits: a coordinate, radius, height or cell size beyond
/// max_coordinate, a scene too far from the origin for its size (the message suggests the
/// translation that brings it near), or a region cost above max_cost. Throws InputError located
/// at the obstacle, region or query concerned where known, else at the scene's source with the
/// key (`bounds`, `agent.radius`, ...). load_scene() and FreeSpace both call it.
///
/// `scope` without_obstacles leaves the obstacles out, for free space built from the scene's
/// free_boundary, which does not read them (a map's thousands of obstacles, already checked when
/// it was loaded).
enum class ScaleScope : std::uint8_t { whole_scene, without_obstacles };
void check_scale(const Scene& scene, ScaleScope scope = ScaleScope::whole_scene);

/// How a raster map's unknown cells are read (ROS maps: pixels between the two thresholds).
enum class UnknownCells : std::uint8_t { blocked, free };
inline constexpr auto unknown_cells_names =
    enum_names(UnknownCells::blocked, "blocked", UnknownCells::free, "free");

/// Options that change how a scene file is read.
struct LoadOptions {
  /// ROS maps: unknown cells are blocked (the default) or free.
  UnknownCells unknown = UnknownCells::blocked;
  /// Raster maps (ROS and MovingAI): how far the simplified outline of the blocked cells may lie
  /// from their exact outline; 0 = no simplification. Simplification only ever adds to the blocked
  /// cells, so it opens no passage the map closes; a free place farther than this from every
  /// blocked cell stays free. [Limit: >= 0, finite] [Units: scene units]
  double simplify = 0.0;
  /// Native scenes (YAML, JSON): the most points a scene may hold in all, counting a list named
  /// by a YAML alias as often as it is named, so a small file cannot expand without bound.
  /// [Limit: >= 1] [CLI: --max-points]
  std::size_t max_points = 2'000'000;
  /// Obstacles (native scenes, WKT, GeoJSON) that are not valid polygons in the OGC Simple
  /// Features sense (rings crossing themselves or each other, holes outside or touching along an
  /// edge, ...) are refused when false; when true they are made valid with GEOS's make-valid
  /// ("structure" method) and every change is reported in Scene::repairs. Obstacles with no area
  /// left after that are refused either way. Bounds and regions are never changed. [CLI: --repair]
  bool repair = false;
};

/// UnknownCells by name ("blocked", "free"; the command line's --map-unknown, Python's
/// `map_unknown`). @throws InputError (key `key`) naming the choices, with a did-you-mean.
UnknownCells parse_unknown_cells(std::string_view name, std::string_view key = "unknown");

/// Refuses LoadOptions out of their limits: a `simplify` that is not a finite number >= 0 (key
/// `simplify_key`), a `max_points` below 1 (key `max_points_key`). The keys are the names the
/// caller's options go by (the command line's --map-simplify, Python's map_simplify); the
/// messages are the same whichever names them. load_scene() calls it with "map.simplify" and
/// "max_points". @throws InputError
void check_load_options(const LoadOptions& options, std::string_view simplify_key = "map.simplify",
                        std::string_view max_points_key = "max_points");

/// Refuses an agent radius that is not a finite number >= 0 or lies beyond
/// ScaleLimits::max_coordinate. `key` as for check_load_options (--radius, radius).
/// @throws InputError
void check_agent_radius(double radius, std::string_view key = "radius");

/// Refuses, before anything opens it, a path that cannot be read as an input file: one that does
/// not exist or cannot be looked at, a directory, or anything but a regular file (a FIFO, a
/// socket or a device, whose open or read could block forever or never end). Every reader of
/// scenes, maps, scenarios and images checks its file so, and so does experiment::read_csv.
/// @throws InputError naming the path (no line or key)
void check_input_file(const std::filesystem::path& path);

/// Loads a scene, choosing the reader by extension and content: native YAML/JSON (`.yaml`,
/// `.yml`, `.json`), ROS map_server maps (`.yaml`/`.yml` with `image:` and `resolution:` keys),
/// MovingAI `.map`, Polyanya `.mesh`, WKT (`.wkt`) and GeoJSON (`.geojson`) polygons. Throws
/// InputError with the file, line:column or key path, what is wrong and the offending value.
Scene load_scene(const std::filesystem::path& path, const LoadOptions& options = {});

/// Whether load_scene() has a reader for the file's extension (any case): a file worth offering
/// as a scene (`polynav serve --dir`). It says nothing of the content.
bool has_scene_extension(const std::filesystem::path& path);

/// The most cells an occupancy map may have, read from an image or given in memory (8192 x 8192,
/// as for MovingAI maps).
inline constexpr long long max_occupancy_cells = 1LL << 26;

/// A scene from an occupancy grid held in memory (a nav_msgs/OccupancyGrid, a numpy array):
/// the scene load_scene() makes of a ROS map file with the same cells, resolution, origin and
/// yaw. `map.cells` are row-major from the top row (the row of largest y), as OccupancyMap says;
/// `options.unknown` and `options.simplify` apply as to map files. `name` becomes Scene::name and
/// locates the cells in messages. Refused with InputError (key "grid", "resolution", "origin"
/// or "yaw"): an empty grid, one of more than 2^26 cells, a cell count that is not width x
/// height, a resolution that is not a finite number > 0, an origin or yaw that is not finite.
Scene scene_from_occupancy(OccupancyMap map, const LoadOptions& options = {},
                           const std::string& name = "occupancy");

/// Parses a native scene (YAML, or JSON, which is read by the same YAML 1.2 parser) from text.
/// `source_name` is used in error messages; when it ends in `.json` the text must also be strict
/// JSON (RFC 8259), so comments, trailing commas, single quotes and the like are refused.
/// `max_points` and `repair` as LoadOptions::max_points and LoadOptions::repair.
Scene parse_native_scene(std::string_view text, const std::string& source_name,
                         std::size_t max_points = LoadOptions{}.max_points, bool repair = false);

/// A scene written as a native YAML scene (NativeExport::text), and what the native format could
/// keep of it only in another form.
struct NativeExport {
  std::string text;
  /// One sentence per thing of the source the native scene does not keep as such (a map's cell
  /// classes, a mesh's own faces, ...); empty when nothing is lost.
  std::vector<std::string> notes;
};

/// Writes any loaded scene as a native YAML scene that parse_native_scene() reads back to the
/// same free space (bit for bit: every coordinate is written as the shortest text that reads back
/// as the same double). Native scenes, WKT and GeoJSON keep their obstacles, regions, agent and
/// queries; raster maps (ROS, MovingAI) become their bounds, their blocked cells as rectangles
/// plus the simplification's fill polygons, and `cell_size`; navigation meshes become the
/// outside of their free space as obstacles with holes. Throws InputError naming the source
/// when the free space cannot be written as native obstacles: a mesh's walls of zero width
/// (constrained edges between traversable faces), or free regions touching at a point where
/// they would have to be holes of one obstacle.
NativeExport export_native_scene(const Scene& scene);

/// Where a scenario's cell coordinates put its points on a cell map.
enum class ScenarioPoints : std::uint8_t {
  centres,  ///< at cell centres (MovingAI's own convention, 8-connected grids of cells)
  corners,  ///< at cell corners (any-angle and corner-aligned grids: CellMap::cell_corner)
};

/// Reads a MovingAI scenario (`.scen`) as queries for `scene`: cell coordinates (start and goal at
/// cell centres, or corners) when the scene has a CellMap, plain points otherwise. Column 9
/// becomes Query::reference_length; an optional column 10 (polynav's own) Query::radius. Throws
/// InputError naming the file and line of a bad row.
std::vector<Query> load_scenario(const std::filesystem::path& path, const Scene& scene,
                                 ScenarioPoints points = ScenarioPoints::centres);

}  // namespace polynav
