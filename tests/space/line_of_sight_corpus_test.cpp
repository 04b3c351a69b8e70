// The line-of-sight corpus: every tests/corpus/line_of_sight/NAME.los lists segments in the scene
// NAME.yaml with the answer worked out by hand from the geometry rules (obstacles closed, the
// boundary may be touched but no interior entered, no zero-width gap passed, the bounds a wall).
// One test per file; a wrong answer names the file and line, and the line's own explanation.

#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "polynav/scene/scene.hpp"
#include "polynav/space/free_space.hpp"

namespace polynav {
namespace {

namespace fs = std::filesystem;

fs::path corpus_dir() {
  return fs::path(POLYNAV_SOURCE_DIR) / "tests" / "corpus" / "line_of_sight";
}

std::vector<fs::path> corpus_files() {
  std::vector<fs::path> files;
  if (!fs::exists(corpus_dir())) return files;
  for (const auto& entry : fs::directory_iterator(corpus_dir()))
    if (entry.path().extension() == ".los") files.push_back(entry.path());
  // Directory order is unspecified; a fixed order keeps test names and runs reproducible.
  std::sort(files.begin(), files.end());
  return files;
}

struct Case {
  int line = 0;
  Point a;
  Point b;
  bool free = false;
  std::string why;
};

// Reads `ax ay bx by free|blocked  # why`; blank lines and lines starting with '#' are skipped.
// A malformed line is a test failure, not a silent skip: a typo must not shrink the corpus.
std::vector<Case> read_cases(const fs::path& file) {
  std::vector<Case> cases;
  std::ifstream in(file);
  EXPECT_TRUE(in) << "cannot read " << file;
  std::string text;
  for (int number = 1; std::getline(in, text); ++number) {
    const std::size_t hash = text.find('#');
    std::string why = hash == std::string::npos ? "" : text.substr(hash + 1);
    why.erase(0, why.find_first_not_of(' '));
    const std::string body = text.substr(0, hash);
    if (body.find_first_not_of(" \t\r") == std::string::npos) continue;
    std::istringstream fields(body);
    Case c;
    std::string answer, extra;
    c.line = number;
    c.why = why;
    if (!(fields >> c.a.x >> c.a.y >> c.b.x >> c.b.y >> answer) || (fields >> extra) ||
        (answer != "free" && answer != "blocked")) {
      ADD_FAILURE() << file.filename().string() << ":" << number
                    << ": expected `ax ay bx by free|blocked  # why`, got: " << text;
      continue;
    }
    c.free = answer == "free";
    cases.push_back(c);
  }
  return cases;
}

std::string segment_text(Point a, Point b) {
  std::ostringstream out;
  out.precision(17);
  out << "(" << a.x << ", " << a.y << ") -> (" << b.x << ", " << b.y << ")";
  return out.str();
}

class LineOfSightCorpus : public testing::TestWithParam<fs::path> {};

TEST_P(LineOfSightCorpus, EveryCaseHasTheHandWorkedAnswerBothWays) {
  const fs::path los = GetParam();
  fs::path scene_file = los;
  scene_file.replace_extension(".yaml");
  ASSERT_TRUE(fs::exists(scene_file))
      << los.filename().string() << " has no scene " << scene_file.filename().string();
  const Scene scene = load_scene(scene_file);
  const FreeSpace space(scene);
  const std::vector<Case> cases = read_cases(los);
  EXPECT_FALSE(cases.empty()) << los.filename().string() << " holds no cases";
  for (const Case& c : cases) {
    const std::string where = los.filename().string() + ":" + std::to_string(c.line);
    const bool forward = space.line_of_sight(c.a, c.b);
    const bool backward = space.line_of_sight(c.b, c.a);
    EXPECT_EQ(forward, c.free) << where << ": " << segment_text(c.a, c.b) << " should be "
                               << (c.free ? "free" : "blocked") << " (" << c.why << ")";
    // Line of sight is a property of the closed segment, not of a direction of travel.
    EXPECT_EQ(backward, forward) << where << ": " << segment_text(c.a, c.b) << " is "
                                 << (forward ? "free" : "blocked") << " but its reverse is not";
  }
}

// Test names come from the file names, which may hold characters gtest does not accept.
std::string case_name(const testing::TestParamInfo<fs::path>& info) {
  std::string name = info.param.stem().string();
  for (char& ch : name)
    if (!std::isalnum(static_cast<unsigned char>(ch))) ch = '_';
  return name;
}

INSTANTIATE_TEST_SUITE_P(Corpus, LineOfSightCorpus, testing::ValuesIn(corpus_files()), case_name);

TEST(LineOfSightCorpus, CorpusIsPresent) {
  EXPECT_GE(corpus_files().size(), 10u) << "expected the corpus in " << corpus_dir();
}

}  // namespace
}  // namespace polynav
