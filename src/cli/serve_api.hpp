#pragma once
// The JSON API of `polynav serve` (docs/serve.md), apart from HTTP: a request's method, path and
// body in, a status and a body out. serve.cpp puts it behind cpp-httplib; the tests and the
// fuzz target call it directly.

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "common.hpp"

namespace polynav::cli {

// What one server may be asked for.
struct ServeLimits {
  double time_limit_ms = 10000;  // the longest search; a request may ask for less
  double build_limit_s = 60;     // the longest build (space.max_build_seconds); the same
  unsigned max_planners = 8;     // discretisations kept, the least recently used dropped
  unsigned max_builds = 2;       // discretisations built at once; more are answered 429
};

// Request bodies larger than this are refused (413) before they are read.
inline constexpr std::size_t max_request_bytes = 1 << 20;

// The type of every JSON answer. With the charset named, cpp-httplib leaves it uncompressed: it
// compresses exactly "application/json", with brotli at its slowest when the browser accepts it
// (every browser does), which makes a 1 MB answer take 1.9 s instead of 36 ms.
inline constexpr std::string_view json_type = "application/json; charset=utf-8";

struct ApiAnswer {
  int status = 200;
  std::string body;
  std::string_view content_type = json_type;
};

// `{"error": "<message>"}`, the body of every refusal; the message made one line.
std::string error_json(std::string_view message);

class ServeApi {
 public:
  // Offers the scene files named (by the text given) and the scene files inside `dir` (by their
  // path inside it; "" for none), loaded with `options`. @throws InputError for a named file that
  // is not a regular file, a folder that does not exist, or neither given.
  ServeApi(const std::vector<std::string>& scenes, const std::string& dir,
           const SceneOptions& options, const ServeLimits& limits);
  // Waits for the builds under way (they cannot be interrupted; their budgets bound them).
  ~ServeApi();
  ServeApi(const ServeApi&) = delete;
  ServeApi& operator=(const ServeApi&) = delete;

  // The answer to one request ("GET", "/api/scenes", ""). Never throws: a bad request is a 4xx
  // with {"error": ...}, a defect a 500. A build runs on a thread of its own; until it is done,
  // requests that need it are answered 202. Safe to call from several threads at once.
  ApiAnswer answer(std::string_view method, std::string_view path, const std::string& body);

 private:
  class Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace polynav::cli
