// The CPU backend: OpenMP over the elements of a batch (direct kernels:
// kernels/launch.hpp), over its replicas (spectral models: the transforms of
// one replica stay in one thread's cache). Always built; the reference CI
// runs. It knows no model by name: a job brings a spectral plan or a direct
// kernel.
#include <fmt/format.h>
#include <omp.h>

#include <algorithm>
#include <numeric>
#include <vector>

#include "host/base/fft.hpp"
#include "host/base/interrupt.hpp"
#include "host/base/sysinfo.hpp"
#include "host/engine/backend.hpp"
#include "host/engine/context.hpp"
#include "host/engine/plan.hpp"
#include "host/engine/spectral_steps.hpp"
#include "kernels/launch.hpp"

namespace gs {

namespace {

// Models whose kernel writes the output directly: one cpu_for_each per batch,
// with the kernel's scratch rows when it asks for them.
class CpuDirectGenerator final : public EnsembleGenerator {
 public:
  CpuDirectGenerator(const DirectKernel& kernel, CpuLaneForm lanes) : kernel_(kernel), lanes_(lanes) {}

  Tally generate(std::uint64_t first, std::uint64_t count, void* out) override {
    scratch_.resize(count * kernel_.scratch_per_replica());
    return kernel_.run_on_host(first, count, out, scratch_.data(), lanes_);
  }

 private:
  DirectKernel kernel_;
  CpuLaneForm lanes_;
  std::vector<double> scratch_;
};

// Spectral models, one replica per thread at a time (its transforms stay in
// that thread's cache): innovations, forward FFT, product and fold — or the
// circulant's noise drawn in frequency — then the inverse FFT of length M,
// partial sums for fbm, and the kept values to the workload.
template <class Real, class Out>
class CpuSpectralGenerator final : public EnsembleGenerator {
 public:
  CpuSpectralGenerator(const EnsembleJob& job, CpuLaneForm lanes, const FftWisdom* wisdom)
      : lanes_(lanes),
        plan_(*job.generation.spectral),
        store_(make_filtered_store_kernel<Out>(job)),
        fft_(plan_.fft_length, plan_.inverse_length, wisdom) {
    if (plan_.method == SpectralMethod::convolution) {
      innovations_ = make_innovations_kernel<Real>(job);
      fold_ = make_spectrum_fold_kernel(job);
      kernel_spectrum_ = fft_.kernel_spectrum(plan_.coefficients);
      fold_.kernel = kernel_spectrum_.data();
    } else {
      noise_ = make_circulant_noise_kernel(job);
      noise_.amplitude = plan_.amplitudes.data();
    }
    for (int t = 0; t < threads_; ++t) {
      signals_.emplace_back(fft_.size());
      if (plan_.method == SpectralMethod::convolution) spectra_.emplace_back(fft_.spectrum_size());
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
      Complex<double>* folded = folded_[thread].data();
#pragma omp for schedule(dynamic, 1)
      for (std::int64_t row = 0; row < static_cast<std::int64_t>(count); ++row) {
        if (pending_interrupt()) continue;
        const std::uint64_t replica = first + static_cast<std::uint64_t>(row);
        Tally tally;
        if (plan_.method == SpectralMethod::convolution) {
          InnovationsKernel<Real> innovations = innovations_;
          innovations.first_replica = replica;
          innovations.signal = signal;
          tally += serial_for_each(innovations, lanes_);
          fft_.forward(signal, spectra_[thread].data());
          SpectrumFoldKernel fold = fold_;
          fold.spectra = spectra_[thread].data();
          fold.folded = folded;
          fold.fold_row(0);
        } else {
          CirculantNoiseKernel noise = noise_;
          noise.first_replica = replica;
          noise.folded = folded;
          serial_for_each(noise, lanes_);
        }
        fft_.inverse(folded, signal);
        if (plan_.cumulative)
          std::partial_sum(signal + plan_.offset, signal + plan_.offset + length, signal + plan_.offset);
        FilteredStoreKernel<Out> store = store_;
        store.decimated = signal;
        store.out = static_cast<Out*>(out) + static_cast<std::uint64_t>(row) * length;
        tally += serial_for_each(store, lanes_);
        clipped += tally.clipped;
        saturated += tally.saturated;
      }
    }
    return Tally{clipped, saturated};
  }

 private:
  int threads_ = omp_get_max_threads();
  CpuLaneForm lanes_;
  SpectralPlan plan_;
  InnovationsKernel<Real> innovations_;
  SpectrumFoldKernel fold_;
  CirculantNoiseKernel noise_;
  FilteredStoreKernel<Out> store_;
  CpuFftPair fft_;
  std::vector<Complex<double>> kernel_spectrum_;
  std::vector<FftBuffer<double>> signals_;
  std::vector<FftBuffer<Complex<double>>> spectra_;
  std::vector<FftBuffer<Complex<double>>> folded_;
};

class CpuBackend final : public BackendDevice {
 public:
  explicit CpuBackend(const ExecutionContext& context) : context_(context) {}

  Backend kind() const override { return Backend::cpu; }

  std::string description() const override {
    return fmt::format("CPU: {}, {} OpenMP threads, math: {}", cpu_model(), omp_get_max_threads(),
                       cpu_math_description(context_.lanes, context_.precision));
  }

  std::uint64_t default_memory_budget() const override { return default_host_budget(); }

  MemoryNeed memory_need(const EnsembleJob& job) const override {
    if (const auto& direct = job.generation.direct) return {0, direct->scratch_per_replica() * sizeof(double)};
    const SpectralPlan& plan = *job.generation.spectral;
    const bool convolution = plan.method == SpectralMethod::convolution;
    const std::uint64_t n = plan.fft_length, half = convolution ? n / 2 + 1 : 0;
    const std::uint64_t folded = plan.inverse_length / 2 + 1;
    const std::uint64_t per_thread = n * sizeof(double) + (half + folded) * sizeof(Complex<double>);
    // Per thread, plus the kernel's spectrum or the circulant's amplitudes shared by all.
    return {per_thread * static_cast<std::uint64_t>(omp_get_max_threads()) + half * sizeof(Complex<double>) +
                plan.amplitudes.size() * sizeof(double),
            0};
  }

  HostBuffer host_buffer(std::size_t bytes) const override {
    return HostBuffer(new unsigned char[bytes], [](unsigned char* p) { delete[] p; });
  }

  std::unique_ptr<Resampler> make_resampler() const override { return std::make_unique<CpuResampler>(); }

  std::unique_ptr<EnsembleGenerator> make_generator(const EnsembleJob& job, std::uint64_t) override {
    if (job.generation.direct)
      return std::make_unique<CpuDirectGenerator>(*job.generation.direct, context_.lane_form());
    return with_value_types(job.request, [&](auto real, auto out) -> std::unique_ptr<EnsembleGenerator> {
      return std::make_unique<CpuSpectralGenerator<decltype(real), decltype(out)>>(job, context_.lane_form(),
                                                                                   context_.fft_wisdom.get());
    });
  }

 private:
  ExecutionContext context_;
};

}  // namespace

std::unique_ptr<BackendDevice> make_cpu_backend(const ExecutionContext& context) {
  return std::make_unique<CpuBackend>(context);
}

}  // namespace gs
