#pragma once
// The JSON syntax check for `.json` scenes. The scene reader parses JSON with the YAML parser
// (native.cpp says why), and YAML's flow syntax would also take comments, trailing commas, single
// quotes and unquoted words; this check runs first so that a `.json` scene must be JSON as
// RFC 8259 defines it, read as every other JSON tool reads it.

#include <cstddef>
#include <string>
#include <string_view>

namespace polynav::detail {

// A 1-based line and column of a byte offset in a scene's text, counted as the YAML reader counts
// them: lines end at '\n', columns count bytes (a tab or each byte of a UTF-8 character is one),
// and a UTF-8 byte order mark at the start of the text is not counted.
struct TextPlace {
  int line = 1;
  int column = 1;
};
TextPlace place_of(std::string_view text, std::size_t offset);

// Throws InputError naming `source_name` and the line and column of the first thing in `text`
// that is not JSON, with a message "not valid JSON: what is wrong, found what was there". Passes
// text that is empty or only whitespace (the reader then says the scene is empty) and a leading
// UTF-8 byte order mark (RFC 8259 lets parsers ignore one). Numbers too large for a double are
// JSON and pass too, so that the scene reader judges them where they stand; only a text with more
// than 16 of them is refused here, at the 17th ("expected a finite number, got 1e999 ...").
void check_strict_json(std::string_view text, const std::string& source_name);

}  // namespace polynav::detail
