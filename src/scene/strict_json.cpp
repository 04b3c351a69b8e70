// The JSON syntax check for `.json` scenes (strict_json.hpp).
//
// nlohmann-json's parser decides whether the text is JSON: it runs with a SAX handler that builds
// nothing and stops at the first problem, reporting how many bytes it had read and a generic
// reason ("syntax error while parsing object key - invalid literal; last read: ..."). The message
// is then worded here from the text around that place: which character is at fault, what it
// looks like (a comment, a trailing comma, a single-quoted string, NaN, ...) and where it starts.

#include "strict_json.hpp"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <initializer_list>
#include <string>
#include <string_view>
#include <vector>

#include "polynav/error.hpp"
#include "polynav/text.hpp"

namespace polynav::detail {
namespace {

using json = nlohmann::json;

constexpr std::size_t npos = std::string_view::npos;
constexpr std::string_view bom = "\xEF\xBB\xBF";

// The first problem nlohmann-json's parser reported.
struct Failure {
  bool failed = false;
  // Bytes read when the parser stopped; reading the end of the input counts as one more.
  std::size_t position = 0;
  int id = 0;  // 101 for syntax errors, 406 for a number too large for a double
  std::string reason;
};

// Accepts every value and remembers only the last object key and the first problem.
class SyntaxOnly {
 public:
  bool null() { return true; }
  bool boolean(bool) { return true; }
  bool number_integer(json::number_integer_t) { return true; }
  bool number_unsigned(json::number_unsigned_t) { return true; }
  bool number_float(json::number_float_t, const json::string_t&) { return true; }
  bool string(json::string_t&) { return true; }
  bool binary(json::binary_t&) { return true; }
  bool start_object(std::size_t) { return true; }
  bool key(json::string_t& k) {
    last_key.assign(k);
    return true;
  }
  bool end_object() { return true; }
  bool start_array(std::size_t) { return true; }
  bool end_array() { return true; }
  bool parse_error(std::size_t position, const std::string&, const json::exception& ex) {
    failure = {true, position, ex.id, ex.what()};
    return false;
  }

  Failure failure;
  std::string last_key;
};

// ---------------------------------------------------------------------------------------------
// Characters.

bool is_space(char c) {
  return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}
bool is_digit(char c) {
  return c >= '0' && c <= '9';
}
bool is_letter(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}
// What a person would read as part of one bare word or number: `bounds`, `NaN`, `0x1A`, `1.5.3`.
bool is_word(char c) {
  return is_letter(c) || is_digit(c) || c == '_' || c == '$' || c == '.' || c == '+' || c == '-' ||
         static_cast<unsigned char>(c) >= 0x80;
}
bool is_number_char(char c) {
  return is_digit(c) || c == '.' || c == 'e' || c == 'E' || c == '+' || c == '-';
}

std::string lower(std::string_view s) {
  std::string out(s);
  for (char& c : out) {
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
  }
  return out;
}

std::string hex(unsigned value, int digits) {
  static constexpr char hex_digits[] = "0123456789ABCDEF";
  std::string s(static_cast<std::size_t>(digits), '0');
  for (int i = digits - 1; i >= 0; --i, value >>= 4) {
    s[static_cast<std::size_t>(i)] = hex_digits[value & 0xF];
  }
  return s;
}

// Text for a message: on one line, about `limit` characters at most, with control characters
// escaped as JSON escapes them and bytes that are not UTF-8 shown as \xNN.
std::string shown(std::string_view s, std::size_t limit = 40) {
  std::string out;
  for (std::size_t i = 0; i < s.size();) {
    if (out.size() >= limit) {
      out += "...";
      break;
    }
    const char c = s[i];
    const auto u = static_cast<unsigned char>(c);
    if (c == '\n') {
      out += "\\n";
    } else if (c == '\t') {
      out += "\\t";
    } else if (c == '\r') {
      out += "\\r";
    } else if (u < 0x20 || u == 0x7F) {
      out += "\\u" + hex(u, 4);
    } else if (const std::size_t n = utf8_sequence_length(s, i); n > 1) {
      out += s.substr(i, n);
      i += n;
      continue;
    } else if (n == 0) {
      out += "\\x" + hex(u, 2);
    } else {
      out += c;
    }
    ++i;
  }
  return out;
}

std::string quoted(std::string_view s) {
  std::string out = "'";
  out += shown(s);
  out += '\'';
  return out;
}

// ---------------------------------------------------------------------------------------------
// Finding tokens around a position. The text before the place nlohmann-json stopped at is JSON
// as far as it goes, which is what makes scanning backwards reliable.

std::size_t word_start(std::string_view s, std::size_t i) {
  while (i > 0 && is_word(s[i - 1])) --i;
  return i;
}
std::size_t word_end(std::string_view s, std::size_t i) {
  while (i < s.size() && is_word(s[i])) ++i;
  return i;
}

// The start of the number whose last character is s[last].
std::size_t number_start(std::string_view s, std::size_t last) {
  std::size_t i = last + 1;
  while (i > 0 && is_number_char(s[i - 1])) --i;
  while (i < last && s[i] != '-' && !is_digit(s[i])) ++i;
  return i;
}

// The length of the JSON number at s[i] as a JSON lexer reads it (the longest match of
// -?(0|[1-9][0-9]*)(.[0-9]+)?([eE][+-]?[0-9]+)?), or 0.
std::size_t json_number_length(std::string_view s, std::size_t i) {
  const std::size_t from = i;
  const auto digits = [&] {
    const std::size_t d = i;
    while (i < s.size() && is_digit(s[i])) ++i;
    return i - d;
  };
  if (i < s.size() && s[i] == '-') ++i;
  if (i < s.size() && s[i] == '0') {
    ++i;
  } else if (digits() == 0) {
    return 0;
  }
  if (i + 1 < s.size() && s[i] == '.' && is_digit(s[i + 1])) {
    ++i;
    digits();
  }
  if (i < s.size() && (s[i] == 'e' || s[i] == 'E')) {
    std::size_t j = i + 1;
    if (j < s.size() && (s[j] == '+' || s[j] == '-')) ++j;
    if (j < s.size() && is_digit(s[j])) {
      i = j;
      digits();
    }
  }
  return i - from;
}

// The opening quote of the string that s[last] is in (or closes).
std::size_t string_start(std::string_view s, std::size_t last) {
  for (std::size_t k = last + 1; k-- > 0;) {
    if (s[k] != '"') continue;
    std::size_t backslashes = 0;
    while (k > backslashes && s[k - 1 - backslashes] == '\\') ++backslashes;
    if (backslashes % 2 == 0) return k;
  }
  return 0;
}

// The last character before `at` that is not whitespace, or npos.
std::size_t previous_token_end(std::string_view s, std::size_t at) {
  while (at > 0 && is_space(s[at - 1])) --at;
  return at == 0 ? npos : at - 1;
}

// The innermost '[' or '{' still open at `end`, or npos.
std::size_t open_bracket(std::string_view s, std::size_t end) {
  std::vector<std::size_t> open;
  for (std::size_t i = 0; i < end; ++i) {
    const char c = s[i];
    if (c == '"') {
      for (++i; i < end && s[i] != '"'; ++i) {
        if (s[i] == '\\') ++i;
      }
    } else if (c == '[' || c == '{') {
      open.push_back(i);
    } else if ((c == ']' || c == '}') && !open.empty()) {
      open.pop_back();
    }
  }
  return open.empty() ? npos : open.back();
}

// The value of the \uXXXX escape at s[at], or -1.
long escape_value(std::string_view s, std::size_t at) {
  if (at + 6 > s.size() || s[at] != '\\' || s[at + 1] != 'u') return -1;
  long value = 0;
  for (std::size_t k = at + 2; k < at + 6; ++k) {
    const char c = s[k];
    const int d = is_digit(c)            ? c - '0'
                  : c >= 'a' && c <= 'f' ? c - 'a' + 10
                  : c >= 'A' && c <= 'F' ? c - 'A' + 10
                                         : -1;
    if (d < 0) return -1;
    value = value * 16 + d;
  }
  return value;
}

// The last \uXXXX escape at or before `at` (and after `from`) whose value is in [low, high].
std::size_t escape_before(std::string_view s, std::size_t from, std::size_t at, long low,
                          long high) {
  for (std::size_t k = at + 1; k-- > from;) {
    const long v = escape_value(s, k);
    if (v >= low && v <= high) return k;
  }
  return npos;
}

// ---------------------------------------------------------------------------------------------
// Wording.

struct Problem {
  std::size_t at;  // byte offset of the character at fault
  std::string what;
  bool json_syntax = true;  // false for a number beyond a double, which is valid JSON
};

std::string place_text(std::string_view s, std::size_t at) {
  const TextPlace p = place_of(s, at);
  return std::to_string(p.line) + ":" + std::to_string(p.column);
}

// What nlohmann-json was parsing ("value", "object key", "object separator", "array", "object"),
// and the rest of its reason.
struct Reason {
  std::string_view context;
  std::string_view detail;
  // For problems found while reading a token (the lexer's), its own words; empty otherwise.
  std::string_view lexer;
};

Reason split_reason(std::string_view reason) {
  Reason r;
  constexpr std::string_view parsing = "while parsing ";
  const std::size_t c = reason.find(parsing);
  if (c == npos) return r;
  const std::size_t dash = reason.find(" - ", c);
  if (dash == npos) return r;
  r.context = reason.substr(c + parsing.size(), dash - c - parsing.size());
  r.detail = reason.substr(dash + 3);
  if (const std::size_t l = r.detail.find("; last read: "); l != npos) {
    r.lexer = r.detail.substr(0, l);
  }
  return r;
}

constexpr char non_finite[] = "JSON numbers are finite (there is no NaN or Infinity)";

constexpr char goes_on[] = "the file goes on after its top-level value has ended";
constexpr char one_value[] = "; a JSON file holds exactly one value";

// "t", "fal", "nu": the start of true, false or null, cut short.
bool is_literal_prefix(std::string_view word) {
  for (const std::string_view literal : {"true", "false", "null"}) {
    if (!word.empty() && word.size() < literal.size() && literal.starts_with(word)) return true;
  }
  return false;
}

bool is_non_finite_word(std::string_view word) {
  std::string w = lower(word);
  if (w.starts_with('-') || w.starts_with('+')) w.erase(0, 1);
  return w == "nan" || w == "inf" || w == "infinity";
}

// A token that is not where it may be, by what was being parsed.
std::string unexpected(std::string_view s, const Reason& r, std::size_t at,
                       const std::string& found, const std::string& last_key) {
  if (r.context == "object key") return "object key must be a double-quoted string, found " + found;
  if (r.context == "object separator") {
    return "expected ':' after the key \"" + shown(last_key) + "\", found " + found;
  }
  if (r.context == "array") return "expected ',' or ']' after an array element, found " + found;
  if (r.context == "object") return "expected ',' or '}' after an object member, found " + found;
  if (r.context == "value") {
    const std::size_t before = previous_token_end(s, at);
    if (before != npos && s[before] == ':') {
      return "expected a value after the key \"" + shown(last_key) + "\", found " + found;
    }
    return "expected a value, found " + found;
  }
  return "unexpected " + found;
}

// The lexer found a character that starts no token, or a misspelt true, false or null.
Problem bad_word(std::string_view s, std::size_t bad, const Reason& r,
                 const std::string& last_key) {
  const std::size_t n = s.size();
  std::size_t start = bad;
  std::size_t end = bad;
  if (bad < n && is_word(s[bad])) {
    start = word_start(s, bad);  // with a number it is glued to: "0x1A", "1.5.3"
    end = word_end(s, bad);
  } else if (is_literal_prefix(s.substr(word_start(s, bad), bad - word_start(s, bad)))) {
    start = word_start(s, bad);  // "nu]": a literal cut short
  } else if (bad < n) {
    end = bad + std::max<std::size_t>(1, utf8_sequence_length(s, bad));
  }
  const std::string_view token = s.substr(start, end - start);
  const char first = start < n ? s[start] : '\0';
  const char second = start + 1 < n ? s[start + 1] : '\0';
  const std::string found = ", found " + quoted(token);

  if (first == '#' || (first == '/' && (second == '/' || second == '*'))) {
    return {start, "comments are not allowed in JSON, found " +
                       quoted(s.substr(start, first == '#' ? 1 : 2))};
  }
  if (first == '\'') {
    const std::size_t close = s.find_first_of("'\n", start + 1);
    const std::size_t to = close == npos ? n : s[close] == '\'' ? close + 1 : close;
    return {start, (r.context == "object key" ? "object key must be a double-quoted string"
                                              : "strings must be in double quotes") +
                       std::string(", found the single-quoted string ") +
                       shown(s.substr(start, to - start))};
  }
  if (r.detail.find("expected end of input") != npos) return {start, goes_on + found + one_value};
  if (start < n && utf8_sequence_length(s, start) == 0) {
    return {start, "JSON text must be UTF-8, found the byte 0x" +
                       hex(static_cast<unsigned char>(first), 2)};
  }
  if (r.context == "object key") return {start, unexpected(s, r, start, quoted(token), last_key)};
  if (is_non_finite_word(token)) return {start, non_finite + found};
  const std::string_view unsigned_token = token.substr(token.starts_with('-') ? 1 : 0);
  if (unsigned_token.starts_with("0x") || unsigned_token.starts_with("0X")) {
    return {start, "hexadecimal numbers are not allowed in JSON" + found};
  }
  if (first == '+') return {start, "numbers may not start with '+'" + found};
  if (first == '.' && is_digit(second)) return {start, "numbers must start with a digit" + found};
  if (first == '-' || is_digit(first)) return {start, "malformed number" + found};
  if (const std::string l = lower(token); l == "true" || l == "false" || l == "null") {
    return {start, "JSON writes true, false and null in lower case" + found};
  }
  if (r.context == "value" && (is_letter(first) || utf8_sequence_length(s, start) > 1)) {
    return {start, "strings must be in double quotes, found unquoted text " + quoted(token)};
  }
  return {start, unexpected(s, r, start, quoted(token), last_key)};
}

// The lexer stopped inside a number: "-", "1.", "1e+".
Problem bad_number(std::string_view s, std::size_t bad, const Reason& r) {
  const std::size_t start = bad > 0 ? number_start(s, bad - 1) : 0;
  const std::string_view token = s.substr(start, word_end(s, start) - start);
  const std::string found = ", found " + quoted(token);
  if (is_non_finite_word(token)) return {start, non_finite + found};
  if (r.lexer.find("after '-'") != npos) {
    // "0-" is a number with a '-' glued to it rather than a lone '-'.
    return {start,
            (start + 1 < bad ? "malformed number" : "'-' must be followed by a digit") + found};
  }
  if (r.lexer.find("after '.'") != npos) {
    return {start, "a decimal point must be followed by a digit" + found};
  }
  if (r.lexer.find("exponent") != npos) return {start, "an exponent must have digits" + found};
  return {start, "malformed number" + found};
}

// The lexer stopped inside a string.
Problem bad_string(std::string_view s, std::size_t bad, const Reason& r) {
  const std::size_t n = s.size();
  const std::size_t quote = bad > 0 ? string_start(s, bad - 1) : 0;
  const std::string_view what = r.lexer;
  if (what.find("missing closing quote") != npos) {
    return {quote, "unterminated string, found the end of the file before its closing '\"'"};
  }
  if (what.find("control character") != npos && bad < n) {
    const auto c = static_cast<unsigned char>(s[bad]);
    if (c == '\n' || c == '\r') {
      return {bad, "the string starting at " + place_text(s, quote) +
                       " is not closed on its line, found a line break (write \\n for a line "
                       "break inside a string)"};
    }
    if (c == '\t') return {bad, "a tab inside a string must be written \\t, found a raw tab"};
    return {bad, "control characters inside a string must be escaped, found U+" + hex(c, 4) +
                     " (write \\u" + hex(c, 4) + ")"};
  }
  if (what.find("after backslash") != npos && bad > 0) {
    const std::size_t to =
        bad < n ? bad + std::max<std::size_t>(1, utf8_sequence_length(s, bad)) : n;
    return {bad - 1, "invalid escape in a string, found " +
                         quoted(s.substr(bad - 1, to - bad + 1)) +
                         "; JSON's escapes are \\\" \\\\ \\/ \\b \\f \\n \\r \\t and \\uXXXX"};
  }
  if (what.find("4 hex digits") != npos) {
    const std::size_t at = s.rfind("\\u", std::min(bad, n));
    const std::size_t from = at == npos || at < quote ? bad : at;
    return {from, "\\u must be followed by 4 hex digits, found " +
                      quoted(s.substr(from, std::min(bad + 1, n) - from))};
  }
  if (what.find("must be followed by") != npos) {  // a high surrogate alone
    const std::size_t at = escape_before(s, quote, bad, 0xD800, 0xDBFF);
    if (at != npos) {
      return {at, "the UTF-16 high surrogate " + std::string(s.substr(at, 6)) +
                      " must be followed by a low surrogate \\uDC00 to \\uDFFF"};
    }
  }
  if (what.find("must follow") != npos) {  // a low surrogate alone
    const std::size_t at = escape_before(s, quote, bad, 0xDC00, 0xDFFF);
    if (at != npos) {
      return {at, "the UTF-16 low surrogate " + std::string(s.substr(at, 6)) +
                      " must follow a high surrogate \\uD800 to \\uDBFF"};
    }
  }
  if (what.find("UTF-8") != npos) {
    std::size_t at = std::min(bad, n - 1);
    for (std::size_t i = quote + 1; i < at;) {
      const std::size_t len = utf8_sequence_length(s, i);
      if (len == 0) {
        at = i;
        break;
      }
      i += len;
    }
    return {at, "JSON text must be UTF-8, found the byte 0x" +
                    hex(static_cast<unsigned char>(s[at]), 2) + " in a string"};
  }
  std::string_view words = what;
  if (words.starts_with("invalid string: ")) words.remove_prefix(16);
  return {std::min(bad, n), "invalid string: " + std::string(words)};
}

// A whole token that is not allowed where it stands, the end of the input included.
Problem bad_token(std::string_view s, std::size_t position, const Reason& r,
                  const std::string& last_key) {
  const std::size_t n = s.size();
  if (position > n || position == 0) {  // the end of the input
    const std::size_t open = open_bracket(s, n);
    if (open != npos) {
      return {n, "the file ends before the '" + std::string(1, s[open]) + "' at " +
                     place_text(s, open) + " is closed"};
    }
    return {n, unexpected(s, r, n, "the end of the file", last_key)};
  }
  const std::size_t end = position;
  const char last = s[end - 1];
  std::size_t start = end - 1;
  if (last == '"') {
    start = end >= 2 ? string_start(s, end - 2) : 0;
  } else if (is_digit(last)) {
    start = number_start(s, end - 1);
  } else if (last == 'e' || last == 'l') {
    start = end >= 5 && s.substr(end - 5, 5) == "false" ? end - 5 : end >= 4 ? end - 4 : 0;
  }
  const std::string_view token = s.substr(start, end - start);
  const std::string found = last == '"' ? "the string " + shown(token) : quoted(token);

  // "01" and "1-2" are read as two numbers, one right after the other.
  if (is_digit(last) && json_number_length(s, start) < end - start) {
    const std::string_view glued = s.substr(start, word_end(s, start) - start);
    const std::string_view digits = glued.substr(glued.starts_with('-') ? 1 : 0);
    return {start, (digits.size() > 1 && digits[0] == '0' && is_digit(digits[1])
                        ? "numbers may not have leading zeros, found "
                        : "malformed number, found ") +
                       quoted(glued)};
  }
  if (r.detail.find("expected end of input") != npos) {
    return {start, goes_on + (", found " + found) + one_value};
  }
  if (last == '}' || last == ']') {
    const std::size_t before = previous_token_end(s, start);
    const std::size_t open = open_bracket(s, start);
    const bool matches = open != npos && (s[open] == '{') == (last == '}');
    if (before != npos && s[before] == ',' && matches) {
      return {before, "trailing comma before " + found};
    }
    if (!matches && open != npos &&
        (r.context == "array" || r.context == "object" || (before != npos && s[before] == ','))) {
      return {start, found + " does not close the '" + std::string(1, s[open]) + "' at " +
                         place_text(s, open)};
    }
  }
  const bool value =
      last == '"' || is_digit(last) || last == 'e' || last == 'l' || last == '[' || last == '{';
  if (value && r.context == "array") {
    return {start, "missing ',' between array elements, found " + found};
  }
  if (value && r.context == "object") {
    return {start, "missing ',' between object members, found " + found};
  }
  return {start, unexpected(s, r, start, found, last_key)};
}

// nlohmann-json's own reason without its prefix, for problems not recognised above.
std::string plain_reason(std::string_view reason) {
  if (const std::size_t colon = reason.find(": ");
      reason.starts_with("[json.exception.") && colon != npos) {
    reason.remove_prefix(colon + 2);
  }
  return shown(reason, 200);
}

Problem describe(std::string_view s, const Failure& f, const std::string& last_key) {
  const Reason r = split_reason(f.reason);
  const std::size_t bad = std::min(f.position == 0 ? 0 : f.position - 1, s.size());
  if (f.id == 406) {  // only when there are too many such numbers to check past them
    const std::size_t end = std::min(f.position, s.size());
    const std::size_t start = end > 0 ? number_start(s, end - 1) : 0;
    return {start,
            "expected a finite number, got " + shown(s.substr(start, end - start)) +
                " (out of the range of a double)",
            false};
  }
  if (r.lexer.empty()) {
    if (r.detail.starts_with("unexpected ")) return bad_token(s, f.position, r, last_key);
    return {bad, plain_reason(f.reason)};
  }
  if (r.lexer == "invalid literal") return bad_word(s, bad, r, last_key);
  if (r.lexer.starts_with("invalid number")) return bad_number(s, bad, r);
  if (r.lexer.starts_with("invalid string")) return bad_string(s, bad, r);
  if (r.lexer.starts_with("invalid BOM")) {
    return {0, "the file starts with a broken byte order mark (the UTF-8 one is EF BB BF)"};
  }
  return {bad, std::string(r.lexer) + ", found " +
                   (bad < s.size() ? quoted(s.substr(bad, 1)) : "the end of the file")};
}

}  // namespace

TextPlace place_of(std::string_view text, std::size_t offset) {
  offset = std::min(offset, text.size());
  int line = 1;
  std::size_t line_start = 0;
  for (std::size_t i = text.find('\n'); i < offset; i = text.find('\n', i + 1)) {
    ++line;
    line_start = i + 1;
  }
  if (line_start == 0 && text.starts_with(bom)) line_start = std::min(offset, bom.size());
  return {line, static_cast<int>(offset - line_start) + 1};
}

void check_strict_json(std::string_view text, const std::string& source_name) {
  const std::string_view body = text.substr(text.starts_with(bom) ? bom.size() : 0);
  if (body.find_first_not_of(" \t\n\r") == npos) return;

  const auto fail = [&](const Problem& p) {
    const TextPlace place = place_of(text, p.at);
    throw InputError({source_name, place.line, place.column, ""},
                     p.json_syntax ? "not valid JSON: " + p.what : p.what);
  };
  // nlohmann-json takes a NUL byte for the end of the input, so it reads only what comes before.
  const std::size_t nul = text.find('\0');
  const std::string_view checked = text.substr(0, nul);

  // A number too large for a double stops nlohmann-json's parser, yet it is JSON; the scene
  // reader reports it where it matters. Such a number is blanked out of a copy ("0" and spaces,
  // so that every offset stays) and the check starts over, a few times at most: past that the
  // number itself is refused here.
  constexpr int max_restarts = 16;
  std::string copy;
  std::string_view input = checked;
  for (int restarts = 0;; ++restarts) {
    SyntaxOnly handler;
    json::sax_parse(input.data(), input.data() + input.size(), &handler);
    const Failure& f = handler.failure;
    if (!f.failed) break;
    if (f.id == 406 && restarts < max_restarts && f.position > 0 && f.position <= input.size()) {
      const std::size_t end = f.position;
      const std::size_t start = number_start(input, end - 1);
      if (copy.empty()) copy.assign(checked);
      std::fill(copy.begin() + std::ptrdiff_t(start), copy.begin() + std::ptrdiff_t(end), ' ');
      copy[start] = '0';
      input = copy;
      continue;
    }
    if (nul != npos && f.position > checked.size()) break;  // it stopped at the NUL
    fail(describe(checked, f, handler.last_key));
  }
  if (nul != npos) fail({nul, "JSON text may not contain a NUL byte, found U+0000"});
}

}  // namespace polynav::detail
