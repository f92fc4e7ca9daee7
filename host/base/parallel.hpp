// Host-side parallel helpers shared by the estimators and the study.

// Independent items on the cores with their own parallel loops inside (the
// datasets of a study, the EM starts of an HMM fit): min(count, cores)
// threads take the items and each item's loops get the cores left to it
// (nested OpenMP, two levels). Callers keep results independent of the thread
// count; the failure of the first failing item, by index, is rethrown.
#pragma once

#include <omp.h>

#include <algorithm>
#include <cstdint>
#include <exception>
#include <vector>

namespace gs {

template <class Body>
void for_each_in_parallel(std::size_t count, const Body& body) {
  const int cores = omp_get_max_threads();
  const int outer = std::max(1, std::min(cores, static_cast<int>(count)));
  const int inner = std::max(1, cores / outer);
  const int levels = omp_get_max_active_levels();
  omp_set_max_active_levels(std::max(levels, omp_get_level() + 2));
  std::vector<std::exception_ptr> failures(count);
#pragma omp parallel for num_threads(outer) schedule(dynamic, 1)
  for (std::int64_t i = 0; i < static_cast<std::int64_t>(count); ++i) {
    omp_set_num_threads(inner);
    try {
      body(static_cast<std::size_t>(i));
    } catch (...) {
      failures[static_cast<std::size_t>(i)] = std::current_exception();
    }
  }
  omp_set_max_active_levels(levels);
  for (const auto& failure : failures)
    if (failure) std::rethrow_exception(failure);
}

// body(i) for every i < count on the cores (dynamic schedule): the OpenMP
// loop that may throw. An exception must not leave an OpenMP region (it is
// std::terminate): each is kept, and the first by index rethrown after the loop.
template <class Body>
void parallel_for(std::size_t count, const Body& body) {
  std::vector<std::exception_ptr> failures(count);
  bool failed = false;
#pragma omp parallel for schedule(dynamic) reduction(|| : failed)
  for (std::int64_t i = 0; i < static_cast<std::int64_t>(count); ++i) {
    try {
      body(static_cast<std::size_t>(i));
    } catch (...) {
      failures[static_cast<std::size_t>(i)] = std::current_exception();
      failed = true;
    }
  }
  if (!failed) return;
  for (const auto& failure : failures)
    if (failure) std::rethrow_exception(failure);
}

// Σ over i < n of term(i), in fixed blocks of 4096 summed in parallel and
// added in order: the same bits on any number of threads (one block: the plain
// loop), so fits and estimates are reproducible across machines. Sum needs +=.
template <class Sum, class Term>
Sum blocked_sum(std::size_t n, const Term& term) {
  constexpr std::size_t kBlock = 4096;
  const std::size_t blocks = (n + kBlock - 1) / kBlock;
  std::vector<Sum> partial(blocks);
  const auto block = [&](std::size_t b) {
    for (std::size_t i = b * kBlock; i < std::min(n, (b + 1) * kBlock); ++i) partial[b] += term(i);
  };
  if (blocks > 1)
    parallel_for(blocks, block);
  else if (blocks == 1)
    block(0);
  Sum total{};
  for (const Sum& p : partial) total += p;
  return total;
}

}  // namespace gs
