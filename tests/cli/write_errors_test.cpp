// Outputs that cannot be written, on any machine: the tool runs under a file size limit of one
// 512-byte block (`ulimit -f 1`, with SIGXFSZ ignored so that a write past it fails with EFBIG
// instead of killing the process), which every output here exceeds. Each subcommand must then
// exit 2 with one error line naming the output, and leave no half-written file: an existing
// file keeps its content, a new one is not created, no temporary is left. (/dev/full, where it
// is a device, is tested in cli_test.cpp.)

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "support/cli_fixture.hpp"

namespace fs = std::filesystem;
using polynav::test_support::read_file;
using polynav::test_support::RunResult;

namespace {

class WriteErrors : public polynav::test_support::CliTest {
 protected:
  // The tool with `args` under a file size limit of 512 bytes; standard output to a file in dir.
  RunResult run_limited(const std::vector<std::string>& args) const {
    std::vector<std::string> shell = {"-c", "ulimit -f 1 && trap '' XFSZ && exec \"$0\" \"$@\"",
                                      POLYNAV_CLI};
    shell.insert(shell.end(), args.begin(), args.end());
    RunResult r = polynav::test_support::run_program("/bin/sh", shell, dir_);
    EXPECT_EQ(r.problem, "");
    return r;
  }

  // Nothing is left in dir but the run's own stdout.txt and stderr.txt.
  void expect_nothing_left() const {
    for (const fs::directory_entry& e : fs::directory_iterator(dir_)) {
      const std::string name = e.path().filename().string();
      EXPECT_TRUE(name == "stdout.txt" || name == "stderr.txt") << "left behind: " << name;
    }
  }

  static void expect_one_error_line(const RunResult& r, const std::string& text) {
    EXPECT_EQ(r.exit_code, 2) << r.err;
    EXPECT_EQ(r.err.rfind("error: ", 0), 0u) << r.err;
    EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
    EXPECT_NE(r.err.find(text), std::string::npos) << r.err;
  }
};

const std::string scene = std::string(POLYNAV_SOURCE_DIR) + "/scenes/warehouse.yaml";

TEST_F(WriteErrors, FileOutputsAreWrittenWholeOrNotAtAll) {
  const std::string arena = std::string(POLYNAV_SOURCE_DIR) + "/scenes/movingai/arena.map";
  struct Case {
    std::vector<std::string> args;
    std::string output;
  };
  const std::vector<Case> cases = {
      {{"render", scene, "-o", "out.svg"}, "out.svg"},
      {{"plan", scene, "--svg", "plan.svg"}, "plan.svg"},
      {{"convert", scene, "-o", "converted.yaml"}, "converted.yaml"},
      {{"experiment", scene, "--random", "20", "--methods", "grid", "--out", "runs.csv"},
       "runs.csv"},
      {{"scen", arena, arena + ".scen", "--csv", "scen.csv"}, "scen.csv"},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.args.front() + " -> " + c.output);
    // An existing file keeps its content.
    const fs::path existing = dir_ / c.output;
    std::ofstream(existing, std::ios::binary) << "before\n";
    const RunResult r = run_limited(c.args);
    expect_one_error_line(r, c.output);
    EXPECT_EQ(read_file(existing), "before\n");
    // A new one is not created.
    fs::remove(existing);
    const RunResult again = run_limited(c.args);
    expect_one_error_line(again, c.output);
    EXPECT_FALSE(fs::exists(existing));
    expect_nothing_left();
  }
}

TEST_F(WriteErrors, StandardOutputThatCannotBeWrittenIsAnError) {
  for (const std::vector<std::string>& args :
       {std::vector<std::string>{"plan", scene, "--json"},
        {"plan", scene, "--format", "ros-path"},
        {"validate", scene, "--json"},
        {"render", scene, "-o", "-"},
        {"convert", scene, "-o", "-"},
        {"reach", scene, "--from", "2,1.5", "--cost", "10", "--json"},
        {"methods", "--json"}}) {
    SCOPED_TRACE(args.front());
    expect_one_error_line(run_limited(args), "cannot write to standard output");
  }
}

}  // namespace
