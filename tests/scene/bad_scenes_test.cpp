// Every file in tests/corpus/bad_scenes/ must be refused with the message it expects. A YAML file
// states its expectation on its first line (`# expect: 7:5: obstacles[1]: ...`); a file that
// cannot hold a comment (JSON, an empty file) has it in a sidecar `<file>.expect`. The message
// must contain "<file name>:<expectation>", so the file, the line:column, the key path and the
// offending value are all checked.

#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "polynav/scene/scene.hpp"

namespace polynav {
namespace {

namespace fs = std::filesystem;

const fs::path corpus = fs::path(POLYNAV_SOURCE_DIR) / "tests" / "corpus" / "bad_scenes";

std::vector<std::string> corpus_files() {
  std::vector<std::string> names;
  for (const auto& entry : fs::directory_iterator(corpus)) {
    const std::string name = entry.path().filename().string();
    if (entry.is_regular_file() && !name.ends_with(".expect")) names.push_back(name);
  }
  std::sort(names.begin(), names.end());
  return names;
}

std::string first_line(const fs::path& path) {
  std::ifstream in(path);
  std::string line;
  std::getline(in, line);
  return line;
}

std::string expectation(const std::string& name) {
  constexpr std::string_view marker = "# expect: ";
  const std::string line = first_line(corpus / name);
  if (line.starts_with(marker)) return line.substr(marker.size());
  if (fs::exists(corpus / (name + ".expect"))) return first_line(corpus / (name + ".expect"));
  return "";
}

class BadScene : public testing::TestWithParam<std::string> {};

TEST_P(BadScene, IsRefusedWithItsExpectedMessage) {
  const std::string name = GetParam();
  const std::string expected = expectation(name);
  ASSERT_FALSE(expected.empty()) << name << " states no expectation";
  // "file:line:column: ..." when the place is known, "file: ..." otherwise.
  const bool has_place = std::isdigit(static_cast<unsigned char>(expected[0])) != 0;
  const std::string wanted = name + (has_place ? ":" : ": ") + expected;
  try {
    load_scene(corpus / name);
    FAIL() << name << " was accepted";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find(wanted), std::string::npos)
        << "message: " << e.what() << "\nwanted:  " << wanted;
    EXPECT_TRUE(e.where().file.ends_with(name)) << e.where().file;
    if (has_place) {
      EXPECT_EQ(std::to_string(e.where().line), expected.substr(0, expected.find(':')));
    }
  }
}

std::string test_name(const testing::TestParamInfo<std::string>& info) {
  std::string s = info.param;
  for (char& c : s) {
    if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
  }
  return s;
}

INSTANTIATE_TEST_SUITE_P(Corpus, BadScene, testing::ValuesIn(corpus_files()), test_name);

TEST(BadSceneCorpus, CoversBothSyntaxes) {
  const std::vector<std::string> names = corpus_files();
  const auto count = [&](std::string_view ext) {
    return std::count_if(names.begin(), names.end(),
                         [&](const std::string& n) { return n.ends_with(ext); });
  };
  EXPECT_GE(count(".yaml"), 50);
  EXPECT_GE(count(".json"), 10);
}

}  // namespace
}  // namespace polynav
