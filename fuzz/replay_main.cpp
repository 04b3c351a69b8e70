// Runs a fuzz target over stored inputs without libFuzzer, so that the test suite replays every
// target's corpus and regressions with the ordinary compiler:
//   fuzz_replay_<target> DIR...
// Every regular file in each directory (not recursing; names starting with '.' are skipped) is
// passed to LLVMFuzzerTestOneInput, in name order. A directory that does not exist is reported and
// skipped (a target may have no regressions yet); finding no input at all is a failure. A defect
// ends the run the way it ends a fuzzing run: a failed check traps, an escaping exception
// terminates.

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <iterator>
#include <string>
#include <vector>

#include "fuzz_target.hpp"

namespace fs = std::filesystem;

int main(int argc, char** argv) {
  std::size_t replayed = 0;
  for (int i = 1; i < argc; ++i) {
    const fs::path dir = argv[i];
    if (!fs::is_directory(dir)) {
      std::cout << "replay: no directory " << dir.string() << ", skipped\n";
      continue;
    }
    std::vector<fs::path> files;
    for (const fs::directory_entry& entry : fs::directory_iterator(dir)) {
      if (entry.is_regular_file() && !entry.path().filename().string().starts_with('.'))
        files.push_back(entry.path());
    }
    std::sort(files.begin(), files.end());
    for (const fs::path& file : files) {
      std::cout << "replay: " << file.string() << std::endl;
      std::ifstream in(file, std::ios::binary);
      const std::string bytes{std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
      if (!in && !in.eof()) {
        std::cerr << "replay: cannot read " << file.string() << "\n";
        return 1;
      }
      LLVMFuzzerTestOneInput(reinterpret_cast<const std::uint8_t*>(bytes.data()), bytes.size());
      ++replayed;
    }
  }
  std::cout << "replay: " << replayed << " inputs\n";
  if (replayed == 0) {
    std::cerr << "replay: no inputs found\n";
    return 1;
  }
  return 0;
}
