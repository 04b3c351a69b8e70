// `polynav serve SCENE... [--dir FOLDER]`: a small HTTP server for planning by clicking in the
// browser. The JSON API and the page are serve_api.hpp's (docs/serve.md); the HTTP server is the
// module polynav_http.so (http_module.hpp), loaded here only when serving, so that no other
// command pays for cpp-httplib and the libraries it links.

#include <dlfcn.h>
#include <unistd.h>

#include <CLI/CLI.hpp>
#include <filesystem>
#include <iostream>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "commands.hpp"
#include "common.hpp"
#include "http_module.hpp"
#include "polynav/error.hpp"
#include "polynav/text.hpp"
#include "serve_api.hpp"

namespace polynav::cli {
namespace {

namespace fs = std::filesystem;

struct ServeArgs {
  std::vector<std::string> scenes;
  std::string dir;
  std::string host = "127.0.0.1";
  unsigned port = 8080;
  double time_limit_ms = 10000;
  double build_limit_s = 60;
  unsigned max_planners = 8;
  unsigned max_builds = 2;
  unsigned rate = 50;
  unsigned threads = 16;
  bool quiet = false;
};

// The module's file name, and where it is looked for: beside the tool (the build tree, the Python
// package's _bin/), then in the library folder of an installed tree.
constexpr const char* module_name = "polynav_http.so";

// polynav_http_serve from the module. @throws std::runtime_error when it cannot be loaded (an
// incomplete installation, not bad input: exit 3)
HttpServeFunction* load_http_module() {
  std::error_code ec;
  const fs::path tool = fs::read_symlink("/proc/self/exe", ec);
  const fs::path folder = ec ? fs::path(".") : tool.parent_path();
  std::string tried;
  for (const fs::path& candidate :
       {folder / module_name, folder / POLYNAV_HTTP_MODULE_INSTALL_DIR / module_name}) {
    if (!fs::exists(candidate, ec)) {
      tried += (tried.empty() ? "" : ", ") + candidate.lexically_normal().string();
      continue;
    }
    // Kept loaded until the process ends: nothing unloads it.
    void* module = dlopen(candidate.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (module == nullptr)
      throw std::runtime_error("cannot load " + candidate.string() + ": " + dlerror());
    void* entry = dlsym(module, http_serve_symbol);
    if (entry == nullptr)
      throw std::runtime_error(candidate.string() + " has no " + http_serve_symbol);
    return reinterpret_cast<HttpServeFunction*>(entry);
  }
  throw std::runtime_error(std::string("the HTTP server module ") + module_name +
                           " is missing (looked for " + tried + "): reinstall polynav");
}

int run_serve(const ServeArgs& args, const SceneOptions& options) {
  ServeApi api(args.scenes, args.dir, options,
               {.time_limit_ms = args.time_limit_ms,
                .build_limit_s = args.build_limit_s,
                .max_planners = args.max_planners,
                .max_builds = args.max_builds});
  HttpServeFunction* serve = load_http_module();
  HttpCallbacks callbacks;
  callbacks.answer = [&api](std::string_view method, std::string_view path,
                            const std::string& body) {
    ApiAnswer a = api.answer(method, path, body);
    return HttpAnswer{a.status, std::move(a.body), std::string(a.content_type)};
  };
  callbacks.refusal = [](int status, std::string_view message) {
    return HttpAnswer{status, error_json(message), std::string(json_type)};
  };
  if (!args.quiet) {
    callbacks.log = [](std::string_view method, std::string_view path, int status) {
      // One write per line, so that the lines of requests answered at once do not interleave.
      std::cerr << (std::string(method) + " " + one_line(path) + " " + std::to_string(status) +
                    "\n");
    };
  }
  const std::string host =
      args.host.find(':') != std::string::npos ? "[" + args.host + "]" : args.host;
  callbacks.listening = [&host](int port) {
    std::cout << "polynav serve: http://" << host << ":" << port << "/ (Ctrl-C stops)" << std::endl;
  };
  const HttpServeStatus status = serve({.host = args.host,
                                        .port = args.port,
                                        .threads = args.threads,
                                        .rate = double(args.rate),
                                        .max_body = max_request_bytes,
                                        .rate_option = "serve --rate"},
                                       callbacks);
  if (status == HttpServeStatus::cannot_listen)
    throw InputError({"", 0, 0, "--port"}, "cannot listen on " + args.host + ":" +
                                               std::to_string(args.port) +
                                               " (in use, or not an address of this machine)");
  std::cerr << "polynav serve: stopped\n";
  return status == HttpServeStatus::stopped ? exit_ok : exit_internal;
}

}  // namespace

void add_serve_command(CLI::App& app) {
  auto args = std::make_shared<ServeArgs>();
  CLI::App* cmd = app.add_subcommand("serve", "Plan by clicking, in the browser");
  cmd->add_option("SCENE", args->scenes, "Scene files to offer")->type_name("");
  cmd->add_option("--dir", args->dir,
                  "Also offer every scene file inside this folder (links that lead out and\n"
                  "hidden files are left out)")
      ->type_name("FOLDER");
  cmd->add_option("--host", args->host,
                  "Address to listen on (default 127.0.0.1: this machine only; 0.0.0.0 opens it\n"
                  "to the network)")
      ->type_name("ADDRESS");
  add_whole_option(*cmd, "--port", args->port, 0u, 65535u, "the port",
                   "Port to listen on (default 8080; 0: any free port, printed)")
      ->type_name("N");
  add_number_option(*cmd, "--time-limit", args->time_limit_ms,
                    "Longest search a request may run, in ms (default 10000); a request's\n"
                    "search.time_limit_ms may ask for less")
      ->type_name("MS")
      ->check(number_in_range(1, 3.6e6));
  add_number_option(*cmd, "--build-limit", args->build_limit_s,
                    "Longest build of a discretisation a request may cause, in s (default 60);\n"
                    "a request's space.max_build_seconds may ask for less")
      ->type_name("S")
      ->check(number_in_range(0.001, 86400));
  add_whole_option(*cmd, "--max-planners", args->max_planners, 1u, 1000u, "--max-planners",
                   "Discretisations kept for reuse, least recently used dropped (default 8)")
      ->type_name("N");
  add_whole_option(*cmd, "--max-builds", args->max_builds, 1u, 64u, "--max-builds",
                   "Discretisations built at once; more are answered 429 (default 2)")
      ->type_name("N");
  add_whole_option(*cmd, "--rate", args->rate, 1u, 100000u, "--rate",
                   "Requests per second each client may send, bursts of twice that (default 50)")
      ->type_name("N");
  add_whole_option(*cmd, "--threads", args->threads, 1u, 256u, "--threads",
                   "Threads answering requests (default 16)")
      ->type_name("N");
  cmd->add_flag("--quiet", args->quiet, "Do not log each request on standard error");
  cmd->footer(
      std::string(
          "Open the printed address in a browser: pick a scene, click a start and a goal (drag\n"
          "them and the path follows), choose the method, smoother and options, toggle layers,\n"
          "and compare two methods side by side. Each discretisation is built once and shared by\n"
          "every client. The page talks to a JSON API whose answers equal the command line's\n"
          "(docs/serve.md). Ctrl-C stops the server.\n"
          "\n"
          "Examples:\n"
          "  polynav serve scenes/warehouse.yaml scenes/maze.yaml\n"
          "  polynav serve --dir scenes --port 9000\n"
          "  polynav --radius 0.3 serve scenes/ros/warehouse.yaml\n"
          "\n") +
      global_options_help + "\n\n" + exit_codes_help);
  cmd->callback([args, cmd] { set_exit_status(run_serve(*args, scene_options(*cmd))); });
}

}  // namespace polynav::cli
