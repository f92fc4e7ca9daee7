// Request traces (io/request_trace.hpp): DXT and PIONEER lines with every field
// kept, and darshan-parser's open counts.
#include "io/request_trace.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cmath>

#include "host/base/interrupt.hpp"
#include "io/darshan_log.hpp"
#include "io/line_reader.hpp"
#include "io/traces/dxt_blocks.hpp"
#include "io/traces/fields.hpp"

namespace gs {

namespace {

std::int32_t rank_field(std::string_view field) {
  const double rank = number_field(field, "rank");
  if (rank < 0 || rank > 1e7 || rank != std::floor(rank))
    throw BadLine{fmt::format("rank '{}' is not a whole number from 0 to 10^7", field), field};
  return static_cast<std::int32_t>(rank);
}

std::int64_t extent_field(std::string_view field, const char* what) { return pioneer_extent(field, what); }

// DXT_MPIIO 1 recorded no offsets: darshan-dxt-parser prints -1, read as unknown.
std::int64_t dxt_offset(bool mpiio, std::string_view field) {
  return mpiio && field == "-1" ? kUnknown : extent_field(field, "offset");
}

void check_rank(std::int64_t rank, const std::string& where) {
  if (rank < 0 || rank > 10000000)
    throw UserError(fmt::format("{}: rank {} is not a whole number from 0 to 10^7", where, rank));
}

// A binary .darshan log's DXT records (io/darshan_log.hpp), in darshan-dxt-parser's order.
void read_dxt_requests_binary(const std::string& path, Trace& counts, RequestTable& table) {
  const DarshanBinaryLog log = read_darshan_log_file(path, kDarshanDxt);
  for (const auto& module : log.incomplete_dxt) counts.incomplete_modules.push_back(incomplete_module_entry(path, module));
  for (const DxtFileRecord& d : log.dxt) {
    const std::string where = fmt::format("{}: DXT record of file id {} (rank {})", path, d.id, d.rank);
    check_rank(d.rank, where);
    const std::int32_t file = table.file_id(d.name);
    for (std::size_t i = 0; i < d.segments.size(); ++i) {
      const DxtSegment& s = d.segments[i];
      const bool write = i < d.writes;
      if (s.length < 0 || s.offset < (d.mpiio ? -1 : 0) || !(s.end >= s.start))
        throw UserError(fmt::format("{}, operation {}: offset {}, length {}, [{}, {}] s: a negative extent or an end "
                                    "before the start: the log is damaged",
                                    where, i, s.offset, s.length, s.start, s.end));
      Request r;
      r.rank = static_cast<std::int32_t>(d.rank);
      r.file = file;
      r.op = table.op_id(d.mpiio ? (write ? "MPI_File_write" : "MPI_File_read") : (write ? "write" : "read"));
      r.offset = s.offset < 0 ? kUnknown : s.offset;
      r.size = s.length;
      r.start = s.start;
      r.duration = s.end - s.start;
      table.requests.push_back(r);
    }
  }
}

// darshan-dxt-parser: "# DXT, file_id: ID, file_name: NAME" opens a block; " X_POSIX rank op segment offset length
// start end". Every block is checked against its counts (io/traces/dxt_blocks.hpp).
void read_dxt_requests(const std::string& path, const TraceOptions& options, Trace& counts, RequestTable& table) {
  if (is_darshan_log(path)) return read_dxt_requests_binary(path, counts, table);
  std::int32_t file = -1;
  bool seen_header = false;
  DxtBlocks blocks(path);
  const std::uint64_t lines_before = counts.lines;  // counts.lines runs on over the files
  for_each_line(path, options, counts, true, [&](std::string_view line) {
    if ((counts.lines & 0xffff) == 0) throw_if_interrupted();
    const std::string_view content = trim(line);
    if (content.front() == '#') {
      if (header_value(content, "# start_time:")) seen_header = true;
      if (starts_with(content, "# DXT, file_id:")) file = -1;  // a damaged one, skipped, names no file
      if (const auto name = blocks.header(content, counts.lines - lines_before)) file = table.file_id(*name);
      if (auto module = incomplete_darshan_module(content, path)) counts.incomplete_modules.push_back(*module);
      return;
    }
    const auto fields = split_fields(line, ' ');
    if (!starts_with(fields[0], "X_"))
      throw BadLine{"expected a DXT operation line (X_POSIX or X_MPIIO ...)", fields[0]};
    if (fields.size() >= 3) blocks.operation(fields[2] == "write");  // a line of the block, even one skipped
    if (fields.size() < 8)
      throw BadLine{
          fmt::format("expected 8 fields (module rank op segment offset length start end), found {}", fields.size()),
          fields.back()};
    if (file < 0) throw BadLine{"an operation before any '# DXT, file_id: ..., file_name: ...' line", fields[0]};
    if (fields[2] != "read" && fields[2] != "write")
      throw BadLine{fmt::format("operation '{}' is neither read nor write", fields[2]), fields[2]};
    Request r;
    r.rank = rank_field(fields[1]);
    r.file = file;
    const bool mpi = fields[0] == "X_MPIIO";
    r.op = table.op_id(mpi ? (fields[2] == "read" ? "MPI_File_read" : "MPI_File_write") : fields[2]);
    r.offset = dxt_offset(mpi, fields[4]);
    r.size = extent_field(fields[5], "length");
    r.start = time_field(fields[6], TimeUnit::s);
    const double end = time_field(fields[7], TimeUnit::s);
    if (end < r.start) throw BadLine{fmt::format("end {} is before start {}", fields[7], fields[6]), fields[7]};
    r.duration = end - r.start;
    table.requests.push_back(r);
  });
  blocks.finish(counts.lines - lines_before);
  if (!seen_header) throw UserError(fmt::format("{}: no '# start_time:' line: not darshan-dxt-parser output", path));
}

// The rank of a PIONEER line: a word "rank=N" in extra, else the file's position among the traces.
std::optional<std::string_view> rank_word(std::string_view extra) {
  for (const auto word : split_fields(extra, ' ')) {
    for (std::size_t at = 0; at < word.size();) {
      const std::size_t comma = std::min(word.find(',', at), word.size());
      const std::string_view part = word.substr(at, comma - at);
      if (starts_with(part, "rank=")) return part.substr(5);
      at = comma + 1;
    }
  }
  return std::nullopt;
}

void read_pioneer_requests(const std::string& path, std::int32_t file_rank, const TraceOptions& options,
                           Trace& counts, RequestTable& table) {
  const TimeUnit unit = options.time_unit.value_or(TimeUnit::s);
  double day_offset = 0, previous = -1;
  for_each_line(path, options, counts, false, [&](std::string_view line) {
    if ((counts.lines & 0xffff) == 0) throw_if_interrupted();
    const PioneerFields fields = split_pioneer_line(line, options.delimiter);
    Request r;
    r.start = time_field(fields.time, unit, true);
    if (fields.time.find(':') != std::string_view::npos && previous >= 0 && r.start + day_offset < previous - 43200)
      day_offset += 86400;
    r.start += day_offset;
    previous = r.start;
    r.op = table.op_id(fields.op);
    if (fields.file != "NULL" && fields.file != "-") r.file = table.file_id(fields.file);
    r.offset = extent_field(fields.offset, "offset");
    r.size = extent_field(fields.size, "size");
    r.duration = non_negative_field(fields.execution_time, "execution time") * time_scale(unit);
    r.rank = file_rank;
    if (const auto word = rank_word(fields.extra)) r.rank = rank_field(*word);
    if (is_data(table.op_classes[r.op]) && r.file < 0)
      throw BadLine{fmt::format("data operation '{}' names no file", fields.op), fields.file};
    table.requests.push_back(r);
  });
}

void add_opens(RequestTrace& trace, bool posix, double rank, double opens, std::string_view rank_text,
               std::string_view opens_text, const std::string& file) {
  if (rank < -1 || rank > 1e7 || rank != std::floor(rank))
    throw BadLine{fmt::format("rank '{}' is not a whole number from -1 to 10^7", rank_text), rank_text};
  if (opens < 0) throw BadLine{fmt::format("opens '{}' is negative", opens_text), opens_text};
  if (opens > 1e15) throw BadLine{fmt::format("{} opens are more than 10^15", opens_text), opens_text};
  const auto key = std::make_pair(static_cast<std::int32_t>(rank), file);
  (posix ? trace.posix_opens : trace.mpiio_opens)[key] += static_cast<std::uint64_t>(opens);
}

// A binary .darshan log's POSIX and MPI-IO open counts.
void read_open_counts_binary(const std::string& path, RequestTrace& trace) {
  for (const DarshanFileRecord& r : read_darshan_log_file(path, kDarshanCounters).records)
    for (const DarshanCounter& c : r.counters) {
      const std::string_view name = c.name;
      const bool posix = name == "POSIX_OPENS";
      if (!posix && name != "MPIIO_INDEP_OPENS" && name != "MPIIO_COLL_OPENS") continue;
      try {
        add_opens(trace, posix, static_cast<double>(r.rank), c.value, fmt::format("{}", r.rank),
                  fmt::format("{}", c.value), r.name);
      } catch (const BadLine& bad) {
        throw UserError(fmt::format("{}: {} record {} of rank {}: {}", path, r.module, r.id, r.rank, bad.message));
      }
    }
}

// darshan-parser text: "MODULE rank record_id COUNTER value file mount fs".
void read_open_counts(const std::string& path, const TraceOptions& options, RequestTrace& trace) {
  if (is_darshan_log(path)) return read_open_counts_binary(path, trace);
  Trace counts;
  for_each_line(path, options, counts, false, [&](std::string_view line) {
    const auto fields = split_fields(line, '\t');
    if (fields.size() < 6) return;
    const bool posix = fields[3] == "POSIX_OPENS";
    const bool mpiio = fields[3] == "MPIIO_INDEP_OPENS" || fields[3] == "MPIIO_COLL_OPENS";
    if (!posix && !mpiio) return;
    add_opens(trace, posix, number_field(fields[1], "rank"), non_negative_field(fields[4], "opens"), fields[1],
              fields[4], std::string(fields[5]));
  });
}

}  // namespace

std::string request_trace_warning(const RequestTrace& trace) {
  std::string warning = incomplete_modules_warning(trace.incomplete_modules);
  if (!trace.counters_note.empty()) warning += (warning.empty() ? "" : "; ") + trace.counters_note;
  return warning;
}

RequestTrace read_request_trace(const std::vector<std::string>& paths, const std::string& format,
                                const TraceOptions& options, const std::string& counters) {
  if (format != "dxt" && format != "pioneer")
    throw UserError(fmt::format("--format '{}' has no requests; accepted: dxt, pioneer", format));
  RequestTrace trace;
  Trace counts;  // lines and skipped lines
  for (std::size_t i = 0; i < paths.size(); ++i) {
    if (format == "dxt")
      read_dxt_requests(paths[i], options, counts, trace.table);
    else
      read_pioneer_requests(paths[i], static_cast<std::int32_t>(i), options, counts, trace.table);
    trace.sources.push_back(paths[i]);
  }
  if (trace.table.requests.empty() && format == "dxt")
    throw UserError(fmt::format(
        "{}: no DXT records: the log holds no DXT module data (Darshan records each read and write only with its DXT "
        "tracing on: run the application with the environment variable DXT_ENABLE_IO_TRACE=1{})",
        fmt::join(paths, ", "),
        // gpusynth reads a binary log itself; a text needs the parser run on the new log.
        is_darshan_log(paths.front()) ? ", and give gpusynth its new .darshan log"
                                      : ", then darshan-dxt-parser LOG > LOG.dxt.txt"));
  if (trace.table.requests.empty())
    throw UserError(fmt::format("{}: no requests", fmt::join(paths, ", ")));
  if (!counters.empty()) {
    read_open_counts(counters, options, trace);
    const auto names_a_file = [&](const auto& opens) {
      return std::any_of(opens.begin(), opens.end(), [&](const auto& entry) {
        return std::find(trace.table.files.begin(), trace.table.files.end(), entry.first.second) !=
               trace.table.files.end();
      });
    };
    if (!names_a_file(trace.posix_opens) && !names_a_file(trace.mpiio_opens))
      trace.counters_note = fmt::format(
          "the counters '{}' count opens of none of the trace's {} files (another job's log?): every session is "
          "inferred from the requests alone",
          counters, trace.table.files.size());
  }
  for (const Request& r : trace.table.requests) trace.ranks = std::max(trace.ranks, r.rank + 1);
  trace.lines = counts.lines;
  trace.bad_lines = counts.bad_lines;
  trace.bad_line_examples = counts.bad_line_examples;
  trace.incomplete_modules = counts.incomplete_modules;
  return trace;
}

}  // namespace gs
