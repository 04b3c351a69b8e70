#pragma once
/// @file
/// Writing an output file whole or not at all, for every file polynav writes in one go (pictures,
/// converted scenes, experiment tables from Python).

#include <filesystem>
#include <fstream>
#include <string>
#include <string_view>

namespace polynav {

/// An output file written whole or not at all, as it is made: the text goes into `path` +
/// ".partial" (streamed, so that a long table is never held in memory), which commit() renames
/// over `path` once every byte is written and flushed. Destroyed without commit() (the run failed
/// or was given up), the partial file is removed and `path` is left as it was.
class OutputFile {
 public:
  /// Opens the partial file. @throws InputError (file `path`, key `key`) when it cannot be made
  explicit OutputFile(std::filesystem::path path, std::string key = {});
  ~OutputFile();
  OutputFile(const OutputFile&) = delete;
  OutputFile& operator=(const OutputFile&) = delete;

  std::ostream& stream() { return out_; }
  /// Throws as commit() would once a write has failed (the reason is the system's at that
  /// write, which later calls would overwrite): a run writing row after row stops at the first
  /// row that cannot be written.
  void check();
  /// Flushes the text and renames it over `path`. @throws InputError saying why it could not be
  /// written (a full disk, a file size limit), the partial file removed
  void commit();

 private:
  [[noreturn]] void fail(const std::string& why);
  std::filesystem::path path_, partial_;
  std::string key_;
  std::ofstream out_;
  bool committed_ = false;
};

/// Writes `text` to `path` whole or not at all: into `path` + ".partial", renamed over `path`
/// once every byte is written and flushed. When writing fails (a full disk, a file size limit, a
/// folder that cannot be written), the partial file is removed and `path` is left as it was.
/// @throws InputError (file `path`, key `key`) saying why, with the system's reason
void write_output_file(const std::filesystem::path& path, std::string_view text,
                       const std::string& key = {});

}  // namespace polynav
