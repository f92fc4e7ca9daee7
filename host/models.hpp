// The model registry: each `model:` name of ensemble.yaml maps to a parser of
// its `params`, the validation the source paper asks for, and the attributes
// that describe it in the output file. Derived, backend-neutral quantities
// (the LFSN kernel, its marginal law) are computed here once per ensemble.
#pragma once

#include <cstdint>
#include <string>
#include <variant>
#include <vector>

#include "host/config_reader.hpp"
#include "io/attributes.hpp"
#include "kernels/stable.hpp"

namespace gs {

struct StableModel {
  StableLawParams law;
};

struct LfsnModel {
  double alpha = 1.5;
  double beta = 0.0;
  double H = 0.8;
  std::int64_t m = 16;   // fine grid points per output step
  std::int64_t K = 256;  // kernel cut-off, in output steps
};

using ModelParams = std::variant<StableModel, LfsnModel>;

struct ModelInfo {
  const char* name;
  const char* summary;
  std::vector<std::string> keys;  // the accepted keys of `params`
  ModelParams (*parse)(ConfigMap& params);
};

const std::vector<ModelInfo>& model_registry();
const ModelInfo* find_model(const std::string& name);
std::vector<std::string> model_names();

// The discretised LFSN of one ensemble: normalised kernel c_1..c_{Km}, the
// fine-grid and FFT sizes for a series of `length` outputs, and the exact
// marginal law S1(α, beta_eff, 1, 0) of N(i) after `drift` is subtracted.
// Only every m-th point of the convolution is kept, so its spectrum is folded
// m-fold and transformed back at length M = L/m (see SpectrumFoldKernel).
struct LfsnKernel {
  double d = 0;                      // H − 1/α
  std::vector<double> coefficients;  // c_k, k = 1..Km, Σ|c_k|^α = 1
  double raw_alpha_norm = 0;         // (Σ |h_d(k/m)|^α)^{1/α} before normalisation
  double beta_eff = 0;               // β Σ sign(c_k)|c_k|^α
  double drift = 0;                  // subtracted from every N(i); non-zero only at α = 1
  std::uint64_t fine_points = 0;     // T = Km + m(length − 1) innovations per replica
  std::uint64_t inverse_length = 0;  // M: smallest 2^a3^b5^c7^d with m·M ≥ T + 1
  std::uint64_t fft_length = 0;      // L = m·M, the forward transform
};

LfsnKernel make_lfsn_kernel(const LfsnModel& model, std::uint64_t length);

// Smallest n ≥ minimum whose prime factors are all in {2, 3, 5, 7}.
std::uint64_t fft_friendly_length(std::uint64_t minimum);

// Every parameter, defaults included, as output attributes.
std::vector<Attribute> describe_model(const ModelParams& params);

const char* model_name(const ModelParams& params);

}  // namespace gs
