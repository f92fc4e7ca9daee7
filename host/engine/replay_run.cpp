#include "host/engine/replay_run.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "host/base/child_process.hpp"
#include "host/base/errors.hpp"
#include "host/base/interrupt.hpp"
#include "host/base/mounts.hpp"
#include "host/base/progress.hpp"
#include "host/base/sysinfo.hpp"
#include "io/fio_logs.hpp"
#include "io/fio_servers.hpp"
#include "io/request_texts.hpp"
#include "kernels/philox.hpp"

namespace gs {

namespace {

constexpr double kDefaultBinSeconds = 0.1;  // slack-timed entries have no bins of their own
constexpr double kBlockBytes = 4096;        // a write allocates whole blocks of its sparse file
constexpr double kLogBytesPerRequest = 96;  // its iolog line and its latency-log line
constexpr const char* kReplayFolder = "gpusynth-replay";  // each replay's folder in the target
constexpr double kBandSeries = 4;   // /replay/<name>'s per-bin series beside the replays' (bands, coverage)
constexpr double kReplaySlack = 2;  // a replay planned to run up to this much longer than the trace's pace

// An entry a replay takes, and its plan (the trace's characterization).
struct ChosenEntry {
  const RequestsSpec* spec;
  const RequestsPlan::Entry* planned;
};

// The entries `options.entries` names (all when empty); an unknown name is a UserError.
std::vector<ChosenEntry> chosen_entries(const RunConfig& config, const RequestsPlan& plan,
                                        const ReplayOptions& options) {
  std::vector<std::string> names;
  for (const RequestsSpec& spec : config.requests) names.push_back(spec.name);
  if (names.empty())
    throw UserError(
        fmt::format("{}: no 'requests:' section; `gpusynth replay` replays the request-level "
                    "workloads it synthesizes (docs/requests.md)",
                    config.path));
  for (const std::string& name : options.entries)
    if (std::find(names.begin(), names.end(), name) == names.end())
      throw UserError(fmt::format("--entry '{}': {} has no requests: entry of that name; accepted: {}", name,
                                  config.path, fmt::join(names, ", ")));
  std::vector<ChosenEntry> chosen;
  for (std::size_t i = 0; i < config.requests.size(); ++i) {
    const RequestsSpec& spec = config.requests[i];
    if (!options.entries.empty() &&
        std::find(options.entries.begin(), options.entries.end(), spec.name) == options.entries.end())
      continue;
    if (spec.given)
      throw UserError(
          fmt::format("{}: its characteristics are given, not read from a trace: a replay compares the "
                      "replicas with the trace's own requests; give the entry a trace, or leave it out "
                      "with --entry",
                      located(config, spec)));
    if (i >= plan.entries.size() || plan.entries[i].name != spec.name)
      throw InternalError("chosen_entries", "no plan of requests '" + spec.name + "'", __FILE__, __LINE__);
    chosen.push_back({&spec, &plan.entries[i]});
  }
  return chosen;
}

double bin_seconds_of(const RequestsSpec& spec, const ReplayOptions& options) {
  if (options.bin_seconds) return *options.bin_seconds;
  return spec.timing_ensemble.empty() ? kDefaultBinSeconds : spec.bin_width;
}

// The figures over time of an entry's replays, planned: at most
// kMaxReplayBins bins over twice `seconds`, the longest replay expected (a
// replay may run longer than the trace's pace), and their memory within the budget.
void check_replay_bins(const RequestsSpec& spec, const ReplayOptions& options, double seconds,
                       const RequestsPlan& requests) {
  const double width = bin_seconds_of(spec, options);
  const auto bins = static_cast<double>(replay_bins_covering(
      kReplaySlack * seconds, width, fmt::format("the replays of '{}' (twice the longest expected)", spec.name)));
  const double bytes = bins * (options.original_replays + spec.replicas) * kBytesPerReplayBin;
  if (bytes > static_cast<double>(requests.budget))
    throw UserError(
        fmt::format("--bin {} s: {:.3g} bins for each of the {} replays of '{}' take about {} of memory, "
                    "more than the budget of {} ({}); choose a wider --bin or raise --memory-limit",
                    width, bins, options.original_replays + spec.replicas, spec.name, format_estimated_bytes(bytes),
                    format_bytes(requests.budget), requests.budget_source));
}

// The executable fio is, found as execvp finds it, as an absolute path: fio
// runs in a staging folder, where a relative --fio or PATH entry names
// nothing. A UserError when there is none.
std::string find_fio(const std::string& fio) {
  const auto runnable = [](const std::string& path) {
    struct stat info {};
    return stat(path.c_str(), &info) == 0 && S_ISREG(info.st_mode) && access(path.c_str(), X_OK) == 0;
  };
  const auto absolute = [](const std::string& path) {
    return std::filesystem::absolute(path).lexically_normal().string();
  };
  if (fio.find('/') != std::string::npos) {
    if (runnable(fio)) return absolute(fio);
    throw UserError(fmt::format("--fio '{}' is not an executable file", fio));
  }
  const char* path = std::getenv("PATH");
  std::istringstream folders(path ? path : "/usr/bin:/bin");
  for (std::string folder; std::getline(folders, folder, ':');)
    if (runnable((folder.empty() ? "." : folder) + "/" + fio))
      return absolute((folder.empty() ? "." : folder) + "/" + fio);
  throw UserError(
      fmt::format("'{}' is not on PATH: the replays need fio (Debian: apt-get install fio; the README's "
                  "install command has it), or give --fio PATH",
                  fio));
}

// The last `count` lines of a file, each on a line of its own after "\n  "; "" when it has none.
std::string last_lines(const std::string& path, std::size_t count) {
  std::ifstream in(path);
  std::vector<std::string> lines;
  for (std::string line; std::getline(in, line);)
    if (!line.empty()) lines.push_back(line);
  std::string tail;
  for (std::size_t i = lines.size() > count ? lines.size() - count : 0; i < lines.size(); ++i)
    tail += "\n  " + lines[i];
  return tail;
}

// What `fio --version` prints ("fio-3.33"); a UserError naming `fio` when it does not run.
std::string fio_version_of(const std::string& fio) {
  std::string out = (std::filesystem::temp_directory_path() / "gpusynth-fio-version-XXXXXX").string();
  const int fd = mkstemp(out.data());
  if (fd < 0)
    throw UserError(fmt::format("cannot make a temporary file to ask {} its version: {}", fio, std::strerror(errno)));
  close(fd);
  ChildProgram program;
  program.argv = {fio, "--version"};
  program.stdout_path = out;
  const int status = run_child(program);
  std::string version;
  std::getline(std::ifstream(out) >> std::ws, version);
  unlink(out.c_str());
  throw_if_interrupted();
  if (status != 0 || version.empty())
    throw UserError(fmt::format("'{} --version' {}: the replays need a working fio", fio,
                                status != 0 ? describe_wait_status(status) : std::string("printed nothing")));
  return version;
}

void check_target(const std::string& target) {
  struct stat info {};
  if (target.empty()) throw UserError("--target must not be empty: give a directory on the file system under test");
  if (stat(target.c_str(), &info) != 0 || !S_ISDIR(info.st_mode))
    throw UserError(
        fmt::format("--target '{}' is not a directory; give an existing directory on the file system "
                    "under test (the replays create and remove their files inside it)",
                    target));
  if (access(target.c_str(), W_OK | X_OK) != 0) throw UserError(fmt::format("--target '{}' is not writable", target));
}

// The first request's start to the last request's end, s.
double span_of(const Workload& w) {
  double first = INFINITY, last = 0;
  for (const Request& r : w.table.requests) {
    first = std::min(first, r.start);
    last = std::max(last, r.start + std::max(r.duration, 0.0));
  }
  return w.table.requests.empty() ? 0 : last - std::min(first, last);
}

// The traced run's own figures, on the trace's clock as its replay is measured
// (fio starts each process at its first request's time): the last request's end, s.
double last_end_of(const Workload& w) {
  double last = 0;
  for (const Request& r : w.table.requests) last = std::max(last, r.start + std::max(r.duration, 0.0));
  return last;
}

// The bytes of its data requests (those a replay reads and writes).
double data_bytes_of(const Workload& w) {
  double bytes = 0;
  for (const Request& r : w.table.requests)
    if (is_data(w.table.op_class(r)) && r.size > 0) bytes += static_cast<double>(r.size);
  return bytes;
}

// What a replay of `w` may take on the target at most: every write's bytes
// in whole blocks (the files are sparse; a read of a hole takes nothing), and
// the logs.
double space_of(const Workload& w) {
  double bytes = 0;
  for (const Request& r : w.table.requests)
    if (w.table.op_class(r) == OpClass::write && r.size > 0)
      bytes += std::ceil(static_cast<double>(r.size) / kBlockBytes) * kBlockBytes;
  return bytes + kLogBytesPerRequest * static_cast<double>(w.table.requests.size());
}

// The target's free bytes (nothing when they cannot be told), checked against `needed`.
std::optional<std::uint64_t> check_space(const std::string& target, double needed, const std::string& what) {
  const std::optional<std::uint64_t> free = free_space(target);
  if (!free || needed <= static_cast<double>(*free)) return free;
  throw UserError(
      fmt::format("--target '{}': {} needs up to {} (its writes in whole {}-byte blocks, and its logs), "
                  "but the file system has {} free; free space, scale the requests down (overrides: "
                  "SIZE and OFF) or choose another target",
                  target, what, format_estimated_bytes(needed), static_cast<int>(kBlockBytes), format_bytes(*free)));
}

Workload original_of(const ChosenEntry& chosen) {
  return replay_original(chosen.planned->source->characterized->sanitized, chosen.spec->synthesis);
}

std::string duration(double seconds) {
  return seconds < 120 ? fmt::format("{:.0f} s", seconds) : fmt::format("{:.1f} min", seconds / 60);
}

// Characters fio reads back unchanged from an iolog (a name ends at white
// space) and a job file (':' separates file names, '$' starts a variable).
bool fio_path_character(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) || std::strchr("/._+,=@%~-", c) != nullptr;
}

// "0-15 on HOST,PORT, 16-31 on HOST,PORT": where the processes of a replay of `processes` run.
std::string blocks_text(std::int32_t processes, const std::vector<FioServer>& servers) {
  const std::vector<ProcessBlock> blocks = process_blocks(processes, servers.size());
  std::vector<std::string> parts;
  for (std::size_t k = 0; k < blocks.size(); ++k)
    if (blocks[k].count > 0)
      parts.push_back(
          fmt::format("{}-{} on {}", blocks[k].first, blocks[k].first + blocks[k].count - 1, servers[k].argument()));
  return fmt::format("{}", fmt::join(parts, ", "));
}

// "the original's processes 0-15 on A,8765, 16-31 on B,8765; a replica's ...": where they replay.
std::string placement_text(std::int32_t original, std::int32_t synthetic, const std::vector<FioServer>& servers) {
  return fmt::format("the original's processes {}; a replica's {}", blocks_text(original, servers),
                     blocks_text(synthetic, servers));
}

// One replay of `w`, staged in a folder of the target that is removed after;
// with --clients split over the fio servers, one fio client driving them all.
class Replayer {
 public:
  explicit Replayer(const ReplayOptions& options)
      : options_(options),
        fio_(find_fio(options.fio)),
        version_(fio_version_of(fio_)),
        servers_(options.clients.empty() ? std::vector<FioServer>{} : read_fio_servers(options.clients)) {}

  const std::string& fio() const { return fio_; }
  const std::string& fio_version() const { return version_; }
  const std::vector<FioServer>& servers() const { return servers_; }
  // The most processes one replay may have: fio's jobs, on each server.
  std::int64_t max_processes() const {
    return std::int64_t{kFioMaxJobs} * static_cast<std::int64_t>(std::max<std::size_t>(1, servers_.size()));
  }

  ReplayRecord replay(const Workload& w, const std::string& title, bool synthetic) {
    PendingReplayDirectory staged(std::filesystem::absolute(options_.target) / kReplayFolder, "--target's");
    const FioServerStaging staging = staging_of(w, synthetic);
    const FioSummary summary = stage_fio_replay(staged, w, title, staging);
    const std::string& folder = staged.temp_path();
    run({"sh", "create_files.sh"}, folder, "create_files.sh");
    std::vector<std::string> argv = {fio_, "--output-format=json", "--output=fio.json"};
    if (servers_.empty()) {
      argv.insert(argv.end(), options_.fio_options.begin(), options_.fio_options.end());
      if (synthetic)
        argv.insert(argv.end(), options_.synthetic_fio_options.begin(), options_.synthetic_fio_options.end());
      argv.push_back("replay.fio");
    }
    for (const FioJobFile& file : staging.job_files)  // fio's --client=SERVER JOBFILE pairs, one fio for all
      if (std::find(summary.job_files.begin(), summary.job_files.end(), file.name) != summary.job_files.end())
        argv.insert(argv.end(), {"--client=" + file.client, file.name});
    run(argv, folder, "fio");
    try {
      return read_fio_replay(folder, summary.job_files);
    } catch (const UserError& e) {
      // A server that went away after the plan's probe: fio's client replays the others' blocks and says so.
      if (servers_.empty()) throw;
      throw UserError(fmt::format("{}; fio's client said:{}", e.what(), last_lines(folder + "/fio.stderr", 5)));
    }
  }

  // With --clients, before any work: the staging folder's path one fio reads
  // back from job files and iologs, the fio options as job options, and each
  // server answering a 1-byte read of a file there by a job sent to it alone,
  // so that a server that is not running, runs another fio version (fio
  // refuses a client of another) or does not see the target at its path is
  // named now, not after the synthesis. Returns the plan's line.
  std::string check_servers() {
    if (servers_.empty()) return "";
    PendingReplayDirectory staged(std::filesystem::absolute(options_.target) / kReplayFolder, "--target's");
    const std::string folder = std::filesystem::absolute(staged.temp_path()).lexically_normal().string();
    check_server_path(folder);
    check_job_options(staged);
    staged.write("probe", "gpusynth\n");
    staged.write("probe.fio", fmt::format("[probe]\nioengine=psync\nrw=read\nbs=1\nsize=1\nfilename={}/probe\n"
                                          "allow_file_create=0\ninvalidate=0\n",
                                          folder));
    for (const FioServer& server : servers_) {
      std::string tail;
      const int status = run_in({fio_, "--client=" + server.argument(), "probe.fio"}, folder, "probe", tail);
      if (status != 0)
        throw UserError(fmt::format(
            "--clients {}:{}: the fio server {} did not run a 1-byte read of --target's '{}/probe' ({}): each "
            "server must run `fio --server` of {} and see --target at the same path (a shared file "
            "system){}",
            options_.clients, server.line, server.argument(), folder, describe_wait_status(status), version_,
            tail.empty() ? std::string() : "; fio said:" + tail));
    }
    return fmt::format(
        "fio servers (--clients {}): {}, each answered a read of --target at its path; each replay's processes "
        "run in contiguous blocks, one per server, of at most {}\n",
        options_.clients, fmt::join(server_arguments(), " "), kFioMaxJobs);
  }

  std::vector<std::string> server_arguments() const {
    std::vector<std::string> out;
    for (const FioServer& s : servers_) out.push_back(s.argument());
    return out;
  }

 private:
  // The job files of a replay split over the servers (none without --clients):
  // the fio options in them, since fio's client sends its servers no job option of its command line.
  FioServerStaging staging_of(const Workload& w, bool synthetic) const {
    FioServerStaging staging;
    if (servers_.empty()) return staging;
    const std::vector<ProcessBlock> blocks = process_blocks(w.processes, servers_.size());
    for (std::size_t k = 0; k < servers_.size(); ++k)
      if (blocks[k].count > 0)
        staging.job_files.push_back({fmt::format("replay.{}.fio", k), servers_[k].argument(), blocks[k]});
    staging.job_options = options_.fio_options;
    if (synthetic)
      staging.job_options.insert(staging.job_options.end(), options_.synthetic_fio_options.begin(),
                                 options_.synthetic_fio_options.end());
    return staging;
  }

  // The servers open the iologs and the files they name by these absolute
  // paths: fio must read them back unchanged, each name at most what it reads.
  void check_server_path(const std::string& folder) const {
    // The longest name an iolog holds: the folder, files/, the file's index and 80 characters of its name.
    const std::size_t name_room = std::strlen("/files/") + 20 + 1 + 80;
    const auto bad = std::find_if_not(folder.begin(), folder.end(), fio_path_character);
    if (bad == folder.end() && folder.size() + name_room <= kFioIologNameMax) return;
    const std::string target = std::filesystem::absolute(options_.target).lexically_normal().string();
    throw UserError(fmt::format(
        "--target '{}' with --clients: the fio servers read the replay's files by their absolute paths "
        "('{}/files/...') from job files and iologs, {}; choose a target whose absolute path has letters, "
        "digits and /._+,=@%~- only and at most {} characters",
        options_.target, folder,
        bad != folder.end() ? fmt::format("where fio would not read the character '{}' back", *bad)
                            : fmt::format("whose names fio reads up to {} characters", kFioIologNameMax),
        kFioIologNameMax - name_room - std::min(kFioIologNameMax - name_room, folder.size() - target.size())));
  }

  // --fio-option and --synthetic-fio-option go into the servers' job files:
  // each must be --KEY or --KEY=VALUE that fio takes there (fio --parse-only).
  void check_job_options(const PendingReplayDirectory& staged) {
    std::vector<std::string> options = options_.fio_options;
    options.insert(options.end(), options_.synthetic_fio_options.begin(), options_.synthetic_fio_options.end());
    if (options.empty()) return;
    std::string text = "[global]\n";
    for (const std::string& option : options) {
      if (option.size() < 3 || option.compare(0, 2, "--") != 0 || option[2] == '-' ||
          option.find('\n') != std::string::npos)
        throw UserError(
            fmt::format("--fio-option '{}' with --clients: fio's client sends its servers job files "
                        "only, so gpusynth writes each option into them; give a job option as "
                        "--KEY=VALUE or --KEY",
                        option));
      text += option.substr(2) + "\n";
    }
    staged.write("options.fio", text + "[options]\nioengine=null\nsize=1\n");
    std::string tail;
    const int status = run_in({fio_, "--parse-only", "options.fio"}, staged.temp_path(), "options", tail);
    if (status != 0)
      throw UserError(fmt::format(
          "--fio-option or --synthetic-fio-option with --clients: written into the "
          "servers' job files (fio's client sends them no command-line job option), "
          "fio does not take {} there ({}){}",
          fmt::join(options, " "), describe_wait_status(status), tail.empty() ? std::string() : ":" + tail));
  }

  // Runs a program in `folder`, its output kept there: its wait status, and
  // in `tail` its last lines (stderr's; else stdout's, where fio puts some errors).
  int run_in(const std::vector<std::string>& argv, const std::string& folder, const std::string& name,
             std::string& tail) const {
    ChildProgram program;
    program.argv = argv;
    program.directory = folder;
    program.stdout_path = folder + "/" + name + ".stdout";
    program.stderr_path = folder + "/" + name + ".stderr";
    const int status = run_child(program);
    throw_if_interrupted();
    if (status == 0) return status;
    tail = last_lines(program.stderr_path, 5);
    if (tail.empty()) tail = last_lines(program.stdout_path, 5);
    return status;
  }

  // run_in, a failure a UserError with the program's last lines and the free
  // space of the target, since the folder goes with the failure.
  void run(const std::vector<std::string>& argv, const std::string& folder, const std::string& name) {
    std::string tail;
    const int status = run_in(argv, folder, name, tail);
    if (status == 0) return;
    const std::optional<std::uint64_t> free = free_space(options_.target);
    throw UserError(fmt::format(
        "{} failed in a replay folder of --target '{}' ({}; {} free there; the folder is "
        "removed){}",
        name, options_.target, describe_wait_status(status), free ? format_bytes(*free) : std::string("unknown"),
        tail.empty() ? std::string(" without a message") : ":" + tail));
  }

  const ReplayOptions& options_;
  std::string fio_, version_;
  std::vector<FioServer> servers_;
};

// A replay of `processes` runs at most fio's job limit on each fio (one, or each server of --clients).
void check_processes(const std::string& where, const char* what, std::int32_t processes, const ReplayOptions& options,
                     const Replayer& replayer) {
  if (processes <= replayer.max_processes()) return;
  if (replayer.servers().empty())
    throw UserError(
        fmt::format("{}: {} has {} processes and one fio runs at most {} jobs; replay at most {} processes "
                    "(processes: in the entry), or spread them over fio servers with --clients",
                    where, what, processes, kFioMaxJobs, kFioMaxJobs));
  throw UserError(fmt::format(
      "{}: {} has {} processes and each fio server runs at most {} jobs: the {} servers of --clients {} run at "
      "most {}; list at least {} servers, or replay fewer processes (processes: in the entry)",
      where, what, processes, kFioMaxJobs, replayer.servers().size(), options.clients, replayer.max_processes(),
      (processes + kFioMaxJobs - 1) / kFioMaxJobs));
}

std::vector<Attribute> replay_attributes(const RequestsSpec& spec, const ReplayOptions& options,
                                         const Replayer& replayer, std::int32_t original_processes,
                                         std::int32_t synthetic_processes) {
  const MountInfo mount = mount_of(options.target);
  std::vector<Attribute> servers;
  if (!replayer.servers().empty())
    servers = {{"fio_servers", fmt::format("{}", fmt::join(replayer.server_arguments(), " "))},
               {"fio_server_processes", placement_text(original_processes, synthetic_processes, replayer.servers()) +
                                            " (contiguous blocks, one fio client driving every server)"}};
  std::vector<Attribute> attributes = {
      {"target", options.target},
      {"filesystem_type", mount.type},
      {"filesystem_device", mount.device},
      {"filesystem_mount_options", mount.options},
      {"filesystem_mount_point", mount.mount_point},
      {"fio", replayer.fio_version()},
      {"fio_options", fmt::format("{}", fmt::join(options.fio_options, " "))},
      {"synthetic_fio_options", fmt::format("{}", fmt::join(options.synthetic_fio_options, " "))},
      {"original", std::string("the trace's own requests (sanitized, every rank at its recorded times), sizes and "
                               "offsets through the entry's SIZE and OFF overrides as the replicas'")},
      {"original_processes", static_cast<std::int64_t>(original_processes)},
      {"synthetic_processes", static_cast<std::int64_t>(synthetic_processes)},
      {"mode", std::string(spec.synthesis.template_mode ? "template" : "sample")},
      {"timing", timing_text(spec)},
      {"measured",
       std::string("from fio's latency logs (log_offset=1, psync: one request at a time per process): completion "
                   "= the job's startdelay + the logged time, issue = completion - latency; an open, close or sync "
                   "of an iolog runs at the completion of the I/O before it")}};
  attributes.insert(attributes.begin() + 6, servers.begin(), servers.end());  // after fio's version
  return attributes;
}

}  // namespace

std::string plan_replays(const RunConfig& config, const RequestsPlan& requests, const ReplayOptions& options,
                         double* file_bytes) {
  check_target(options.target);
  // The folder each replay is staged in: a user's file or folder of that name is refused now.
  resolve_replay_directory((std::filesystem::path(options.target) / kReplayFolder).string(), "--target's");
  Replayer replayer(options);  // fio found, its version, the servers of --clients
  if (options.bin_seconds && !(*options.bin_seconds > 0 && *options.bin_seconds <= 1e6))
    throw UserError(fmt::format("--bin {}: accepted: a width from 1 ns to 10^6 s", *options.bin_seconds));
  std::string text;
  double largest = 0, total_seconds = 0;
  std::string largest_what;
  for (const ChosenEntry& chosen : chosen_entries(config, requests, options)) {
    const RequestsSpec* spec = chosen.spec;
    const RequestsPlan::Entry* entry = chosen.planned;
    const Workload original = original_of(chosen);
    const double original_seconds = span_of(original);
    double synthetic_seconds = original_seconds;
    for (const EnsembleSpec& e : config.ensembles)
      if (e.name == spec->timing_ensemble) synthetic_seconds = static_cast<double>(e.length) * spec->bin_width;
    const SynthesisVolume& v = entry->volume;
    const double synthetic_space =
        v.bytes_written + v.writes * kBlockBytes + kLogBytesPerRequest * entry->size.replica_requests;
    const double seconds = options.original_replays * original_seconds + spec->replicas * synthetic_seconds;
    total_seconds += seconds;
    for (const auto& [processes, what] :
         {std::pair{original.processes, "the original"}, std::pair{entry->source->processes, "a replica"}})
      check_processes(located(config, *spec), what, processes, options, replayer);
    check_replay_bins(*spec, options, std::max(original_seconds, synthetic_seconds), requests);
    // In the run's file, /replay/<name>: per bin, each replay's series and the bands over them.
    if (file_bytes)
      *file_bytes += std::ceil(std::max(original_seconds, synthetic_seconds) / bin_seconds_of(*spec, options)) *
                     (options.original_replays + spec->replicas + kBandSeries) * kBytesPerReplayBin;
    for (const auto& [space, what] :
         {std::pair{space_of(original), "the original's replay"}, std::pair{synthetic_space, "a replica's replay"}})
      if (space > largest) {
        largest = space;
        largest_what = fmt::format("{} of '{}'", what, spec->name);
      }
    text += fmt::format(
        "replay '{}': {} replays of the original ({} processes, about {} each, writing up to {}) and {} of replicas "
        "({} processes, about {} each, writing up to {}), bins of {} s: about {} of fio time at the trace's pace, "
        "longer where the target is slower than the traced system\n",
        spec->name, options.original_replays, original.processes, duration(original_seconds),
        format_estimated_bytes(space_of(original)), spec->replicas, entry->source->processes,
        duration(synthetic_seconds), format_estimated_bytes(synthetic_space), bin_seconds_of(*spec, options),
        duration(seconds));
    if (!replayer.servers().empty())
      text += fmt::format("  on the fio servers: {}\n",
                          placement_text(original.processes, entry->source->processes, replayer.servers()));
  }
  text += fmt::format("fio: {} ({})\n", replayer.fio(), replayer.fio_version());
  const std::optional<std::uint64_t> free = check_space(options.target, largest, largest_what);
  text += fmt::format(
      "replays in '{}', one at a time, each removed after: up to {} at once ({}), {} free there; "
      "about {} in all\n",
      options.target, format_estimated_bytes(largest), largest_what,
      free ? format_bytes(*free) : std::string("unknown"), duration(total_seconds));
  return text + replayer.check_servers();
}

std::vector<ReplayResult> replay_requests(const RunConfig& config, const RequestsPlan& plan,
                                          const std::vector<RequestsOutcome>& outcomes, const ReplayOptions& options,
                                          const ExecutionContext& context) {
  std::vector<std::pair<const RequestsSpec*, Workload>> originals;
  double largest = 0;
  std::size_t replays = 0;
  for (const ChosenEntry& chosen : chosen_entries(config, plan, options)) {
    const RequestsSpec* spec = chosen.spec;
    originals.emplace_back(spec, original_of(chosen));
    largest = std::max(largest, space_of(originals.back().second));
    for (const RequestsOutcome& o : outcomes)
      if (o.name == spec->name)
        for (const Workload& w : o.replicas) largest = std::max(largest, space_of(w));
    replays += options.original_replays + spec->replicas;
  }
  check_space(options.target, largest, "the largest replay");
  Replayer replayer(options);
  std::vector<ReplayResult> results;
  std::size_t done = 0;
  for (const auto& entry : originals) {
    const RequestsSpec* spec = entry.first;  // named, not bound: C++17 lambdas cannot capture a structured binding
    const Workload& original = entry.second;
    const RequestsOutcome& outcome =
        *std::find_if(outcomes.begin(), outcomes.end(), [&](const RequestsOutcome& o) { return o.name == spec->name; });
    const auto one = [&](const Workload& w, const std::string& label, bool synthetic) {
      const auto start = std::chrono::steady_clock::now();
      context.log(fmt::format("replay {}/{} of '{}': {} ({} processes, {} requests)", ++done, replays, spec->name,
                              label, w.processes, w.table.requests.size()));
      ReplayRecord record = replayer.replay(
          w, fmt::format("requests '{}' of {}, {}, replayed by gpusynth replay", spec->name, config.path, label),
          synthetic);
      context.log(fmt::format("  done in {:.1f} s: {} data requests, {} in {:.2f} s", seconds_since(start),
                              record.ios.size(), format_estimated_bytes(record.bytes()), record.run_time()));
      return record;
    };
    std::vector<ReplayRecord> original_records, synthetic_records;
    for (std::uint32_t k = 0; k < options.original_replays; ++k)
      original_records.push_back(one(original, fmt::format("original, replay {}", k + 1), false));
    for (std::size_t r = 0; r < outcome.replicas.size(); ++r)
      synthetic_records.push_back(one(outcome.replicas[r], fmt::format("replica {}", r), true));
    const std::int32_t synthetic_processes = outcome.replicas.empty() ? 0 : outcome.replicas.front().processes;
    std::vector<std::string> warnings;
    if (synthetic_processes != original.processes)
      warnings.push_back(
          fmt::format("the original has {} processes and the replicas {}: the figures compare loads "
                      "of different sizes (set processes: 0 to synthesize the trace's)",
                      original.processes, synthetic_processes));
    if (std::string w = page_cache_warning(original_records.front()); !w.empty())
      warnings.push_back("the original's first replay: " + std::move(w));
    FidelityOptions fidelity;
    fidelity.bin_seconds = bin_seconds_of(*spec, options);
    fidelity.seed = config.seed;
    fidelity.stream = stream_of_name("replay/" + spec->name);
    fidelity.trace_run_time = last_end_of(original);
    fidelity.trace_bytes = data_bytes_of(original);
    ReplayResult result;
    result.name = spec->name;
    try {
      result.fidelity = assess_replay_fidelity(original_records, synthetic_records, fidelity);
    } catch (const UserError& e) {
      throw UserError(fmt::format("{}: {}", located(config, *spec), e.what()));
    }
    result.attributes = replay_attributes(*spec, options, replayer, original.processes, synthetic_processes);
    for (std::string& w : fidelity_shortfalls(result.fidelity)) warnings.push_back("fidelity: " + std::move(w));
    for (const std::string& w : warnings) context.log(fmt::format("warning: replay '{}': {}", spec->name, w));
    // The one home of a replay's warnings in the file: the report's caveats read them there.
    if (!warnings.empty()) result.attributes.push_back({"warnings", fmt::format("{}", fmt::join(warnings, "; "))});
    results.push_back(std::move(result));
  }
  return results;
}

}  // namespace gs
