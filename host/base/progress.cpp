#include "host/base/progress.hpp"

#include <fmt/format.h>
#include <unistd.h>

#include <cstdio>

namespace gs {

Progress::Progress(std::uint64_t total_units, bool quiet) : Progress(total_units, quiet, isatty(STDERR_FILENO) != 0) {}

Progress::Progress(std::uint64_t total_units, bool quiet, bool terminal)
    : total_(total_units == 0 ? 1 : total_units), quiet_(quiet), terminal_(terminal) {}

void Progress::begin(const std::string& label) {
  label_ = label;
  emit(true);
}

void Progress::advance(std::uint64_t units) {
  done_ += units;
  emit(false);
}

void Progress::finish() {
  const bool shown = done_ >= total_ && last_decile_ == 10;
  done_ = total_;
  if (!shown) emit(true);
  if (!quiet_ && terminal_) std::fputc('\n', stderr);
}

void Progress::emit(bool force) {
  const auto now = Clock::now();
  const double fraction = static_cast<double>(done_) / static_cast<double>(total_);
  const double elapsed = std::chrono::duration<double>(now - start_).count();
  const int decile = static_cast<int>(fraction * 10);
  if (terminal_) {
    if (!force && now - last_emit_ < std::chrono::milliseconds(100)) return;
    constexpr int width = 30;
    const int filled = static_cast<int>(fraction * width);
    const std::string eta =
        fraction > 0 && fraction < 1 ? fmt::format(", ~{:.0f} s left", elapsed * (1 - fraction) / fraction) : "";
    last_line_ = fmt::format("[{}{}] {:5.1f}% {} ({:.1f} s{})", std::string(filled, '#'),
                             std::string(width - filled, '.'), 100 * fraction, label_, elapsed, eta);
    if (!quiet_) std::fprintf(stderr, "\r%-100s", last_line_.c_str());
  } else {
    if (!force && decile == last_decile_ && now - last_emit_ < std::chrono::seconds(30)) return;
    last_line_ = fmt::format("progress: {:5.1f}% {} ({:.1f} s)", 100 * fraction, label_, elapsed);
    if (!quiet_) std::fprintf(stderr, "%s\n", last_line_.c_str());
  }
  if (!quiet_) std::fflush(stderr);
  last_decile_ = decile;
  last_emit_ = now;
}

void log_info(bool quiet, const std::string& message) {
  if (!quiet) std::fprintf(stderr, "%s\n", message.c_str());
}

}  // namespace gs
