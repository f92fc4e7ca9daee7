#include "host/base/interrupt.hpp"

#include <atomic>
#include <csignal>
#include <mutex>

namespace gs {

namespace {

std::atomic<int> recorded_signal{0};
std::atomic<void (*)()> signal_cleanup{nullptr};

extern "C" void record_signal(int signal) {
  recorded_signal.store(signal, std::memory_order_relaxed);
  if (const auto cleanup = signal_cleanup.load()) cleanup();
}

// Guards nest (main_cli's, then run_config's) and may live in several threads
// at once (Python calls): only the outermost clears the recorded signal and
// installs the handler, so a signal between the two is kept, and the handlers
// are restored with their flags (sigaction). The mutex keeps one thread's
// restore from crossing another's install.
std::mutex guard_mutex;
int guard_depth = 0;
struct sigaction previous_int, previous_term;

}  // namespace

InterruptGuard::InterruptGuard() {
  const std::lock_guard<std::mutex> lock(guard_mutex);
  if (guard_depth++ > 0) return;
  recorded_signal.store(0);
  struct sigaction record {};
  record.sa_handler = record_signal;
  sigemptyset(&record.sa_mask);
  sigaction(SIGINT, &record, &previous_int);
  sigaction(SIGTERM, &record, &previous_term);
}

InterruptGuard::~InterruptGuard() {
  const std::lock_guard<std::mutex> lock(guard_mutex);
  if (--guard_depth > 0) return;
  sigaction(SIGINT, &previous_int, nullptr);
  sigaction(SIGTERM, &previous_term, nullptr);
}

void set_signal_cleanup(void (*cleanup)()) { signal_cleanup.store(cleanup); }

int pending_interrupt() { return recorded_signal.load(std::memory_order_relaxed); }

void throw_if_interrupted() {
  if (const int signal = pending_interrupt()) throw Interrupted{signal};
}

}  // namespace gs
