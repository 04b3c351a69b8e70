// `polynav render SCENE -o out.svg [--width PX]`: draws a scene (bounds, obstacles, the free
// space the agent's radius leaves, regions, queries) as an SVG picture.

#include <CLI/CLI.hpp>
#include <iostream>
#include <memory>
#include <string>

#include "commands.hpp"
#include "common.hpp"
#include "polynav/error.hpp"
#include "polynav/io/scene_picture.hpp"

namespace polynav::cli {
namespace {

struct RenderArgs {
  std::string scene;
  std::string output;
  double width = 800;
  bool bare = false;
};

int run_render(const RenderArgs& args, const SceneOptions& options) {
  check_output_path(args.output, "--output");
  const LoadedScene loaded(args.scene, options);
  SvgCanvas canvas =
      make_scene_canvas(loaded.scene, loaded.space, {.width = args.width, .bare = args.bare});
  draw_scene(canvas, loaded.scene, loaded.space);

  if (args.output == "-") {
    canvas.write(std::cout);
    std::cout.flush();
    return exit_ok;
  }
  canvas.save(args.output);
  std::cout << "wrote " << args.output << " (" << format_number(canvas.width(), 4) << " x "
            << format_number(canvas.height(), 4) << " px)\n";
  return exit_ok;
}

}  // namespace

void add_render_command(CLI::App& app) {
  auto args = std::make_shared<RenderArgs>();
  CLI::App* cmd = app.add_subcommand("render", "Draw a scene as an SVG picture");
  cmd->add_option("SCENE", args->scene, "Scene file to draw")->required()->type_name("");
  cmd->add_option("-o,--output", args->output, "SVG file to write ('-' for standard output)")
      ->required()
      ->type_name("FILE");
  cmd->add_option("--width", args->width, "Picture width in pixels, 100 to 20000")
      ->type_name("PX")
      ->check(number_in_range(100, 20000))
      ->capture_default_str();
  cmd->add_flag("--bare", args->bare, "Leave out the title and the legend");
  cmd->footer(
      std::string("Draws the bounds, obstacles, the clearance the agent's radius needs (dashed),\n"
                  "regions shaded by cost (green cheaper, brown dearer), raised regions hatched,\n"
                  "and each query's start (circle) and goal (diamond); an end that is not in\n"
                  "free space is crossed out. The height follows from the scene's aspect ratio.\n"
                  "\n"
                  "Examples:\n"
                  "  polynav render scenes/warehouse.yaml -o warehouse.svg\n"
                  "  polynav --radius 0.5 render maps/arena.map -o - | rsvg-convert -o arena.png\n"
                  "\n") +
      global_options_help + "\n\n" + exit_codes_help);
  cmd->callback([args, cmd] { set_exit_status(run_render(*args, scene_options(*cmd))); });
}

}  // namespace polynav::cli
