// Real traces in: one reader per format, each in its own file
// io/traces/<format>.cpp that registers it (docs/traces.md), all giving a
// Trace — events with their time, operation, size and duration, an already
// binned series, or (time, value) pairs kept as they are. Every malformed line
// is an error naming file:line:column and what was expected, unless
// skip_bad_lines asks to count and report them instead.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace gs {

enum class TimeUnit { s, ms, us, ns, iso8601 };
enum class Operation : std::uint8_t { other, read, write };

TimeUnit parse_time_unit(const std::string& name);  // UserError listing the accepted names
const char* time_unit_name(TimeUnit unit);
std::vector<std::string> time_unit_names();

// The most bins a series may have: 800 MB of doubles per channel.
constexpr double kDefaultMaxBins = 1e8;

struct TraceOptions {
  std::string format = "timestamps";  // a registered TraceFormat
  // timestamps/series/counts/pioneer: fields by 1-based number or, with a header, by name.
  std::string time_column = "1";
  std::string value_column;  // series: default 2; counts: default 1
  std::string op_column, size_column;
  bool header = false;
  char delimiter = 0;                 // 0: a comma or tab when the first data line has one, else whitespace
  std::optional<TimeUnit> time_unit;  // unset: the format's own unit (s; disksim: ms)
  std::vector<std::string> read_values = {"r", "read", "rd"};  // op column values, case-insensitive
  std::vector<std::string> write_values = {"w", "write", "wr"};
  double bin_width = 0;  // counts: the width of the given bins; darshan: the bins of the spread (s)
  std::vector<std::string> modules = {"POSIX", "STDIO"};  // darshan/dxt: POSIX, MPI-IO, STDIO
  char blk_action = 'Q';                                  // blkparse: Q (queued) or D (issued to the driver)
  bool sort = false;                                      // accept out-of-order event times by sorting them (reported)
  bool skip_bad_lines = false;
  double max_bins = kDefaultMaxBins;  // of the binned series (binning, darshan's spreading)
  // darshan: how a record's amounts spread over the bins its interval covers:
  // by time overlap (default) or an equal share to each bin (the burst paper's).
  enum class Spread { overlap, equal_share } spread = Spread::overlap;
  // darshan: bins from the earliest log's start, or aligned to multiples of the
  // bin width in Unix time (calendar bins: 5-minute bins start at :00, :05, …).
  enum class Align { start, epoch } align = Align::start;
};

// "overlap" | "equal" and "start" | "epoch" (UserError listing the accepted names).
TraceOptions::Spread parse_spread(const std::string& name);
TraceOptions::Align parse_align(const std::string& name);

// Bins of equal width from `start`; channels: count, count_read, count_write,
// bytes, bytes_read, bytes_write (the ones the format gives).
struct BinnedSeries {
  double start = 0;  // seconds, in the trace's time origin
  double bin_width = 0;
  std::map<std::string, std::vector<double>> channels;
  std::size_t size() const { return channels.empty() ? 0 : channels.begin()->second.size(); }
};

struct Trace {
  enum class Kind { events, binned, series };
  Kind kind = Kind::events;
  std::string format = "timestamps";
  std::vector<std::string> sources;
  double epoch = 0;  // absolute time (Unix seconds) of time 0, when the format knows it

  // events: times in seconds (non-decreasing); ops/sizes/durations empty when the format lacks them
  std::vector<double> times;
  std::vector<Operation> ops;
  std::vector<double> sizes;      // bytes
  std::vector<double> durations;  // seconds (dxt: end − start, pioneer: execution time)

  BinnedSeries binned;  // counts, darshan

  std::vector<double> series_times, series_values;  // series

  std::uint64_t lines = 0;
  std::uint64_t bad_lines = 0;
  std::vector<std::string> bad_line_examples;   // the first few messages
  std::uint64_t reordered = 0;                  // events that came out of order (only with sort)
  std::uint64_t untimed_records = 0;            // darshan: records with bytes but no timestamps
  std::uint64_t logs_without_records = 0;       // darshan: logs of jobs without I/O
  std::uint64_t negative_timers = 0;            // darshan: negative *_TIME counters, read as 0
  bool header_detected = false;                 // columns: a first line without numbers read as names
  std::vector<std::string> incomplete_modules;  // darshan: "FILE: MODULE" its runtime marked incomplete
  double untimed_bytes = 0;
};

// The warning for modules darshan marked incomplete ("FILE: MODULE", as
// Trace::incomplete_modules), or empty when there are none.
std::string incomplete_modules_warning(const std::vector<std::string>& modules);

// A trace format, registered by its file io/traces/<name>.cpp at start-up
// (`const bool registered = register_trace_format({...});`).
struct TraceFormat {
  std::string name;
  Trace::Kind kind = Trace::Kind::events;
  std::string description;               // one line for --help and the reference
  std::string default_series = "count";  // the channel analysed unless --series says otherwise
  // events and series formats: one file into `trace` (the caller merges several files);
  void (*read_file)(const std::string& path, const TraceOptions& options, Trace& trace) = nullptr;
  // binned formats: every path at once (counts takes one, darshan any number).
  void (*read_all)(const std::vector<std::string>& paths, const TraceOptions& options, Trace& trace) = nullptr;
};

bool register_trace_format(TraceFormat format);
const TraceFormat& trace_format(const std::string& name);  // UserError listing the accepted names
std::vector<std::string> trace_format_names();

// The format of a trace file where its first lines (up to 200) tell it
// without doubt: "dxt" (darshan-dxt-parser: "# DXT, file_id" records),
// "darshan" (darshan-parser: "# darshan log version" and no DXT record),
// "blkparse" (ftrace's "# tracer: blk"); a binary .darshan log (its magic
// number) is "dxt" when it holds DXT records, else "darshan"; nothing otherwise.
std::optional<std::string> detect_trace_format(const std::string& path);

// Reads and merges every path (events are merged in time order; darshan logs
// become one system-level series on a common clock).
Trace read_trace(const std::vector<std::string>& paths, const TraceOptions& options);

}  // namespace gs
