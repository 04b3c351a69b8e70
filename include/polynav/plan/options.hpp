#pragma once
/// @file
/// Declared options (like OMPL's ParamSet): every method, smoother and the search say which
/// options they take, of what type, with what default, unit, limits and meaning. Users set them
/// by name as text ("grid.resolution" = "0.25", the command line's `--set grid.resolution=0.25`);
/// the registry checks every value against its declaration before anything is built, so a typo
/// or a value out of range is an InputError naming the option, never a silent default.

#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <vector>

namespace polynav {

enum class OptionType : std::uint8_t {
  number,   ///< a finite real number (or "inf" where the upper limit is infinite)
  integer,  ///< a whole number
  flag,     ///< true or false
  choice,   ///< one of a list of words
};

/// "number", "integer", "flag" or "choice".
constexpr const char* to_string(OptionType type) {
  switch (type) {
    case OptionType::number:
      return "number";
    case OptionType::integer:
      return "integer";
    case OptionType::flag:
      return "flag";
    case OptionType::choice:
      return "choice";
  }
  return "";
}

/// The declaration of one option.
struct OptionSpec {
  std::string name;  ///< e.g. "resolution" (set as "grid.resolution")
  OptionType type = OptionType::number;
  /// As text, e.g. "0", "8", "auto", "false". A number whose default is "auto" also accepts
  /// "auto" (read as 0: the method's own rule) and holds its limits for every other value.
  std::string default_value;
  std::string doc;                   ///< one line: what it does, what the default means
  std::string unit;                  ///< e.g. "scene units", "ms"; empty for plain numbers
  double min = -1e308;               ///< lowest allowed value (number, integer)
  double max = 1e308;                ///< highest allowed value (number, integer); 1e308 = no limit
  bool min_exclusive = false;        ///< the value must be > min rather than >= min
  std::vector<std::string> choices;  ///< the allowed words (choice), or values (integer)

  /// "[Limit: > 0] [Units: scene units] [Default: 0]" for help texts.
  std::string limits_text() const;
};

/// Option values as the user gave them, keyed "group.name": the group is a method's name, a
/// smoother's name, "search" or "space".
class Settings {
 public:
  /// Sets an option's value as text ("0.25", "true", "octile"); a later set replaces it.
  void set(const std::string& key, std::string value) { values_[key] = std::move(value); }
  /// Sets a number (written with full precision).
  void set(const std::string& key, double value);
  void set(const std::string& key, int value) { set(key, std::to_string(value)); }
  void set(const std::string& key, bool value) { set(key, std::string(value ? "true" : "false")); }
  void set(const std::string& key, const char* value) { set(key, std::string(value)); }
  /// Parses "group.name=value" (the command line's --set). @throws InputError without '='
  void set_assignment(std::string_view assignment);
  bool has(const std::string& key) const { return values_.count(key) != 0; }
  const std::map<std::string, std::string>& values() const { return values_; }
  /// The options of one group, "name=value;name=value" in name order ("" when none).
  std::string group_text(std::string_view group) const;

 private:
  std::map<std::string, std::string> values_;
};

/// One group's options resolved against their declarations: every declared option has a checked
/// value (the user's or the default).
class OptionValues {
 public:
  OptionValues() = default;
  /// Checks the settings of `group` against `specs`. @throws InputError (key "group.name") for
  /// an undeclared option (with the closest declared name) or a value of the wrong type or out of
  /// its limits.
  OptionValues(std::string_view group, const std::vector<OptionSpec>& specs,
               const Settings& settings);

  double number(std::string_view name) const;
  long long integer(std::string_view name) const;
  bool flag(std::string_view name) const;
  const std::string& text(std::string_view name) const;
  /// Whether the user set it (rather than the default applying).
  bool given(std::string_view name) const;

 private:
  struct Value {
    std::string text;
    double number = 0.0;
    bool given = false;
  };
  const Value& at(std::string_view name) const;
  std::string group_;
  std::map<std::string, Value, std::less<>> values_;
};

}  // namespace polynav
