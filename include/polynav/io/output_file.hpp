#pragma once
/// @file
/// Writing an output file whole or not at all, for every file polynav writes in one go (pictures,
/// converted scenes, experiment tables from Python).

#include <filesystem>
#include <string>
#include <string_view>

namespace polynav {

/// Writes `text` to `path` whole or not at all: into `path` + ".partial", renamed over `path`
/// once every byte is written and flushed. When writing fails (a full disk, a file size limit, a
/// folder that cannot be written), the partial file is removed and `path` is left as it was.
/// @throws InputError (file `path`, key `key`) saying why, with the system's reason
void write_output_file(const std::filesystem::path& path, std::string_view text,
                       const std::string& key = {});

}  // namespace polynav
