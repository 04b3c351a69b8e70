#include "polynav/number.hpp"

#include <charconv>
#include <cmath>
#include <cstdint>
#include <limits>
#include <system_error>

namespace polynav {
namespace {

bool is_digit(char c) {
  return c >= '0' && c <= '9';
}

// True when `s` is `word` in any case (ASCII only, whatever the locale).
bool equals_ignoring_case(std::string_view s, std::string_view word) {
  if (s.size() != word.size()) return false;
  for (std::size_t i = 0; i < s.size(); ++i) {
    const char c = s[i] >= 'A' && s[i] <= 'Z' ? char(s[i] - 'A' + 'a') : s[i];
    if (c != word[i]) return false;
  }
  return true;
}

// The length of the decimal number at the start of `s`, by the grammar of parse_number, or 0.
std::size_t decimal_length(std::string_view s) {
  std::size_t i = 0;
  const auto digits = [&] {
    const std::size_t from = i;
    while (i < s.size() && is_digit(s[i])) ++i;
    return i - from;
  };
  if (i < s.size() && (s[i] == '-' || s[i] == '+')) ++i;
  std::size_t mantissa = digits();
  if (i < s.size() && s[i] == '.') {
    ++i;
    mantissa += digits();
  }
  if (mantissa == 0) return 0;
  if (i < s.size() && (s[i] == 'e' || s[i] == 'E')) {
    ++i;
    if (i < s.size() && (s[i] == '-' || s[i] == '+')) ++i;
    if (digits() == 0) return 0;
  }
  return i;
}

}  // namespace

ParsedNumber parse_number(std::string_view text) {
  if (!text.empty() && decimal_length(text) == text.size()) {
    // std::from_chars never looks at the locale; it takes no leading '+'.
    const char* first = text.data() + (text.front() == '+' ? 1 : 0);
    const char* last = text.data() + text.size();
    double value = 0.0;
    const auto [end, error] = std::from_chars(first, last, value);
    if (error == std::errc::result_out_of_range) return {0.0, NumberStatus::out_of_range};
    if (error == std::errc() && end == last) return {value, NumberStatus::finite};
    return {0.0, NumberStatus::malformed};
  }
  std::string_view word = text;
  const bool negative = word.starts_with('-');
  if (negative || word.starts_with('+')) word.remove_prefix(1);
  if (word.starts_with('.')) word.remove_prefix(1);
  if (equals_ignoring_case(word, "inf") || equals_ignoring_case(word, "infinity")) {
    const double inf = std::numeric_limits<double>::infinity();
    return {negative ? -inf : inf, NumberStatus::infinite};
  }
  if (equals_ignoring_case(word, "nan")) {
    return {std::numeric_limits<double>::quiet_NaN(), NumberStatus::not_a_number};
  }
  return {0.0, NumberStatus::malformed};
}

ParsedWhole parse_whole(std::string_view text) {
  ParsedWhole out;
  std::size_t i = 0;
  if (!text.empty() && (text[0] == '-' || text[0] == '+')) {
    out.negative = text[0] == '-';
    i = 1;
  }
  if (i == text.size()) return {};
  bool too_large = false;
  for (; i < text.size(); ++i) {
    if (!is_digit(text[i])) return {};
    const auto digit = static_cast<std::uint64_t>(text[i] - '0');
    constexpr std::uint64_t max = std::numeric_limits<std::uint64_t>::max();
    if (out.magnitude > (max - digit) / 10) too_large = true;
    if (!too_large) out.magnitude = out.magnitude * 10 + digit;
  }
  if (out.magnitude == 0) out.negative = false;
  out.status = too_large ? WholeStatus::out_of_range : WholeStatus::whole;
  if (too_large) out.magnitude = 0;
  return out;
}

std::optional<double> parse_finite(std::string_view text) {
  const ParsedNumber n = parse_number(text);
  if (!n.is_finite()) return std::nullopt;
  return n.value;
}

std::string shortest_text(double v) {
  if (std::isnan(v)) return "nan";
  char buffer[32];
  const auto [end, ec] = std::to_chars(buffer, buffer + sizeof buffer, v);
  return ec == std::errc() ? std::string(buffer, end) : std::to_string(v);
}

std::string tidy_fixed(std::string text) {
  if (text.find('.') != std::string::npos) {
    while (text.back() == '0') text.pop_back();
    if (text.back() == '.') text.pop_back();
  }
  return text == "-0" ? "0" : text;
}

}  // namespace polynav
