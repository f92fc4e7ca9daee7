#include "estimators/request_characteristics.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>

namespace gs {

void Frequencies::add(const std::string& name, double count) {
  const auto it = std::find(names.begin(), names.end(), name);
  if (it != names.end()) {
    counts[static_cast<std::size_t>(it - names.begin())] += count;
    return;
  }
  names.push_back(name);
  counts.push_back(count);
}

double Frequencies::total() const { return std::accumulate(counts.begin(), counts.end(), 0.0); }

const std::vector<CharacteristicInfo>& characteristic_table() {
  using C = Characteristic;
  using K = ClassCharacteristics;
  static const std::vector<CharacteristicInfo> table = {
      {C::ISG, "ISG", "inter_session_gap", "sequence IDs",
       "from the close of a file's session to the open of its next (the first from ID 0)", &K::inter_session_gap, true},
      {C::IRG, "IRG", "inter_request_gap", "sequence IDs",
       "between successive requests of one session, open and close included", &K::inter_request_gap, true},
      {C::D, "D", "session_requests", "requests", "requests between a session's open and close", &K::session_requests,
       true},
      {C::OT, "OT", "file_open_times", "sessions", "sessions of each file", &K::file_open_times, true},
      {C::FS, "FS", "file_size", "bytes", "largest offset + size of each file", &K::file_size, true},
      {C::RT1, "RT1", "request_types_in_sessions", "requests", "operations inside sessions (open and close excluded)",
       nullptr, false},
      {C::RT2, "RT2", "request_types_outside_sessions", "requests", "operations outside sessions", nullptr, false},
      {C::OFF, "OFF", "offset", "bytes", "offsets of the data requests", &K::offset, true},
      {C::SIZE, "SIZE", "request_size", "bytes", "sizes of the data requests", &K::request_size, true},
      {C::SEQ, "SEQ", "sequentiality", "ratio",
       "share of a session's data requests after its first that start where the previous ended", &K::sequentiality,
       true},
      {C::AM, "AM", "access_mode", "sessions", "read_only, write_only, read_write or none (no data request)", nullptr,
       false},
      {C::OS, "OS", "files", "files", "files of the class", nullptr, false},
      {C::ST, "ST", "slack_time", "s", "start of a request minus the end of the process's previous request",
       &K::slack_time, true},
      {C::data_execution_time, "", "data_execution_time", "s", "execution time of the data requests",
       &K::data_execution_time, false},
      {C::metadata_execution_time, "", "metadata_execution_time", "s", "execution time of the other requests",
       &K::metadata_execution_time, false},
  };
  return table;
}

namespace {

template <class C>
auto* samples_named(C& c, const std::string& name) {
  decltype(&(c.*&ClassCharacteristics::offset)) found = nullptr;
  for (const CharacteristicInfo& info : characteristic_table())
    if (info.samples && name == info.name) found = &(c.*info.samples);
  return found;
}

}  // namespace

const std::vector<double>* numeric_characteristic(const ClassCharacteristics& c, const std::string& name) {
  return samples_named(c, name);
}
std::vector<double>* numeric_characteristic(ClassCharacteristics& c, const std::string& name) {
  return samples_named(c, name);
}

namespace {

constexpr std::pair<std::uint32_t, const char*> kAccessModes[] = {
    {kModeRead, "read_only"}, {kModeWrite, "write_only"}, {kModeRead | kModeWrite, "read_write"}, {0, "none"}};

}  // namespace

const char* access_mode_name(std::uint32_t mode) {
  for (const auto& [flags, name] : kAccessModes)
    if ((mode & (kModeRead | kModeWrite)) == flags) return name;
  return "none";
}

std::optional<std::uint32_t> access_mode_flags(const std::string& name) {
  for (const auto& [flags, known] : kAccessModes)
    if (name == known) return flags;
  return std::nullopt;
}

double to_nanoseconds(double seconds) { return std::round(seconds * 1e9) / 1e9; }

}  // namespace gs
