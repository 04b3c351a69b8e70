#pragma once
/// @file
/// The library's version, one for everything built from this tree: `polynav --version`, the
/// OMPL log's header and Python's `polynav.__version__` all print it.

#include <string_view>

namespace polynav {

/// The project's version, "MAJOR.MINOR.PATCH" (CMake's PROJECT_VERSION).
std::string_view version();

}  // namespace polynav
