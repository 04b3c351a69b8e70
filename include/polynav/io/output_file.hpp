#pragma once
/// @file
/// Writing an output file whole or not at all, for every file polynav writes in one go (pictures,
/// converted scenes, experiment tables from Python).

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <string_view>

namespace polynav {

/// An output file written whole or not at all, as it is made: the text goes into `path` +
/// ".partial" in pieces of about 64 KB (so that a long table is never held whole in memory),
/// which commit() renames over `path` once every byte is written and flushed. Destroyed without
/// commit() (the run failed or was given up), the partial file is removed and `path` is left as
/// it was.
class OutputFile {
 public:
  /// Opens the partial file. @throws InputError (file `path`, key `key`) when it cannot be made
  explicit OutputFile(std::filesystem::path path, std::string key = {});
  ~OutputFile();
  OutputFile(const OutputFile&) = delete;
  OutputFile& operator=(const OutputFile&) = delete;

  /// Where the text is written; it reaches the file at check() and commit().
  std::ostream& stream() { return pending_; }
  /// Writes what the stream holds to the file once it is 64 KB or more, throwing as commit()
  /// would when that write fails: a run writing row after row stops at the piece that cannot be
  /// written, with that write's reason. (The pieces are written as text made in one go is: on
  /// a file stream, a large write goes to the system directly.)
  void check();
  /// Writes what the stream holds, then `text`, to the file now (text made in one go, not
  /// copied). @throws InputError as check()
  void write(std::string_view text);
  /// Writes the rest, flushes and renames the file over `path`. @throws InputError saying why it
  /// could not be written (a full disk, a file size limit), the partial file removed
  void commit();

 private:
  // Closes and removes the partial file, when there is one.
  void discard();
  [[noreturn]] void fail(const std::string& why);
  std::filesystem::path path_, partial_;
  std::string key_;
  std::ofstream out_;
  std::ostringstream pending_;
  bool partial_made_ = false;  // the partial file exists and is this object's to remove
};

/// Writes `text` to `path` whole or not at all: into `path` + ".partial", renamed over `path`
/// once every byte is written and flushed. When writing fails (a full disk, a file size limit, a
/// folder that cannot be written), the partial file is removed and `path` is left as it was.
/// @throws InputError (file `path`, key `key`) saying why, with the system's reason
void write_output_file(const std::filesystem::path& path, std::string_view text,
                       const std::string& key = {});

}  // namespace polynav
