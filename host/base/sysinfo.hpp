// Facts about the machine, recorded in output files and logs.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

namespace gs {

std::string host_name();
std::string cpu_model();           // from /proc/cpuinfo, "unknown CPU" elsewhere
std::uint64_t available_memory();  // bytes the system reports as available
std::string utc_now_iso8601();
// "512 B", "4.0 KiB", "17.2 GiB": a size for people.
std::string format_bytes(std::uint64_t bytes);
// An estimate in floating point as a byte count: 0 below 1, UINT64_MAX from
// 1.8e19 on (below 2^64, where the conversion is defined) and for NaN (an
// estimate that could not be made counts as the most: a memory guard refuses it).
std::uint64_t estimated_bytes(double bytes);
// format_bytes of estimated_bytes.
std::string format_estimated_bytes(double bytes);
// Free bytes on the file system holding `directory`, as this user may use
// them (root: every free block); nothing when it cannot be told.
std::optional<std::uint64_t> free_space(const std::string& directory);

}  // namespace gs
