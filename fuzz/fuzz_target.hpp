#pragma once
// What every fuzz target shares. A target is a function LLVMFuzzerTestOneInput(data, size) that
// hands the bytes to one reader (or to the planner) and returns 0; it is linked either with
// libFuzzer (POLYNAV_BUILD_FUZZERS, clang) or with replay_main.cpp, which runs it over stored
// inputs in the test suite.
//
// An InputError is the expected answer to bad input, provided it says where: it must name the
// file it was given and, when it has a line, a line inside the text. Any other exception escaping
// a target, a crash, a sanitizer report or a failed check (check() below) is a defect.

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>

#include "polynav/error.hpp"
#include "polynav/scene/scene.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size);

namespace polynav::fuzz {

// The input as text.
inline std::string_view as_text(const std::uint8_t* data, std::size_t size) {
  return {reinterpret_cast<const char*>(data), size};
}

// A failed check: stops the run where a debugger or libFuzzer shows it (a crash input is saved).
inline void check(bool ok) {
  if (!ok) __builtin_trap();
}

// FNV-1a of the input: targets draw their load options from it, so that one input always runs
// the same way while the fuzzer still reaches every option.
inline std::uint64_t input_hash(std::string_view text) {
  std::uint64_t h = 14695981039346656037ull;
  for (const char c : text) {
    h ^= static_cast<unsigned char>(c);
    h *= 1099511628211ull;
  }
  return h;
}

// The checks an InputError from reading `text` as file `file` must pass: a message, the file
// named, a line (when given) inside the text and a column with it, one line of text.
inline void check_located(const InputError& e, std::string_view file, std::string_view text) {
  check(!e.message().empty());
  check(!e.where().file.empty());
  check(std::string_view(e.what()).find('\n') == std::string_view::npos);
  if (e.where().file == file && e.where().line > 0) {
    std::size_t lines = 1;
    for (const char c : text) lines += c == '\n' ? 1 : 0;
    check(static_cast<std::size_t>(e.where().line) <= lines);
    check(e.where().column >= 0);
  }
}

// Runs `read()`; an InputError must pass check_located, any other exception escapes.
template <class F>
void read_or_refuse(std::string_view file, std::string_view text, F&& read) {
  try {
    read();
  } catch (const InputError& e) {
    check_located(e, file, text);
  }
}

// Writes a scene read from native YAML or JSON, WKT or GeoJSON as a native scene and reads it back:
// both must succeed (an InputError here is a defect, not an answer) and keep every obstacle and
// query.
inline void check_round_trip(const Scene& scene) {
  try {
    const NativeExport exported = export_native_scene(scene);
    const Scene again = parse_native_scene(exported.text, "exported.yaml");
    check(again.obstacles.size() == scene.obstacles.size());
    check(again.queries.size() == scene.queries.size());
  } catch (const InputError&) {
    check(false);
  }
}

}  // namespace polynav::fuzz
