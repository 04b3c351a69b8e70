#pragma once
// Readers for the non-native scene formats that define free space directly: MovingAI grid maps
// and Polyanya navigation meshes. load_scene() dispatches to them by extension; the `parse_*`
// forms take the text itself so tests can feed small hand-made inputs.

#include <cstddef>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "polynav/scene/scene.hpp"

namespace polynav {

// Largest MovingAI map accepted, in cells (8192 x 8192). Checked before anything is allocated.
inline constexpr long long max_movingai_cells = 1LL << 26;
// Largest files read: a map of the largest size with one-cell rows and CRLF endings fits, and
// so do meshes of tens of millions of polygons.
inline constexpr std::size_t max_map_file_bytes = std::size_t{256} << 20;
inline constexpr std::size_t max_mesh_file_bytes = std::size_t{1} << 30;
inline constexpr std::size_t max_scenario_file_bytes = std::size_t{256} << 20;

// Reads a MovingAI `.map` (format: https://movingai.com/benchmarks/formats.html): a header of
// `type octile`, `height H`, `width W`, `map`, then H rows of W characters. `.`, `G` and `S` are
// free; `@`, `O`, `T` and `W` are blocked. Cell (cx, cy), counted from the top-left with y growing
// downwards, becomes the unit square [cx, cx+1] x [H-cy-1, H-cy] (y up). The scene has a CellMap,
// bounds [0,W] x [0,H], one rectangle obstacle per maximal horizontal run of blocked cells, and
// free_boundary traced along cell sides (free cells that touch only at a corner are not connected).
Scene read_movingai_map(const std::filesystem::path& path);
Scene parse_movingai_map(std::string_view text, const std::string& file_name);

// Reads a Polyanya navigation mesh (`.mesh`, versions 1 and 2 as in FORMAT-mesh-v2.txt of the
// Polyanya repository, and version 3 as in FORMAT-mesh-v3.txt). Free space is the union of the
// faces (version 3: the traversable ones); the scene has no obstacles, bounds = the bounding box
// of the vertices, and free_boundary = the boundary of the union, in which a version 3
// constrained edge between two traversable faces is a wall traced along and back. Coordinates
// are kept exactly as written (y is not flipped), so `.scen` points for the mesh apply unchanged.
// Faces are taken to be convex as the format says; refused with file:line:column are bad counts
// and indices, non-finite numbers, faces visiting a vertex twice, traversable faces that are not
// simple polygons (edges crossing or touching), faces overlapping along an edge,
// T-junctions (a vertex inside another face's boundary edge) and, in version 3, traversable flags
// other than 0 or 1 and neighbour entries that do not match the faces' shared edges. O(E log E)
// for E face edges. Messages number vertices and faces as the file does (from 0, version 3 from
// 1).
Scene read_polyanya_mesh(const std::filesystem::path& path);
Scene parse_polyanya_mesh(std::string_view text, const std::string& file_name);

// The text form of load_scenario(); `file_name` is used in messages and query locations. Each
// query is named by its line number. On a cell map, width and height must match the map and start
// and goal cells must be free; elsewhere coordinates are points used as written, in the scene's
// own axes. A negative column 9 (-1 in several published files) means no reference length.
std::vector<Query> parse_scenario(std::string_view text, const std::string& file_name,
                                  const Scene& scene,
                                  ScenarioPoints points = ScenarioPoints::centres);

// Small text utilities shared by the line-oriented readers above.
namespace reader_text {

// The whole content of a file of at most `max_bytes`; throws InputError naming the file when it
// cannot be read or is larger (checked before reading when the size is known).
std::string read_file(const std::filesystem::path& path, std::size_t max_bytes);

// Whitespace between fields: space, tab, the line endings, vertical tab and form feed.
inline bool is_space(char c) {
  return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f';
}

// A whitespace-separated field of a line with its 1-based column.
struct Field {
  std::string_view text;
  int column = 0;
};

// Splits a line on spaces, tabs and carriage returns.
std::vector<Field> split_fields(std::string_view line);

// Iterates over the lines of a text, accepting `\n` and `\r\n` endings; numbers are 1-based.
class LineReader {
 public:
  explicit LineReader(std::string_view text) : text_(text) {}
  // The next line without its ending, or nothing at the end of the text.
  std::optional<std::string_view> next();
  // The number of the line last returned (0 before the first).
  int line_number() const { return line_; }

 private:
  std::string_view text_;
  std::size_t pos_ = 0;
  int line_ = 0;
};

// True when the line holds only whitespace.
bool is_blank(std::string_view line);

// The whole field as an integer, or nothing (also on overflow).
std::optional<long long> parse_integer(std::string_view s);
// Numbers: polynav::parse_number (polynav/number.hpp).

// A field quoted for a message: 'abc', cut after about 40 bytes ('...'), written by one_line
// (polynav/text.hpp): UTF-8 as it is, control characters and stray bytes escaped.
std::string quote(std::string_view s);

}  // namespace reader_text
}  // namespace polynav
