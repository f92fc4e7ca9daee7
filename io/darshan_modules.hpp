// The records of the modules gpusynth reads from a darshan binary log
// (io/darshan_log.hpp), each from its region's decompressed bytes in the
// layout of its module's format version: POSIX (1 to 4), MPI-IO (1 to 3) and
// STDIO (1, 2) counters, DXT_POSIX (1, 2) and DXT_MPIIO (1 to 3) operations,
// HEATMAP (1) bins. A region that is not a whole number of records, or a
// version outside these, is a UserError naming `path`.
#pragma once

#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>
#include <vector>

#include "io/darshan_log.hpp"

namespace gs {

// Bytes in the log's byte order (the magic number tells it), whatever the host's.
class LogBytes {
 public:
  LogBytes(std::string_view bytes, bool big_endian) : bytes_(bytes), big_(big_endian) {}
  std::uint64_t u64(std::size_t at) const { return get(at, 8); }
  std::int64_t i64(std::size_t at) const { return static_cast<std::int64_t>(get(at, 8)); }
  std::uint32_t u32(std::size_t at) const { return static_cast<std::uint32_t>(get(at, 4)); }
  double f64(std::size_t at) const {
    const std::uint64_t bits = get(at, 8);
    double value;
    std::memcpy(&value, &bits, sizeof value);
    return value;
  }
  std::size_t size() const { return bytes_.size(); }
  std::string_view bytes() const { return bytes_; }

 private:
  std::uint64_t get(std::size_t at, int n) const {
    std::uint64_t v = 0;
    for (int i = 0; i < n; ++i) {
      const auto byte = static_cast<unsigned char>(bytes_[at + static_cast<std::size_t>(big_ ? i : n - 1 - i)]);
      v = (v << 8) | byte;
    }
    return v;
  }
  std::string_view bytes_;
  bool big_;
};

// `module`: darshan's module id (1 POSIX, 2 MPI-IO, 9 STDIO).
void read_counter_records(const std::string& data, int module, std::uint32_t version, bool big_endian,
                          const std::string& path, std::vector<DarshanFileRecord>& out);
void read_dxt_records(const std::string& data, bool mpiio, std::uint32_t version, bool big_endian,
                      const std::string& path, std::vector<DxtFileRecord>& out);
void read_heatmap_records(const std::string& data, std::uint32_t version, bool big_endian, const std::string& path,
                          std::vector<DarshanHeatmap>& out);

}  // namespace gs
