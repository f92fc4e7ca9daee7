// The functors of kernels/spectral.hpp filled in from a job's spectral plan,
// shared by the CPU and CUDA backends so both start from identical constants.
// Header-only: the CUDA backend includes it under nvcc.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>

#include "host/engine/backend.hpp"
#include "kernels/spectral.hpp"

namespace gs {

template <class Real>
InnovationsKernel<Real> make_innovations_kernel(const EnsembleJob& job) {
  const SpectralPlan& plan = *job.generation.spectral;
  InnovationsKernel<Real> kernel;
  kernel.innovation.law = make_stable_sampler<Real>(plan.innovation_law);
  kernel.innovation.scale = static_cast<Real>(plan.innovation_scale);
  // The double FFT of a replica sums at most fft_length · Σ|c_k| innovations.
  double l1 = 0;
  for (double c : plan.coefficients) l1 += std::fabs(c);
  const double cap = FiniteMax<double>::value / (4.0 * static_cast<double>(plan.fft_length) * std::max(1.0, l1));
  kernel.innovation.cap = static_cast<Real>(std::min(cap, static_cast<double>(FiniteMax<Real>::value)));
  kernel.innovation.key = job.request.key;
  kernel.fine_points = plan.fine_points;
  kernel.fft_length = plan.fft_length;
  return kernel;
}

inline SpectrumFoldKernel make_spectrum_fold_kernel(const EnsembleJob& job) {
  SpectrumFoldKernel kernel;
  kernel.fft_length = job.generation.spectral->fft_length;
  kernel.inverse_length = job.generation.spectral->inverse_length;
  kernel.m = job.generation.spectral->m;
  return kernel;
}

// `amplitude` is set by the backend (host or device copy of plan.amplitudes).
inline CirculantNoiseKernel make_circulant_noise_kernel(const EnsembleJob& job) {
  CirculantNoiseKernel kernel;
  kernel.key = job.request.key;
  kernel.inverse_length = job.generation.spectral->inverse_length;
  return kernel;
}

template <class Out>
FilteredStoreKernel<Out> make_filtered_store_kernel(const EnsembleJob& job) {
  const SpectralPlan& plan = *job.generation.spectral;
  FilteredStoreKernel<Out> kernel;
  kernel.row_stride = plan.fft_length;  // the inverse transform writes into the signal rows
  kernel.offset = plan.offset;
  kernel.length = job.spec->length;
  kernel.location = plan.location;
  kernel.map = job.request.workload;
  return kernel;
}

}  // namespace gs
