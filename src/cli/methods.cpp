// `polynav methods`: every method, smoother and option the registry declares, with their types,
// limits, defaults and meanings (or as JSON for tools).

#include <CLI/CLI.hpp>
#include <iostream>
#include <memory>

#include "commands.hpp"
#include "common.hpp"
#include "polynav/plan/json.hpp"
#include "polynav/plan/registry.hpp"

namespace polynav::cli {
namespace {

void print_options(const std::string& group, const std::vector<OptionSpec>& specs) {
  for (const OptionSpec& o : specs) {
    std::cout << "    " << group << "." << o.name << "  (" << to_string(o.type) << ") "
              << o.limits_text() << "\n      " << o.doc << "\n";
  }
}

int run_methods(bool json) {
  if (json) {
    std::cout << registry_json() << "\n";
    return exit_ok;
  }
  std::cout << "Methods (--method NAME):\n";
  for (const MethodEntry& m : method_registry()) {
    std::cout << "  " << m.name << "\n    " << m.summary << "\n";
    print_options(m.name, m.options);
  }
  std::cout << "\nSmoothers (--smooth NAME):\n";
  for (const SmootherEntry& s : smoother_registry()) {
    std::cout << "  " << s.name << "\n    " << s.summary << "\n";
    print_options(s.name, s.options);
  }
  std::cout << "\nSearch options (every method):\n";
  print_options("search", search_option_specs());
  std::cout << "\nFree-space options:\n";
  print_options("space", space_option_specs());
  std::cout << "\nSet any of them with --set GROUP.OPTION=VALUE, e.g. --set grid.resolution=0.25 "
               "--set search.weight=1.5.\n";
  return exit_ok;
}

}  // namespace

void add_methods_command(CLI::App& app) {
  auto json = std::make_shared<bool>(false);
  CLI::App* cmd = app.add_subcommand("methods", "List the methods, smoothers and their options");
  cmd->add_flag("--json", *json, "The same as JSON");
  cmd->footer(std::string("Examples:\n  polynav methods\n  polynav methods --json\n\n") +
              exit_codes_help);
  cmd->callback([json] { set_exit_status(run_methods(*json)); });
}

}  // namespace polynav::cli
