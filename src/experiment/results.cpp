#include "polynav/experiment/results.hpp"

#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <ctime>
#include <fstream>
#include <iomanip>
#include <map>
#include <numeric>
#include <ostream>
#include <sstream>
#include <system_error>
#include <tuple>

#include "polynav/error.hpp"
#include "polynav/number.hpp"
#include "polynav/plan/options.hpp"
#include "polynav/plan/registry.hpp"
#include "polynav/scene/scene.hpp"
#include "polynav/text.hpp"
#include "polynav/version.hpp"
#include "statistics.hpp"

namespace polynav::experiment {
namespace {

std::string number(double v) {
  if (std::isnan(v)) return "";
  if (std::isinf(v)) return v > 0 ? "inf" : "-inf";
  char buffer[32];
  const auto [end, ec] = std::to_chars(buffer, buffer + sizeof buffer, v);
  return ec == std::errc() ? std::string(buffer, end) : std::string("nan");
}

// A CSV field: valid UTF-8 (a scene named after a file may not be: polynav/text.hpp), quoted
// when it holds a separator, a quote or a line break.
std::string quoted(const std::string& raw) {
  const std::string field = valid_utf8(raw);
  if (field.find_first_of(",\"\n\r") == std::string::npos) return field;
  std::string out = "\"";
  for (char c : field) {
    if (c == '"') out += '"';
    out += c;
  }
  return out + "\"";
}

// The identity of a configuration: what one line of a summary or one planner of a log is.
using ConfigKey = std::tuple<std::string, std::string, std::string>;  // method, options, smoother
ConfigKey config_of(const Row& r) {
  return {r.method, r.options, r.smoother};
}
bool is_default(const std::string& options) {
  return options.empty() || options == default_options;
}
std::string config_label(const ConfigKey& k) {
  const auto& [method, options, smoother] = k;
  return method + (is_default(options) ? "" : "[" + options + "]") + " + " + smoother;
}

// Configurations in order of first appearance.
std::vector<ConfigKey> configs_of(const std::vector<Row>& rows) {
  std::vector<ConfigKey> keys;
  for (const Row& r : rows)
    if (std::find(keys.begin(), keys.end(), config_of(r)) == keys.end())
      keys.push_back(config_of(r));
  return keys;
}

double mean_of(const std::vector<double>& v) {
  return v.empty() ? NAN : std::accumulate(v.begin(), v.end(), 0.0) / double(v.size());
}
std::string fixed(double v, int decimals) {
  if (std::isnan(v)) return "-";
  std::ostringstream out;
  out << std::fixed << std::setprecision(decimals) << v;
  return out.str();
}

}  // namespace

const std::vector<std::string>& csv_columns() {
  static const std::vector<std::string> columns = {"scene",     "method",
                                                   "options",   "smoother",
                                                   "query",     "start_x",
                                                   "start_y",   "goal_x",
                                                   "goal_y",    "status",
                                                   "length",    "cost",
                                                   "reference", "ratio",
                                                   "waypoints", "turning",
                                                   "clearance", "build_ms",
                                                   "search_us", "smooth_us",
                                                   "expanded",  "raw_length",
                                                   "space_ms",  "nodes",
                                                   "message",   "reference_method",
                                                   "curvature"};
  return columns;
}

std::string csv_line(const Row& r) {
  std::string s = quoted(r.scene);
  const std::string fields[] = {quoted(r.method),
                                quoted(r.options),
                                quoted(r.smoother),
                                std::to_string(r.query),
                                number(r.start.x),
                                number(r.start.y),
                                number(r.goal.x),
                                number(r.goal.y),
                                r.status,
                                number(r.length),
                                number(r.cost),
                                number(r.reference),
                                number(r.ratio),
                                r.waypoints > 0 ? std::to_string(r.waypoints) : "",
                                number(r.turning),
                                number(r.clearance),
                                number(r.build_ms),
                                number(r.search_us),
                                number(r.smooth_us),
                                std::to_string(r.expanded),
                                number(r.raw_length),
                                number(r.space_ms),
                                std::to_string(r.nodes),
                                quoted(r.message),
                                quoted(r.reference_method),
                                number(r.curvature)};
  for (const std::string& f : fields) s += "," + f;
  return s;
}

void write_csv(std::ostream& out, const std::vector<Row>& rows) {
  const auto& columns = csv_columns();
  for (std::size_t i = 0; i < columns.size(); ++i) out << (i ? "," : "") << columns[i];
  out << '\n';
  for (const Row& r : rows) out << csv_line(r) << '\n';
}

std::vector<Row> read_csv(const std::filesystem::path& path, std::size_t row_limit) {
  // Before the open: a FIFO would block it, a device never end.
  check_input_file(path);
  const std::string file = path.string();
  std::error_code size_error;
  if (const std::uintmax_t bytes = std::filesystem::file_size(path, size_error);
      !size_error && bytes > max_csv_bytes)
    throw InputError({file, 0, 0, {}}, "the file holds " + std::to_string(bytes) +
                                           " bytes, more than an experiment CSV can (" +
                                           std::to_string(max_csv_bytes) + ", a run's " +
                                           std::to_string(max_rows) +
                                           " rows); is it the right file?");
  std::ifstream in(path, std::ios::binary);
  if (!in) throw InputError({file, 0, 0, {}}, "cannot read the file");
  std::ostringstream buffer;
  buffer << in.rdbuf();
  const std::string text = buffer.str();

  // RFC 4180 fields, with the line and column where each starts.
  struct Field {
    std::string text;
    int column;
  };
  std::vector<Row> rows;
  std::size_t at = 0;
  int line = 0;
  const auto& columns = csv_columns();
  // Files written before the last columns were added (reference_method, then curvature) read too.
  const std::size_t oldest_columns = columns.size() - 2;
  std::size_t width = columns.size();  // this file's, from its header
  while (at < text.size()) {
    ++line;
    std::vector<Field> fields;
    const std::size_t line_start = at;
    for (;;) {
      Field f{{}, int(at - line_start) + 1};
      if (at < text.size() && text[at] == '"') {
        ++at;
        for (;;) {
          if (at >= text.size())
            throw InputError({file, line, f.column, {}}, "unterminated quoted field");
          if (text[at] == '"') {
            if (at + 1 < text.size() && text[at + 1] == '"') {
              f.text += '"';
              at += 2;
              continue;
            }
            ++at;
            break;
          }
          f.text += text[at++];
        }
      } else {
        while (at < text.size() && text[at] != ',' && text[at] != '\n' && text[at] != '\r')
          f.text += text[at++];
      }
      fields.push_back(std::move(f));
      if (at < text.size() && text[at] == ',') {
        ++at;
        continue;
      }
      if (at < text.size() && text[at] == '\r') ++at;
      if (at < text.size() && text[at] == '\n') ++at;
      break;
    }
    if (line == 1) {
      width = fields.size() >= oldest_columns && fields.size() < columns.size() ? fields.size()
                                                                                : columns.size();
      for (std::size_t i = 0; i < width; ++i)
        if (i >= fields.size() || fields[i].text != columns[i])
          throw InputError({file, 1, i < fields.size() ? fields[i].column : 1, {}},
                           "not a polynav experiment CSV: expected column " +
                               std::to_string(i + 1) + " to be '" + columns[i] + "', found '" +
                               (i < fields.size() ? fields[i].text : std::string()) + "'");
      continue;
    }
    if (fields.size() != width)
      throw InputError({file, line, 1, {}}, "expected " + std::to_string(width) +
                                                " fields, found " + std::to_string(fields.size()));
    if (rows.size() == row_limit)
      throw InputError({file, line, 1, {}},
                       "more than " + std::to_string(row_limit) +
                           " rows, the most one experiment run writes (join shards with "
                           "'polynav merge', each file one run)");
    const auto real = [&](std::size_t i) {
      const std::string& t = fields[i].text;
      if (t.empty()) return double(NAN);
      const ParsedNumber v = parse_number(t);  // "inf" and "-inf" are written for infinities
      if (v.status != NumberStatus::finite && v.status != NumberStatus::infinite)
        throw InputError({file, line, fields[i].column, columns[i]},
                         "expected a number, found '" + t + "'");
      return v.value;
    };
    const auto whole = [&](std::size_t i) {
      const std::string& t = fields[i].text;
      std::uint64_t v = 0;
      if (t.empty()) return v;
      const auto [end, ec] = std::from_chars(t.data(), t.data() + t.size(), v);
      if (ec != std::errc() || end != t.data() + t.size())
        throw InputError({file, line, fields[i].column, columns[i]},
                         "expected a whole number, found '" + t + "'");
      return v;
    };
    Row r;
    r.scene = fields[0].text;
    r.method = fields[1].text;
    r.options = fields[2].text.empty() ? std::string(default_options) : fields[2].text;
    r.smoother = fields[3].text;
    r.query = whole(4);
    r.start = {real(5), real(6)};
    r.goal = {real(7), real(8)};
    r.status = fields[9].text;
    r.length = real(10);
    r.cost = real(11);
    r.reference = real(12);
    r.ratio = real(13);
    r.waypoints = whole(14);
    r.turning = real(15);
    r.clearance = real(16);
    r.build_ms = real(17);
    r.search_us = real(18);
    r.smooth_us = real(19);
    r.expanded = whole(20);
    r.raw_length = real(21);
    r.space_ms = real(22);
    r.nodes = whole(23);
    r.message = fields[24].text;
    if (width > 25) r.reference_method = fields[25].text;
    if (width > 26) r.curvature = real(26);
    rows.push_back(std::move(r));
  }
  if (line == 0) throw InputError({file, 0, 0, {}}, "empty file; expected the CSV header");
  return rows;
}

std::vector<Row> merge_shards(const std::vector<std::vector<Row>>& shards,
                              const std::vector<std::string>& names) {
  using Group = std::tuple<std::string, std::string, std::string, std::string>;
  const auto group_of = [](const Row& r) {
    return Group{r.scene, r.method,
                 is_default(r.options) ? std::string(default_options) : r.options, r.smoother};
  };
  // Every shard lists its groups in the unsharded order, some perhaps missing (a scene with
  // fewer queries than shards): insert each group not yet seen after its predecessor there.
  std::vector<Group> order;
  std::map<Group, std::vector<std::pair<std::size_t, const Row*>>> members;
  std::map<std::pair<Group, std::size_t>, std::size_t> seen;  // run -> shard
  for (std::size_t s = 0; s < shards.size(); ++s) {
    std::ptrdiff_t previous = -1;
    for (const Row& r : shards[s]) {
      const Group g = group_of(r);
      auto it = std::find(order.begin(), order.end(), g);
      if (it == order.end()) it = order.insert(order.begin() + (previous + 1), g);
      previous = it - order.begin();
      const auto [where, inserted] = seen.emplace(std::pair{g, r.query}, s);
      if (!inserted)
        throw InputError({names[s], 0, 0, {}}, "query " + std::to_string(r.query) + " of scene '" +
                                                   r.scene + "' (" + r.method + " + " + r.smoother +
                                                   ") is also in " + names[where->second] +
                                                   ": shards overlap");
      members[g].push_back({r.query, &r});
    }
  }
  std::vector<Row> merged;
  for (const Group& g : order) {
    auto& list = members[g];
    std::sort(list.begin(), list.end(),
              [](const auto& a, const auto& b) { return a.first < b.first; });
    for (std::size_t i = 0; i < list.size(); ++i)
      if (list[i].first != i)
        throw InputError({"", 0, 0, "merge"}, "query " + std::to_string(i) + " of scene '" +
                                                  std::get<0>(g) + "' (" + std::get<1>(g) + " + " +
                                                  std::get<3>(g) +
                                                  ") is in no file: is a shard missing?");
    for (const auto& [query, row] : list) {
      merged.push_back(*row);
      merged.back().options = std::get<2>(g);
    }
  }
  return merged;
}

void write_summary(std::ostream& out, const std::vector<Row>& rows,
                   const std::vector<SceneReport>& scenes) {
  const std::vector<ConfigKey> configs = configs_of(rows);
  std::size_t label_width = 13;
  for (const ConfigKey& k : configs) label_width = std::max(label_width, config_label(k).size());
  const auto pad = [](std::string s, std::size_t w) {
    s.resize(std::max(w, s.size()), ' ');
    return s;
  };
  const auto right = [](const std::string& s, std::size_t w) {
    return std::string(w > s.size() ? w - s.size() : 0, ' ') + s;
  };
  out << pad("configuration", label_width) << right("runs", 7) << right("found", 8)
      << right("ratio mean", 12) << right("p95", 9) << right("max", 9) << right("waypoints", 11)
      << right("search us", 11) << right("smooth us", 11) << right("build ms", 10) << "\n";
  for (const ConfigKey& k : configs) {
    std::vector<double> ratios, waypoints, search, smooth;
    std::map<std::string, double> build;  // per scene
    std::size_t runs = 0, found = 0;
    for (const Row& r : rows) {
      if (config_of(r) != k) continue;
      ++runs;
      build[r.scene] = r.build_ms;
      if (!std::isnan(r.search_us)) search.push_back(r.search_us);
      if (r.status != "found") continue;
      ++found;
      if (!std::isnan(r.ratio)) ratios.push_back(r.ratio);
      waypoints.push_back(double(r.waypoints));
      if (!std::isnan(r.smooth_us)) smooth.push_back(r.smooth_us);
    }
    double build_mean = 0.0;
    for (const auto& [scene, ms] : build) build_mean += ms / double(build.size());
    std::vector<double> sorted = ratios;
    std::sort(sorted.begin(), sorted.end());
    const double p95 = sorted.empty() ? NAN : detail::nearest_rank(sorted, 0.95);
    const double worst = sorted.empty() ? NAN : sorted.back();
    out << pad(config_label(k), label_width) << right(std::to_string(runs), 7)
        << right(fixed(runs ? 100.0 * double(found) / double(runs) : NAN, 1) + "%", 8)
        << right(fixed(mean_of(ratios), 5), 12) << right(fixed(p95, 4), 9)
        << right(fixed(worst, 4), 9) << right(fixed(mean_of(waypoints), 1), 11)
        << right(fixed(mean_of(search), 1), 11) << right(fixed(mean_of(smooth), 1), 11)
        << right(fixed(build_mean, 1), 10) << "\n";
  }

  // The literature's aggregate (e.g. the Central64 report): the mean length over each scene's
  // queries, then the mean over scenes; the optimum's the same way over the same queries.
  bool any_reference = false;
  for (const Row& r : rows) any_reference = any_reference || !std::isnan(r.ratio);
  if (any_reference) {
    out << "\nmean length (cost with regions) per scene, averaged over scenes, on the queries with "
           "a "
           "reference:\n"
        << pad("configuration", label_width) << right("scenes", 8) << right("mean", 14)
        << right("optimum", 14) << right("excess", 10) << "\n";
    for (const ConfigKey& k : configs) {
      std::map<std::string, std::pair<std::vector<double>, std::vector<double>>> per_scene;
      for (const Row& r : rows)
        if (config_of(r) == k && !std::isnan(r.ratio)) {
          // ratio x reference: the length, or the cost where the reference is a cost.
          per_scene[r.scene].first.push_back(r.ratio * r.reference);
          per_scene[r.scene].second.push_back(r.reference);
        }
      std::vector<double> means, optima;
      for (const auto& [scene, lengths] : per_scene) {
        means.push_back(mean_of(lengths.first));
        optima.push_back(mean_of(lengths.second));
      }
      const double mean = mean_of(means), optimum = mean_of(optima);
      out << pad(config_label(k), label_width) << right(std::to_string(per_scene.size()), 8)
          << right(fixed(mean, 6), 14) << right(fixed(optimum, 6), 14)
          << right(fixed(100.0 * (mean / optimum - 1.0), 3) + "%", 10) << "\n";
    }
  }
  // Which reference each scene was scored against, where it is not the visibility graph.
  for (const SceneReport& s : scenes) {
    if (!s.has_reference) {
      out << "no reference for scene '" << s.name << "': " << s.reference_note << "\n";
    } else if (s.reference_method != "visgraph") {
      out << "reference for scene '" << s.name << "': " << s.reference_method
          << (s.reference_note.empty() ? "" : " (" + s.reference_note + ")") << "\n";
    }
  }
  if (scenes.empty()) {  // rows read back from files: their reference_method column tells
    std::vector<std::pair<std::string, std::string>> seen;
    for (const Row& r : rows) {
      if (r.reference_method.empty() || r.reference_method == "visgraph") continue;
      const std::pair<std::string, std::string> key{r.scene, r.reference_method};
      if (std::find(seen.begin(), seen.end(), key) != seen.end()) continue;
      seen.push_back(key);
      out << "reference for scene '" << r.scene << "': " << r.reference_method << "\n";
    }
  }
}

std::string host_name() {
  char host[256] = {};
  if (::gethostname(host, sizeof host - 1) != 0 || host[0] == '\0') return "unknown";
  return host;
}

OmplLogHeader ompl_log_header(const Options& options, const SceneReport& scene,
                              std::size_t scene_index) {
  OmplLogHeader h;
  h.scene = scene.name;
  h.scene_index = scene_index;
  h.total_seconds = scene.seconds;
  // The limits as the search and the builds read them (defaults included); options read "inf"
  // as 1e308.
  const OptionValues search_values("search", search_option_specs(), options.settings);
  const OptionValues space_values("space", space_option_specs(), options.settings);
  const auto limit = [](const OptionValues& values, std::string_view name) {
    const double v = values.number(name);
    return v >= 1e308 ? INFINITY : v;
  };
  const auto search = [&](std::string_view name) { return limit(search_values, name); };
  const auto space = [&](std::string_view name) { return limit(space_values, name); };
  const double time_limit_ms = search("time_limit_ms");
  h.time_limit_s = std::isfinite(time_limit_ms) ? time_limit_ms / 1000.0 : INFINITY;
  h.properties = {{"scene_index INTEGER", std::to_string(scene_index)},
                  {"queries INTEGER", std::to_string(scene.queries)},
                  {"random_queries BOOLEAN", options.random ? "1" : "0"},
                  {"search_time_limit_ms REAL", number(time_limit_ms)},
                  {"search_max_expanded REAL", number(search("max_expanded"))},
                  {"search_max_cost REAL", number(search("max_cost"))},
                  {"search_weight REAL", number(search("weight"))},
                  {"search_beam_width REAL", number(search("beam_width"))},
                  {"space_max_build_seconds REAL", number(space("max_build_seconds"))}};

  h.setup.push_back("polynav experiment on scene " + one_line(scene.name) + " (scene index " +
                    std::to_string(scene_index) +
                    "): one planner per method spec x smoother, one run per query");
  if (options.random) {
    h.seed = options.random->seed;
    h.setup.push_back("queries: " + std::to_string(options.random->count) +
                      " drawn uniformly from free space with seed " +
                      std::to_string(options.random->seed) +
                      " (this scene's stream: the seed "
                      "mixed with its index)" +
                      (options.random->same_component ? ", goals in the start's component" : ""));
  } else {
    h.setup.push_back("queries: the scene's own or its scenario file's (no random seed)");
  }
  if (options.shard.count > 1)
    h.setup.push_back("shard " + std::to_string(options.shard.index) + "/" +
                      std::to_string(options.shard.count) + " of the queries");
  std::string specs, smoothers, settings;
  for (const MethodSpec& m : options.methods) {
    const std::string own = m.settings.group_text(m.method);
    specs += (specs.empty() ? "" : ", ") + m.method + (own.empty() ? "" : "[" + own + "]");
  }
  for (const std::string& k : options.smoothers) smoothers += (smoothers.empty() ? "" : ", ") + k;
  for (const auto& [key, value] : options.settings.values())
    settings += (settings.empty() ? "" : "; ") + key + "=" + value;
  h.setup.push_back("method specs: " + specs);
  h.setup.push_back("smoothers: " + smoothers);
  h.setup.push_back("settings (--set): " + (settings.empty() ? std::string("none") : settings));
  h.setup.push_back(
      "reference: " + (scene.has_reference ? scene.reference_method : std::string("none")) +
      (scene.reference_note.empty() ? "" : " (" + scene.reference_note + ")"));
  return h;
}

void write_ompl_log(std::ostream& out, const std::vector<Row>& all, const OmplLogHeader& header) {
  std::vector<Row> rows;
  for (const Row& r : all)
    if (r.scene == header.scene) rows.push_back(r);
  const std::vector<ConfigKey> configs = configs_of(rows);
  // One word: the statistics script keeps the last word of the line; a line break would end it.
  // Spaces become '_', and what else would break the line is escaped (polynav/text.hpp).
  std::string experiment = header.scene.empty() ? std::string("polynav") : header.scene;
  for (char& c : experiment)
    if (std::isspace(static_cast<unsigned char>(c))) c = '_';
  experiment = one_line(experiment);
  const std::string host = header.host.empty() ? host_name() : header.host;
  const std::time_t now = std::time(nullptr);
  char date[64];
  std::strftime(date, sizeof date, "%Y-%m-%d %H:%M:%S", std::localtime(&now));
  std::size_t runs_per_planner = 0;  // the same for every planner (none in an empty shard)
  if (!configs.empty())
    for (const Row& r : rows)
      if (config_of(r) == configs.front()) ++runs_per_planner;

  out << "polynav version " << version() << "\n"
      << "Experiment " << experiment << "\n"
      << header.properties.size() << " experiment properties\n";
  for (const auto& [name, value] : header.properties) out << name << " = " << value << "\n";
  out << "Running on " << host << "\n"
      << "Starting at " << date << "\n"
      << "<<<|\n";
  for (const std::string& line : header.setup) out << line << "\n";
  out << "|>>>\n"
      << header.seed << " is the random seed\n"
      << number(header.time_limit_s) << " seconds per run\n"
      << number(header.memory_limit_mb) << " MB per run\n"
      << runs_per_planner << " runs per planner\n"
      << number(header.total_seconds) << " seconds spent to collect the data\n"
      << configs.size() << " planners\n";
  static const char* const properties[] = {"time REAL",
                                           "solved BOOLEAN",
                                           "approximate solution BOOLEAN",
                                           "solution length REAL",
                                           "simplified solution length REAL",
                                           "simplification time REAL",
                                           "simplified solution segments INTEGER",
                                           "simplified solution clearance REAL",
                                           "simplified correct solution BOOLEAN",
                                           "graph states INTEGER",
                                           "expanded nodes INTEGER",
                                           "reference length REAL",
                                           "ratio to reference REAL",
                                           "turning angle REAL",
                                           "scene index INTEGER",
                                           "query INTEGER"};
  for (const ConfigKey& k : configs) {
    const auto& [method, options, smoother] = k;
    std::vector<const Row*> runs;
    for (const Row& r : rows)
      if (config_of(r) == k) runs.push_back(&r);
    out << config_label(k) << "\n"
        << "3 common properties\n"
        << "method = " << method << "\n"
        << "options = " << (options.empty() ? std::string(default_options) : options) << "\n"
        << "smoother = " << smoother << "\n"
        << std::size(properties) << " properties for each run\n";
    for (const char* p : properties) out << p << "\n";
    out << runs.size() << " runs\n";
    for (const Row* r : runs) {
      const bool solved = r->status == "found";
      const bool has_path = r->waypoints > 0;
      const double seconds = ((std::isnan(r->search_us) ? 0.0 : r->search_us) +
                              (std::isnan(r->smooth_us) ? 0.0 : r->smooth_us)) *
                             1e-6;
      const std::string fields[] = {number(seconds),
                                    solved ? "1" : "0",
                                    r->status == "partial" ? "1" : "0",
                                    number(r->raw_length),
                                    number(r->length),
                                    number(r->smooth_us * 1e-6),
                                    has_path ? std::to_string(r->waypoints - 1) : "",
                                    number(r->clearance),
                                    has_path ? "1" : "",
                                    std::to_string(r->nodes),
                                    std::to_string(r->expanded),
                                    number(r->reference),
                                    number(r->ratio),
                                    number(r->turning),
                                    std::to_string(header.scene_index),
                                    std::to_string(r->query)};
      for (const std::string& f : fields) out << f << "; ";
      out << "\n";
    }
    out << ".\n";
  }
}

}  // namespace polynav::experiment
