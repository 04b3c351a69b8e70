// `polynav convert INPUT -o scene.yaml`: writes any scene polynav reads (native, MovingAI map,
// Polyanya mesh, ROS map, WKT, GeoJSON) as a native YAML scene, saying what the native format
// keeps only in another form.

#include <CLI/CLI.hpp>
#include <algorithm>
#include <cctype>
#include <iostream>
#include <memory>
#include <string>

#include "commands.hpp"
#include "common.hpp"
#include "polynav/error.hpp"
#include "polynav/io/output_file.hpp"
#include "polynav/text.hpp"

namespace polynav::cli {
namespace {

struct ConvertArgs {
  std::string input;
  std::string output;
};

int run_convert(const ConvertArgs& args, SceneOptions options) {
  options.report_repairs = false;  // they are among the notes below
  std::string extension = std::filesystem::path(args.output).extension().string();
  std::transform(extension.begin(), extension.end(), extension.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  if (args.output != "-" && extension != ".yaml" && extension != ".yml") {
    throw InputError({"", 0, 0, "--output"},
                     "convert writes native YAML scenes: the output must end in .yaml or .yml (or "
                     "be '-' for standard output), found '" +
                         args.output + "'");
  }
  check_output_path(args.output, "--output");
  const Scene scene = load_scene_with_options(args.input, options);
  const NativeExport exported = export_native_scene(scene);
  for (const std::string& note : exported.notes) std::cerr << "note: " << one_line(note) << "\n";
  if (args.output == "-") {
    std::cout << exported.text;
    std::cout.flush();
    return exit_ok;
  }
  write_output_file(args.output, exported.text);
  std::cout << "wrote " << args.output << " (" << scene_format(scene).description << " "
            << scene_display_name(scene) << " as a native scene)\n";
  return exit_ok;
}

}  // namespace

void add_convert_command(CLI::App& app) {
  auto args = std::make_shared<ConvertArgs>();
  CLI::App* cmd = app.add_subcommand("convert", "Write any scene as a native YAML scene");
  cmd->add_option("INPUT", args->input, "Scene to convert (any format polynav reads)")
      ->required()
      ->type_name("");
  cmd->add_option("-o,--output", args->output,
                  "Native YAML scene to write ('-' for standard output)")
      ->required()
      ->type_name("FILE");
  cmd->footer(
      std::string(
          "Writes a scene that 'polynav validate' accepts and that plans to the same paths: the\n"
          "bounds, obstacles, regions, agent and queries as they are; a raster map's blocked\n"
          "cells as rectangles (with the fill polygons of --map-simplify) and its cell size; a\n"
          "mesh's free space as obstacles around it. What the native format does not keep (a\n"
          "map's cell classes, a mesh's own faces, reference lengths) is reported on stderr as\n"
          "'note: ...' and as comments at the top of the file; what it cannot represent at all\n"
          "(a mesh's walls of zero width) is an error. With --repair, the obstacles are written\n"
          "as made valid, and each change is a note.\n"
          "\n"
          "Examples:\n"
          "  polynav convert maps/depot.yaml -o depot-scene.yaml\n"
          "  polynav --map-simplify 0.05 convert maps/warehouse.yaml -o warehouse-scene.yaml\n"
          "  polynav convert buildings.geojson -o -\n"
          "  polynav --repair convert parcels.wkt -o parcels.yaml\n"
          "\n") +
      global_options_help + "\n\n" + exit_codes_help);
  cmd->callback([args, cmd] { set_exit_status(run_convert(*args, scene_options(*cmd))); });
}

}  // namespace polynav::cli
