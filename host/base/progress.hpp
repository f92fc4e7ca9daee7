// Progress of a run on stderr: a bar redrawn in place on a terminal, plain
// lines (every 10 % or 30 s) in a log. Quiet mode prints nothing.
#pragma once

#include <chrono>
#include <cstdint>
#include <string>

namespace gs {

class Progress {
 public:
  Progress(std::uint64_t total_units, bool quiet);
  Progress(std::uint64_t total_units, bool quiet, bool terminal);  // for tests
  void begin(const std::string& label);
  void advance(std::uint64_t units);
  void finish();
  std::string last_line() const { return last_line_; }

 private:
  using Clock = std::chrono::steady_clock;
  void emit(bool force);

  std::uint64_t total_;
  std::uint64_t done_ = 0;
  bool quiet_;
  bool terminal_;
  std::string label_;
  Clock::time_point start_ = Clock::now();
  Clock::time_point last_emit_{};
  int last_decile_ = -1;
  std::string last_line_;
};

// Seconds of the steady clock since `start` (the stage timings runs report).
inline double seconds_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

// Informational messages on stderr unless quiet.
void log_info(bool quiet, const std::string& message);

}  // namespace gs
