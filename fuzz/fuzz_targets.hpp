// The fuzz targets (issue 25): one per trace format ("trace_<format>"), one
// for the config reader ("config": parse_config, then every `requests:` entry
// of given characteristics synthesized on a small scale, its texts written
// and its DXT-like text read back), and the request pipeline per request
// format ("requests_dxt", "requests_pioneer": read, characterize, synthesize,
// expand, time, check), the binary darshan log reader ("darshan_log": every part
// decoded, then through the darshan, dxt and request readers), and the burst analysis of a series ("bursts":
// detection, prediction with intervals, scheduling), and the replay's figures ("replay": the
// bins' bound at any --bin and the fidelity of fuzzed replays). Each takes arbitrary bytes; a UserError is
// the expected answer to bad input, anything else (a crash, another exception,
// a sanitizer report) is a defect. Built twice: as libFuzzer binaries by
// -DGPUSYNTH_FUZZ=ON with clang (fuzz/libfuzzer_main.cpp, scripts/fuzz.sh), and
// in every build as gpusynth_fuzz_replay, which ctest runs over the seed corpus
// and every input that ever crashed (tests/fuzz/).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace gs::fuzz {

std::vector<std::string> target_names();

// Runs one input through `target`; false when the target does not exist.
bool run_target(const std::string& target, const std::uint8_t* data, std::size_t size);

}  // namespace gs::fuzz
