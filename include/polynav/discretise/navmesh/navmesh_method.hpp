#pragma once
/// @file
/// The navigation mesh searched by Polyanya (`navmesh.search=optimal`, or `auto` where it
/// resolves to optimal), as a Method: not A* over a graph, so searched its own way. The mesh's
/// polygons and point location are the NavMesh's; the search state lives in the query's
/// workspace.

#include <memory>

#include "polynav/discretise/method.hpp"
#include "polynav/discretise/navmesh/navmesh.hpp"

namespace polynav {

/// The Method answering queries by Polyanya over the navigation mesh built with `options`.
/// Chosen by `automatic`, it keeps what the graph offered: reach, and the search options
/// Polyanya cannot honour (partial paths, beam width, reopening), run over the graph of the same
/// polygons, built on first use. @throws whatever NavMesh's constructor throws
std::unique_ptr<Method> make_navmesh_polyanya(const FreeSpace& space,
                                              const NavMeshOptions& options);

/// The navigation mesh method for these options: Polyanya where `options.search` resolves to
/// optimal (resolve_navmesh_search), else the mesh's graph searched by the driver's A*.
std::unique_ptr<Method> make_navmesh_method(const FreeSpace& space, const NavMeshOptions& options);

}  // namespace polynav
