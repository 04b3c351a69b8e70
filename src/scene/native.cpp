// The native scene format (docs/scene-format.md), YAML or JSON.
//
// JSON is read by the same YAML parser (yaml-cpp; JSON is YAML 1.2 flow syntax) rather than by a
// JSON library because the loader needs, for every value, the line and column it came from, and
// needs to see duplicate keys so that nothing a user wrote is silently dropped. yaml-cpp reports
// a mark for every value and every map entry in order; the JSON parsers at hand report positions
// only for syntax errors and keep one value per key. One parser also means one validation path,
// so a YAML scene and its JSON twin cannot be judged differently. YAML's flow syntax also takes
// what JSON does not (comments, trailing commas, single quotes, bare words), so the text of a
// `.json` file is first checked to be strict JSON (strict_json.cpp).
//
// The document is built from yaml-cpp's parser events into a compact tree of our own rather
// than into YAML::Node: a node costs 20 bytes instead of several hundred, aliases cannot form
// cycles, and the parser is never asked for more than the one document a scene is (yaml-cpp
// 0.7's LoadAll can produce empty documents forever after stray closing brackets). That tree and
// the generic reading of it live in document.hpp, shared with the other YAML and JSON readers.

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "document.hpp"
#include "polynav/number.hpp"
#include "polynav/scene/scene.hpp"
#include "polynav/text.hpp"
#include "repair.hpp"
#include "validate.hpp"

namespace polynav {
namespace {

using detail::Entry;
using detail::Fields;
using detail::Item;
using detail::Keys;
using detail::Kind;
using detail::NodeId;
using detail::Style;

class NativeReader : public detail::DocumentReader {
 public:
  NativeReader(const detail::Document& doc, std::string file, std::size_t max_points, bool repair)
      : DocumentReader(doc, std::move(file)), max_points_(max_points), repair_(repair) {}

  Scene read();
  // A file of timed edits (parse_scene_edits).
  std::vector<TimedEdits> read_edits();

 private:
  // Reads a point. `where` makes the point's Item and is called only to report a problem:
  // naming every point of a large ring up front would cost more than reading it.
  template <class Where>
  Point point(NodeId id, const Where& where);
  Point point(const Item& item) {
    return point(item.node, [&] { return item; });
  }
  detail::RawRing ring(const Item& item);

  void read_version(const Fields& top) const;
  void read_agent(const Item& item, Agent& agent) const;
  // Obstacles and regions as read, before their geometry is checked: every value in the file is
  // read (and the point limit enforced) before the slower geometric checks run.
  using RawObstacle = detail::RawObstacle;
  struct RawRegion {
    Region region;
    detail::RawRing polygon;
  };
  RawObstacle read_obstacle(const Item& item);
  RawRegion read_region(const Item& item);
  Query read_query(const Item& item);
  SceneEdit read_edit(const Item& item, const Fields& f, std::string_view key);
  // The `waypoints` key: empty when it is left empty.
  std::optional<Waypoints> read_waypoints(const Item& item);
  // One index of a link into `points` points.
  std::uint32_t link_index(const Item& link, NodeId id, std::size_t points) const;

  std::size_t max_points_;
  bool repair_;
  std::size_t points_ = 0;
};

template <class Where>
Point NativeReader::point(NodeId n, const Where& where) {
  if (kind(n) != Kind::sequence) {
    fail(where(), "a point must be a list of two numbers [x, y], got " + kind_of(n));
  }
  if (doc_.size(n) != 2) {
    fail(where(), "a point must be two numbers [x, y], got " + std::to_string(doc_.size(n)) +
                      (doc_.size(n) == 1 ? " value: " : " values: ") + describe(n));
  }
  if (++points_ > max_points_) {
    fail(where(), "the scene has more than " + std::to_string(max_points_) +
                      " points (a list a YAML alias names counts each time), the most polynav "
                      "reads unless told: raise it with --max-points N (LoadOptions::max_points)");
  }
  const auto coordinate = [&](std::size_t i, const char* name) {
    const NodeId c = doc_.child(n, i);
    if (kind(c) == Kind::scalar && doc_[c].style == Style::plain) {
      // The common case, read without building the names a message would need.
      if (const std::optional<double> value = parse_finite(doc_.text(c))) return *value;
    }
    return finite({c, where().path, doc_[c].line, doc_[c].column},
                  std::string(name) + " of point " + describe(n));
  };
  return {coordinate(0, "x"), coordinate(1, "y")};
}

detail::RawRing NativeReader::ring(const Item& item) {
  const NodeId n = item.node;
  if (kind(n) != Kind::sequence) {
    fail(item, "expected a ring (a list of [x, y] points), got " + kind_of(n));
  }
  if (doc_.size(n) > 0 && kind(doc_.child(n, 0)) == Kind::scalar) {
    fail(item, "expected a ring (a list of [x, y] points), got " + kind_of(n) +
                   "; a ring needs another pair of brackets: [[x, y], [x, y], ...]");
  }
  detail::RawRing r;
  r.where = at(item);
  r.points.reserve(doc_.size(n));
  for (std::size_t i = 0; i < doc_.size(n); ++i) {
    const NodeId p = doc_.child(n, i);
    r.points.push_back(point(p, [&] { return element(item, p, i); }));
  }
  return r;
}

void NativeReader::read_version(const Fields& top) const {
  constexpr int supported = 1;
  const Entry* e = top.find("version");
  if (e == nullptr) {
    std::string message = "missing required key \"version\" (the supported version is " +
                          std::to_string(supported) + ")";
    if (top.find("image") != nullptr && top.find("resolution") != nullptr) {
      message +=
          "; this looks like a ROS map_server map, which polynav reads from a .yaml file "
          "written in block style, one key per line";
    }
    fail(top.item, message);
  }
  const Item v = child(top, *e);
  const double version = number(v, "the format version");
  if (version != supported) {
    fail(v, "unsupported version " + describe(v.node) + "; the supported version is " +
                std::to_string(supported));
  }
}

void NativeReader::read_agent(const Item& item, Agent& agent) const {
  if (kind(item.node) == Kind::null) return;
  const Fields f = fields(item, "a map with radius: and max_climb:", {"radius", "max_climb"});
  if (const Entry* e = f.find("radius")) {
    const Item r = child(f, *e);
    agent.radius = finite(r, "the radius");
    if (agent.radius < 0) fail(r, "radius must be >= 0, got " + describe(r.node));
  }
  if (const Entry* e = f.find("max_climb")) {
    const Item c = child(f, *e);
    agent.max_climb = number(c, "the largest climb");
    if (agent.max_climb < 0) {
      fail(c, "max_climb must be >= 0 (.inf for no limit), got " + describe(c.node));
    }
  }
}

NativeReader::RawObstacle NativeReader::read_obstacle(const Item& item) {
  if (kind(item.node) == Kind::sequence) return {ring(item), {}, at(item)};
  if (kind(item.node) != Kind::map) {
    fail(item, "an obstacle must be a ring [[x, y], ...] or a map with outer: and holes:, got " +
                   kind_of(item.node));
  }
  const Fields f = fields(item, "an obstacle", {"outer", "holes"});
  RawObstacle o{ring(required(f, "outer", "the obstacle's outer ring")), {}, at(item)};
  if (const Entry* e = f.find("holes")) {
    for (const Item& h : list(child(f, *e), "holes (rings)")) o.holes.push_back(ring(h));
  }
  return o;
}

NativeReader::RawRegion NativeReader::read_region(const Item& item) {
  const Fields f = fields(item, "a region (a map with cost: and polygon:)",
                          {"name", "cost", "height", "polygon"});
  RawRegion r;
  r.region.where = at(item);
  if (const Entry* e = f.find("name")) r.region.name = text(child(f, *e));
  const Item cost = required(f, "cost", "the multiplier of length, > 0");
  r.region.cost = finite(cost, "the cost");
  if (!(r.region.cost > 0)) fail(cost, "cost must be > 0, got " + describe(cost.node));
  if (const Entry* e = f.find("height")) r.region.height = finite(child(f, *e), "the height");
  r.polygon = ring(required(f, "polygon", "the region's ring"));
  return r;
}

Query NativeReader::read_query(const Item& item) {
  const Fields f = fields(item, "a query (a map with start:, goal: and optional name:, radius:)",
                          {"name", "start", "goal", "radius"});
  Query q;
  q.where = at(item);
  if (const Entry* e = f.find("name")) q.name = text(child(f, *e));
  q.start = point(required(f, "start", "the start point [x, y]"));
  q.goal = point(required(f, "goal", "the goal point [x, y]"));
  if (const Entry* e = f.find("radius")) {
    const Item r = child(f, *e);
    q.radius = finite(r, "the query's agent radius");
    if (*q.radius < 0) fail(r, "radius must be >= 0, got " + describe(r.node));
  }
  return q;
}

std::uint32_t NativeReader::link_index(const Item& link, NodeId id, std::size_t points) const {
  const Item at_index{id, link.path, doc_[id].line, doc_[id].column};
  const std::string range = "an index into waypoints.points, from 0 to " +
                            std::to_string(points - 1) + " (it has " + std::to_string(points) +
                            (points == 1 ? " point" : " points") + ")";
  if (kind(id) != Kind::scalar || doc_[id].style != Style::plain)
    fail(at_index, "expected " + range + ", got " + kind_of(id));
  const ParsedWhole v = parse_whole(doc_.text(id));
  if (v.status == WholeStatus::malformed)
    fail(at_index, "expected " + range + ", got " + describe(id));
  if (v.negative || v.status == WholeStatus::out_of_range || v.magnitude >= points)
    fail(at_index, "point index " + describe(id) + " is out of range: expected " + range);
  return std::uint32_t(v.magnitude);
}

std::optional<Waypoints> NativeReader::read_waypoints(const Item& item) {
  if (kind(item.node) == Kind::null) return std::nullopt;
  const Fields f = fields(item, "a map with points: and links:", {"points", "links"});
  Waypoints w;
  w.where = at(item);
  const Item points = required(f, "points", "the waypoints, a list of [x, y] points");
  const std::vector<Item> point_items = list(points, "[x, y] points");
  if (point_items.empty()) fail(points, "waypoints need at least 1 point, got none");
  for (const Item& p : point_items) {
    w.points.push_back(point(p));
    w.point_where.push_back(at(p));
  }
  const Entry* e = f.find("links");
  if (e == nullptr || kind(e->value) == Kind::null) return w;
  w.links_given = true;
  const std::size_t n = w.points.size();
  // Each unordered pair once: the key of {i, j} with i < j, and the link that gave it first.
  std::unordered_map<std::uint64_t, std::size_t> seen;
  const std::vector<Item> links = list(child(f, *e), "links (pairs of point indices [i, j])");
  for (std::size_t k = 0; k < links.size(); ++k) {
    const Item& link = links[k];
    const NodeId l = link.node;
    if (kind(l) != Kind::sequence)
      fail(link, "a link must be a list of two point indices [i, j], got " + kind_of(l));
    if (doc_.size(l) != 2)
      fail(link, "a link must be two point indices [i, j], got " + std::to_string(doc_.size(l)) +
                     (doc_.size(l) == 1 ? " value: " : " values: ") + describe(l));
    const std::uint32_t a = link_index(link, doc_.child(l, 0), n);
    const std::uint32_t b = link_index(link, doc_.child(l, 1), n);
    if (a == b)
      fail(link, "a link joins two different points, got " + describe(l) + " (point " +
                     std::to_string(a) + " to itself)");
    const std::uint64_t key = (std::uint64_t(std::min(a, b)) << 32) | std::max(a, b);
    const auto [first, fresh] = seen.emplace(key, k);
    if (!fresh) {
      const InputLocation& before = w.link_where[first->second];
      fail(link, "duplicate link " + describe(l) + ": points " + std::to_string(std::min(a, b)) +
                     " and " + std::to_string(std::max(a, b)) + " are already linked by " +
                     before.key_path + " (at " + std::to_string(before.line) + ":" +
                     std::to_string(before.column) + "); a link runs both ways");
    }
    w.links.push_back({a, b});
    w.link_where.push_back(at(link));
  }
  return w;
}

Scene NativeReader::read() {
  const Keys top_keys = {"version", "name",    "bounds",    "agent",    "obstacles",
                         "regions", "queries", "cell_size", "waypoints"};
  const Item root = item(doc_.root, "");
  if (kind(root.node) != Kind::map) {
    fail(root,
         "a scene must be a map with version:, bounds: and optional name:, agent:, "
         "obstacles:, regions:, queries:, got " +
             kind_of(root.node));
  }
  const Fields top = collect(root, "a scene");
  // The version first: a newer file should be told it is newer, not that its keys are unknown.
  read_version(top);
  reject_unknown(top, top_keys);

  Scene scene;
  if (const Entry* e = top.find("name")) scene.name = text(child(top, *e));
  if (const Entry* e = top.find("cell_size")) {
    const Item c = child(top, *e);
    const double size = finite(c, "the cell size");
    if (!(size > 0)) fail(c, "cell_size must be > 0, got " + describe(c.node));
    scene.native_cell_size = size;
  }
  const detail::RawRing bounds =
      ring(required(top, "bounds", "the outer boundary, a ring of [x, y] points"));
  if (const Entry* e = top.find("agent")) read_agent(child(top, *e), scene.agent);
  std::vector<RawObstacle> obstacles;
  if (const Entry* e = top.find("obstacles")) {
    for (const Item& o : list(child(top, *e), "obstacles")) obstacles.push_back(read_obstacle(o));
  }
  std::vector<RawRegion> regions;
  if (const Entry* e = top.find("regions")) {
    for (const Item& r : list(child(top, *e), "regions")) regions.push_back(read_region(r));
  }
  if (const Entry* e = top.find("queries")) {
    const std::vector<Item> items = list(child(top, *e), "queries");
    for (std::size_t i = 0; i < items.size(); ++i) {
      Query q = read_query(items[i]);
      // Queries are picked by name, so a repeated name would make one unreachable.
      for (std::size_t j = 0; j < i && !q.name.empty(); ++j) {
        if (scene.queries[j].name == q.name) {
          fail(items[i], "duplicate query name \"" + q.name + "\" (also queries[" +
                             std::to_string(j) + "] at " +
                             std::to_string(scene.queries[j].where.line) + ":" +
                             std::to_string(scene.queries[j].where.column) + ")");
        }
      }
      scene.queries.push_back(std::move(q));
    }
  }

  if (const Entry* e = top.find("waypoints")) scene.waypoints = read_waypoints(child(top, *e));

  scene.bounds = detail::checked_ring(bounds);
  scene.bounds_where = bounds.where;
  for (const RawObstacle& o : obstacles)
    detail::add_obstacle(o, repair_, scene.obstacles, scene.repairs);
  for (RawRegion& r : regions) {
    r.region.polygon = detail::checked_ring(r.polygon);
    scene.regions.push_back(std::move(r.region));
  }
  return scene;
}

SceneEdit NativeReader::read_edit(const Item& item, const Fields& f, std::string_view key) {
  SceneEdit e;
  e.where = at(item);
  const Item value = child(f, *f.find(key));
  const auto id = [&](const Item& i) {
    const double v = finite(i, "the id");
    if (!(v >= 0) || v != std::floor(v) || v > 1e15)
      fail(i, "an id must be a whole number >= 0, got " + describe(i.node));
    return std::size_t(v);
  };
  // move_*: {id: N, by: [dx, dy]}
  const auto move = [&](SceneEdit::Kind kind) {
    const Fields m = fields(value, "a move (a map with id: and by: [dx, dy])", {"id", "by"});
    e.kind = kind;
    e.id = id(required(m, "id", "which one to move"));
    e.by = point(required(m, "by", "the translation [dx, dy]"));
  };
  if (key == "add_obstacle") {
    e.kind = SceneEdit::Kind::add_obstacle;
    const RawObstacle o = read_obstacle(value);
    e.shape = detail::checked_polygon(o.outer, o.holes);  // edits are never repaired
  } else if (key == "remove_obstacle") {
    e.kind = SceneEdit::Kind::remove_obstacle;
    e.id = id(value);
  } else if (key == "move_obstacle") {
    move(SceneEdit::Kind::move_obstacle);
  } else if (key == "add_region") {
    e.kind = SceneEdit::Kind::add_region;
    RawRegion r = read_region(value);
    r.region.polygon = detail::checked_ring(r.polygon);
    e.region = std::move(r.region);
  } else if (key == "remove_region") {
    e.kind = SceneEdit::Kind::remove_region;
    e.id = id(value);
  } else {
    move(SceneEdit::Kind::move_region);
  }
  return e;
}

std::vector<TimedEdits> NativeReader::read_edits() {
  const Item root = item(doc_.root, "");
  if (kind(root.node) != Kind::map)
    fail(root,
         "a file of edits must be a map with version: 1 and edits:, got " + kind_of(root.node));
  const Fields top = collect(root, "a file of edits");
  read_version(top);
  reject_unknown(top, {"version", "edits"});
  std::vector<TimedEdits> out;
  const Keys keys = {"time",       "add_obstacle",  "remove_obstacle", "move_obstacle",
                     "add_region", "remove_region", "move_region"};
  for (const Item& i : list(required(top, "edits", "the list of timed edits"), "edits")) {
    const Fields f = fields(i, "an edit (a map with time: and one of add_obstacle:, ...)", keys);
    const Item t = required(f, "time", "when the edit happens");
    const double time = finite(t, "the time");
    if (!out.empty() && time < out.back().time)
      fail(t, "times must never decrease: " + shortest_text(time) + " comes after " +
                  shortest_text(out.back().time));
    const Entry* edit = nullptr;
    for (const Entry& entry : f.entries) {
      if (entry.key == "time") continue;
      if (edit != nullptr)
        fail(child(f, entry), "one edit per item: this item has " + std::string(edit->key) +
                                  " already; give " + std::string(entry.key) +
                                  " its own item with the same time");
      edit = &entry;
    }
    if (edit == nullptr)
      fail(i,
           "the item has a time but no edit (add_obstacle, remove_obstacle, move_obstacle, "
           "add_region, remove_region or move_region)");
    if (out.empty() || time != out.back().time) out.push_back({time, {}});
    out.back().edits.push_back(read_edit(i, f, edit->key));
  }
  return out;
}

}  // namespace

std::vector<TimedEdits> parse_scene_edits(std::string_view text, const std::string& source_name) {
  if (text.size() > detail::max_native_scene_bytes)
    throw InputError({source_name, 0, 0, ""},
                     "the file of edits is " + std::to_string(text.size() >> 20) +
                         " MiB; it may be at most " +
                         std::to_string(detail::max_native_scene_bytes >> 20) + " MiB");
  const detail::Document doc = detail::parse_document(text, source_name, "file of edits");
  if (doc[doc.root].kind == Kind::null)
    throw InputError({source_name, 0, 0, ""},
                     "the file of edits is empty; it is a map with version: 1 and edits:");
  return NativeReader(doc, source_name, LoadOptions{}.max_points, false).read_edits();
}

Scene parse_native_scene(std::string_view text, const std::string& source_name,
                         std::size_t max_points, bool repair) {
  if (text.size() > detail::max_native_scene_bytes) {
    throw InputError({source_name, 0, 0, ""},
                     "the scene is " + std::to_string(text.size() >> 20) +
                         " MiB; native scenes may be at most " +
                         std::to_string(detail::max_native_scene_bytes >> 20) + " MiB");
  }
  const detail::Document doc = detail::parse_document(text, source_name);
  if (doc[doc.root].kind == Kind::null) {
    throw InputError({source_name, 0, 0, ""},
                     "the scene is empty; a scene is a map with at least version: and bounds:");
  }
  Scene scene = NativeReader(doc, source_name, max_points, repair).read();
  if (scene.name.empty())
    scene.name = valid_utf8(std::filesystem::path(source_name).stem().string());
  return scene;
}

}  // namespace polynav
