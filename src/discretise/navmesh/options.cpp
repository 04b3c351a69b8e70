#include "polynav/discretise/navmesh/options.hpp"

#include <algorithm>
#include <span>
#include <utility>

#include "polynav/error.hpp"
#include "polynav/space/free_space.hpp"

namespace polynav {
namespace {

// Each option value with the name the registry reads.
template <class Value>
using Named = std::pair<Value, std::string_view>;
constexpr Named<NavMeshNodes> node_names[] = {
    {NavMeshNodes::centres, "centres"},
    {NavMeshNodes::portals, "portals"},
    {NavMeshNodes::vertices, "vertices"},
    {NavMeshNodes::portals_and_centres, "portals+centres"}};
constexpr Named<NavMeshSource> source_names[] = {{NavMeshSource::automatic, "auto"},
                                                 {NavMeshSource::mesh, "mesh"},
                                                 {NavMeshSource::rebuild, "rebuild"}};
constexpr Named<NavMeshSearch> search_names[] = {{NavMeshSearch::graph, "graph"},
                                                 {NavMeshSearch::optimal, "optimal"},
                                                 {NavMeshSearch::automatic, "auto"}};

template <class Value>
std::string_view name_of(std::span<const Named<Value>> names, Value value) {
  for (const auto& [v, name] : names)
    if (v == value) return name;
  return "?";
}

// The value named `name`, else an InputError under `key` that says what was expected.
template <class Value>
Value parse(std::span<const Named<Value>> names, const std::string& name, const char* key,
            const char* what, const char* expected) {
  for (const auto& [v, n] : names)
    if (name == n) return v;
  throw InputError({"", 0, 0, key},
                   "unknown " + std::string(what) + " '" + name + "'; expected " + expected);
}

}  // namespace

NavMeshNodes parse_navmesh_nodes(const std::string& name) {
  return parse<NavMeshNodes>(node_names, name, "nodes", "node placement",
                             "centres, portals, vertices or portals+centres");
}

std::string_view navmesh_nodes_name(NavMeshNodes nodes) {
  return name_of<NavMeshNodes>(node_names, nodes);
}

NavMeshSource parse_navmesh_source(const std::string& name) {
  return parse<NavMeshSource>(source_names, name, "source", "polygon source",
                              "auto, mesh or rebuild");
}

NavMeshSearch parse_navmesh_search(const std::string& name) {
  return parse<NavMeshSearch>(search_names, name, "search", "navmesh search",
                              "auto, graph or optimal");
}

std::string_view navmesh_search_name(NavMeshSearch search) {
  return name_of<NavMeshSearch>(search_names, search);
}

NavMeshSearch resolve_navmesh_search(const FreeSpace& space, const NavMeshOptions& options) {
  if (options.search != NavMeshSearch::automatic) return options.search;
  if (options.nodes != NavMeshNodes::vertices || space.open_gaps() ||
      space.corners().size() > auto_optimal_max_corners)
    return NavMeshSearch::graph;
  // Heights outside every region are 0; with a climb limit, any two heights further apart than
  // it may make a move one way (regions that do not meet free space only make this cautious).
  double lowest = 0.0, highest = 0.0;
  for (const Region& r : space.regions()) {
    if (r.cost != 1.0) return NavMeshSearch::graph;
    if (r.height) {
      lowest = std::min(lowest, *r.height);
      highest = std::max(highest, *r.height);
    }
  }
  if (highest - lowest > space.agent().max_climb) return NavMeshSearch::graph;
  return NavMeshSearch::optimal;
}

}  // namespace polynav
