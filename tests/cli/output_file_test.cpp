// OutputFile on its own: text streamed into a partial file appears under its name only when
// committed; given up (destroyed uncommitted), the file named keeps what it held and nothing is
// left beside it. Writes that fail (a file size limit) are tested through the tool in
// write_errors_test.cpp.

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <string>
#include <vector>

#include "polynav/error.hpp"
#include "polynav/io/output_file.hpp"
#include "support/cli_fixture.hpp"

namespace polynav {
namespace {

namespace fs = std::filesystem;
using test_support::read_file;

class OutputFileTest : public test_support::CliTest {
 protected:
  // The names in the test's folder.
  std::vector<std::string> names() const {
    std::vector<std::string> out;
    for (const fs::directory_entry& e : fs::directory_iterator(dir())) {
      out.push_back(e.path().filename().string());
    }
    std::sort(out.begin(), out.end());
    return out;
  }
};

TEST_F(OutputFileTest, CommittedTextReplacesTheFileAndNothingIsLeftBeside) {
  const fs::path path = write("table.csv", "old\n");
  {
    OutputFile out(path);
    for (int row = 0; row < 1000; ++row) {
      out.stream() << row << ",x\n";
      out.check();
    }
    EXPECT_EQ(read_file(path), "old\n");  // not before commit
    out.commit();
  }
  const std::string text = read_file(path);
  EXPECT_EQ(text.substr(0, 4), "0,x\n");
  EXPECT_EQ(text.size(), std::string("0,x\n").size() * 10 + std::string("10,x\n").size() * 90 +
                             std::string("100,x\n").size() * 900);
  EXPECT_EQ(names(), std::vector<std::string>{"table.csv"});
}

TEST_F(OutputFileTest, GivenUpTheFileKeepsItsTextAndThePartialIsRemoved) {
  const fs::path path = write("table.csv", "old\n");
  {
    OutputFile out(path);
    out.stream() << "new rows\n";
    EXPECT_EQ(names(), (std::vector<std::string>{"table.csv", "table.csv.partial"}));
  }
  EXPECT_EQ(read_file(path), "old\n");
  EXPECT_EQ(names(), std::vector<std::string>{"table.csv"});

  // A new file given up is never made.
  { OutputFile out(dir() / "new.csv"); }
  EXPECT_EQ(names(), std::vector<std::string>{"table.csv"});
}

TEST_F(OutputFileTest, AFolderThatIsNotThereIsAnErrorNamingTheFile) {
  const fs::path path = dir() / "missing" / "table.csv";
  try {
    OutputFile out(path, "--csv");
    FAIL() << "opened " << path;
  } catch (const InputError& e) {
    EXPECT_EQ(e.where().file, path.string());
    EXPECT_EQ(e.where().key_path, "--csv");
    EXPECT_NE(e.message().find("cannot write"), std::string::npos) << e.message();
  }
  EXPECT_TRUE(names().empty());
}

}  // namespace
}  // namespace polynav
