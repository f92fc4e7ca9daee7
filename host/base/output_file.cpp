#include "host/base/output_file.hpp"

#include <dirent.h>
#include <fcntl.h>
#include <fmt/format.h>
#include <sys/stat.h>
#include <sys/xattr.h>
#include <unistd.h>

#include <atomic>
#include <cctype>
#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <filesystem>

#include "host/base/errors.hpp"
#include "host/base/interrupt.hpp"
#include "host/base/paths.hpp"

namespace gs {

namespace {

namespace fs = std::filesystem;

constexpr int kMaxSymlinkHops = 40;  // as the kernel's ELOOP limit

// The host name as it may appear in a file name.
std::string host_tag() {
  char name[256] = {};
  if (gethostname(name, sizeof name - 1) != 0 || name[0] == '\0') return "localhost";
  std::string tag(name);
  for (char& c : tag)
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '-' && c != '.') c = '_';
  return tag;
}

constexpr const char* kStagingAttribute = "user.gpusynth";

// Marks a staged file as gpusynth's (best effort: a file system without user
// extended attributes leaves it unmarked, and a stale one is then only named).
void mark_staged_file(int fd) {
  static const char kValue[] = "staged output";
  fsetxattr(fd, kStagingAttribute, kValue, sizeof kValue - 1, 0);
}

// Whether `path` carries gpusynth's mark: a folder a marker file, a file the attribute.
bool carries_own_mark(const std::string& path) {
  struct stat info {};
  if (lstat(path.c_str(), &info) != 0) return false;
  if (S_ISDIR(info.st_mode)) return holds_marker(path, kReportMarker) || holds_marker(path, kReplayMarker);
  return S_ISREG(info.st_mode) && lgetxattr(path.c_str(), kStagingAttribute, nullptr, 0) > 0;
}

// Removes the temporaries in `directory` named `prefix` + PID[.…] whose
// process (on this host) is gone and that carry gpusynth's mark. A file of a
// live process, of another host sharing the directory, or without the mark
// is left alone.
void remove_stale_temporaries(const std::string& directory, const std::string& prefix) {
  DIR* dir = opendir(directory.c_str());
  if (dir == nullptr) return;
  while (const dirent* entry = readdir(dir)) {
    const std::string file = entry->d_name;
    if (file.compare(0, prefix.size(), prefix) != 0) continue;
    const std::string rest = file.substr(prefix.size());
    const std::string digits = rest.substr(0, rest.find('.'));
    if (digits.empty() || digits.size() > 9 || digits.find_first_not_of("0123456789") != std::string::npos) continue;
    const auto pid = static_cast<pid_t>(std::stol(digits));
    if (pid == getpid() || kill(pid, 0) == 0 || errno != ESRCH) continue;
    const std::string path = (fs::path(directory) / file).string();
    if (!carries_own_mark(path)) {
      std::fprintf(stderr,
                   "gpusynth: left '%s' as it is: it has the name of a temporary of process %d of this host, "
                   "which no longer runs, but not gpusynth's mark; remove it if it is not yours\n",
                   path.c_str(), static_cast<int>(pid));
      continue;
    }
    std::error_code ec;  // a staged directory (a report, the fio replay folder) goes with what is in it
    if (fs::remove_all(path, ec) > 0 && !ec)
      std::fprintf(stderr, "gpusynth: removed '%s', left by process %d of this host, which no longer runs\n",
                   path.c_str(), static_cast<int>(pid));
  }
  closedir(dir);
}

}  // namespace

void throw_write_error(const std::string& path, int error_number) {
  throw UserError(fmt::format("cannot write '{}': {} (errno {})", path, std::strerror(error_number), error_number));
}

std::string resolve_output_target(const std::string& path, const std::string& option) {
  if (path.empty()) throw UserError(fmt::format("{} must not be empty", option));
  std::string target = path;
  for (int hop = 0;; ++hop) {
    struct stat info {};
    if (lstat(target.c_str(), &info) != 0) {
      if (errno != ENOENT)
        throw UserError(fmt::format("{} '{}': cannot inspect '{}': {}", option, path, target, std::strerror(errno)));
      break;  // a new file
    }
    if (S_ISREG(info.st_mode)) {
      if (access(target.c_str(), W_OK) != 0)
        throw UserError(
            fmt::format("{} '{}': '{}' exists and is read-only; it is left as it is", option, path, target));
      break;
    }
    if (!S_ISLNK(info.st_mode)) {
      throw UserError(fmt::format("{} '{}' is {}; gpusynth replaces only regular files: give a file path", option,
                                  target == path ? path : path + "' -> '" + target, file_kind(info.st_mode)));
    }
    if (hop == kMaxSymlinkHops)
      throw UserError(fmt::format("{} '{}': more than {} symbolic links in a chain", option, path, kMaxSymlinkHops));
    std::error_code ec;
    const fs::path link = fs::read_symlink(target, ec);
    if (ec) throw UserError(fmt::format("{} '{}': cannot read the link '{}': {}", option, path, target, ec.message()));
    target = link.is_absolute() ? link.string() : (fs::path(directory_of(target)) / link).string();
  }
  const std::string directory = directory_of(target);
  struct stat info {};
  if (stat(directory.c_str(), &info) != 0 || !S_ISDIR(info.st_mode))
    throw UserError(fmt::format("{} '{}': the directory '{}' does not exist; create it first or choose another path",
                                option, path, directory));
  if (access(directory.c_str(), W_OK) != 0)
    throw UserError(fmt::format("{} '{}': the directory '{}' is not writable", option, path, directory));
  return target;
}

std::string temporary_prefix(const std::string& path) {
  return fmt::format(".{}.tmp-{}-", fs::path(path).filename().string(), host_tag());
}

PendingOutput::PendingOutput(const std::string& path, const std::string& option)
    : path_(path), option_(option), target_(resolve_output_target(path, option)) {
  const std::string directory = directory_of(target_);
  const std::string prefix = temporary_prefix(target_);
  remove_stale_temporaries(directory, prefix);
  static std::atomic<unsigned> sequence{0};  // several outputs of one process in one directory
  for (;;) {
    const unsigned n = sequence++;
    temp_path_ =
        (fs::path(directory) / (prefix + std::to_string(getpid()) + (n ? "." + std::to_string(n) : ""))).string();
    const int fd = open(temp_path_.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
    if (fd >= 0) {
      mark_staged_file(fd);
      close(fd);
      return;
    }
    if (errno != EEXIST)
      throw UserError(
          fmt::format("{} '{}': cannot create a file in '{}': {}", option_, path_, directory, std::strerror(errno)));
  }
}

PendingOutput::~PendingOutput() {
  if (!committed_) unlink(temp_path_.c_str());
}

void PendingOutput::commit() {
  throw_if_interrupted();  // a signal during the work cancels the output
  sync();
  publish();
}

void PendingOutput::sync() { sync_and_recheck(temp_path_, false, target_, option_, path_); }

void PendingOutput::publish() {
  if (std::rename(temp_path_.c_str(), target_.c_str()) != 0)
    throw UserError(fmt::format("{} '{}': cannot rename the finished file onto '{}': {}", option_, path_, target_,
                                std::strerror(errno)));
  committed_ = true;
  const int directory = open(directory_of(target_).c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (directory >= 0) {  // the rename itself durable; best effort (not every file system syncs directories)
    fsync(directory);
    close(directory);
  }
}

void write_file_atomically(const std::string& path, const std::string& text, const std::string& option) {
  PendingOutput output(path, option);
  write_pending_text(output, text);
  output.commit();
}

const char* file_kind(mode_t mode) {
  if (S_ISREG(mode)) return "a regular file";
  if (S_ISDIR(mode)) return "a directory";
  if (S_ISCHR(mode)) return "a character device";
  if (S_ISBLK(mode)) return "a block device";
  if (S_ISFIFO(mode)) return "a FIFO (named pipe)";
  if (S_ISSOCK(mode)) return "a socket";
  if (S_ISLNK(mode)) return "a symbolic link";
  return "a special file";
}

bool replace_directory(const std::string& staged, const std::string& target) {
  struct stat info {};
  if (lstat(target.c_str(), &info) != 0) return rename(staged.c_str(), target.c_str()) == 0;
  std::error_code ignored;
  if (renameat2(AT_FDCWD, staged.c_str(), AT_FDCWD, target.c_str(), RENAME_EXCHANGE) == 0) {
    fs::remove_all(staged, ignored);  // the old directory, under the staged name now
    return true;
  }
  if (errno != EINVAL && errno != ENOSYS && errno != EOPNOTSUPP) return false;
  const std::string old = staged + ".old";
  if (rename(target.c_str(), old.c_str()) != 0) return false;
  if (rename(staged.c_str(), target.c_str()) != 0) {
    const int error = errno;
    rename(old.c_str(), target.c_str());
    errno = error;
    return false;
  }
  fs::remove_all(old, ignored);
  return true;
}

void remove_stale_temporaries_of(const std::string& path) {
  remove_stale_temporaries(directory_of(path), temporary_prefix(path));
  remove_stale_temporaries(directory_of(path), fs::path(path).filename().string() + ".tmp-");
}

bool holds_marker(const std::string& directory, const char* marker) {
  struct stat info {};
  return lstat((fs::path(directory) / marker).c_str(), &info) == 0 && S_ISREG(info.st_mode);
}

void write_marker(const std::string& directory, const char* marker, const std::string& text) {
  const std::string path = (fs::path(directory) / marker).string();
  write_and_close(open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_NOFOLLOW, 0666), text, path);
}

void write_and_close(int fd, const std::string& text, const std::string& shown) {
  if (fd < 0) throw_write_error(shown, errno);
  std::size_t written = 0;
  while (written < text.size()) {
    const ssize_t n = write(fd, text.data() + written, text.size() - written);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) {
      const int error = errno;
      close(fd);
      throw_write_error(shown, error);
    }
    written += static_cast<std::size_t>(n);
  }
  if (close(fd) != 0) throw_write_error(shown, errno);
}

void sync_and_recheck(const std::string& staged, bool directory, const std::string& target, const std::string& option,
                      const std::string& shown) {
  const int fd = open(staged.c_str(), O_RDONLY | O_CLOEXEC | (directory ? O_DIRECTORY : 0));
  // Delayed write errors (NFS, quotas) surface here. A directory's files with
  // one syncfs: an fsync per file costs milliseconds each.
  if (fd < 0 || (directory ? syncfs(fd) : fsync(fd)) != 0) {
    const int error = errno;
    if (fd >= 0) close(fd);
    throw_write_error(shown, error);
  }
  close(fd);
  struct stat info {};
  if (lstat(target.c_str(), &info) == 0 && (directory ? !S_ISDIR(info.st_mode) : !S_ISREG(info.st_mode)))
    throw UserError(fmt::format("{} '{}' became {} while gpusynth ran; it is left as it is and nothing was written",
                                option, shown, file_kind(info.st_mode)));
}

void write_pending_text(const PendingOutput& output, const std::string& text) {
  write_and_close(open(output.temp_path().c_str(), O_WRONLY | O_TRUNC | O_CLOEXEC | O_NOFOLLOW), text, output.path());
}

}  // namespace gs
