// The model registry: each `model:` name of ensemble.yaml maps to a parser of
// its `params`, the validation the source paper asks for, and the attributes
// that describe it in the output file. Derived, backend-neutral quantities
// (the LFSN kernel, its marginal law) are computed here once per ensemble.
#pragma once

#include <cstdint>
#include <optional>
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

// Fractional Gaussian noise with γ(k) = σ²/2 (|k+1|^{2H} − 2|k|^{2H} + |k−1|^{2H});
// `cumulative`: fractional Brownian motion B(k) = G(1) + … + G(k) (model fbm).
struct FgnModel {
  double H = 0.5;
  double sigma = 1.0;
  bool cumulative = false;
};

// Norros' arrivals A(t) = λt + sqrt(aλ)·Z(t), Z normalised FBM, binned: the
// arrivals of a bin of width Δ are λΔ + sqrt(aλ)·Δ^H·G with G unit fGn.
struct NorrosModel {
  double lambda = 1.0;
  double a = 1.0;
  double H = 0.5;
  double bin = 1.0;  // Δ, in the time unit of λ
};

enum class Innovations { gaussian, stable };

// FARIMA(p, d, q): φ(B)(1 − B)^d X_t = θ(B) ε_t with φ(B) = 1 − φ_1 B − … − φ_p B^p,
// θ(B) = 1 + θ_1 B + … + θ_q B^q, ε_t i.i.d. N(0, σ²) or S1(α, β, σ, 0).
struct FarimaModel {
  double d = 0.0;
  std::vector<double> ar;  // φ_1..φ_p
  std::vector<double> ma;  // θ_1..θ_q
  double sigma = 1.0;
  Innovations innovations = Innovations::gaussian;
  double alpha = 2.0, beta = 0.0;   // stable innovations
  std::int64_t truncation = 10000;  // stable innovations: MA(∞) lags kept, a_0..a_J
};

struct NormalModel {
  double mu = 0.0;
  double sigma = 1.0;
};

using Matrix = std::vector<std::vector<double>>;

// Discrete-time chain over rate levels (Oly & Reed).
struct MarkovModel {
  std::vector<double> levels;
  Matrix transition;
  std::vector<double> initial;  // stationary law unless given
  bool initial_given = false;
  std::vector<double> noise;  // per-state standard deviation, 0 by default
};

// Continuous-time hidden Markov chain with log-normal emissions (Titan paper).
struct HmmModel {
  Matrix generator;               // Q
  std::vector<double> mu, sigma;  // log-mean and log-sd of each state's emission
  std::vector<double> initial;    // stationary law unless given
  bool initial_given = false;
  double start = 0.0, interval = 1.0;  // regular observation times start + i·interval
  std::vector<double> times;           // or these (strictly increasing)
  std::string times_source;            // "list", the file they came from, or "dataset"
  // `times: dataset`: the observation times of the ensemble's dataset (a
  // series trace), filled in when the run reads it (host/run.cpp).
  bool times_from_dataset = false;
};

using ModelParams =
    std::variant<StableModel, LfsnModel, FgnModel, NorrosModel, FarimaModel, NormalModel, MarkovModel, HmmModel>;

struct ModelInfo {
  const char* name;
  const char* summary;
  std::vector<std::string> keys;  // the accepted keys of `params`
  ModelParams (*parse)(ConfigMap& params);
};

const std::vector<ModelInfo>& model_registry();
const ModelInfo* find_model(const std::string& name);
std::vector<std::string> model_names();

// The series length a model fixes (hmm with explicit observation times).
std::optional<std::uint64_t> fixed_length(const ModelParams& params);

// The stationary law of a transition matrix (π P = π) or of a generator
// (π Q = 0); nullopt when it is not unique (the chain is reducible).
std::optional<std::vector<double>> stationary_law(const Matrix& matrix, bool generator);

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

// Every parameter, defaults included, as output attributes.
std::vector<Attribute> describe_model(const ModelParams& params);

const char* model_name(const ModelParams& params);

}  // namespace gs
