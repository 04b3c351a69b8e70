#pragma once
// The subcommands of the `polynav` tool. Each adds itself to the application; main() calls them
// in the order they appear in `polynav --help`.

namespace CLI {
class App;
}

namespace polynav::cli {

void add_validate_command(CLI::App& app);
void add_render_command(CLI::App& app);
void add_plan_command(CLI::App& app);
void add_scen_command(CLI::App& app);
void add_reach_command(CLI::App& app);
void add_experiment_command(CLI::App& app);  // and merge
void add_methods_command(CLI::App& app);
void add_convert_command(CLI::App& app);
void add_serve_command(CLI::App& app);

}  // namespace polynav::cli
