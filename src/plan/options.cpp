#include "polynav/plan/options.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <limits>
#include <optional>
#include <stdexcept>
#include <string>

#include "polynav/error.hpp"
#include "polynav/number.hpp"

namespace polynav {
namespace {

std::string join(const std::vector<std::string>& words) {
  std::string s;
  for (const std::string& w : words) s += (s.empty() ? "" : ", ") + w;
  return s;
}

// 2^64 as a double: every whole double of smaller magnitude converts to std::uint64_t exactly.
constexpr double two_to_64 = 18446744073709551616.0;

// An integer option's text as an exact whole number: decimal digits with an optional sign; a
// number parse_number reads that is exactly whole ("1e3", "2.0"), converted only once it is
// known to fit; "inf" where the option is unlimited, as its type's largest value.
ParsedWhole whole_value(const std::string& text, const OptionSpec& spec) {
  const ParsedWhole digits = parse_whole(text);
  if (digits.status != WholeStatus::malformed) return digits;
  const ParsedNumber n = parse_number(text);
  if (n.status == NumberStatus::infinite) {
    if (n.value > 0 && spec.unlimited) return {false, spec.integer_max, WholeStatus::whole};
    return {n.value < 0, 0, WholeStatus::out_of_range};
  }
  if (!n.is_finite() || std::floor(n.value) != n.value) return {};
  const double magnitude = std::fabs(n.value);
  if (magnitude >= two_to_64) return {false, 0, WholeStatus::out_of_range};
  const auto m = static_cast<std::uint64_t>(magnitude);
  return {n.value < 0 && m != 0, m, WholeStatus::whole};
}

// Whether the whole number lies in [low, high].
bool within(const ParsedWhole& w, std::int64_t low, std::uint64_t high) {
  if (!w.negative) return w.magnitude <= high;
  if (low >= 0) return false;
  // -magnitude >= low, that is magnitude <= -low, computed without overflow.
  return w.magnitude - 1 <= static_cast<std::uint64_t>(-(low + 1));
}

// The whole number compared with a limit declared as a double: -1, 0 or 1 (w < d, ==, >).
int compare(const ParsedWhole& w, double d) {
  if (d >= two_to_64) return -1;
  if (d <= -two_to_64) return 1;
  // |d| < 2^64: compare the whole parts exactly, then the fraction.
  const double whole_part = std::trunc(d);
  const bool d_negative = whole_part < 0;
  const auto d_magnitude = static_cast<std::uint64_t>(std::fabs(whole_part));
  const double fraction = d - whole_part;  // exact
  const auto sign_of = [](bool negative, std::uint64_t magnitude) {
    return magnitude == 0 ? 0 : negative ? -1 : 1;
  };
  const int ws = sign_of(w.negative, w.magnitude), ds = sign_of(d_negative, d_magnitude);
  if (ws != ds) return ws < ds ? -1 : 1;
  if (w.magnitude != d_magnitude) {
    const bool larger = w.magnitude > d_magnitude;
    return (larger != (ws < 0)) ? 1 : -1;
  }
  // Equal whole parts: w is d's whole part, so the fraction decides.
  return fraction > 0 ? -1 : fraction < 0 ? 1 : 0;
}

bool below_min(const ParsedWhole& w, const OptionSpec& spec) {
  const int c = compare(w, spec.min);
  return spec.min_exclusive ? c <= 0 : c < 0;
}

bool above_max(const ParsedWhole& w, const OptionSpec& spec) {
  return spec.max < 1e308 && compare(w, spec.max) > 0;
}

double to_double(const ParsedWhole& w) {
  const auto m = static_cast<double>(w.magnitude);
  return w.negative ? -m : m;
}

// "the largest value is 18446744073709551615 ('inf': no limit)" and the like, for a value
// beyond the integer's type.
std::string type_range_text(const OptionSpec& spec) {
  std::string s = "the largest value is " + std::to_string(spec.integer_max);
  if (spec.unlimited) s += " ('inf': no limit)";
  if (spec.integer_min < 0) s += ", the smallest " + std::to_string(spec.integer_min);
  return s;
}

}  // namespace

std::string option_number_text(double v) {
  if (v >= 1e308) return "inf";
  char buffer[32];
  const auto end = std::to_chars(buffer, buffer + sizeof buffer, v).ptr;
  return std::string(buffer, end);
}

std::size_t option_count(double v) {
  // 2^64 as a double; every double below it converts exactly (after dropping the fraction).
  constexpr double beyond = 18446744073709551616.0;
  if (!(v > 0.0)) return 0;
  if (v >= beyond) return std::numeric_limits<std::size_t>::max();
  return static_cast<std::size_t>(v);
}

std::string OptionSpec::limits_text() const {
  std::string s;
  if (type == OptionType::choice || (type == OptionType::integer && !choices.empty())) {
    s += "[One of: " + join(choices) + "]";
  } else if (type == OptionType::number || type == OptionType::integer) {
    std::string limit;
    if (min > -1e308) limit += std::string(min_exclusive ? "> " : ">= ") + option_number_text(min);
    if (max < 1e308)
      limit += (limit.empty() ? "" : ", ") + std::string("<= ") + option_number_text(max);
    if (!limit.empty()) s += "[Limit: " + limit + "]";
  }
  if (!unit.empty()) {
    if (!s.empty()) s += ' ';
    s += "[Units: ";
    s += unit;
    s += ']';
  }
  if (!s.empty()) s += ' ';
  s += "[Default: ";
  s += default_value;
  s += ']';
  return s;
}

void Settings::set(const std::string& key, double value) {
  set(key, option_number_text(value));
}

void Settings::set_assignment(std::string_view assignment) {
  const std::size_t eq = assignment.find('=');
  const std::string key(assignment.substr(0, eq));
  if (eq == std::string_view::npos || key.empty() || key.find('.') == std::string::npos)
    throw InputError({"", 0, 0, "--set"},
                     "expected GROUP.OPTION=VALUE (e.g. grid.resolution=0.5), found '" +
                         std::string(assignment) + "'");
  set(key, std::string(assignment.substr(eq + 1)));
}

std::string Settings::group_text(std::string_view group) const {
  std::string s;
  const std::string prefix = std::string(group) + ".";
  for (const auto& [key, value] : values_)
    if (key.starts_with(prefix)) {
      if (!s.empty()) s += ';';
      s.append(key, prefix.size());
      s += '=';
      s += value;
    }
  return s;
}

OptionValues::OptionValues(std::string_view group, const std::vector<OptionSpec>& specs,
                           const Settings& settings)
    : group_(group) {
  const std::string prefix = group_ + ".";
  for (const auto& [key, value] : settings.values()) {
    if (!key.starts_with(prefix)) continue;
    const std::string name = key.substr(prefix.size());
    if (std::any_of(specs.begin(), specs.end(),
                    [&](const OptionSpec& s) { return s.name == name; }))
      continue;
    std::vector<std::string_view> names;
    for (const OptionSpec& s : specs) names.push_back(s.name);
    std::string message = "unknown option '" + key + "'";
    if (const std::string_view near = closest_name(name, names); !near.empty())
      message += " (did you mean '" + group_ + "." + std::string(near) + "'?)";
    std::string all;
    for (const std::string_view n : names) all += (all.empty() ? "" : ", ") + std::string(n);
    message +=
        names.empty() ? "; " + group_ + " takes no options" : "; " + group_ + " takes " + all;
    throw InputError({"", 0, 0, key}, message);
  }
  for (const OptionSpec& spec : specs) {
    const std::string key = prefix + spec.name;
    const auto it = settings.values().find(key);
    Value v{it != settings.values().end() ? it->second : spec.default_value,
            0.0,
            it != settings.values().end(),
            {}};
    const auto fail = [&](const std::string& what) {
      throw InputError({"", 0, 0, key}, what + ", found '" + v.text + "'");
    };
    switch (spec.type) {
      case OptionType::number: {
        if (v.text == "auto" && spec.default_value == "auto")
          break;  // the method's own rule, read as 0
        const ParsedNumber n = parse_number(v.text);
        if (n.status == NumberStatus::malformed || n.status == NumberStatus::out_of_range)
          fail("expected a number");
        // Infinity is "no limit", which only an unlimited option takes; NaN is nothing.
        const bool no_limit = n.status == NumberStatus::infinite && n.value > 0 && spec.unlimited;
        if (n.status == NumberStatus::not_a_number ||
            (n.status == NumberStatus::infinite && !no_limit && !spec.unlimited))
          fail("must be a finite number");
        v.number = n.value;
        const bool below = spec.min_exclusive ? !(v.number > spec.min) : v.number < spec.min;
        if (below || (v.number > spec.max && !no_limit)) fail("out of range " + spec.limits_text());
        break;
      }
      case OptionType::integer: {
        v.whole = whole_value(v.text, spec);
        if (v.whole.status == WholeStatus::malformed) fail("expected a whole number");
        if (v.whole.status == WholeStatus::out_of_range ||
            !within(v.whole, spec.integer_min, spec.integer_max)) {
          // The declared limit when there is one on that side, else the type's.
          const bool declared = v.whole.negative ? spec.min > -1e308 : spec.max < 1e308;
          fail(declared ? "out of range " + spec.limits_text()
                        : "out of range: " + type_range_text(spec));
        }
        if (!spec.choices.empty() &&
            std::find(spec.choices.begin(), spec.choices.end(), v.text) == spec.choices.end())
          fail("expected one of " + join(spec.choices));
        if (below_min(v.whole, spec) || above_max(v.whole, spec))
          fail("out of range " + spec.limits_text());
        v.number = to_double(v.whole);
        // A count at its largest value has no limit, as "inf" says.
        if (spec.unlimited && !v.whole.negative && v.whole.magnitude == spec.integer_max)
          v.number = std::numeric_limits<double>::infinity();
        break;
      }
      case OptionType::flag:
        if (v.text == "true" || v.text == "1" || v.text == "yes" || v.text == "on") {
          v.text = "true";
        } else if (v.text == "false" || v.text == "0" || v.text == "no" || v.text == "off") {
          v.text = "false";
        } else {
          fail("expected true or false");
        }
        break;
      case OptionType::choice:
        if (std::find(spec.choices.begin(), spec.choices.end(), v.text) == spec.choices.end()) {
          std::vector<std::string_view> words(spec.choices.begin(), spec.choices.end());
          std::string what = "expected one of " + join(spec.choices);
          if (const std::string_view near = closest_name(v.text, words); !near.empty())
            what = "did you mean '" + std::string(near) + "'? " + what;
          fail(what);
        }
        break;
    }
    values_.emplace(spec.name, std::move(v));
  }
}

const OptionValues::Value& OptionValues::at(std::string_view name) const {
  const auto it = values_.find(name);
  if (it == values_.end())
    throw std::logic_error("option " + group_ + "." + std::string(name) + " is not declared");
  return it->second;
}

double OptionValues::number(std::string_view name) const {
  return at(name).number;
}
long long OptionValues::integer(std::string_view name) const {
  return whole<long long>(name);
}
bool OptionValues::flag(std::string_view name) const {
  return at(name).text == "true";
}
const std::string& OptionValues::text(std::string_view name) const {
  return at(name).text;
}
bool OptionValues::given(std::string_view name) const {
  return at(name).given;
}

}  // namespace polynav
