// How one run computes (Ginkgo's executor is the example): the elementary
// functions' precision, the CPU's lanes, the FFTW wisdom its plans come from,
// and whether it prints progress. A
// front end makes one per run and hands it down explicitly (to the backend,
// the analyses, the writers of text outputs); nothing of it is process-wide,
// so two runs in one process (two Python calls) may use different precisions
// at once, each with the bits it would have alone.
#pragma once

#include <cstdint>
#include <memory>
#include <string>

#include "host/base/fft.hpp"
#include "host/base/progress.hpp"
#include "host/engine/cpu/lanes.hpp"
#include "host/engine/precision.hpp"

namespace gs {

struct ExecutionContext {
  MathPrecision precision = MathPrecision::accurate;
  CpuLanes lanes = CpuLanes::avx512;  // the widest this CPU has up to these (none: the scalar path)
  bool quiet = false;                 // no progress bar and no informational lines on stderr
  std::shared_ptr<const FftWisdom> fft_wisdom;  // the CPU's FFT plans from it where it has them (null: none)

  CpuLaneForm lane_form() const { return cpu_lane_form(lanes, precision); }
  // An informational line on stderr, unless quiet.
  void log(const std::string& message) const { log_info(quiet, message); }
  Progress progress(std::uint64_t total_units) const { return Progress(total_units, quiet); }
  CpuLanes lanes_in_use() const { return supported_cpu_lanes(lanes); }
};

}  // namespace gs
