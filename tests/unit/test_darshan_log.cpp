// The binary darshan log reader (io/darshan_log.hpp) against darshan-util's
// own text of the same logs (tests/data/darshan/README.md): the records it
// reads equal what darshan-parser and darshan-dxt-parser print, and every
// command's reader (darshan, dxt, requests) gives from the binary log what it
// gives from that text. Damaged logs are one UserError naming the file.
#include <fmt/format.h>
#include <gtest/gtest.h>
#include <zlib.h>

#include <algorithm>
#include <cmath>
#include <fstream>
#include <iterator>
#include <map>
#include <numeric>
#include <optional>
#include <tuple>

#include "estimators/requests.hpp"
#include "host/base/errors.hpp"
#include "io/darshan_log.hpp"
#include "io/line_reader.hpp"
#include "io/request_trace.hpp"
#include "io/trace.hpp"
#include "test_support.hpp"

namespace gs {
namespace {

using test::error_of;

const std::vector<std::string> kLogs = {"mpi-io-test-x86_64-3.0.0",       "mpi-io-test-ppc64-3.1.3",
                                        "mpi-io-test-x86_64-3.2.0",       "mpi-io-test-dxt-3.21",
                                        "mpi-io-test-x86_64-3.4.0-bzip2", "partial-stdio-one-record",
                                        "mpi-io-test-dxt-partial-bzip2"};
const std::vector<std::string> kDxtLogs = {"mpi-io-test-ppc64-3.1.3", "mpi-io-test-dxt-3.21",
                                           "mpi-io-test-dxt-partial-bzip2"};

std::string log_path(const std::string& name) { return test::data_path("darshan/" + name + ".darshan"); }
std::string parser_path(const std::string& name) { return test::data_path("darshan/" + name + ".parser.txt.gz"); }
std::string dxt_path(const std::string& name) { return test::data_path("darshan/" + name + ".dxt.txt.gz"); }

std::vector<std::string> lines_of(const std::string& path) {
  LineReader reader(path);
  std::vector<std::string> lines;
  for (std::string line; reader.next(line);) lines.push_back(line);
  return lines;
}

std::string bytes_of(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
}

// The module names of Trace::incomplete_modules ("FILE: MODULE"), without the file.
std::vector<std::string> module_names(const std::vector<std::string>& entries) {
  std::vector<std::string> names;
  for (const auto& e : entries) names.push_back(e.substr(e.rfind(": ") + 2));
  return names;
}

// "MODULE rank id COUNTER value name" of every counter the reader gives, in
// darshan-parser's digits (%lld for counts, %f for timers).
std::vector<std::string> counter_lines(const DarshanBinaryLog& log) {
  std::vector<std::string> lines;
  for (const auto& r : log.records)
    for (const auto& c : r.counters) {
      const bool timer = std::string_view(c.name).find("_F_") != std::string_view::npos;
      lines.push_back(fmt::format("{}\t{}\t{}\t{}\t{}\t{}", r.module, r.rank, r.id, c.name,
                                  timer ? fmt::format("{:.6f}", c.value) : fmt::format("{:.0f}", c.value), r.name));
    }
  return lines;
}

TEST(DarshanLog, CountersEqualWhatDarshanParserPrints) {
  for (const auto& name : kLogs) {
    SCOPED_TRACE(name);
    const DarshanBinaryLog log = read_darshan_log_file(log_path(name));
    std::map<std::string, std::string> printed;  // "module rank id counter" → "value name"
    for (const auto& line : lines_of(parser_path(name))) {
      const auto f = split_fields(line, '\t');
      if (line.empty() || line[0] == '#' || f.size() < 6) continue;
      printed[fmt::format("{}\t{}\t{}\t{}", f[0], f[1], f[2], f[3])] = fmt::format("{}\t{}", f[4], f[5]);
    }
    const auto lines = counter_lines(log);
    ASSERT_FALSE(lines.empty());
    for (const auto& line : lines) {
      const auto f = split_fields(line, '\t');
      const auto it = printed.find(fmt::format("{}\t{}\t{}\t{}", f[0], f[1], f[2], f[3]));
      ASSERT_NE(it, printed.end()) << line;
      EXPECT_EQ(it->second, fmt::format("{}\t{}", f[4], f[5])) << line;
    }
  }
}

TEST(DarshanLog, JobAndDxtEqualWhatTheParsersPrint) {
  for (const auto& name : kDxtLogs) {
    SCOPED_TRACE(name);
    const DarshanBinaryLog log = read_darshan_log_file(log_path(name));
    std::vector<std::string> printed, read;
    for (const auto& line : lines_of(dxt_path(name))) {
      const auto f = split_fields(line, ' ');
      if (!f.empty() && (f[0] == "X_POSIX" || f[0] == "X_MPIIO"))
        printed.push_back(fmt::format("{} {} {} {} {} {} {}", f[0], f[1], f[2], f[4], f[5], f[6], f[7]));
      if (const auto at = line.find("# start_time: "); at == 0) {
        EXPECT_EQ(line.substr(14), std::to_string(log.start_time));
      }
      if (line.rfind("# run time: ", 0) == 0) {
        EXPECT_EQ(line.substr(12), fmt::format("{:.4f}", log.run_time));
      }
    }
    for (const auto& r : log.dxt)
      for (std::size_t i = 0; i < r.segments.size(); ++i) {
        const auto& s = r.segments[i];
        read.push_back(fmt::format("{} {} {} {} {} {:.4f} {:.4f}", r.mpiio ? "X_MPIIO" : "X_POSIX", r.rank,
                                   i < r.writes ? "write" : "read", s.offset, s.length, s.start, s.end));
      }
    EXPECT_EQ(read, printed);
  }
}

TraceOptions darshan_options() {
  TraceOptions options;
  options.format = "darshan";
  options.bin_width = 1;
  options.modules = {"POSIX", "MPI-IO", "STDIO"};
  return options;
}

// The series the darshan reader spreads from the binary log equals the one
// from darshan-parser's text up to its printed digits: timers and timestamps
// to 1 µs, so a time channel's total within half of that per record.
TEST(DarshanLog, DarshanSeriesEqualsTheOneFromParserText) {
  for (const auto& name : kLogs) {
    SCOPED_TRACE(name);
    const double printed = 0.5e-6 * static_cast<double>(read_darshan_log_file(log_path(name)).records.size());
    const Trace binary = read_trace({log_path(name)}, darshan_options());
    const Trace text = read_trace({parser_path(name)}, darshan_options());
    EXPECT_EQ(binary.epoch, text.epoch);
    EXPECT_EQ(module_names(binary.incomplete_modules), module_names(text.incomplete_modules));
    EXPECT_EQ(binary.untimed_records, text.untimed_records);
    EXPECT_EQ(binary.negative_timers, text.negative_timers);
    for (const auto& [channel, values] : text.binned.channels) {
      const auto& got = binary.binned.channels.at(channel);
      ASSERT_EQ(got.size(), values.size()) << channel;
      const double sum = std::accumulate(values.begin(), values.end(), 0.0);
      const double digits = channel.rfind("time", 0) == 0 ? printed : 0.0;
      EXPECT_NEAR(std::accumulate(got.begin(), got.end(), 0.0), sum, digits + 1e-9 * (1 + sum)) << channel;
      for (std::size_t k = 0; k < values.size(); ++k) EXPECT_NEAR(got[k], values[k], 1e-5 * (1 + sum)) << channel;
    }
  }
}

// (start, duration, operation, size) with times in darshan-dxt-parser's 4
// decimals, sorted: events within 0.1 ms of each other come in either order
// when sorted by exact or by printed times.
std::vector<std::string> events_in_printed_digits(const Trace& t) {
  std::vector<std::string> events;
  for (std::size_t i = 0; i < t.times.size(); ++i)
    events.push_back(fmt::format("{:.4f} {:.4f} {} {}", t.times[i], t.times[i] + t.durations[i],
                                 static_cast<int>(t.ops[i]), t.sizes[i]));
  std::sort(events.begin(), events.end());
  return events;
}

TEST(DarshanLog, DxtEventsAndRequestsEqualTheOnesFromDxtText) {
  for (const auto& name : kDxtLogs) {
    SCOPED_TRACE(name);
    TraceOptions options;
    options.format = "dxt";
    options.modules = {"POSIX", "MPI-IO"};
    const Trace binary = read_trace({log_path(name)}, options), text = read_trace({dxt_path(name)}, options);
    EXPECT_EQ(binary.epoch, text.epoch);
    EXPECT_EQ(module_names(binary.incomplete_modules), module_names(text.incomplete_modules));
    EXPECT_EQ(events_in_printed_digits(binary), events_in_printed_digits(text));

    const RequestTrace rb = read_request_trace({log_path(name)}, "dxt", TraceOptions{}, log_path(name));
    const RequestTrace rt = read_request_trace({dxt_path(name)}, "dxt", TraceOptions{}, parser_path(name));
    EXPECT_EQ(rb.table.files, rt.table.files);
    EXPECT_EQ(rb.table.ops, rt.table.ops);
    EXPECT_EQ(rb.ranks, rt.ranks);
    EXPECT_EQ(rb.posix_opens, rt.posix_opens);
    EXPECT_EQ(rb.mpiio_opens, rt.mpiio_opens);
    EXPECT_EQ(module_names(rb.incomplete_modules), module_names(rt.incomplete_modules));
    ASSERT_EQ(rb.table.requests.size(), rt.table.requests.size());
    for (std::size_t i = 0; i < rt.table.requests.size(); ++i) {
      const Request &a = rb.table.requests[i], &b = rt.table.requests[i];
      EXPECT_EQ(std::tie(a.rank, a.file, a.op, a.offset, a.size), std::tie(b.rank, b.file, b.op, b.offset, b.size));
      EXPECT_NEAR(a.start, b.start, 0.5e-4 + 1e-12);
      EXPECT_NEAR(a.duration, b.duration, 1e-4 + 1e-12);
    }
  }
}

TEST(DarshanLog, FormatIsToldFromTheMagicNumber) {
  EXPECT_EQ(detect_trace_format(log_path("mpi-io-test-dxt-3.21")), std::optional<std::string>("dxt"));
  EXPECT_EQ(detect_trace_format(log_path("mpi-io-test-x86_64-3.0.0")), std::optional<std::string>("darshan"));
  EXPECT_FALSE(is_darshan_log(parser_path("mpi-io-test-x86_64-3.0.0")));
  // The header alone tells DXT data, as the whole log read does (the ppc64 log is big-endian, 3.10).
  for (const std::string& name : kLogs) {
    const bool dxt = std::count(kDxtLogs.begin(), kDxtLogs.end(), name) > 0;
    EXPECT_EQ(darshan_log_has_dxt(log_path(name)), dxt) << name;
    EXPECT_EQ(read_darshan_log_file(log_path(name)).has_dxt_data, dxt) << name;
  }
}

TEST(DarshanLog, HeatmapAndPartialFlagsAreRead) {
  const DarshanBinaryLog heat = read_darshan_log_file(log_path("mpi-io-test-x86_64-3.4.0-bzip2"));
  EXPECT_EQ(heat.compression, "BZIP2");
  ASSERT_FALSE(heat.heatmaps.empty());
  EXPECT_GT(heat.heatmaps[0].bin_width, 0);
  EXPECT_EQ(read_darshan_log_file(log_path("partial-stdio-one-record")).incomplete_counters,
            std::vector<std::string>{"STDIO"});
  EXPECT_EQ(read_darshan_log_file(log_path("mpi-io-test-dxt-partial-bzip2")).incomplete_dxt,
            std::vector<std::string>{"DXT_POSIX"});
}

// Damaged logs: one UserError naming the file and what is wrong.
std::string damage_error(std::string bytes) {
  return error_of([&] { parse_darshan_log(bytes, "damaged.darshan"); });
}

void put_u64(std::string& bytes, std::size_t at, std::uint64_t value) {
  for (int i = 0; i < 8; ++i) bytes[at + static_cast<std::size_t>(i)] = static_cast<char>((value >> (8 * i)) & 0xff);
}

std::uint64_t get_u64(const std::string& bytes, std::size_t at) {
  std::uint64_t v = 0;
  for (int i = 7; i >= 0; --i) v = (v << 8) | static_cast<unsigned char>(bytes[at + static_cast<std::size_t>(i)]);
  return v;
}

TEST(DarshanLog, CutLogsAreErrors) {
  const std::string log = bytes_of(log_path("mpi-io-test-x86_64-3.4.0-bzip2"));
  const auto inside = damage_error(log.substr(0, 600));
  EXPECT_NE(inside.find("damaged.darshan: the file ends at byte 600, inside the 1328-byte header"), std::string::npos)
      << inside;
  const auto e = damage_error(log.substr(0, log.size() - 10));
  EXPECT_NE(e.find("damaged.darshan: the header places the"), std::string::npos) << e;
  EXPECT_NE(e.find("the log is cut"), std::string::npos) << e;
  for (std::size_t n = 0; n < log.size(); ++n) EXPECT_NE(damage_error(log.substr(0, n)), "") << n;
}

TEST(DarshanLog, WrongVersionAndMagicAreErrors) {
  std::string log = bytes_of(log_path("mpi-io-test-x86_64-3.0.0"));
  std::string version = log;
  version[3] = '5';
  EXPECT_NE(damage_error(version).find("version '3.05' is not one this reader knows; accepted: 3.00"),
            std::string::npos);
  std::string magic = log;
  magic[9] ^= 0x40;
  EXPECT_NE(damage_error(magic).find("magic number"), std::string::npos);
}

// The 3.41 header: name region at 32, module m's region at 48 + 16 m (offset, length), versions at 1072 + 4 m.
TEST(DarshanLog, RegionsWhoseLengthLiesAreErrors) {
  const std::string log = bytes_of(log_path("mpi-io-test-x86_64-3.4.0-bzip2"));
  const std::size_t posix_length = 48 + 16 * 1 + 8;
  std::string longer = log;
  put_u64(longer, posix_length, get_u64(log, posix_length) + 4096);
  EXPECT_NE(damage_error(longer).find("POSIX module region at bytes"), std::string::npos) << damage_error(longer);
  std::string shorter = log;
  put_u64(shorter, posix_length, get_u64(log, posix_length) - 7);
  EXPECT_NE(damage_error(shorter).find("the POSIX module region"), std::string::npos) << damage_error(shorter);
  std::string version = log;
  version[1072 + 4] = 9;  // POSIX module version 9
  EXPECT_NE(damage_error(version).find("the POSIX module's format version is 9"), std::string::npos);
}

// Either DXT module alone is DXT data: the 3.41 log with DXT_POSIX's (module 10) or DXT_MPIIO's
// (module 11) region taken out of its header, then both.
TEST(DarshanLog, EitherDxtModuleAloneIsDxtData) {
  const std::string log = bytes_of(log_path("mpi-io-test-dxt-partial-bzip2"));
  const auto region_at = [](int module) { return std::size_t{48} + 16 * static_cast<std::size_t>(module); };
  ASSERT_GT(get_u64(log, region_at(10) + 8), 0u);
  ASSERT_GT(get_u64(log, region_at(11) + 8), 0u);
  const test::TempDir dir;
  const auto without = [&](std::vector<int> modules) {
    std::string bytes = log;
    for (const int m : modules) put_u64(bytes, region_at(m), 0), put_u64(bytes, region_at(m) + 8, 0);
    const std::string path = dir.path(fmt::format("without_{}.darshan", fmt::join(modules, "_")));
    std::ofstream(path, std::ios::binary) << bytes;
    return path;
  };
  for (const auto& [taken_out, dxt] :
       {std::pair{std::vector<int>{10}, true}, {std::vector<int>{11}, true}, {std::vector<int>{10, 11}, false}}) {
    const std::string path = without(taken_out);
    EXPECT_EQ(darshan_log_has_dxt(path), dxt) << path;
    EXPECT_EQ(read_darshan_log_file(path).has_dxt_data, dxt) << path;
    EXPECT_EQ(detect_trace_format(path), std::optional<std::string>(dxt ? "dxt" : "darshan")) << path;
  }
}

TEST(DarshanLog, FlippedBytesAreErrorsOrReadNeverACrash) {
  const std::string log = bytes_of(log_path("mpi-io-test-dxt-partial-bzip2"));
  std::string flipped = log;
  const std::size_t posix = get_u64(log, 48 + 16);
  flipped[posix + 40] ^= 0x5a;
  EXPECT_NE(damage_error(flipped).find("is not valid BZIP2 data"), std::string::npos) << damage_error(flipped);
  const std::string small = bytes_of(log_path("mpi-io-test-x86_64-3.0.0"));
  for (std::size_t at = 0; at < small.size(); ++at) {
    std::string bytes = small;
    bytes[at] = static_cast<char>(~bytes[at]);
    try {
      parse_darshan_log(bytes, "damaged.darshan");
    } catch (const UserError& e) {
      EXPECT_EQ(std::string(e.what()).rfind("damaged.darshan: ", 0), 0u) << e.what();
    }
  }
}

}  // namespace
}  // namespace gs
