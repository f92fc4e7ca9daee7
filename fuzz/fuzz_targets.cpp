#include "fuzz/fuzz_targets.hpp"

#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <string>

#include "host/base/errors.hpp"
#include "host/engine/config.hpp"
#include "io/series_source.hpp"
#include "io/trace.hpp"

namespace gs::fuzz {

namespace {

// Readers take paths: each input goes to one file of this process.
const std::string& input_path() {
  static const std::string path = [] {
    static char name[] = "/tmp/gpusynth-fuzz-XXXXXX";
    const int fd = mkstemp(name);
    if (fd >= 0) close(fd);
    std::atexit([] { unlink(name); });
    return std::string(name);
  }();
  return path;
}

void write_input(const std::uint8_t* data, std::size_t size) {
  std::ofstream out(input_path(), std::ios::binary | std::ios::trunc);
  out.write(reinterpret_cast<const char*>(data), static_cast<std::streamsize>(size));
}

// The whole path of `stats`: read, bin, choose the channel, check the values;
// strict, then counting bad lines and sorting.
void fuzz_trace(const std::string& format, const std::uint8_t* data, std::size_t size) {
  write_input(data, size);
  for (const bool lenient : {false, true}) {
    SeriesSource source;
    source.traces = {input_path()};
    source.trace.format = format;
    source.trace.skip_bad_lines = lenient;
    source.trace.sort = lenient;
    if (trace_format(format).kind != Trace::Kind::series) source.bin = "1s";
    try {
      read_series(source);
    } catch (const UserError&) {
    }
  }
}

void fuzz_config(const std::uint8_t* data, std::size_t size) {
  try {
    parse_config(std::string(reinterpret_cast<const char*>(data), size), "fuzz.yaml");
  } catch (const UserError&) {
  }
}

}  // namespace

std::vector<std::string> target_names() {
  std::vector<std::string> names;
  for (const auto& format : trace_format_names()) names.push_back("trace_" + format);
  names.push_back("config");
  return names;
}

bool run_target(const std::string& target, const std::uint8_t* data, std::size_t size) {
  if (target == "config") {
    fuzz_config(data, size);
    return true;
  }
  const std::string prefix = "trace_";
  if (target.compare(0, prefix.size(), prefix) != 0) return false;
  const std::string format = target.substr(prefix.size());
  for (const auto& name : trace_format_names())
    if (name == format) {
      fuzz_trace(format, data, size);
      return true;
    }
  return false;
}

}  // namespace gs::fuzz
