#include "polynav/text.hpp"

namespace polynav {
namespace {

// The length of the well-formed UTF-8 sequence at text[i] (RFC 3629: no overlong forms, no
// surrogates, nothing above U+10FFFF) as a positive number, or, when there is none, the length
// of the maximal ill-formed subpart there (at least 1) as a negative number.
long sequence_at(std::string_view text, std::size_t i) {
  const auto byte = [&](std::size_t k) { return static_cast<unsigned char>(text[k]); };
  const unsigned char b = byte(i);
  if (b < 0x80) return 1;
  long n = 0;
  unsigned char low = 0x80, high = 0xBF;  // the range of the second byte
  if (b >= 0xC2 && b <= 0xDF) {
    n = 2;
  } else if (b == 0xE0) {
    n = 3, low = 0xA0;
  } else if (b >= 0xE1 && b <= 0xEF) {
    n = 3, high = b == 0xED ? 0x9F : 0xBF;
  } else if (b == 0xF0) {
    n = 4, low = 0x90;
  } else if (b >= 0xF1 && b <= 0xF3) {
    n = 4;
  } else if (b == 0xF4) {
    n = 4, high = 0x8F;
  } else {
    return -1;
  }
  for (long k = 1; k < n; ++k) {
    const std::size_t at = i + std::size_t(k);
    const bool fits =
        at < text.size() && byte(at) >= (k == 1 ? low : 0x80) && byte(at) <= (k == 1 ? high : 0xBF);
    if (!fits) return -k;
  }
  return n;
}

// The code point of the well-formed sequence of `n` bytes at text[i].
char32_t code_point(std::string_view text, std::size_t i, long n) {
  const auto byte = [&](std::size_t k) { return char32_t(static_cast<unsigned char>(text[k])); };
  if (n == 1) return byte(i);
  char32_t c = byte(i) & (n == 2 ? 0x1F : n == 3 ? 0x0F : 0x07);
  for (long k = 1; k < n; ++k) c = (c << 6) | (byte(i + std::size_t(k)) & 0x3F);
  return c;
}

constexpr char hex_digits[] = "0123456789abcdef";

void append_hex(std::string& out, const char* prefix, unsigned value, int digits) {
  out += prefix;
  for (int d = digits - 1; d >= 0; --d) out += hex_digits[(value >> (4 * d)) & 15];
}

}  // namespace

std::size_t utf8_sequence_length(std::string_view text, std::size_t i) {
  const long n = sequence_at(text, i);
  return n > 0 ? std::size_t(n) : 0;
}

std::size_t first_invalid_utf8(std::string_view text) {
  for (std::size_t i = 0; i < text.size();) {
    const long n = sequence_at(text, i);
    if (n < 0) return i;
    i += std::size_t(n);
  }
  return std::string_view::npos;
}

std::string valid_utf8(std::string_view text) {
  const std::size_t bad = first_invalid_utf8(text);
  if (bad == std::string_view::npos) return std::string(text);
  std::string out(text.substr(0, bad));
  for (std::size_t i = bad; i < text.size();) {
    const long n = sequence_at(text, i);
    if (n > 0) {
      out.append(text.substr(i, std::size_t(n)));
      i += std::size_t(n);
    } else {
      out += "\xEF\xBF\xBD";  // U+FFFD REPLACEMENT CHARACTER
      i += std::size_t(-n);
    }
  }
  return out;
}

bool append_one_line(std::string& out, std::string_view text, std::size_t limit) {
  for (std::size_t i = 0; i < text.size();) {
    if (out.size() >= limit) return false;
    const long n = sequence_at(text, i);
    if (n < 0) {  // each byte of an ill-formed subpart as \xNN
      for (long k = 0; k < -n; ++k)
        append_hex(out, "\\x", static_cast<unsigned char>(text[i + std::size_t(k)]), 2);
      i += std::size_t(-n);
      continue;
    }
    const char32_t c = code_point(text, i, n);
    if (c == '\n') {
      out += "\\n";
    } else if (c == '\r') {
      out += "\\r";
    } else if (c == '\t') {
      out += "\\t";
    } else if (c < 0x20 || c == 0x7F) {
      append_hex(out, "\\x", unsigned(c), 2);
    } else if ((c >= 0x80 && c <= 0x9F) || c == 0x2028 || c == 0x2029) {
      // C1 controls (U+0085 is a line break to some readers) and the Unicode line separators.
      append_hex(out, "\\u", unsigned(c), 4);
    } else {
      out.append(text.substr(i, std::size_t(n)));
    }
    i += std::size_t(n);
  }
  return true;
}

std::string one_line(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  append_one_line(out, text);
  return out;
}

}  // namespace polynav
