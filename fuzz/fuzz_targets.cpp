#include "fuzz/fuzz_targets.hpp"

#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <string>

#include "host/base/errors.hpp"
#include "host/engine/config.hpp"
#include "host/requests/synthesize.hpp"
#include "io/request_texts.hpp"
#include "io/series_source.hpp"
#include "io/trace.hpp"

namespace gs::fuzz {

namespace {

// Series up to this many bins: the checks are the same, and a valid trace
// whose series would take gigabytes is not what the fuzzer looks for.
constexpr double kFuzzMaxBins = 1e5;

// Readers take paths: each input goes to one file of this process.
const std::string& input_path() {
  // Memory-backed where there is one: a million inputs should not wait for a disk.
  static const std::string path = [] {
    std::string name = std::string(access("/dev/shm", W_OK) == 0 ? "/dev/shm" : "/tmp") + "/gpusynth-fuzz-XXXXXX";
    const int fd = mkstemp(name.data());
    if (fd >= 0) close(fd);
    return name;
  }();
  static const bool removed_at_exit = std::atexit([] {
    unlink(path.c_str());
    unlink((path + ".dxt").c_str());
  }) == 0;
  (void)removed_at_exit;
  return path;
}

void write_input(const std::uint8_t* data, std::size_t size) {
  std::ofstream out(input_path(), std::ios::binary | std::ios::trunc);
  out.write(reinterpret_cast<const char*>(data), static_cast<std::streamsize>(size));
}

// The whole path of `stats`: read, bin, choose the channel, check the values.
// Inputs of odd length are read counting bad lines and sorting, the others
// strictly: both paths, one read per input.
void fuzz_trace(const std::string& format, const std::uint8_t* data, std::size_t size) {
  write_input(data, size);
  SeriesSource source;
  source.traces = {input_path()};
  source.trace.format = format;
  source.trace.skip_bad_lines = size % 2 == 1;
  source.trace.sort = size % 2 == 1;
  source.trace.max_bins = kFuzzMaxBins;
  if (trace_format(format).kind != Trace::Kind::series) source.bin = "1s";
  try {
    read_series(source);
  } catch (const UserError&) {
  }
}

// The whole request pipeline on a small scale: read, characterize, one
// replica of each kind of draw expanded to 3 processes, timed, checked.
void fuzz_requests(const std::string& format, const std::uint8_t* data, std::size_t size) {
  write_input(data, size);
  TraceOptions options;
  options.skip_bad_lines = size % 2 == 1;
  try {
    const TraceCharacterization c = characterize_requests(read_request_trace({input_path()}, format, options));
    for (const auto draw : {SynthesisOptions::Draw::file, SynthesisOptions::Draw::class_pools}) {
      SynthesisOptions synthesis;
      synthesis.draw = draw;
      Workload w = synthesize_processes(c.path, c.characteristics, synthesis, 0, 3);
      time_by_counts(w, {3, 0, 5, 1}, 0.1);
      check_dependencies(w);
    }
  } catch (const UserError&) {
  }
}

// A `requests:` entry of given characteristics, as a run takes it on a small
// scale: at most 3 processes and 8 files per class, 1 MiB of requests (the
// memory guard), slack and counts timing, the dependency check, and the three
// texts; the DXT-like text must read back (its blocks' counts included).
void fuzz_given_requests(const RequestsSpec& spec) {
  constexpr std::uint64_t kFuzzFiles = 8;
  SynthesisOptions options = spec.synthesis;
  options.max_replica_bytes = std::uint64_t{1} << 20;
  for (int ci = 0; ci < kClassesWithFiles; ++ci) {
    const auto given = static_cast<std::uint64_t>(spec.given->classes[ci].files);
    options.files[ci] = std::min(options.files[ci].value_or(given), kFuzzFiles);
  }
  const std::int32_t processes = std::min(spec.processes, 3);
  for (const std::uint32_t replica : {0u, 1u}) {
    Workload w = synthesize_processes(spec.given_files, *spec.given, options, replica, processes);
    if (replica == 0)
      sort_for_issue(w);
    else
      time_by_counts(w, {3, 0, 5, 1}, spec.bin_width);
    check_dependencies(w);
    disksim_text(w);
    const std::string dxt = dxt_text(w);
    const bool data = std::any_of(w.table.requests.begin(), w.table.requests.end(),
                                  [&](const Request& r) { return is_data(w.table.op_class(r)); });
    if (!data) continue;
    std::ofstream(input_path() + ".dxt", std::ios::binary | std::ios::trunc) << dxt;
    try {
      read_request_trace({input_path() + ".dxt"}, "dxt", TraceOptions{});
    } catch (const UserError& e) {
      std::fprintf(stderr, "the DXT-like text of a synthesis does not read back: %s\n", e.what());
      std::abort();
    }
    const PendingReplayDirectory fio(input_path() + ".fio", "fuzz fio");  // staged, never published
    stage_fio_replay(fio, w, "fuzz");
  }
}

void fuzz_config(const std::uint8_t* data, std::size_t size) {
  try {
    const RunConfig config = parse_config(std::string(reinterpret_cast<const char*>(data), size), "fuzz.yaml");
    for (const RequestsSpec& spec : config.requests)
      if (spec.given) fuzz_given_requests(spec);
  } catch (const UserError&) {
  }
}

}  // namespace

std::vector<std::string> target_names() {
  std::vector<std::string> names;
  for (const auto& format : trace_format_names()) names.push_back("trace_" + format);
  names.push_back("config");
  names.push_back("requests_dxt");
  names.push_back("requests_pioneer");
  return names;
}

bool run_target(const std::string& target, const std::uint8_t* data, std::size_t size) {
  if (target == "config") {
    fuzz_config(data, size);
    return true;
  }
  if (target == "requests_dxt" || target == "requests_pioneer") {
    fuzz_requests(target.substr(9), data, size);
    return true;
  }
  const std::string prefix = "trace_";
  if (target.compare(0, prefix.size(), prefix) != 0) return false;
  const std::string format = target.substr(prefix.size());
  for (const auto& name : trace_format_names())
    if (name == format) {
      fuzz_trace(format, data, size);
      return true;
    }
  return false;
}

}  // namespace gs::fuzz
