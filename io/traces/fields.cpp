#include "io/traces/fields.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <numeric>

namespace gs {

namespace {

std::int64_t days_from_civil(std::int64_t y, unsigned m, unsigned d) {  // proleptic Gregorian, 1970-01-01 = 0
  y -= m <= 2;
  const std::int64_t era = (y >= 0 ? y : y - 399) / 400;
  const unsigned yoe = static_cast<unsigned>(y - era * 400);
  const unsigned doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
  const unsigned doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
  return era * 146097 + static_cast<std::int64_t>(doe) - 719468;
}

// YYYY-MM-DD[T ]hh:mm:ss[.fff][Z|±hh:mm] as Unix seconds (no offset: UTC).
std::optional<double> parse_iso8601(std::string_view text) {
  const std::string s(trim(text));
  int year = 0, month = 0, day = 0, hour = 0, minute = 0, consumed = 0;
  double second = 0;
  if (std::sscanf(s.c_str(), "%4d-%2d-%2d%*1[T ]%2d:%2d:%lf%n", &year, &month, &day, &hour, &minute, &second,
                  &consumed) != 6)
    return std::nullopt;
  if (month < 1 || month > 12 || day < 1 || day > 31 || hour > 23 || minute > 59 || !(second >= 0 && second < 61))
    return std::nullopt;
  double offset = 0;
  const std::string zone = s.substr(static_cast<std::size_t>(consumed));
  if (!zone.empty() && zone != "Z") {
    int zh = 0, zm = 0;
    char sign = 0;
    if (std::sscanf(zone.c_str(), "%c%2d:%2d", &sign, &zh, &zm) != 3 || (sign != '+' && sign != '-'))
      return std::nullopt;
    offset = (sign == '+' ? 1 : -1) * (zh * 3600.0 + zm * 60.0);
  }
  const double days =
      static_cast<double>(days_from_civil(year, static_cast<unsigned>(month), static_cast<unsigned>(day)));
  return days * 86400.0 + hour * 3600.0 + minute * 60.0 + second - offset;
}

}  // namespace

bool starts_with(std::string_view text, std::string_view prefix) { return text.substr(0, prefix.size()) == prefix; }

double number_field(std::string_view field, const char* what) {
  double value = 0;
  if (!parse_number(field, value) || !std::isfinite(value))
    throw BadLine{fmt::format("{} '{}' is not a finite number", what, field), field};
  return value;
}

double non_negative_field(std::string_view field, const char* what) {
  const double value = number_field(field, what);
  if (value < 0) throw BadLine{fmt::format("{} '{}' is negative", what, field), field};
  return value;
}

double time_scale(TimeUnit unit) {
  switch (unit) {
    case TimeUnit::ms:
      return 1e-3;
    case TimeUnit::us:
      return 1e-6;
    case TimeUnit::ns:
      return 1e-9;
    default:
      return 1.0;
  }
}

// A time field in `unit`; hh:mm:ss[.f] (a time of day, as LANL-Trace and
// PIONEER's traces print) is accepted where `time_of_day` is set.
double time_field(std::string_view field, TimeUnit unit, bool time_of_day) {
  if (unit == TimeUnit::iso8601) {
    const auto seconds = parse_iso8601(field);
    if (!seconds)
      throw BadLine{fmt::format("timestamp '{}' is not ISO-8601 (YYYY-MM-DDThh:mm:ss[.f][Z|±hh:mm])", field), field};
    return *seconds;
  }
  if (time_of_day && field.find(':') != std::string_view::npos) {
    int hour = 0, minute = 0;
    double second = 0;
    const std::string s(field);
    int consumed = 0;
    if (std::sscanf(s.c_str(), "%d:%d:%lf%n", &hour, &minute, &second, &consumed) != 3 ||
        consumed != static_cast<int>(s.size()) || hour < 0 || minute < 0 || minute > 59 || second < 0 || second >= 61)
      throw BadLine{fmt::format("timestamp '{}' is neither a number nor hh:mm:ss[.f]", field), field};
    return hour * 3600.0 + minute * 60.0 + second;
  }
  const double value = number_field(field, "timestamp");
  if (value < 0) throw BadLine{fmt::format("timestamp '{}' is negative", field), field};
  return value * time_scale(unit);
}

// Appends `time` to `times` in time order: an earlier time than the last one is
// a bad line, or (with sorting allowed) counted in `reordered` and sorted later.
void append_time(std::vector<double>& times, double time, std::string_view field, bool sort, std::uint64_t& reordered) {
  if (!times.empty() && time < times.back()) {
    if (!sort)
      throw BadLine{fmt::format("timestamp '{}' is earlier than the previous event's ({:.9g} s); the trace must be in "
                                "time order (--sort accepts an unordered trace)",
                                field, times.back()),
                    field};
    ++reordered;
  }
  times.push_back(time);
}

// The stable order of `times`, and a vector rearranged into it.
std::vector<std::size_t> time_order(const std::vector<double>& times) {
  std::vector<std::size_t> order(times.size());
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return times[a] < times[b]; });
  return order;
}

// The value of a header line "KEY value", trimmed; nothing when `content` is another line.
std::optional<std::string_view> header_value(std::string_view content, std::string_view key) {
  if (!starts_with(content, key)) return std::nullopt;
  return trim(content.substr(key.size()));
}

std::optional<std::string> incomplete_darshan_module(std::string_view content, const std::string& path) {
  constexpr std::string_view kBefore = "# *WARNING*: The ", kAfter = " module contains incomplete data!";
  if (!starts_with(content, kBefore) || content.size() <= kBefore.size() + kAfter.size() ||
      content.substr(content.size() - kAfter.size()) != kAfter)
    return std::nullopt;
  return incomplete_module_entry(path, content.substr(kBefore.size(), content.size() - kBefore.size() - kAfter.size()));
}

std::string incomplete_module_entry(const std::string& path, std::string_view module) {
  return fmt::format("{}: {}", path, module);
}

void check_text_line(std::string_view line, bool too_long) {
  if (too_long)
    throw BadLine{fmt::format("the line is longer than {} MiB: not a text trace line (binary data, or a lost newline?)",
                              LineReader::kMaxLineBytes >> 20),
                  line.substr(line.size())};
  const auto nul = line.find('\0');
  if (nul != std::string_view::npos)
    throw BadLine{"a NUL byte: not text (binary data, or a file system that lost a write?)", line.substr(nul)};
}

void count_bad_line(Trace& trace, std::string message) {
  ++trace.bad_lines;
  if (trace.bad_line_examples.size() < kBadLineExamples) trace.bad_line_examples.push_back(std::move(message));
}

std::size_t column_index(const std::string& spec, const std::vector<std::string>& header, const std::string& path,
                         const char* option) {
  double number = 0;
  if (parse_number(spec, number)) {
    if (number < 1 || number > 1e6 || number != std::floor(number))
      throw UserError(
          fmt::format("{} {}: a column is numbered from 1 to 1000000 (or named, with --header)", option, spec));
    return static_cast<std::size_t>(number) - 1;
  }
  if (header.empty())
    throw UserError(fmt::format("{} '{}' names a column, but {} has no header (pass --header)", option, spec, path));
  for (std::size_t i = 0; i < header.size(); ++i)
    if (header[i] == spec) return i;
  std::string names;
  for (const auto& name : header) names += (names.empty() ? "" : ", ") + name;
  throw UserError(fmt::format("{} '{}': {} has no such column (its header: {})", option, spec, path, names));
}

std::string_view field_at(const std::vector<std::string_view>& fields, std::size_t index, std::string_view line) {
  if (index >= fields.size())
    throw BadLine{fmt::format("expected at least {} fields, found {}", index + 1, fields.size()), line};
  return fields[index];
}

void read_columns(const std::string& path, const TraceOptions& options, Trace& trace,
                  const std::function<void(const Columns&)>& on_layout,
                  const std::function<void(std::string_view, const std::vector<std::string_view>&)>& on_row) {
  Columns columns;
  columns.delimiter = options.delimiter;
  bool first = true;
  for_each_line(path, options, trace, false, [&](std::string_view line) {
    if (first) {
      first = false;
      if (columns.delimiter == 0) columns.delimiter = detect_delimiter(line);
      const std::vector<std::string_view> fields = split_fields(line, columns.delimiter);
      // A first line without a single number is a header, as numpy's genfromtxt(names=True)
      // users expect (ISO-8601 times are text, so not there); the trace says so.
      bool header = options.header;
      if (!header && options.time_unit != TimeUnit::iso8601) {
        double number = 0;
        header = std::none_of(fields.begin(), fields.end(), [&](std::string_view f) { return parse_number(f, number); });
        trace.header_detected = header;
      }
      if (header)
        for (auto name : fields) columns.header.emplace_back(name);
      on_layout(columns);
      if (header) return;
    }
    on_row(line, split_fields(line, columns.delimiter));
  });
}

}  // namespace gs
