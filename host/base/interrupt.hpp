// SIGINT/SIGTERM during a run: the handler only records the signal; the batch
// loop and the generators (per replica) poll it, so work stops within
// milliseconds and the normal unwinding removes the temporary file.
#pragma once

namespace gs {

// While alive, SIGINT and SIGTERM are recorded instead of ending the process.
class InterruptGuard {
 public:
  InterruptGuard();
  ~InterruptGuard();
  InterruptGuard(const InterruptGuard&) = delete;
  InterruptGuard& operator=(const InterruptGuard&) = delete;

 private:
  void (*previous_int_)(int);
  void (*previous_term_)(int);
};

// The recorded signal number, 0 when none.
int pending_interrupt();

}  // namespace gs
