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
};

// The recorded signal number, 0 when none.
int pending_interrupt();

// Called from the signal handler itself, after the signal is recorded (so it
// must be async-signal-safe): an MPI job's ranks remove their shared
// temporary output there, as mpirun follows its SIGTERM with a SIGKILL that
// comes before a long batch polls. nullptr: none.
void set_signal_cleanup(void (*cleanup)());

// What throw_if_interrupted throws; the commands turn it into exit code 130.
struct Interrupted {
  int signal;
};
void throw_if_interrupted();

// throw_if_interrupted every 64Ki steps of a loop too short per step to poll each time.
inline void poll_interrupts(unsigned long long step) {
  if ((step & 0xffff) == 0) throw_if_interrupted();
}

}  // namespace gs
