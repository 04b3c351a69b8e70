#include "polynav/plan/options.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <limits>
#include <optional>
#include <stdexcept>

#include "polynav/error.hpp"
#include "polynav/number.hpp"

namespace polynav {
namespace {

std::string join(const std::vector<std::string>& words) {
  std::string s;
  for (const std::string& w : words) s += (s.empty() ? "" : ", ") + w;
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
  return v >= 1.8e19 ? std::numeric_limits<std::size_t>::max() : std::size_t(v);
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
    Value v{it != settings.values().end() ? it->second : spec.default_value, 0.0,
            it != settings.values().end()};
    const auto fail = [&](const std::string& what) {
      throw InputError({"", 0, 0, key}, what + ", found '" + v.text + "'");
    };
    switch (spec.type) {
      case OptionType::number:
      case OptionType::integer: {
        if (spec.type == OptionType::number && v.text == "auto" && spec.default_value == "auto")
          break;  // the method's own rule, read as 0
        // "inf" is the largest number, which only an unlimited option takes.
        const std::optional<double> n =
            v.text == "inf" || v.text == "infinity" ? std::optional(1e308) : parse_finite(v.text);
        const bool whole = n && (spec.type == OptionType::number || std::floor(*n) == *n);
        if (!whole)
          fail(spec.type == OptionType::number ? "expected a number" : "expected a whole number");
        v.number = *n;
        if (!spec.choices.empty() &&
            std::find(spec.choices.begin(), spec.choices.end(), v.text) == spec.choices.end())
          fail("expected one of " + join(spec.choices));
        const bool below = spec.min_exclusive ? !(v.number > spec.min) : v.number < spec.min;
        if (below || v.number > spec.max) fail("out of range " + spec.limits_text());
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
  return static_cast<long long>(at(name).number);
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
