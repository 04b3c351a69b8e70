// The native scene format (docs/scene-format.md), YAML or JSON.
//
// JSON is read by the same YAML parser (yaml-cpp; JSON is YAML 1.2 flow syntax) rather than by a
// JSON library because the loader needs, for every value, the line and column it came from, and
// needs to see duplicate keys so that nothing a user wrote is silently dropped. yaml-cpp reports
// a mark for every value and every map entry in order; the JSON parsers at hand report positions
// only for syntax errors and keep one value per key. One parser also means one validation path,
// so a YAML scene and its JSON twin cannot be judged differently. YAML's flow syntax also takes
// what JSON does not (comments, trailing commas, single quotes, bare words), so the text of a
// `.json` file is first checked to be strict JSON (strict_json.cpp).
//
// The document is built from yaml-cpp's parser events into a compact tree of our own rather
// than into YAML::Node: a node costs 20 bytes instead of several hundred, aliases cannot form
// cycles, and the parser is never asked for more than the one document a scene is (yaml-cpp
// 0.7's LoadAll can produce empty documents forever after stray closing brackets).

#include <yaml-cpp/depthguard.h>
#include <yaml-cpp/eventhandler.h>
#include <yaml-cpp/exceptions.h>
#include <yaml-cpp/mark.h>
#include <yaml-cpp/parser.h>

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <filesystem>
#include <initializer_list>
#include <istream>
#include <streambuf>
#include <string>
#include <string_view>
#include <system_error>
#include <vector>

#include "polynav/scene/scene.hpp"
#include "strict_json.hpp"
#include "validate.hpp"

namespace polynav {
namespace {

using Keys = std::initializer_list<std::string_view>;

// ---------------------------------------------------------------------------------------------
// The document tree.

using NodeId = std::uint32_t;

enum class Kind : std::uint8_t { null, scalar, sequence, map };
// How a scalar was written: plain (a number, a word), quoted (always a string), or with an
// explicit tag other than !!int and !!float.
enum class Style : std::uint8_t { plain, quoted, tagged };

struct Node {
  Kind kind = Kind::null;
  Style style = Style::plain;
  int line = 0;  // 1-based
  int column = 0;
  // A scalar's text is chars[first, first + count); a container's entries are
  // children[first, first + count), a map's as key, value, key, value, ...
  std::uint32_t first = 0;
  std::uint32_t count = 0;
};

struct Document {
  std::vector<Node> nodes;
  std::vector<NodeId> children;
  std::string chars;
  NodeId root = 0;

  const Node& operator[](NodeId id) const { return nodes[id]; }
  std::string_view text(NodeId id) const {
    return std::string_view(chars).substr(nodes[id].first, nodes[id].count);
  }
  std::size_t size(NodeId id) const { return nodes[id].count; }
  NodeId child(NodeId id, std::size_t i) const { return children[nodes[id].first + i]; }
};

// Thrown out of the parser to stop it; carries what the reader reports.
struct ParseStop {
  int line;
  int column;
  std::string message;
};

// Builds a Document from one YAML document's events.
class TreeBuilder : public YAML::EventHandler {
 public:
  explicit TreeBuilder(Document& doc) : doc_(doc) {}

  bool empty() const { return !has_root_; }

  void OnDocumentStart(const YAML::Mark&) override {}
  void OnDocumentEnd() override {}

  void OnNull(const YAML::Mark& mark, YAML::anchor_t anchor) override {
    finish(add(Kind::null, Style::plain, mark), anchor);
  }
  void OnAlias(const YAML::Mark& mark, YAML::anchor_t anchor) override {
    // An alias to a node still being read would make the tree a cycle.
    if (anchor >= anchors_.size() || anchors_[anchor] == open) {
      throw ParseStop{mark.line + 1, mark.column + 1,
                      "an alias may not refer to a list or map that contains it"};
    }
    attach(anchors_[anchor]);
  }
  void OnScalar(const YAML::Mark& mark, const std::string& tag, YAML::anchor_t anchor,
                const std::string& value) override {
    const Style style = tag == "?"   ? Style::plain
                        : tag == "!" ? Style::quoted
                        : tag == "tag:yaml.org,2002:int" || tag == "tag:yaml.org,2002:float"
                            ? Style::plain
                            : Style::tagged;
    const NodeId id = add(Kind::scalar, style, mark);
    doc_.nodes[id].first = static_cast<std::uint32_t>(doc_.chars.size());
    doc_.nodes[id].count = static_cast<std::uint32_t>(value.size());
    doc_.chars += value;
    finish(id, anchor);
  }
  void OnSequenceStart(const YAML::Mark& mark, const std::string&, YAML::anchor_t anchor,
                       YAML::EmitterStyle::value) override {
    open_container(Kind::sequence, mark, anchor);
  }
  void OnSequenceEnd() override { close_container(); }
  void OnMapStart(const YAML::Mark& mark, const std::string&, YAML::anchor_t anchor,
                  YAML::EmitterStyle::value) override {
    open_container(Kind::map, mark, anchor);
  }
  void OnMapEnd() override { close_container(); }

 private:
  static constexpr NodeId open = ~NodeId{0};

  struct Frame {
    NodeId node;
    std::size_t first_pending;
    YAML::anchor_t anchor;
  };

  NodeId add(Kind kind, Style style, const YAML::Mark& mark) {
    if (doc_.nodes.size() >= open - 1) {
      throw ParseStop{mark.line + 1, mark.column + 1, "the document has too many values"};
    }
    const auto id = static_cast<NodeId>(doc_.nodes.size());
    doc_.nodes.push_back({kind, style, mark.line + 1, mark.column + 1, 0, 0});
    return id;
  }
  void attach(NodeId id) {
    if (stack_.empty()) {
      doc_.root = id;
      has_root_ = true;
    } else {
      pending_.push_back(id);
    }
  }
  void finish(NodeId id, YAML::anchor_t anchor) {
    if (anchor != YAML::NullAnchor) name_anchor(anchor, id);
    attach(id);
  }
  void name_anchor(YAML::anchor_t anchor, NodeId id) {
    if (anchor >= anchors_.size()) anchors_.resize(anchor + 1, open);
    anchors_[anchor] = id;
  }
  void open_container(Kind kind, const YAML::Mark& mark, YAML::anchor_t anchor) {
    const NodeId id = add(kind, Style::plain, mark);
    if (anchor != YAML::NullAnchor) name_anchor(anchor, open);
    stack_.push_back({id, pending_.size(), anchor});
  }
  void close_container() {
    const Frame f = stack_.back();
    stack_.pop_back();
    Node& n = doc_.nodes[f.node];
    n.first = static_cast<std::uint32_t>(doc_.children.size());
    n.count = static_cast<std::uint32_t>(pending_.size() - f.first_pending);
    doc_.children.insert(doc_.children.end(), pending_.begin() + std::ptrdiff_t(f.first_pending),
                         pending_.end());
    pending_.resize(f.first_pending);
    finish(f.node, f.anchor);
  }

  Document& doc_;
  std::vector<Frame> stack_;
  std::vector<NodeId> pending_;
  std::vector<NodeId> anchors_;
  bool has_root_ = false;
};

// Stops the parser at the start of a second document.
class SecondDocument : public YAML::EventHandler {
 public:
  void OnDocumentStart(const YAML::Mark& mark) override {
    throw ParseStop{mark.line + 1, mark.column + 1, ""};
  }
  void OnDocumentEnd() override {}
  void OnNull(const YAML::Mark&, YAML::anchor_t) override {}
  void OnAlias(const YAML::Mark&, YAML::anchor_t) override {}
  void OnScalar(const YAML::Mark&, const std::string&, YAML::anchor_t,
                const std::string&) override {}
  void OnSequenceStart(const YAML::Mark&, const std::string&, YAML::anchor_t,
                       YAML::EmitterStyle::value) override {}
  void OnSequenceEnd() override {}
  void OnMapStart(const YAML::Mark&, const std::string&, YAML::anchor_t,
                  YAML::EmitterStyle::value) override {}
  void OnMapEnd() override {}
};

// Lets yaml-cpp read the text in place.
class ViewBuffer : public std::streambuf {
 public:
  explicit ViewBuffer(std::string_view text) {
    char* p = const_cast<char*>(text.data());
    setg(p, p, p + text.size());
  }
};

// ---------------------------------------------------------------------------------------------
// Text helpers for messages.

std::string lower(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

// Messages stay on one line and short whatever the user wrote.
void append_one_line(std::string& out, std::string_view s, std::size_t limit) {
  for (const char c : s) {
    if (out.size() >= limit) return;
    if (c == '\n') {
      out += "\\n";
    } else if (c == '\t') {
      out += "\\t";
    } else if (static_cast<unsigned char>(c) < 0x20) {
      out += '?';
    } else {
      out += c;
    }
  }
}

// A value in compact flow notation, truncated with "..." past about `limit` characters.
void describe_into(std::string& out, const Document& doc, NodeId id, std::size_t limit) {
  if (out.size() >= limit) return;
  const Node& n = doc[id];
  switch (n.kind) {
    case Kind::scalar:
      if (n.style == Style::quoted) out += '"';
      append_one_line(out, doc.text(id), limit);
      if (n.style == Style::quoted) out += '"';
      return;
    case Kind::sequence:
    case Kind::map: {
      const bool map = n.kind == Kind::map;
      out += map ? '{' : '[';
      for (std::size_t i = 0; i < n.count; ++i) {
        if (i > 0) out += map && i % 2 == 1 ? ": " : ", ";
        if (out.size() >= limit) break;
        describe_into(out, doc, doc.child(id, i), limit);
      }
      out += map ? '}' : ']';
      return;
    }
    case Kind::null:
      out += "null";
      return;
  }
}

std::string describe(const Document& doc, NodeId id) {
  constexpr std::size_t limit = 60;
  std::string s;
  describe_into(s, doc, id, limit);
  if (s.size() >= limit) {
    s.resize(limit);
    s += "...";
  }
  return s;
}

// What a value is, for "expected X, got Y" messages.
std::string kind_of(const Document& doc, NodeId id) {
  switch (doc[id].kind) {
    case Kind::scalar:
      return doc[id].style == Style::quoted ? "the string " + describe(doc, id) : describe(doc, id);
    case Kind::sequence:
      return "a list " + describe(doc, id);
    case Kind::map:
      return "a map " + describe(doc, id);
    case Kind::null:
      break;
  }
  return "nothing (null)";
}

// The allowed key a mistyped one most likely meant, or "" when none is close.
std::string_view suggest(std::string_view key, Keys allowed) {
  return closest_name(lower(key),
                      std::span<const std::string_view>(allowed.begin(), allowed.size()));
}

std::string join(Keys keys) {
  std::string s;
  for (const std::string_view k : keys) {
    if (!s.empty()) s += ", ";
    s += k;
  }
  return s;
}

// ---------------------------------------------------------------------------------------------
// Numbers. The YAML core schema would also read "0x1A", ".inf" or a quoted "5" as numbers;
// scene coordinates are plain decimal numbers, so anything else is reported rather than guessed.

enum class NumberText { decimal, non_finite, other };

NumberText classify_decimal(std::string_view s) {
  // [-+]? ( \.[0-9]+ | [0-9]+ ( \.[0-9]* )? ) ( [eE] [-+]? [0-9]+ )?
  std::size_t i = 0;
  const auto digits = [&] {
    const std::size_t from = i;
    while (i < s.size() && s[i] >= '0' && s[i] <= '9') ++i;
    return i - from;
  };
  if (i < s.size() && (s[i] == '-' || s[i] == '+')) ++i;
  std::size_t mantissa = digits();
  if (i < s.size() && s[i] == '.') {
    ++i;
    mantissa += digits();
  }
  if (mantissa == 0) return NumberText::other;
  if (i < s.size() && (s[i] == 'e' || s[i] == 'E')) {
    ++i;
    if (i < s.size() && (s[i] == '-' || s[i] == '+')) ++i;
    if (digits() == 0) return NumberText::other;
  }
  return i == s.size() ? NumberText::decimal : NumberText::other;
}

NumberText classify_number(std::string_view s) {
  if (classify_decimal(s) == NumberText::decimal) return NumberText::decimal;
  static constexpr std::string_view non_finite[] = {
      ".inf",      "+.inf",     "-.inf", "inf", "+inf", "-inf", "infinity",
      "+infinity", "-infinity", ".nan",  "nan", "+nan", "-nan"};
  const std::string l = lower(s);
  return std::find(std::begin(non_finite), std::end(non_finite), l) != std::end(non_finite)
             ? NumberText::non_finite
             : NumberText::other;
}

// ---------------------------------------------------------------------------------------------

// A value being read: the node, its key path, and where to point at it. Values left empty in a
// block map (`agent:`) carry the position of whatever follows them, so those point at their key.
struct Item {
  NodeId node;
  std::string path;
  int line;
  int column;
};

struct Entry {
  std::string_view key;
  NodeId key_node;
  NodeId value;
};

// The entries of one map, in order, each key at most once.
struct Fields {
  Item item;
  std::vector<Entry> entries;

  const Entry* find(std::string_view key) const {
    for (const Entry& e : entries) {
      if (e.key == key) return &e;
    }
    return nullptr;
  }
};

class NativeReader {
 public:
  NativeReader(const Document& doc, std::string file) : doc_(doc), file_(std::move(file)) {}

  Scene read();

 private:
  [[noreturn]] void fail(const Item& item, const std::string& message) const {
    throw InputError(at(item), message);
  }
  InputLocation at(const Item& item) const { return {file_, item.line, item.column, item.path}; }
  Item item(NodeId id, std::string path) const {
    return {id, std::move(path), doc_[id].line, doc_[id].column};
  }
  Item child(const Fields& fields, const Entry& e) const {
    std::string key;
    append_one_line(key, e.key, 100);
    const std::string path = fields.item.path.empty() ? key : fields.item.path + "." + key;
    const NodeId at_node = doc_[e.value].kind == Kind::null ? e.key_node : e.value;
    return {e.value, path, doc_[at_node].line, doc_[at_node].column};
  }
  Item element(const Item& list, NodeId id, std::size_t i) const {
    return item(id, list.path + "[" + std::to_string(i) + "]");
  }
  std::string describe(NodeId id) const { return polynav::describe(doc_, id); }
  std::string kind_of(NodeId id) const { return polynav::kind_of(doc_, id); }
  Kind kind(NodeId id) const { return doc_[id].kind; }

  Fields collect(const Item& item, std::string_view what) const;
  void reject_unknown(const Fields& fields, Keys allowed) const;
  Fields fields(const Item& item, std::string_view what, Keys allowed) const {
    Fields f = collect(item, what);
    reject_unknown(f, allowed);
    return f;
  }
  Item required(const Fields& fields, std::string_view key, std::string_view what) const;
  // The items of an optional list; null counts as an empty list.
  std::vector<Item> list(const Item& item, std::string_view what) const;

  double number(const Item& item, std::string_view what) const;
  double finite(const Item& item, std::string_view what) const;
  std::string text(const Item& item) const;
  // Reads a point. `where` makes the point's Item and is called only to report a problem:
  // naming every point of a large ring up front would cost more than reading it.
  template <class Where>
  Point point(NodeId id, const Where& where);
  Point point(const Item& item) {
    return point(item.node, [&] { return item; });
  }
  detail::RawRing ring(const Item& item);

  void read_version(const Fields& top) const;
  void read_agent(const Item& item, Agent& agent) const;
  // Obstacles and regions as read, before their geometry is checked: every value in the file is
  // read (and the point limit enforced) before the slower geometric checks run.
  struct RawObstacle {
    detail::RawRing outer;
    std::vector<detail::RawRing> holes;
    InputLocation where;
  };
  struct RawRegion {
    Region region;
    detail::RawRing polygon;
  };
  RawObstacle read_obstacle(const Item& item);
  RawRegion read_region(const Item& item);
  Query read_query(const Item& item);

  const Document& doc_;
  std::string file_;
  std::size_t points_ = 0;
};

Fields NativeReader::collect(const Item& item, std::string_view what) const {
  if (kind(item.node) != Kind::map) {
    fail(item, "expected " + std::string(what) + ", got " + kind_of(item.node));
  }
  Fields f{item, {}};
  for (std::size_t i = 0; i + 1 < doc_.size(item.node); i += 2) {
    const NodeId key = doc_.child(item.node, i);
    if (kind(key) != Kind::scalar) {
      fail({key, item.path, doc_[key].line, doc_[key].column},
           "a key must be a plain name, got " + kind_of(key));
    }
    const Entry e{doc_.text(key), key, doc_.child(item.node, i + 1)};
    if (const Entry* first = f.find(e.key)) {
      const Node& k = doc_[first->key_node];
      fail({key, child(f, e).path, doc_[key].line, doc_[key].column},
           "duplicate key \"" + std::string(e.key) + "\" (first given at " +
               std::to_string(k.line) + ":" + std::to_string(k.column) +
               "); each key may appear once");
    }
    f.entries.push_back(e);
  }
  return f;
}

void NativeReader::reject_unknown(const Fields& fields, Keys allowed) const {
  for (const Entry& e : fields.entries) {
    if (std::find(allowed.begin(), allowed.end(), e.key) != allowed.end()) continue;
    std::string message = "unknown key \"";
    append_one_line(message, e.key, 200);
    message += "\"";
    if (const std::string_view s = suggest(e.key, allowed); !s.empty()) {
      message += " (did you mean \"" + std::string(s) + "\"?)";
    }
    message += "; the keys allowed here are " + join(allowed);
    fail({e.key_node, child(fields, e).path, doc_[e.key_node].line, doc_[e.key_node].column},
         message);
  }
}

Item NativeReader::required(const Fields& fields, std::string_view key,
                            std::string_view what) const {
  const Entry* e = fields.find(key);
  if (e == nullptr) {
    fail(fields.item,
         "missing required key \"" + std::string(key) + "\" (" + std::string(what) + ")");
  }
  return child(fields, *e);
}

std::vector<Item> NativeReader::list(const Item& item, std::string_view what) const {
  std::vector<Item> items;
  if (kind(item.node) == Kind::null) return items;
  if (kind(item.node) != Kind::sequence) {
    fail(item, "expected a list of " + std::string(what) + ", got " + kind_of(item.node));
  }
  items.reserve(doc_.size(item.node));
  for (std::size_t i = 0; i < doc_.size(item.node); ++i) {
    items.push_back(element(item, doc_.child(item.node, i), i));
  }
  return items;
}

double NativeReader::number(const Item& item, std::string_view what) const {
  const NodeId n = item.node;
  const std::string expected = "expected " + std::string(what) + " (a number), got ";
  if (kind(n) != Kind::scalar || doc_[n].style != Style::plain) fail(item, expected + kind_of(n));
  const std::string_view s = doc_.text(n);
  switch (classify_number(s)) {
    case NumberText::non_finite: {
      const std::string l = lower(s);
      if (l.find("nan") != std::string::npos) {
        fail(item, expected + describe(n) + " (not a number)");
      }
      return l.starts_with('-') ? -INFINITY : INFINITY;
    }
    case NumberText::other:
      fail(item, expected + describe(n));
    case NumberText::decimal:
      break;
  }
  // from_chars takes no leading '+' and never depends on the locale.
  const char* first = s.data() + (s.starts_with('+') ? 1 : 0);
  double value = 0.0;
  const auto r = std::from_chars(first, s.data() + s.size(), value);
  if (r.ec == std::errc::result_out_of_range) {
    fail(item, "expected " + std::string(what) + " to be a finite number, got " + describe(n) +
                   " (out of the range of a double)");
  }
  if (r.ec != std::errc() || r.ptr != s.data() + s.size()) fail(item, expected + describe(n));
  return value;
}

double NativeReader::finite(const Item& item, std::string_view what) const {
  const double v = number(item, what);
  if (!std::isfinite(v)) {
    fail(item,
         "expected " + std::string(what) + " to be a finite number, got " + describe(item.node));
  }
  return v;
}

std::string NativeReader::text(const Item& item) const {
  if (kind(item.node) == Kind::null) return {};
  if (kind(item.node) != Kind::scalar) fail(item, "expected a name, got " + kind_of(item.node));
  return std::string(doc_.text(item.node));
}

template <class Where>
Point NativeReader::point(NodeId n, const Where& where) {
  if (kind(n) != Kind::sequence) {
    fail(where(), "a point must be a list of two numbers [x, y], got " + kind_of(n));
  }
  if (doc_.size(n) != 2) {
    fail(where(), "a point must be two numbers [x, y], got " + std::to_string(doc_.size(n)) +
                      (doc_.size(n) == 1 ? " value: " : " values: ") + describe(n));
  }
  if (++points_ > detail::max_native_scene_points) {
    fail(where(), "the scene has more than " + std::to_string(detail::max_native_scene_points) +
                      " points, the most a native scene may have");
  }
  const auto coordinate = [&](std::size_t i, const char* name) {
    const NodeId c = doc_.child(n, i);
    if (kind(c) == Kind::scalar && doc_[c].style == Style::plain) {
      // The common case, read without building the names a message would need.
      const std::string_view t = doc_.text(c);
      if (classify_decimal(t) == NumberText::decimal) {
        double value = 0.0;
        const char* first = t.data() + (t.starts_with('+') ? 1 : 0);
        const auto r = std::from_chars(first, t.data() + t.size(), value);
        if (r.ec == std::errc() && r.ptr == t.data() + t.size()) return value;
      }
    }
    return finite({c, where().path, doc_[c].line, doc_[c].column},
                  std::string(name) + " of point " + describe(n));
  };
  return {coordinate(0, "x"), coordinate(1, "y")};
}

detail::RawRing NativeReader::ring(const Item& item) {
  const NodeId n = item.node;
  if (kind(n) != Kind::sequence) {
    fail(item, "expected a ring (a list of [x, y] points), got " + kind_of(n));
  }
  if (doc_.size(n) > 0 && kind(doc_.child(n, 0)) == Kind::scalar) {
    fail(item, "expected a ring (a list of [x, y] points), got " + kind_of(n) +
                   "; a ring needs another pair of brackets: [[x, y], [x, y], ...]");
  }
  detail::RawRing r;
  r.where = at(item);
  r.points.reserve(doc_.size(n));
  for (std::size_t i = 0; i < doc_.size(n); ++i) {
    const NodeId p = doc_.child(n, i);
    r.points.push_back(point(p, [&] { return element(item, p, i); }));
  }
  return r;
}

void NativeReader::read_version(const Fields& top) const {
  constexpr int supported = 1;
  const Entry* e = top.find("version");
  if (e == nullptr) {
    std::string message = "missing required key \"version\" (the supported version is " +
                          std::to_string(supported) + ")";
    if (top.find("image") != nullptr && top.find("resolution") != nullptr) {
      message += "; this looks like a ROS map_server map, which is not supported yet";
    }
    fail(top.item, message);
  }
  const Item v = child(top, *e);
  const double version = number(v, "the format version");
  if (version != supported) {
    fail(v, "unsupported version " + describe(v.node) + "; the supported version is " +
                std::to_string(supported));
  }
}

void NativeReader::read_agent(const Item& item, Agent& agent) const {
  if (kind(item.node) == Kind::null) return;
  const Fields f = fields(item, "a map with radius: and max_climb:", {"radius", "max_climb"});
  if (const Entry* e = f.find("radius")) {
    const Item r = child(f, *e);
    agent.radius = finite(r, "the radius");
    if (agent.radius < 0) fail(r, "radius must be >= 0, got " + describe(r.node));
  }
  if (const Entry* e = f.find("max_climb")) {
    const Item c = child(f, *e);
    agent.max_climb = number(c, "the largest climb");
    if (agent.max_climb < 0) {
      fail(c, "max_climb must be >= 0 (.inf for no limit), got " + describe(c.node));
    }
  }
}

NativeReader::RawObstacle NativeReader::read_obstacle(const Item& item) {
  if (kind(item.node) == Kind::sequence) return {ring(item), {}, at(item)};
  if (kind(item.node) != Kind::map) {
    fail(item, "an obstacle must be a ring [[x, y], ...] or a map with outer: and holes:, got " +
                   kind_of(item.node));
  }
  const Fields f = fields(item, "an obstacle", {"outer", "holes"});
  RawObstacle o{ring(required(f, "outer", "the obstacle's outer ring")), {}, at(item)};
  if (const Entry* e = f.find("holes")) {
    for (const Item& h : list(child(f, *e), "holes (rings)")) o.holes.push_back(ring(h));
  }
  return o;
}

NativeReader::RawRegion NativeReader::read_region(const Item& item) {
  const Fields f = fields(item, "a region (a map with cost: and polygon:)",
                          {"name", "cost", "height", "polygon"});
  RawRegion r;
  r.region.where = at(item);
  if (const Entry* e = f.find("name")) r.region.name = text(child(f, *e));
  const Item cost = required(f, "cost", "the multiplier of length, > 0");
  r.region.cost = finite(cost, "the cost");
  if (!(r.region.cost > 0)) fail(cost, "cost must be > 0, got " + describe(cost.node));
  if (const Entry* e = f.find("height")) r.region.height = finite(child(f, *e), "the height");
  r.polygon = ring(required(f, "polygon", "the region's ring"));
  return r;
}

Query NativeReader::read_query(const Item& item) {
  const Fields f = fields(item, "a query (a map with start: and goal:)", {"name", "start", "goal"});
  Query q;
  q.where = at(item);
  if (const Entry* e = f.find("name")) q.name = text(child(f, *e));
  q.start = point(required(f, "start", "the start point [x, y]"));
  q.goal = point(required(f, "goal", "the goal point [x, y]"));
  return q;
}

Scene NativeReader::read() {
  const Keys top_keys = {"version", "name", "bounds", "agent", "obstacles", "regions", "queries"};
  const Item root = item(doc_.root, "");
  if (kind(root.node) != Kind::map) {
    fail(root,
         "a scene must be a map with version:, bounds: and optional name:, agent:, "
         "obstacles:, regions:, queries:, got " +
             kind_of(root.node));
  }
  const Fields top = collect(root, "a scene");
  // The version first: a newer file should be told it is newer, not that its keys are unknown.
  read_version(top);
  reject_unknown(top, top_keys);

  Scene scene;
  if (const Entry* e = top.find("name")) scene.name = text(child(top, *e));
  const detail::RawRing bounds =
      ring(required(top, "bounds", "the outer boundary, a ring of [x, y] points"));
  if (const Entry* e = top.find("agent")) read_agent(child(top, *e), scene.agent);
  std::vector<RawObstacle> obstacles;
  if (const Entry* e = top.find("obstacles")) {
    for (const Item& o : list(child(top, *e), "obstacles")) obstacles.push_back(read_obstacle(o));
  }
  std::vector<RawRegion> regions;
  if (const Entry* e = top.find("regions")) {
    for (const Item& r : list(child(top, *e), "regions")) regions.push_back(read_region(r));
  }
  if (const Entry* e = top.find("queries")) {
    const std::vector<Item> items = list(child(top, *e), "queries");
    for (std::size_t i = 0; i < items.size(); ++i) {
      Query q = read_query(items[i]);
      // Queries are picked by name, so a repeated name would make one unreachable.
      for (std::size_t j = 0; j < i && !q.name.empty(); ++j) {
        if (scene.queries[j].name == q.name) {
          fail(items[i], "duplicate query name \"" + q.name + "\" (also queries[" +
                             std::to_string(j) + "] at " +
                             std::to_string(scene.queries[j].where.line) + ":" +
                             std::to_string(scene.queries[j].where.column) + ")");
        }
      }
      scene.queries.push_back(std::move(q));
    }
  }

  scene.bounds = detail::checked_ring(bounds);
  for (RawObstacle& o : obstacles) {
    Obstacle obstacle;
    obstacle.where = std::move(o.where);
    obstacle.shape = detail::checked_polygon(o.outer, o.holes);
    scene.obstacles.push_back(std::move(obstacle));
  }
  for (RawRegion& r : regions) {
    r.region.polygon = detail::checked_ring(r.polygon);
    scene.regions.push_back(std::move(r.region));
  }
  return scene;
}

// yaml-cpp reads \u escapes one at a time and rejects the UTF-16 surrogate pairs JSON uses for
// characters outside the basic plane ("\ud83d\ude00"). Inside JSON strings each such pair becomes
// the equivalent YAML escape ("\U0001F600"), and the two characters saved are put back as spaces
// after the string's closing quote so that every later column on the line stays where it was.
std::string rewrite_json_surrogates(std::string_view text) {
  const auto hex4 = [&](std::size_t at, unsigned& value) {
    if (at + 6 > text.size() || text[at] != '\\' || text[at + 1] != 'u') return false;
    value = 0;
    for (std::size_t k = at + 2; k < at + 6; ++k) {
      const char c = text[k];
      unsigned d = 0;
      if (c >= '0' && c <= '9') {
        d = static_cast<unsigned>(c - '0');
      } else if (c >= 'a' && c <= 'f') {
        d = static_cast<unsigned>(c - 'a' + 10);
      } else if (c >= 'A' && c <= 'F') {
        d = static_cast<unsigned>(c - 'A' + 10);
      } else {
        return false;
      }
      value = value * 16 + d;
    }
    return true;
  };
  std::string out;
  out.reserve(text.size());
  bool in_string = false;
  std::size_t saved = 0;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (!in_string) {
      out += c;
      in_string = c == '"';
      continue;
    }
    unsigned high = 0;
    unsigned low = 0;
    if (c == '\\' && hex4(i, high) && high >= 0xD800 && high <= 0xDBFF && hex4(i + 6, low) &&
        low >= 0xDC00 && low <= 0xDFFF) {
      const unsigned code = 0x10000 + ((high - 0xD800) << 10) + (low - 0xDC00);
      char buf[16];
      const auto r = std::to_chars(buf, buf + sizeof buf, code, 16);
      out += "\\U" + std::string(8 - static_cast<std::size_t>(r.ptr - buf), '0') +
             std::string(buf, r.ptr);
      saved += 2;
      i += 11;
    } else if (c == '\\') {
      out += c;
      if (i + 1 < text.size()) out += text[++i];
    } else {
      out += c;
      if (c == '"') {
        in_string = false;
        out.append(saved, ' ');
        saved = 0;
      }
    }
  }
  return out;
}

// yaml-cpp's messages for a tab in indentation ("illegal map value") do not say so.
std::string tab_hint(std::string_view text, int line) {
  std::size_t from = 0;
  for (int i = 0; i < line && from != std::string_view::npos; ++i) {
    from = text.find('\n', from);
    if (from != std::string_view::npos) ++from;
  }
  if (from == std::string_view::npos) return {};
  for (std::size_t i = from; i < text.size() && (text[i] == ' ' || text[i] == '\t'); ++i) {
    if (text[i] == '\t') return " (the line is indented with a tab; YAML indents with spaces)";
  }
  return {};
}

bool ends_with_json(const std::string& name) {
  return lower(name).ends_with(".json");
}

// The tree of the one document in `text`; a document whose root is null when there is none.
Document parse_document(std::string_view text, const std::string& source_name) {
  Document doc;
  doc.nodes.push_back({});  // the root of an empty file: null
  ViewBuffer buffer(text);
  std::istream in(&buffer);
  try {
    YAML::Parser parser(in);
    TreeBuilder builder(doc);
    if (!parser.HandleNextDocument(builder) || builder.empty()) return doc;
    SecondDocument second;
    parser.HandleNextDocument(second);
  } catch (const ParseStop& stop) {
    throw InputError({source_name, stop.line, stop.column, ""},
                     stop.message.empty()
                         ? "the file goes on after the scene has ended: a second YAML document "
                           "or stray text starts here; a scene is exactly one document"
                         : stop.message);
  } catch (const YAML::DeepRecursion& e) {
    throw InputError({source_name, e.mark.line + 1, e.mark.column + 1, ""},
                     "syntax error: lists and maps are nested too deeply");
  } catch (const YAML::Exception& e) {
    const bool has_mark = !e.mark.is_null();
    throw InputError(
        {source_name, has_mark ? e.mark.line + 1 : 0, has_mark ? e.mark.column + 1 : 0, ""},
        "syntax error: " + e.msg + (has_mark ? tab_hint(text, e.mark.line) : std::string()));
  }
  return doc;
}

}  // namespace

Scene parse_native_scene(std::string_view text, const std::string& source_name) {
  if (text.size() > detail::max_native_scene_bytes) {
    throw InputError({source_name, 0, 0, ""},
                     "the scene is " + std::to_string(text.size() >> 20) +
                         " MiB; native scenes may be at most " +
                         std::to_string(detail::max_native_scene_bytes >> 20) + " MiB");
  }
  const bool json = ends_with_json(source_name);
  if (json) detail::check_strict_json(text, source_name);
  const bool rewrite = json && text.find("\\u") != std::string_view::npos;
  const Document doc = rewrite ? parse_document(rewrite_json_surrogates(text), source_name)
                               : parse_document(text, source_name);
  if (doc[doc.root].kind == Kind::null) {
    throw InputError({source_name, 0, 0, ""},
                     "the scene is empty; a scene is a map with at least version: and bounds:");
  }
  Scene scene = NativeReader(doc, source_name).read();
  if (scene.name.empty()) scene.name = std::filesystem::path(source_name).stem().string();
  return scene;
}

}  // namespace polynav
