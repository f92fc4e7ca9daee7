#include "io/fio_logs.hpp"

#include <fmt/format.h>

#include <cmath>
#include <filesystem>
#include <map>
#include <regex>
#include <set>

#include "host/base/errors.hpp"
#include "io/line_reader.hpp"

namespace gs {

namespace {

struct Job {
  std::string iolog, latency_prefix;
  double start = 0;  // startdelay, s
};

// A path of a job file: relative to the replay's folder, or absolute (a server's job file).
std::string in_folder(const std::string& directory, const std::string& path) {
  return !path.empty() && path.front() == '/' ? path : directory + "/" + path;
}

// [rank_N] jobs with read_iolog=, write_lat_log= and startdelay=<us>us, as stage_fio_jobs writes them,
// added to `jobs`.
void add_jobs_of(const std::string& directory, const std::string& file, std::map<std::string, Job>& jobs) {
  const std::string path = directory + "/" + file;
  LineReader reader(path);
  std::string line, job;
  const std::regex section(R"(\[([A-Za-z0-9_]+)\])"), setting(R"(([a-z_]+)=(.*))");
  while (reader.next(line)) {
    std::smatch m;
    if (std::regex_match(line, m, section)) {
      job = m[1] == "global" ? "" : m[1].str();
      continue;
    }
    if (job.empty() || !std::regex_match(line, m, setting)) continue;
    Job& j = jobs[job];
    if (m[1] == "read_iolog") j.iolog = in_folder(directory, m[2].str());
    if (m[1] == "write_lat_log") j.latency_prefix = in_folder(directory, m[2].str());
    if (m[1] == "startdelay") {
      double micros = 0;
      const std::string value = m[2];
      if (value.size() < 3 || value.substr(value.size() - 2) != "us" ||
          !parse_number(value.substr(0, value.size() - 2), micros) || micros < 0)
        throw UserError(fmt::format("{}:{}: startdelay '{}' is not gpusynth's (microseconds, e.g. 32143us)", path,
                                    reader.line_number(), value));
      j.start = micros / 1e6;
    }
  }
  for (const auto& [name, j] : jobs)
    if (j.iolog.empty() || j.latency_prefix.empty())
      throw UserError(
          fmt::format("{}: job [{}] has no read_iolog or write_lat_log: not a replay gpusynth staged", path, name));
}

// An iolog entry of a process, in its order: a data request (read/write and
// its size) or a metadata operation fio runs (open, close, sync, datasync).
struct LoggedEntry {
  bool data = false, read = false;
  double bytes = 0;
};

std::vector<LoggedEntry> iolog_entries(const std::string& path) {
  LineReader reader(path);
  std::vector<LoggedEntry> entries;
  std::string line;
  if (!reader.next(line) || line != "fio version 3 iolog")
    throw UserError(fmt::format("{}:1: not a fio version 3 iolog", path));
  while (reader.next(line)) {
    const std::vector<std::string_view> f = split_fields(line, ' ');
    if (f.size() < 3)
      throw UserError(fmt::format("{}:{}: '{}' is not an iolog entry (time file action)", path, reader.line_number(),
                                  line.substr(0, 80)));
    const std::string_view action = f[2];
    LoggedEntry e;
    if (action == "read" || action == "write") {
      if (f.size() < 5 || !parse_number(f[4], e.bytes))
        throw UserError(
            fmt::format("{}:{}: '{}': a {} without its size", path, reader.line_number(), line.substr(0, 80), action));
      e.data = true;
      e.read = action == "read";
    } else if (action == "add") {
      continue;  // a file made known, no operation
    }
    entries.push_back(e);
  }
  return entries;
}

// The latency logs in the folders of the jobs' logs, listed once (a replay
// of 4096 processes would list its folder 4096 times). fio names a job's log
// PREFIX_lat.N.log (N: the job's number); in client/server mode the client
// writes a server's as PREFIX_lat.N.log.HOST (fio's client.c, fio_client_handle_iolog).
class LatencyLogs {
 public:
  explicit LatencyLogs(const std::map<std::string, Job>& jobs) {
    namespace fs = std::filesystem;
    std::set<fs::path> folders;
    for (const auto& [name, job] : jobs) folders.insert(fs::path(job.latency_prefix).parent_path());
    for (const fs::path& folder : folders) {
      std::error_code ec;
      for (const fs::directory_entry& entry : fs::directory_iterator(folder, ec)) paths_.insert(entry.path().string());
    }
  }

  std::string of(const std::string& prefix) const {
    const std::string stem = prefix + "_lat.";
    for (auto it = paths_.lower_bound(stem); it != paths_.end() && it->compare(0, stem.size(), stem) == 0; ++it) {
      const std::size_t log = it->find(".log", stem.size());
      if (log != std::string::npos && (log + 4 == it->size() || (*it)[log + 4] == '.')) return *it;
    }
    throw UserError(
        fmt::format("no latency log {}*.log: fio did not write it (did the replay run?)", prefix + "_lat."));
  }

 private:
  std::set<std::string> paths_;
};

void add_job(const Job& job, const LatencyLogs& logs, ReplayRecord& record) {
  const std::vector<LoggedEntry> entries = iolog_entries(job.iolog);
  const std::string log = logs.of(job.latency_prefix);
  LineReader reader(log);
  std::string line;
  double last_completion = job.start;
  std::size_t next = 0;  // the iolog entry the next latency line completes
  const auto run_metadata_up_to_data = [&] {
    for (; next < entries.size() && !entries[next].data; ++next) record.metadata_times.push_back(last_completion);
  };
  while (reader.next(line)) {
    if (trim(line).empty()) continue;
    const std::vector<std::string_view> f = split_fields(line, ',');
    double v[5];
    bool ok = f.size() >= 5;
    for (int i = 0; ok && i < 5; ++i) ok = parse_number(trim(f[i]), v[i]) && v[i] >= 0 && std::isfinite(v[i]);
    if (!ok || (v[2] != 0 && v[2] != 1))
      throw UserError(
          fmt::format("{}:{}: '{}' is not a line of fio's latency log of reads and writes (time in ms, "
                      "latency in ns, direction 0/1, size, offset)",
                      log, reader.line_number(), line.substr(0, 80)));
    run_metadata_up_to_data();
    if (next == entries.size() || entries[next].read != (v[2] == 0) || entries[next].bytes != v[3])
      throw UserError(fmt::format(
          "{}:{}: fio logged a {} of {} bytes where {} holds {}", log, reader.line_number(),
          v[2] == 0 ? "read" : "write", v[3], job.iolog,
          next == entries.size()
              ? std::string("no more data requests")
              : fmt::format("a {} of {} bytes", entries[next].read ? "read" : "write", entries[next].bytes)));
    ReplayedIo io;
    io.completion = job.start + v[0] / 1e3;
    io.latency = v[1] / 1e9;
    io.issue = io.completion - io.latency;
    io.bytes = v[3];
    io.read = v[2] == 0;
    record.ios.push_back(io);
    last_completion = io.completion;
    ++next;
  }
  run_metadata_up_to_data();
  if (next != entries.size())
    throw UserError(fmt::format("{}: {} lines, {} holds more data requests: fio stopped before the end of the replay",
                                log, reader.line_number(), job.iolog));
}

}  // namespace

ReplayRecord read_fio_replay(const std::string& directory, const std::vector<std::string>& job_files) {
  ReplayRecord record;
  std::map<std::string, Job> jobs;  // by name: the processes in the order of a local replay's one replay.fio
  for (const std::string& file : job_files) add_jobs_of(directory, file, jobs);
  if (jobs.empty())
    throw UserError(fmt::format("{}/{} holds no job", directory, job_files.empty() ? "replay.fio" : job_files.front()));
  const LatencyLogs logs(jobs);
  for (const auto& [name, job] : jobs) add_job(job, logs, record);
  return record;
}

}  // namespace gs
