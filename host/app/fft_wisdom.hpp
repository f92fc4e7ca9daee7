// `gpusynth fft-wisdom CONFIG -o FILE`: FFTW's measured plans of every host
// transform CONFIG's spectral ensembles run, kept as FFTW wisdom in FILE
// (added to what FILE holds). Runs that load it (`fft_wisdom: FILE`,
// --fft-wisdom FILE) take those plans: faster than FFTW_ESTIMATE's and the
// same in every run that loads the file (docs/engine.md, "FFT plans").
#pragma once

#include <string>

#include "host/engine/run.hpp"

namespace gs {

struct FftWisdomOptions {
  RunOptions run;        // the config's path and quiet; no overrides
  std::string output;    // the wisdom file (empty: the config's `fft_wisdom:`)
  bool patient = false;  // FFTW_PATIENT instead of FFTW_MEASURE
};

int fft_wisdom_command(const FftWisdomOptions& options);

}  // namespace gs
