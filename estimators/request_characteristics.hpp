// The characteristics of PIONEER's Table III as gpusynth holds them
// (docs/requests.md): every characteristic of a generic workload path as an
// empirical distribution per file class, with gaps in global sequence IDs,
// and the vocabulary that names them (HDF5 names, config keys, units).
// host/requests/characteristics.hpp measures them; io/requests_file.hpp
// writes them.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "estimators/requests.hpp"

namespace gs {

// Names with their counts (RT1, RT2, AM).
struct Frequencies {
  std::vector<std::string> names;
  std::vector<double> counts;
  void add(const std::string& name, double count = 1);
  double total() const;
};

// The properties a session is drawn with, together (D, SEQ, AM and the
// operations of one real session, in order).
struct SessionShape {
  double requests = 0;             // D
  double sequentiality = 0;        // SEQ
  std::uint32_t mode = 0;          // AM as kModeRead | kModeWrite
  std::vector<std::uint32_t> ops;  // the path's operation ids, open and close excluded
  std::vector<double> gaps;        // IRG: open → first request → … → close (D + 1 of them)
  std::vector<double> sizes;       // of its data requests, in order
  std::vector<char> continues;     // per data request: starts where the previous ended
  std::vector<double> offsets;     // of its data requests, in order
};

// What synthesis takes from one real file: when it is first opened, how
// often, how large, and the offsets and sizes of its data requests.
struct FileShape {
  double first_open = 0;  // seq of its first open (its first ISG)
  double open_times = 0;  // OT
  double size = 0;        // FS
  std::vector<double> offsets, sizes;
  std::vector<double> jump_offsets;   // offsets of its data requests that do not continue the previous one
  std::vector<double> later_gaps;     // ISG of its sessions after the first
  std::vector<std::size_t> sessions;  // its sessions in ClassCharacteristics::sessions
};

struct ClassCharacteristics {
  double files = 0;                       // OS
  std::vector<double> inter_session_gap;  // ISG
  std::vector<double> inter_request_gap;  // IRG
  std::vector<double> session_requests;   // D
  std::vector<double> file_open_times;    // OT
  std::vector<double> file_size;          // FS (bytes)
  std::vector<double> offset;             // OFF (bytes)
  std::vector<double> request_size;       // SIZE (bytes)
  std::vector<double> sequentiality;      // SEQ (sessions with two or more data requests)
  std::vector<double> slack_time;         // ST (s): start minus the end of the process's requests before it (to 1 ns)
  std::vector<double> data_execution_time, metadata_execution_time;  // s (the slack-time replay needs them)
  Frequencies types_in_sessions;                                     // RT1
  Frequencies types_outside;                                         // RT2
  Frequencies access_mode;                                           // AM: read_only, write_only, read_write, none
  std::vector<SessionShape> sessions;
  std::vector<double> later_session_gap;  // ISG of every session but a file's first
  // (execution time of the previous request, ST) together, by the OpClass of
  // the request and of the one before it (class·kOpClasses + previous).
  std::array<std::vector<std::pair<double, double>>, kOpClasses * kOpClasses> timing_pairs;
  std::vector<std::int32_t> files_in_path;  // the path's files of this class (templates for synthesis)
  std::vector<FileShape> file_shapes;       // parallel to files_in_path (empty: characteristics given)
};

// root_exclusive, private, shared, none (operations that name no file: RT2, ST, execution times only).
struct Characteristics {
  std::array<ClassCharacteristics, kFileClassCount> classes;
  ClassCharacteristics& of(FileClass c) { return classes[static_cast<int>(c)]; }
  const ClassCharacteristics& of(FileClass c) const { return classes[static_cast<int>(c)]; }
};

// The characteristics of Table III, and the two execution times the
// slack-time replay needs: one vocabulary for the measures, the HDF5 names,
// the config's keys and the overrides (characteristic_table).
enum class Characteristic {
  ISG,
  IRG,
  D,
  OT,
  FS,
  RT1,
  RT2,
  OFF,
  SIZE,
  SEQ,
  AM,
  OS,
  ST,
  data_execution_time,
  metadata_execution_time
};

// One characteristic: its short name (Table III; "" for the execution times),
// the name it has in HDF5, units, meaning, its samples in ClassCharacteristics
// (nullptr for the categorical ones and OS) and whether `overrides:` may scale
// and shift it.
struct CharacteristicInfo {
  Characteristic id;
  const char* short_name;
  const char* name;
  const char* units;
  const char* meaning;
  std::vector<double> ClassCharacteristics::*samples;
  bool overridable;
  // Its key in a class of a config's `characteristics:`: the short name, else (the execution times) the HDF5 name.
  std::string config_key() const { return *short_name ? short_name : name; }
};
const std::vector<CharacteristicInfo>& characteristic_table();
// The samples of a numeric characteristic by its HDF5 name; nullptr for the categorical ones.
const std::vector<double>* numeric_characteristic(const ClassCharacteristics& c, const std::string& name);
std::vector<double>* numeric_characteristic(ClassCharacteristics& c, const std::string& name);

const char* access_mode_name(std::uint32_t mode);
// kModeRead | kModeWrite of an AM name (read_only, write_only, read_write, none); nothing for another name.
std::optional<std::uint32_t> access_mode_flags(const std::string& name);

// Times in characteristics are whole nanoseconds (no trace is finer), so
// that equal times compare equal whatever the arithmetic that made them.
double to_nanoseconds(double seconds);

// The whole characterization phase of a request trace: sanitized, its generic
// workload path (soft dependencies derived) and the path's characteristics.
// A rank class other than the root's (PathSummary::rank_classes 1, 2, …):
// the generic path its smallest rank's requests make, and its characteristics.
struct RankClassPath {
  Workload path;
  Characteristics characteristics;
};

struct TraceCharacterization {
  Workload sanitized, path;  // path: the root's class (the generic workload path)
  SanitizeSummary sanitize;
  PathSummary path_summary;
  Characteristics characteristics;
  std::vector<RankClassPath> other_classes;
};

}  // namespace gs
