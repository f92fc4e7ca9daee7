// Host-side preparation of the per-element functors of kernels/generate.hpp
// from an EnsembleJob, shared by the CPU and CUDA backends so both start from
// identical constants. Header-only: the CUDA backend includes it under nvcc.
#pragma once

#include <cmath>
#include <cstdint>
#include <memory>
#include <type_traits>
#include <variant>

#include "host/backend.hpp"
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
  kernel.law = make_stable_sampler<Real>(std::get<StableModel>(job.spec->params).law);
  kernel.key = job.key;
  kernel.map = job.spec->workload;
  kernel.length = job.spec->length;
  kernel.pairs_per_row = (job.spec->length + 1) / 2;
  return kernel;
}

template <class Real>
LfsnInnovationsKernel<Real> make_lfsn_innovations_kernel(const EnsembleJob& job) {
  const auto& model = std::get<LfsnModel>(job.spec->params);
  const LfsnKernel& lfsn = *job.lfsn;
  StableLawParams skewed;  // X± ~ S1(α, 1, 1, 0)
  skewed.alpha = model.alpha;
  skewed.beta = 1.0;
  LfsnInnovationsKernel<Real> kernel;
  kernel.innovation.skewed = make_stable_sampler<Real>(skewed);
  kernel.innovation.weight_plus = static_cast<Real>(std::pow((1 + model.beta) / 2, 1 / model.alpha));
  kernel.innovation.weight_minus = static_cast<Real>(std::pow((1 - model.beta) / 2, 1 / model.alpha));
  // The double FFT of a replica sums at most fft_length · Σ|c_k| innovations.
  double l1 = 0;
  for (double c : lfsn.coefficients) l1 += std::fabs(c);
  const double cap = FiniteMax<double>::value / (4.0 * static_cast<double>(lfsn.fft_length) * std::max(1.0, l1));
  kernel.innovation.cap = static_cast<Real>(std::min(cap, static_cast<double>(FiniteMax<Real>::value)));
  kernel.innovation.key = job.key;
  kernel.fine_points = lfsn.fine_points;
  kernel.fft_length = lfsn.fft_length;
  return kernel;
}

inline SpectrumFoldKernel make_spectrum_fold_kernel(const EnsembleJob& job) {
  SpectrumFoldKernel kernel;
  kernel.fft_length = job.lfsn->fft_length;
  kernel.inverse_length = job.lfsn->inverse_length;
  kernel.m = static_cast<std::uint64_t>(std::get<LfsnModel>(job.spec->params).m);
  return kernel;
}

template <class Out>
LfsnStoreKernel<Out> make_lfsn_store_kernel(const EnsembleJob& job) {
  LfsnStoreKernel<Out> kernel;
  kernel.row_stride = job.lfsn->fft_length;  // the inverse transform writes into the signal rows
  kernel.offset = static_cast<std::uint64_t>(std::get<LfsnModel>(job.spec->params).K);
  kernel.length = job.spec->length;
  kernel.drift = job.lfsn->drift;
  kernel.map = job.spec->workload;
  return kernel;
}

}  // namespace gs
