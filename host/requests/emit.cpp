#include "host/requests/emit.hpp"

#include <fmt/format.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <map>
#include <set>

#include "host/base/errors.hpp"
#include "host/base/output_file.hpp"
#include "io/hdf5.hpp"
#include "io/traces/fields.hpp"

namespace gs {

namespace {

void write_frequencies(hid_t group, const std::string& name, const Frequencies& f, const CharacteristicInfo& info) {
  h5::write_table(group, name, {{"name", f.names}, {"count", f.counts}},
                  {{"table_iii", std::string(info.short_name)}, {"units", std::string(info.units)},
                   {"meaning", std::string(info.meaning)}});
}

}  // namespace

void write_characterization(hid_t parent, const TraceCharacterization& characterization) {
  const Characteristics& characteristics = characterization.characteristics;
  const Workload& path = characterization.path;
  const h5::Handle top = h5::create_group(parent, "characteristics");
  for (int ci = 0; ci <= kFileClasses; ++ci) {
    const ClassCharacteristics& c = characteristics.classes[ci];
    const h5::Handle group = h5::create_group(top.id(), file_class_name(static_cast<FileClass>(ci)));
    h5::write_attribute(group.id(), {"files", static_cast<std::int64_t>(c.files)});
    for (const CharacteristicInfo& info : characteristic_table()) {
      const std::string name = info.name;
      std::vector<Attribute> attributes = {{"table_iii", std::string(info.short_name)},
                                           {"units", std::string(info.units)},
                                           {"meaning", std::string(info.meaning)}};
      if (const auto* samples = numeric_characteristic(c, name)) {
        h5::write_vector(group.id(), name, *samples, attributes);
      } else if (name == "request_types_in_sessions") {
        write_frequencies(group.id(), name, c.types_in_sessions, info);
      } else if (name == "request_types_outside_sessions") {
        write_frequencies(group.id(), name, c.types_outside, info);
      } else if (name == "access_mode") {
        write_frequencies(group.id(), name, c.access_mode, info);
      }
    }
  }
  std::vector<std::string> names, classes, patterns;
  std::vector<std::int64_t> sizes, strides;
  for (std::size_t f = 0; f < path.files.size(); ++f) {
    const FileInfo& info = path.files[f];
    names.push_back(path.table.files[f]);
    classes.push_back(file_class_name(info.file_class));
    sizes.push_back(info.size);
    strides.push_back(info.rank_stride);
    patterns.push_back(info.file_class != FileClass::private_file ? ""
                       : info.name.learned                        ? info.name.name_for(1) + " (rank 1)"
                                                                  : "not learned: NAME.<rank>");
  }
  h5::write_table(parent, "files", {{"name", names}, {"class", classes}, {"size", sizes}, {"rank_stride", strides},
                                    {"name_on_rank_1", patterns}},
                  {{"meaning", std::string("the generic workload path's files: class, FS, offset stride per rank "
                                           "(shared), private name pattern")},
                   {"dimensions", std::string("file")}});
  write_request_tables(h5::create_group(parent, "generic_path").id(), {path},
                       {{"meaning", std::string("the root's requests with seq = global sequence ID; flags bit 0: "
                                                "root-exclusive, bit 1: inferred open/close")}});
  write_request_tables(h5::create_group(parent, "sanitized").id(), {characterization.sanitized},
                       {{"meaning", std::string("every rank's requests after sanitization, opens and closes "
                                                "included")}});
}

void write_request_tables(hid_t group, const std::vector<Workload>& replicas, const std::vector<Attribute>& attributes) {
  std::map<std::string, std::int64_t> op_index, file_index;
  std::vector<std::string> ops, files;
  const auto index_of = [](std::map<std::string, std::int64_t>& index, std::vector<std::string>& names,
                           const std::string& name) {
    auto [it, fresh] = index.emplace(name, static_cast<std::int64_t>(names.size()));
    if (fresh) names.push_back(name);
    return it->second;
  };
  std::vector<std::int64_t> replica, seq, rank, op, file, offset, size, session, flags;
  std::vector<double> time, duration;
  for (std::size_t k = 0; k < replicas.size(); ++k) {
    const RequestTable& t = replicas[k].table;
    std::vector<std::int64_t> ops_here, files_here;
    for (const auto& name : t.ops) ops_here.push_back(index_of(op_index, ops, name));
    for (const auto& name : t.files) files_here.push_back(index_of(file_index, files, name));
    for (const Request& r : t.requests) {
      replica.push_back(static_cast<std::int64_t>(k));
      seq.push_back(r.seq);
      rank.push_back(r.rank);
      time.push_back(r.start);
      duration.push_back(r.duration);
      op.push_back(ops_here[r.op]);
      file.push_back(r.file < 0 ? -1 : files_here[r.file]);
      offset.push_back(r.offset);
      size.push_back(r.size);
      session.push_back(r.session);
      flags.push_back(r.flags);
    }
  }
  h5::write_table(group, "requests",
                  {{"replica", replica},
                   {"seq", seq},
                   {"rank", rank},
                   {"time", time},
                   {"duration", duration},
                   {"op", op},
                   {"file", file},
                   {"offset", offset},
                   {"size", size},
                   {"session", session},
                   {"flags", flags}},
                  {{"dimensions", std::string("request")},
                   {"time_units", std::string("s")},
                   {"offset_size_units", std::string("bytes (-1: not given)")},
                   {"flags", std::string("bit 0 root-exclusive, 1 inferred open/close, 2 session may read, 3 may "
                                         "write")}});
  std::vector<std::string> classes;
  for (const auto& name : ops) classes.push_back(op_class_name(classify_operation(name)));
  h5::write_table(group, "ops", {{"name", ops}, {"class", classes}}, {{"dimensions", std::string("op")}});
  h5::write_table(group, "files", {{"name", files}}, {{"dimensions", std::string("file")}});
  h5::write_attributes(group, attributes);
}

namespace {

std::string shell_quoted(const std::string& text) {
  std::string out = "'";
  for (char c : text) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

// The replay name of a file: files/<index>_<last part of its name, safe characters only>.
std::string replay_name(std::size_t index, const std::string& name) {
  std::string base = name.substr(name.find_last_of('/') == std::string::npos ? 0 : name.find_last_of('/') + 1);
  for (char& c : base)
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '.' && c != '_' && c != '-') c = '_';
  if (base.empty() || base == "." || base == "..") base = "file";
  return fmt::format("files/{}_{}", index, base.substr(0, 80));
}

constexpr const char* kReplayMarker = ".gpusynth-replay";

void write_text(const std::string& path, const std::string& text) {
  FILE* f = std::fopen(path.c_str(), "w");
  if (!f) throw_write_error(path, errno);
  const bool ok = std::fwrite(text.data(), 1, text.size(), f) == text.size();
  const int error = errno;
  if (std::fclose(f) != 0 || !ok) throw_write_error(path, ok ? errno : error);
}

}  // namespace

FioSummary write_fio_replay(const std::string& directory, const Workload& workload, const std::string& title) {
  namespace fs = std::filesystem;
  std::error_code ec;
  const bool exists = fs::exists(fs::symlink_status(directory, ec));
  if (exists && !(fs::is_directory(directory, ec) && fs::exists(fs::path(directory) / kReplayMarker, ec)))
    throw UserError(fmt::format("fio output '{}' exists and is not a replay directory gpusynth wrote; choose "
                                "another or remove it",
                                directory));
  const std::string temp = fmt::format("{}.tmp-{}", directory, getpid());
  fs::remove_all(temp, ec);
  if (!fs::create_directories(temp, ec) || ec)
    throw UserError(fmt::format("cannot create '{}': {}", temp, ec.message()));
  struct Cleanup {
    std::string path;
    bool armed = true;
    ~Cleanup() {
      std::error_code ignored;
      if (armed) std::filesystem::remove_all(path, ignored);
    }
  } cleanup{temp};

  const RequestTable& t = workload.table;
  FioSummary summary;
  summary.processes = static_cast<std::uint64_t>(workload.processes);
  std::vector<std::string> logs(static_cast<std::size_t>(workload.processes), "fio version 3 iolog\n");
  std::vector<double> first_time(logs.size(), -1);
  std::vector<std::map<std::int32_t, bool>> added(logs.size());
  // fio does not sleep before a log's first I/O: each job starts (startdelay) at its first logged I/O.
  // fio reads a length as 32 bits: larger requests cannot be replayed.
  const auto logged_io = [&](const Request& r) {
    return is_data(t.op_class(r)) && r.file >= 0 && r.offset != kUnknown && r.size > 0 &&
           r.size < (std::int64_t{1} << 32);
  };
  for (const Request& r : t.requests)
    if (logged_io(r) && first_time[r.rank] < 0) first_time[r.rank] = r.start;
  std::vector<double> last_io = first_time;
  // Files a process never reads or writes in the log are neither added nor opened
  // (fio would lay them out and open them for nothing).
  std::set<std::pair<std::int32_t, std::int32_t>> with_io;
  for (const Request& r : t.requests)
    if (logged_io(r)) with_io.emplace(r.rank, r.file);
  for (const Request& r : t.requests) {
    const OpClass c = t.op_class(r);
    const std::string op = lower(t.op_name(r));
    const char* action = c == OpClass::read    ? "read"
                         : c == OpClass::write ? "write"
                         : c == OpClass::open  ? "open"
                         : c == OpClass::close ? "close"
                         : op.find("fdatasync") != std::string::npos ? "datasync"
                         : op.find("sync") != std::string::npos      ? "sync"
                                                                    : nullptr;
    if (!action || r.file < 0 || !with_io.count({r.rank, r.file})) {
      ++summary.skipped_metadata;
      continue;
    }
    if (is_data(c) && !logged_io(r)) {
      ++summary.skipped_empty;
      continue;
    }
    std::string& log = logs[r.rank];
    const std::string name = replay_name(static_cast<std::size_t>(r.file), t.files[r.file]);
    // fio sleeps before an I/O for its time minus the previous entry's and
    // runs open, close and sync entries at once: those carry the time of the
    // process's I/O before them (its first, before any), so every I/O keeps its time.
    if (is_data(c)) last_io[r.rank] = r.start;
    const auto micros = static_cast<long long>(std::llround(std::max(0.0, last_io[r.rank]) * 1e6));
    if (added[r.rank].emplace(r.file, true).second) log += fmt::format("{} {} add\n", micros, name);
    if (is_data(c))
      log += fmt::format("{} {} {} {} {}\n", micros, name, action, r.offset, r.size);
    else if (c == OpClass::open || c == OpClass::close)
      log += fmt::format("{} {} {}\n", micros, name, action);
    else  // sync and datasync are I/O for fio: with an offset and a length, or it takes them as file actions
      log += fmt::format("{} {} {} 0 0\n", micros, name, action);
    ++summary.logged;
  }
  std::string job = fmt::format(
      "# {}\n# written by gpusynth: one job per process, each replaying its iolog; run ./create_files.sh first,\n"
      "# then fio replay.fio in this directory. startdelay puts every process's first I/O at its time\n"
      "# (fio does not sleep before a log's first I/O); open and close run right after the I/O before\n"
      "# them (fio does not time them); the latency logs (lat/) give completion time\n"
      "# in ms from that start, latency in ns, direction, size and offset (log_offset=1).\n"
      "# invalidate=0: the traced application did not drop the page cache when it opened a file.\n"
      "[global]\nioengine=psync\nthread\ninvalidate=0\nlog_offset=1\n\n",
      title);
  for (std::size_t rank = 0; rank < logs.size(); ++rank) {
    if (first_time[rank] < 0) {  // fio refuses a log without I/O: the process has no job
      ++summary.processes_without_io;
      continue;
    }
    write_text(fmt::format("{}/rank_{}.iolog", temp, rank), logs[rank]);
    job += fmt::format("[rank_{}]\nread_iolog=rank_{}.iolog\nwrite_lat_log=lat/rank_{}\nstartdelay={}us\n\n", rank,
                       rank, rank, std::llround(std::max(0.0, first_time[rank]) * 1e6));
  }
  write_text(temp + "/replay.fio", job);
  std::string script =
      "#!/bin/sh\n# Creates the files of the replay, sparse, at the sizes the requests reach (written by gpusynth).\n"
      "set -e\ncd \"$(dirname \"$0\")\"\nmkdir -p files lat\n";
  for (std::size_t f = 0; f < t.files.size(); ++f) {
    std::int64_t size = 0;
    if (f < workload.files.size()) size = workload.files[f].size;
    script += fmt::format("truncate -s {} {}  # {}\n", std::max<std::int64_t>(size, 0),
                          shell_quoted(replay_name(f, t.files[f])), t.files[f]);
  }
  write_text(temp + "/create_files.sh", script);
  ::chmod((temp + "/create_files.sh").c_str(), 0755);
  write_text(fmt::format("{}/{}", temp, kReplayMarker), title + "\n");
  if (exists) fs::remove_all(directory, ec);
  if (ec || ::rename(temp.c_str(), directory.c_str()) != 0) throw_write_error(directory, ec ? ec.value() : errno);
  cleanup.armed = false;
  return summary;
}

void write_disksim(const std::string& path, const Workload& workload) {
  const RequestTable& t = workload.table;
  std::vector<std::int64_t> base(t.files.size(), 0);
  std::int64_t next = 0;
  for (std::size_t f = 0; f < t.files.size(); ++f) {
    base[f] = next;
    const std::int64_t size = f < workload.files.size() ? workload.files[f].size : 0;
    next += (std::max<std::int64_t>(size, 0) + 4095) / 4096 * 4096;
  }
  std::string text;
  for (const Request& r : t.requests) {
    const OpClass c = t.op_class(r);
    if (!is_data(c) || r.file < 0 || r.offset == kUnknown || r.size <= 0) continue;
    text += fmt::format("{:.6f} 0 {} {} {}\n", r.start * 1e3, (base[r.file] + r.offset) / 512,
                        std::max<std::int64_t>(1, (r.offset % 512 + r.size + 511) / 512), c == OpClass::read ? 1 : 0);
  }
  write_file_atomically(path, text, "disksim");
}

void write_dxt_text(const std::string& path, const Workload& workload) {
  const RequestTable& t = workload.table;
  std::map<std::pair<std::int32_t, std::int32_t>, std::vector<const Request*>> blocks;  // (file, rank)
  for (const Request& r : t.requests)
    if (is_data(t.op_class(r)) && r.file >= 0) blocks[{r.file, r.rank}].push_back(&r);
  std::string text = fmt::format(
      "# darshan-dxt-parser-like text written by gpusynth (docs/requests.md)\n# start_time: 0\n# nprocs: {}\n\n",
      workload.processes);
  for (const auto& [key, requests] : blocks) {
    const auto& [file, rank] = key;
    text += fmt::format("# DXT, file_id: {}, file_name: {}\n# DXT, rank: {}, hostname: gpusynth\n", file,
                        t.files[file], rank);
    text += "# Module    Rank  Wt/Rd  Segment          Offset          Length    Start(s)      End(s)\n";
    std::size_t segment = 0;
    for (const Request* r : requests) {
      const bool mpi = is_mpi_operation(t.op_name(*r));
      text += fmt::format(" {} {:>7} {:>6} {:>8} {:>15} {:>15} {:>11.6f} {:>11.6f}\n", mpi ? "X_MPIIO" : "X_POSIX",
                          rank, t.op_class(*r) == OpClass::read ? "read" : "write", segment++,
                          std::max<std::int64_t>(r->offset, 0), std::max<std::int64_t>(r->size, 0), r->start,
                          r->start + r->duration);
    }
    text += "\n";
  }
  write_file_atomically(path, text, "dxt");
}

}  // namespace gs
