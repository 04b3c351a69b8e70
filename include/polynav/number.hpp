#pragma once
/// @file
/// The one parser for numbers written by people: scene files, maps, scenarios, meshes, option
/// values and command-line arguments all read their numbers here, so they accept the same text.

#include <optional>
#include <string>
#include <string_view>

namespace polynav {

/// What `parse_number` made of a text.
enum class NumberStatus {
  finite,        ///< a decimal number within the range of a double: `value`
  infinite,      ///< a spelling of infinity: `value` is +/-infinity
  not_a_number,  ///< a spelling of NaN: `value` is NaN
  out_of_range,  ///< a decimal number a double cannot hold (overflow, or underflow to 0)
  malformed,     ///< anything else: `value` is 0
};

struct ParsedNumber {
  double value = 0.0;
  NumberStatus status = NumberStatus::malformed;

  bool is_finite() const { return status == NumberStatus::finite; }
};

/// The whole text as one decimal number, the same whatever the C or C++ locale:
///
///     [+-]? ( digits [. digits?]? | . digits ) ( [eE] [+-]? digits )?
///
/// A leading '+' is taken; nothing else is: no whitespace before or after, no hexadecimal
/// ("0x1A"), no digit separators or decimal comma ("1,5"), no suffixes. The infinities and NaN
/// are recognised so that a caller can say what it found: "inf", "infinity" and "nan", each
/// optionally after a '.' (YAML's ".inf", ".nan") and a sign, in any case; they come back as
/// `infinite` or `not_a_number`, never as `finite`.
ParsedNumber parse_number(std::string_view text);

/// The whole text as a finite number (`parse_number` returned `finite`), or nothing.
std::optional<double> parse_finite(std::string_view text);

/// A number as messages print it: the shortest text that reads back as the same double ("-1",
/// "0.05", "1e+20", "inf", "nan").
std::string shortest_text(double v);

/// A number printed in fixed notation, tidied for people: trailing zeros of the fraction and a
/// trailing point dropped ("2.500" -> "2.5", "3.000" -> "3"), and "-0" written "0".
std::string tidy_fixed(std::string text);

}  // namespace polynav
