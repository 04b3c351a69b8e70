// The located document tree shared by the YAML and JSON readers (document.hpp); native.cpp says
// why it is built from yaml-cpp's parser events.

#include "document.hpp"

#include <yaml-cpp/depthguard.h>
#include <yaml-cpp/eventhandler.h>
#include <yaml-cpp/exceptions.h>
#include <yaml-cpp/mark.h>
#include <yaml-cpp/parser.h>

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <istream>
#include <span>
#include <streambuf>
#include <string>
#include <string_view>
#include <system_error>
#include <vector>

#include "polynav/number.hpp"
#include "polynav/text.hpp"
#include "strict_json.hpp"

namespace polynav::detail {

// ---------------------------------------------------------------------------------------------
// Text helpers for messages.

std::string lower(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

namespace {

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

// JSON texts are told apart by name: `.json` scenes and `.geojson` polygon files.
bool is_json_name(const std::string& name) {
  const std::string l = lower(name);
  return l.ends_with(".json") || l.ends_with(".geojson");
}

}  // namespace

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

Item DocumentReader::child(const Fields& fields, const Entry& e) const {
  std::string key;
  append_one_line(key, e.key, 100);
  const std::string path = fields.item.path.empty() ? key : fields.item.path + "." + key;
  const NodeId at_node = doc_[e.value].kind == Kind::null ? e.key_node : e.value;
  return {e.value, path, doc_[at_node].line, doc_[at_node].column};
}

Fields DocumentReader::collect(const Item& item, std::string_view what) const {
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

void DocumentReader::reject_unknown(const Fields& fields, Keys allowed) const {
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

Item DocumentReader::required(const Fields& fields, std::string_view key,
                              std::string_view what) const {
  const Entry* e = fields.find(key);
  if (e == nullptr) {
    fail(fields.item,
         "missing required key \"" + std::string(key) + "\" (" + std::string(what) + ")");
  }
  return child(fields, *e);
}

std::vector<Item> DocumentReader::list(const Item& item, std::string_view what) const {
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

double DocumentReader::number(const Item& item, std::string_view what) const {
  const NodeId n = item.node;
  const std::string expected = "expected " + std::string(what) + " (a number), got ";
  if (kind(n) != Kind::scalar || doc_[n].style != Style::plain) fail(item, expected + kind_of(n));
  // Plain decimal numbers only: the YAML core schema would also read "0x1A" or a quoted "5" as
  // numbers; those are reported rather than guessed.
  const ParsedNumber v = parse_number(doc_.text(n));
  switch (v.status) {
    case NumberStatus::finite:
    case NumberStatus::infinite:
      break;
    case NumberStatus::not_a_number:
      fail(item, expected + describe(n) + " (not a number)");
    case NumberStatus::out_of_range:
      fail(item, "expected " + std::string(what) + " to be a finite number, got " + describe(n) +
                     " (out of the range of a double)");
    case NumberStatus::malformed:
      fail(item, expected + describe(n));
  }
  return v.value;
}

double DocumentReader::finite(const Item& item, std::string_view what) const {
  const double v = number(item, what);
  if (!std::isfinite(v)) {
    fail(item,
         "expected " + std::string(what) + " to be a finite number, got " + describe(item.node));
  }
  return v;
}

std::string DocumentReader::text(const Item& item) const {
  if (kind(item.node) == Kind::null) return {};
  if (kind(item.node) != Kind::scalar) fail(item, "expected a name, got " + kind_of(item.node));
  const std::string_view t = doc_.text(item.node);
  // Names reach JSON, CSV and SVG output, which are UTF-8: refuse what cannot be written there.
  if (const std::size_t i = first_invalid_utf8(t); i != std::string_view::npos) {
    char hex[8];
    std::snprintf(hex, sizeof hex, "0x%02X", static_cast<unsigned char>(t[i]));
    fail(item, "the name is not valid UTF-8: byte " + std::string(hex) + " at offset " +
                   std::to_string(i) + " of the name");
  }
  return std::string(t);
}

namespace {

Document parse_tree(std::string_view text, const std::string& source_name, std::string_view what) {
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
    const std::string w(what);
    throw InputError({source_name, stop.line, stop.column, ""},
                     stop.message.empty()
                         ? "the file goes on after the " + w +
                               " has ended: a second YAML document or stray text starts here; a " +
                               w + " is exactly one document"
                         : stop.message);
  } catch (const YAML::DeepRecursion& e) {
    throw InputError({source_name, e.mark.line + 1, e.mark.column + 1, ""},
                     "syntax error: lists and maps are nested too deeply");
  } catch (const YAML::Exception& e) {
    const bool has_mark = !e.mark.is_null();
    // yaml-cpp's message may end with the character it objects to (an unknown escape), which
    // may be a line break or another control character.
    std::string message = "syntax error: ";
    append_one_line(message, e.msg, message.size() + 200);
    if (has_mark) message += tab_hint(text, e.mark.line);
    throw InputError(
        {source_name, has_mark ? e.mark.line + 1 : 0, has_mark ? e.mark.column + 1 : 0, ""},
        message);
  }
  return doc;
}

}  // namespace

Document parse_document(std::string_view text, const std::string& source_name,
                        std::string_view what) {
  const bool json = is_json_name(source_name);
  if (json) check_strict_json(text, source_name);
  // YAML allows no NUL byte, and yaml-cpp misreads one (as an escape, further on); it is a
  // syntax error at its own place, the character shown as yaml-cpp's complaints show one.
  if (const std::size_t nul = text.find('\0'); !json && nul != std::string_view::npos) {
    const TextPlace place = place_of(text, nul);
    std::string message = "syntax error: YAML text may not contain a NUL byte, found ";
    append_one_line(message, text.substr(nul, 1), message.size() + 4);
    throw InputError({source_name, place.line, place.column, ""}, message);
  }
  if (json && text.find("\\u") != std::string_view::npos) {
    return parse_tree(rewrite_json_surrogates(text), source_name, what);
  }
  return parse_tree(text, source_name, what);
}

}  // namespace polynav::detail
