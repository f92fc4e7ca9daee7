// Replay fidelity (docs/requests.md, "Replay fidelity"): does a synthetic
// workload load a storage system the way the original does? The original
// replayed twice (its second replay is the system's own noise floor) and R
// synthetic replicas once each, all measured the same way, are compared per
// bin of time (throughput, file data operation ratio, arrival rate), by
// their totals (//TRACE's replay error) and by distribution (two-sample KS),
// with bootstrap intervals over the replicas.
#pragma once

#include <cstdint>
#include <limits>
#include <string>
#include <vector>

namespace gs {

// One data request as a replay did it: times in s from the replay's start.
struct ReplayedIo {
  double issue = 0, completion = 0, latency = 0;
  double bytes = 0;
  bool read = false;
};

// What one replay of a workload did.
struct ReplayRecord {
  std::vector<ReplayedIo> ios;
  std::vector<double> metadata_times;  // the opens, closes and syncs it ran, s from its start
  double run_time() const;             // the last completion (0 without I/O)
  double bytes() const;
};

// A replay in bins of `bin_seconds` from its start (completions; issues for
// `issued`); what ends at or after bins·width is left out.
struct ReplayBins {
  std::vector<double> bytes_read, bytes_written;             // bytes completed in the bin
  std::vector<double> reads, writes;                         // data operations completed in the bin
  std::vector<double> metadata;                              // metadata operations run in the bin
  std::vector<double> issued;                                // data requests issued in the bin
  std::vector<double> throughput(double bin_seconds) const;  // bytes/s of both directions
  std::vector<double> data_operation_ratio() const;          // data / (data + metadata) operations; NaN in an empty bin
  std::vector<double> arrival_rate(double bin_seconds) const;  // data requests issued per s
};
ReplayBins bin_replay(const ReplayRecord& replay, double bin_seconds, std::size_t bins);

// The whole-replay figures compared, each with its unit.
enum class ReplayFigure {
  run_time,              // s, the last completion
  bytes,                 // bytes read and written
  reads,                 // data requests that read
  writes,                // data requests that wrote
  throughput,            // bytes / run time, B/s
  data_operation_ratio,  // data / (data + metadata) operations
  arrival_rate,          // data requests / run time, 1/s
  latency_median,        // s
  latency_p99,           // s
};
constexpr int kReplayFigures = 9;
const char* to_string(ReplayFigure figure);
const char* unit_of(ReplayFigure figure);
double replay_figure(const ReplayRecord& replay, ReplayFigure figure);

struct Estimate {
  double value = 0, low = 0, high = 0;  // a mean over the replicas and its bootstrap interval
};

struct FigureComparison {
  ReplayFigure figure;
  double original = 0;        // the original's first replay
  double original_again = 0;  // its second replay (NaN when replayed once)
  Estimate synthetic;         // the replicas' mean
  Estimate replay_error;      // mean over replicas of |synthetic − original| / |original| (//TRACE's)
  double noise_error = 0;     // |original_again − original| / |original|: the system's own (NaN when replayed once)
  // The original's mid-rank among itself and the R replicas (1: the smallest, ties half): a workload
  // exchangeable with the replicas lies anywhere in 1 … R + 1 alike. NaN when the original's figure is.
  double original_rank = 0;
};

// The two-sample KS distances between every pair of replicas: how far one replica lies from another.
struct ReplicaSpread {
  double median = std::numeric_limits<double>::quiet_NaN(), p95 = std::numeric_limits<double>::quiet_NaN();
  std::size_t pairs = 0;
};

struct FidelityOptions {
  double bin_seconds = 0.05;
  double band_low = 0.05, band_high = 0.95;  // the replicas' pointwise band (type-7 quantiles)
  std::uint32_t resamples = 2000;            // bootstrap over the replicas (independent: one per resample)
  double confidence = 0.95;
  std::uint64_t seed = 0;
  std::uint32_t stream = 0;
  std::size_t latency_points = 101;  // the latency quantiles kept per replay (p = 0, 0.01, …, 1)
  // The traced run itself, as replayed (sizes through the entry's overrides): its last request's end
  // on the trace's clock, s, and its data bytes. NaN: unknown (no replayer figure).
  double trace_run_time = std::numeric_limits<double>::quiet_NaN();
  double trace_bytes = std::numeric_limits<double>::quiet_NaN();
};

// The replayer's own fidelity, //TRACE's figure: the original's first replay against the traced run
// (its run time and throughput), |replay − trace| / trace. Not the synthesis' figure: the replicas
// are judged against the original's replay (FigureComparison::replay_error).
struct ReplayerFidelity {
  double trace_run_time = 0, trace_throughput = 0;  // s, B/s (NaN: unknown)
  double run_time_error = 0, throughput_error = 0;  // NaN: unknown
};

// The figures over time keep at most this many bins of a replay, each bin its six channels
// (ReplayBins) and the three series made of them as doubles.
constexpr double kMaxReplayBins = 1e8;
constexpr double kBytesPerReplayBin = 9 * sizeof(double);
// The bins of width `bin_seconds` up to the one holding time `seconds` (a
// completion at the end counts); a UserError naming --bin and `what` the
// bins cover when they would be more than kMaxReplayBins.
std::size_t replay_bins_covering(double seconds, double bin_seconds, const std::string& what);

// The probabilities of the latency quantiles kept per replay: i / (points − 1).
std::vector<double> latency_probabilities(std::size_t points);

struct ReplayFidelity {
  FidelityOptions options;
  std::size_t bins = 0;           // covering every replay
  std::size_t original_bins = 0;  // covering the original's first replay: the bins coverage counts
  std::vector<ReplayBins> originals, synthetic;
  std::vector<double> band_low, band_high;  // per bin, of the replicas' throughput, B/s
  // The share of the original's bins inside the band, with a moving-block bootstrap interval over its
  // bins (blocks of ceil(bins^(1/3)) bins).
  Estimate coverage;
  // The same over the bins where the original moved data (its bursts; idle bins, where the band holds 0,
  // are most bins of a sparse workload), and how many there are.
  Estimate busy_coverage;
  std::size_t busy_bins = 0;
  // The bytes done by the end of each bin (the replay's progress) against the replicas' pointwise band
  // of theirs: the share of the original's bins inside, with the same interval. A workload that does
  // the right requests at the wrong times leaves this band early.
  std::vector<double> cumulative_band_low, cumulative_band_high;  // B
  Estimate cumulative_coverage;
  double replica_coverage = 0;            // mean share of a replica's own bins inside the band of the others: what an
                                          // exchangeable workload scores with R − 1 replicas (NaN below 3 replicas)
  double original_again_coverage = 0;     // the original's second replay inside the band (NaN when replayed once)
  std::vector<FigureComparison> figures;  // in ReplayFigure order
  ReplayerFidelity replayer;
  // Two-sample KS distance between the original's first replay and each replica (mean, interval), and
  // between the original's two replays (the noise floor), of the per-bin throughput over each replay's
  // own bins and of the request latencies.
  Estimate ks_throughput, ks_latency;
  double ks_throughput_floor = 0, ks_latency_floor = 0;  // NaN when replayed once
  // The original as one more replica: the median over the replicas of its throughput KS distance to
  // each, against the spread between two replicas (the issue's exchangeability criterion: the median
  // at most the pairs' 95th percentile).
  double ks_throughput_median = 0;
  ReplicaSpread ks_throughput_replicas;
  std::vector<std::vector<double>> latency_quantiles;    // per replay (originals, then replicas), s
};

// The goals a replay is judged by: //TRACE's "average replay error below 6 %"
// for run time and throughput, and 90 % of the original's bins inside the replicas' band.
constexpr double kTraceReplayError = 0.06;
constexpr double kCoverageGoal = 0.90;
// Where an error with its interval stands against its goal: "meets" (the interval below), "above"
// (the interval above), "interval across", or "n/a".
const char* error_against_goal(const Estimate& e, double goal);
// Where a coverage with its interval stands against kCoverageGoal: "meets", "below", "interval across", "n/a".
const char* coverage_against_goal(const Estimate& e);
// Whether a figure's replay error lies within the system's own replay-to-replay noise (the original's
// second replay against its first): "yes" when the interval's lower end is at most that noise, "no"
// when above it, "n/a" when the original was replayed once or the error is undefined.
const char* within_own_noise(const FigureComparison& c);

// Where the synthesis clearly misses a goal (its interval wholly on the wrong side), one sentence
// each: run time and throughput error, busy-bin and bytes-done coverage, exchangeability. Empty
// when it misses none.
std::vector<std::string> fidelity_shortfalls(const ReplayFidelity& f);

// Below this median latency per 4 KiB of data, a replay's requests were served from memory (the page
// cache), not by a device: a 4 KiB read takes 10 µs on the fastest (3D XPoint) SSDs and 50–100 µs
// on NVMe flash, while a page-cache copy of 4 KiB with its system call takes 1–3 µs.
constexpr double kDeviceSecondsPer4KiB = 10e-6;
// The median latency per 4 KiB of the reads (`read`) or writes of `replay`, s (NaN without any).
double median_latency_per_4kib(const ReplayRecord& replay, bool read);
// What the latencies of `replay` say of page-cache service (reads, writes), one sentence, or empty.
std::string page_cache_warning(const ReplayRecord& replay);

// "yes" when the original's median throughput KS distance to the replicas is at most the 95th
// percentile of the distance between two replicas, "no" when not, "n/a" below 3 replicas.
const char* exchangeability_word(const ReplayFidelity& f);

// `originals`: one or two replays of the original; `synthetic`: at least one
// replica. Throws UserError when a replay has no data request.
ReplayFidelity assess_replay_fidelity(const std::vector<ReplayRecord>& originals,
                                      const std::vector<ReplayRecord>& synthetic, const FidelityOptions& options);

}  // namespace gs
