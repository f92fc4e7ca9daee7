// Host-side preparation of the per-element functors of kernels/generate.hpp
// from an EnsembleJob, shared by the CPU and CUDA backends so both start from
// identical constants. Header-only: the CUDA backend includes it under nvcc.
#pragma once

#include <cmath>
#include <cstdint>
#include <memory>
#include <type_traits>
#include <variant>
#include <vector>

#include "host/backend.hpp"
#include "kernels/chains.hpp"
#include "kernels/generate.hpp"

namespace gs {

// Calls f(Real{}, Out{}) with the compute type (the ensemble's dtype) and the
// storage type (uint32 for counts, else the dtype).
template <class F>
auto with_value_types(const EnsembleJob& job, F&& f) {
  const bool counts = job.storage == StorageType::uint32;
  if (job.spec->dtype == Dtype::float64) {
    return counts ? f(double{}, std::uint32_t{}) : f(double{}, double{});
  }
  return counts ? f(float{}, std::uint32_t{}) : f(float{}, float{});
}

template <class Real, class Out>
StablePairsKernel<Real, Out> make_stable_kernel(const EnsembleJob& job) {
  StablePairsKernel<Real, Out> kernel;
  kernel.draws.law = make_stable_sampler<Real>(std::get<StableModel>(job.spec->params).law);
  kernel.key = job.key;
  kernel.map = job.spec->workload;
  kernel.length = job.spec->length;
  kernel.pairs_per_row = (job.spec->length + 1) / 2;
  return kernel;
}

template <class Real, class Out>
NormalPairsKernel<Real, Out> make_normal_kernel(const EnsembleJob& job) {
  const auto& model = std::get<NormalModel>(job.spec->params);
  NormalPairsKernel<Real, Out> kernel;
  kernel.draws.mu = static_cast<Real>(model.mu);
  kernel.draws.sigma = static_cast<Real>(model.sigma);
  kernel.key = job.key;
  kernel.map = job.spec->workload;
  kernel.length = job.spec->length;
  kernel.pairs_per_row = (job.spec->length + 1) / 2;
  return kernel;
}

template <class Real>
InnovationsKernel<Real> make_innovations_kernel(const EnsembleJob& job) {
  const SpectralPlan& plan = *job.spectral;
  InnovationsKernel<Real> kernel;
  kernel.innovation.law = make_stable_sampler<Real>(plan.innovation_law);
  kernel.innovation.scale = static_cast<Real>(plan.innovation_scale);
  // The double FFT of a replica sums at most fft_length · Σ|c_k| innovations.
  double l1 = 0;
  for (double c : plan.coefficients) l1 += std::fabs(c);
  const double cap = FiniteMax<double>::value / (4.0 * static_cast<double>(plan.fft_length) * std::max(1.0, l1));
  kernel.innovation.cap = static_cast<Real>(std::min(cap, static_cast<double>(FiniteMax<Real>::value)));
  kernel.innovation.key = job.key;
  kernel.fine_points = plan.fine_points;
  kernel.fft_length = plan.fft_length;
  return kernel;
}

inline SpectrumFoldKernel make_spectrum_fold_kernel(const EnsembleJob& job) {
  SpectrumFoldKernel kernel;
  kernel.fft_length = job.spectral->fft_length;
  kernel.inverse_length = job.spectral->inverse_length;
  kernel.m = job.spectral->m;
  return kernel;
}

// `amplitude` is set by the backend (host or device copy of plan.amplitudes).
inline CirculantNoiseKernel make_circulant_noise_kernel(const EnsembleJob& job) {
  CirculantNoiseKernel kernel;
  kernel.key = job.key;
  kernel.inverse_length = job.spectral->inverse_length;
  return kernel;
}

template <class Out>
FilteredStoreKernel<Out> make_filtered_store_kernel(const EnsembleJob& job) {
  FilteredStoreKernel<Out> kernel;
  kernel.row_stride = job.spectral->fft_length;  // the inverse transform writes into the signal rows
  kernel.offset = job.spectral->offset;
  kernel.length = job.spec->length;
  kernel.location = job.spectral->location;
  kernel.map = job.spec->workload;
  return kernel;
}

// Cumulative laws for kernels/chains.hpp: entries from the last state of
// positive probability on are 2 (see there).
inline void set_cumulative(const std::vector<double>& law, double* cumulative) {
  std::size_t last = 0;
  for (std::size_t j = 0; j < law.size(); ++j) {
    if (law[j] > 0) last = j;
  }
  double sum = 0;
  for (std::size_t j = 0; j < law.size(); ++j) {
    sum += law[j];
    cumulative[j] = j >= last ? 2.0 : sum;
  }
}

template <class Out>
MarkovChainKernel<Out> make_markov_kernel(const EnsembleJob& job) {
  const auto& model = std::get<MarkovModel>(job.spec->params);
  MarkovChainKernel<Out> kernel;
  kernel.key = job.key;
  kernel.states = static_cast<int>(model.levels.size());
  set_cumulative(model.initial, kernel.initial);
  for (std::size_t i = 0; i < model.levels.size(); ++i) {
    set_cumulative(model.transition[i], kernel.transition[i]);
    kernel.level[i] = model.levels[i];
    kernel.noise[i] = model.noise[i];
  }
  kernel.map = job.spec->workload;
  kernel.length = job.spec->length;
  return kernel;
}

// `times` points at the model's own list (host memory; the CUDA backend swaps
// in a device copy), or is null for regular times.
template <class Out>
HmmKernel<Out> make_hmm_kernel(const EnsembleJob& job) {
  const auto& model = std::get<HmmModel>(job.spec->params);
  HmmKernel<Out> kernel;
  kernel.key = job.key;
  kernel.states = static_cast<int>(model.generator.size());
  set_cumulative(model.initial, kernel.initial);
  for (std::size_t i = 0; i < model.generator.size(); ++i) {
    const double rate = -model.generator[i][i];
    kernel.rate[i] = rate > 0 ? rate : 0;
    std::vector<double> jump(model.generator.size(), 0.0);
    for (std::size_t j = 0; j < jump.size(); ++j) {
      if (j != i && rate > 0) jump[j] = model.generator[i][j] / rate;
    }
    if (rate > 0) set_cumulative(jump, kernel.jump[i]);
    kernel.log_mean[i] = model.mu[i];
    kernel.log_sd[i] = model.sigma[i];
  }
  kernel.times = model.times.empty() ? nullptr : model.times.data();
  kernel.start = model.start;
  kernel.interval = model.interval;
  kernel.map = job.spec->workload;
  kernel.length = job.spec->length;
  return kernel;
}

}  // namespace gs
