#pragma once
/// @file
/// How polynav writes text that came from its input: names (a scene named after its file's stem,
/// regions, queries), file names, and values quoted in messages. Input may hold any bytes; what
/// polynav writes is always UTF-8, so every output reads back. One rule, in two forms:
///
/// - Documents (SVG, native YAML, JSON, CSV) get `valid_utf8(text)`: each byte sequence that is
///   not well-formed UTF-8 (RFC 3629) becomes U+FFFD, one per maximal ill-formed subpart (the
///   Unicode standard's recommended practice, as Python's `errors="replace"` and nlohmann-json's
///   `error_handler_t::replace` do); each format then escapes what it must in its own way.
/// - Messages (InputError::what(), `error:` lines, notes) get `one_line(text)`: always one line
///   of UTF-8, with line feed, carriage return and tab written as `\n`, `\r`, `\t`, other control
///   characters and each byte that is not part of well-formed UTF-8 as `\xNN`, and the C1 controls
///   and the Unicode line and paragraph separators as `\uNNNN`; everything else as it is.

#include <cstddef>
#include <string>
#include <string_view>

namespace polynav {

/// The offset of the first byte of `text` that is not part of a well-formed UTF-8 sequence, or
/// std::string_view::npos when the whole text is well-formed.
std::size_t first_invalid_utf8(std::string_view text);

/// The length in bytes (1 to 4) of the well-formed UTF-8 sequence that starts at text[i], or 0
/// when none starts there (a stray continuation byte, an overlong form, a surrogate, a sequence
/// cut short). @pre i < text.size()
std::size_t utf8_sequence_length(std::string_view text, std::size_t i);

/// True when the whole text is well-formed UTF-8.
inline bool is_valid_utf8(std::string_view text) {
  return first_invalid_utf8(text) == std::string_view::npos;
}

/// `text` with every maximal ill-formed subpart replaced by U+FFFD; well-formed text unchanged.
std::string valid_utf8(std::string_view text);

/// `text` as one line of UTF-8 for a message (see the file's comment); text that holds no
/// control character, line separator or ill-formed byte comes back unchanged.
std::string one_line(std::string_view text);

/// Appends `one_line(text)` to `out`, stopping before a character would start at or beyond
/// `limit` characters of `out` (a character and its escape are never split). Returns whether
/// the whole text was appended.
bool append_one_line(std::string& out, std::string_view text,
                     std::size_t limit = std::string::npos);

}  // namespace polynav
