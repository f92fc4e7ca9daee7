#include "io/request_texts.hpp"

#include <fcntl.h>
#include <fmt/format.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <map>
#include <set>

#include "host/base/errors.hpp"
#include "host/base/interrupt.hpp"
#include "host/base/output_file.hpp"
#include "host/base/paths.hpp"
#include "host/base/sysinfo.hpp"
#include "io/traces/fields.hpp"

namespace gs {

namespace {

}  // namespace


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

constexpr int kMaxSymlinkHops = 40;  // as the kernel's ELOOP limit

}  // namespace

std::string resolve_replay_directory(const std::string& path, const std::string& option) {
  namespace fs = std::filesystem;
  if (path.empty()) throw UserError(fmt::format("{} must not be empty", option));
  fs::path target = path;
  for (int hop = 0;; ++hop) {
    struct stat info {};
    if (lstat(target.c_str(), &info) != 0) {
      if (errno != ENOENT)
        throw UserError(
            fmt::format("{} '{}': cannot inspect '{}': {}", option, path, target.string(), std::strerror(errno)));
      break;  // a new directory
    }
    const std::string shown = target == fs::path(path) ? path : path + "' -> '" + target.string();
    if (S_ISDIR(info.st_mode)) {
      if (!holds_marker(target.string(), kReplayMarker))
        throw UserError(
            fmt::format("{} '{}' exists and is not a replay directory gpusynth wrote (it has no {}); "
                        "choose another or remove it",
                        option, shown, kReplayMarker));
      if (access(target.c_str(), W_OK) != 0)
        throw UserError(fmt::format("{} '{}': the replay directory there is read-only ({}); it is left as it is",
                                    option, shown, std::strerror(errno)));
      break;
    }
    if (!S_ISLNK(info.st_mode))
      throw UserError(
          fmt::format("{} '{}' is {}, not a replay directory gpusynth wrote; give a new path or a "
                      "replay directory",
                      option, shown, file_kind(info.st_mode)));
    if (hop == kMaxSymlinkHops)
      throw UserError(fmt::format("{} '{}': more than {} symbolic links in a chain", option, path, kMaxSymlinkHops));
    std::error_code ec;
    const fs::path link = fs::read_symlink(target, ec);
    if (ec)
      throw UserError(
          fmt::format("{} '{}': cannot read the link '{}': {}", option, path, target.string(), ec.message()));
    target = (link.is_absolute() ? link : target.parent_path() / link).lexically_normal();
  }
  const std::string directory = directory_of(target.string());
  struct stat info {};
  if (stat(directory.c_str(), &info) != 0 || !S_ISDIR(info.st_mode))
    throw UserError(fmt::format("{} '{}': the directory '{}' does not exist; create it first or choose another path",
                                option, path, directory));
  if (access(directory.c_str(), W_OK) != 0)
    throw UserError(
        fmt::format("{} '{}': the directory '{}' is not writable ({})", option, path, directory, std::strerror(errno)));
  return target.string();
}

PendingReplayDirectory::PendingReplayDirectory(const std::string& path, const std::string& option)
    : path_(path), option_(option), target_(resolve_replay_directory(path, option)) {
  namespace fs = std::filesystem;
  remove_stale_temporaries_of(target_);
  const fs::path parent = directory_of(target_);
  const std::string prefix = (parent / temporary_prefix(target_)).string() + std::to_string(getpid());
  for (unsigned n = 0;; ++n) {
    temp_ = prefix + (n ? "." + std::to_string(n) : "");
    if (mkdir(temp_.c_str(), 0777) == 0) {
      write_marker(temp_, kReplayMarker, "a fio replay folder gpusynth is writing\n");
      return;
    }
    if (errno != EEXIST)
      throw UserError(fmt::format("{} '{}': cannot create a directory in '{}': {}", option_, path_, parent.string(),
                                  std::strerror(errno)));
  }
}

PendingReplayDirectory::~PendingReplayDirectory() {
  std::error_code ignored;
  if (!published_) std::filesystem::remove_all(temp_, ignored);
  std::filesystem::remove_all(temp_ + ".old", ignored);
}

void PendingReplayDirectory::write(const std::string& name, const std::string& text) const {
  const std::string staged = temp_ + "/" + name, shown = path_ + "/" + name;  // built before open sets errno
  write_and_close(open(staged.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0666), text, shown);
}

void PendingReplayDirectory::sync() const { sync_and_recheck(temp_, true, target_, option_, path_); }

void PendingReplayDirectory::publish() {
  namespace fs = std::filesystem;
  const auto failed = [&] {
    throw UserError(fmt::format("{} '{}': cannot rename the finished replay directory onto '{}': {}", option_, path_,
                                target_, std::strerror(errno)));
  };
  if (!replace_directory(temp_, target_)) failed();
  published_ = true;
  const std::string parent = directory_of(target_);
  const int directory = open(parent.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (directory >= 0) {  // the rename itself durable; best effort
    fsync(directory);
    close(directory);
  }
}

namespace {

// fio reads a length as 32 bits: larger requests cannot be replayed.
bool logged_io(const RequestTable& t, const Request& r) {
  return is_data(t.op_class(r)) && r.file >= 0 && r.offset != kUnknown && r.size > 0 &&
         r.size < (std::int64_t{1} << 32);
}

// The iolog action of an operation, or nothing for one fio cannot issue.
const char* fio_action(OpClass c, const std::string& op) {
  return c == OpClass::read                          ? "read"
         : c == OpClass::write                       ? "write"
         : c == OpClass::open                        ? "open"
         : c == OpClass::close                       ? "close"
         : op.find("fdatasync") != std::string::npos ? "datasync"
         : op.find("sync") != std::string::npos      ? "sync"
                                                     : nullptr;
}

// Each process's iolog. fio sleeps before an I/O for its time minus the
// previous entry's and runs open, close and sync entries at once: those carry
// the time of the process's I/O before them (its first, before any), so every
// I/O keeps its time. Files a process never reads or writes in the log are
// neither added nor opened (fio would lay them out and open them for nothing).
std::vector<std::string> fio_logs(const Workload& workload, const std::vector<double>& first_time,
                                  const std::string& file_prefix, FioSummary& summary) {
  const RequestTable& t = workload.table;
  std::vector<std::string> logs(first_time.size(), "fio version 3 iolog\n");
  std::vector<std::map<std::int32_t, bool>> added(logs.size());
  std::set<std::pair<std::int32_t, std::int32_t>> with_io;
  for (std::size_t i = 0; i < t.requests.size(); ++i) {
    poll_interrupts(i);
    if (logged_io(t, t.requests[i])) with_io.emplace(t.requests[i].rank, t.requests[i].file);
  }
  std::vector<double> last_io = first_time;
  for (std::size_t i = 0; i < t.requests.size(); ++i) {
    poll_interrupts(i);
    const Request& r = t.requests[i];
    const OpClass c = t.op_class(r);
    const char* action = fio_action(c, lower(t.op_name(r)));
    if (!action || r.file < 0 || !with_io.count({r.rank, r.file})) {
      ++summary.skipped_metadata;
      continue;
    }
    if (is_data(c) && !logged_io(t, r)) {
      ++summary.skipped_empty;
      continue;
    }
    std::string& log = logs[r.rank];
    const std::string name = file_prefix + replay_name(static_cast<std::size_t>(r.file), t.files[r.file]);
    if (is_data(c)) last_io[r.rank] = r.start;
    const auto micros = static_cast<long long>(std::llround(std::max(0.0, last_io[r.rank]) * 1e6));
    if (added[r.rank].emplace(r.file, true).second) {
      if (name.size() > kFioIologNameMax)
        throw UserError(
            fmt::format("the replay's file '{}' is named by {} characters, more than the {} fio reads "
                        "from an iolog: choose a --target of a shorter path",
                        name, name.size(), kFioIologNameMax));
      log += fmt::format("{} {} add\n", micros, name);
    }
    if (is_data(c)) {
      log += fmt::format("{} {} {} {} {}\n", micros, name, action, r.offset, r.size);
      (c == OpClass::read ? summary.reads : summary.writes) += 1;
      (c == OpClass::read ? summary.bytes_read : summary.bytes_written) += static_cast<std::uint64_t>(r.size);
    }
    else if (c == OpClass::open || c == OpClass::close)
      log += fmt::format("{} {} {}\n", micros, name, action);
    else  // sync and datasync are I/O for fio: with an offset and a length, or it takes them as file actions
      log += fmt::format("{} {} {} 0 0\n", micros, name, action);
    ++summary.logged;
  }
  return logs;
}

// A job file's comment and [global] section; `run` says how fio runs it.
// A server's logs keep no offsets: fio's client writes a log it is sent as
// samples without one (client.c, fio_client_handle_iolog: nr_samples times
// sizeof(struct io_sample), 32 bytes, where a sample with its offset takes
// 40), and so dropped the last fifth of every log of log_offset=1 (fio 3.33
// to 3.39 alike); the reader needs none.
std::string job_header(const std::string& title, const std::string& run, const std::vector<std::string>& options,
                       bool offsets) {
  std::string header = fmt::format(
      "# {}\n# written by gpusynth: one job per process, each replaying its iolog; run ./create_files.sh first,\n"
      "# then {}. startdelay puts every process's first I/O at its time\n"
      "# (fio does not sleep before a log's first I/O); open and close run right after the I/O before\n"
      "# them (fio does not time them); the latency logs (lat/) give completion time\n"
      "# in ms from that start, latency in ns, direction, size and {}.\n"
      "# invalidate=0: the traced application did not drop the page cache when it opened a file.\n"
      "# group_reporting: one summary for all processes (replay_check.py prints the totals per direction).\n"
      "[global]\n",
      title, run,
      offsets ? "offset (log_offset=1)"
              : "priority (log_offset=0: fio's client drops the last fifth of a log sent with offsets)");
  for (const std::string& option : options) header += option.substr(option.find_first_not_of('-')) + "\n";
  return header +
         fmt::format("ioengine=psync\nthread\ninvalidate=0\nlog_offset={}\ngroup_reporting\n\n", offsets ? 1 : 0);
}

// The logs staged with their job files (replay.fio, or one per server with
// its block), one job per process that has I/O; the job starts (startdelay)
// at its first logged I/O, as fio does not sleep before it.
void stage_fio_jobs(const PendingReplayDirectory& directory, std::vector<std::string>& logs,
                    const std::vector<double>& first_time, const std::string& title, const FioServerStaging& servers,
                    const std::string& prefix, FioSummary& summary) {
  std::vector<FioJobFile> files = servers.job_files;
  if (files.empty()) files.push_back({"replay.fio", "", {0, static_cast<std::int32_t>(logs.size())}});
  for (const FioJobFile& file : files) {
    const std::int32_t last = file.block.first + file.block.count - 1;
    std::string job = job_header(
        title,
        file.client.empty() ? std::string("fio replay.fio in this directory")
                            : fmt::format("fio --client={} {} here (processes {} to {}; its paths are absolute)",
                                          file.client, file.name, file.block.first, last),
        servers.job_options, file.client.empty());
    bool jobs = false;
    for (std::int32_t rank = file.block.first; rank <= last; ++rank) {
      throw_if_interrupted();      // a file written per step
      if (first_time[rank] < 0) {  // fio refuses a log without I/O: the process has no job
        ++summary.processes_without_io;
        continue;
      }
      directory.write(fmt::format("rank_{}.iolog", rank), logs[rank]);
      std::string().swap(logs[rank]);
      job += fmt::format("[rank_{}]\nread_iolog={}rank_{}.iolog\nwrite_lat_log=lat/rank_{}\nstartdelay={}us\n\n", rank,
                         prefix, rank, rank, std::llround(std::max(0.0, first_time[rank]) * 1e6));
      jobs = true;
    }
    if (!jobs) continue;  // a server whose processes have no I/O: fio would find no job in its file
    directory.write(file.name, job);
    summary.job_files.push_back(file.name);
  }
}

// create_files.sh: the replay's files, sparse, at the sizes the requests reach.
std::string create_files_script(const Workload& workload) {
  const RequestTable& t = workload.table;
  std::string script =
      "#!/bin/sh\n# Creates the files of the replay, sparse, at the sizes the requests reach (written by gpusynth).\n"
      "set -e\ncd \"$(dirname \"$0\")\"\nmkdir -p files lat\n";
  for (std::size_t f = 0; f < t.files.size(); ++f) {
    poll_interrupts(f);
    std::int64_t size = 0;
    if (f < workload.files.size()) size = workload.files[f].size;
    script += fmt::format("truncate -s {} {}  # {}\n", std::max<std::int64_t>(size, 0),
                          shell_quoted(replay_name(f, t.files[f])), t.files[f]);
  }
  return script;
}

}  // namespace

FioSummary stage_fio_replay(const PendingReplayDirectory& directory, const Workload& workload, const std::string& title,
                            const FioServerStaging& servers) {
  const RequestTable& t = workload.table;
  FioSummary summary;
  summary.processes = static_cast<std::uint64_t>(workload.processes);
  std::vector<double> first_time(static_cast<std::size_t>(workload.processes), -1);
  std::uint64_t data_requests = 0;
  for (std::size_t i = 0; i < t.requests.size(); ++i) {
    poll_interrupts(i);
    const Request& r = t.requests[i];
    data_requests += is_data(t.op_class(r));
    if (logged_io(t, r) && first_time[r.rank] < 0) first_time[r.rank] = r.start;
  }
  if (std::none_of(first_time.begin(), first_time.end(), [](double time) { return time >= 0; }))
    throw UserError(
        fmt::format("fio output '{}': none of the {} processes has a data request fio can issue (the {} "
                    "data requests are without offset, of 0 bytes or of 4 GiB or more): a replay.fio "
                    "without jobs replays nothing",
                    directory.path(), workload.processes, data_requests));
  // A server opens the files from its own working directory: by their absolute paths.
  const std::string prefix = servers.job_files.empty()
                                 ? ""
                                 : std::filesystem::absolute(directory.temp_path()).lexically_normal().string() + "/";
  std::vector<std::string> logs = fio_logs(workload, first_time, prefix, summary);
  stage_fio_jobs(directory, logs, first_time, title, servers, prefix, summary);
  directory.write("create_files.sh", create_files_script(workload));
  for (const FileInfo& f : workload.files) summary.file_bytes += static_cast<std::uint64_t>(std::max<std::int64_t>(f.size, 0));
  ::chmod((directory.temp_path() + "/create_files.sh").c_str(), 0755);
  write_marker(directory.temp_path(), kReplayMarker, title + "\n");
  return summary;
}

std::string FioSummary::volume(std::uint64_t files) const {
  return fmt::format(
      "{} reads of {} and {} writes of {} into {} files, at most {} in all (made sparse by "
      "create_files.sh)",
      reads, format_bytes(bytes_read), writes, format_bytes(bytes_written), files, format_bytes(file_bytes));
}

FioSummary write_fio_replay(const std::string& directory, const Workload& workload, const std::string& title) {
  PendingReplayDirectory pending(directory, "fio output");
  const FioSummary summary = stage_fio_replay(pending, workload, title);
  throw_if_interrupted();
  pending.sync();
  pending.publish();
  return summary;
}

namespace {

// Each file's first 512-byte sector on DiskSim's device 0: the files end to
// end, each starting 4 KiB aligned. Counted in sectors, not bytes: files of up
// to 2^62 bytes each (the synthesis's bound) would overflow a byte address
// after two of them.
std::vector<std::int64_t> disksim_first_sectors(const Workload& workload) {
  constexpr std::int64_t kPageBytes = 4096;
  constexpr std::int64_t kSectorsPerPage = kPageBytes / static_cast<std::int64_t>(kSectorBytes);
  // A request's sector is its file's first plus at most 2^62 / 512 = 2^53: both in int64.
  constexpr std::int64_t kMaxFirstSector = std::int64_t{1} << 62;
  const RequestTable& t = workload.table;
  std::vector<std::int64_t> first(t.files.size(), 0);
  std::int64_t next = 0;
  for (std::size_t f = 0; f < t.files.size(); ++f) {
    first[f] = next;
    const std::int64_t size = f < workload.files.size() ? std::max<std::int64_t>(workload.files[f].size, 0) : 0;
    const std::int64_t pages = size / kPageBytes + (size % kPageBytes != 0);
    if (pages > (kMaxFirstSector - next) / kSectorsPerPage)
      throw UserError(fmt::format(
          "disksim output: the {} files laid end to end on one device pass sector 2^62 at file {} ('{}'); "
          "accepted: files of 2^71 bytes (2 ZiB) in all",
          t.files.size(), f, t.files[f]));
    next += pages * kSectorsPerPage;
  }
  return first;
}

}  // namespace

std::string disksim_text(const Workload& workload) {
  const RequestTable& t = workload.table;
  const std::vector<std::int64_t> first_sector = disksim_first_sectors(workload);
  const auto sector_bytes = static_cast<std::int64_t>(kSectorBytes);
  std::string text;
  for (std::size_t i = 0; i < t.requests.size(); ++i) {
    poll_interrupts(i);
    const Request& r = t.requests[i];
    const OpClass c = t.op_class(r);
    if (!is_data(c) || r.file < 0 || r.offset == kUnknown || r.size <= 0) continue;
    const std::int64_t sectors =
        std::max<std::int64_t>(1, (r.offset % sector_bytes + r.size + sector_bytes - 1) / sector_bytes);
    text += fmt::format("{:.6f} 0 {} {} {}\n", r.start * 1e3, first_sector[r.file] + r.offset / sector_bytes, sectors,
                        c == OpClass::read ? 1 : 0);
  }
  return text;
}

void write_disksim(const std::string& path, const Workload& workload) {
  write_file_atomically(path, disksim_text(workload), "disksim");
}

std::string dxt_text(const Workload& workload) {
  const RequestTable& t = workload.table;
  std::map<std::pair<std::int32_t, std::int32_t>, std::vector<const Request*>> blocks;  // (file, rank)
  for (std::size_t i = 0; i < t.requests.size(); ++i) {
    poll_interrupts(i);
    const Request& r = t.requests[i];
    if (is_data(t.op_class(r)) && r.file >= 0) blocks[{r.file, r.rank}].push_back(&r);
  }
  std::string text = fmt::format(
      "# darshan-dxt-parser-like text written by gpusynth (docs/requests.md)\n# start_time: 0\n# nprocs: {}\n\n",
      workload.processes);
  std::size_t lines = 0;
  for (const auto& [key, requests] : blocks) {
    const auto& [file, rank] = key;
    const auto reads = std::count_if(requests.begin(), requests.end(),
                                     [&](const Request* r) { return t.op_class(*r) == OpClass::read; });
    // The counts let a reader tell a block cut short (io/traces/dxt_blocks.hpp).
    text += fmt::format(
        "# DXT, file_id: {}, file_name: {}\n# DXT, rank: {}, hostname: gpusynth\n"
        "# DXT, write_count: {}, read_count: {}\n",
        file, t.files[file], rank, static_cast<std::ptrdiff_t>(requests.size()) - reads, reads);
    text += "# Module    Rank  Wt/Rd  Segment          Offset          Length    Start(s)      End(s)\n";
    std::size_t segment = 0;
    for (const Request* r : requests) {
      poll_interrupts(++lines);
      const bool mpi = is_mpi_operation(t.op_name(*r));
      text += fmt::format(" {} {:>7} {:>6} {:>8} {:>15} {:>15} {:>11.6f} {:>11.6f}\n", mpi ? "X_MPIIO" : "X_POSIX",
                          rank, t.op_class(*r) == OpClass::read ? "read" : "write", segment++,
                          std::max<std::int64_t>(r->offset, 0), std::max<std::int64_t>(r->size, 0), r->start,
                          r->start + r->duration);
    }
    text += "\n";
  }
  return text;
}

void write_dxt_text(const std::string& path, const Workload& workload) {
  write_file_atomically(path, dxt_text(workload), "dxt");
}

}  // namespace gs
