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
  if (!out_) fail(std::strerror(errno));
  partial_made_ = true;
}

OutputFile::~OutputFile() {
  discard();
}

void OutputFile::discard() {
  if (!partial_made_) return;
  out_.close();
  std::error_code ignored;
  std::filesystem::remove(partial_, ignored);
  partial_made_ = false;
}

void OutputFile::fail(const std::string& why) {
  discard();
  throw InputError({path_.string(), 0, 0, key_}, "cannot write: " + why);
}

void OutputFile::write(std::string_view text) {
  const std::string_view pending = pending_.view();
  out_.write(pending.data(), std::streamsize(pending.size()));
  pending_.str({});
  out_.write(text.data(), std::streamsize(text.size()));
  // errno holds the failed write's reason (EFBIG, ENOSPC) when the stream failed.
  if (!out_) fail(errno != 0 ? std::strerror(errno) : "the write failed");
}

void OutputFile::check() {
  constexpr std::size_t piece = 64 * 1024;
  if (pending_.view().size() >= piece) write({});
}

void OutputFile::commit() {
  write({});
  out_.flush();
  const int error = out_ ? 0 : errno;
  out_.close();
  if (error != 0 || !out_) fail(error != 0 ? std::strerror(error) : "the write failed");
  std::error_code ec;
  std::filesystem::rename(partial_, path_, ec);
  if (ec) fail(ec.message());
  partial_made_ = false;  // it is `path` now
}

void write_output_file(const std::filesystem::path& path, std::string_view text,
                       const std::string& key) {
  OutputFile out(path, key);
  out.write(text);
  out.commit();
}

}  // namespace polynav
