#include "polynav/io/output_file.hpp"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <system_error>

#include "polynav/error.hpp"

namespace polynav {

OutputFile::OutputFile(std::filesystem::path path, std::string key)
    : path_(std::move(path)), key_(std::move(key)) {
  partial_ = path_;
  partial_ += ".partial";
  out_.open(partial_, std::ios::binary | std::ios::trunc);
  if (!out_) {
    committed_ = true;  // nothing was made to remove
    fail(std::strerror(errno));
  }
}

OutputFile::~OutputFile() {
  if (committed_) return;
  out_.close();
  std::error_code ignored;
  std::filesystem::remove(partial_, ignored);
}

void OutputFile::fail(const std::string& why) {
  if (!committed_) {
    out_.close();
    std::error_code ignored;
    std::filesystem::remove(partial_, ignored);
    committed_ = true;
  }
  throw InputError({path_.string(), 0, 0, key_}, "cannot write: " + why);
}

void OutputFile::check() {
  if (!out_) fail(errno != 0 ? std::strerror(errno) : "the write failed");
}

void OutputFile::commit() {
  out_.flush();
  // errno still holds the failed write's reason (EFBIG, ENOSPC) when the stream failed.
  const int error = out_ ? 0 : errno;
  out_.close();
  if (error != 0 || !out_) fail(error != 0 ? std::strerror(error) : "the write failed");
  std::error_code ec;
  std::filesystem::rename(partial_, path_, ec);
  if (ec) fail(ec.message());
  committed_ = true;
}

void write_output_file(const std::filesystem::path& path, std::string_view text,
                       const std::string& key) {
  OutputFile out(path, key);
  out.stream().write(text.data(), std::streamsize(text.size()));
  out.commit();
}

}  // namespace polynav
