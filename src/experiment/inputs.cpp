// An experiment's scenes and queries from files (experiment.hpp): what `polynav experiment` and
// Python's run_experiment read the same way.

#include <filesystem>
#include <set>

#include "polynav/error.hpp"
#include "polynav/experiment/experiment.hpp"
#include "polynav/text.hpp"

namespace polynav::experiment {

ScenarioPoints scenario_points(std::string_view choice, const Options& options,
                               std::string_view key_prefix) {
  if (choice == "centres") return ScenarioPoints::centres;
  if (choice == "corners") return ScenarioPoints::corners;
  if (choice != "auto")
    throw InputError(
        {"", 0, 0, std::string(key_prefix) + "points"},
        "points must be auto, centres or corners, found '" + std::string(choice) + "'");
  bool any_grid = false, all_corner = true;
  const std::string key = "grid.align";
  const auto& global = options.settings.values();
  for (const MethodSpec& spec : options.methods) {
    if (spec.method != "grid") continue;
    any_grid = true;
    const auto& own = spec.settings.values();
    const std::string align = own.count(key)      ? own.at(key)
                              : global.count(key) ? global.at(key)
                                                  : "centre";
    all_corner = all_corner && align == "corner";
  }
  return any_grid && all_corner ? ScenarioPoints::corners : ScenarioPoints::centres;
}

std::vector<SceneInput> read_scene_inputs(
    const SceneFiles& files, const Options& options,
    const std::function<SceneInput(const std::string& path)>& load, std::string_view key_prefix) {
  const std::string scen_key = std::string(key_prefix) + "scen";
  if (!files.scens.empty() && options.random)
    throw InputError({"", 0, 0, scen_key},
                     "give either scenario files or random queries, not both");
  if (!files.scens.empty() && files.scens.size() != files.scenes.size())
    throw InputError({"", 0, 0, scen_key}, "give one scenario file per scene, in the same order: " +
                                               std::to_string(files.scenes.size()) + " scenes, " +
                                               std::to_string(files.scens.size()) +
                                               " scenario files");
  std::vector<SceneInput> inputs;
  std::set<std::string> names;
  for (std::size_t i = 0; i < files.scenes.size(); ++i) {
    const std::string& path = files.scenes[i];
    SceneInput input = load(path);
    input.name =
        !input.scene.name.empty() ? input.scene.name : std::filesystem::path(path).stem().string();
    // A name is written to CSV and SVG as text: a path that is not UTF-8 is made so.
    if (!names.insert(input.name).second) input.name = valid_utf8(path);
    names.insert(input.name);
    if (!options.random) {
      std::string scen = files.scens.empty() ? std::string() : files.scens[i];
      if (scen.empty() && input.scene.queries.empty() && std::filesystem::exists(path + ".scen"))
        scen = path + ".scen";
      input.queries =
          scen.empty() ? input.scene.queries : load_scenario(scen, input.scene, files.points);
      if (input.queries.empty())
        throw InputError({path, 0, 0, {}},
                         "no queries: the scene has none; give a scenario file or random queries");
      for (const Query& q : input.queries)
        if (q.radius)
          throw InputError(q.where,
                           "a query with an agent radius of its own: experiments plan "
                           "every query for the scene's agent (polynav plan and scen "
                           "serve per-query radii)");
    }
    inputs.push_back(std::move(input));
  }
  return inputs;
}

}  // namespace polynav::experiment
