// Native JSON scenes: the strict JSON check and the scene reader (parse_native_scene() on a
// `.json` name runs both). The check must also agree with nlohmann-json on what is JSON, except
// where the check is documented to differ: blank texts (left to the reader, which calls the scene
// empty, a byte order mark included), NUL bytes (nlohmann-json stops reading there) and numbers
// beyond a double.

#include <cstddef>
#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>

#include "fuzz_target.hpp"
#include "polynav/scene/scene.hpp"
#include "scene/strict_json.hpp"

namespace {

// nlohmann-json's verdict: 1 JSON, 0 not JSON, -1 not comparable.
int json_verdict(const std::string& text) {
  if (text.find('\0') != std::string::npos) return -1;
  try {
    [[maybe_unused]] const nlohmann::json parsed = nlohmann::json::parse(text);
  } catch (const nlohmann::json::parse_error&) {
    const std::size_t from = text.starts_with("\xEF\xBB\xBF") ? 3 : 0;
    return text.find_first_not_of(" \t\r\n", from) == std::string::npos ? -1 : 0;
  } catch (const nlohmann::json::out_of_range&) {
    return -1;  // a number beyond a double
  }
  return 1;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace polynav;
  const std::string text(fuzz::as_text(data, size));
  const int verdict = json_verdict(text);
  bool checked = false;
  try {
    detail::check_strict_json(text, "fuzz.json");
    checked = true;
  } catch (const InputError& e) {
    fuzz::check_located(e, "fuzz.json", text);
    fuzz::check(e.where().line >= 1 && e.where().column >= 1);
  }
  if (verdict >= 0) fuzz::check(checked == (verdict == 1));
  fuzz::read_or_refuse("fuzz.json", text, [&] { parse_native_scene(text, "fuzz.json"); });
  return 0;
}
