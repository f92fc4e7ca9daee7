// SIGINT/SIGTERM: the handler only records the signal; the long loops (the
// batch loop, the generators per replica, EM and minimiser iterations,
// bootstrap resamples) poll it, so work stops within milliseconds, and the
// normal unwinding removes the temporary file: nothing is written.
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

// What throw_if_interrupted throws; the commands turn it into exit code 130.
struct Interrupted {
  int signal;
};
void throw_if_interrupted();

}  // namespace gs
