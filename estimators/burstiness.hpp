// How bursty a binned series is: mean, coefficient of variation, peak-to-mean
// ratio, and the index of dispersion for counts IDC(m) = Var(N_m)/E[N_m] of the
// sums N_m over m consecutive bins (1 for Poisson arrivals at every m; growing
// with m for long-range dependent ones).
#pragma once

#include <cstddef>
#include <vector>

namespace gs {

struct Burstiness {
  double mean = 0, sd = 0, cv = 0, peak = 0, peak_to_mean = 0;
  std::vector<std::size_t> idc_scales;  // m = 1, 2, 4, … while ≥ 10 blocks remain
  std::vector<double> idc;
};

Burstiness burstiness(const std::vector<double>& series);

}  // namespace gs
