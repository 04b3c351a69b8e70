// `.json` scenes must be strict JSON while `.yaml` scenes keep YAML's syntax: the check that
// refuses what YAML's flow syntax allows and JSON does not, where it points, and what it leaves
// alone (valid JSON, including what the YAML reader then judges). Each violation also has a file
// in tests/corpus/bad_scenes/ (json_*.json) with its exact message.

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "polynav/scene/scene.hpp"
#include "scene/error_of.hpp"
#include "scene/strict_json.hpp"

namespace polynav {
namespace {

namespace fs = std::filesystem;

using test::error_of;

constexpr const char* bounds = R"("bounds": [[0, 0], [40, 0], [40, 25], [0, 25]])";

// "s.json:<line>:<column>: " for the byte `offset` of a one-line text, columns counted from 1.
std::string at_column(std::size_t offset) {
  return "s.json:1:" + std::to_string(offset + 1) + ": ";
}

// Scenes in YAML's flow syntax that JSON does not allow: each loads as `.yaml` and is refused as
// `.json` with the message given.
struct FlowOnly {
  std::string name;
  std::string text;
  std::string message;  // the whole message for "s.json"
};

class JsonOnlyStrictness : public testing::TestWithParam<FlowOnly> {};

TEST_P(JsonOnlyStrictness, YamlTakesItJsonRefusesIt) {
  const FlowOnly& c = GetParam();
  Scene s;
  ASSERT_NO_THROW(s = parse_native_scene(c.text, "s.yaml")) << c.text;
  EXPECT_EQ(s.bounds.size(), 4u);
  EXPECT_EQ(error_of([&] { parse_native_scene(c.text, "s.json"); }), c.message);
  // The extension decides, in any case.
  EXPECT_EQ(error_of([&] { parse_native_scene(c.text, "S.JSON"); }).substr(6), c.message.substr(6));
  EXPECT_NO_THROW(parse_native_scene(c.text, "s.yml"));
}

INSTANTIATE_TEST_SUITE_P(
    FlowSyntax, JsonOnlyStrictness,
    testing::Values(
        FlowOnly{"TrailingComment", std::string("{\"version\": 1, ") + bounds + "} # a comment\n",
                 "s.json:1:64: not valid JSON: comments are not allowed in JSON, found '#'"},
        FlowOnly{"TrailingCommaInObject", std::string("{\"version\": 1, ") + bounds + ",\n}\n",
                 "s.json:1:62: not valid JSON: trailing comma before '}'"},
        FlowOnly{"TrailingCommaInList",
                 "{\"version\": 1, \"bounds\": [[0, 0], [40, 0], [40, 25], [0, 25],]}",
                 "s.json:1:61: not valid JSON: trailing comma before ']'"},
        FlowOnly{"SingleQuotedKey", std::string("{\"version\": 1, 'name': 'yard', ") + bounds + "}",
                 "s.json:1:16: not valid JSON: object key must be a double-quoted string, found "
                 "the single-quoted string 'name'"},
        FlowOnly{"SingleQuotedString",
                 std::string("{\"version\": 1, \"name\": 'yard', ") + bounds + "}",
                 "s.json:1:24: not valid JSON: strings must be in double quotes, found the "
                 "single-quoted string 'yard'"},
        FlowOnly{"UnquotedKeys", "{version: 1, bounds: [[0, 0], [40, 0], [40, 25], [0, 25]]}",
                 "s.json:1:2: not valid JSON: object key must be a double-quoted string, found "
                 "'version'"},
        FlowOnly{"UnquotedString", std::string("{\"version\": 1, \"name\": yard, ") + bounds + "}",
                 "s.json:1:24: not valid JSON: strings must be in double quotes, found unquoted "
                 "text 'yard'"},
        FlowOnly{"PlusSign", std::string("{\"version\": +1, ") + bounds + "}",
                 "s.json:1:13: not valid JSON: numbers may not start with '+', found '+1'"},
        FlowOnly{"YamlEscape",
                 std::string("{\"version\": 1, \"name\": \"yard \\x41\", ") + bounds + "}",
                 "s.json:1:30: not valid JSON: invalid escape in a string, found '\\x'; JSON's "
                 "escapes are \\\" \\\\ \\/ \\b \\f \\n \\r \\t and \\uXXXX"},
        FlowOnly{"MultiLineString",
                 std::string("{\"version\": 1,\n \"name\": \"north\n yard\", ") + bounds + "}",
                 "s.json:2:16: not valid JSON: the string starting at 2:10 is not closed on its "
                 "line, found a line break (write \\n for a line break inside a string)"}),
    [](const testing::TestParamInfo<FlowOnly>& p) { return p.param.name; });

// Columns count bytes, as the YAML reader's own messages do: a tab and each byte of a UTF-8
// character count one. A JSON syntax error and a scene error at the same place agree.
TEST(StrictJson, ColumnsCountBytesLikeTheSceneReader) {
  const std::string head =
      std::string("{\"version\": 1,\t\"name\": \"caf\xC3\xA9 \xF0\x9F\x8C\xB3\", ") + bounds +
      ", \"agent\": {\"radius\": ";
  const std::size_t offset = head.size();  // in bytes; 4 more than in characters
  EXPECT_EQ(
      error_of([&] { parse_native_scene(head + "\"x\"}}", "s.json"); }),
      at_column(offset) + "agent.radius: expected the radius (a number), got the string \"x\"");
  const std::string json_error = error_of([&] { parse_native_scene(head + "'x'}}", "s.json"); });
  EXPECT_EQ(json_error.substr(0, at_column(offset).size()), at_column(offset)) << json_error;
  EXPECT_NE(json_error.find("single-quoted string 'x'"), std::string::npos) << json_error;
}

TEST(StrictJson, PlaceOfCountsLinesAndBytes) {
  const std::string text = "ab\n\t\xC3\xA9x\r\ny";
  const auto place = [&](std::size_t offset) {
    const detail::TextPlace p = detail::place_of(text, offset);
    return std::to_string(p.line) + ":" + std::to_string(p.column);
  };
  EXPECT_EQ(place(0), "1:1");
  EXPECT_EQ(place(2), "1:3");                                  // the '\n' ends line 1
  EXPECT_EQ(place(3), "2:1");                                  // the tab
  EXPECT_EQ(place(6), "2:4");                                  // 'x', after the two bytes of 'é'
  EXPECT_EQ(place(7), "2:5");                                  // the '\r' of a CRLF
  EXPECT_EQ(place(9), "3:1");                                  // 'y'
  EXPECT_EQ(place(99), "3:2");                                 // past the end: the end
  EXPECT_EQ(detail::place_of("\xEF\xBB\xBF{,", 4).column, 2);  // a BOM is not counted
  EXPECT_EQ(detail::place_of("\xEF\xBB\xBF{\n,", 5).column, 1);
}

// A UTF-8 byte order mark is allowed (RFC 8259 lets parsers ignore it, and the loader always has)
// and, as in the YAML reader's messages, not counted in the columns of the first line.
TEST(StrictJson, AcceptsAByteOrderMarkWithoutCountingIt) {
  const std::string bom = "\xEF\xBB\xBF";
  const std::string scene = std::string("{\"version\": 1, ") + bounds + "}";
  EXPECT_EQ(parse_native_scene(bom + scene, "s.json").bounds.size(), 4u);
  const std::string bad = std::string("{\"version\": 1, ") + bounds + ",}";
  const std::string without = error_of([&] { parse_native_scene(bad, "s.json"); });
  const std::string with = error_of([&] { parse_native_scene(bom + bad, "s.json"); });
  EXPECT_EQ(without, at_column(bad.find(",}")) + "not valid JSON: trailing comma before '}'");
  EXPECT_EQ(with, without);
  // A scene error after a BOM is placed the same way by the YAML reader.
  const std::string semantic = std::string("{\"version\": 1, ") + bounds + ", \"agent\": 5}";
  EXPECT_EQ(error_of([&] { parse_native_scene(bom + semantic, "s.json"); }),
            error_of([&] { parse_native_scene(semantic, "s.json"); }));
  // Three bytes that only start like a BOM are not one.
  EXPECT_EQ(error_of([&] { parse_native_scene("\xEF\xBB{}", "s.json"); }),
            "s.json:1:1: not valid JSON: the file starts with a broken byte order mark (the "
            "UTF-8 one is EF BB BF)");
}

// An empty or blank file is reported as an empty scene, as for YAML, not as bad JSON.
TEST(StrictJson, EmptyFilesAreEmptyScenes) {
  for (const char* text : {"", "  \n\t\r\n", "\xEF\xBB\xBF", "\xEF\xBB\xBF\n"}) {
    EXPECT_EQ(error_of([&] { parse_native_scene(text, "s.json"); }),
              "s.json: the scene is empty; a scene is a map with at least version: and bounds:")
        << text;
  }
}

// nlohmann-json would take a NUL byte for the end of the text; it is refused where it is.
TEST(StrictJson, RefusesANulByte) {
  const std::string scene = std::string("{\"version\": 1, ") + bounds + "}";
  const std::string after = scene + std::string(1, '\0') + "\n";
  EXPECT_EQ(error_of([&] { parse_native_scene(after, "s.json"); }),
            at_column(scene.size()) +
                "not valid JSON: JSON text may not contain a NUL byte, found U+0000");
  std::string inside = scene;
  inside.insert(inside.find("version") + 3, 1, '\0');
  EXPECT_EQ(error_of([&] { parse_native_scene(inside, "s.json"); }),
            at_column(inside.find('\0')) +
                "not valid JSON: JSON text may not contain a NUL byte, found U+0000");
  // A problem before the NUL is the first problem.
  std::string earlier = std::string("{\"version\": 1,, ") + bounds + "}";
  earlier += std::string(1, '\0');
  EXPECT_NE(error_of([&] { parse_native_scene(earlier, "s.json"); })
                .find("s.json:1:15: not valid JSON: object key must be a double-quoted string, "
                      "found ','"),
            std::string::npos);
}

// A number beyond a double is JSON; the scene reader judges it where it stands, as before, and
// the rest of the file is still checked.
TEST(StrictJson, LeavesNumbersBeyondADoubleToTheSceneReader) {
  const std::string radius =
      std::string("{\"version\": 1, ") + bounds + ", \"agent\": {\"radius\": ";
  EXPECT_EQ(error_of([&] { parse_native_scene(radius + "1e999}}", "s.json"); }),
            at_column(radius.size()) +
                "agent.radius: expected the radius to be a finite number, got 1e999 (out of the "
                "range of a double)");
  const std::string named = std::string("{\"version\": 1, \"name\": -1e999, ") + bounds;
  EXPECT_EQ(parse_native_scene(named + "}", "s.json").name, "-1e999");
  EXPECT_EQ(error_of([&] { parse_native_scene(named + ",}", "s.json"); }),
            at_column(named.size()) + "not valid JSON: trailing comma before '}'");
  // Past 16 such numbers the check does not read on but refuses the next one itself.
  std::string many = "{\"version\": 1, \"queries\": [";
  for (int i = 0; i < 20; ++i) many += "1e400, ";
  const std::size_t seventeenth = many.find("1e400") + 16 * 7;
  EXPECT_EQ(error_of([&] { parse_native_scene(many + "0]}", "s.json"); }),
            at_column(seventeenth) +
                "expected a finite number, got 1e400 (out of the range of a double)");
}

TEST(StrictJson, RefusesALoneSurrogate) {
  const std::string text =
      R"({"version": 1, "name": "\ud83d", "bounds": [[0, 0], [20, 0], [20, 20]]})";
  EXPECT_EQ(error_of([&] { parse_native_scene(text, "s.json"); }),
            at_column(text.find("\\ud83d")) +
                "not valid JSON: the UTF-16 high surrogate \\ud83d must be followed by a low "
                "surrogate \\uDC00 to \\uDFFF");
  const std::string low = R"({"version": 1, "name": "x\uDE00"})";
  EXPECT_EQ(error_of([&] { parse_native_scene(low, "s.json"); }),
            at_column(low.find("\\uDE00")) +
                "not valid JSON: the UTF-16 low surrogate \\uDE00 must follow a high surrogate "
                "\\uD800 to \\uDBFF");
}

// Valid JSON that the YAML syntax would not show: the check lets it through unchanged.
TEST(StrictJson, AcceptsEveryJsonForm) {
  const Scene s = parse_native_scene(
      "\r\n{\"version\":1.0e0,\"name\":\"\\u0079\\u0061rd \\ud83c\\udf33\\t\\\"\",\r\n"
      "\"bounds\":[[-0,0],[4E1,0],[40,2.5e+1],[0.0,25]],\"agent\":{\"radius\":0.5E-1},"
      "\"obstacles\":[],\"regions\":[ ],\"queries\":[{\"start\":[1,1],\"goal\":[2,2]}]}\r\n\t ",
      "s.json");
  EXPECT_EQ(s.name, "yard \xF0\x9F\x8C\xB3\t\"");
  EXPECT_EQ(s.agent.radius, 0.05);
  EXPECT_EQ(s.bounds.size(), 4u);
  EXPECT_EQ(s.queries.size(), 1u);
}

// The check and nlohmann-json agree on what is JSON, over many damaged copies of a bundled scene,
// and every refusal is one line pointing inside the file.
TEST(StrictJson, AgreesWithAJsonParserOnDamagedScenes) {
  std::ifstream in(fs::path(POLYNAV_SOURCE_DIR) / "scenes" / "warehouse.json");
  std::stringstream buffer;
  buffer << in.rdbuf();
  const std::string seed = buffer.str();
  ASSERT_FALSE(seed.empty());
  const std::string alphabet = "[]{},:-#/*'\"\\ \t\n0123456789.eE+xnNaIt\x01\xC3\xA9\xFF";
  std::mt19937 rng(7);
  int refused = 0;
  for (int trial = 0; trial < 2000; ++trial) {
    std::string s = seed;
    for (int m = 0, edits = 1 + int(rng() % 3); m < edits && !s.empty(); ++m) {
      const std::size_t at = rng() % s.size();
      switch (rng() % 3) {
        case 0:
          s[at] = alphabet[rng() % alphabet.size()];
          break;
        case 1:
          s.erase(at, 1 + rng() % 4);
          break;
        default:
          s.insert(at, 1, alphabet[rng() % alphabet.size()]);
      }
    }
    bool overflow = false;
    bool valid = true;
    try {
      [[maybe_unused]] const nlohmann::json parsed = nlohmann::json::parse(s);
    } catch (const nlohmann::json::parse_error&) {
      valid = false;
    } catch (const nlohmann::json::out_of_range&) {
      overflow = true;
    }
    if (overflow) continue;
    try {
      detail::check_strict_json(s, "d.json");
      EXPECT_TRUE(valid) << "accepted:\n" << s;
    } catch (const InputError& e) {
      ++refused;
      EXPECT_FALSE(valid) << e.what() << "\nfor:\n" << s;
      const std::string what = e.what();
      EXPECT_TRUE(what.starts_with("d.json:")) << what;
      EXPECT_NE(what.find(": not valid JSON: "), std::string::npos) << what;
      EXPECT_EQ(what.find('\n'), std::string::npos) << what;
      EXPECT_GE(e.where().line, 1) << what;
      EXPECT_GE(e.where().column, 1) << what;
      EXPECT_LE(e.where().line, std::count(s.begin(), s.end(), '\n') + 1) << what;
    }
  }
  EXPECT_GT(refused, 1000);
}

}  // namespace
}  // namespace polynav
