#include "io/stats_file.hpp"

#include <fmt/format.h>

#include <boost/math/distributions/normal.hpp>
#include <cmath>
#include <functional>

#include "estimators/empirical.hpp"
#include "io/hdf5.hpp"
#include "version.hpp"

namespace gs {

namespace {

constexpr std::size_t kQuantileLevels = 101;
constexpr std::size_t kQqPoints = 200;

void write_distribution(hid_t group, const std::string& prefix, const std::vector<double>& values,
                        const std::function<double(double)>& reference, const char* reference_name) {
  const SortedSample sample(values);
  std::vector<double> levels, quantiles, theoretical, empirical;
  for (std::size_t i = 0; i < kQuantileLevels; ++i) {
    levels.push_back(static_cast<double>(i) / (kQuantileLevels - 1));
    quantiles.push_back(sample.quantile(levels.back()));
  }
  h5::write_vector(group, prefix + "quantiles", quantiles,
                   {{"levels", levels}, {"definition", std::string("Hyndman–Fan type 7 sample quantiles")}});
  for (const auto& [x, y] : qq_points(sample, reference, kQqPoints)) theoretical.push_back(x), empirical.push_back(y);
  h5::write_vector(group, prefix + "qq_theoretical", theoretical, {{"law", std::string(reference_name)}});
  h5::write_vector(group, prefix + "qq_empirical", empirical, {{"levels", std::string("(i - 1/2)/200, i = 1..200")}});
}

}  // namespace

void write_statistics_file(const std::string& path, const std::string& name, const std::string& command_line,
                           const TraceStatistics& s, const std::vector<std::string>& sha) {
  h5::PendingFile file(path, "-o");
  h5::write_attributes(file.id(), {{"file_type", std::string("gpusynth statistics")},
                                   {"format_version", std::string("1.0")},
                                   {"gpusynth_version", std::string(kVersion)},
                                   {"stream_version", std::int64_t{kStreamVersion}},
                                   {"git_revision", std::string(kGitRevision)},
                                   {"command_line", command_line}});
  h5::Handle datasets = h5::create_group(file.id(), "datasets");
  h5::Handle group = h5::create_group(datasets.id(), name);
  h5::write_attributes(group.id(), dataset_attributes(s.loaded, sha));
  h5::write_vector(group.id(), "series", s.loaded.series,
                   {{"description", fmt::format("the analysed series: {}", s.loaded.series_name)},
                    {"unit", std::string(s.loaded.series_name.rfind("bytes", 0) == 0 ? "bytes per bin" : "per bin")}});
  if (!s.loaded.binned.channels.empty()) {
    h5::Handle channels = h5::create_group(group.id(), "channels");
    for (const auto& [name, values] : s.loaded.binned.channels) h5::write_vector(channels.id(), name, values, {});
  }
  if (s.loaded.trace.kind == Trace::Kind::events) {
    h5::write_vector(group.id(), "event_times", s.loaded.trace.times, {{"unit", std::string("s")}});
    if (!s.loaded.trace.sizes.empty())
      h5::write_vector(group.id(), "event_sizes", s.loaded.trace.sizes, {{"unit", std::string("bytes")}});
  }
  if (s.loaded.trace.kind == Trace::Kind::series)
    h5::write_vector(group.id(), "times", s.loaded.trace.series_times, {});
  h5::write_vector(group.id(), "acf", s.acf,
                   {{"definition", std::string("c(k)/c(0), c(k) = 1/n sum (x_t - mean)(x_t+k - mean)")}});
  const double mean = s.burstiness.mean, sd = s.burstiness.sd;
  write_distribution(
      group.id(), "", s.loaded.series,
      [&](double p) { return sd > 0 ? boost::math::quantile(boost::math::normal(mean, sd), p) : mean; },
      "normal with the sample mean and sd");
  if (!s.loaded.interarrivals.empty()) {
    h5::write_vector(group.id(), "interarrivals", s.loaded.interarrivals, {{"unit", std::string("s")}});
    h5::write_vector(group.id(), "interarrival_acf", s.interarrival_acf, {});
    const double m = s.interarrival_burstiness.mean;
    write_distribution(
        group.id(), "interarrival_", s.loaded.interarrivals, [&](double p) { return -m * std::log1p(-p); },
        "exponential with the sample mean (Poisson arrivals)");
  }
  h5::Handle burst = h5::create_group(group.id(), "burstiness");
  h5::write_attributes(burst.id(), {{"mean", mean},
                                    {"sd", sd},
                                    {"cv", s.burstiness.cv},
                                    {"peak", s.burstiness.peak},
                                    {"peak_to_mean", s.burstiness.peak_to_mean}});
  std::vector<double> scales(s.burstiness.idc_scales.begin(), s.burstiness.idc_scales.end());
  h5::write_vector(burst.id(), "idc_scales", scales, {{"unit", std::string("bins")}});
  h5::write_vector(burst.id(), "idc", s.burstiness.idc, {{"definition", std::string("Var(N_m)/E[N_m]")}});
  h5::Handle hurst = h5::create_group(group.id(), "hurst");
  for (const auto& h : s.hurst) {
    h5::Handle e = h5::create_group(hurst.id(), h.key);
    h5::write_attributes(e.id(), {{"H", h.estimate.H},
                                  {"se", h.estimate.se},
                                  {"slope", h.estimate.slope},
                                  {"intercept", h.estimate.intercept},
                                  {"note", h.estimate.note}});
    if (!h.estimate.log_scale.empty()) {
      h5::write_vector(e.id(), "log10_scale", h.estimate.log_scale, {});
      h5::write_vector(e.id(), "log10_statistic", h.estimate.log_statistic, {});
    }
  }
  hurst.reset();
  burst.reset();
  group.reset();
  datasets.reset();
  file.commit();
}

}  // namespace gs
