#include "polynav/version.hpp"

namespace polynav {

std::string_view version() {
  return POLYNAV_VERSION;
}

}  // namespace polynav
