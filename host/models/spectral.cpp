#include "host/models/spectral.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "host/base/errors.hpp"
#include "host/base/fft.hpp"
#include "kernels/spectral.hpp"

namespace gs {

void set_convolution_sizes(SpectralPlan& plan, std::uint64_t taps, std::uint64_t length) {
  plan.fine_points = taps + plan.m * (length - 1);
  plan.inverse_length = fft_friendly_length((plan.fine_points + 1 + plan.m - 1) / plan.m);
  plan.fft_length = plan.m * plan.inverse_length;
  require_fft_length(plan.fft_length);
}

Generation circulant_generation(const std::function<std::vector<double>(std::uint64_t)>& autocovariance,
                                std::uint64_t length, double scale) {
  SpectralPlan plan;
  plan.method = SpectralMethod::circulant;
  std::uint64_t half = fft_friendly_length(std::max<std::uint64_t>(length - 1, 1));
  for (int attempt = 0;; ++attempt, half *= 2) {
    require_fft_length(2 * half);
    const std::vector<double> lambda = circulant_eigenvalues(autocovariance(half));
    const double largest = *std::max_element(lambda.begin(), lambda.end());
    const double smallest = *std::min_element(lambda.begin(), lambda.end());
    const double tolerance = 1e-10 * largest;
    if (smallest < -tolerance) {
      if (attempt < 4) continue;
      throw UserError(
          fmt::format("the autocovariance cannot be embedded in a non-negative definite circulant "
                      "(smallest eigenvalue {:.3g} of {:.3g} at embedding size {}); the model's "
                      "parameters are too close to the edge of stationarity",
                      smallest, largest, 2 * half));
    }
    const std::uint64_t M = 2 * half;
    std::uint64_t clamped = 0;
    plan.amplitudes.resize(lambda.size());
    for (std::size_t j = 0; j < lambda.size(); ++j) {
      clamped += lambda[j] < 0;
      plan.amplitudes[j] = scale * std::sqrt(std::max(lambda[j], 0.0) / static_cast<double>(M));
    }
    plan.inverse_length = plan.fft_length = M;
    plan.fine_points = half + 1;
    Generation generation;
    generation.rng_positions = plan.fine_points;
    generation.spectral = std::move(plan);
    generation.attributes = {
        {"method", std::string("exact: circulant embedding (Davies-Harte) of the autocovariance, first row gamma(0), "
                               "gamma(1), ..., gamma(M/2), ..., gamma(1); Y = real inverse FFT of sqrt(lambda_j/M) "
                               "W_j with Hermitian complex Gaussian W; the first `length` values are kept")},
        {"embedding_size", M},
        {"smallest_eigenvalue", smallest},
        {"largest_eigenvalue", largest},
        {"eigenvalues_clamped", clamped},
    };
    generation.summary = fmt::format(
        "circulant embedding of size {} (inverse FFT length {}), eigenvalues in [{:.3g}, "
        "{:.3g}]{}",
        M, M, smallest, largest, clamped ? fmt::format(", {} rounding-level negatives set to 0", clamped) : "");
    return generation;
  }
}

std::vector<double> circulant_eigenvalues(const std::vector<double>& autocovariance) {
  const std::size_t half = autocovariance.size() - 1, M = 2 * half;
  const CpuFftPair fft(M, M);
  FftBuffer<double> row(M);
  FftBuffer<Complex<double>> spectrum(fft.spectrum_size());
  for (std::size_t j = 0; j < M; ++j) row.data()[j] = autocovariance[std::min(j, M - j)];
  fft.forward(row.data(), spectrum.data());
  std::vector<double> lambda(half + 1);
  for (std::size_t j = 0; j <= half; ++j) lambda[j] = spectrum.data()[j].re;  // real: the row is symmetric
  return lambda;
}

double fgn_autocovariance(double H, std::uint64_t k) {
  if (k == 0) return 1.0;
  // ½ k^{2H} ((1 + 1/k)^{2H} − 2 + (1 − 1/k)^{2H}), each power by expm1/log1p.
  const double x = 1.0 / static_cast<double>(k), h2 = 2 * H;  // at k = 1, expm1(h2·log1p(−1)) = −1 exactly
  return 0.5 * std::pow(static_cast<double>(k), h2) *
         (std::expm1(h2 * std::log1p(x)) + std::expm1(h2 * std::log1p(-x)));
}

std::vector<double> fgn_autocovariances(double H, std::uint64_t P) {
  std::vector<double> gamma(P + 1);
  for (std::uint64_t k = 0; k <= P; ++k) gamma[k] = fgn_autocovariance(H, k);
  return gamma;
}

PhiloxUse circulant_noise_use() {
  return {"frequency j = 0..M/2 of the circulant embedding of replica r", "j", CirculantNoiseKernel::kDraw,
          fmt::format("words 0-3 -> (U_j, V_j) ({})", ziggurat_words(CirculantNoiseKernel::kDraw))};
}

}  // namespace gs
