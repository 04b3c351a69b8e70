// The option tables: every option declared once, its default written from the struct it sets.
// Each declared default must read back as that struct's value, each registry row must offer
// exactly its table's declarations, and names must read back as the values they name.

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "polynav/error.hpp"
#include "polynav/plan/option_tables.hpp"
#include "polynav/plan/registry.hpp"

namespace polynav {
namespace {

// The table's declared defaults read into a struct, written back: every member as `expected`.
template <class O>
void expect_defaults_read_back(const OptionTable<O>& table, const std::string& group,
                               const O& expected) {
  const O read = table.read(OptionValues(group, table.specs(), Settings{}));
  const std::vector<std::string> got = table.write(read);
  const std::vector<std::string> want = table.write(expected);
  ASSERT_EQ(got.size(), table.specs().size());
  for (std::size_t i = 0; i < got.size(); ++i) {
    EXPECT_EQ(got[i], want[i]) << group << "." << table.specs()[i].name;
    EXPECT_EQ(table.specs()[i].default_value, want[i]) << group << "." << table.specs()[i].name;
  }
}

TEST(OptionTables, EveryDeclaredDefaultReadsBackAsTheStructsDefault) {
  expect_defaults_read_back(grid_option_table(), "grid", GridMethodOptions{});
  expect_defaults_read_back(quadtree_option_table(), "quadtree", QuadtreeOptions{});
  expect_defaults_read_back(visgraph_option_table(), "visgraph", VisibilityGraphOptions{});
  expect_defaults_read_back(shortcut_optimal_option_table(), "shortcut-optimal",
                            ShortcutOptimalOptions{});
  expect_defaults_read_back(spline_option_table(), "spline", SplineSmoothing{});
  expect_defaults_read_back(search_option_table(), "search", search::SearchOptions{});
  expect_defaults_read_back(space_option_table(), "space", FreeSpaceOptions{});
  // The planner's navigation mesh picks its search; every other default is NavMeshOptions'.
  NavMeshOptions navmesh;
  navmesh.search = NavMeshSearch::automatic;
  expect_defaults_read_back(navmesh_option_table(), "navmesh", navmesh);
}

TEST(OptionTables, SpecialValuesReadBackAsTheMembersTheyStandFor) {
  // "inf" for a count is its largest value; for a number, infinity; "auto" for a number is 0.
  Settings settings;
  settings.set("search.max_expanded", "inf");
  settings.set("search.max_cost", "inf");
  settings.set("search.time_limit_ms", "2.5");
  settings.set("search.beam_width", "7");
  const search::SearchOptions s =
      search_option_table().read(OptionValues("search", search_option_specs(), settings));
  EXPECT_EQ(s.max_expansions, std::numeric_limits<std::uint64_t>::max());
  EXPECT_EQ(s.max_cost, std::numeric_limits<double>::infinity());
  EXPECT_EQ(s.max_time, std::chrono::microseconds(2500));
  EXPECT_EQ(s.beam_width, 7u);
  EXPECT_TRUE(s.beam_search());

  settings.set("quadtree.min_cell", "auto");
  settings.set("quadtree.nodes", "centres");
  const QuadtreeOptions q = quadtree_option_table().read(
      OptionValues("quadtree", quadtree_option_table().specs(), settings));
  EXPECT_EQ(q.min_cell, 0.0);
  EXPECT_EQ(q.nodes, QuadtreeNodes::centres);

  settings.set("space.gaps", "open");
  EXPECT_TRUE(
      space_option_table().read(OptionValues("space", space_option_specs(), settings)).open_gaps);
}

TEST(OptionTables, RegistryRowsOfferTheirTablesDeclarations) {
  const auto names = [](const std::vector<OptionSpec>& specs) {
    std::vector<std::string> out;
    for (const OptionSpec& s : specs) out.push_back(s.name + "=" + s.default_value);
    return out;
  };
  EXPECT_EQ(names(find_method("grid").options), names(grid_option_table().specs()));
  EXPECT_EQ(names(find_method("quadtree").options), names(quadtree_option_table().specs()));
  EXPECT_EQ(names(find_method("visgraph").options), names(visgraph_option_table().specs()));
  EXPECT_EQ(names(find_method("navmesh").options), names(navmesh_option_table().specs()));
  EXPECT_EQ(names(find_smoother("spline").options), names(spline_option_table().specs()));
  EXPECT_EQ(names(search_option_specs()), names(search_option_table().specs()));
}

TEST(OptionTables, ChoicesAreTheNamesTablesWithoutAliases) {
  const OptionSpec* heuristic = nullptr;
  for (const OptionSpec& s : grid_option_table().specs())
    if (s.name == "heuristic") heuristic = &s;
  ASSERT_NE(heuristic, nullptr);
  EXPECT_EQ(heuristic->choices, names_of(grid_heuristic_names));
  // "automatic" is an alias: read, never offered or written.
  EXPECT_EQ(std::count(heuristic->choices.begin(), heuristic->choices.end(), "automatic"), 0);
  EXPECT_EQ(parse_grid_heuristic("automatic"), GridHeuristic::automatic);
  EXPECT_EQ(to_string(GridHeuristic::automatic), "auto");
  for (const std::string& name : names_of(grid_ties_names))
    EXPECT_EQ(name_of(grid_ties_names, from_name(grid_ties_names, name, "ties", "tie rule")), name);
  for (const std::string& name : names_of(navmesh_nodes_names))
    EXPECT_EQ(navmesh_nodes_name(parse_navmesh_nodes(name)), name);
}

TEST(OptionTables, UnknownNamesSayWhatIsExpected) {
  try {
    (void)from_name(grid_ties_names, "centra64", "grid.ties", "tie rule");
    FAIL() << "no error";
  } catch (const InputError& e) {
    const std::string m = e.what();
    EXPECT_NE(m.find("grid.ties"), std::string::npos) << m;
    EXPECT_NE(m.find("did you mean 'central64'"), std::string::npos) << m;
    EXPECT_NE(m.find("line or central64"), std::string::npos) << m;
  }
}

}  // namespace
}  // namespace polynav
