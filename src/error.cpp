#include "polynav/error.hpp"
#include "polynav/enum_names.hpp"
#include "polynav/text.hpp"

#include <algorithm>
#include <sstream>
#include <vector>

namespace polynav {

std::string InputLocation::to_string() const {
  std::ostringstream s;
  s << file;
  if (line > 0) {
    s << (file.empty() ? "" : ":") << line;
    if (column > 0) s << ":" << column;
  }
  if (!key_path.empty()) s << (file.empty() && line <= 0 ? "" : ": ") << key_path;
  return s.str();
}

namespace {
// The one-line text of an error: file names, keys and values quoted in the message may hold any
// bytes, line breaks included (polynav/text.hpp).
std::string compose(const InputLocation& where, const std::string& message) {
  const std::string prefix = where.to_string();
  return one_line(prefix.empty() ? message : prefix + ": " + message);
}
}  // namespace

namespace {

// Optimal string alignment distance: edits, with a swap of neighbours counting as one, which is
// the commonest typo in a name ("raduis").
std::size_t edit_distance(std::string_view a, std::string_view b) {
  const std::size_t n = a.size();
  const std::size_t m = b.size();
  std::vector<std::size_t> d((n + 1) * (m + 1));
  const auto at = [&](std::size_t i, std::size_t j) -> std::size_t& { return d[i * (m + 1) + j]; };
  for (std::size_t i = 0; i <= n; ++i) at(i, 0) = i;
  for (std::size_t j = 0; j <= m; ++j) at(0, j) = j;
  for (std::size_t i = 1; i <= n; ++i) {
    for (std::size_t j = 1; j <= m; ++j) {
      const std::size_t cost = a[i - 1] == b[j - 1] ? 0 : 1;
      at(i, j) = std::min({at(i - 1, j) + 1, at(i, j - 1) + 1, at(i - 1, j - 1) + cost});
      if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1]) {
        at(i, j) = std::min(at(i, j), at(i - 2, j - 2) + 1);
      }
    }
  }
  return at(n, m);
}

}  // namespace

std::string_view closest_name(std::string_view name, std::span<const std::string_view> candidates) {
  std::string_view best;
  std::size_t best_distance = 0;
  for (const std::string_view candidate : candidates) {
    const std::size_t dist = edit_distance(name, candidate);
    const std::size_t tolerance = candidate.size() >= 6 ? 2 : 1;
    const bool prefix = name.size() >= 3 && candidate.starts_with(name);
    if ((dist <= tolerance || prefix) && (best.empty() || dist < best_distance)) {
      best = candidate;
      best_distance = dist;
    }
  }
  return best;
}

InputError::InputError(InputLocation where, const std::string& message)
    : std::runtime_error(compose(where, message)),
      where_(std::move(where)),
      message_(one_line(message)) {}

std::string or_list(const std::vector<std::string>& words) {
  std::string s;
  for (std::size_t i = 0; i < words.size(); ++i)
    s += (i == 0 ? "" : i + 1 == words.size() ? " or " : ", ") + words[i];
  return s;
}

}  // namespace polynav
