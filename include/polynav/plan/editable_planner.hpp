#pragma once
/// @file
/// A planner over a scene that changes: obstacles and regions added, removed and moved
/// (SceneEdit) while queries go on.
/// @code
///   polynav::EditablePlanner live(polynav::load_scene("scenes/warehouse.yaml"));
///   polynav::SceneEdit pallet;
///   pallet.shape.outer = {{20, 10}, {22, 10}, {22, 12}, {20, 12}};
///   const auto applied = live.apply(std::span(&pallet, 1));  // pallet's id: applied.added[0]
///   polynav::PlanResult r = live.plan({1, 1}, {38, 20});      // around the pallet
/// @endcode
///
/// Versions: each accepted batch of edits makes a new version, a scene and a Planner built from
/// it, and replaces the current one at once. A query runs on the version current when it
/// starts (planner() hands out that version's planner), so queries and edits from any threads
/// never see a half-edited scene, and a query started before an edit answers for the scene
/// before it. Edits are serialised: one batch is built at a time, while queries go on on the
/// version before it. A batch that fails (an id that names nothing, an invalid shape, the new
/// scene refused by the scale limits or the method's build budget) changes nothing.
///
/// What a version reuses: the obstacles grown by the agent's disc (exact Minkowski sums, most of
/// building free space) are kept between versions (InflationCache), so an edit grows only the
/// obstacles it adds or moves, and their union is joined again only around the edit where the
/// obstacles overlap. The grid method's grid keeps its cells away from the edit and classifies
/// only those near it (GridOptions::update); the quadtree keeps its leaves away from the edit,
/// and the costs of the arcs inside them (QuadtreeOptions::update); the version before's idle
/// search arrays are taken over. Free space's index, the other methods' discretisations (mesh
/// cells, visibility graphs), the quadtree's graph and the grid's searches' own precomputations
/// (JPS+ jump distances, HPA* clusters) are built whole for each version. Either way a version is
/// the Planner built from the edited scene, and its answers are exactly that planner's.

#include <cstdint>
#include <memory>
#include <mutex>
#include <span>
#include <vector>

#include "polynav/plan/planner.hpp"
#include "polynav/scene/scene.hpp"

namespace polynav {

class EditablePlanner {
 public:
  /// Builds the first version (version 0) from `scene`, as Planner(scene, options).
  explicit EditablePlanner(Scene scene, PlanOptions options = {});

  /// What apply() did.
  struct Applied {
    std::uint64_t version = 0;       ///< the version the edits made
    std::vector<std::size_t> added;  ///< the ids the batch's add_* edits took, in order
    double build_ms = 0.0;           ///< building the version: free space and method
    /// Obstacles (and the outside of the bounds) grown by the agent's disc for this version,
    /// and those taken from the versions before (InflationCache); both 0 for a point agent.
    std::size_t grown = 0;
    std::size_t reused = 0;
    /// Unions of the grown obstacles (the agent's, and one per clearance band) joined again only
    /// around the obstacles that changed, the rest kept from the version before; the others
    /// were joined whole.
    std::size_t joined_locally = 0;
    /// The grid method: the grid's cells, and those classified against the new free space; the
    /// others were kept from the version before, away from the edit (GridOptions::update).
    /// Equal when the grid was built whole; both 0 for other methods, built whole.
    std::size_t grid_cells = 0;
    std::size_t classified_cells = 0;
  };

  /// Applies the batch in order and makes the result the current version; all or nothing.
  /// Thread-safe; batches from several threads are applied one after another.
  /// @throws InputError located at the failing edit (apply_edits), or the build's own errors
  Applied apply(std::span<const SceneEdit> edits);

  /// The current version's planner; it stays valid, and on its version, while held.
  std::shared_ptr<const Planner> planner() const;
  /// The current version's scene.
  std::shared_ptr<const Scene> scene() const;
  /// The ids of the current version's obstacles and regions (SceneEdit).
  SceneIds ids() const;
  /// The current version's number: 0 as built, one more for each batch applied.
  std::uint64_t version() const;
  /// The current version whole: its number, scene, ids and planner, taken at once (the calls
  /// above, made one after another, may see different versions while edits go on).
  struct Snapshot {
    std::uint64_t number = 0;
    std::shared_ptr<const Scene> scene;
    SceneIds ids;
    std::shared_ptr<const Planner> planner;
  };
  Snapshot snapshot() const;

  /// planner()->plan(start, goal): on the version current when it starts.
  PlanResult plan(Point start, Point goal) const { return planner()->plan(start, goal); }

 private:
  using Version = Snapshot;
  std::shared_ptr<const Version> current() const;

  PlanOptions options_;
  std::shared_ptr<InflationCache> inflated_ = std::make_shared<InflationCache>();
  std::mutex edit_mutex_;             // one batch built at a time
  mutable std::mutex current_mutex_;  // guards current_ (held only to copy or swap it)
  std::shared_ptr<const Version> current_;
};

}  // namespace polynav
