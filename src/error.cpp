#include "polynav/error.hpp"

#include <sstream>

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
std::string compose(const InputLocation& where, const std::string& message) {
  const std::string prefix = where.to_string();
  return prefix.empty() ? message : prefix + ": " + message;
}
}  // namespace

InputError::InputError(InputLocation where, const std::string& message)
    : std::runtime_error(compose(where, message)), where_(std::move(where)), message_(message) {}

}  // namespace polynav
