// Edits to a scene (SceneEdit): obstacles and regions added, removed and moved by id, every
// added or moved shape checked as a loaded one is, all or nothing.

#include <algorithm>
#include <cmath>
#include <string>
#include <utility>

#include "polynav/number.hpp"
#include "polynav/scene/scene.hpp"
#include "readers.hpp"
#include "validate.hpp"

namespace polynav {
namespace {

const char* noun(SceneEdit::Kind kind) {
  switch (kind) {
    case SceneEdit::Kind::add_obstacle:
    case SceneEdit::Kind::remove_obstacle:
    case SceneEdit::Kind::move_obstacle:
      return "obstacle";
    default:
      return "region";
  }
}

// Where an edit is written; edits made in code have no place, so the key names their position.
InputLocation place(const SceneEdit& e, std::size_t i) {
  InputLocation where = e.where;
  if (where.key_path.empty()) where.key_path = "edits[" + std::to_string(i) + "]";
  return where;
}

// The index of `id` among `ids`, or a located error listing what there is.
std::size_t index_of(const std::vector<std::size_t>& ids, const SceneEdit& e, std::size_t i) {
  const auto it = std::find(ids.begin(), ids.end(), e.id);
  if (it != ids.end()) return std::size_t(it - ids.begin());
  std::string have;
  for (std::size_t k = 0; k < ids.size() && k < 12; ++k)
    have += (k ? ", " : "") + std::to_string(ids[k]);
  if (ids.size() > 12) have += ", ...";
  throw InputError(place(e, i), std::string("no ") + noun(e.kind) + " has id " +
                                    std::to_string(e.id) + " (the scene's " + noun(e.kind) +
                                    "s now: " + (have.empty() ? "none" : have) + ")");
}

// Removes the item with the edit's id, and its id.
template <class T>
void remove_by_id(std::vector<T>& items, std::vector<std::size_t>& item_ids, const SceneEdit& e,
                  std::size_t i) {
  const std::size_t k = index_of(item_ids, e, i);
  items.erase(items.begin() + std::ptrdiff_t(k));
  item_ids.erase(item_ids.begin() + std::ptrdiff_t(k));
}

Ring moved(const Ring& ring, Point by) {
  Ring out = ring;
  for (Point& p : out) p = p + by;
  return out;
}

// A shape checked as a loaded one: a valid polygon, each ring reported at the edit.
Polygon checked_shape(const Polygon& shape, const InputLocation& where) {
  detail::RawRing outer{shape.outer, where};
  std::vector<detail::RawRing> holes;
  for (const Ring& h : shape.holes) holes.push_back({h, where});
  return detail::checked_polygon(outer, holes);
}

}  // namespace

SceneIds SceneIds::of(const Scene& scene) {
  SceneIds ids;
  for (std::size_t i = 0; i < scene.obstacles.size(); ++i) ids.obstacles.push_back(i);
  for (std::size_t i = 0; i < scene.regions.size(); ++i) ids.regions.push_back(i);
  ids.next_obstacle = scene.obstacles.size();
  ids.next_region = scene.regions.size();
  return ids;
}

std::vector<std::size_t> apply_edits(Scene& scene, SceneIds& ids,
                                     std::span<const SceneEdit> edits) {
  Scene out = scene;
  SceneIds out_ids = ids;
  std::vector<std::size_t> added;
  for (std::size_t i = 0; i < edits.size(); ++i) {
    const SceneEdit& e = edits[i];
    const InputLocation where = place(e, i);
    if (!std::isfinite(e.by.x) || !std::isfinite(e.by.y))
      throw InputError(where, "the translation must be finite, found (" + shortest_text(e.by.x) +
                                  ", " + shortest_text(e.by.y) + ")");
    switch (e.kind) {
      case SceneEdit::Kind::add_obstacle:
        out.obstacles.push_back({checked_shape(e.shape, where), where});
        added.push_back(out_ids.next_obstacle++);
        out_ids.obstacles.push_back(added.back());
        break;
      case SceneEdit::Kind::remove_obstacle:
        remove_by_id(out.obstacles, out_ids.obstacles, e, i);
        break;
      case SceneEdit::Kind::move_obstacle: {
        Obstacle& o = out.obstacles[index_of(out_ids.obstacles, e, i)];
        Polygon shape{moved(o.shape.outer, e.by), {}};
        for (const Ring& h : o.shape.holes) shape.holes.push_back(moved(h, e.by));
        // Rounded coordinates can make a valid polygon invalid: checked again.
        o.shape = checked_shape(shape, where);
        break;
      }
      case SceneEdit::Kind::add_region: {
        if (!(e.region.cost > 0) || !std::isfinite(e.region.cost))
          throw InputError(where, "a region's cost must be a finite number > 0, found " +
                                      shortest_text(e.region.cost));
        Region r = e.region;
        r.polygon = detail::checked_ring({r.polygon, where});
        r.where = where;
        out.regions.push_back(std::move(r));
        added.push_back(out_ids.next_region++);
        out_ids.regions.push_back(added.back());
        break;
      }
      case SceneEdit::Kind::remove_region:
        remove_by_id(out.regions, out_ids.regions, e, i);
        break;
      case SceneEdit::Kind::move_region: {
        Region& r = out.regions[index_of(out_ids.regions, e, i)];
        r.polygon = detail::checked_ring({moved(r.polygon, e.by), where});
        break;
      }
    }
  }
  check_scale(out);
  scene = std::move(out);
  ids = std::move(out_ids);
  return added;
}

std::vector<Box> edited_boxes(const Scene& before, const SceneIds& before_ids, const Scene& after,
                              const SceneIds& after_ids) {
  std::vector<Box> boxes;
  const auto compare = [&](const std::vector<std::size_t>& old_ids, const auto& old_items,
                           const std::vector<std::size_t>& new_ids, const auto& new_items,
                           const auto& same, const auto& box_of) {
    std::size_t i = 0, j = 0;  // ids ascend in both lists
    while (i < old_ids.size() || j < new_ids.size()) {
      if (j == new_ids.size() || (i < old_ids.size() && old_ids[i] < new_ids[j])) {
        boxes.push_back(box_of(old_items[i++]));  // removed
      } else if (i == old_ids.size() || new_ids[j] < old_ids[i]) {
        boxes.push_back(box_of(new_items[j++]));  // added
      } else {
        if (!same(old_items[i], new_items[j])) {
          boxes.push_back(box_of(old_items[i]));
          boxes.push_back(box_of(new_items[j]));
        }
        ++i;
        ++j;
      }
    }
  };
  compare(
      before_ids.obstacles, before.obstacles, after_ids.obstacles, after.obstacles,
      [](const Obstacle& a, const Obstacle& b) {
        return a.shape.outer == b.shape.outer && a.shape.holes == b.shape.holes;
      },
      [](const Obstacle& o) { return bounding_box(o.shape.outer); });
  compare(
      before_ids.regions, before.regions, after_ids.regions, after.regions,
      [](const Region& a, const Region& b) {
        return a.polygon == b.polygon && a.cost == b.cost && a.height == b.height;
      },
      [](const Region& r) { return bounding_box(r.polygon); });
  return boxes;
}

std::vector<TimedEdits> load_scene_edits(const std::filesystem::path& path) {
  check_input_file(path);
  return parse_scene_edits(reader_text::read_file(path, detail::max_native_scene_bytes),
                           path.string());
}

}  // namespace polynav
