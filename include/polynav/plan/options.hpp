#pragma once
/// @file
/// Declared options (like OMPL's ParamSet): every method, smoother and the search say which
/// options they take, of what type, with what default, unit, limits and meaning. Users set them
/// by name as text ("grid.resolution" = "0.25", the command line's `--set grid.resolution=0.25`);
/// the registry checks every value against its declaration before anything is built, so a typo
/// or a value out of range is an InputError naming the option, never a silent default.

#include <cmath>
#include <cstdint>
#include <functional>
#include <limits>
#include <map>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

#include "polynav/enum_names.hpp"
#include "polynav/number.hpp"

namespace polynav {

enum class OptionType : std::uint8_t {
  number,   ///< a finite real number, or "inf" where the option says it means no limit
  integer,  ///< a whole number (or "inf", a count's largest value, where it means no limit)
  flag,     ///< true or false
  choice,   ///< one of a list of words
};

inline constexpr auto option_type_names =
    enum_names(OptionType::number, "number", OptionType::integer, "integer", OptionType::flag,
               "flag", OptionType::choice, "choice");

/// "number", "integer", "flag" or "choice".
constexpr const char* to_string(OptionType type) {
  return name_of(option_type_names, type).data();
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
  /// "inf" (any spelling parse_number reads as +infinity) is taken and means no limit: a
  /// number reads as +infinity, an integer as its type's largest value. Without it a number
  /// must be finite and an integer whole.
  bool unlimited = false;
  /// An integer's type, the range the value is read into (OptionTable sets it from the member's
  /// type): a value outside it is refused, whatever `min` and `max` allow.
  std::int64_t integer_min = std::numeric_limits<std::int64_t>::min();
  std::uint64_t integer_max = std::numeric_limits<std::int64_t>::max();

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

  /// A number option's value (+infinity for "inf"); for an integer option, its value as a
  /// double (+infinity for its largest value when it is unlimited).
  double number(std::string_view name) const;
  /// An integer option's value, exactly. @throws std::logic_error when its declared type
  /// (OptionSpec::integer_min, integer_max) is wider than long long's
  long long integer(std::string_view name) const;
  /// An integer option's value as T, exactly (checked against the declared type when the
  /// settings were; T must hold that type). @throws std::logic_error when T cannot hold it
  template <class T>
  T whole(std::string_view name) const {
    const Value& v = at(name);
    if (const std::optional<T> x = v.whole.as<T>()) return *x;
    throw std::logic_error("option " + group_ + "." + std::string(name) + " is not a " +
                           "whole number its reader's type holds");
  }
  bool flag(std::string_view name) const;
  const std::string& text(std::string_view name) const;
  /// Whether the user set it (rather than the default applying).
  bool given(std::string_view name) const;

 private:
  struct Value {
    std::string text;
    double number = 0.0;
    bool given = false;
    ParsedWhole whole;  ///< an integer option's value, exactly
  };
  const Value& at(std::string_view name) const;
  std::string group_;
  std::map<std::string, Value, std::less<>> values_;
};

/// A number as option text: "inf" for +infinity (and the no-limit sentinel 1e308 and above),
/// else the shortest text that reads back as the same double.
std::string option_number_text(double v);

/// A count from a double: +infinity, and anything beyond what a std::size_t holds, is the
/// largest one (no limit); a negative value or NaN is 0; a fraction is dropped.
std::size_t option_count(double v);

/// One group's options, each declared once and bound to the member of the options struct O it
/// sets: name, member, type, limits, units, doc and, for a choice, the enumeration's names table
/// (enum_names.hpp). The group's OptionSpecs (what `polynav methods`, --help, the JSON and the
/// checks of OptionValues read), their default texts and the reading of checked values into an
/// O all come from here. Defaults are the members' values in `defaults` (O{} unless the method
/// offers other defaults than the class, said where the table is made), written as text by the
/// same rule that reads them, so a default is stated once, in the struct.
/// @code
///   const OptionTable<QuadtreeOptions> table = OptionTable<QuadtreeOptions>()
///       .flag("balance", &QuadtreeOptions::balance, "split leaves until ...")
///       .choice("nodes", &QuadtreeOptions::nodes, quadtree_nodes_names, "graph nodes at ...");
///   QuadtreeOptions o = table.read(OptionValues("quadtree", table.specs(), settings));
/// @endcode
template <class O>
class OptionTable {
 public:
  /// The allowed values of a number or integer.
  struct Range {
    double min = -1e308;
    bool min_exclusive = false;
    double max = 1e308;
    /// A number: "inf" is taken, as no limit (OptionSpec::unlimited); otherwise it must be
    /// finite. (An unsigned integer with no upper limit always takes "inf".)
    bool unlimited = false;
  };

  explicit OptionTable(O defaults = O{}) : defaults_(std::move(defaults)) {}

  /// A real number. `zero_is_auto`: the member's 0 is the method's own rule, written and read as
  /// "auto". Infinity, where range.unlimited allows it, is written and read as "inf".
  OptionTable& number(std::string name, double O::*member, std::string doc, std::string unit,
                      Range range, bool zero_is_auto = false) {
    OptionSpec spec = make_spec(std::move(name), OptionType::number, std::move(doc), range);
    spec.unit = std::move(unit);
    return add(
        std::move(spec),
        [member](const OptionValues& v, const std::string& n, O& o) { o.*member = v.number(n); },
        [member, zero_is_auto](const O& o) {
          return zero_is_auto && o.*member == 0.0 ? std::string("auto")
                                                  : option_number_text(o.*member);
        });
  }

  /// A whole number, checked against `range` and the range of T. An unsigned member without an
  /// upper limit is a count: its largest value is "inf" (no limit). `choices`: the only values
  /// allowed, as text.
  template <class T, class C>
  requires std::is_integral_v<T> && std::is_base_of_v<C, O> &&
      (sizeof(T) <= 8) OptionTable& integer(std::string name, T C::*declared, std::string doc,
                                            Range range, std::vector<std::string> choices = {}) {
    T O::*member = declared;
    OptionSpec spec = make_spec(std::move(name), OptionType::integer, std::move(doc), range);
    spec.choices = std::move(choices);
    spec.integer_min = std::numeric_limits<T>::min();
    spec.integer_max = std::numeric_limits<T>::max();
    spec.unlimited = std::is_unsigned_v<T> && range.max >= 1e308;
    return add(
        std::move(spec),
        [member](const OptionValues& v, const std::string& n, O& o) { o.*member = v.whole<T>(n); },
        [member](const O& o) {
          if constexpr (std::is_unsigned_v<T>) {
            if (o.*member == std::numeric_limits<T>::max()) return std::string("inf");
          }
          return std::to_string(o.*member);
        });
  }

  OptionTable& flag(std::string name, bool O::*member, std::string doc) {
    return add(
        make_spec(std::move(name), OptionType::flag, std::move(doc), {}),
        [member](const OptionValues& v, const std::string& n, O& o) { o.*member = v.flag(n); },
        [member](const O& o) { return std::string(o.*member ? "true" : "false"); });
  }

  /// One of the words of `names` (its aliases are not offered).
  template <class E, std::size_t N, class C>
  requires std::is_base_of_v<C, O> OptionTable& choice(std::string name, E C::*declared,
                                                       const EnumNames<E, N>& names,
                                                       std::string doc) {
    E O::*member = declared;
    OptionSpec spec = make_spec(std::move(name), OptionType::choice, std::move(doc), {});
    spec.choices = names_of(names);
    return add(
        std::move(spec),
        [member, &names](const OptionValues& v, const std::string& n, O& o) {
          o.*member = from_name(names, v.text(n), n, "value");
        },
        [member, &names](const O& o) { return std::string(name_of(names, o.*member)); });
  }

  /// An option whose text is not the member's own (another unit, a std::chrono duration): `spec`
  /// without its default, how to read the checked value into an O, and how to write an O's.
  OptionTable& custom(OptionSpec spec, std::function<void(const OptionValues&, O&)> read,
                      std::function<std::string(const O&)> write) {
    return add(
        std::move(spec),
        [read = std::move(read)](const OptionValues& v, const std::string&, O& o) { read(v, o); },
        std::move(write));
  }

  /// The group's declarations, defaults written from `defaults`.
  const std::vector<OptionSpec>& specs() const { return specs_; }

  /// An O with every declared member set from checked values (OptionValues over specs()); other
  /// members keep `defaults`' values.
  O read(const OptionValues& values) const {
    O o = defaults_;
    for (std::size_t i = 0; i < fields_.size(); ++i) fields_[i].read(values, specs_[i].name, o);
    return o;
  }

  /// Every declared member of o as option text, in declaration order: read(write(o)) == o for
  /// the declared members.
  std::vector<std::string> write(const O& o) const {
    std::vector<std::string> texts;
    for (const Field& f : fields_) texts.push_back(f.write(o));
    return texts;
  }

 private:
  struct Field {
    std::function<void(const OptionValues&, const std::string&, O&)> read;
    std::function<std::string(const O&)> write;
  };

  static OptionSpec make_spec(std::string name, OptionType type, std::string doc, Range range) {
    OptionSpec spec;
    spec.name = std::move(name);
    spec.type = type;
    spec.doc = std::move(doc);
    spec.min = range.min;
    spec.min_exclusive = range.min_exclusive;
    spec.max = range.max;
    spec.unlimited = range.unlimited;
    return spec;
  }

  OptionTable& add(OptionSpec spec,
                   std::function<void(const OptionValues&, const std::string&, O&)> read,
                   std::function<std::string(const O&)> write) {
    spec.default_value = write(defaults_);
    specs_.push_back(std::move(spec));
    fields_.push_back({std::move(read), std::move(write)});
    return *this;
  }

  O defaults_;
  std::vector<OptionSpec> specs_;
  std::vector<Field> fields_;
};

}  // namespace polynav
