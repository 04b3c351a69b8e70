// `polynav serve SCENE... [--dir FOLDER]`: a small HTTP server for planning by clicking in the
// browser. It puts the JSON API of serve_api.hpp (docs/serve.md) and the page it serves behind
// cpp-httplib, the only file that includes it.
//
// Safe by default: it binds to 127.0.0.1, bounds request bodies and request rates per client,
// and stops cleanly on Ctrl-C; what it serves, and how, is the API's business (serve_api.cpp).

#include <httplib.h>
#include <pthread.h>
#include <signal.h>
#include <unistd.h>

#include <CLI/CLI.hpp>
#include <algorithm>
#include <chrono>
#include <csignal>
#include <iostream>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "commands.hpp"
#include "common.hpp"
#include "polynav/error.hpp"
#include "polynav/text.hpp"
#include "serve_api.hpp"

namespace polynav::cli {
namespace {

using Clock = std::chrono::steady_clock;

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

// Requests per second per client address: a token bucket per address holding up to twice the
// rate, refilled at the rate.
class RateLimit {
 public:
  explicit RateLimit(double rate) : rate_(rate) {}

  bool allow(const std::string& client) {
    const std::lock_guard lock(mutex_);
    if (buckets_.size() > 10000) buckets_.clear();  // many clients: start over, never grow
    const Clock::time_point now = Clock::now();
    auto [it, fresh] = buckets_.try_emplace(client, Bucket{2.0 * rate_, now});
    Bucket& b = it->second;
    if (!fresh) {
      const double seconds = std::chrono::duration<double>(now - b.at).count();
      b.tokens = std::min(2.0 * rate_, b.tokens + rate_ * seconds);
      b.at = now;
    }
    if (b.tokens < 1.0) return false;
    b.tokens -= 1.0;
    return true;
  }

 private:
  struct Bucket {
    double tokens;
    Clock::time_point at;
  };
  const double rate_;
  std::mutex mutex_;
  std::map<std::string, Bucket> buckets_;
};

void send(httplib::Response& res, ApiAnswer answer) {
  res.status = answer.status;
  res.set_content(std::move(answer.body), std::string(answer.content_type).c_str());
}

int run_serve(const ServeArgs& args, const SceneOptions& options) {
  ServeApi api(args.scenes, args.dir, options,
               {.time_limit_ms = args.time_limit_ms,
                .build_limit_s = args.build_limit_s,
                .max_planners = args.max_planners,
                .max_builds = args.max_builds});
  RateLimit rate(args.rate);
  httplib::Server http;
  const unsigned threads = args.threads;
  http.new_task_queue = [threads] { return new httplib::ThreadPool(threads); };
  http.set_payload_max_length(max_request_bytes);
  http.set_read_timeout(10);
  http.set_write_timeout(10);
  http.set_keep_alive_timeout(2);
  // An answer goes out as soon as it is written: with Nagle's algorithm its last packet waits
  // for the client's delayed acknowledgement, 40 ms a request on Linux.
  http.set_tcp_nodelay(true);
  // SO_REUSEADDR only: cpp-httplib's default adds SO_REUSEPORT, with which a second server on
  // the same port would start and share the first one's connections instead of failing.
  http.set_socket_options([](socket_t sock) {
    const int yes = 1;
    setsockopt(sock, SOL_SOCKET, SO_REUSEADDR, &yes, sizeof(yes));
  });
  http.set_pre_routing_handler([&rate](const httplib::Request& req, httplib::Response& res) {
    if (!req.path.starts_with("/api/") || rate.allow(req.remote_addr))
      return httplib::Server::HandlerResponse::Unhandled;
    send(res, {429, error_json("too many requests from " + req.remote_addr +
                               " (serve --rate); slow down")});
    return httplib::Server::HandlerResponse::Handled;
  });
  // What the server itself refuses (an unknown path, a body too large) also gets {"error": ...}.
  http.set_error_handler([](const httplib::Request& req, httplib::Response& res) {
    if (!res.body.empty()) return;
    std::string message = "HTTP " + std::to_string(res.status);
    if (res.status == 404) message = "no such page: " + req.path;
    if (res.status == 413)
      message = "request body larger than " + std::to_string(max_request_bytes) + " bytes";
    send(res, {res.status, error_json(message)});
  });
  if (!args.quiet) {
    http.set_logger([](const httplib::Request& req, const httplib::Response& res) {
      // One write per line, so that the lines of requests answered at once do not interleave.
      std::cerr << (req.method + " " + one_line(req.path) + " " + std::to_string(res.status) +
                    "\n");
    });
  }
  // Every path goes to the API, which routes it (and answers 404 for what it does not know).
  const auto handler = [&api](const httplib::Request& req, httplib::Response& res) {
    send(res, api.answer(req.method, req.path, req.body));
  };
  http.Get(".*", handler);
  http.Post(".*", handler);

  const int port = args.port == 0
                       ? http.bind_to_any_port(args.host)
                       : (http.bind_to_port(args.host, int(args.port)) ? int(args.port) : -1);
  if (port < 0)
    throw InputError({"", 0, 0, "--port"}, "cannot listen on " + args.host + ":" +
                                               std::to_string(args.port) +
                                               " (in use, or not an address of this machine)");

  // Ctrl-C and SIGTERM stop the server from a thread of their own (stop() is not safe in a
  // signal handler): blocked here, before any other thread exists, so only sigwait sees them.
  sigset_t stop_signals;
  sigemptyset(&stop_signals);
  sigaddset(&stop_signals, SIGINT);
  sigaddset(&stop_signals, SIGTERM);
  pthread_sigmask(SIG_BLOCK, &stop_signals, nullptr);
  std::thread stopper([&] {
    int signal = 0;
    sigwait(&stop_signals, &signal);
    http.stop();
  });

  const std::string host =
      args.host.find(':') != std::string::npos ? "[" + args.host + "]" : args.host;
  std::cout << "polynav serve: http://" << host << ":" << port << "/ (Ctrl-C stops)" << std::endl;
  const bool listened = http.listen_after_bind();
  // Wake the stopper when the server ended on its own.
  if (!listened) kill(getpid(), SIGTERM);
  stopper.join();
  std::cerr << "polynav serve: stopped\n";
  return listened ? exit_ok : exit_internal;
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
