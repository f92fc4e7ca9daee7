// The module records of a darshan binary log (io/darshan_modules.hpp). Each
// counter's position in each module version comes from darshan-util's
// *-log-format.h (the current layout) and its logutils' up-conversions (what
// older versions lacked): POSIX 2 had 64 counters and 15 timers (3 added the
// close-start and open-end timestamps, 4 the FILENOS, DUPS and RENAME
// counters), POSIX 1 four stdio counters more after MMAPS; MPI-IO before 3 had
// 15 timers; STDIO 1 lacked FDOPENS.
#include "io/darshan_modules.hpp"

#include <fmt/format.h>

#include <array>

#include "host/base/errors.hpp"

namespace gs {

namespace {

constexpr int kVersions = 4;  // the most versions of one module

struct CounterSpec {
  const char* name;
  bool timer;                     // a double (fcounters) rather than an int64 (counters)
  std::array<int, kVersions> at;  // index by version 1, 2, …
};

struct ModuleLayout {
  const char* name;  // darshan-parser's
  std::uint32_t versions;
  std::array<std::array<int, 2>, kVersions> sizes;  // int64 counters and double timers by version
  std::vector<CounterSpec> counters;
};

const ModuleLayout& layout(int module) {
  static const ModuleLayout posix{"POSIX",
                                  4,
                                  {{{68, 15}, {64, 15}, {64, 17}, {69, 17}}},
                                  {{"POSIX_OPENS", false, {0, 0, 0, 0}},
                                   {"POSIX_READS", false, {1, 1, 1, 3}},
                                   {"POSIX_WRITES", false, {2, 2, 2, 4}},
                                   {"POSIX_BYTES_READ", false, {13, 9, 9, 14}},
                                   {"POSIX_BYTES_WRITTEN", false, {14, 10, 10, 15}},
                                   {"POSIX_F_READ_START_TIMESTAMP", true, {1, 1, 1, 1}},
                                   {"POSIX_F_WRITE_START_TIMESTAMP", true, {2, 2, 2, 2}},
                                   {"POSIX_F_READ_END_TIMESTAMP", true, {3, 3, 5, 5}},
                                   {"POSIX_F_WRITE_END_TIMESTAMP", true, {4, 4, 6, 6}},
                                   {"POSIX_F_READ_TIME", true, {6, 6, 8, 8}},
                                   {"POSIX_F_WRITE_TIME", true, {7, 7, 9, 9}}}};
  static const ModuleLayout mpiio{"MPI-IO",
                                  3,
                                  {{{51, 15}, {51, 15}, {51, 17}}},
                                  {{"MPIIO_INDEP_OPENS", false, {0, 0, 0}},
                                   {"MPIIO_COLL_OPENS", false, {1, 1, 1}},
                                   {"MPIIO_INDEP_READS", false, {2, 2, 2}},
                                   {"MPIIO_INDEP_WRITES", false, {3, 3, 3}},
                                   {"MPIIO_COLL_READS", false, {4, 4, 4}},
                                   {"MPIIO_COLL_WRITES", false, {5, 5, 5}},
                                   {"MPIIO_SPLIT_READS", false, {6, 6, 6}},
                                   {"MPIIO_SPLIT_WRITES", false, {7, 7, 7}},
                                   {"MPIIO_NB_READS", false, {8, 8, 8}},
                                   {"MPIIO_NB_WRITES", false, {9, 9, 9}},
                                   {"MPIIO_BYTES_READ", false, {14, 14, 14}},
                                   {"MPIIO_BYTES_WRITTEN", false, {15, 15, 15}},
                                   {"MPIIO_F_READ_START_TIMESTAMP", true, {1, 1, 1}},
                                   {"MPIIO_F_WRITE_START_TIMESTAMP", true, {2, 2, 2}},
                                   {"MPIIO_F_READ_END_TIMESTAMP", true, {3, 3, 5}},
                                   {"MPIIO_F_WRITE_END_TIMESTAMP", true, {4, 4, 6}},
                                   {"MPIIO_F_READ_TIME", true, {6, 6, 8}},
                                   {"MPIIO_F_WRITE_TIME", true, {7, 7, 9}}}};
  static const ModuleLayout stdio{"STDIO",
                                  2,
                                  {{{13, 15}, {14, 15}}},
                                  {{"STDIO_OPENS", false, {0, 0}},
                                   {"STDIO_READS", false, {1, 2}},
                                   {"STDIO_WRITES", false, {2, 3}},
                                   {"STDIO_BYTES_WRITTEN", false, {5, 6}},
                                   {"STDIO_BYTES_READ", false, {6, 7}},
                                   {"STDIO_F_WRITE_TIME", true, {1, 1}},
                                   {"STDIO_F_READ_TIME", true, {2, 2}},
                                   {"STDIO_F_WRITE_START_TIMESTAMP", true, {5, 5}},
                                   {"STDIO_F_READ_START_TIMESTAMP", true, {6, 6}},
                                   {"STDIO_F_WRITE_END_TIMESTAMP", true, {9, 9}},
                                   {"STDIO_F_READ_END_TIMESTAMP", true, {10, 10}}}};
  return module == 1 ? posix : module == 2 ? mpiio : stdio;
}

void check_version(const char* module, std::uint32_t version, std::uint32_t newest, const std::string& path) {
  if (version < 1 || version > newest)
    throw UserError(
        fmt::format("{}: the {} module's format version is {}; this reader knows 1 to {} (darshan-util "
                    "3.5.0's): a newer darshan or a damaged header",
                    path, module, version, newest));
}

UserError region_length_error(const std::string& path, const char* module, std::size_t size, const std::string& what) {
  return UserError(
      fmt::format("{}: the {} region holds {} bytes after decompression, {}: the region's length or "
                  "data is damaged",
                  path, module, size, what));
}

}  // namespace

void read_counter_records(const std::string& data, int module, std::uint32_t version, bool big_endian,
                          const std::string& path, std::vector<DarshanFileRecord>& out) {
  const ModuleLayout& m = layout(module);
  check_version(m.name, version, m.versions, path);
  const auto [ints, timers] = m.sizes[version - 1];
  const std::size_t record = 16 + 8 * static_cast<std::size_t>(ints + timers);
  if (data.size() % record != 0)
    throw region_length_error(path, m.name, data.size(), fmt::format("not a whole number of {}-byte records", record));
  const LogBytes b(data, big_endian);
  for (std::size_t at = 0; at < data.size(); at += record) {
    const std::size_t counters_at = at + 16, timers_at = counters_at + 8 * static_cast<std::size_t>(ints);
    // darshan-util drops POSIX 1 records with stdio counts (its counter 6,
    // fopens): they cannot be up-converted.
    if (module == 1 && version == 1 && b.i64(counters_at + 6 * 8) > 0) continue;
    DarshanFileRecord r;
    r.module = m.name;
    r.id = b.u64(at);
    r.rank = b.i64(at + 8);
    r.counters.reserve(m.counters.size());
    for (const CounterSpec& c : m.counters) {
      const std::size_t index = static_cast<std::size_t>(c.at[version - 1]);
      r.counters.push_back(
          {c.name, c.timer ? b.f64(timers_at + 8 * index) : static_cast<double>(b.i64(counters_at + 8 * index))});
    }
    out.push_back(std::move(r));
  }
}

void read_dxt_records(const std::string& data, bool mpiio, std::uint32_t version, bool big_endian,
                      const std::string& path, std::vector<DxtFileRecord>& out) {
  const char* module = mpiio ? "DXT_MPIIO" : "DXT_POSIX";
  check_version(module, version, mpiio ? 3 : 2, path);
  // DXT_POSIX 2 and DXT_MPIIO 3 added each segment's pthread id.
  const std::size_t segment = (mpiio ? version >= 3 : version >= 2) ? 40 : 32;
  constexpr std::size_t kHeader = 104;  // id, rank, shared flag, 64-byte hostname, write and read counts
  const LogBytes b(data, big_endian);
  for (std::size_t at = 0; at < data.size();) {
    if (data.size() - at < kHeader)
      throw region_length_error(path, module, data.size(), fmt::format("its last record cut at byte {}", at));
    DxtFileRecord r;
    r.mpiio = mpiio;
    r.id = b.u64(at);
    r.rank = b.i64(at + 8);
    const std::int64_t writes = b.i64(at + 88), reads = b.i64(at + 96);
    const std::size_t room = (data.size() - at - kHeader) / segment;
    if (writes < 0 || reads < 0 || static_cast<std::uint64_t>(writes) > room ||
        static_cast<std::uint64_t>(reads) > room - static_cast<std::uint64_t>(writes))
      throw region_length_error(path, module, data.size(),
                                fmt::format("but the record at byte {} (file id {}, rank {}) says {} writes and {} "
                                            "reads where {} operations remain",
                                            at, r.id, r.rank, writes, reads, room));
    r.writes = static_cast<std::uint64_t>(writes);
    const std::size_t count = static_cast<std::size_t>(writes + reads);
    r.segments.resize(count);
    std::size_t s = at + kHeader;
    for (DxtSegment& seg : r.segments) {
      // DXT_MPIIO 1 recorded no offsets: -1 says so, as darshan-dxt-parser prints it.
      seg = DxtSegment{mpiio && version == 1 ? -1 : b.i64(s), b.i64(s + 8), b.f64(s + 16), b.f64(s + 24)};
      s += segment;
    }
    at = s;
    out.push_back(std::move(r));
  }
}

void read_heatmap_records(const std::string& data, std::uint32_t version, bool big_endian, const std::string& path,
                          std::vector<DarshanHeatmap>& out) {
  check_version("HEATMAP", version, 1, path);
  constexpr std::size_t kHeader = 48;  // id, rank, bin width, bin count, two pointers' room
  const LogBytes b(data, big_endian);
  for (std::size_t at = 0; at < data.size();) {
    if (data.size() - at < kHeader)
      throw region_length_error(path, "HEATMAP", data.size(), fmt::format("its last record cut at byte {}", at));
    DarshanHeatmap h;
    h.id = b.u64(at);
    h.rank = b.i64(at + 8);
    h.bin_width = b.f64(at + 16);
    const std::int64_t bins = b.i64(at + 24);
    if (bins < 0 || static_cast<std::uint64_t>(bins) > (data.size() - at - kHeader) / 16)
      throw region_length_error(path, "HEATMAP", data.size(),
                                fmt::format("but the record at byte {} says {} bins", at, bins));
    const std::size_t n = static_cast<std::size_t>(bins), first = at + kHeader;
    for (std::size_t i = 0; i < n; ++i) {
      h.write_bins.push_back(b.i64(first + 8 * i));
      h.read_bins.push_back(b.i64(first + 8 * (n + i)));
    }
    at = first + 16 * n;
    out.push_back(std::move(h));
  }
}

}  // namespace gs
