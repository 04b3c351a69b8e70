#include "polynav/error.hpp"

namespace polynav {

std::string InputLocation::to_string() const {
  std::string s = file;
  if (line > 0) {
    s += (s.empty() ? "" : ":") + std::to_string(line);
    if (column > 0) s += ":" + std::to_string(column);
  }
  if (!key_path.empty()) s += (s.empty() ? "" : ": ") + key_path;
  return s;
}

namespace {
std::string compose(const InputLocation& where, const std::string& message) {
  const std::string prefix = where.to_string();
  return prefix.empty() ? message : prefix + ": " + message;
}
}  // namespace

InputError::InputError(InputLocation where, const std::string& message)
    : std::runtime_error(compose(where, message)), where_(std::move(where)), message_(message) {}

}  // namespace polynav
