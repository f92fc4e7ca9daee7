#include "io/fio_logs.hpp"

#include <fmt/format.h>

#include <cmath>
#include <filesystem>
#include <map>
#include <regex>

#include "host/base/errors.hpp"
#include "io/line_reader.hpp"

namespace gs {

namespace {

struct Job {
  std::string iolog, latency_prefix;
  double start = 0;  // startdelay, s
};

// [rank_N] jobs with read_iolog=, write_lat_log= and startdelay=<us>us, as stage_fio_jobs writes them.
std::map<std::string, Job> jobs_of(const std::string& directory) {
  const std::string path = directory + "/replay.fio";
  LineReader reader(path);
  std::map<std::string, Job> jobs;
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
    if (m[1] == "read_iolog") j.iolog = directory + "/" + m[2].str();
    if (m[1] == "write_lat_log") j.latency_prefix = directory + "/" + m[2].str();
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
  return jobs;
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

// fio names a job's latency log PREFIX_lat.N.log (N: the job's number).
std::string latency_log_of(const std::string& prefix) {
  namespace fs = std::filesystem;
  const fs::path folder = fs::path(prefix).parent_path();
  const std::string stem = fs::path(prefix).filename().string() + "_lat.";
  std::error_code ec;
  for (const fs::directory_entry& entry : fs::directory_iterator(folder, ec)) {
    const std::string name = entry.path().filename().string();
    if (name.compare(0, stem.size(), stem) == 0 && name.size() > 4 && name.substr(name.size() - 4) == ".log")
      return entry.path().string();
  }
  throw UserError(fmt::format("no latency log {}*.log: fio did not write it (did the replay run?)", prefix + "_lat."));
}

void add_job(const Job& job, ReplayRecord& record) {
  const std::vector<LoggedEntry> entries = iolog_entries(job.iolog);
  const std::string log = latency_log_of(job.latency_prefix);
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

ReplayRecord read_fio_replay(const std::string& directory) {
  ReplayRecord record;
  const std::map<std::string, Job> jobs = jobs_of(directory);
  if (jobs.empty()) throw UserError(fmt::format("{}/replay.fio holds no job", directory));
  for (const auto& [name, job] : jobs) add_job(job, record);
  return record;
}

}  // namespace gs
