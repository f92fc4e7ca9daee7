#include "io/replay_file.hpp"

#include <fmt/format.h>

#include "io/hdf5.hpp"

namespace gs {

namespace {

// One per-bin figure of every replay in `set`, as a [run, time] matrix.
template <class Figure>
void write_per_bin(hid_t group, const std::string& name, const std::vector<ReplayBins>& set, const char* runs,
                   Figure figure, const std::vector<Attribute>& attributes) {
  std::vector<double> values;
  for (const ReplayBins& b : set) {
    const std::vector<double> row = figure(b);
    values.insert(values.end(), row.begin(), row.end());
  }
  std::vector<Attribute> all = attributes;
  all.push_back({"dimensions", fmt::format("{}, time", runs)});
  h5::write_matrix(group, name, set.size(), set.empty() ? 0 : set.front().bytes_read.size(), values, all);
}

void write_series(hid_t group, const std::string& prefix, const std::vector<ReplayBins>& set, const char* runs,
                  double w) {
  const auto per_second = [w](const std::vector<double>& v) {
    std::vector<double> out(v);
    for (double& x : out) x /= w;
    return out;
  };
  write_per_bin(group, prefix + "_throughput", set, runs, [w](const ReplayBins& b) { return b.throughput(w); },
                {{"units", std::string("B/s")}, {"long_name", std::string("bytes read and written per second")}});
  write_per_bin(group, prefix + "_read_throughput", set, runs,
                [&](const ReplayBins& b) { return per_second(b.bytes_read); },
                {{"units", std::string("B/s")}, {"long_name", std::string("bytes read per second")}});
  write_per_bin(group, prefix + "_write_throughput", set, runs,
                [&](const ReplayBins& b) { return per_second(b.bytes_written); },
                {{"units", std::string("B/s")}, {"long_name", std::string("bytes written per second")}});
  write_per_bin(group, prefix + "_data_operation_ratio", set, runs,
                [](const ReplayBins& b) { return b.data_operation_ratio(); },
                {{"units", std::string("1")},
                 {"long_name", std::string("file data operations / all operations fio ran (NaN: none in the bin)")}});
  write_per_bin(group, prefix + "_arrival_rate", set, runs, [w](const ReplayBins& b) { return b.arrival_rate(w); },
                {{"units", std::string("1/s")}, {"long_name", std::string("data requests issued per second")}});
}

void write_latency_quantiles(hid_t group, const ReplayFidelity& f) {
  const std::size_t points = f.options.latency_points, originals = f.originals.size();
  h5::write_dimension(group, "probability", latency_probabilities(points), {}, 0,
                      {{"long_name", std::string("cumulative probability")}});
  std::vector<double> original, synthetic;
  for (std::size_t r = 0; r < f.latency_quantiles.size(); ++r) {
    auto& into = r < originals ? original : synthetic;
    into.insert(into.end(), f.latency_quantiles[r].begin(), f.latency_quantiles[r].end());
  }
  const std::string definition = "type-7 quantiles of the request latencies fio logged (issue to completion)";
  h5::write_matrix(group, "original_latency_quantiles", originals, points, original,
                   {{"units", std::string("s")},
                    {"definition", definition},
                    {"dimensions", std::string("original_replay, probability")}});
  h5::write_matrix(
      group, "synthetic_latency_quantiles", f.synthetic.size(), points, synthetic,
      {{"units", std::string("s")}, {"definition", definition}, {"dimensions", std::string("replica, probability")}});
}

void write_figures(hid_t group, const ReplayFidelity& f) {
  std::vector<std::string> names, units;
  std::vector<double> original, again, mean, low, high, error, error_low, error_high, noise, rank;
  for (const FigureComparison& c : f.figures) {
    names.push_back(to_string(c.figure));
    units.push_back(unit_of(c.figure));
    original.push_back(c.original);
    again.push_back(c.original_again);
    mean.push_back(c.synthetic.value);
    low.push_back(c.synthetic.low);
    high.push_back(c.synthetic.high);
    error.push_back(c.replay_error.value);
    error_low.push_back(c.replay_error.low);
    error_high.push_back(c.replay_error.high);
    noise.push_back(c.noise_error);
    rank.push_back(c.original_rank);
  }
  h5::write_dimension(group, "figure", names, {}, 0, {{"long_name", std::string("figure of a whole replay")}});
  h5::write_table(
      group, "figures",
      {{"figure", names},
       {"unit", units},
       {"original", original},
       {"original_again", again},
       {"synthetic_mean", mean},
       {"synthetic_low", low},
       {"synthetic_high", high},
       {"replay_error", error},
       {"replay_error_low", error_low},
       {"replay_error_high", error_high},
       {"noise_error", noise},
       {"original_rank", rank}},
      {{"dimensions", std::string("figure")},
       {"definition",
        fmt::format(
            "original: the original's first replay; original_again: its second; synthetic: the "
            "replicas' mean with a {} % bootstrap percentile interval (replicas resampled); "
            "replay_error: mean over the replicas of |synthetic - original| / |original| "
            "(//TRACE's replay error) with its interval; noise_error: |original_again - "
            "original| / |original|, the system's own replay-to-replay error; original_rank: the original's mid-rank "
            "among itself and the R replicas (1: the smallest, ties half; a workload "
            "exchangeable with the replicas lies anywhere in 1 to R + 1 alike)",
            100 * f.options.confidence)}});
}

void write_fidelity_attributes(hid_t group, const ReplayFidelity& f) {
  const FidelityOptions& o = f.options;
  h5::write_attributes(
      group,
      {{"bin_seconds", o.bin_seconds},
       {"bins", static_cast<std::uint64_t>(f.bins)},
       {"original_bins", static_cast<std::uint64_t>(f.original_bins)},
       {"replicas", static_cast<std::uint64_t>(f.synthetic.size())},
       {"original_replays", static_cast<std::uint64_t>(f.originals.size())},
       {"band",
        fmt::format("pointwise type-7 quantiles {} and {} of the replicas' throughput", o.band_low, o.band_high)},
       {"coverage", f.coverage.value},
       {"coverage_low", f.coverage.low},
       {"coverage_high", f.coverage.high},
       {"busy_coverage", f.busy_coverage.value},
       {"busy_coverage_low", f.busy_coverage.low},
       {"busy_coverage_high", f.busy_coverage.high},
       {"busy_bins", static_cast<std::uint64_t>(f.busy_bins)},
       {"cumulative_coverage", f.cumulative_coverage.value},
       {"cumulative_coverage_low", f.cumulative_coverage.low},
       {"cumulative_coverage_high", f.cumulative_coverage.high},
       {"replica_coverage", f.replica_coverage},
       {"original_again_coverage", f.original_again_coverage},
       {"ks_throughput", f.ks_throughput.value},
       {"ks_throughput_low", f.ks_throughput.low},
       {"ks_throughput_high", f.ks_throughput.high},
       {"ks_throughput_floor", f.ks_throughput_floor},
       {"ks_throughput_median", f.ks_throughput_median},
       {"ks_throughput_replicas_median", f.ks_throughput_replicas.median},
       {"ks_throughput_replicas_p95", f.ks_throughput_replicas.p95},
       {"ks_throughput_replica_pairs", static_cast<std::uint64_t>(f.ks_throughput_replicas.pairs)},
       {"exchangeable", std::string(exchangeability_word(f))},
       {"ks_latency", f.ks_latency.value},
       {"ks_latency_low", f.ks_latency.low},
       {"ks_latency_high", f.ks_latency.high},
       {"ks_latency_floor", f.ks_latency_floor},
       {"trace_run_time", f.replayer.trace_run_time},
       {"trace_throughput", f.replayer.trace_throughput},
       {"replayer_run_time_error", f.replayer.run_time_error},
       {"replayer_throughput_error", f.replayer.throughput_error},
       {"resamples", static_cast<std::uint64_t>(o.resamples)},
       {"confidence", o.confidence},
       {"seed", o.seed},
       {"definitions",
        std::string(
            "coverage: the share of the original's bins (those up to its last completion, original_bins) where "
            "the original's throughput lies inside the band, with a moving-block bootstrap interval over those bins "
            "(blocks of ceil(bins^(1/3))); busy_coverage: the same over the busy_bins where the original moved data "
            "(an idle bin is inside a band that holds 0); cumulative_coverage: the same for the bytes done by the end "
            "of each bin against the band of the replicas' (cumulative_band_low/high); "
            "replica_coverage: the mean share of a replica's own bins inside the band of the other replicas (what "
            "a workload exchangeable with the replicas scores); original_again_coverage: the original's second "
            "replay; ks_*: two-sample Kolmogorov-Smirnov distance between the original's first replay and each "
            "replica (mean and interval) of the per-bin throughput over each replay's own bins and of the request "
            "latencies; *_floor: the same between the original's two replays, the noise of the system under test; "
            "ks_throughput_median: the median over the replicas of the original's distance to each; "
            "ks_throughput_replicas_median/_p95: the median and 95th percentile of the distance between two replicas "
            "(every pair); exchangeable: yes when ks_throughput_median <= ks_throughput_replicas_p95 (the original "
            "is one more replica), no when not, n/a below 3 replicas; "
            "replayer_*_error: the replayer's own fidelity, //TRACE's figure: |the original's first replay - the "
            "traced run| / the traced run (trace_run_time: its last request's end, s; trace_throughput: its data bytes "
            "/ that time, B/s), not the synthesis' figure (the figures table's replay_error: the replicas against the "
            "original's replay)")}});
}

}  // namespace

void write_replays(EnsembleFile& file, const std::vector<ReplayResult>& results) {
  if (results.empty()) return;
  const h5::Handle top = h5::create_group(file.hdf5().id(), "replay");
  for (const ReplayResult& r : results) {
    const ReplayFidelity& f = r.fidelity;
    const h5::Handle group = h5::create_group(top.id(), r.name);
    h5::write_attributes(group.id(), r.attributes);
    write_fidelity_attributes(group.id(), f);
    std::vector<double> time(f.bins);
    for (std::size_t k = 0; k < f.bins; ++k) time[k] = static_cast<double>(k) * f.options.bin_seconds;
    h5::write_dimension(
        group.id(), "time", time, {}, 0,
        {{"units", std::string("s")}, {"long_name", std::string("start of the bin, from the replay's start")}});
    h5::write_dimension(group.id(), "original_replay", f.originals.size(), {}, 0,
                        {{"long_name", std::string("replay of the original")}});
    h5::write_dimension(group.id(), "replica", f.synthetic.size(), {}, 0,
                        {{"long_name", std::string("synthetic replica")}});
    write_series(group.id(), "original", f.originals, "original_replay", f.options.bin_seconds);
    write_series(group.id(), "synthetic", f.synthetic, "replica", f.options.bin_seconds);
    for (const auto& [name, values] : {std::pair{"band_low", &f.band_low}, std::pair{"band_high", &f.band_high}})
      h5::write_vector(group.id(), name, *values,
                       {{"units", std::string("B/s")},
                        {"dimensions", std::string("time")},
                        {"long_name", std::string("the replicas' pointwise throughput band")}});
    for (const auto& [name, values] : {std::pair{"cumulative_band_low", &f.cumulative_band_low},
                                       std::pair{"cumulative_band_high", &f.cumulative_band_high}})
      h5::write_vector(group.id(), name, *values,
                       {{"units", std::string("B")},
                        {"dimensions", std::string("time")},
                        {"long_name", std::string("the replicas' pointwise band of the bytes done by the bin's end")}});
    write_latency_quantiles(group.id(), f);
    write_figures(group.id(), f);
  }
}

}  // namespace gs
