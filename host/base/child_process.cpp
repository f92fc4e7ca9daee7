#include "host/base/child_process.hpp"

#include <fcntl.h>
#include <fmt/format.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <ctime>

#include "host/base/errors.hpp"
#include "host/base/interrupt.hpp"

namespace gs {

namespace {

// In the child, between fork and exec: only async-signal-safe calls.
[[noreturn]] void become(const ChildProgram& program, const std::vector<char*>& argv, pid_t parent) {
  prctl(PR_SET_PDEATHSIG, SIGKILL);  // gpusynth killed (SIGKILL): the child goes too
  if (getppid() != parent) _exit(kCannotRun);
  if (program.block_interrupts_through_exec) {
    sigset_t stop;
    sigemptyset(&stop);
    sigaddset(&stop, SIGINT);
    sigaddset(&stop, SIGTERM);
    sigprocmask(SIG_BLOCK, &stop, nullptr);
  }
  const auto redirect = [](const std::string& path, int fd) {
    if (path.empty()) return;
    const int file = open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666);
    if (file < 0 || dup2(file, fd) < 0) _exit(kCannotRun);
  };
  redirect(program.stdout_path, STDOUT_FILENO);
  redirect(program.stderr_path, STDERR_FILENO);
  if (!program.directory.empty() && chdir(program.directory.c_str()) != 0) _exit(kCannotRun);  // after: paths as given
  execvp(argv[0], argv.data());
  const char* reason = std::strerror(errno);
  (void)!write(STDERR_FILENO, "gpusynth: error: cannot run ", 28);
  (void)!write(STDERR_FILENO, argv[0], std::strlen(argv[0]));
  (void)!write(STDERR_FILENO, ": ", 2);
  (void)!write(STDERR_FILENO, reason, std::strlen(reason));
  (void)!write(STDERR_FILENO, program.cannot_run_note.c_str(), program.cannot_run_note.size());
  (void)!write(STDERR_FILENO, "\n", 1);
  _exit(kCannotRun);
}

// signal() restarts waitpid after our handler, so the wait polls.
int wait_for(pid_t child, const std::string& name, double grace_seconds) {
  constexpr long kStepNs = 20'000'000;
  long steps_since_signal = -1;  // -1: no signal passed on yet
  for (;;) {
    int status = 0;
    const pid_t done = waitpid(child, &status, WNOHANG);
    if (done == child) return status;
    if (done < 0 && errno != EINTR) throw InternalError("waitpid", "lost " + name, __FILE__, __LINE__);
    if (steps_since_signal < 0 && pending_interrupt() != 0) {
      kill(child, pending_interrupt());
      steps_since_signal = 0;
    }
    if (steps_since_signal >= 0 && ++steps_since_signal == static_cast<long>(grace_seconds * 1e9 / kStepNs))
      kill(child, SIGKILL);
    const timespec step{0, kStepNs};
    nanosleep(&step, nullptr);
  }
}

}  // namespace

int run_child(const ChildProgram& program, double grace_seconds) {
  if (program.argv.empty()) throw InternalError("run_child", "no program", __FILE__, __LINE__);
  std::vector<std::string> words = program.argv;  // built before fork: no allocation in the child
  std::vector<char*> argv;
  for (std::string& word : words) argv.push_back(word.data());
  argv.push_back(nullptr);
  std::fflush(nullptr);
  const pid_t parent = getpid();
  const pid_t child = fork();
  if (child < 0) throw InternalError("fork", "cannot start " + program.argv[0], __FILE__, __LINE__);
  if (child == 0) become(program, argv, parent);
  return wait_for(child, program.argv[0], grace_seconds);
}

std::string describe_wait_status(int status) {
  if (WIFSIGNALED(status)) return fmt::format("killed by signal {}", WTERMSIG(status));
  return fmt::format("exit status {}", WEXITSTATUS(status));
}

}  // namespace gs
