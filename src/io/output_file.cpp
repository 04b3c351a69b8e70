#include "polynav/io/output_file.hpp"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <system_error>

#include "polynav/error.hpp"

namespace polynav {

void write_output_file(const std::filesystem::path& path, std::string_view text,
                       const std::string& key) {
  const auto fail = [&](const std::string& why) {
    throw InputError({path.string(), 0, 0, key}, "cannot write: " + why);
  };
  std::filesystem::path partial = path;
  partial += ".partial";
  std::ofstream out(partial, std::ios::binary | std::ios::trunc);
  if (!out) fail(std::strerror(errno));
  out.write(text.data(), std::streamsize(text.size()));
  out.flush();
  // errno still holds the failed write's reason (EFBIG, ENOSPC) when the stream failed.
  const int error = out ? 0 : errno;
  out.close();
  if (error != 0 || !out) {
    std::error_code ignored;
    std::filesystem::remove(partial, ignored);
    fail(error != 0 ? std::strerror(error) : "the write failed");
  }
  std::error_code ec;
  std::filesystem::rename(partial, path, ec);
  if (ec) {
    std::error_code ignored;
    std::filesystem::remove(partial, ignored);
    fail(ec.message());
  }
}

}  // namespace polynav
