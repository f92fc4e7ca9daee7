#include "io/series_source.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <filesystem>

#include "estimators/series.hpp"
#include "host/base/errors.hpp"
#include "host/base/paths.hpp"
#include "io/binning.hpp"
#include "io/line_reader.hpp"

namespace gs {

double parse_duration(const std::string& text, const char* option) {
  static const std::vector<std::pair<const char*, double>> units = {{"ns", 1e-9}, {"us", 1e-6}, {"ms", 1e-3},
                                                                    {"min", 60},  {"h", 3600},  {"s", 1}};
  std::string digits = text;
  double scale = 1;
  for (const auto& [suffix, factor] : units) {
    const std::string s(suffix);
    if (digits.size() > s.size() && digits.compare(digits.size() - s.size(), s.size(), s) == 0) {
      digits.resize(digits.size() - s.size());
      scale = factor;
      break;
    }
  }
  double value = 0;
  if (!parse_number(digits, value) || !(value > 0) || !std::isfinite(value))
    throw UserError(
        fmt::format("{} '{}': expected a positive duration such as 1s, 250ms, 10us, 5min, 1h", option, text));
  return value * scale;
}

std::string default_dataset_name(const std::string& path) {
  std::string name = std::filesystem::path(path).filename().string();
  const auto dot = name.find('.');
  if (dot != std::string::npos && dot > 0) name = name.substr(0, dot);
  return name;
}

std::vector<std::string> trace_digests(const std::vector<std::string>& paths) {
  std::vector<std::string> sha;
  for (const auto& path : paths) sha.push_back(file_sha256(path));
  return sha;
}

std::vector<Attribute> dataset_attributes(const LoadedSeries& s, const std::vector<std::string>& sha) {
  std::string sources, hashes;
  for (std::size_t i = 0; i < sha.size(); ++i) {
    sources += (i ? ";" : "") + std::filesystem::path(s.trace.sources[i]).filename().string();
    hashes += (i ? ";" : "") + sha[i];
  }
  std::vector<Attribute> attributes = {{"source", sources},
                                       {"source_sha256", hashes},
                                       {"format", s.trace.format},
                                       {"series_name", s.series_name},
                                       {"bin_width", s.binned.bin_width},
                                       {"bin_start", s.binned.start},
                                       {"epoch", s.trace.epoch},
                                       {"lines", s.trace.lines},
                                       {"bad_lines", s.trace.bad_lines}};
  if (!s.trace.incomplete_modules.empty())  // only then, so that complete traces keep their attributes
    attributes.push_back({"incomplete_modules", fmt::format("{}", fmt::join(s.trace.incomplete_modules, "; "))});
  return attributes;
}

LoadedSeries read_series(const SeriesSource& source) {
  LoadedSeries s;
  const TraceFormat& format = trace_format(source.trace.format);
  TraceOptions trace_options = source.trace;
  const bool needs_bin = format.kind != Trace::Kind::series;
  if (needs_bin && source.bin.empty())
    throw UserError(fmt::format("{} is required for this format (e.g. 1s)", source.option("bin")));
  const double bin = needs_bin ? parse_duration(source.bin, source.option("bin").c_str()) : 0.0;
  trace_options.bin_width = bin;
  s.trace = read_trace(source.traces, trace_options);
  switch (s.trace.kind) {
    case Trace::Kind::events:
      s.binned = bin_events(s.trace, bin, trace_options.max_bins);
      s.interarrivals = interarrival_times(s.trace);
      break;
    case Trace::Kind::binned:
      s.binned = std::move(s.trace.binned);
      break;
    case Trace::Kind::series:
      break;
  }
  if (s.trace.kind == Trace::Kind::series) {
    s.series_name = "value";
    s.series = s.trace.series_values;
  } else {
    s.series_name = !source.channel.empty() ? source.channel : format.default_series;
    const auto it = s.binned.channels.find(s.series_name);
    if (it == s.binned.channels.end()) {
      std::string names;
      for (const auto& [name, v] : s.binned.channels) names += (names.empty() ? "" : ", ") + name;
      throw UserError(fmt::format("{} '{}': this trace gives {}", source.option("series"), s.series_name, names));
    }
    s.series = it->second;
  }
  if (s.series.size() < 2)
    throw UserError(
        fmt::format("the series has {} value(s); use a narrower {}", s.series.size(), source.option("bin")));
  check_series_magnitude(s.series, fmt::format("{} ({})", source.traces[0], s.series_name));
  return s;
}

void append_trace_list(const std::string& list, std::vector<std::string>& paths) {
  LineReader reader(list);
  std::string line;
  const std::size_t before = paths.size();
  while (reader.next(line)) {
    if (reader.too_long() || line.find('\0') != std::string::npos)
      throw located_error(list, static_cast<int>(reader.line_number()), 1, "not a line of text (a NUL byte or over 1 MiB)");
    const std::string_view path = trim(std::string_view(line).substr(0, line.find('#')));
    if (path.empty()) continue;
    paths.push_back(path_beside(list, std::string(path)));
  }
  if (paths.size() == before) throw UserError(fmt::format("{}: the trace list names no file", list));
}

void add_source_inputs(const SeriesSource& source, const std::string& what, RunPaths& paths) {
  paths.add_inputs(what + "trace", source.traces);
  if (!source.trace_list.empty()) paths.add_input(what + "trace list", source.trace_list);
}

}  // namespace gs
