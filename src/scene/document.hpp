#pragma once
// The located document tree that every YAML and JSON reader of the scene room shares: native
// scenes (native.cpp), ROS map_server map files (ros_map.cpp) and GeoJSON (geojson.cpp).
//
// The text is parsed by yaml-cpp (JSON is YAML 1.2 flow syntax; `.json` and `.geojson` texts are
// first checked to be strict JSON by strict_json.hpp) into a compact tree of our own in which
// every value keeps the line and column it came from, and every map keeps its entries in order,
// duplicates included, so that nothing a user wrote is silently dropped. native.cpp explains why
// the tree is built from parser events rather than through YAML::Node.
//
// DocumentReader holds what reading such a tree needs: key paths, "expected X, got Y" messages,
// unknown keys with a did-you-mean, duplicate keys, required keys and plain decimal numbers.

#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <string>
#include <string_view>
#include <vector>

#include "polynav/error.hpp"
#include "polynav/text.hpp"

namespace polynav::detail {

using Keys = std::initializer_list<std::string_view>;
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

// The tree of the one document in `text`; its root is null when the text holds none. A `.json`
// or `.geojson` name (any case) makes the text be checked as strict JSON first
// (check_strict_json), and JSON's surrogate-pair escapes are rewritten for yaml-cpp. `what`
// names the document in the message about text after its end ("scene", "map file").
// Throws InputError with line:column for syntax errors.
Document parse_document(std::string_view text, const std::string& source_name,
                        std::string_view what = "scene");

// Text helpers for messages.
std::string lower(std::string_view s);
// append_one_line (polynav/text.hpp): user text on one line in a message.
// A value in compact flow notation, shortened with "..." when long.
std::string describe(const Document& doc, NodeId id);
// What a value is, for "expected X, got Y" messages: `the string "a"`, `a list [1, 2]`, ...
std::string kind_of(const Document& doc, NodeId id);

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

// Reading a Document with located messages; the readers of each format derive from it.
class DocumentReader {
 public:
  DocumentReader(const Document& doc, std::string file) : doc_(doc), file_(std::move(file)) {}

 protected:
  [[noreturn]] void fail(const Item& item, const std::string& message) const {
    throw InputError(at(item), message);
  }
  InputLocation at(const Item& item) const { return {file_, item.line, item.column, item.path}; }
  Item item(NodeId id, std::string path) const {
    return {id, std::move(path), doc_[id].line, doc_[id].column};
  }
  Item root() const { return item(doc_.root, ""); }
  Item child(const Fields& fields, const Entry& e) const;
  Item element(const Item& list, NodeId id, std::size_t i) const {
    return item(id, list.path + "[" + std::to_string(i) + "]");
  }
  std::string describe(NodeId id) const { return detail::describe(doc_, id); }
  std::string kind_of(NodeId id) const { return detail::kind_of(doc_, id); }
  Kind kind(NodeId id) const { return doc_[id].kind; }

  // The entries of a map (`what` names it in the message when it is not one); a repeated key is
  // refused where it repeats.
  Fields collect(const Item& item, std::string_view what) const;
  // Refuses the first key not in `allowed`, with the closest allowed one as a suggestion.
  void reject_unknown(const Fields& fields, Keys allowed) const;
  Fields fields(const Item& item, std::string_view what, Keys allowed) const {
    Fields f = collect(item, what);
    reject_unknown(f, allowed);
    return f;
  }
  Item required(const Fields& fields, std::string_view key, std::string_view what) const;
  // The items of an optional list; null counts as an empty list.
  std::vector<Item> list(const Item& item, std::string_view what) const;

  // A plain decimal number (or .inf / -.inf; NaN is refused). `what` names it in messages.
  double number(const Item& item, std::string_view what) const;
  double finite(const Item& item, std::string_view what) const;
  // A scalar as text; null is "".
  std::string text(const Item& item) const;

  const Document& doc_;
  std::string file_;
};

}  // namespace polynav::detail
