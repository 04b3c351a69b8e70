#pragma once
// A GoogleTest fixture for tests that run the polynav tool (POLYNAV_CLI) as a process: each test
// gets its own temporary folder, removed afterwards, to write inputs into and to capture the
// tool's output in.

#include <gtest/gtest.h>
#include <stdlib.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "support/run_cli.hpp"

namespace polynav::test_support {

class CliTest : public ::testing::Test {
 protected:
  void SetUp() override {
    std::string pattern = (std::filesystem::temp_directory_path() / "polynav-cli-XXXXXX").string();
    ASSERT_NE(mkdtemp(pattern.data()), nullptr);
    dir_ = pattern;
  }
  void TearDown() override {
    std::error_code ec;
    std::filesystem::remove_all(dir_, ec);
  }

  const std::filesystem::path& dir() const { return dir_; }

  // Writes `text` to the file `name` in the test's folder; returns its path.
  std::filesystem::path write(const std::string& name, const std::string& text) const {
    const std::filesystem::path path = dir_ / name;
    std::ofstream(path, std::ios::binary) << text;
    return path;
  }

  // Runs the tool with `args`, capturing its output through files (no pipes to drain).
  // stdout_to: where standard output goes instead of a file read back (e.g. /dev/full).
  RunResult run(const std::vector<std::string>& args, const std::string& stdout_to = {}) const {
    RunResult r = run_program(POLYNAV_CLI, args, dir_, stdout_to);
    if (!r.problem.empty()) ADD_FAILURE() << r.problem;
    return r;
  }

  std::filesystem::path dir_;
};

}  // namespace polynav::test_support
