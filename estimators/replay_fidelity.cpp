#include "estimators/replay_fidelity.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <cmath>
#include <functional>
#include <limits>

#include "estimators/burst_statistics.hpp"
#include "estimators/empirical.hpp"
#include "host/base/errors.hpp"
#include "host/base/interrupt.hpp"

namespace gs {

namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

// Each figure's name and unit, in ReplayFigure order.
struct FigureName {
  const char *name, *unit;
};
constexpr FigureName kFigureNames[kReplayFigures] = {
    {"run_time", "s"},       {"bytes", "B"},          {"reads", "1"},
    {"writes", "1"},         {"throughput", "B/s"},   {"data_operation_ratio", "1"},
    {"arrival_rate", "1/s"}, {"latency_median", "s"}, {"latency_p99", "s"}};

std::vector<double> latencies_of(const ReplayRecord& replay) {
  std::vector<double> values;
  values.reserve(replay.ios.size());
  for (const ReplayedIo& io : replay.ios) values.push_back(io.latency);
  sort_values(values);
  return values;
}

double relative_error(double value, double reference) {
  return reference != 0 ? std::abs(value - reference) / std::abs(reference) : kNaN;
}

double mean_of(const std::vector<double>& values, const std::vector<std::size_t>& which) {
  double sum = 0;
  for (std::size_t i : which) sum += values[i];
  return which.empty() ? kNaN : sum / static_cast<double>(which.size());
}

std::vector<std::size_t> all_of(std::size_t n) {
  std::vector<std::size_t> indices(n);
  for (std::size_t i = 0; i < n; ++i) indices[i] = i;
  return indices;
}

// The mean of a per-replica statistic over the replicas, with a percentile
// interval from resampling the replicas (each resample draws R of them).
Estimate mean_with_interval(const std::vector<double>& per_replica, const FidelityOptions& o, const std::string& what) {
  Estimate e;
  e.value = mean_of(per_replica, all_of(per_replica.size()));
  const BlockBootstrapInterval interval =
      block_bootstrap(per_replica.size(), 1, o.resamples, o.confidence, o.seed, stream_of_name(what) ^ o.stream,
                      [&](const std::vector<std::size_t>& which) {
                        throw_if_interrupted();
                        return mean_of(per_replica, which);
                      });
  e.low = interval.low;
  e.high = interval.high;
  return e;
}

// The share of the counted bins that are inside, with an interval from a
// moving-block bootstrap of the original's bins (dependent in time; blocks of
// ceil(bins^(1/3))) against the band of all replicas. (Resampling the
// replicas instead narrows the band with every repeated replica: its
// intervals lie below the coverage itself.) NaN without a counted bin.
Estimate coverage_of(const std::vector<bool>& inside, const std::vector<bool>& counted, const FidelityOptions& o,
                     const std::string& what) {
  const auto share = [&](const std::vector<std::size_t>& positions) {
    double in = 0, all = 0;
    for (std::size_t k : positions) {
      in += counted[k] && inside[k];
      all += counted[k];
    }
    return all > 0 ? in / all : kNaN;
  };
  const std::size_t n = inside.size();
  const auto block = static_cast<std::size_t>(std::ceil(std::cbrt(static_cast<double>(n))));
  const BlockBootstrapInterval interval =
      block_bootstrap(n, block, o.resamples, o.confidence, o.seed, stream_of_name(what) ^ o.stream,
                      [&](const std::vector<std::size_t>& positions) {
                        throw_if_interrupted();
                        const double s = share(positions);
                        return std::isnan(s) ? 0.0 : s;  // a resample without busy bins: none covered
                      });
  const double value = share(all_of(n));
  return std::isnan(value) ? Estimate{kNaN, kNaN, kNaN} : Estimate{value, interval.low, interval.high};
}

std::vector<double> cumulative_bytes(const ReplayBins& b) {
  std::vector<double> out(b.bytes_read.size());
  double sum = 0;
  for (std::size_t k = 0; k < out.size(); ++k) out[k] = sum += b.bytes_read[k] + b.bytes_written[k];
  return out;
}

// The pointwise band of the per-bin values of the replicas `which`.
void band_of(const std::vector<std::vector<double>>& throughput, const std::vector<std::size_t>& which,
             const FidelityOptions& o, std::vector<double>& low, std::vector<double>& high) {
  const std::size_t bins = throughput.empty() ? 0 : throughput.front().size();
  low.assign(bins, 0);
  high.assign(bins, 0);
  std::vector<double> column(which.size());
  for (std::size_t k = 0; k < bins; ++k) {
    for (std::size_t j = 0; j < which.size(); ++j) column[j] = throughput[which[j]][k];
    std::sort(column.begin(), column.end());
    low[k] = quantile_of_sorted(column.data(), column.size(), o.band_low);
    high[k] = quantile_of_sorted(column.data(), column.size(), o.band_high);
  }
}

// Whether each of the first `bins` values lies inside its bin's band (inclusive).
std::vector<bool> inside_band(const std::vector<double>& values, std::size_t bins, const std::vector<double>& low,
                              const std::vector<double>& high) {
  std::vector<bool> inside(bins);
  for (std::size_t k = 0; k < bins; ++k) inside[k] = values[k] >= low[k] && values[k] <= high[k];
  return inside;
}

double share_inside(const std::vector<double>& values, std::size_t bins, const std::vector<double>& low,
                    const std::vector<double>& high) {
  if (bins == 0) return kNaN;
  const std::vector<bool> inside = inside_band(values, bins, low, high);
  return static_cast<double>(std::count(inside.begin(), inside.end(), true)) / static_cast<double>(bins);
}

// The bins up to the one holding time `seconds`, within the bound replay_bins_covering checked.
std::size_t bins_covering(double seconds, double bin_seconds) {
  return static_cast<std::size_t>(std::floor(std::max(seconds, 0.0) / bin_seconds)) + 1;
}

// The per-bin throughput of a replay over its own bins, sorted (the KS sample).
std::vector<double> sorted_own_throughput(const ReplayBins& bins, const ReplayRecord& replay, double bin_seconds) {
  std::vector<double> values = bins.throughput(bin_seconds);
  values.resize(std::min(values.size(), bins_covering(replay.run_time(), bin_seconds)));
  sort_values(values);
  return values;
}

double ks_of(const std::vector<double>& a, const std::vector<double>& b) {
  return ks_distance_of_sorted(a.data(), a.size(), b.data(), b.size());
}

std::vector<double> latency_quantiles(const std::vector<double>& sorted, std::size_t points) {
  std::vector<double> q = latency_probabilities(points);
  for (double& x : q) x = quantile_of_sorted(sorted.data(), sorted.size(), x);
  return q;
}

void check_replays(const std::vector<ReplayRecord>& originals, const std::vector<ReplayRecord>& synthetic,
                   const FidelityOptions& o) {
  if (originals.empty() || originals.size() > 2 || synthetic.empty())
    throw InternalError("assess_replay_fidelity", "one or two replays of the original and at least one replica",
                        __FILE__, __LINE__);
  if (!(o.bin_seconds > 0) || !(o.band_low >= 0 && o.band_low < o.band_high && o.band_high <= 1))
    throw InternalError("assess_replay_fidelity", "bin width or band out of range", __FILE__, __LINE__);
  for (std::size_t i = 0; i < originals.size() + synthetic.size(); ++i) {
    const bool original = i < originals.size();
    const ReplayRecord& r = original ? originals[i] : synthetic[i - originals.size()];
    if (r.ios.empty())
      throw UserError(original ? fmt::format("replay {} of the original did no data request", i + 1)
                               : fmt::format("the replay of replica {} did no data request", i - originals.size()));
  }
}

// The rank of `value` among itself and `others` (1: the smallest), ties counted half: R + 1 values
// exchangeable with each other put it anywhere from 1 to R + 1 alike. NaN when `value` is.
double mid_rank(double value, const std::vector<double>& others) {
  if (std::isnan(value)) return kNaN;
  double rank = 1;
  for (double x : others) rank += x < value ? 1.0 : x == value ? 0.5 : 0.0;
  return rank;
}

// The two-sample KS distances between every pair of replicas: the spread that
// a workload exchangeable with them shows against one of them.
ReplicaSpread spread_between(const std::vector<std::vector<double>>& samples, std::size_t first) {
  std::vector<double> distances;
  for (std::size_t i = first; i < samples.size(); ++i)
    for (std::size_t j = i + 1; j < samples.size(); ++j) distances.push_back(ks_of(samples[i], samples[j]));
  ReplicaSpread spread;
  spread.pairs = distances.size();
  if (distances.empty()) return spread;  // one replica: no pair
  const SortedSample sorted(std::move(distances));
  spread.median = sorted.quantile(0.5);
  spread.p95 = sorted.quantile(0.95);
  return spread;
}

void compare_figures(const std::vector<ReplayRecord>& originals, const std::vector<ReplayRecord>& synthetic,
                     const FidelityOptions& o, ReplayFidelity& f) {
  for (int index = 0; index < kReplayFigures; ++index) {
    const auto figure = static_cast<ReplayFigure>(index);
    FigureComparison c;
    c.figure = figure;
    c.original = replay_figure(originals[0], figure);
    c.original_again = originals.size() > 1 ? replay_figure(originals[1], figure) : kNaN;
    c.noise_error = relative_error(c.original_again, c.original);
    std::vector<double> values, errors;
    for (const ReplayRecord& r : synthetic) {
      values.push_back(replay_figure(r, figure));
      errors.push_back(relative_error(values.back(), c.original));
    }
    c.original_rank = mid_rank(c.original, values);
    c.synthetic = mean_with_interval(values, o, std::string("replay/figure/") + to_string(figure));
    c.replay_error = mean_with_interval(errors, o, std::string("replay/error/") + to_string(figure));
    f.figures.push_back(c);
  }
}

void compare_bands(const std::vector<ReplayRecord>& originals, const std::vector<ReplayRecord>& synthetic,
                   const FidelityOptions& o, ReplayFidelity& f) {
  const double w = o.bin_seconds;
  std::vector<std::vector<double>> throughput;
  for (const ReplayBins& b : f.synthetic) throughput.push_back(b.throughput(w));
  band_of(throughput, all_of(synthetic.size()), o, f.band_low, f.band_high);
  const std::vector<double> original = f.originals[0].throughput(w);
  const std::vector<bool> inside = inside_band(original, f.original_bins, f.band_low, f.band_high);
  std::vector<bool> busy(f.original_bins);
  for (std::size_t k = 0; k < f.original_bins; ++k) busy[k] = original[k] > 0;
  f.busy_bins = static_cast<std::size_t>(std::count(busy.begin(), busy.end(), true));
  f.coverage = coverage_of(inside, std::vector<bool>(f.original_bins, true), o, "replay/coverage");
  f.busy_coverage = coverage_of(inside, busy, o, "replay/busy_coverage");
  f.original_again_coverage = originals.size() > 1
                                  ? share_inside(f.originals[1].throughput(w), f.original_bins, f.band_low, f.band_high)
                                  : kNaN;
  // Bytes done by the end of each bin: the progress of the replay, not sparse as a bursty rate is.
  std::vector<std::vector<double>> done;
  for (const ReplayBins& b : f.synthetic) done.push_back(cumulative_bytes(b));
  band_of(done, all_of(synthetic.size()), o, f.cumulative_band_low, f.cumulative_band_high);
  const std::vector<bool> done_inside =
      inside_band(cumulative_bytes(f.originals[0]), f.original_bins, f.cumulative_band_low, f.cumulative_band_high);
  f.cumulative_coverage = coverage_of(done_inside, std::vector<bool>(f.original_bins, true), o, "replay/cumulative");
  f.replica_coverage = kNaN;
  if (synthetic.size() >= 3) {  // each replica against the band of the others, over its own bins
    double sum = 0;
    for (std::size_t r = 0; r < synthetic.size(); ++r) {
      std::vector<std::size_t> others;
      for (std::size_t j = 0; j < synthetic.size(); ++j)
        if (j != r) others.push_back(j);
      std::vector<double> low, high;
      band_of(throughput, others, o, low, high);
      sum += share_inside(throughput[r], std::min(f.bins, bins_covering(synthetic[r].run_time(), w)), low, high);
    }
    f.replica_coverage = sum / static_cast<double>(synthetic.size());
  }
}

void compare_distributions(const std::vector<ReplayRecord>& originals, const std::vector<ReplayRecord>& synthetic,
                           const FidelityOptions& o, ReplayFidelity& f) {
  const double w = o.bin_seconds;
  std::vector<std::vector<double>> throughput, latency;
  for (std::size_t i = 0; i < originals.size(); ++i) {
    throughput.push_back(sorted_own_throughput(f.originals[i], originals[i], w));
    latency.push_back(latencies_of(originals[i]));
  }
  for (std::size_t i = 0; i < synthetic.size(); ++i) {
    throughput.push_back(sorted_own_throughput(f.synthetic[i], synthetic[i], w));
    latency.push_back(latencies_of(synthetic[i]));
  }
  std::vector<double> ks_throughput, ks_latency;
  for (std::size_t i = originals.size(); i < throughput.size(); ++i) {
    ks_throughput.push_back(ks_of(throughput[0], throughput[i]));
    ks_latency.push_back(ks_of(latency[0], latency[i]));
  }
  f.ks_throughput = mean_with_interval(ks_throughput, o, "replay/ks/throughput");
  f.ks_throughput_replicas = spread_between(throughput, originals.size());
  f.ks_throughput_median = SortedSample(ks_throughput).quantile(0.5);  // at least one replica
  f.ks_latency = mean_with_interval(ks_latency, o, "replay/ks/latency");
  f.ks_throughput_floor = originals.size() > 1 ? ks_of(throughput[0], throughput[1]) : kNaN;
  f.ks_latency_floor = originals.size() > 1 ? ks_of(latency[0], latency[1]) : kNaN;
  for (const std::vector<double>& l : latency) f.latency_quantiles.push_back(latency_quantiles(l, o.latency_points));
}

}  // namespace

double ReplayRecord::run_time() const {
  double end = 0;
  for (const ReplayedIo& io : ios) end = std::max(end, io.completion);
  return end;
}

double ReplayRecord::bytes() const {
  double sum = 0;
  for (const ReplayedIo& io : ios) sum += io.bytes;
  return sum;
}

std::vector<double> ReplayBins::throughput(double bin_seconds) const {
  std::vector<double> out(bytes_read.size());
  for (std::size_t k = 0; k < out.size(); ++k) out[k] = (bytes_read[k] + bytes_written[k]) / bin_seconds;
  return out;
}

std::vector<double> ReplayBins::data_operation_ratio() const {
  std::vector<double> out(reads.size());
  for (std::size_t k = 0; k < out.size(); ++k) {
    const double data = reads[k] + writes[k], all = data + metadata[k];
    out[k] = all > 0 ? data / all : kNaN;
  }
  return out;
}

std::vector<double> ReplayBins::arrival_rate(double bin_seconds) const {
  std::vector<double> out(issued.size());
  for (std::size_t k = 0; k < out.size(); ++k) out[k] = issued[k] / bin_seconds;
  return out;
}

ReplayBins bin_replay(const ReplayRecord& replay, double bin_seconds, std::size_t bins) {
  ReplayBins b;
  for (auto* v : {&b.bytes_read, &b.bytes_written, &b.reads, &b.writes, &b.metadata, &b.issued}) v->assign(bins, 0);
  const auto bin_of = [&](double t) {
    const double k = std::floor(std::max(t, 0.0) / bin_seconds);
    return k < static_cast<double>(bins) ? static_cast<std::size_t>(k) : bins;
  };
  for (const ReplayedIo& io : replay.ios) {
    if (const std::size_t k = bin_of(io.completion); k < bins) {
      (io.read ? b.bytes_read : b.bytes_written)[k] += io.bytes;
      (io.read ? b.reads : b.writes)[k] += 1;
    }
    if (const std::size_t k = bin_of(io.issue); k < bins) b.issued[k] += 1;
  }
  for (double t : replay.metadata_times)
    if (const std::size_t k = bin_of(t); k < bins) b.metadata[k] += 1;
  return b;
}

const char* to_string(ReplayFigure figure) { return kFigureNames[static_cast<int>(figure)].name; }

const char* unit_of(ReplayFigure figure) { return kFigureNames[static_cast<int>(figure)].unit; }

std::vector<double> latency_probabilities(std::size_t points) {
  std::vector<double> p(points);
  for (std::size_t i = 0; i < points; ++i)
    p[i] = points > 1 ? static_cast<double>(i) / static_cast<double>(points - 1) : 0.5;
  return p;
}

double replay_figure(const ReplayRecord& replay, ReplayFigure figure) {
  const double run = replay.run_time(), requests = static_cast<double>(replay.ios.size());
  switch (figure) {
    case ReplayFigure::run_time:
      return run;
    case ReplayFigure::bytes:
      return replay.bytes();
    case ReplayFigure::reads:
    case ReplayFigure::writes: {
      const bool read = figure == ReplayFigure::reads;
      return static_cast<double>(std::count_if(replay.ios.begin(), replay.ios.end(),
                                               [read](const ReplayedIo& io) { return io.read == read; }));
    }
    case ReplayFigure::throughput:
      return run > 0 ? replay.bytes() / run : kNaN;
    case ReplayFigure::data_operation_ratio:
      return requests / (requests + static_cast<double>(replay.metadata_times.size()));
    case ReplayFigure::arrival_rate:
      return run > 0 ? requests / run : kNaN;
    case ReplayFigure::latency_median:
    case ReplayFigure::latency_p99: {
      const std::vector<double> sorted = latencies_of(replay);
      return quantile_of_sorted(sorted.data(), sorted.size(), figure == ReplayFigure::latency_median ? 0.5 : 0.99);
    }
  }
  return kNaN;
}

namespace {

// A figure against its goal, decided once: the words below and the shortfalls are read from it.
enum class Verdict { not_available, meets, misses, interval_across };

// The original is as far from the replicas as they are from each other, or no farther than from its own
// second replay: replicas that replay to the same bins (a trace's phases copied rank by rank) are no spread
// at all, and a distance the system's own replay-to-replay noise reaches tells nothing against the original.
Verdict exchangeability_verdict(const ReplayFidelity& f) {
  if (f.synthetic.size() < 3 || std::isnan(f.ks_throughput_replicas.p95)) return Verdict::not_available;
  const double spread = std::fmax(f.ks_throughput_replicas.p95, f.ks_throughput_floor);  // no floor: NaN
  return f.ks_throughput_median <= spread ? Verdict::meets : Verdict::misses;
}

Verdict error_verdict(const Estimate& e, double goal) {
  if (std::isnan(e.value)) return Verdict::not_available;
  return e.high <= goal ? Verdict::meets : e.low > goal ? Verdict::misses : Verdict::interval_across;
}

Verdict coverage_verdict(const Estimate& e) {
  if (std::isnan(e.value)) return Verdict::not_available;
  return e.low >= kCoverageGoal ? Verdict::meets : e.high < kCoverageGoal ? Verdict::misses : Verdict::interval_across;
}

// The printed word of `v`, where `misses` reads as `missed` (above, below, no).
const char* word_of(Verdict v, const char* meets, const char* missed) {
  switch (v) {
    case Verdict::meets:
      return meets;
    case Verdict::misses:
      return missed;
    case Verdict::interval_across:
      return "interval across";
    case Verdict::not_available:
      break;
  }
  return "n/a";
}

}  // namespace

const char* exchangeability_word(const ReplayFidelity& f) { return word_of(exchangeability_verdict(f), "yes", "no"); }

const char* error_against_goal(const Estimate& e, double goal) {
  return word_of(error_verdict(e, goal), "meets", "above");
}

const char* coverage_against_goal(const Estimate& e) { return word_of(coverage_verdict(e), "meets", "below"); }

const char* within_own_noise(const FigureComparison& c) {
  if (std::isnan(c.noise_error) || std::isnan(c.replay_error.value)) return "n/a";
  return c.replay_error.low <= c.noise_error ? "yes" : "no";
}

std::vector<std::string> fidelity_shortfalls(const ReplayFidelity& f) {
  std::vector<std::string> out;
  for (const ReplayFigure figure : {ReplayFigure::run_time, ReplayFigure::throughput}) {
    const Estimate& e = f.figures[static_cast<int>(figure)].replay_error;
    if (error_verdict(e, kTraceReplayError) == Verdict::misses)
      out.push_back(fmt::format("the replicas' {} error {:.1f} % [{:.1f}, {:.1f}] is above the {:.0f} % goal",
                                to_string(figure), 100 * e.value, 100 * e.low, 100 * e.high, 100 * kTraceReplayError));
  }
  for (const auto& [what, e] :
       {std::pair{"the busy bins", &f.busy_coverage}, std::pair{"the bytes done", &f.cumulative_coverage}})
    if (coverage_verdict(*e) == Verdict::misses)
      out.push_back(fmt::format("the band covers {:.1f} % [{:.1f}, {:.1f}] of {}, below the {:.0f} % goal",
                                100 * e->value, 100 * e->low, 100 * e->high, what, 100 * kCoverageGoal));
  if (exchangeability_verdict(f) == Verdict::misses)
    out.push_back(
        "the original is not exchangeable with the replicas (its median throughput KS distance to them "
        "exceeds the 95th percentile between two replicas and the distance between its own two replays)");
  return out;
}

double median_latency_per_4kib(const ReplayRecord& replay, bool read) {
  std::vector<double> per_4kib;
  for (const ReplayedIo& io : replay.ios)
    if (io.read == read) per_4kib.push_back(io.latency / std::max(1.0, io.bytes / 4096));
  if (per_4kib.empty()) return kNaN;
  return SortedSample(std::move(per_4kib)).quantile(0.5);
}

std::string page_cache_warning(const ReplayRecord& replay) {
  std::vector<std::string> fast;
  for (const bool read : {true, false})
    if (const double median = median_latency_per_4kib(replay, read); median < kDeviceSecondsPer4KiB)
      fast.push_back(fmt::format("{} {:.3g} µs", read ? "reads" : "writes", 1e6 * median));
  if (fast.empty()) return "";
  return fmt::format(
      "the median latency per 4 KiB ({}) is below the {:.0f} µs a device takes: the page cache served these "
      "requests, not the file system's device, and the figures measure memory (replay with "
      "--fio-option=--direct=1 where the requests are block-aligned, or a target larger than the memory)",
      fmt::join(fast, ", "), 1e6 * kDeviceSecondsPer4KiB);
}

std::size_t replay_bins_covering(double seconds, double bin_seconds, const std::string& what) {
  const double bins = std::floor(std::max(seconds, 0.0) / bin_seconds) + 1;  // bins_covering's count, unrounded
  if (!(bins <= kMaxReplayBins))
    throw UserError(
        fmt::format("--bin {} s gives {:.3g} bins over the {:.6g} s of {}; accepted: at most {:.0e} bins "
                    "({} MB per replay): choose a wider --bin",
                    bin_seconds, bins, seconds, what, kMaxReplayBins, kMaxReplayBins * kBytesPerReplayBin / 1e6));
  return bins_covering(seconds, bin_seconds);
}

namespace {

ReplayerFidelity compare_with_trace(const ReplayRecord& replay, const FidelityOptions& options) {
  ReplayerFidelity r;
  r.trace_run_time = options.trace_run_time;
  r.trace_throughput = options.trace_run_time > 0 ? options.trace_bytes / options.trace_run_time : kNaN;
  r.run_time_error = relative_error(replay_figure(replay, ReplayFigure::run_time), r.trace_run_time);
  r.throughput_error = relative_error(replay_figure(replay, ReplayFigure::throughput), r.trace_throughput);
  return r;
}

}  // namespace

ReplayFidelity assess_replay_fidelity(const std::vector<ReplayRecord>& originals,
                                      const std::vector<ReplayRecord>& synthetic, const FidelityOptions& options) {
  check_replays(originals, synthetic, options);
  ReplayFidelity f;
  f.options = options;
  double longest = 0;
  for (const auto* set : {&originals, &synthetic})
    for (const ReplayRecord& r : *set) longest = std::max(longest, r.run_time());
  f.bins = replay_bins_covering(longest, options.bin_seconds, "the longest replay");
  f.original_bins = bins_covering(originals[0].run_time(), options.bin_seconds);
  for (const ReplayRecord& r : originals) f.originals.push_back(bin_replay(r, options.bin_seconds, f.bins));
  for (const ReplayRecord& r : synthetic) f.synthetic.push_back(bin_replay(r, options.bin_seconds, f.bins));
  compare_figures(originals, synthetic, options, f);
  f.replayer = compare_with_trace(originals[0], options);
  compare_bands(originals, synthetic, options, f);
  compare_distributions(originals, synthetic, options, f);
  return f;
}

}  // namespace gs
