#include "host/base/fft.hpp"

#include <fftw3.h>
#include <fmt/format.h>

#include <algorithm>
#include <cstdlib>
#include <limits>
#include <map>
#include <mutex>
#include <tuple>
#include <utility>

#include "host/base/errors.hpp"

namespace gs {

template <class T>
FftBuffer<T>::FftBuffer(std::size_t count) : data_(static_cast<T*>(fftw_malloc(sizeof(T) * count))), size_(count) {
  if (!data_ && count > 0) throw std::bad_alloc();
}

template <class T>
void FftBuffer<T>::Free::operator()(T* p) const {
  fftw_free(p);
}

template class FftBuffer<double>;
template class FftBuffer<Complex<double>>;

namespace {

std::mutex planner_mutex;  // FFTW's planner and its wisdom are process-wide and not thread-safe

int fftw_size(std::size_t n) {
  require_fft_length(n);
  return static_cast<int>(n);
}

// FFTW's plan of `problem` under `flags`, made on scratch arrays aligned as
// FftBuffer's (new-array execution needs the planned alignment); null where
// FFTW_WISDOM_ONLY finds no wisdom. The caller holds planner_mutex.
fftw_plan plan_problem(const FftProblem& problem, unsigned flags) {
  const int size = fftw_size(problem.n);
  FftBuffer<double> real(problem.n);
  FftBuffer<Complex<double>> spectrum(problem.n / 2 + 1);
  auto* c = reinterpret_cast<fftw_complex*>(spectrum.data());
  return problem.forward ? fftw_plan_dft_r2c_1d(size, real.data(), c, flags)
                         : fftw_plan_dft_c2r_1d(size, c, real.data(), flags | FFTW_DESTROY_INPUT);
}

// While it lives, FFTW's wisdom is exactly `text` (none when empty), whatever
// an earlier plan (another run's wisdom, a benchmark's FFTW_MEASURE) left
// there; nothing is left after. The caller holds planner_mutex.
class LoadedWisdom {
 public:
  explicit LoadedWisdom(const std::string& text) {
    fftw_forget_wisdom();
    if (!text.empty() && !fftw_import_wisdom_from_string(text.c_str())) {
      fftw_forget_wisdom();
      throw InternalError("fftw_import_wisdom_from_string", "wisdom checked when read is refused", __FILE__, __LINE__);
    }
  }
  ~LoadedWisdom() { fftw_forget_wisdom(); }
  LoadedWisdom(const LoadedWisdom&) = delete;
  LoadedWisdom& operator=(const LoadedWisdom&) = delete;
};

const std::string& text_of(const FftWisdom* wisdom) {
  static const std::string none;
  return wisdom ? wisdom->text : none;
}

// Plans are kept for the life of the process (they are small; a run uses few
// sizes), one per (problem, wisdom): FFTW_ESTIMATE with the wisdom loaded,
// which takes the wisdom's plan where it has one.
fftw_plan cached_plan(const FftProblem& problem, const FftWisdom* wisdom) {
  static std::map<std::tuple<std::size_t, bool, std::string>, fftw_plan> cache;
  std::lock_guard<std::mutex> lock(planner_mutex);
  const auto key = std::make_tuple(problem.n, problem.forward, text_of(wisdom));
  const auto found = cache.find(key);
  if (found != cache.end()) return found->second;
  const LoadedWisdom loaded(text_of(wisdom));
  const fftw_plan plan = plan_problem(problem, FFTW_ESTIMATE);
  if (!plan) throw InternalError("fftw_plan_dft_" + to_string(problem), "failed", __FILE__, __LINE__);
  return cache.emplace(key, plan).first->second;
}

}  // namespace

std::string to_string(const FftProblem& problem) {
  return fmt::format("{} {}", problem.forward ? "r2c" : "c2r", problem.n);
}

std::string fftw_version_text() { return fftw_version; }

bool fftw_accepts_wisdom(const std::string& text) {
  std::lock_guard<std::mutex> lock(planner_mutex);
  fftw_forget_wisdom();
  const bool accepted = fftw_import_wisdom_from_string(text.c_str()) != 0;
  fftw_forget_wisdom();
  return accepted;
}

std::string measure_fft_wisdom(const std::vector<FftProblem>& problems, const std::string& base, bool patient) {
  std::lock_guard<std::mutex> lock(planner_mutex);
  const LoadedWisdom loaded(base);
  for (const FftProblem& problem : problems) {
    const fftw_plan plan = plan_problem(problem, patient ? FFTW_PATIENT : FFTW_MEASURE);
    if (!plan) throw InternalError("fftw_plan_dft_" + to_string(problem), "failed", __FILE__, __LINE__);
    fftw_destroy_plan(plan);
  }
  char* exported = fftw_export_wisdom_to_string();
  if (!exported) throw InternalError("fftw_export_wisdom_to_string", "failed", __FILE__, __LINE__);
  std::string text(exported);
  fftw_free(exported);
  return text;
}

bool wisdom_has_plan(const FftWisdom* wisdom, const FftProblem& problem) {
  if (!wisdom) return false;
  std::lock_guard<std::mutex> lock(planner_mutex);
  const LoadedWisdom loaded(wisdom->text);
  const fftw_plan plan = plan_problem(problem, FFTW_ESTIMATE | FFTW_WISDOM_ONLY);
  if (plan) fftw_destroy_plan(plan);
  return plan != nullptr;
}

std::string fft_plan_text(const FftProblem& problem, const FftWisdom* wisdom) {
  const fftw_plan plan = cached_plan(problem, wisdom);
  std::lock_guard<std::mutex> lock(planner_mutex);  // printing reads the plan's solvers' names only
  char* printed = fftw_sprint_plan(plan);
  if (!printed) throw InternalError("fftw_sprint_plan", "failed", __FILE__, __LINE__);
  std::string text(printed);
  std::free(printed);
  return text;
}

void require_fft_length(std::uint64_t n) {
  if (n > static_cast<std::uint64_t>(std::numeric_limits<int>::max()))
    throw UserError(
        fmt::format("the FFT length {} exceeds FFTW's limit of 2^31 - 1 points; shorten the series or "
                    "reduce m or K",
                    n));
}

// The smallest 2^a 3^b 5^c 7^d >= minimum, from the odd 7-smooth factors (a
// few thousand below 2^62) each doubled up to the minimum: stepping n by one
// would take seconds near 2^40, where such numbers lie far apart.
std::uint64_t fft_friendly_length(std::uint64_t minimum) {
  constexpr std::uint64_t kLargest = std::uint64_t{1} << 62;
  minimum = std::max<std::uint64_t>(minimum, 1);
  if (minimum > kLargest) return minimum;  // beyond any FFT; require_fft_length refuses it
  std::uint64_t best = kLargest;
  for (std::uint64_t p7 = 1;; p7 *= 7) {
    for (std::uint64_t p5 = p7;; p5 *= 5) {
      for (std::uint64_t p3 = p5;; p3 *= 3) {
        std::uint64_t n = p3;
        while (n < minimum) n *= 2;  // n < minimum <= 2^62 before doubling: no overflow
        best = std::min(best, n);
        if (p3 >= minimum || p3 > kLargest / 3) break;
      }
      if (p5 >= minimum || p5 > kLargest / 5) break;
    }
    if (p7 >= minimum || p7 > kLargest / 7) break;
  }
  return best;
}

std::vector<double> linear_convolution(const std::vector<double>& a, const std::vector<double>& b) {
  if (a.empty() || b.empty()) return {};
  const std::size_t out = a.size() + b.size() - 1;
  const std::size_t n = fft_friendly_length(out);
  const CpuFftPair fft(n, n);
  FftBuffer<double> x(n), y(n);
  FftBuffer<Complex<double>> fx(fft.spectrum_size()), fy(fft.spectrum_size());
  std::fill(x.data(), x.data() + n, 0.0);
  std::fill(y.data(), y.data() + n, 0.0);
  std::copy(a.begin(), a.end(), x.data());
  std::copy(b.begin(), b.end(), y.data());
  fft.forward(x.data(), fx.data());
  fft.forward(y.data(), fy.data());
  const double scale = 1.0 / static_cast<double>(n);
  for (std::size_t j = 0; j < fft.spectrum_size(); ++j) {
    const Complex<double> p = fx.data()[j] * fy.data()[j];
    fx.data()[j] = {p.re * scale, p.im * scale};
  }
  fft.inverse(fx.data(), x.data());
  return std::vector<double>(x.data(), x.data() + out);
}

CpuFftPair::CpuFftPair(std::size_t n, std::size_t inverse_n, const FftWisdom* wisdom)
    : n_(n),
      inverse_n_(inverse_n),
      forward_(cached_plan({n, true}, wisdom)),
      inverse_(cached_plan({inverse_n, false}, wisdom)) {}

void CpuFftPair::forward(double* signal, Complex<double>* spectrum) const {
  fftw_execute_dft_r2c(static_cast<fftw_plan>(forward_), signal, reinterpret_cast<fftw_complex*>(spectrum));
}

void CpuFftPair::inverse(Complex<double>* spectrum, double* signal) const {
  fftw_execute_dft_c2r(static_cast<fftw_plan>(inverse_), reinterpret_cast<fftw_complex*>(spectrum), signal);
}

std::vector<Complex<double>> CpuFftPair::kernel_spectrum(const std::vector<double>& coefficients) const {
  if (coefficients.size() + 1 > n_) {
    throw InternalError("CpuFftPair::kernel_spectrum", "kernel longer than the FFT", __FILE__, __LINE__);
  }
  FftBuffer<double> padded(n_);
  FftBuffer<Complex<double>> spectrum(spectrum_size());
  std::fill(padded.data(), padded.data() + n_, 0.0);
  std::copy(coefficients.begin(), coefficients.end(), padded.data() + 1);
  forward(padded.data(), spectrum.data());
  const double scale = 1.0 / static_cast<double>(n_);
  std::vector<Complex<double>> result(spectrum_size());
  for (std::size_t j = 0; j < result.size(); ++j) {
    result[j] = {spectrum.data()[j].re * scale, spectrum.data()[j].im * scale};
  }
  return result;
}

}  // namespace gs
