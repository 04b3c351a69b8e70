#pragma once
// The HTTP side of `polynav serve`, built as a module of its own (polynav_http.so, the only code
// that links cpp-httplib and, through it, OpenSSL, zlib and brotli). The tool loads it only
// when it serves: linked into the tool, those libraries cost every command 4.4 MB of memory and
// their loading time. The module knows nothing of polynav; the tool hands it callbacks.
//
// Both sides are built together, by the same compiler, so the interface may use C++ types.

#include <cstddef>
#include <functional>
#include <string>
#include <string_view>

namespace polynav::cli {

struct HttpAnswer {
  int status = 200;
  std::string body;
  std::string content_type;
};

struct HttpServerOptions {
  std::string host;
  unsigned port = 0;         // 0: any free port
  unsigned threads = 16;     // threads answering requests
  double rate = 50;          // requests per second per client address on /api/ paths
  std::size_t max_body = 0;  // larger request bodies are answered 413
  std::string rate_option;   // the option that sets `rate`, named in 429 answers
};

struct HttpCallbacks {
  // The answer to a request; never throws.
  std::function<HttpAnswer(std::string_view method, std::string_view path, const std::string& body)>
      answer;
  // The answer the server itself gives to what it refuses (a rate exceeded, a body too large,
  // no handler): a status and a message.
  std::function<HttpAnswer(int status, std::string_view message)> refusal;
  // Told of every request answered (empty: nothing is logged).
  std::function<void(std::string_view method, std::string_view path, int status)> log;
  // Told the port listened on, once, before the first request can arrive.
  std::function<void(int port)> listening;
};

// The outcome of polynav_http_serve.
enum class HttpServeStatus { stopped, cannot_listen, failed };

// Binds, calls `listening`, answers requests until SIGINT or SIGTERM, and returns `stopped`; or
// `cannot_listen` when the address or port cannot be bound, `failed` when the server ended on
// its own. Blocks SIGINT and SIGTERM in the calling thread (and so in every thread it starts).
using HttpServeFunction = HttpServeStatus(const HttpServerOptions&, const HttpCallbacks&);

// The module's entry point, found by name with dlsym.
inline constexpr const char* http_serve_symbol = "polynav_http_serve";

}  // namespace polynav::cli
