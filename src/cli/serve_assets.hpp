#pragma once
// The files of `polynav serve`'s page (src/cli/serve/), compiled into the binary by
// src/cli/serve/embed.cmake so that the server needs nothing at run time.

#include <string_view>

namespace polynav::cli {

struct ServeAsset {
  std::string_view bytes;
  std::string_view content_type;
};

// The page file `name` ("index.html", "app.js", "style.css"). @throws std::logic_error for a
// name that is not one of them (the routes name only these).
ServeAsset serve_asset(std::string_view name);

}  // namespace polynav::cli
