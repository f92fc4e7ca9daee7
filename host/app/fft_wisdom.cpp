#include "host/app/fft_wisdom.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <memory>
#include <vector>

#include "host/base/errors.hpp"
#include "host/base/interrupt.hpp"
#include "host/base/output_file.hpp"
#include "host/base/progress.hpp"

namespace gs {

namespace {

// The wisdom FILE holds already (merged into), or none when FILE does not
// exist; a FILE that is not wisdom is refused rather than replaced.
std::string existing_wisdom(const std::string& path) {
  std::error_code ec;
  if (!std::filesystem::exists(path, ec)) return "";
  try {
    return read_fft_wisdom(path)->text;
  } catch (const UserError& e) {
    throw UserError(fmt::format("-o: {}; it would be replaced: give another file", e.what()));
  }
}

// The shortest of several executions of a transform's plan (µs): inputs of
// ones (an FFT's time does not depend on its values), restored before each
// c2r (it destroys its input).
double best_execution_us(const FftProblem& problem, const FftWisdom* wisdom) {
  const CpuFftPair pair(problem.n, problem.n, wisdom);
  FftBuffer<double> real(problem.n);
  FftBuffer<Complex<double>> spectrum(pair.spectrum_size());
  using Clock = std::chrono::steady_clock;
  double best = 1e300, spent = 0;
  for (int round = 0; round < 100 && (round < 5 || spent < 0.2); ++round) {
    std::fill(real.data(), real.data() + problem.n, 1.0);
    std::fill(spectrum.data(), spectrum.data() + pair.spectrum_size(), Complex<double>{1.0, 0.0});
    const auto start = Clock::now();
    if (problem.forward)
      pair.forward(real.data(), spectrum.data());
    else
      pair.inverse(spectrum.data(), real.data());
    const double seconds = std::chrono::duration<double>(Clock::now() - start).count();
    spent += seconds;
    best = std::min(best, seconds);
  }
  return best * 1e6;
}

}  // namespace

int fft_wisdom_command(const FftWisdomOptions& options) {
  RunConfig config = load_config(options.run.config_path);
  // Its own `fft_wisdom:` is what this makes (-o by default), not what it reads.
  const std::string output = options.output.empty() ? config.fft_wisdom_path : options.output;
  if (output.empty())
    throw UserError(fmt::format("{}: no wisdom file: give -o FILE, or `fft_wisdom: FILE` in the config", config.path));
  config.fft_wisdom_path.clear();
  apply_overrides(config, options.run);
  RunPaths paths;  // before the work
  paths.add_output(fmt::format("-o '{}'", output), resolve_output_target(output, "-o"));
  add_config_inputs(config, paths);
  paths.check();
  const std::vector<FftProblem> problems = run_fft_problems(config, options.run);
  if (problems.empty())
    throw UserError(fmt::format("{}: no ensemble of a spectral model (lfsn, farima, fgn, fbm, norros): no FFT to plan",
                                config.path));
  std::string wisdom = existing_wisdom(output);
  const char* rigor = options.patient ? "FFTW_PATIENT" : "FFTW_MEASURE";
  InterruptGuard interrupts;
  for (const FftProblem& problem : problems) {
    log_info(options.run.quiet, fmt::format("planning {} with {}", to_string(problem), rigor));
    wisdom = measure_fft_wisdom({problem}, wisdom, options.patient);
    throw_if_interrupted();
  }
  const FftWisdom measured{output, wisdom, ""};
  std::string table = fmt::format("{:<14} {:>14} {:>14} {:>8}\n", "transform", "ESTIMATE us", "wisdom us", "speed-up");
  for (const FftProblem& problem : problems) {
    const double estimate = best_execution_us(problem, nullptr), planned = best_execution_us(problem, &measured);
    table += fmt::format("{:<14} {:>14.1f} {:>14.1f} {:>7.2f}x\n", to_string(problem), estimate, planned,
                         estimate / planned);
  }
  write_file_atomically(output, wisdom, "-o");
  if (!options.run.quiet) std::fputs(table.c_str(), stdout);
  log_info(options.run.quiet,
           fmt::format("wrote {}: {} plans of {} transforms ({}); runs take them with `fft_wisdom: {}` in the config "
                       "or --fft-wisdom {}",
                       output, rigor, problems.size(), fftw_version_text(), output, output));
  return kExitOk;
}

}  // namespace gs
