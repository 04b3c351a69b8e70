#pragma once
// The message of the InputError a callable throws, for tests of rejection messages.

#include <string>

#include "polynav/error.hpp"

namespace polynav::test {

/// The message of the InputError `f` throws, or "" when it throws nothing.
template <class F>
std::string error_of(F&& f) {
  try {
    f();
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

}  // namespace polynav::test
