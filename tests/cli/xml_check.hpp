#pragma once
// A small well-formedness check for the XML that polynav writes (SVG): the text is UTF-8 of XML
// characters only, elements nest and close, attribute values are quoted, `&` starts a known
// entity, there is one root element. Not a full XML parser: enough to catch broken output
// without a dependency.

#include <cctype>
#include <string>
#include <string_view>
#include <vector>

namespace polynav::test {

struct XmlCheck {
  std::string problem;                 // empty when well-formed
  std::string root;                    // name of the root element
  std::vector<std::string> group_ids;  // id attributes of <g> elements, in document order
};

inline bool valid_entity(std::string_view text, std::size_t amp) {
  const std::size_t semi = text.find(';', amp);
  if (semi == std::string_view::npos || semi - amp > 10) return false;
  const std::string_view name = text.substr(amp + 1, semi - amp - 1);
  if (name == "amp" || name == "lt" || name == "gt" || name == "quot" || name == "apos") {
    return true;
  }
  if (name.size() >= 2 && name[0] == '#') {
    for (std::size_t i = 1; i < name.size(); ++i) {
      if (!std::isalnum(static_cast<unsigned char>(name[i]))) return false;
    }
    return true;
  }
  return false;
}

// The offset of the first byte that does not begin an XML character (XML 1.0, production 2:
// tab, line feed, carriage return, U+0020 to U+D7FF, U+E000 to U+FFFD, U+10000 to U+10FFFF)
// written as well-formed UTF-8 (shortest form), or npos.
inline std::size_t first_non_xml_character(std::string_view text) {
  for (std::size_t i = 0; i < text.size();) {
    const auto b = static_cast<unsigned char>(text[i]);
    std::size_t n = b < 0x80             ? 1
                    : (b & 0xE0) == 0xC0 ? 2
                    : (b & 0xF0) == 0xE0 ? 3
                    : (b & 0xF8) == 0xF0 ? 4
                                         : 0;
    if (n == 0 || i + n > text.size()) return i;
    char32_t c = n == 1 ? b : n == 2 ? (b & 0x1F) : n == 3 ? (b & 0x0F) : (b & 0x07);
    for (std::size_t k = 1; k < n; ++k) {
      const auto cont = static_cast<unsigned char>(text[i + k]);
      if ((cont & 0xC0) != 0x80) return i;
      c = (c << 6) | (cont & 0x3F);
    }
    const char32_t shortest_from[] = {0, 0, 0x80, 0x800, 0x10000};
    const bool is_char = c == 0x9 || c == 0xA || c == 0xD || (c >= 0x20 && c <= 0xD7FF) ||
                         (c >= 0xE000 && c <= 0xFFFD) || (c >= 0x10000 && c <= 0x10FFFF);
    if (c < shortest_from[n] || !is_char) return i;
    i += n;
  }
  return std::string_view::npos;
}

inline XmlCheck check_xml(std::string_view text) {
  XmlCheck result;
  if (const std::size_t bad = first_non_xml_character(text); bad != std::string_view::npos) {
    result.problem = "not an XML character in UTF-8 at offset " + std::to_string(bad);
    return result;
  }
  std::vector<std::string> open;
  int roots = 0;
  std::size_t i = 0;
  auto fail = [&](const std::string& what) {
    result.problem = what + " at offset " + std::to_string(i);
    return result;
  };
  auto is_name_char = [](char c) {
    return std::isalnum(static_cast<unsigned char>(c)) || c == '-' || c == '_' || c == ':' ||
           c == '.';
  };
  while (i < text.size()) {
    const char c = text[i];
    if (c == '&') {
      if (!valid_entity(text, i)) return fail("bare or unknown entity");
      ++i;
      continue;
    }
    if (c != '<') {
      if (open.empty() && !std::isspace(static_cast<unsigned char>(c))) {
        return fail("text outside the root element");
      }
      ++i;
      continue;
    }
    if (text.substr(i, 4) == "<!--") {
      const std::size_t end = text.find("-->", i);
      if (end == std::string_view::npos) return fail("unterminated comment");
      i = end + 3;
      continue;
    }
    if (text.substr(i, 2) == "<?") {
      const std::size_t end = text.find("?>", i);
      if (end == std::string_view::npos) return fail("unterminated declaration");
      i = end + 2;
      continue;
    }
    const bool closing = text.substr(i, 2) == "</";
    i += closing ? 2 : 1;
    const std::size_t name_start = i;
    while (i < text.size() && is_name_char(text[i])) ++i;
    const std::string name(text.substr(name_start, i - name_start));
    if (name.empty()) return fail("element without a name");
    if (closing) {
      while (i < text.size() && std::isspace(static_cast<unsigned char>(text[i]))) ++i;
      if (i >= text.size() || text[i] != '>') return fail("malformed closing tag");
      ++i;
      if (open.empty() || open.back() != name) return fail("unbalanced </" + name + ">");
      open.pop_back();
      continue;
    }
    if (open.empty()) {
      ++roots;
      result.root = name;
      if (roots > 1) return fail("more than one root element");
    }
    std::string id;
    bool self_closing = false;
    for (;;) {
      while (i < text.size() && std::isspace(static_cast<unsigned char>(text[i]))) ++i;
      if (i >= text.size()) return fail("unterminated tag <" + name + ">");
      if (text[i] == '>') {
        ++i;
        break;
      }
      if (text.substr(i, 2) == "/>") {
        i += 2;
        self_closing = true;
        break;
      }
      const std::size_t attr_start = i;
      while (i < text.size() && is_name_char(text[i])) ++i;
      const std::string attr(text.substr(attr_start, i - attr_start));
      if (attr.empty()) return fail("malformed attribute in <" + name + ">");
      if (i >= text.size() || text[i] != '=') return fail("attribute without a value");
      ++i;
      if (i >= text.size() || (text[i] != '"' && text[i] != '\'')) {
        return fail("unquoted attribute value");
      }
      const char quote = text[i++];
      const std::size_t value_start = i;
      while (i < text.size() && text[i] != quote) {
        if (text[i] == '<') return fail("'<' in an attribute value");
        if (text[i] == '&' && !valid_entity(text, i)) return fail("bare '&' in an attribute");
        ++i;
      }
      if (i >= text.size()) return fail("unterminated attribute value");
      if (attr == "id") id = std::string(text.substr(value_start, i - value_start));
      ++i;
    }
    if (name == "g" && !id.empty()) result.group_ids.push_back(id);
    if (!self_closing) open.push_back(name);
  }
  if (!open.empty()) {
    result.problem = "unclosed <" + open.back() + ">";
  } else if (roots == 0) {
    result.problem = "no root element";
  }
  return result;
}

}  // namespace polynav::test
