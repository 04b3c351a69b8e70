// polynav_http.so: `polynav serve`'s HTTP server over cpp-httplib (http_module.hpp). Requests per
// second are bounded per client, request bodies by size; Ctrl-C and SIGTERM stop it cleanly. What
// is served, and how, is the tool's business (serve_api.cpp), reached through the callbacks.

#include <httplib.h>
#include <pthread.h>
#include <signal.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <map>
#include <mutex>
#include <string>
#include <thread>

#include "http_module.hpp"

namespace polynav::cli {
namespace {

using Clock = std::chrono::steady_clock;

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

void send(httplib::Response& res, HttpAnswer answer) {
  res.status = answer.status;
  res.set_content(std::move(answer.body), answer.content_type.c_str());
}

HttpServeStatus serve(const HttpServerOptions& options, const HttpCallbacks& callbacks) {
  RateLimit rate(options.rate);
  httplib::Server http;
  const unsigned threads = options.threads;
  http.new_task_queue = [threads] { return new httplib::ThreadPool(threads); };
  http.set_payload_max_length(options.max_body);
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
  http.set_pre_routing_handler([&](const httplib::Request& req, httplib::Response& res) {
    if (!req.path.starts_with("/api/") || rate.allow(req.remote_addr))
      return httplib::Server::HandlerResponse::Unhandled;
    send(res, callbacks.refusal(429, "too many requests from " + req.remote_addr + " (" +
                                         options.rate_option + "); slow down"));
    return httplib::Server::HandlerResponse::Handled;
  });
  // What the server itself refuses (a body too large) gets the same kind of answer.
  http.set_error_handler([&](const httplib::Request& req, httplib::Response& res) {
    if (!res.body.empty()) return;
    std::string message = "HTTP " + std::to_string(res.status);
    if (res.status == 404) message = "no such page: " + req.path;
    if (res.status == 413)
      message = "request body larger than " + std::to_string(options.max_body) + " bytes";
    send(res, callbacks.refusal(res.status, message));
  });
  if (callbacks.log) {
    http.set_logger([&](const httplib::Request& req, const httplib::Response& res) {
      callbacks.log(req.method, req.path, res.status);
    });
  }
  // Every path goes to the tool, which routes it (and answers 404 for what it does not know).
  const auto handler = [&](const httplib::Request& req, httplib::Response& res) {
    send(res, callbacks.answer(req.method, req.path, req.body));
  };
  http.Get(".*", handler);
  http.Post(".*", handler);

  const int port =
      options.port == 0
          ? http.bind_to_any_port(options.host)
          : (http.bind_to_port(options.host, int(options.port)) ? int(options.port) : -1);
  if (port < 0) return HttpServeStatus::cannot_listen;

  // Ctrl-C and SIGTERM stop the server from a thread of their own (stop() is not safe in a
  // signal handler): blocked here, before the server starts its threads, so only sigwait sees
  // them.
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
  callbacks.listening(port);
  const bool listened = http.listen_after_bind();
  // Wake the stopper when the server ended on its own.
  if (!listened) kill(getpid(), SIGTERM);
  stopper.join();
  // A second Ctrl-C, while the tool waits for builds under way, ends the process at once.
  pthread_sigmask(SIG_UNBLOCK, &stop_signals, nullptr);
  return listened ? HttpServeStatus::stopped : HttpServeStatus::failed;
}

}  // namespace
}  // namespace polynav::cli

extern "C" polynav::cli::HttpServeStatus polynav_http_serve(
    const polynav::cli::HttpServerOptions& options, const polynav::cli::HttpCallbacks& callbacks) {
  return polynav::cli::serve(options, callbacks);
}
