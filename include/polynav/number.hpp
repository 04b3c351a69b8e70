#pragma once
/// @file
/// The one parser for numbers written by people: scene files, maps, scenarios, meshes, option
/// values and command-line arguments all read their numbers here, so they accept the same text.

#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>

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

/// What `parse_whole` made of a text.
enum class WholeStatus {
  whole,         ///< decimal digits with an optional sign, |value| < 2^64: `negative`, `magnitude`
  out_of_range,  ///< decimal digits with an optional sign, |value| >= 2^64
  malformed,     ///< anything else
};

/// A whole number as written, exactly: its sign and its magnitude.
struct ParsedWhole {
  bool negative = false;        ///< below zero ("-0" is zero, not negative)
  std::uint64_t magnitude = 0;  ///< |value|
  WholeStatus status = WholeStatus::malformed;

  bool is_whole() const { return status == WholeStatus::whole; }

  /// The value as T when it is whole and T holds it; nothing otherwise (never a wrapped or
  /// saturated value).
  template <class T>
  std::optional<T> as() const {
    static_assert(std::numeric_limits<T>::is_integer && !std::is_same_v<T, bool>);
    if (!is_whole()) return std::nullopt;
    using U = std::make_unsigned_t<T>;
    if (!negative) {
      if (magnitude > static_cast<U>(std::numeric_limits<T>::max())) return std::nullopt;
      return static_cast<T>(magnitude);
    }
    if constexpr (std::is_signed_v<T>) {
      // -magnitude >= min, that is magnitude <= max + 1; written so nothing overflows.
      if (magnitude - 1 > static_cast<U>(std::numeric_limits<T>::max())) return std::nullopt;
      return static_cast<T>(-static_cast<T>(magnitude - 1) - 1);
    }
    return std::nullopt;
  }
};

/// The whole text as a whole number in decimal digits, the same in every locale:
///
///     [+-]? digits
///
/// with no whitespace, no decimal point or exponent, no digit separators. Any number of digits is
/// read (leading zeros too); a value of 2^64 or more is `out_of_range`, so that a caller can say
/// that the number is too large rather than that it is not a number.
ParsedWhole parse_whole(std::string_view text);

/// A number as messages print it: the shortest text that reads back as the same double ("-1",
/// "0.05", "1e+20", "inf", "nan").
std::string shortest_text(double v);

/// A number printed in fixed notation, tidied for people: trailing zeros of the fraction and a
/// trailing point dropped ("2.500" -> "2.5", "3.000" -> "3"), and "-0" written "0".
std::string tidy_fixed(std::string text);

}  // namespace polynav
