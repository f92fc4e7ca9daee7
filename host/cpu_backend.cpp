// The CPU backend: OpenMP over the elements of a batch (i.i.d. models) or over
// its replicas (LFSN: innovations, FFTW convolution and decimation of one
// replica stay in one thread's cache). Always built; the reference CI runs.
#include <fmt/format.h>
#include <omp.h>

#include <algorithm>
#include <vector>

#include "host/backend.hpp"
#include "host/cpu_launch.hpp"
#include "host/fft.hpp"
#include "host/interrupt.hpp"
#include "host/plan.hpp"
#include "host/prepare.hpp"
#include "host/sysinfo.hpp"

namespace gs {

namespace {

template <class Real, class Out>
class CpuStableGenerator final : public EnsembleGenerator {
 public:
  explicit CpuStableGenerator(const EnsembleJob& job) : kernel_(make_stable_kernel<Real, Out>(job)) {}

  Tally generate(std::uint64_t first, std::uint64_t count, void* out) override {
    StablePairsKernel<Real, Out> kernel = kernel_;
    kernel.first_replica = first;
    kernel.out = static_cast<Out*>(out);
    return cpu_for_each(count, kernel);
  }

 private:
  StablePairsKernel<Real, Out> kernel_;
};

template <class Real, class Out>
class CpuLfsnGenerator final : public EnsembleGenerator {
 public:
  explicit CpuLfsnGenerator(const EnsembleJob& job)
      : innovations_(make_lfsn_innovations_kernel<Real>(job)),
        fold_(make_spectrum_fold_kernel(job)),
        store_(make_lfsn_store_kernel<Out>(job)),
        fft_(job.lfsn->fft_length, job.lfsn->inverse_length),
        kernel_spectrum_(fft_.kernel_spectrum(job.lfsn->coefficients)) {
    fold_.kernel = kernel_spectrum_.data();
    for (int t = 0; t < threads_; ++t) {
      signals_.emplace_back(fft_.size());
      spectra_.emplace_back(fft_.spectrum_size());
      folded_.emplace_back(fft_.inverse_spectrum_size());
    }
  }

  Tally generate(std::uint64_t first, std::uint64_t count, void* out) override {
    std::uint64_t clipped = 0, saturated = 0;
    const std::uint64_t length = store_.length;
#pragma omp parallel num_threads(threads_) reduction(+ : clipped, saturated)
    {
      const int thread = omp_get_thread_num();
      double* signal = signals_[thread].data();
#pragma omp for schedule(dynamic, 1)
      for (std::int64_t row = 0; row < static_cast<std::int64_t>(count); ++row) {
        if (pending_interrupt()) continue;
        // One replica in this thread: innovations, forward FFT, product and
        // fold, inverse FFT of length L/m, decimated values to the workload.
        LfsnInnovationsKernel<Real> innovations = innovations_;
        innovations.first_replica = first + static_cast<std::uint64_t>(row);
        innovations.signal = signal;
        Tally tally = serial_for_each(innovations);
        fft_.forward(signal, spectra_[thread].data());
        SpectrumFoldKernel fold = fold_;
        fold.spectra = spectra_[thread].data();
        fold.folded = folded_[thread].data();
        serial_for_each(fold);
        fft_.inverse(folded_[thread].data(), signal);
        LfsnStoreKernel<Out> store = store_;
        store.decimated = signal;
        store.out = static_cast<Out*>(out) + static_cast<std::uint64_t>(row) * length;
        tally += serial_for_each(store);
        clipped += tally.clipped;
        saturated += tally.saturated;
      }
    }
    return Tally{clipped, saturated};
  }

 private:
  int threads_ = omp_get_max_threads();
  LfsnInnovationsKernel<Real> innovations_;
  SpectrumFoldKernel fold_;
  LfsnStoreKernel<Out> store_;
  CpuFftPair fft_;
  std::vector<Complex<double>> kernel_spectrum_;
  std::vector<FftBuffer<double>> signals_;
  std::vector<FftBuffer<Complex<double>>> spectra_;
  std::vector<FftBuffer<Complex<double>>> folded_;
};

class CpuBackend final : public BackendDevice {
 public:
  Backend kind() const override { return Backend::cpu; }

  std::string description() const override {
    return fmt::format("CPU: {}, {} OpenMP threads", cpu_model(), omp_get_max_threads());
  }

  std::uint64_t default_memory_budget() const override { return default_host_budget(); }

  MemoryNeed memory_need(const EnsembleJob& job) const override {
    if (!job.lfsn) return {};
    const std::uint64_t n = job.lfsn->fft_length, half = n / 2 + 1, folded = job.lfsn->inverse_length / 2 + 1;
    const std::uint64_t per_thread = n * sizeof(double) + (half + folded) * sizeof(Complex<double>);
    return {per_thread * static_cast<std::uint64_t>(omp_get_max_threads()) + half * sizeof(Complex<double>), 0};
  }

  HostBuffer host_buffer(std::size_t bytes) const override {
    return HostBuffer(new unsigned char[bytes], [](unsigned char* p) { delete[] p; });
  }

  std::unique_ptr<EnsembleGenerator> make_generator(const EnsembleJob& job, std::uint64_t) override {
    return with_value_types(job, [&](auto real, auto out) -> std::unique_ptr<EnsembleGenerator> {
      using Real = decltype(real);
      using Out = decltype(out);
      if (job.lfsn) return std::make_unique<CpuLfsnGenerator<Real, Out>>(job);
      return std::make_unique<CpuStableGenerator<Real, Out>>(job);
    });
  }
};

}  // namespace

std::unique_ptr<BackendDevice> make_cpu_backend() { return std::make_unique<CpuBackend>(); }

}  // namespace gs
