#pragma once
/// @file
/// The one exception polynav throws for bad input.

#include <span>
#include <stdexcept>
#include <string>
#include <string_view>

namespace polynav {

/// Where in the user's input something is: a file, a line and column (1-based, 0 when unknown)
/// and a key path inside the document such as `obstacles[3]` or `queries[0].start`.
struct InputLocation {
  std::string file;
  int line = 0;
  int column = 0;
  std::string key_path;

  /// "file:line:column: key_path", leaving out the parts that are unknown.
  std::string to_string() const;
};

/// Bad input: a malformed file, a scene that breaks a rule of the format, a bad option value.
/// Thrown at load or validation time only; nothing downstream re-validates. `what()` is the
/// complete one-line message, e.g.
/// `warehouse.yaml:12:5: obstacles[3]: ring is self-intersecting near (4, 5)`.
/// `what()` and `message()` are always one line of UTF-8, whatever the file names, keys and
/// values quoted in them hold: line breaks and other control characters are escaped (`\n`,
/// `\xNN`), as are bytes that are not UTF-8 (polynav/text.hpp, `one_line`). `where()` keeps the
/// file name and key as given.
class InputError : public std::runtime_error {
 public:
  InputError(InputLocation where, const std::string& message);
  const InputLocation& where() const noexcept { return where_; }
  /// The message without the location prefix.
  const std::string& message() const noexcept { return message_; }

 private:
  InputLocation where_;
  std::string message_;
};

/// The candidate a mistyped name most likely meant ("raduis" -> "radius"), or "" when none is
/// close: at most one edit (two for names of 6 letters or more, a swap of neighbours counting as
/// one), or a prefix of at least 3 letters. For "did you mean" in messages.
std::string_view closest_name(std::string_view name, std::span<const std::string_view> candidates);

}  // namespace polynav
