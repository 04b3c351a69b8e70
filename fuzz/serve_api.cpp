// The JSON API of `polynav serve` (src/cli/serve_api.hpp), as a browser or a script reaches it:
// the input's first byte picks the request (one of the API's endpoints, or a method and a path
// from the input's first line), the rest is the body. Every answer must be JSON with a status the
// API documents (200, 202, 400, 404, 429); a refusal carries a one-line message. A 500 (a defect
// the API caught), a crash or a sanitizer report fails. The server offers the bundled scenes
// (scenes/, as --dir), with builds prepared for the seeds so that plans and reaches are reached.

#include <cstddef>
#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>

#include "fuzz_target.hpp"
#include "serve_api.hpp"

namespace {

using namespace polynav;

cli::ServeApi& api() {
  static cli::ServeApi* served = [] {
    auto* a = new cli::ServeApi(
        {}, POLYNAV_SOURCE_DIR "/scenes", {},
        {.time_limit_ms = 200, .build_limit_s = 5, .max_planners = 6, .max_builds = 1});
    // The builds the seeds use, done before the first input.
    for (const char* key : {R"({"scene": "warehouse.yaml"})",
                            R"({"scene": "maze.yaml", "method": "navmesh", "smoother": "funnel"})"})
      while (a->answer("POST", "/api/build", key).status == 202) {
      }
    return a;
  }();
  return *served;
}

struct Endpoint {
  const char* method;
  const char* path;
};
constexpr Endpoint endpoints[] = {
    {"GET", "/api/scenes"}, {"GET", "/api/methods"}, {"GET", "/api/status"}, {"POST", "/api/scene"},
    {"POST", "/api/build"}, {"POST", "/api/plan"},   {"POST", "/api/reach"}};

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0) return 0;
  std::string_view text = fuzz::as_text(data + 1, size - 1);
  const std::size_t pick = data[0] % (std::size(endpoints) + 1);
  std::string method, path;
  if (pick < std::size(endpoints)) {
    method = endpoints[pick].method;
    path = endpoints[pick].path;
  } else {
    // "METHOD PATH\nbody": routing itself.
    const std::size_t line = std::min(text.find('\n'), text.size());
    const std::string_view first = text.substr(0, line);
    const std::size_t space = std::min(first.find(' '), first.size());
    method = first.substr(0, space);
    path = first.substr(std::min(space + 1, first.size()));
    text.remove_prefix(std::min(line + 1, text.size()));
  }
  const cli::ApiAnswer answer = api().answer(method, path, std::string(text));
  fuzz::check(answer.status == 200 || answer.status == 202 || answer.status == 400 ||
              answer.status == 404 || answer.status == 429);
  if (answer.content_type != cli::json_type) return 0;  // the page's own files
  const nlohmann::json j = nlohmann::json::parse(answer.body, nullptr, false);
  fuzz::check(!j.is_discarded() && j.is_object());
  if (answer.status >= 400) {
    fuzz::check(j.contains("error") && j["error"].is_string());
    const std::string message = j["error"].get<std::string>();
    fuzz::check(!message.empty() && message.find('\n') == std::string::npos);
  }
  return 0;
}
