// The rule for text from input in what polynav writes (polynav/text.hpp): documents get valid
// UTF-8 (U+FFFD for each maximal ill-formed subpart, as nlohmann-json's replace handler writes
// JSON), messages one line with control characters and ill-formed bytes escaped; and InputError,
// whose what() is always such a line.

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <vector>

#include "polynav/error.hpp"
#include "polynav/text.hpp"

namespace polynav {
namespace {

const std::string fffd = "\xEF\xBF\xBD";

struct Case {
  std::string in;
  std::string document;  // valid_utf8(in)
  std::string message;   // one_line(in)
};

std::vector<Case> cases() {
  return {
      {"plain", "plain", "plain"},
      {"caf\xC3\xA9 \xE2\x86\x92 \xF0\x9F\x98\x80", "caf\xC3\xA9 \xE2\x86\x92 \xF0\x9F\x98\x80",
       "caf\xC3\xA9 \xE2\x86\x92 \xF0\x9F\x98\x80"},
      {"bad\xFF", "bad" + fffd, "bad\\xff"},
      {"\xFF\xFE", fffd + fffd, "\\xff\\xfe"},
      // A sequence cut short is one maximal subpart, whatever follows it.
      {"\xE2\x82", fffd, "\\xe2\\x82"},
      {"\xE2\x82"
       "A",
       fffd + "A", "\\xe2\\x82A"},
      {"\xF0\x9F\x98", fffd, "\\xf0\\x9f\\x98"},
      // Overlong forms and surrogates: the lead byte alone is the subpart, then each other byte.
      {"\xC0\xAF", fffd + fffd, "\\xc0\\xaf"},
      {"\xED\xA0\x80", fffd + fffd + fffd, "\\xed\\xa0\\x80"},
      {"\xF4\x90\x80\x80", fffd + fffd + fffd + fffd, "\\xf4\\x90\\x80\\x80"},
      {"\x80"
       "x",
       fffd + "x", "\\x80x"},
      // Control characters are the formats' to escape in documents, the rule's in messages.
      {"a\nb", "a\nb", "a\\nb"},
      {"a\r\nb\tc", "a\r\nb\tc", "a\\r\\nb\\tc"},
      {std::string("nul\0x", 5), std::string("nul\0x", 5), "nul\\x00x"},
      {"\x1B[31m\x7F", "\x1B[31m\x7F", "\\x1b[31m\\x7f"},
      // C1 controls and the Unicode line separators: valid UTF-8, but line breaks to some.
      {"a\xC2\x85z", "a\xC2\x85z", "a\\u0085z"},
      {"a\xE2\x80\xA8z\xE2\x80\xA9", "a\xE2\x80\xA8z\xE2\x80\xA9", "a\\u2028z\\u2029"},
      // Backslashes are left as they are.
      {"C:\\maps\\x41", "C:\\maps\\x41", "C:\\maps\\x41"},
  };
}

TEST(Text, DocumentsGetValidUtf8AndMessagesOneLine) {
  for (const Case& c : cases()) {
    SCOPED_TRACE(one_line(c.in));
    EXPECT_EQ(valid_utf8(c.in), c.document);
    EXPECT_EQ(one_line(c.in), c.message);
    EXPECT_TRUE(is_valid_utf8(valid_utf8(c.in)));
    EXPECT_TRUE(is_valid_utf8(one_line(c.in)));
    EXPECT_EQ(one_line(c.in).find_first_of("\n\r"), std::string::npos);
    EXPECT_EQ(valid_utf8(c.in) == c.in, is_valid_utf8(c.in));
  }
  EXPECT_EQ(first_invalid_utf8("ok\xC3\xA9\xFFz"), 4u);
  EXPECT_EQ(first_invalid_utf8("ok"), std::string_view::npos);
}

// JSON output is written by nlohmann-json with its replace handler: the same rule.
TEST(Text, JsonWritesTheSameReplacementCharacters) {
  for (const Case& c : cases()) {
    SCOPED_TRACE(one_line(c.in));
    const auto dump = [](const std::string& s) {
      return nlohmann::json(s).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
    };
    EXPECT_EQ(dump(c.in), dump(c.document));
  }
}

TEST(Text, AppendOneLineStopsBetweenCharacters) {
  std::string out = "x: ";
  EXPECT_FALSE(append_one_line(out, "a\nbcdef", 6));
  EXPECT_EQ(out, "x: a\\n");
  out = "x: ";
  EXPECT_FALSE(append_one_line(out, "\xE2\x86\x92\xE2\x86\x92", 4));
  EXPECT_EQ(out, "x: \xE2\x86\x92");
  // It says whether it wrote the whole text: an escape may run past the limit, the text may
  // end exactly there.
  out = "x: ";
  EXPECT_TRUE(append_one_line(out, "ab\n", 6));
  EXPECT_EQ(out, "x: ab\\n");
  out = "x: ";
  EXPECT_TRUE(append_one_line(out, "abc", 6));
  EXPECT_FALSE(append_one_line(out, "d", 6));
}

TEST(Text, InputErrorIsOneLineWhateverItQuotes) {
  const InputError e({"maps/a\nb\xFF.yaml", 3, 4, "image"}, "cannot read 'x\ny.pgm'\r\n");
  const std::string what = e.what();
  EXPECT_EQ(what, "maps/a\\nb\\xff.yaml:3:4: image: cannot read 'x\\ny.pgm'\\r\\n");
  EXPECT_EQ(e.message(), "cannot read 'x\\ny.pgm'\\r\\n");
  EXPECT_TRUE(is_valid_utf8(what));
  // Where it is stays as given, for programs that open the file.
  EXPECT_EQ(e.where().file, "maps/a\nb\xFF.yaml");
  // Messages without anything to escape are unchanged.
  const InputError plain({"w.yaml", 12, 5, "obstacles[3]"}, "ring is self-intersecting");
  EXPECT_STREQ(plain.what(), "w.yaml:12:5: obstacles[3]: ring is self-intersecting");
}

}  // namespace
}  // namespace polynav
