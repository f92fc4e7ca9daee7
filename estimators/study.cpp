#include "estimators/study.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <exception>
#include <limits>

#include "host/base/errors.hpp"
#include "kernels/philox.hpp"

namespace gs {

Study::Study(const CompareOptions& options, const std::vector<std::pair<std::string, std::vector<double>>>& datasets,
             std::vector<StudyEntry> entries, std::vector<StoppedModel> stopped, const std::string& source)
    : options_(options) {
  rank_index_ = metric_index(options_, options_.rank_by).value();
  for (const auto& [name, series] : datasets) {
    Dataset dataset{name, profile_series(series, options_), {}, {}, {}};
    for (const auto& s : stopped)
      if (s.dataset == name) dataset.stopped.push_back(s);
    datasets_.push_back(std::move(dataset));
  }
  const bool aligned = metric_index(options_, Metric::trimmed_error_aligned).has_value();
  for (StudyEntry& entry : entries) {
    auto dataset =
        std::find_if(datasets_.begin(), datasets_.end(), [&](const Dataset& d) { return d.name == entry.dataset; });
    if (dataset == datasets_.end())
      throw InternalError("Study", fmt::format("no dataset '{}'", entry.dataset), __FILE__, __LINE__);
    if (aligned && entry.length != dataset->real.values.size())
      throw UserError(
          fmt::format("{}: ensemble '{}' has length {} but dataset '{}' has {} values; "
                      "trimmed_error_aligned needs the same length",
                      source, entry.ensemble, entry.length, entry.dataset, dataset->real.values.size()));
    for (const std::size_t other : dataset->compared)
      if (compared_[other].entry.label == entry.label)
        entry.label = entry.ensemble;  // two ensembles of one model: their names
    Compared c;
    const double nan = std::numeric_limits<double>::quiet_NaN();
    c.metrics.assign(options_.metrics.size(), std::vector<double>(entry.replicas, nan));
    c.quantiles.assign(entry.replicas * kCurveLevels, nan);
    c.acf.assign(entry.replicas * dataset->real.acf.size(), nan);
    c.entry = std::move(entry);
    dataset->compared.push_back(compared_.size());
    compared_.push_back(std::move(c));
  }
}

std::optional<std::size_t> Study::find(const std::string& ensemble) const {
  for (std::size_t i = 0; i < compared_.size(); ++i)
    if (compared_[i].entry.ensemble == ensemble) return i;
  return std::nullopt;
}

const Study::Dataset& Study::dataset_of(std::size_t index) const {
  const std::string& name = compared_[index].entry.dataset;
  return *std::find_if(datasets_.begin(), datasets_.end(), [&](const Dataset& d) { return d.name == name; });
}

const SeriesProfile& Study::real_of(std::size_t index) const { return dataset_of(index).real; }

std::vector<std::pair<double*, std::size_t>> Study::replica_rows(std::size_t index) {
  Compared& c = compared_[index];
  std::vector<std::pair<double*, std::size_t>> rows;
  for (auto& metric : c.metrics) rows.emplace_back(metric.data(), 1);
  rows.emplace_back(c.quantiles.data(), kCurveLevels);
  rows.emplace_back(c.acf.data(), c.entry.replicas ? c.acf.size() / c.entry.replicas : 0);
  return rows;
}

void Study::store(Compared& c, std::size_t lags, std::uint64_t replica, const double* metrics, const double* quantiles,
                  const double* acf, std::size_t acf_size) {
  for (std::size_t m = 0; m < options_.metrics.size(); ++m) c.metrics[m][replica] = metrics[m];
  std::copy_n(quantiles, kCurveLevels, c.quantiles.begin() + replica * kCurveLevels);
  std::copy_n(acf, std::min(lags, acf_size), c.acf.begin() + replica * lags);
}

namespace {

void row_as_double(const void* rows, StorageType type, std::uint64_t row, std::uint64_t length, double* out) {
  for (std::uint64_t t = 0; t < length; ++t) {
    const std::uint64_t i = row * length + t;
    switch (type) {
      case StorageType::float32:
        out[t] = static_cast<const float*>(rows)[i];
        break;
      case StorageType::float64:
        out[t] = static_cast<const double*>(rows)[i];
        break;
      case StorageType::uint32:
        out[t] = static_cast<const std::uint32_t*>(rows)[i];
        break;
    }
  }
}

// body(r) for r < count on every core; the first failure is rethrown.
template <class Body>
void for_each_row(std::uint64_t count, const Body& body) {
  std::exception_ptr failure;
#pragma omp parallel for schedule(dynamic, 1)
  for (std::int64_t r = 0; r < static_cast<std::int64_t>(count); ++r) {
    try {
      body(static_cast<std::uint64_t>(r));
    } catch (...) {
#pragma omp critical(study_failure)
      failure = std::current_exception();
    }
  }
  if (failure) std::rethrow_exception(failure);
}

// The share of c's replicas whose peak, level 1 of its quantile curve,
// exceeds kImplausiblePeakFactor × `real_peak` (NaN when it has no meaning).
double implausible_share(const Study::Compared& c, double real_peak) {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  if (!(real_peak > 0)) return nan;
  std::uint64_t above = 0, peaks = 0;
  for (std::uint64_t r = 0; r < c.entry.replicas; ++r) {
    const double peak = c.quantiles[r * kCurveLevels + kCurveLevels - 1];
    if (std::isnan(peak)) continue;
    ++peaks;
    above += peak > kImplausiblePeakFactor * real_peak;
  }
  return peaks ? static_cast<double>(above) / static_cast<double>(peaks) : nan;
}

}  // namespace

void Study::add_batch(std::size_t index, std::uint64_t first, std::uint64_t count, const void* rows, StorageType type) {
  Compared& c = compared_[index];
  const Dataset& dataset = dataset_of(index);
  const std::uint64_t length = c.entry.length;
  for_each_row(count, [&](std::uint64_t r) {
    std::vector<double> y(length);
    row_as_double(rows, type, r, length, y.data());
    const ReplicaComparison result = compare_replica(dataset.real, std::move(y), options_);
    store(c, dataset.real.acf.size(), first + r, result.metrics.data(), result.quantiles.data(), result.acf.data(),
          result.acf.size());
  });
}

void Study::add_compared(std::size_t index, std::uint64_t first, std::uint64_t count, const BatchComparison& compared) {
  Compared& c = compared_[index];
  const Dataset& dataset = dataset_of(index);
  const std::size_t metrics = options_.metrics.size(), acf_size = compared.acf.size() / count;
  for (std::uint64_t r = 0; r < count; ++r)
    store(c, dataset.real.acf.size(), first + r, &compared.metrics[r * metrics], &compared.quantiles[r * kCurveLevels],
          &compared.acf[r * acf_size], acf_size);
}

void Study::summarize(std::uint64_t seed, Resampler& resampler) {
  for (Dataset& dataset : datasets_) {
    std::vector<double> medians;
    for (const std::size_t i : dataset.compared) {
      Compared& c = compared_[i];
      c.summaries.clear();
      for (std::size_t m = 0; m < options_.metrics.size(); ++m) {
        const RngStreamKey key{seed, stream_of_name(fmt::format("compare/{}/{}/{}", dataset.name, c.entry.label,
                                                                metric_name(options_.metrics[m])))};
        c.summaries.push_back(bootstrap_median(c.metrics[m], options_.bootstrap, key, resampler));
      }
      medians.push_back(c.summaries[rank_index_].median);
      c.implausible_share = implausible_share(c, dataset.real.quantiles.back());
    }
    const std::vector<int> degrees = matching_degrees(medians);
    for (std::size_t k = 0; k < dataset.compared.size(); ++k) {
      Compared& c = compared_[dataset.compared[k]];
      c.degree = degrees[k];
      c.separated = true;
      for (const std::size_t other : dataset.compared) {
        const Compared& o = compared_[other];
        if (o.degree != c.degree && overlap(c.summaries[rank_index_].chosen(options_.bootstrap.method),
                                            o.summaries[rank_index_].chosen(options_.bootstrap.method)))
          c.separated = false;
      }
    }
    dataset.paired.clear();
    for (std::size_t i = 0; i < dataset.compared.size(); ++i) {
      for (std::size_t j = i + 1; j < dataset.compared.size(); ++j) {
        const Compared& a = compared_[dataset.compared[i]];
        const Compared& b = compared_[dataset.compared[j]];
        const RngStreamKey key{
            seed, stream_of_name(fmt::format("paired/{}/{}/{}", dataset.name, a.entry.label, b.entry.label))};
        dataset.paired.push_back({a.entry.label, b.entry.label,
                                  bootstrap_probability_below(a.metrics[rank_index_], b.metrics[rank_index_],
                                                              options_.bootstrap, key, resampler)});
      }
    }
  }
}

}  // namespace gs
