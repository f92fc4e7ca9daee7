#include "fuzz/fuzz_targets.hpp"

#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <string>

#include "estimators/burst_analysis.hpp"
#include "estimators/replay_fidelity.hpp"
#include "host/base/errors.hpp"
#include "host/engine/config.hpp"
#include "host/requests/phase_timing.hpp"
#include "host/requests/synthesize.hpp"
#include "io/darshan_log.hpp"
#include "io/request_texts.hpp"
#include "io/request_trace.hpp"
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
// replica of each kind of draw expanded to 3 processes, timed by counts and
// by the trace's phases, checked.
void fuzz_requests(const std::string& format, const std::uint8_t* data, std::size_t size) {
  write_input(data, size);
  TraceOptions options;
  options.skip_bad_lines = size % 2 == 1;
  try {
    const TraceCharacterization c = characterize_requests(read_request_trace({input_path()}, format, options));
    for (const auto draw : {SynthesisOptions::Draw::file, SynthesisOptions::Draw::class_pools}) {
      SynthesisOptions synthesis;
      synthesis.draw = draw;
      Expansion expansion = synthesize_replica(synthesis_source(c), synthesis, 0, 3, true);
      Workload w = drained(expansion);
      time_by_counts(w, {3, 0, 5, 1}, 0.1);
      check_dependencies(w);
      const PhaseModel phases = fit_phases(c.sanitized);  // a trace without data requests: a UserError
      PhaseTiming timing(phases, expansion, synthesis, 0);
      time_workload(w, timing);
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
    Workload w = synthesize_processes(synthesis_source(spec.given_files, *spec.given), options, replica, processes);
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

// The burst analysis of one series (`gpusynth bursts` on a dataset's bytes):
// detection, logistic prediction with severity and bootstrap intervals, and
// Algorithm 1, on a small scale. Input: four bytes of options, then the
// series as 16-bit values times a power of ten from 1e-300 to 1e300 (zeros,
// ties, constant stretches, spikes and values whose squares overflow are all
// a few mutations away).
//   byte 0: bit 0 severity, bit 1 label `within`, bit 2 k given (else a
//           share), bit 3 fs3-bytes (else fs1), bit 4 a second horizon, bit 5
//           signed values; bits 6-7 the bin: 1 s, 1 min, 5 min or 1 h
//   byte 1: the first horizon, 1 to 16 bins
//   byte 2: k = (byte - 64) / 16, or the share (byte + 1) / 257
//   byte 3: the values' power of ten, 3 * (byte % 201 - 100)
void fuzz_bursts(const std::uint8_t* data, std::size_t size) {
  constexpr std::size_t kOptionBytes = 4, kMaxValues = 2048;
  if (size < kOptionBytes) return;
  const std::uint8_t flags = data[0];
  BurstAnalysisOptions options;
  options.prediction.severity = flags & 1;
  options.prediction.label = flags & 2 ? BurstLabel::within : BurstLabel::at;
  if (flags & 4)
    options.k = (static_cast<double>(data[2]) - 64) / 16;
  else
    options.share = (static_cast<double>(data[2]) + 1) / 257;
  options.features = flags & 8 ? FeatureSet::fs3_bytes : FeatureSet::fs1;
  options.horizons = {static_cast<std::size_t>(1 + data[1] % 16)};
  if (flags & 16) options.horizons.push_back(options.horizons.front() + 3);
  const double bins[] = {1, 60, 300, 3600};
  options.bin_seconds = bins[flags >> 6];
  options.prediction.resamples = 10;
  const double scale = std::pow(10.0, 3 * (data[3] % 201 - 100));
  BurstChannels channels;
  for (std::size_t at = kOptionBytes; at + 1 < size && channels.bytes.size() < kMaxValues; at += 2) {
    std::uint16_t word = 0;
    std::memcpy(&word, data + at, 2);
    const double value = flags & 32 ? static_cast<double>(static_cast<std::int16_t>(word)) : static_cast<double>(word);
    channels.bytes.push_back(value * scale);
  }
  try {
    const BurstAnalysis analysis = analyse_bursts(channels, options, {}, false);
    burst_figures(analysis, options);
    prediction_notes(analysis, options.bin_seconds);
    detection_note(analysis, options);
  } catch (const UserError&) {
  }
}

// What a replay's figures are made of (`gpusynth replay`, after fio): the
// bins of the figures over time within their bound (the plan's check, at any
// --bin) and the fidelity with its bootstrap intervals over at most 10^5 bins
// (kFuzzMaxBins), from up to 384 requests spread over the replays. Input: two
// bytes of options, then 6-byte requests.
//   byte 0: bits 0-1 replicas - 1, bit 2 a second replay of the original,
//           bits 3-7 the time scale 10^(k - 12) s
//   byte 1: --bin 10^(byte % 32 - 16) s
//   each request: 16-bit completion time and latency (times the scale),
//                 byte 4 bytes (its value, 0 included), byte 5 bit 0 read,
//                 bit 1 a metadata operation at its completion instead,
//                 bits 2-7 which replay (modulo the replays)
void fuzz_replay(const std::uint8_t* data, std::size_t size) {
  constexpr std::size_t kOptionBytes = 2, kRequestBytes = 6, kMaxRequests = 64 * 6;
  if (size < kOptionBytes) return;
  const std::size_t replicas = 1 + (data[0] & 3), originals = data[0] & 4 ? 2 : 1;
  const double scale = std::pow(10.0, (data[0] >> 3) - 12);
  std::vector<ReplayRecord> original(originals), synthetic(replicas);
  const auto replay = [&](std::size_t k) -> ReplayRecord& {
    k %= originals + replicas;
    return k < originals ? original[k] : synthetic[k - originals];
  };
  for (std::size_t at = kOptionBytes, n = 0; at + kRequestBytes <= size && n < kMaxRequests; at += kRequestBytes, ++n) {
    std::uint16_t completion = 0, latency = 0;
    std::memcpy(&completion, data + at, 2);
    std::memcpy(&latency, data + at + 2, 2);
    const std::uint8_t flags = data[at + 5];
    ReplayRecord& r = replay(flags >> 2);
    if (flags & 2) {
      r.metadata_times.push_back(completion * scale);
      continue;
    }
    ReplayedIo io;
    io.completion = completion * scale;
    io.latency = std::min(latency * scale, io.completion);
    io.issue = io.completion - io.latency;
    io.bytes = data[at + 4];
    io.read = flags & 1;
    r.ios.push_back(io);
  }
  FidelityOptions options;
  options.bin_seconds = std::pow(10.0, data[1] % 32 - 16);
  double longest = 0;
  for (const auto* set : {&original, &synthetic})
    for (const ReplayRecord& r : *set) longest = std::max(longest, r.run_time());
  // Beyond the bound the fidelity refuses at once (the path the plan relies on); below it, only
  // series a fuzzer can afford (the bound allows gigabytes, which the plan counts in its budget).
  const double bins = longest / options.bin_seconds;
  if (bins > kFuzzMaxBins && bins <= kMaxReplayBins) return;
  options.resamples = 20;
  options.trace_run_time = 1;
  options.trace_bytes = 100;
  try {
    const ReplayFidelity f = assess_replay_fidelity(original, synthetic, options);
    if (f.bins > kMaxReplayBins) std::abort();  // the bound the plan relies on
  } catch (const UserError&) {
  }
}

// A binary darshan log (io/darshan_log.hpp): every part decoded from the
// bytes, then as a file through the darshan, dxt and request readers.
void fuzz_darshan_log(const std::uint8_t* data, std::size_t size) {
  const std::string_view bytes(reinterpret_cast<const char*>(data), size);
  try {
    parse_darshan_log(bytes, "fuzz.darshan");
  } catch (const UserError&) {
    return;  // the readers below give the same answer
  }
  fuzz_trace("darshan", data, size);
  fuzz_trace("dxt", data, size);
  fuzz_requests("dxt", data, size);
}

}  // namespace

std::vector<std::string> target_names() {
  std::vector<std::string> names;
  for (const auto& format : trace_format_names()) names.push_back("trace_" + format);
  names.push_back("config");
  names.push_back("bursts");
  names.push_back("replay");
  names.push_back("requests_dxt");
  names.push_back("requests_pioneer");
  names.push_back("darshan_log");
  return names;
}

bool run_target(const std::string& target, const std::uint8_t* data, std::size_t size) {
  if (target == "config") {
    fuzz_config(data, size);
    return true;
  }
  if (target == "bursts") {
    fuzz_bursts(data, size);
    return true;
  }
  if (target == "replay") {
    fuzz_replay(data, size);
    return true;
  }
  if (target == "darshan_log") {
    fuzz_darshan_log(data, size);
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
