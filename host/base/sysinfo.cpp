#include "host/base/sysinfo.hpp"

#include <fmt/format.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <ctime>
#include <fstream>
#include <sstream>

namespace gs {

std::string host_name() {
  std::array<char, 256> buffer{};
  if (gethostname(buffer.data(), buffer.size() - 1) != 0) return "unknown";
  return buffer.data();
}

std::string cpu_model() {
  std::ifstream in("/proc/cpuinfo");
  std::string line;
  while (std::getline(in, line)) {
    if (line.rfind("model name", 0) == 0) {
      const auto colon = line.find(':');
      if (colon != std::string::npos) return line.substr(line.find_first_not_of(' ', colon + 1));
    }
  }
  return "unknown CPU";
}

std::uint64_t available_memory() {
  std::ifstream in("/proc/meminfo");
  std::string key, unit;
  std::uint64_t value = 0;
  while (in >> key >> value >> unit) {
    if (key == "MemAvailable:") return value * 1024;
  }
  const long pages = sysconf(_SC_AVPHYS_PAGES);
  const long page_size = sysconf(_SC_PAGESIZE);
  return pages > 0 && page_size > 0 ? static_cast<std::uint64_t>(pages) * page_size : 0;
}

std::string utc_now_iso8601() {
  const std::time_t now = std::time(nullptr);
  std::tm utc{};
  gmtime_r(&now, &utc);
  std::array<char, 32> buffer{};
  std::strftime(buffer.data(), buffer.size(), "%Y-%m-%dT%H:%M:%SZ", &utc);
  return buffer.data();
}

std::string format_bytes(std::uint64_t bytes) {
  static constexpr const char* kUnits[] = {"B", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB"};  // 2^64 B = 16 EiB
  double value = static_cast<double>(bytes);
  int unit = 0;
  while (value >= 1024 && unit < 6) {
    value /= 1024;
    ++unit;
  }
  return unit == 0 ? fmt::format("{} B", bytes) : fmt::format("{:.1f} {}", value, kUnits[unit]);
}

std::uint64_t estimated_bytes(double bytes) {
  if (std::isnan(bytes) || bytes >= 1.8e19) return UINT64_MAX;
  return bytes < 1 ? 0 : static_cast<std::uint64_t>(bytes);
}

std::string format_estimated_bytes(double bytes) { return format_bytes(estimated_bytes(bytes)); }

std::optional<std::uint64_t> free_space(const std::string& directory) {
  struct statvfs info {};
  // No blocks at all: a file system that tells nothing of its space (/proc, sysfs).
  if (statvfs(directory.c_str(), &info) != 0 || info.f_blocks == 0) return std::nullopt;
  const auto blocks = geteuid() == 0 ? info.f_bfree : info.f_bavail;
  return static_cast<std::uint64_t>(blocks) * info.f_frsize;
}

}  // namespace gs
