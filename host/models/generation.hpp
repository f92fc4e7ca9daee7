// How a model's ensemble is generated, as the engine receives it from the
// model (host/models/model.hpp): either a spectral plan, which both backends
// run through their FFT path (kernels/spectral.hpp), or a direct kernel
// (kernels/launch.hpp), which both run through their launcher; plus what the
// output file and the printed plan say about it.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "host/base/attributes.hpp"
#include "host/base/fft.hpp"
#include "kernels/launch.hpp"
#include "kernels/pairs.hpp"
#include "kernels/philox.hpp"
#include "kernels/stable.hpp"
#include "kernels/workload.hpp"

namespace gs {

enum class SpectralMethod {
  convolution,  // stable innovations ∗ kernel, every m-th point kept
  circulant,    // exact Gaussian by circulant embedding
};

struct SpectralPlan {
  SpectralMethod method = SpectralMethod::convolution;
  // convolution: Z(t) = innovation_scale·X(t), X i.i.d. innovation_law,
  // t < fine_points; the kernel g[k] = coefficients[k − 1], k ≥ 1.
  StableLawParams innovation_law;
  double innovation_scale = 1;
  std::vector<double> coefficients;
  // circulant: sqrt(λ_j / M)·scale, j = 0..M/2.
  std::vector<double> amplitudes;
  std::uint64_t m = 1;               // fine points per output value
  std::uint64_t offset = 0;          // first kept value of the decimated inverse transform
  std::uint64_t fine_points = 0;     // Philox positions per replica
  std::uint64_t inverse_length = 0;  // M
  std::uint64_t fft_length = 0;      // L = m·M (convolution); M (circulant)
  double location = 0;               // added to every kept value
  bool cumulative = false;           // fbm: partial sums of the kept values
};

// The host's transforms of a spectral plan: r2c of L and c2r of M
// (convolution), c2r of M (circulant).
std::vector<FftProblem> fft_problems(const SpectralPlan& plan);

// What a model needs to know of the ensemble it generates.
struct GenerationRequest {
  std::uint64_t length = 0;
  RngStreamKey key;
  Dtype dtype = Dtype::float32;
  StorageType storage = StorageType::float32;
  WorkloadMapping workload;
};

struct Generation {
  std::optional<SpectralPlan> spectral;  // the FFT path
  std::optional<DirectKernel> direct;    // or a per-element kernel
  std::vector<Attribute> attributes;     // derived quantities, for the output file
  std::string summary;                   // one line for the printed plan (empty: none)
  std::string warning;                   // for the log (e.g. variance lost to truncation)
  std::uint64_t rng_positions = 0;       // the Philox positions one replica uses (at most 2^56)
};

// Calls make(Real{}, Out{}) with the compute type (the ensemble's dtype) and
// the storage type (uint32 for counts, else the dtype): the four kernels an
// ensemble can ask for.
template <class Make>
auto with_value_types(const GenerationRequest& request, Make&& make) {
  const bool counts = request.storage == StorageType::uint32;
  if (request.dtype == Dtype::float64) return counts ? make(double{}, std::uint32_t{}) : make(double{}, double{});
  return counts ? make(float{}, std::uint32_t{}) : make(float{}, float{});
}

// A PairsKernel (i.i.d. values, two per Philox call) of `request`.
template <class Draws, class Out>
PairsKernel<Draws, Out> pairs_kernel(const Draws& draws, const GenerationRequest& request) {
  PairsKernel<Draws, Out> kernel;
  kernel.draws = draws;
  kernel.key = request.key;
  kernel.map = request.workload;
  kernel.length = request.length;
  kernel.pairs_per_row = (request.length + 1) / 2;
  return kernel;
}

// One kind of Philox call a model makes, for its `rng_use` attribute; the
// draw and word numbers come from the constants its kernel uses.
struct PhiloxUse {
  std::string serves;    // "fine-grid point t of replica r"
  std::string position;  // "t"
  std::uint32_t draw = 0;
  std::string words;  // "words 0,1 -> Z(t) ~ S1(alpha, beta, 1, 0) (Chambers-Mallows-Stuck, ...)"
};
// "<serves>: one Philox call at (replica r, position <p>, draw <d>); <words>", joined by "; ".
std::string describe_philox_uses(const std::vector<PhiloxUse>& uses);

// How a word becomes a uniform (kernels/philox.hpp), and the Box–Muller
// transform's use of three words and the ziggurat's of a call's four, as rng_use states them.
extern const char* const kUniformRule;
std::string box_muller_words(int radius_words, int angle_word);
std::string ziggurat_words(std::uint32_t draw);

}  // namespace gs
