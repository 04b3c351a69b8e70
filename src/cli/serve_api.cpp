// The JSON API of `polynav serve` (serve_api.hpp, docs/serve.md): which files may be served,
// reading requests, the builds shared by every client, and the answers, each equal to what the
// command line prints for the same request.

#include "serve_api.hpp"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <condition_variable>
#include <filesystem>
#include <functional>
#include <list>
#include <memory>
#include <mutex>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "planning.hpp"
#include "polynav/error.hpp"
#include "polynav/io/plan_picture.hpp"
#include "polynav/io/scene_picture.hpp"
#include "polynav/number.hpp"
#include "polynav/plan/json.hpp"
#include "polynav/plan/registry.hpp"
#include "polynav/text.hpp"
#include "polynav/version.hpp"
#include "serve_assets.hpp"

namespace polynav::cli {
namespace {

namespace fs = std::filesystem;
using json = nlohmann::json;
using Clock = std::chrono::steady_clock;

// Bounds on what a folder and the kept pictures may hold.
constexpr int max_dir_depth = 4;
constexpr std::size_t max_dir_files = 2000;
constexpr std::size_t max_scene_pictures = 16;

// Milliseconds since `t`, to a tenth, as the answers report them.
double elapsed_ms(Clock::time_point t) {
  return std::round(std::chrono::duration<double, std::milli>(Clock::now() - t).count() * 10) / 10;
}

// A request refused: its HTTP status and the message of its `{"error": ...}` answer.
struct RequestError {
  int status;
  std::string message;
};

[[noreturn]] void refuse(int status, std::string message) {
  throw RequestError{status, std::move(message)};
}

// --- Which files may be served ------------------------------------------------------------

// `inner` (canonical) lies inside `folder` (canonical).
bool inside(const fs::path& inner, const fs::path& folder) {
  auto f = folder.begin(), i = inner.begin();
  for (; f != folder.end(); ++f, ++i)
    if (i == inner.end() || *i != *f) return false;
  return true;
}

// The scenes a server may load: the files named on its command line, by the text given, and the
// regular files inside --dir, by their path relative to it.
class Catalogue {
 public:
  Catalogue(const std::vector<std::string>& named, const std::string& dir) {
    for (const std::string& file : named) {
      std::error_code ec;
      if (!fs::is_regular_file(file, ec))
        throw InputError({file, 0, 0, {}},
                         fs::exists(file, ec) ? "is not a regular file" : "no such file");
      named_.emplace_back(file, file);
    }
    if (!dir.empty()) {
      std::error_code ec;
      if (!fs::is_directory(dir, ec))
        throw InputError({"", 0, 0, "--dir"}, "no such folder: " + dir);
      dir_ = fs::canonical(dir);
    }
    if (named_.empty() && !dir_)
      throw InputError({"", 0, 0, "SCENE"}, "give at least one scene file or --dir FOLDER");
  }

  // The path of scene `id`, or a 404 saying why it is not served.
  fs::path resolve(const std::string& id) const {
    for (const auto& [name, path] : named_)
      if (name == id) return path;
    const std::string quoted = "scene '" + one_line(id) + "'";
    if (!dir_) refuse(404, quoted + " is not served here (GET /api/scenes lists the scenes)");
    const fs::path relative(id);
    if (id.empty() || relative.is_absolute() || relative.has_root_name())
      refuse(404, quoted + " is not a path inside the served folder");
    for (const fs::path& part : relative)
      if (part == ".." || part == ".")
        refuse(404, quoted + ": '.' and '..' are not allowed in scene paths");
    std::error_code ec;
    const fs::path real = fs::canonical(*dir_ / relative, ec);
    if (ec) refuse(404, quoted + " is not served here: no such file in the served folder");
    if (!inside(real, *dir_)) refuse(404, quoted + " leads out of the served folder (a link)");
    if (!fs::is_regular_file(real, ec)) refuse(404, quoted + " is not a regular file");
    return *dir_ / relative;
  }

  // Every scene: the named ones, then the scene files of the folder (hidden ones and links that
  // lead out left out), sorted, at most max_dir_files.
  json list() const {
    json scenes = json::array();
    for (const auto& [name, path] : named_)
      scenes.push_back({{"id", name}, {"name", valid_utf8(path.stem().string())}});
    if (!dir_) return scenes;
    std::vector<std::string> found;
    std::error_code ec;
    for (auto it = fs::recursive_directory_iterator(*dir_, ec);
         !ec && it != fs::recursive_directory_iterator() && found.size() < max_dir_files;
         it.increment(ec)) {
      const std::string leaf = it->path().filename().string();
      if (leaf.starts_with(".") || it.depth() >= max_dir_depth) {
        if (it->is_directory(ec)) it.disable_recursion_pending();
        continue;
      }
      if (!has_scene_extension(it->path())) continue;
      std::error_code bad;
      const fs::path real = fs::canonical(it->path(), bad);
      if (bad || !inside(real, *dir_) || !fs::is_regular_file(real, bad)) continue;
      const std::string id = it->path().lexically_relative(*dir_).generic_string();
      // Names that are not UTF-8 cannot travel in JSON unaltered; they are left out.
      if (valid_utf8(id) == id) found.push_back(id);
    }
    std::sort(found.begin(), found.end());
    for (const std::string& id : found)
      scenes.push_back({{"id", id}, {"name", fs::path(id).stem().string()}});
    return scenes;
  }

 private:
  std::vector<std::pair<std::string, fs::path>> named_;
  std::optional<fs::path> dir_;
};

// --- Reading requests ----------------------------------------------------------------------

// The request body as a JSON object whose keys are all in `keys`.
json parse_body(const std::string& body, const std::vector<std::string_view>& keys) {
  json j;
  try {
    j = json::parse(body);
  } catch (const json::exception& e) {
    // "[json.exception.parse_error.101] parse error at line 1, column 2: ..." without the tag
    // (also a number too large for a double: "number overflow parsing '1e999'").
    std::string what = e.what();
    if (const auto tag = what.find("] "); tag != std::string::npos) what.erase(0, tag + 2);
    refuse(400, "request body: " + what);
  }
  if (!j.is_object()) refuse(400, "request body: expected a JSON object, found " + j.dump());
  for (const auto& [key, value] : j.items()) {
    if (std::find(keys.begin(), keys.end(), key) != keys.end()) continue;
    std::string message = "request body: unknown key '" + key + "'";
    if (const std::string_view near = closest_name(key, keys); !near.empty())
      message += " (did you mean '" + std::string(near) + "'?)";
    std::string list;
    for (const std::string_view k : keys) list += (list.empty() ? "" : ", ") + std::string(k);
    refuse(400, message + "; expected: " + list);
  }
  return j;
}

std::string text_field(const json& j, const char* key, std::string fallback) {
  if (!j.contains(key)) return fallback;
  if (!j[key].is_string())
    refuse(400,
           std::string("request body: ") + key + ": expected a string, found " + j[key].dump());
  return j[key].get<std::string>();
}

double number_field(const json& j, const char* key, double fallback, double low, double high) {
  if (!j.contains(key)) return fallback;
  const json& v = j[key];
  if (!v.is_number() || !std::isfinite(v.get<double>()) || v.get<double>() < low ||
      v.get<double>() > high)
    refuse(400, std::string("request body: ") + key + ": expected a number from " +
                    shortest_text(low) + " to " + shortest_text(high) + ", found " + v.dump());
  return v.get<double>();
}

Point point_field(const json& j, const char* key) {
  if (!j.contains(key)) refuse(400, std::string("request body: ") + key + ": missing ([x, y])");
  const json& v = j[key];
  if (!v.is_array() || v.size() != 2 || !v[0].is_number() || !v[1].is_number() ||
      !std::isfinite(v[0].get<double>()) || !std::isfinite(v[1].get<double>()))
    refuse(400, std::string("request body: ") + key +
                    ": expected [x, y] with two finite numbers, found " + v.dump());
  return {v[0].get<double>(), v[1].get<double>()};
}

// What a request's planner depends on: the scene, the radius and the method's options (as the
// command line's --method, --set and --snap give them). The smoother is not part of the build:
// one planner serves every smoother (Planner::plan with a smoother's name).
struct BuildKey {
  std::string scene;
  std::optional<double> radius;
  MethodArgs method;  // its `smooth` unused: see `smoother`
  std::string smoother;

  std::string text() const {
    std::string s = scene + '\n' + (radius ? shortest_text(*radius) : "-") + '\n' + method.method +
                    '\n' + (method.snap ? "snap" : "") + '\n';
    for (const std::string& a : method.set) s += a + '\n';
    return s;
  }
};

// The keys of a request body that make its BuildKey, and `more`.
std::vector<std::string_view> build_keys_and(std::initializer_list<std::string_view> more) {
  std::vector<std::string_view> keys = {"scene", "radius", "method", "smoother", "set", "snap"};
  keys.insert(keys.end(), more);
  return keys;
}

BuildKey build_key(const json& j) {
  BuildKey key;
  key.scene = text_field(j, "scene", "");
  if (key.scene.empty()) refuse(400, "request body: scene: missing (an id from GET /api/scenes)");
  if (j.contains("radius")) key.radius = number_field(j, "radius", 0, 0, 1e15);
  key.method.method = text_field(j, "method", "grid");
  key.smoother = text_field(j, "smoother", "shortcut");
  find_smoother(key.smoother);  // refused as the command line refuses --smooth
  if (j.contains("snap")) {
    if (!j["snap"].is_boolean())
      refuse(400, "request body: snap: expected true or false, found " + j["snap"].dump());
    key.method.snap = j["snap"].get<bool>();
  }
  if (j.contains("set")) {
    if (!j["set"].is_object())
      refuse(400, "request body: set: expected an object {\"group.option\": value}, found " +
                      j["set"].dump());
    // Sorted by name (a JSON object's order means nothing), so that equal options share a build.
    for (const auto& [name, value] : j["set"].items()) {
      if (name.find('=') != std::string::npos)
        refuse(400, "request body: set: an option name has no '=', found '" + name + "'");
      if (!value.is_string() && !value.is_number() && !value.is_boolean())
        refuse(400, "request body: set." + name + ": expected a number, a string or true/false, " +
                        "found " + value.dump());
      key.method.set.push_back(name + "=" +
                               (value.is_string() ? value.get<std::string>() : value.dump()));
    }
  }
  return key;
}

// Puts `limit` on option `key`: the request's own value when it asks for no more, else a
// refusal naming the server's option. A value that is not a number is left for the option
// checks, which refuse it with their own message.
void cap(Settings& settings, const std::string& key, double limit, const char* option) {
  const auto given = settings.values().find(key);
  if (given == settings.values().end()) {
    settings.set(key, limit);
    return;
  }
  const ParsedNumber asked = parse_number(given->second);
  if ((asked.is_finite() || asked.status == NumberStatus::infinite) && asked.value > limit)
    throw InputError({"", 0, 0, key}, "at most " + shortest_text(limit) +
                                          " on this server (serve " + option + "), found " +
                                          given->second);
}

// --- Pictures ----------------------------------------------------------------------------

// A picture as docs/serve.md describes it: the svg and how world points map to its pixels.
json picture_json(const SvgCanvas& canvas) {
  const Point origin = canvas.to_pixel({canvas.world().min.x, canvas.world().max.y});
  json layers = json::array();
  for (const std::string_view id : scene_layers) layers.push_back(id);
  return {{"svg", canvas.str()},
          {"width", canvas.width()},
          {"height", canvas.height()},
          {"transform",
           {{"scale", canvas.scale()},
            {"origin", {origin.x, origin.y}},
            {"world",
             {canvas.world().min.x, canvas.world().min.y, canvas.world().max.x,
              canvas.world().max.y}}}},
          {"layers", layers}};
}

// --- Builds --------------------------------------------------------------------------------

// One discretisation, built on its own thread and then shared by every request with its key.
struct Build {
  enum class State { building, ready, failed };
  std::string scene_id;
  std::string method;
  Clock::time_point started = Clock::now();
  std::atomic<State> state{State::building};
  // Written by the building thread before `state` leaves `building`, read-only afterwards.
  ApiAnswer failure;  // what requests needing a failed build are answered
  std::optional<Scene> scene;
  std::unique_ptr<Planner> planner;
  std::string picture;  // PICTURE as JSON text, at the width asked for first
};

}  // namespace

std::string error_json(std::string_view message) {
  return json{{"error", one_line(message)}}.dump();
}

namespace {

// The answer to a request that failed with the exception in flight (call it in a catch block):
// a refusal's own status; 400 for bad input (an InputError, or options asking for more memory
// than the machine has); 500 for a defect.
ApiAnswer failure_answer() {
  try {
    throw;
  } catch (const RequestError& e) {
    return {e.status, error_json(e.message)};
  } catch (const InputError& e) {
    return {400, error_json(e.what())};
  } catch (const std::bad_alloc&) {
    return {400, error_json(out_of_memory_message)};
  } catch (const std::exception& e) {
    return {500, error_json(std::string("internal: ") + e.what())};
  } catch (...) {
    return {500, error_json("internal: unknown exception")};
  }
}

}  // namespace

class ServeApi::Impl {
 public:
  Impl(const std::vector<std::string>& scenes, const std::string& dir, const SceneOptions& options,
       const ServeLimits& limits)
      : limits_(limits), options_(options), catalogue_(scenes, dir) {
    options_.report_repairs = false;
  }

  ApiAnswer answer(std::string_view method, std::string_view path, const std::string& body) {
    if (method == "GET") {
      if (path == "/") return asset("index.html");
      if (path == "/app.js" || path == "/style.css") return asset(path.substr(1));
      if (path == "/api/scenes") return guarded([&] { return scenes(); });
      if (path == "/api/methods") return guarded([&] { return ApiAnswer{200, registry_json()}; });
      if (path == "/api/status") return guarded([&] { return ApiAnswer{200, status()}; });
    } else if (method == "POST") {
      if (path == "/api/scene") return guarded([&] { return scene(body); });
      if (path == "/api/build") return guarded([&] { return build(body); });
      if (path == "/api/plan") return guarded([&] { return plan(body); });
      if (path == "/api/reach") return guarded([&] { return reach(body); });
    }
    return {404, error_json("no such page: " + std::string(method) + " " + std::string(path))};
  }

  // Waits until no build is running.
  void wait_for_builds() {
    std::unique_lock lock(builds_mutex_);
    builds_done_.wait(lock, [&] { return running_builds_ == 0; });
  }

 private:
  static ApiAnswer asset(std::string_view name) {
    const ServeAsset a = serve_asset(name);
    return {200, std::string(a.bytes), a.content_type};
  }

  // Runs a handler: its answer, or the answer to what it threw.
  static ApiAnswer guarded(const std::function<ApiAnswer()>& handler) {
    try {
      return handler();
    } catch (...) {
      return failure_answer();
    }
  }

  ApiAnswer scenes() const { return {200, json{{"scenes", catalogue_.list()}}.dump()}; }

  ApiAnswer scene(const std::string& body) {
    const json j = parse_body(body, {"scene", "radius", "width"});
    const BuildKey key = build_key(j);
    const double width = number_field(j, "width", 1000, 100, 20000);
    const std::string cache_key = key.text() + shortest_text(width);
    {
      const std::lock_guard lock(pictures_mutex_);
      for (auto it = scene_pictures_.begin(); it != scene_pictures_.end(); ++it) {
        if (it->first != cache_key) continue;
        scene_pictures_.splice(scene_pictures_.begin(), scene_pictures_, it);
        return {200, it->second};
      }
    }
    const LoadedScene loaded(catalogue_.resolve(key.scene), scene_options(key));
    SvgCanvas canvas = make_scene_canvas(loaded.scene, loaded.space, {.width = width});
    draw_scene(canvas, loaded.scene, loaded.space);
    json queries = json::array();
    for (const Query& q : loaded.scene.queries)
      queries.push_back(
          {{"name", q.name}, {"start", {q.start.x, q.start.y}}, {"goal", {q.goal.x, q.goal.y}}});
    const std::string text = json{
        {"scene", key.scene},
        {"name", scene_display_name(loaded.scene)},
        {"format", scene_format(loaded.scene).id},
        {"queries", queries},
        {"picture",
         picture_json(canvas)}}.dump(-1, ' ', false, json::error_handler_t::replace);
    const std::lock_guard lock(pictures_mutex_);
    scene_pictures_.emplace_front(cache_key, text);
    if (scene_pictures_.size() > max_scene_pictures) scene_pictures_.pop_back();
    return {200, text};
  }

  ApiAnswer build(const std::string& body) {
    const json j = parse_body(body, build_keys_and({"width"}));
    const double width = number_field(j, "width", 1000, 100, 20000);
    const auto b = find_or_start(build_key(j), width);
    if (const auto waiting = not_ready(*b)) return *waiting;
    return {200, "{\"state\":\"ready\",\"method\":" + json(b->method).dump() + ",\"summary\":" +
                     json(b->planner->discretisation().summary())
                         .dump(-1, ' ', false, json::error_handler_t::replace) +
                     ",\"build_ms\":" + shortest_text(b->planner->build_ms()) +
                     ",\"nodes\":" + std::to_string(b->planner->discretisation().node_count()) +
                     ",\"picture\":" + b->picture + "}"};
  }

  ApiAnswer plan(const std::string& body) {
    const json j = parse_body(body, build_keys_and({"start", "goal", "expanded"}));
    const Point start = point_field(j, "start"), goal = point_field(j, "goal");
    bool expanded = false;
    if (j.contains("expanded")) {
      if (!j["expanded"].is_boolean())
        refuse(400,
               "request body: expanded: expected true or false, found " + j["expanded"].dump());
      expanded = j["expanded"].get<bool>();
    }
    const BuildKey key = build_key(j);
    const auto b = find_or_start(key, 1000);
    if (const auto waiting = not_ready(*b)) return *waiting;
    const PlanResult r = b->planner->plan(start, goal, key.smoother);
    std::string text = "{\"plan\":" + plan_result_json(r);
    if (expanded) {
      text += ",\"expanded\":[";
      for (std::size_t i = 0; i < r.expanded.size(); ++i)
        text += (i ? ",[" : "[") + shortest_text(r.expanded[i].x) + "," +
                shortest_text(r.expanded[i].y) + "]";
      text += "]";
    }
    return {200, text + "}"};
  }

  ApiAnswer reach(const std::string& body) {
    const json j = parse_body(body, build_keys_and({"from", "cost"}));
    const Point from = point_field(j, "from");
    if (!j.contains("cost")) refuse(400, "request body: cost: missing (a number >= 0)");
    const double cost = number_field(j, "cost", 0, 0, 1e300);
    const auto b = find_or_start(build_key(j), 1000);
    if (const auto waiting = not_ready(*b)) return *waiting;
    const Reach r = b->planner->reach(from, cost);
    // As `polynav reach`: a start outside free space is an error, not an answer.
    if (r.status == search::SearchStatus::invalid_query) refuse(400, r.message);
    return {200, "{\"reach\":" + reach_json(r, b->method, from, cost) + "}"};
  }

  // 202 while `b` builds, its error while it failed, nothing once it is ready.
  static std::optional<ApiAnswer> not_ready(const Build& b) {
    switch (b.state.load(std::memory_order_acquire)) {
      case Build::State::building:
        return ApiAnswer{202, "{\"state\":\"building\",\"elapsed_ms\":" +
                                  shortest_text(elapsed_ms(b.started)) + "}"};
      case Build::State::failed:
        return b.failure;
      case Build::State::ready:
        break;
    }
    return std::nullopt;
  }

  SceneOptions scene_options(const BuildKey& key) const {
    SceneOptions o = options_;
    if (key.radius) o.radius = key.radius;
    return o;
  }

  // The build of `key`: the one kept, or a new one started on its own thread (a scene that is not
  // served refused first). The least recently used finished builds are dropped beyond
  // --max-planners (requests using one keep it alive).
  std::shared_ptr<Build> find_or_start(const BuildKey& key, double width) {
    const std::string text = key.text();
    const std::lock_guard lock(builds_mutex_);
    for (auto it = builds_.begin(); it != builds_.end(); ++it) {
      if (it->first != text) continue;
      builds_.splice(builds_.begin(), builds_, it);  // most recently used first
      return builds_.front().second;
    }
    // Only a new build looks at the file: a kept one was resolved when it started.
    const fs::path path = catalogue_.resolve(key.scene);
    if (running_builds_ >= limits_.max_builds)
      refuse(429, std::to_string(running_builds_) +
                      " builds are running (--max-builds); ask again when one is done");
    auto b = std::make_shared<Build>();
    b->scene_id = key.scene;
    b->method = key.method.method;
    builds_.emplace_front(text, b);
    for (auto it = builds_.end(); builds_.size() > limits_.max_planners && it != builds_.begin();) {
      --it;
      if (it->second->state.load() != Build::State::building) it = builds_.erase(it);
    }
    ++running_builds_;
    std::thread([this, b, key, path, width] {
      run_build(*b, key, path, width);
      const std::lock_guard done(builds_mutex_);
      --running_builds_;
      builds_done_.notify_all();
    }).detach();
    return b;
  }

  void run_build(Build& b, const BuildKey& key, const fs::path& path, double width) {
    try {
      const SceneOptions options = scene_options(key);
      b.scene.emplace(load_scene_with_options(path, options));
      PlanOptions plan = plan_options(key.method, options);
      // Every smoother, so that switching smoothers plans at once instead of building anew.
      plan.smoother = "none";
      for (const std::string& name : smoother_names())
        if (name != plan.smoother) plan.also_smooth.push_back(name);
      // Every search and every build under the server's limits; a request may ask for less.
      cap(plan.settings, "search.time_limit_ms", limits_.time_limit_ms, "--time-limit");
      cap(plan.settings, "space.max_build_seconds", limits_.build_limit_s, "--build-limit");
      plan.record_expanded = true;
      b.planner = std::make_unique<Planner>(*b.scene, plan);
      b.picture =
          picture_json(plan_picture(*b.scene, b.planner->free_space(),
                                    b.planner->discretisation().primitives(), {}, {.width = width}))
              .dump(-1, ' ', false, json::error_handler_t::replace);
      b.state.store(Build::State::ready, std::memory_order_release);
    } catch (...) {
      b.failure = failure_answer();
      b.state.store(Build::State::failed, std::memory_order_release);
    }
  }

  std::string status() {
    json planners = json::array();
    {
      const std::lock_guard lock(builds_mutex_);
      for (const auto& [text, b] : builds_) {
        static constexpr const char* states[] = {"building", "ready", "failed"};
        planners.push_back({{"scene", b->scene_id},
                            {"method", b->method},
                            {"state", states[static_cast<int>(b->state.load())]},
                            {"elapsed_ms", elapsed_ms(b->started)}});
      }
    }
    return json{
        {"version", version()}, {"planners", planners}, {"time_limit_ms", limits_.time_limit_ms}}
        .dump(-1, ' ', false, json::error_handler_t::replace);
  }

  const ServeLimits limits_;
  SceneOptions options_;
  const Catalogue catalogue_;
  std::mutex builds_mutex_;
  std::condition_variable builds_done_;
  std::list<std::pair<std::string, std::shared_ptr<Build>>> builds_;  // most recently used first
  unsigned running_builds_ = 0;
  std::mutex pictures_mutex_;
  std::list<std::pair<std::string, std::string>> scene_pictures_;  // most recently used first
};

ServeApi::ServeApi(const std::vector<std::string>& scenes, const std::string& dir,
                   const SceneOptions& options, const ServeLimits& limits)
    : impl_(std::make_unique<Impl>(scenes, dir, options, limits)) {}

ServeApi::~ServeApi() {
  impl_->wait_for_builds();
}

ApiAnswer ServeApi::answer(std::string_view method, std::string_view path,
                           const std::string& body) {
  return impl_->answer(method, path, body);
}

}  // namespace polynav::cli
