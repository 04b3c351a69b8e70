#pragma once
// Running a program (the polynav tool: POLYNAV_CLI) as a process and capturing what it writes,
// through files rather than pipes, so that nothing has to be drained while it runs.

#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

extern char** environ;

namespace polynav::test_support {

// The whole file, or "" when it cannot be read.
inline std::string read_file(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

// Starts `program` with `args`, its standard output written to `out_path` and its standard error
// to `err_path` (each left as this process's own when empty). Returns the process id, or -1.
inline pid_t start_program(const std::string& program, const std::vector<std::string>& args,
                           const std::string& out_path, const std::string& err_path = {}) {
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  if (!out_path.empty())
    posix_spawn_file_actions_addopen(&actions, 1, out_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC,
                                     0644);
  if (!err_path.empty())
    posix_spawn_file_actions_addopen(&actions, 2, err_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC,
                                     0644);
  std::vector<std::string> storage{program};
  storage.insert(storage.end(), args.begin(), args.end());
  std::vector<char*> argv;
  for (std::string& a : storage) argv.push_back(a.data());
  argv.push_back(nullptr);
  pid_t pid = 0;
  const int spawned = posix_spawn(&pid, program.c_str(), &actions, nullptr, argv.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  return spawned == 0 ? pid : -1;
}

struct RunResult {
  int exit_code = -1;   // -1 unless the program exited normally
  std::string out;      // standard output, unless it was sent elsewhere
  std::string err;      // standard error
  std::string problem;  // why there is no exit code: it did not start, or a signal ended it
};

// Runs `program` with `args` to the end. Its output goes through files in `dir`; standard output
// goes to `stdout_to` instead when that is given (e.g. /dev/full), and is then not read back.
inline RunResult run_program(const std::string& program, const std::vector<std::string>& args,
                             const std::filesystem::path& dir, const std::string& stdout_to = {}) {
  const std::string out_path = stdout_to.empty() ? (dir / "stdout.txt").string() : stdout_to;
  const std::string err_path = (dir / "stderr.txt").string();
  RunResult r;
  const pid_t pid = start_program(program, args, out_path, err_path);
  if (pid < 0) {
    r.problem = "cannot start " + program;
    return r;
  }
  int status = 0;
  waitpid(pid, &status, 0);
  if (WIFEXITED(status)) {
    r.exit_code = WEXITSTATUS(status);
  } else if (WIFSIGNALED(status)) {
    r.problem =
        program + " did not exit normally (signal " + std::to_string(WTERMSIG(status)) + ")";
  }
  if (stdout_to.empty()) r.out = read_file(out_path);
  r.err = read_file(err_path);
  return r;
}

}  // namespace polynav::test_support
