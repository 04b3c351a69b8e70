// MovingAI grid maps and scenarios. Format: N. Sturtevant, "Benchmarks for Grid-Based
// Pathfinding", IEEE TCIAIG 4(2), 2012, and https://movingai.com/benchmarks/formats.html.

#include <algorithm>
#include <array>
#include <cerrno>
#include <charconv>
#include <chrono>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <fstream>
#include <string>
#include <system_error>
#include <utility>

#include "free_boundary_trace.hpp"
#include "polynav/error.hpp"
#include "polynav/number.hpp"
#include "polynav/text.hpp"
#include "readers.hpp"

namespace polynav {
void check_input_file(const std::filesystem::path& path) {
  std::error_code ec;
  const std::filesystem::file_status st = std::filesystem::status(path, ec);
  if (st.type() == std::filesystem::file_type::not_found)
    throw InputError({path.string(), 0, 0, {}}, "no such file");
  if (!std::filesystem::exists(st))
    throw InputError({path.string(), 0, 0, {}}, "cannot open it: " + ec.message());
  if (std::filesystem::is_directory(st)) {
    throw InputError({path.string(), 0, 0, {}}, "it is a directory, not a file");
  }
  // A FIFO or a device could block the open or the read forever, or never end.
  if (!std::filesystem::is_regular_file(st)) {
    throw InputError({path.string(), 0, 0, {}},
                     "it is not a regular file (a pipe, socket or device); polynav reads "
                     "its inputs from files");
  }
}

namespace reader_text {

std::string read_file(const std::filesystem::path& path, std::size_t max_bytes) {
  const auto too_large = [&] {
    return InputError({path.string(), 0, 0, {}}, "the file is larger than " +
                                                     std::to_string(max_bytes >> 20) +
                                                     " MiB, the most this format allows");
  };
  const auto cannot = [&](const std::string& what) {
    return InputError({path.string(), 0, 0, {}}, what + ": " + std::strerror(errno));
  };
  check_input_file(path);
  std::error_code ec;
  const std::uintmax_t size = std::filesystem::file_size(path, ec);
  if (!ec && size > max_bytes) throw too_large();
  std::ifstream in(path, std::ios::binary);
  if (!in) throw cannot("cannot open the file");
  // Reads in blocks up to one past the limit: pipes and devices have no size up front. A file's
  // size, where it has one, is room for it all (and the end-of-file read) without regrowing.
  std::string text;
  if (!ec) text.reserve(std::size_t(size) + 1);
  char block[1 << 16];
  while (in && text.size() <= max_bytes) {
    in.read(block, sizeof block);
    text.append(block, static_cast<std::size_t>(in.gcount()));
  }
  if (in.bad()) throw cannot("cannot read the file");
  if (text.size() > max_bytes) throw too_large();
  return text;
}

std::vector<Field> split_fields(std::string_view line) {
  std::vector<Field> fields;
  std::size_t i = 0;
  while (i < line.size()) {
    while (i < line.size() && is_space(line[i])) ++i;
    const std::size_t start = i;
    while (i < line.size() && !is_space(line[i])) ++i;
    if (i > start) fields.push_back({line.substr(start, i - start), int(start) + 1});
  }
  return fields;
}

std::optional<std::string_view> LineReader::next() {
  if (pos_ >= text_.size()) return std::nullopt;
  std::size_t end = text_.find('\n', pos_);
  if (end == std::string_view::npos) end = text_.size();
  std::string_view line = text_.substr(pos_, end - pos_);
  pos_ = end + 1;
  ++line_;
  if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
  return line;
}

bool is_blank(std::string_view line) {
  for (char c : line) {
    if (!is_space(c)) return false;
  }
  return true;
}

std::optional<long long> parse_integer(std::string_view s) {
  long long value = 0;
  const auto [end, error] = std::from_chars(s.data(), s.data() + s.size(), value);
  if (error != std::errc() || end != s.data() + s.size()) return std::nullopt;
  return value;
}

std::string quote(std::string_view s) {
  // About 40 bytes of the field, by the one rule for text in messages (polynav/text.hpp): UTF-8
  // as it is, control characters and stray bytes escaped.
  constexpr std::size_t max_shown = 40;
  std::string out = "'";
  const bool whole = append_one_line(out, s, 1 + max_shown);
  return out + (whole ? "'" : "...'");
}

}  // namespace reader_text

namespace {

using reader_text::Field;
using reader_text::quote;

// The values are bits: a blocked cell's byte is its kind's lowest bit, and or-ing the kinds of a
// row shows whether any is unknown.
enum class CellKind : unsigned char { free = 0, blocked = 1, unknown = 2 };

// The characters of https://movingai.com/benchmarks/formats.html: `.` and `G` are passable
// terrain and `S` is swamp (passable); `@` and `O` are out of bounds, `T` trees, `W` water.
// By a table over the 256 byte values: a map is mostly cells, and a switch per cell was most of
// reading one.
constexpr std::array<CellKind, 256> cell_kinds = [] {
  std::array<CellKind, 256> kinds{};
  kinds.fill(CellKind::unknown);
  for (const unsigned char c : {'.', 'G', 'S'}) kinds[c] = CellKind::free;
  for (const unsigned char c : {'@', 'O', 'T', 'W'}) kinds[c] = CellKind::blocked;
  return kinds;
}();

CellKind classify(char c) {
  return cell_kinds[static_cast<unsigned char>(c)];
}

// Eight characters of a row at a time, as one word: the byte-wise "equals c" test of Hacker's
// Delight (Warren, 2nd ed., 6-1) without its false positives, so that a word of the usual
// characters is classified without a table lookup a cell. Writes a blocked cell's byte as 1, a
// free one's as 0, sets bit i of `bits` when cell i of the eight is blocked, and returns false
// when a byte is none of the seven characters.
bool classify_word(std::uint64_t word, unsigned char* out, std::uint64_t& bits) {
  constexpr std::uint64_t ones = 0x0101010101010101u, low7 = 0x7F7F7F7F7F7F7F7Fu;
  // 0x80 in each byte of `word` equal to c, 0 in every other.
  const auto equal = [&](unsigned char c) {
    const std::uint64_t t = word ^ (ones * c);
    return ~(((t & low7) + low7) | t | low7);
  };
  std::uint64_t blocked = 0, free = 0;
  if (word == ones * '.') {
    free = ones << 7;
  } else if (word == ones * '@') {
    blocked = ones << 7;
  } else {
    blocked = equal('@') | equal('O') | equal('T') | equal('W');
    free = equal('.') | equal('G') | equal('S');
  }
  const std::uint64_t bytes = blocked >> 7;
  std::memcpy(out, &bytes, 8);
  // Byte i (0 or 1) times 2^(56 - 7i) lands on bit 56 + i, no two products sharing a bit.
  bits = (bytes * 0x0102040810204080u) >> 56u;
  return (blocked | free) == ones << 7;
}

[[noreturn]] void fail(const std::string& file, int line, int column, const std::string& what) {
  throw InputError({file, line, column, {}}, what);
}

// A `height` or `width` header value: a positive integer.
int parse_dimension(const std::string& file, int line, const std::vector<Field>& fields) {
  const std::string key(fields[0].text);
  if (fields.size() != 2) {
    fail(file, line, fields[0].column,
         "expected '" + key + " N' with one positive integer, found " +
             std::to_string(fields.size() - 1) + " values");
  }
  const auto value = reader_text::parse_integer(fields[1].text);
  if (!value || *value <= 0 || *value > max_movingai_cells) {
    fail(file, line, fields[1].column,
         "the map " + key + " must be a positive integer of at most " +
             std::to_string(max_movingai_cells) + ", found " + quote(fields[1].text));
  }
  return int(*value);
}

std::string tabs_to_spaces(std::string_view line) {
  std::string s(line);
  std::replace(s.begin(), s.end(), '\t', ' ');
  return s;
}

std::string plural(long long n, const char* word) {
  return std::to_string(n) + " " + word + (n == 1 ? "" : "s");
}

}  // namespace

Scene parse_movingai_map(std::string_view text, const std::string& file_name) {
  if (reader_text::is_blank(text)) {
    fail(file_name, 0, 0, "the file is empty; a MovingAI map starts with 'type octile'");
  }
  reader_text::LineReader lines(text);

  // Header: `type octile`, `height H`, `width W`, then `map`. Height and width are accepted in
  // either order; blank lines are skipped.
  std::optional<int> height;
  std::optional<int> width;
  bool have_type = false;
  int map_line = 0;
  while (const auto line = lines.next()) {
    const int n = lines.line_number();
    const auto fields = reader_text::split_fields(*line);
    if (fields.empty()) continue;
    const std::string_view key = fields[0].text;
    if (key == "map") {
      if (fields.size() != 1) {
        fail(file_name, n, fields[1].column,
             "expected the line 'map' alone before the rows, found " + quote(fields[1].text) +
                 " after it");
      }
      map_line = n;
      break;
    }
    if (key == "type") {
      if (fields.size() != 2 || fields[1].text != "octile") {
        const Field& at = fields.size() > 1 ? fields[1] : fields[0];
        fail(file_name, n, at.column,
             "unsupported map type " + quote(*line) + "; expected 'type octile'");
      }
      have_type = true;
    } else if (key == "height") {
      height = parse_dimension(file_name, n, fields);
    } else if (key == "width") {
      width = parse_dimension(file_name, n, fields);
    } else {
      fail(file_name, n, fields[0].column,
           "not a MovingAI map header line: " + quote(*line) +
               "; expected 'type octile', 'height H', 'width W', then 'map'");
    }
  }
  if (map_line == 0) {
    fail(file_name, lines.line_number(), 0,
         "missing the 'map' line that ends the header (a MovingAI map starts with 'type octile', "
         "'height H', 'width W', 'map')");
  }
  if (!have_type) fail(file_name, map_line, 0, "missing the header line 'type octile'");
  if (!height) fail(file_name, map_line, 0, "missing the header line 'height H'");
  if (!width) fail(file_name, map_line, 0, "missing the header line 'width W'");
  const long long cell_count = static_cast<long long>(*height) * *width;
  if (cell_count > max_movingai_cells) {
    fail(file_name, map_line, 0,
         "the map is too large: width " + std::to_string(*width) + " x height " +
             std::to_string(*height) + " = " + std::to_string(cell_count) +
             " cells, more than the limit of " + std::to_string(max_movingai_cells));
  }

  CellMap cells;
  cells.width = *width;
  cells.height = *height;
  cells.blocked.resize(std::size_t(cell_count));
  BlockedBits bits(*width, *height);  // the same cells a bit each, for the runs and the trace
  std::vector<int> row_lines(static_cast<std::size_t>(*height));
  for (int cy = 0; cy < *height; ++cy) {
    auto line = lines.next();
    if (!line) {
      // Where the text ends: on the line after the last row when that row ends with a line
      // break, else on the last row itself.
      fail(file_name, lines.line_number() + (text.ends_with('\n') ? 1 : 0), 0,
           "the map ends after " + plural(cy, "row") + " but the header says height " +
               std::to_string(*height));
    }
    const int n = lines.line_number();
    row_lines[std::size_t(cy)] = n;
    // Spaces are not cells, so trailing ones (left by some editors) are only padding.
    while (std::ssize(*line) > *width && (line->back() == ' ' || line->back() == '\t')) {
      line->remove_suffix(1);
    }
    if (std::ssize(*line) != *width) {
      fail(file_name, n, int(std::min<std::ptrdiff_t>(std::ssize(*line), *width)) + 1,
           "map row " + std::to_string(cy + 1) + " of " + std::to_string(*height) +
               " (y = " + std::to_string(cy) + ") has " + plural(std::ssize(*line), "character") +
               " but the header says width " + std::to_string(*width));
    }
    // Eight cells a word, the rest by a table lookup a cell, without a branch: the kinds' bits
    // are or-ed, and the row's first unknown character is looked for only when one of them is.
    const std::string_view row = *line;
    unsigned char* out = cells.blocked.data() + std::size_t(cy) * std::size_t(*width);
    std::uint64_t* out_bits = bits.row(cy);
    unsigned kinds = 0;
    std::size_t cx = 0;
    for (; cx + 8 <= row.size(); cx += 8) {
      std::uint64_t word = 0, eight = 0;
      std::memcpy(&word, row.data() + cx, 8);
      if (!classify_word(word, out + cx, eight)) kinds |= static_cast<unsigned>(CellKind::unknown);
      out_bits[cx / 64] |= eight << (cx % 64);
    }
    for (; cx < row.size(); ++cx) {
      const auto kind = static_cast<unsigned>(classify(row[cx]));
      kinds |= kind;
      out[cx] = static_cast<unsigned char>(kind & 1u);
      out_bits[cx / 64] |= std::uint64_t(kind & 1u) << (cx % 64);
    }
    if ((kinds & static_cast<unsigned>(CellKind::unknown)) != 0) {
      for (std::size_t x = 0; x < row.size(); ++x) {
        const char c = row[x];
        if (classify(c) != CellKind::unknown) continue;
        fail(file_name, n, int(x) + 1,
             "unknown map character " + quote(std::string_view(&c, 1)) + " at cell (" +
                 std::to_string(x) + ", " + std::to_string(cy) +
                 "); expected one of . G S (free) or @ O T W (blocked)");
      }
    }
  }
  while (const auto line = lines.next()) {
    if (!reader_text::is_blank(*line)) {
      fail(file_name, lines.line_number(), 1,
           "more rows than the header's height " + std::to_string(*height) + ": found " +
               quote(*line) + " after the last row");
    }
  }

  Scene scene;
  scene.name = valid_utf8(std::filesystem::path(file_name).stem().string());
  const double w = *width;
  const double h = *height;
  scene.bounds = {{0.0, 0.0}, {w, 0.0}, {w, h}, {0.0, h}};
  scene.native_cell_size = 1.0;
  const std::vector<BlockedRun> runs = blocked_runs(bits);
  scene.obstacles.reserve(runs.size());
  for (const BlockedRun& run : runs) {
    Obstacle obstacle;
    obstacle.shape.outer = run_rectangle(cells, run);
    obstacle.where = {file_name, row_lines[std::size_t(run.row)], run.first + 1, {}};
    scene.obstacles.push_back(std::move(obstacle));
  }
  const auto traced = std::chrono::steady_clock::now();
  scene.free_boundary = trace_free_boundary(bits);
  VectorisationReport report;
  report.trace_ms =
      std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - traced).count();
  report.rings = scene.free_boundary.size();
  for (const Ring& ring : scene.free_boundary) report.traced_vertices += ring.size();
  report.vertices = report.traced_vertices;
  scene.vectorisation = report;
  scene.cell_map = std::move(cells);
  return scene;
}

Scene read_movingai_map(const std::filesystem::path& path) {
  Scene scene = parse_movingai_map(reader_text::read_file(path, max_map_file_bytes), path.string());
  scene.source = path;
  return scene;
}

namespace {

// One row of a scenario: `bucket map width height start_x start_y goal_x goal_y optimal_length`,
// and in polynav's own files optionally a 10th column, the agent radius of the query.
class ScenarioRow {
 public:
  ScenarioRow(const std::string& file, int line, std::vector<Field> fields)
      : file_(file), line_(line), fields_(std::move(fields)) {}

  long long integer(std::size_t i, const char* what) const {
    const auto v = reader_text::parse_integer(fields_[i].text);
    if (!v) bad(i, std::string(what) + " must be an integer");
    return *v;
  }

  double number(std::size_t i, const char* what) const {
    const ParsedNumber v = parse_number(fields_[i].text);
    if (v.status == NumberStatus::infinite || v.status == NumberStatus::not_a_number)
      bad(i, std::string(what) + " must be a finite number");
    if (!v.is_finite()) bad(i, std::string(what) + " must be a number");
    return v.value;
  }

  // A cell coordinate of a cell map: a whole number inside [0, limit).
  int cell(std::size_t i, const char* what, int limit, const char* dimension) const {
    const double v = number(i, what);
    if (v != std::floor(v)) bad(i, std::string(what) + " must be a whole cell coordinate");
    if (v < 0 || v >= limit) {
      bad(i, std::string(what) + " is outside the map (cells 0.." + std::to_string(limit - 1) +
                 " for " + dimension + " " + std::to_string(limit) + ")");
    }
    return int(v);
  }

  [[noreturn]] void bad(std::size_t i, const std::string& what) const {
    fail(file_, line_, fields_[i].column, what + ", found " + quote(fields_[i].text));
  }

  const Field& field(std::size_t i) const { return fields_[i]; }
  std::size_t size() const { return fields_.size(); }

 private:
  const std::string& file_;
  int line_;
  std::vector<Field> fields_;
};

}  // namespace

std::vector<Query> parse_scenario(std::string_view text, const std::string& file_name,
                                  const Scene& scene, ScenarioPoints points) {
  reader_text::LineReader lines(text);
  std::optional<std::string_view> first;
  while ((first = lines.next()) && reader_text::is_blank(*first)) {
  }
  if (!first) fail(file_name, 0, 0, "empty scenario file; expected 'version 1' first");
  {
    const auto fields = reader_text::split_fields(*first);
    if (fields[0].text != "version" || fields.size() != 2) {
      fail(file_name, lines.line_number(), 1,
           "expected 'version 1' as the first line of a scenario, found " + quote(*first));
    }
    const std::optional<double> version = parse_finite(fields[1].text);
    if (!version || *version != 1.0) {
      fail(file_name, lines.line_number(), fields[1].column,
           "unsupported scenario version " + quote(fields[1].text) + " (supported: 1)");
    }
  }

  const CellMap* cells = scene.cell_map ? &*scene.cell_map : nullptr;
  std::vector<Query> queries;
  while (const auto line = lines.next()) {
    const int n = lines.line_number();
    auto fields = reader_text::split_fields(*line);
    if (fields.empty()) continue;
    if (fields.size() != 9 && fields.size() != 10) {
      fail(file_name, n, 1,
           "expected 9 columns (bucket map width height start_x start_y goal_x goal_y "
           "optimal_length) and optionally a 10th, the agent radius; found " +
               std::to_string(fields.size()) + " in " + quote(tabs_to_spaces(*line)));
    }
    const ScenarioRow row(file_name, n, std::move(fields));
    row.integer(0, "the bucket");
    const long long map_width = row.integer(2, "the map width");
    const long long map_height = row.integer(3, "the map height");

    Query query;
    query.name = std::to_string(n);
    query.where = {file_name, n, 1, {}};  // the record starts the line
    if (cells) {
      if (map_width != cells->width || map_height != cells->height) {
        fail(file_name, n, row.field(2).column,
             "the scenario is for a " + std::to_string(map_width) + " x " +
                 std::to_string(map_height) + " map but " + quote(scene.name) + " is " +
                 std::to_string(cells->width) + " x " + std::to_string(cells->height));
      }
      const auto cell_point = [&](std::size_t ix, const char* role) {
        const std::string x_name = std::string(role) + "_x";
        const std::string y_name = std::string(role) + "_y";
        const int cx = row.cell(ix, x_name.c_str(), cells->width, "width");
        const int cy = row.cell(ix + 1, y_name.c_str(), cells->height, "height");
        if (cells->is_blocked(cx, cy)) {
          fail(file_name, n, row.field(ix).column,
               "the " + std::string(role) + " cell (" + std::to_string(cx) + ", " +
                   std::to_string(cy) + ") is blocked in " + quote(scene.name));
        }
        return points == ScenarioPoints::corners ? cells->cell_corner(cx, cy)
                                                 : cells->cell_centre(cx, cy);
      };
      query.start = cell_point(4, "start");
      query.goal = cell_point(6, "goal");
    } else {
      // Points in the scene's own coordinates, unchanged: a mesh's `.scen` uses the mesh's axes.
      query.start = {row.number(4, "start_x"), row.number(5, "start_y")};
      query.goal = {row.number(6, "goal_x"), row.number(7, "goal_y")};
    }
    // A negative length (-1 in several published files) means "unknown".
    const double length = row.number(8, "optimal_length");
    if (length >= 0) {
      query.reference_length = length;
      // Files round to a fixed number of decimals ("27.00" in older ones) or of significant
      // digits; what a comparison may allow follows the digits this row wrote.
      const std::string_view written = row.field(8).text;
      const std::size_t point = written.find('.');
      if (point != std::string_view::npos && written.find_first_of("eE") == std::string_view::npos)
        query.reference_rounding = 0.5 * std::pow(10.0, -double(written.size() - point - 1));
    }
    // polynav's own extension: a 10th column gives the agent radius of that query.
    if (row.size() == 10) {
      query.radius = row.number(9, "the agent radius");
      if (*query.radius < 0) row.bad(9, "the agent radius must be >= 0");
    }
    queries.push_back(std::move(query));
  }
  // Kept for the whole run: without the room the vector grew into (up to as much again).
  queries.shrink_to_fit();
  return queries;
}

std::vector<Query> load_scenario(const std::filesystem::path& path, const Scene& scene,
                                 ScenarioPoints points) {
  return parse_scenario(reader_text::read_file(path, max_scenario_file_bytes), path.string(), scene,
                        points);
}

}  // namespace polynav
