// polynav::parse_number, the one parser every reader and option uses: what it accepts, what it
// refuses and how it says so, and that the locale changes nothing.

#include "polynav/number.hpp"

#include <gtest/gtest.h>

#include <clocale>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <limits>
#include <string>
#include <string_view>

namespace polynav {
namespace {

TEST(ParseNumber, AcceptsPlainDecimalNumbers) {
  const struct {
    std::string_view text;
    double value;
  } cases[] = {
      {"0", 0.0},      {"-0", -0.0},     {"7", 7.0},         {"+7", 7.0},
      {"-7", -7.0},    {"1.5", 1.5},     {"-1.5", -1.5},     {"+1.5", 1.5},
      {".5", 0.5},     {"-.5", -0.5},    {"5.", 5.0},        {"1e3", 1000.0},
      {"1E3", 1000.0}, {"1e+3", 1000.0}, {"2.5e-3", 0.0025}, {"007", 7.0},
      {"0.1", 0.1},    {"1e308", 1e308}, {"-1e308", -1e308}, {"1125899906842624", 0x1p50},
  };
  for (const auto& c : cases) {
    SCOPED_TRACE(std::string(c.text));
    const ParsedNumber n = parse_number(c.text);
    EXPECT_EQ(n.status, NumberStatus::finite);
    EXPECT_TRUE(n.is_finite());
    EXPECT_EQ(n.value, c.value);
    EXPECT_EQ(std::signbit(n.value), std::signbit(c.value));
    EXPECT_EQ(parse_finite(c.text), c.value);
  }
}

TEST(ParseNumber, ReadsTheNearestDouble) {
  // Correctly rounded, as std::from_chars is: the shortest text of a double reads back exactly.
  for (const double v : {0.1, 1.0 / 3.0, 2.0 / 3.0 * 1e-300, 123456.789e200, 5e-324}) {
    char buffer[64];
    std::snprintf(buffer, sizeof buffer, "%.17g", v);
    EXPECT_EQ(parse_number(buffer).value, v) << buffer;
  }
}

TEST(ParseNumber, RefusesEverythingElseAsMalformed) {
  using namespace std::string_view_literals;
  const std::string_view malformed[] = {
      "",         " ",     "+",    "-",     ".",    "e5",    ".e5",   "1e",
      "1e+",      "1.5.2", "1,5",  "1 5",   " 1",   "1 ",    "\t1",   "1\n",
      "--1",      "+-1",   "-+1",  "++1",   "0x10", "0X1p3", "1p3",   "1_000",
      "1'000",    "1.5x",  "x1.5", "one",   "1f",   "1d",    "1L",    "\xef\xbc\x91",
      "infinite", "nanny", "inf.", "..inf", "-",    "+.",    "1e5.5", "1.5e-",
      "1\0"sv};
  for (const std::string_view text : malformed) {
    SCOPED_TRACE(testing::Message() << '\'' << text << '\'');
    const ParsedNumber n = parse_number(text);
    EXPECT_EQ(n.status, NumberStatus::malformed);
    EXPECT_EQ(n.value, 0.0);
    EXPECT_FALSE(parse_finite(text));
  }
}

TEST(ParseNumber, NamesInfinitiesAndNaNWithoutTakingThemAsFinite) {
  for (const std::string_view text : {"inf", "INF", "Inf", "+inf", ".inf", "+.inf", ".Inf",
                                      "infinity", "Infinity", "+INFINITY"}) {
    SCOPED_TRACE(std::string(text));
    const ParsedNumber n = parse_number(text);
    EXPECT_EQ(n.status, NumberStatus::infinite);
    EXPECT_EQ(n.value, std::numeric_limits<double>::infinity());
    EXPECT_FALSE(parse_finite(text));
  }
  for (const std::string_view text : {"-inf", "-.inf", "-Infinity", "-.INF"}) {
    SCOPED_TRACE(std::string(text));
    EXPECT_EQ(parse_number(text).status, NumberStatus::infinite);
    EXPECT_EQ(parse_number(text).value, -std::numeric_limits<double>::infinity());
  }
  for (const std::string_view text : {"nan", "NaN", ".nan", ".NaN", "-nan", "+nan", "-.nan"}) {
    SCOPED_TRACE(std::string(text));
    const ParsedNumber n = parse_number(text);
    EXPECT_EQ(n.status, NumberStatus::not_a_number);
    EXPECT_TRUE(std::isnan(n.value));
    EXPECT_FALSE(parse_finite(text));
  }
  // What strtod would also take is still refused: NaN payloads.
  EXPECT_EQ(parse_number("nan(1)").status, NumberStatus::malformed);
  EXPECT_EQ(parse_number("in f").status, NumberStatus::malformed);
}

TEST(ParseNumber, SaysWhenADecimalNumberIsBeyondADouble) {
  for (const std::string_view text : {"1e309", "-1e309", "1e99999", "1e-400", "-1e-400"}) {
    SCOPED_TRACE(std::string(text));
    EXPECT_EQ(parse_number(text).status, NumberStatus::out_of_range);
    EXPECT_FALSE(parse_finite(text));
  }
  // The largest double and the smallest normal one are in range.
  EXPECT_EQ(parse_finite("1.7976931348623157e308"), std::numeric_limits<double>::max());
  EXPECT_EQ(parse_finite("2.2250738585072014e-308"), std::numeric_limits<double>::min());
}

// A locale whose decimal separator is ',' changes what strtod reads; parse_number reads "1.5" and
// refuses "1,5" whatever the locale. Where no such locale is installed this checks the "C" locale.
TEST(ParseNumber, DoesNotDependOnTheLocale) {
  const std::string previous = std::setlocale(LC_NUMERIC, nullptr);
  const char* comma_locale = nullptr;
  for (const char* name : {"de_DE.UTF-8", "de_DE.utf8", "de_DE", "fr_FR.UTF-8", "fr_FR.utf8",
                           "nl_NL.UTF-8", "ru_RU.UTF-8"}) {
    if (std::setlocale(LC_NUMERIC, name) != nullptr) {
      comma_locale = name;
      break;
    }
  }
  if (comma_locale != nullptr) {
    // The locale is in effect: strtod takes the comma and stops at the point.
    EXPECT_EQ(std::strtod("1,5", nullptr), 1.5) << comma_locale;
    EXPECT_EQ(std::strtod("1.5", nullptr), 1.0) << comma_locale;
  } else {
    std::printf("note: no locale with a decimal comma is installed; checked the \"%s\" locale\n",
                previous.c_str());
  }
  EXPECT_EQ(parse_finite("1.5"), 1.5);
  EXPECT_EQ(parse_finite("-2.25e1"), -22.5);
  EXPECT_FALSE(parse_finite("1,5"));
  EXPECT_EQ(parse_number("1,5").status, NumberStatus::malformed);
  std::setlocale(LC_NUMERIC, previous.c_str());
}

TEST(ParseWhole, ReadsDigitsWithASignExactly) {
  const struct {
    std::string_view text;
    bool negative;
    std::uint64_t magnitude;
  } cases[] = {
      {"0", false, 0},
      {"-0", false, 0},
      {"+0", false, 0},
      {"7", false, 7},
      {"+7", false, 7},
      {"-7", true, 7},
      {"007", false, 7},
      {"9223372036854775807", false, 9223372036854775807u},
      {"9223372036854775808", false, 9223372036854775808u},
      {"18446744073709551615", false, 18446744073709551615u},
      {"-18446744073709551615", true, 18446744073709551615u},
  };
  for (const auto& c : cases) {
    SCOPED_TRACE(std::string(c.text));
    const ParsedWhole w = parse_whole(c.text);
    EXPECT_EQ(w.status, WholeStatus::whole);
    EXPECT_EQ(w.negative, c.negative);
    EXPECT_EQ(w.magnitude, c.magnitude);
  }
  for (const std::string_view text : {"18446744073709551616", "-18446744073709551616",
                                      "99999999999999999999999999999999", "0018446744073709551616"})
    EXPECT_EQ(parse_whole(text).status, WholeStatus::out_of_range) << text;
  EXPECT_TRUE(parse_whole("-18446744073709551616").negative);
  using namespace std::string_view_literals;
  for (const std::string_view text :
       {""sv, "+"sv, "-"sv, " 1"sv, "1 "sv, "1.0"sv, "1e3"sv, "0x10"sv, "1_000"sv, "--1"sv, "+-1"sv,
        "inf"sv, "nan"sv, "\xef\xbc\x91"sv, "1\0"sv})
    EXPECT_EQ(parse_whole(text).status, WholeStatus::malformed) << text;
}

TEST(ParseWhole, ConvertsOnlyWhatTheTypeHolds) {
  EXPECT_EQ(parse_whole("255").as<std::uint8_t>(), std::uint8_t{255});
  EXPECT_FALSE(parse_whole("256").as<std::uint8_t>());
  EXPECT_FALSE(parse_whole("-1").as<std::uint64_t>());
  EXPECT_EQ(parse_whole("-0").as<std::uint64_t>(), 0u);
  EXPECT_EQ(parse_whole("-128").as<std::int8_t>(), std::int8_t{-128});
  EXPECT_FALSE(parse_whole("-129").as<std::int8_t>());
  EXPECT_FALSE(parse_whole("128").as<std::int8_t>());
  EXPECT_EQ(parse_whole("-9223372036854775808").as<long long>(),
            std::numeric_limits<long long>::min());
  EXPECT_FALSE(parse_whole("-9223372036854775809").as<long long>());
  EXPECT_FALSE(parse_whole("9223372036854775808").as<long long>());
  EXPECT_EQ(parse_whole("18446744073709551615").as<std::size_t>(),
            std::numeric_limits<std::size_t>::max());
  EXPECT_FALSE(parse_whole("18446744073709551616").as<std::size_t>());
  EXPECT_FALSE(parse_whole("1.5").as<int>());
}

TEST(TidyFixed, DropsTrailingZerosAndAPointAndWritesMinusZeroAsZero) {
  EXPECT_EQ(tidy_fixed("2.500"), "2.5");
  EXPECT_EQ(tidy_fixed("3.000"), "3");
  EXPECT_EQ(tidy_fixed("-0.00"), "0");
  EXPECT_EQ(tidy_fixed("-0"), "0");
  EXPECT_EQ(tidy_fixed("100"), "100");  // no point: its zeros are digits
  EXPECT_EQ(tidy_fixed("-1.250"), "-1.25");
}

}  // namespace
}  // namespace polynav
