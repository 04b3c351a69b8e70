// `polynav reach SCENE --from X,Y --cost C`: everything reachable from a point within a cost, as
// a list of nodes with their costs and as a picture shading the reached part of the
// discretisation.

#include <CLI/CLI.hpp>
#include <iostream>
#include <memory>

#include "commands.hpp"
#include "common.hpp"
#include "planning.hpp"
#include "polynav/error.hpp"
#include "polynav/io/plan_picture.hpp"
#include "polynav/io/scene_picture.hpp"
#include "polynav/plan/json.hpp"

namespace polynav::cli {
namespace {

struct ReachArgs {
  std::string scene;
  MethodArgs method;
  std::string from;
  double cost = 0.0;
  bool json = false;
  std::string svg;
  int width = 1000;
};

int run_reach(const ReachArgs& args, const SceneOptions& options) {
  check_output_path(args.svg, "--svg");
  const Scene scene = load_scene_with_options(args.scene, options);
  const Point from = parse_point(args.from, "--from");
  const PlanOptions plan = plan_options(args.method, options);
  Planner planner(scene, plan);
  const Reach reach = planner.reach(from, args.cost);
  if (reach.status == search::SearchStatus::invalid_query) {
    print_error(reach.message);
    return exit_bad_input;
  }
  if (args.json) {
    std::cout << reach_json(reach, planner.discretisation().method(), from, args.cost) << "\n";
  } else {
    std::cout << "reach " << format_point(from) << " within cost " << format_number(args.cost)
              << " (" << planner.discretisation().method()
              << "): " << search::to_string(reach.status) << ", " << reach.places.size() << " of "
              << planner.discretisation().node_count() << " nodes\n";
    if (!reach.message.empty()) std::cout << "  " << reach.message << "\n";
    for (const ReachedPlace& p : reach.places)
      std::cout << "  node " << p.node << " " << format_point(p.at) << " cost "
                << format_number(p.cost) << "\n";
  }
  if (!args.svg.empty()) {
    SvgCanvas canvas =
        make_scene_canvas(scene, planner.free_space(), {.width = double(args.width)});
    draw_scene(canvas, scene, planner.free_space());
    draw_discretisation(canvas, planner.discretisation().primitives());
    canvas.group("expanded");
    std::vector<Ring> regions;
    std::vector<double> shade, point_shade;
    std::vector<Point> points;
    for (const ReachedPlace& p : reach.places) {
      const double s = args.cost > 0 ? p.cost / args.cost : 0.0;
      if (Ring r = planner.discretisation().node_region(p.node); !r.empty()) {
        regions.push_back(std::move(r));
        shade.push_back(s);
      } else {
        points.push_back(p.at);
        point_shade.push_back(s);
      }
    }
    draw_shaded(canvas, regions, shade, points, point_shade);
    canvas.save(args.svg);
    if (!args.json) std::cout << "wrote " << args.svg << "\n";
  }
  return reach.places.empty() ? exit_no_path : exit_ok;
}

}  // namespace

void add_reach_command(CLI::App& app) {
  auto args = std::make_shared<ReachArgs>();
  CLI::App* cmd = app.add_subcommand("reach", "Everything reachable from a point within a cost");
  cmd->add_option("SCENE", args->scene, "Scene file")->required()->type_name("");
  add_method_options(*cmd, args->method, "none");
  cmd->remove_option(cmd->get_option("--smooth"));  // reach follows no path: nothing to smooth
  cmd->add_option("--from", args->from, "The point to start from")->required()->type_name("X,Y");
  add_number_option(*cmd, "--cost", args->cost,
                    "The cost bound (path cost: length times multipliers)")
      ->required()
      ->check(non_negative_finite)
      ->type_name("C");
  cmd->add_flag("--json", args->json, "One JSON object: status, nodes with position and cost");
  cmd->add_option("--svg", args->svg, "Draw the reached nodes, shaded by cost")->type_name("FILE");
  cmd->add_option("--width", args->width, "Picture width in pixels")->check(CLI::Range(100, 20000));
  cmd->footer(std::string("Lists every node of the discretisation whose cheapest path from the "
                          "point costs at most C, cheapest first.\n\nExamples:\n"
                          "  polynav reach scenes/warehouse.yaml --from 2,1.5 --cost 10 --svg "
                          "reach.svg\n"
                          "  polynav reach scenes/terrain.yaml --from 1,1 --cost 20 --method "
                          "visgraph --json\n\n"
                          "Exit status 0 when some node is within reach, 1 when none is.\n\n") +
              options_help() + "\n" + global_options_help + "\n\n" + exit_codes_help);
  cmd->callback([args, cmd] { set_exit_status(run_reach(*args, scene_options(*cmd))); });
}

}  // namespace polynav::cli
