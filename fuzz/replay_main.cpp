// gpusynth_fuzz_replay TARGET FILE|DIR...: every file through a fuzz target,
// as libFuzzer would run it, in any build (tests/CMakeLists.txt runs it over
// the seed corpus and the inputs that once crashed).
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "fuzz/fuzz_targets.hpp"

int main(int argc, char** argv) {
  if (argc < 3) {
    std::fprintf(stderr, "usage: gpusynth_fuzz_replay TARGET FILE|DIR...\n");
    return 2;
  }
  const std::string target = argv[1];
  std::vector<std::filesystem::path> files;
  for (int i = 2; i < argc; ++i) {
    if (std::filesystem::is_directory(argv[i])) {
      for (const auto& entry : std::filesystem::recursive_directory_iterator(argv[i]))
        if (entry.is_regular_file()) files.push_back(entry.path());
    } else {
      files.emplace_back(argv[i]);
    }
  }
  for (const auto& file : files) {
    std::ifstream in(file, std::ios::binary);
    const std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    if (!gs::fuzz::run_target(target, reinterpret_cast<const std::uint8_t*>(bytes.data()), bytes.size())) {
      std::fprintf(stderr, "no fuzz target '%s'\n", target.c_str());
      return 2;
    }
  }
  std::printf("%s: %zu inputs replayed without a crash\n", target.c_str(), files.size());
  return 0;
}
