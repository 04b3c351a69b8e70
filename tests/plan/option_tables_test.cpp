// The option tables: every option declared once, its default written from the struct it sets.
// Each declared default must read back as that struct's value, each registry row must offer
// exactly its table's declarations, and names must read back as the values they name.

#include <gtest/gtest.h>

#include <chrono>
#include <cstdint>
#include <limits>
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
  expect_defaults_read_back(hybrid_option_table(), "hybrid", HybridOptions{});
  expect_defaults_read_back(weighted_option_table(), "weighted", WeightedOptions{});
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

// The message of the InputError that checking `key`=`value` throws ("" when it is accepted).
std::string refusal(const std::string& group, const std::vector<OptionSpec>& specs,
                    const std::string& key, const std::string& value) {
  Settings settings;
  settings.set(group + "." + key, value);
  try {
    OptionValues(group, specs, settings);
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

bool contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

TEST(OptionValues, IntegersAreReadExactlyAndCheckedInTheirOwnType) {
  const auto grid = [](const std::string& max_cells) {
    Settings settings;
    settings.set("grid.max_cells", max_cells);
    return grid_option_table().read(OptionValues("grid", grid_option_table().specs(), settings));
  };
  // Digits are read as an integer, not through a double (which would make this ...808).
  EXPECT_EQ(grid("9223372036854775807").max_cells, std::size_t{9223372036854775807u});
  EXPECT_EQ(grid("18446744073709551615").max_cells, std::numeric_limits<std::size_t>::max());
  EXPECT_EQ(grid("+12").max_cells, 12u);
  // Spellings of exact whole numbers that were taken before still are.
  EXPECT_EQ(grid("1e3").max_cells, 1000u);
  EXPECT_EQ(grid("2.0").max_cells, 2u);
  EXPECT_EQ(grid("inf").max_cells, std::numeric_limits<std::size_t>::max());

  const std::vector<OptionSpec>& specs = grid_option_table().specs();
  // Beyond the type: refused, never "no limit".
  for (const std::string too_large :
       {"18446744073709551616", "99999999999999999999999", "1e20", "1.8446744073709552e19"}) {
    SCOPED_TRACE(too_large);
    const std::string m = refusal("grid", specs, "max_cells", too_large);
    EXPECT_TRUE(contains(m, "grid.max_cells: out of range")) << m;
    EXPECT_TRUE(contains(m, "18446744073709551615")) << m;
    EXPECT_TRUE(contains(m, "found '" + too_large + "'")) << m;
  }
  for (const std::string below : {"-1", "0", "-18446744073709551616", "-inf"}) {
    SCOPED_TRACE(below);
    const std::string m = refusal("grid", specs, "max_cells", below);
    EXPECT_TRUE(contains(m, "grid.max_cells: out of range [Limit: >= 1]")) << m;
  }
  for (const std::string bad : {"1.5", "nan", "1e400", "0x10", "1 ", "", "-"}) {
    SCOPED_TRACE(bad);
    EXPECT_TRUE(contains(refusal("grid", specs, "max_cells", bad), "expected a whole number"));
  }
  // A signed member: its declared limits, whatever the digits.
  const std::vector<OptionSpec>& quadtree = quadtree_option_table().specs();
  for (const std::string bad :
       {"99999999999999999999", "2147483648", "inf", "-9223372036854775809"})
    EXPECT_TRUE(contains(refusal("quadtree", quadtree, "max_depth", bad),
                         "quadtree.max_depth: out of range [Limit: >= 1, <= 30]"))
        << bad;
  // A 64-bit count: its largest value is no limit, one more is out of range.
  Settings settings;
  settings.set("search.max_expanded", "18446744073709551615");
  EXPECT_EQ(search_option_table()
                .read(OptionValues("search", search_option_specs(), settings))
                .max_expansions,
            std::numeric_limits<std::uint64_t>::max());
  EXPECT_TRUE(contains(refusal("search", search_option_specs(), "max_expanded", "1e20"),
                       "search.max_expanded: out of range"));
  settings.set("search.max_expanded", "-0");
  EXPECT_EQ(search_option_table()
                .read(OptionValues("search", search_option_specs(), settings))
                .max_expansions,
            0u);
}

TEST(OptionValues, InfinityOnlyWhereAnOptionSaysItMeansNoLimit) {
  struct Group {
    std::string name;
    const std::vector<OptionSpec>* specs;
  };
  std::vector<Group> groups;
  for (const MethodEntry& m : method_registry()) groups.push_back({m.name, &m.options});
  for (const SmootherEntry& s : smoother_registry()) groups.push_back({s.name, &s.options});
  groups.push_back({"search", &search_option_specs()});
  groups.push_back({"space", &space_option_specs()});
  std::vector<std::string> unlimited;
  for (const Group& g : groups) {
    for (const OptionSpec& spec : *g.specs) {
      if (spec.type != OptionType::number) continue;
      const std::string key = g.name + "." + spec.name;
      SCOPED_TRACE(key);
      for (const std::string inf : {"inf", "infinity", ".inf", "+Inf"}) {
        const std::string m = refusal(g.name, *g.specs, spec.name, inf);
        if (spec.unlimited) {
          EXPECT_EQ(m, "") << inf;
        } else {
          EXPECT_TRUE(contains(m, key + ": must be a finite number, found '" + inf + "'")) << m;
        }
      }
      EXPECT_TRUE(
          contains(refusal(g.name, *g.specs, spec.name, "nan"), key + ": must be a finite"));
      EXPECT_TRUE(contains(refusal(g.name, *g.specs, spec.name, "-inf"), key + ": "));
      if (spec.unlimited) {
        unlimited.push_back(key);
        EXPECT_TRUE(contains(spec.doc, "inf = none")) << spec.doc;
      }
    }
  }
  // Budgets and limits, where infinity is "none"; a weight, a cell size, a tolerance, a
  // clearance distance or cost factor has no meaning at infinity.
  EXPECT_EQ(unlimited, (std::vector<std::string>{"search.max_cost", "search.time_limit_ms",
                                                 "space.max_build_seconds"}));
  Settings settings;
  settings.set("search.time_limit_ms", "1e300");  // beyond the nanosecond count: none
  settings.set("search.max_cost", ".inf");
  const search::SearchOptions s =
      search_option_table().read(OptionValues("search", search_option_specs(), settings));
  EXPECT_EQ(s.max_time, std::chrono::nanoseconds::max());
  EXPECT_EQ(s.max_cost, std::numeric_limits<double>::infinity());
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
