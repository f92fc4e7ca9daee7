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

namespace {

// A bin width of 1, 2 or 5 × 10^k (in s, ms, us or ns) near span / 1000, as
// --bin takes it: about 1000 bins, enough for the ACF to lag 100 and the Hurst
// estimators' octaves, few enough to keep each bin's count away from 0.
std::string bin_for_thousand_bins(double span) {
  const double target = span / 1000;
  const double decade = std::pow(10.0, std::floor(std::log10(target)));
  const double ratio = target / decade;  // the nearest of 1, 2, 5, 10 on a log scale: 630 to 1600 bins
  const double step = ratio < std::sqrt(2.0) ? 1 : ratio < std::sqrt(10.0) ? 2 : ratio < std::sqrt(50.0) ? 5 : 10;
  const double width = step * decade;
  for (const auto& [suffix, factor] : {std::pair{"s", 1.0}, std::pair{"ms", 1e-3}, std::pair{"us", 1e-6}})
    if (width >= factor * (1 - 1e-9)) return fmt::format("{:g}{}", width / factor, suffix);  // pow's last bit
  return fmt::format("{:g}ns", width / 1e-9);
}

// "the trace spans S s: --bin W gives about 1000 bins", the advice of the errors of a missing or too coarse bin.
std::string thousand_bins_advice(const SeriesSource& source, double span) {
  return fmt::format("the trace spans {:.6g} s: {} {} gives about 1000 bins", span, source.option("bin"),
                     bin_for_thousand_bins(span));
}

// The seconds the trace covers, where its bins are ours to choose: events
// (first to last) and darshan logs (their bins); 0 for given bins and series.
double chosen_span(const Trace& trace, const BinnedSeries& binned) {
  if (trace.kind == Trace::Kind::events && trace.times.size() >= 2) return trace.times.back() - trace.times.front();
  if (trace.kind == Trace::Kind::binned && trace.format != "counts")
    return binned.bin_width * static_cast<double>(binned.size());
  return 0;
}

}  // namespace

std::string coarse_bin_warning(const LoadedSeries& s, const SeriesSource& source) {
  const double span = chosen_span(s.trace, s.binned);
  if (!(span > 0) || s.series.size() >= kFewestAdvisedBins) return "";
  return fmt::format(
      "{} {} gives {} bins over the trace's {:.6g} s, fewer than {}: too few for the ACF, the Hurst estimators and "
      "the fits; {} {} gives about 1000",
      source.option("bin"), source.bin, s.series.size(), span, kFewestAdvisedBins, source.option("bin"),
      bin_for_thousand_bins(span));
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

namespace {
// The error of a missing --bin, with the one that gives about 1000 bins where
// the trace's span is known before binning (events: the trace is read for it).
UserError missing_bin(const SeriesSource& source, const TraceFormat& format) {
  std::string advice = "e.g. 1s";
  if (format.kind == Trace::Kind::events) {
    try {
      const Trace trace = read_trace(source.traces, source.trace);
      if (const double span = chosen_span(trace, {}); span > 0) advice = thousand_bins_advice(source, span);
    } catch (const UserError&) {  // a trace that cannot be read: the missing bin is still the first error
    }
  }
  return UserError(fmt::format("{} is required for this format ({})", source.option("bin"), advice));
}
}  // namespace

LoadedSeries read_series(const SeriesSource& source) {
  LoadedSeries s;
  const TraceFormat& format = trace_format(source.trace.format);
  TraceOptions trace_options = source.trace;
  const bool needs_bin = format.kind != Trace::Kind::series;
  if (needs_bin && source.bin.empty()) throw missing_bin(source, format);
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
  if (s.series.size() < 2) {
    const double span = chosen_span(s.trace, s.binned);
    throw UserError(fmt::format("the series has {} value(s); use a narrower {}{}", s.series.size(),
                                source.option("bin"), span > 0 ? " (" + thousand_bins_advice(source, span) + ")" : ""));
  }
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
