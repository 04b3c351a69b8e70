#pragma once
/// @file
/// The names of an enumeration's values, declared once beside the enumeration as a table, from
/// which reading a name, writing one and listing the choices (an option's allowed words, a help
/// text) all come:
/// @code
///   inline constexpr auto grid_align_names =
///       enum_names(GridAlign::centre, "centre", GridAlign::corner, "corner");
///   GridAlign a = from_name(grid_align_names, "corner", "grid.align", "grid alignment");
///   std::string_view n = name_of(grid_align_names, a);  // "corner"
/// @endcode
/// A later row with a value already named is an alias: it is read, never written or listed.

#include <array>
#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "polynav/error.hpp"

namespace polynav {

template <class E>
struct EnumName {
  E value;
  std::string_view name;
};

template <class E, std::size_t N>
using EnumNames = std::array<EnumName<E>, N>;

/// A table from value, name, value, name, ... (the rows in that order).
template <class E, class... Rest>
constexpr EnumNames<E, 1 + sizeof...(Rest) / 2> enum_names(E value, std::string_view name,
                                                           Rest... rest) {
  static_assert(sizeof...(Rest) % 2 == 0, "enum_names takes value, name pairs");
  EnumNames<E, 1 + sizeof...(Rest) / 2> table{};
  table[0] = {value, name};
  if constexpr (sizeof...(Rest) > 0) {
    const auto tail = enum_names(rest...);
    for (std::size_t i = 0; i < tail.size(); ++i) table[i + 1] = tail[i];
  }
  return table;
}

/// The names to list: every row but aliases, in table order.
template <class E, std::size_t N>
std::vector<std::string> names_of(const EnumNames<E, N>& table) {
  std::vector<std::string> names;
  for (std::size_t i = 0; i < N; ++i) {
    bool alias = false;
    for (std::size_t j = 0; j < i; ++j) alias = alias || table[j].value == table[i].value;
    if (!alias) names.emplace_back(table[i].name);
  }
  return names;
}

/// The name value is written as (its first row). @pre value has a row
template <class E, std::size_t N>
constexpr std::string_view name_of(const EnumNames<E, N>& table, E value) {
  for (const EnumName<E>& row : table)
    if (row.value == value) return row.name;
  return {};
}

/// "a, b or c": the names as a help text or message lists them.
std::string or_list(const std::vector<std::string>& words);

/// The value named `text`. @throws InputError (key `key`) "unknown <what> '<text>' (did you mean
/// '<near>'?) (expected a, b or c)".
template <class E, std::size_t N>
E from_name(const EnumNames<E, N>& table, std::string_view text, std::string_view key,
            std::string_view what) {
  for (const EnumName<E>& row : table)
    if (row.name == text) return row.value;
  const std::vector<std::string> names = names_of(table);
  const std::vector<std::string_view> views(names.begin(), names.end());
  std::string message = "unknown " + std::string(what) + " '" + std::string(text) + "'";
  if (const std::string_view near = closest_name(text, views); !near.empty())
    message += " (did you mean '" + std::string(near) + "'?)";
  throw InputError({"", 0, 0, std::string(key)}, message + " (expected " + or_list(names) + ")");
}

}  // namespace polynav
