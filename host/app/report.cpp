#include "host/app/report.hpp"

#include <fcntl.h>
#include <fmt/format.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <system_error>

#include "host/base/child_process.hpp"
#include "host/base/errors.hpp"
#include "host/base/interrupt.hpp"
#include "host/base/output_file.hpp"
#include "host/base/run_paths.hpp"
#include "io/ensemble_file.hpp"
#include "io/hdf5_library.hpp"

namespace gs {

namespace {

namespace fs = std::filesystem;

constexpr int kMaxSymlinkHops = 40;        // as the kernel's ELOOP limit
constexpr double kChildGraceSeconds = 10;  // after a forwarded signal, before SIGKILL

std::string environment_or(const char* name, const std::string& fallback) {
  const char* value = std::getenv(name);
  return value && *value ? value : fallback;
}

// The directory that `-o PATH` names, links followed (the directory a link
// points to is replaced, the link stays, as for files): nothing there, an
// empty directory or a report gpusynth wrote (it holds kReportMarker; an
// index.html alone proves nothing). Anything else, and a directory holding
// the results file, is refused before any work, as output_file.hpp refuses
// what is not a file.
std::string resolve_report_target(const std::string& path, const std::string& results) {
  if (path.empty()) throw UserError("-o must not be empty");
  fs::path target = fs::absolute(path).lexically_normal();
  if (!target.has_filename()) target = target.parent_path();  // "out/report/"
  if (!target.has_filename() || target.filename() == "..")
    throw UserError(fmt::format("-o '{}': give the path of a directory to write the report to, e.g. out/report", path));
  const fs::path given = target;
  for (int hop = 0;; ++hop) {
    struct stat info {};
    if (lstat(target.c_str(), &info) != 0) {
      if (errno != ENOENT)
        throw UserError(fmt::format("-o '{}': cannot inspect '{}': {}", path, target.string(), std::strerror(errno)));
      break;  // a new directory
    }
    if (S_ISDIR(info.st_mode)) {
      std::error_code ec;
      const bool empty = fs::is_empty(target, ec);
      if (ec) throw UserError(fmt::format("-o '{}': cannot list '{}': {}", path, target.string(), ec.message()));
      if (!empty && !holds_marker(target.string(), kReportMarker))
        throw UserError(
            fmt::format("-o '{}' is a directory that holds no report gpusynth wrote (no {}); gpusynth "
                        "replaces only its own reports: choose another directory",
                        path, kReportMarker));
      if (access(target.c_str(), W_OK) != 0)
        throw UserError(fmt::format("-o '{}': the report there is read-only; it is left as it is", path));
      break;
    }
    if (!S_ISLNK(info.st_mode))
      throw UserError(
          fmt::format("-o '{}' is {}; the report is a directory: give a new path or a directory that "
                      "holds a report",
                      target == given ? path : path + "' -> '" + target.string(), file_kind(info.st_mode)));
    if (hop == kMaxSymlinkHops)
      throw UserError(fmt::format("-o '{}': more than {} symbolic links in a chain", path, kMaxSymlinkHops));
    std::error_code ec;
    const fs::path link = fs::read_symlink(target, ec);
    if (ec) throw UserError(fmt::format("-o '{}': cannot read the link '{}': {}", path, target.string(), ec.message()));
    target = (link.is_absolute() ? link : target.parent_path() / link).lexically_normal();
  }
  RunPaths paths;  // the results file may not lie inside the directory replaced
  paths.add_output(fmt::format("-o '{}'", path), target.string(), "", true);
  paths.add_input("the results file", results);
  paths.check();
  const fs::path directory = target.parent_path();
  struct stat info {};
  if (stat(directory.c_str(), &info) != 0 || !S_ISDIR(info.st_mode))
    throw UserError(fmt::format("-o '{}': the directory '{}' does not exist; create it first or choose another path",
                                path, directory.string()));
  if (access(directory.c_str(), W_OK) != 0)
    throw UserError(fmt::format("-o '{}': the directory '{}' is not writable", path, directory.string()));
  return target.string();
}

// The report's directory while it is drawn: ".NAME.tmp-HOST-PID" beside the
// target, removed with what is in it unless committed. commit() puts it in
// place of the target in one rename (exchanged with an old report, which is
// then removed), so the target is the old report or the new one, never part
// of one.
class StagingDirectory {
 public:
  StagingDirectory(std::string path, std::string target) : path_(std::move(path)), target_(std::move(target)) {
    remove_stale_temporaries_of(target_);  // and their ".old" twins
    staging_ = (fs::path(target_).parent_path() / (temporary_prefix(target_) + std::to_string(getpid()))).string();
    if (mkdir(staging_.c_str(), 0777) != 0)
      throw UserError(fmt::format("-o '{}': cannot create a directory in '{}': {}", path_,
                                  fs::path(target_).parent_path().string(), std::strerror(errno)));
    write_marker(staging_, kReportMarker, "a report gpusynth wrote; `gpusynth report -o` replaces it\n");
  }
  StagingDirectory(const StagingDirectory&) = delete;
  StagingDirectory& operator=(const StagingDirectory&) = delete;
  ~StagingDirectory() {
    std::error_code ignored;
    if (!committed_) fs::remove_all(staging_, ignored);
    fs::remove_all(staging_ + ".old", ignored);
  }

  const std::string& path() const { return staging_; }

  void commit() {
    throw_if_interrupted();  // a signal while the report was drawn cancels it
    struct stat info {};
    const bool replace = lstat(target_.c_str(), &info) == 0;
    if (replace && !S_ISDIR(info.st_mode))
      throw UserError(
          fmt::format("-o '{}' became {} while the report was drawn; it is left as it is and nothing was "
                      "written",
                      path_, file_kind(info.st_mode)));
    if (!replace_directory(staging_, target_)) rename_failed();
    committed_ = true;
  }

 private:
  [[noreturn]] void rename_failed() const {
    throw UserError(
        fmt::format("-o '{}': cannot rename the finished report onto '{}': {}", path_, target_, std::strerror(errno)));
  }

  std::string path_, target_, staging_;
  bool committed_ = false;
};

// An installed gpusynth's scripts lie in PREFIX/share/gpusynth/scripts beside PREFIX/bin; a build
// runs them from the sources it was built from.
std::string installed_or_source_script() {
  std::error_code ec;
  const fs::path self = fs::read_symlink("/proc/self/exe", ec);
  if (!ec) {
    const fs::path installed = self.parent_path().parent_path() / "share" / "gpusynth" / "scripts" / "report.py";
    if (fs::is_regular_file(installed, ec)) return installed.string();
  }
  return GPUSYNTH_REPORT_SCRIPT;
}

}  // namespace

int report_command(const ReportOptions& o) {
  {  // a FIFO would block the HDF5 open until a writer came; a directory or device is no results file
    struct stat info {};
    if (stat(o.results.c_str(), &info) != 0)
      throw UserError(fmt::format("{}: cannot open the results file: {}", o.results, std::strerror(errno)));
    if (!S_ISREG(info.st_mode))
      throw UserError(fmt::format("{} is {}; give the HDF5 file a run wrote", o.results, file_kind(info.st_mode)));
  }
  {
    bool found = false;
    for (const char* group : {"compare", "requests", "replay", "bursts", "ensembles"})
      found = found || h5::file_has(o.results, group);
    if (!found)
      throw UserError(
          fmt::format("{}: no /compare, /requests, /replay, /bursts or /ensembles group; give a file that gpusynth, "
                      "gpusynth bursts or gpusynth replay wrote",
                      o.results));
  }
  const std::string target = resolve_report_target(o.output, o.results);
  // Said before the work, even with -q, and again among the page's caveats: a reader comparing the
  // file with a new run must know.
  std::string older_stream;
  try {
    older_stream = stream_note(o.results);
  } catch (const std::exception&) {  // a damaged root: the walk below says what is wrong, in its own process
  }
  if (!older_stream.empty()) std::fprintf(stderr, "gpusynth report: note: %s\n", older_stream.c_str());
  // Debian's matplotlib and h5py belong to /usr/bin/python3 (a python3 earlier on PATH may lack them).
  const std::string python = environment_or("GPUSYNTH_PYTHON", "/usr/bin/python3");
  const std::string script = environment_or("GPUSYNTH_REPORT_SCRIPT", installed_or_source_script());
  if (!fs::is_regular_file(script))
    throw UserError(
        fmt::format("the report script '{}' is missing; set GPUSYNTH_REPORT_SCRIPT to scripts/report.py "
                    "of the gpusynth sources",
                    script));
  throw_if_interrupted();
  StagingDirectory staging(o.output, target);
  ChildProgram program;
  program.argv = {python, script, "--staged", o.results, staging.path()};
  if (!older_stream.empty()) program.argv.insert(program.argv.begin() + 2, {"--caveat", older_stream});
  if (o.quiet) program.argv.insert(program.argv.begin() + 2, "--quiet");
  program.block_interrupts_through_exec = true;  // report.py unblocks them once its handlers are in place
  program.cannot_run_note = " (python3-matplotlib and python3-h5py are needed)";
  const int status = run_child(program, kChildGraceSeconds);
  throw_if_interrupted();  // the staging directory goes with the unwinding: nothing was written
  if (WIFSIGNALED(status)) {
    const int number = WTERMSIG(status);
    // A crash is HDF5 reading through a damaged file's metadata (issue 56 item 11): the user's file, not ours.
    if (number == SIGSEGV || number == SIGBUS || number == SIGABRT || number == SIGFPE || number == SIGILL)
      throw UserError(
          fmt::format("{}: the report script crashed reading it ({}, signal {}): the file is damaged "
                      "(cut short or overwritten); nothing was written",
                      o.results, strsignal(number), number));
    throw InternalError(script + ":", fmt::format("killed by signal {}; nothing was written", number), __FILE__,
                        __LINE__);
  }
  if (WEXITSTATUS(status) == kCannotRun) return kExitUser;  // the child said why
  if (WEXITSTATUS(status) != 0) {
    // The script said why on stderr (a user error, exit 2, is one line); say what became of the output.
    if (WEXITSTATUS(status) != kExitUser)
      std::fprintf(stderr, "gpusynth: error: the report script exited with %d; nothing was written\n",
                   WEXITSTATUS(status));
    return WEXITSTATUS(status) == kExitUser ? kExitUser : kExitInternal;
  }
  std::size_t files = 0;
  for ([[maybe_unused]] const auto& entry : fs::directory_iterator(staging.path())) ++files;
  staging.commit();
  std::printf("wrote %s (%zu files)\n", (fs::path(o.output) / "index.html").c_str(), files);
  return kExitOk;
}

}  // namespace gs
