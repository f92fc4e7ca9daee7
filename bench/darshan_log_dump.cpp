// darshan_log_dump LOG...: what gpusynth's darshan binary reader
// (io/darshan_log.hpp) reads from each log, one line per fact, in the digits
// darshan-parser and darshan-dxt-parser print (bench/darshan_logs_check.py
// compares it with their output for every log of a folder). Exit 2 with the
// reader's message when a log cannot be read.
#include <fmt/format.h>
#include <fmt/ranges.h>

#include <cstdio>
#include <numeric>

#include "host/base/errors.hpp"
#include "io/darshan_log.hpp"

namespace {

void dump(const gs::DarshanBinaryLog& log) {
  fmt::print("version {}\nstart_time {}\nend_time {}\nnprocs {}\nrun_time {:.4f}\n", log.version, log.start_time,
             log.end_time, log.nprocs, log.run_time);
  fmt::print("incomplete_counters {}\nincomplete_dxt {}\n", fmt::join(log.incomplete_counters, ","),
             fmt::join(log.incomplete_dxt, ","));
  for (const auto& r : log.records)
    for (const auto& c : r.counters) {
      const bool timer = std::string_view(c.name).find("_F_") != std::string_view::npos;
      fmt::print("C {} {} {} {} {} {}\n", r.module, r.rank, r.id, c.name,
                 timer ? fmt::format("{:.6f}", c.value) : fmt::format("{:.0f}", c.value), r.name);
    }
  for (const auto& r : log.dxt)
    for (std::size_t i = 0; i < r.segments.size(); ++i) {
      const auto& s = r.segments[i];
      fmt::print("X {} {} {} {} {} {} {:.4f} {:.4f} {}\n", r.mpiio ? "X_MPIIO" : "X_POSIX", r.rank, r.id,
                 i < r.writes ? "write" : "read", s.offset, s.length, s.start, s.end, r.name);
    }
  for (const auto& h : log.heatmaps)
    fmt::print("H {} {} {:.6f} {} {} {} {}\n", h.rank, h.id, h.bin_width, h.write_bins.size(),
               std::accumulate(h.write_bins.begin(), h.write_bins.end(), std::int64_t{0}),
               std::accumulate(h.read_bins.begin(), h.read_bins.end(), std::int64_t{0}), h.name);
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: darshan_log_dump LOG.darshan...\n");
    return 2;
  }
  try {
    for (int i = 1; i < argc; ++i) dump(gs::read_darshan_log_file(argv[i]));
  } catch (const gs::UserError& e) {
    std::fprintf(stderr, "error: %s\n", e.what());
    return 2;
  }
  return 0;
}
