#include "host/base/interrupt.hpp"

#include <atomic>
#include <csignal>

namespace gs {

namespace {

std::atomic<int> recorded_signal{0};

extern "C" void record_signal(int signal) { recorded_signal.store(signal, std::memory_order_relaxed); }

}  // namespace

InterruptGuard::InterruptGuard() {
  recorded_signal.store(0);
  previous_int_ = std::signal(SIGINT, record_signal);
  previous_term_ = std::signal(SIGTERM, record_signal);
}

InterruptGuard::~InterruptGuard() {
  std::signal(SIGINT, previous_int_);
  std::signal(SIGTERM, previous_term_);
}

int pending_interrupt() { return recorded_signal.load(std::memory_order_relaxed); }

void throw_if_interrupted() {
  if (const int signal = pending_interrupt()) throw Interrupted{signal};
}

}  // namespace gs
