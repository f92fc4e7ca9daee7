// The trace readers on real samples (tests/data/README.md gives their
// provenance and the independent counts quoted here) and on malformed input.
#include <fmt/format.h>
#include <gtest/gtest.h>
#include <zlib.h>

#include <algorithm>
#include <cmath>
#include <fstream>
#include <iterator>
#include <map>
#include <numeric>

#include "estimators/requests.hpp"
#include "host/base/errors.hpp"
#include "io/binning.hpp"
#include "io/line_reader.hpp"
#include "io/request_trace.hpp"
#include "io/series_source.hpp"
#include "io/trace.hpp"
#include "test_support.hpp"

namespace gs {
namespace {

TraceOptions options_for(const std::string& format) {
  TraceOptions options;
  options.format = format;
  return options;
}

double total(const std::vector<double>& v) { return std::accumulate(v.begin(), v.end(), 0.0); }

std::size_t count_op(const Trace& trace, Operation op) {
  return static_cast<std::size_t>(std::count(trace.ops.begin(), trace.ops.end(), op));
}

using test::error_of;

// Counted with awk: `$1=="X_POSIX"` lines of the DXT text, their lengths and reads.
TEST(TraceReaders, DxtGivesEveryPosixOperationInTimeOrder) {
  const Trace trace = read_trace({test::data_path("mpi-io-test.dxt.txt.gz")}, options_for("dxt"));
  ASSERT_EQ(trace.times.size(), 320u);
  EXPECT_EQ(count_op(trace, Operation::read), 128u);
  EXPECT_EQ(total(trace.sizes), 4294969856.0);
  EXPECT_EQ(trace.epoch, 1622673798.0);
  EXPECT_TRUE(std::is_sorted(trace.times.begin(), trace.times.end()));
  for (double d : trace.durations) EXPECT_GE(d, 0.0);

  TraceOptions both = options_for("dxt");
  both.modules = {"POSIX", "MPI-IO"};
  EXPECT_EQ(read_trace({test::data_path("mpi-io-test.dxt.txt.gz")}, both).times.size(), 576u);
}

// The text of a gzipped trace with `comment` put after its first line.
std::string with_comment_after_first_line(const std::string& gz, const std::string& comment) {
  LineReader reader(gz);
  std::string line, text;
  for (bool first = true; reader.next(line); first = false) text += line + "\n" + (first ? comment : "");
  return text;
}

// darshan's "module contains incomplete data" warnings (its runtime ran out
// of record memory) are named with their file by the DXT, darshan and
// request readers; a log without them, or with another warning, has none.
TEST(TraceReaders, ModulesDarshanMarkedIncompleteAreNamed) {
  test::TempDir dir;
  const std::string warned =
      "# *WARNING*: The DXT_POSIX module contains incomplete data!\n"
      "#            This happens when a module runs out of\n"
      "# *WARNING*: The DXT_MPIIO module contains incomplete data!\n"
      "# *WARNING*: The DXT_POSIX module is old\n";
  const std::string dxt = dir.path("partial.dxt.txt"), parser = dir.path("partial.parser.txt");
  test::write_file(dxt, with_comment_after_first_line(test::data_path("mpi-io-test.dxt.txt.gz"), warned));
  test::write_file(parser, with_comment_after_first_line(test::data_path("mpi-io-test.parser.txt.gz"),
                                                         "# *WARNING*: The POSIX module contains incomplete data!\n"));
  const std::vector<std::string> dxt_modules = {dxt + ": DXT_POSIX", dxt + ": DXT_MPIIO"};
  EXPECT_EQ(read_trace({dxt}, options_for("dxt")).incomplete_modules, dxt_modules);
  EXPECT_EQ(read_request_trace({dxt}, "dxt", TraceOptions{}).incomplete_modules, dxt_modules);
  TraceOptions darshan = options_for("darshan");
  darshan.bin_width = 1;
  EXPECT_EQ(read_trace({parser}, darshan).incomplete_modules, std::vector<std::string>{parser + ": POSIX"});
  EXPECT_TRUE(read_trace({test::data_path("mpi-io-test.dxt.txt.gz")}, options_for("dxt")).incomplete_modules.empty());
  EXPECT_EQ(incomplete_modules_warning({}), "");
  EXPECT_NE(incomplete_modules_warning(dxt_modules)
                .find("darshan marked incomplete: " + dxt + ": DXT_POSIX, " + dxt + ": DXT_MPIIO (its runtime ran out"),
            std::string::npos);
}

// Sums of POSIX_/STDIO_ BYTES_READ, BYTES_WRITTEN, READS, WRITES over the records (awk).
TEST(TraceReaders, DarshanSpreadsEveryByteOfTheLogOverItsBins) {
  TraceOptions options = options_for("darshan");
  options.bin_width = 0.5;
  const Trace trace = read_trace({test::data_path("mpi-io-test.parser.txt.gz")}, options);
  ASSERT_EQ(trace.kind, Trace::Kind::binned);
  const auto& c = trace.binned.channels;
  EXPECT_EQ(trace.binned.size(), 28u);  // run time 14 s in 0.5 s bins
  EXPECT_EQ(trace.epoch, 1622673798.0);
  const double untimed = trace.untimed_bytes;
  EXPECT_NEAR(total(c.at("bytes_read")) + total(c.at("bytes_write")) + untimed, 2147483648.0 + 2147487833.0, 1e-3);
  EXPECT_NEAR(total(c.at("bytes")), total(c.at("bytes_read")) + total(c.at("bytes_write")), 1e-3);
  if (trace.untimed_records == 0) {
    EXPECT_NEAR(total(c.at("count_read")), 128.0, 1e-9);
    EXPECT_NEAR(total(c.at("count_write")), 230.0, 1e-9);
  }
}

TEST(TraceReaders, DarshanLogsShareOneClock) {
  TraceOptions options = options_for("darshan");
  options.bin_width = 3600;
  const auto a = read_trace({test::data_path("dxt.parser.txt.gz")}, options);
  const auto b = read_trace({test::data_path("mpi-io-test.parser.txt.gz")}, options);
  const auto both =
      read_trace({test::data_path("mpi-io-test.parser.txt.gz"), test::data_path("dxt.parser.txt.gz")}, options);
  EXPECT_EQ(both.epoch, 1587455133.0);  // the earlier log's start
  // From the first start to the second log's end (start 1622673798 + 14 s), in hours.
  EXPECT_EQ(both.binned.size(), static_cast<std::size_t>(std::ceil((1622673812.0 - 1587455133.0) / 3600)));
  EXPECT_NEAR(total(both.binned.channels.at("bytes")),
              total(a.binned.channels.at("bytes")) + total(b.binned.channels.at("bytes")), 1e-3);
}

TEST(TraceReaders, DarshanSpreadsAnIntervalAtAUniformRate) {
  test::TempDir dir;
  const std::string path = dir.path("one.txt");
  test::write_file(path,
                   "# start_time: 1000\n# run time: 4.0\n"
                   "POSIX\t0\t7\tPOSIX_READS\t4\t/f\t/\tnfs\n"
                   "POSIX\t0\t7\tPOSIX_BYTES_READ\t1000\t/f\t/\tnfs\n"
                   "POSIX\t0\t7\tPOSIX_F_READ_START_TIMESTAMP\t0.5\t/f\t/\tnfs\n"
                   "POSIX\t0\t7\tPOSIX_F_READ_END_TIMESTAMP\t2.5\t/f\t/\tnfs\n"
                   "LUSTRE\t0\t7\tLUSTRE_OSTS\t4\t/f\t/\tlustre\n");
  TraceOptions options = options_for("darshan");
  options.bin_width = 1;
  const Trace trace = read_trace({path}, options);
  EXPECT_EQ(trace.binned.channels.at("bytes_read"), (std::vector<double>{250, 500, 250, 0}));
  EXPECT_EQ(trace.binned.channels.at("count_read"), (std::vector<double>{1, 2, 1, 0}));
  EXPECT_EQ(trace.binned.channels.at("bytes_write"), (std::vector<double>{0, 0, 0, 0}));
}

// The burst paper's equal share beside the time overlap, the I/O-time channel
// and calendar bins: a read over [100, 700) s of a log starting at 10^9 s, bins of 300 s.
TEST(TraceReaders, DarshanEqualShareOverlapTimeAndEpochBins) {
  test::TempDir dir;
  const std::string path = dir.path("one.txt");
  test::write_file(path,
                   "# start_time: 1000000000\n# run time: 1000\n"
                   "POSIX\t0\t7\tPOSIX_READS\t3\t/f\t/\tnfs\n"
                   "POSIX\t0\t7\tPOSIX_BYTES_READ\t3000\t/f\t/\tnfs\n"
                   "POSIX\t0\t7\tPOSIX_F_READ_TIME\t1.5\t/f\t/\tnfs\n"
                   "POSIX\t0\t7\tPOSIX_F_READ_START_TIMESTAMP\t100\t/f\t/\tnfs\n"
                   "POSIX\t0\t7\tPOSIX_F_READ_END_TIMESTAMP\t700\t/f\t/\tnfs\n");
  TraceOptions options = options_for("darshan");
  options.bin_width = 300;
  const Trace overlap = read_trace({path}, options);
  EXPECT_EQ(overlap.binned.channels.at("bytes_read"), (std::vector<double>{1000, 1500, 500, 0}));
  options.spread = TraceOptions::Spread::equal_share;
  const Trace equal = read_trace({path}, options);
  EXPECT_EQ(equal.binned.channels.at("bytes_read"), (std::vector<double>{1000, 1000, 1000, 0}));
  EXPECT_EQ(equal.binned.channels.at("count_read"), (std::vector<double>{1, 1, 1, 0}));
  EXPECT_EQ(equal.binned.channels.at("time_read"), (std::vector<double>{0.5, 0.5, 0.5, 0}));
  EXPECT_EQ(total(overlap.binned.channels.at("time")), 1.5);
  // Calendar bins: 10^9 s is 100 s past a multiple of 300 s, so the read covers [200, 800) of them.
  options.spread = TraceOptions::Spread::overlap;
  options.align = TraceOptions::Align::epoch;
  const Trace aligned = read_trace({path}, options);
  EXPECT_EQ(aligned.epoch, 999999900.0);
  EXPECT_EQ(aligned.binned.channels.at("bytes_read"), (std::vector<double>{500, 1500, 1000, 0}));
}

// What real darshan-parser output holds (darshan 3.10 logs in ../shared/data):
// words as other modules' values (LUSTRE's stripe pattern "raid0", N/A) and a
// negative STDIO timer of stderr, which is read as 0 and counted. A word in a
// module that is read stays an error.
TEST(TraceReaders, DarshanOtherModulesWordsAndNegativeTimers) {
  test::TempDir dir;
  const std::string path = dir.path("log.txt");
  const std::string lines =
      "# start_time: 1000\n# run time: 10\n"
      "LUSTRE\t-1\t9\tLUSTRE_COMP1_STRIPE_PATTERN\traid0\t/f\t/scratch\tlustre\n"
      "LUSTRE\t-1\t9\tLUSTRE_COMP1_FLAGS\tN/A\t/f\t/scratch\tlustre\n"
      "STDIO\t0\t5\tSTDIO_WRITES\t2\t<STDERR>\tUNKNOWN\tUNKNOWN\n"
      "STDIO\t0\t5\tSTDIO_BYTES_WRITTEN\t100\t<STDERR>\tUNKNOWN\tUNKNOWN\n"
      "STDIO\t0\t5\tSTDIO_F_WRITE_TIME\t-2662.746634\t<STDERR>\tUNKNOWN\tUNKNOWN\n"
      "STDIO\t0\t5\tSTDIO_F_META_TIME\t-1.5\t<STDERR>\tUNKNOWN\tUNKNOWN\n"
      "STDIO\t0\t5\tSTDIO_F_WRITE_START_TIMESTAMP\t1\t<STDERR>\tUNKNOWN\tUNKNOWN\n"
      "STDIO\t0\t5\tSTDIO_F_WRITE_END_TIMESTAMP\t2\t<STDERR>\tUNKNOWN\tUNKNOWN\n";
  test::write_file(path, lines);
  TraceOptions options = options_for("darshan");
  options.bin_width = 1;
  const Trace trace = read_trace({path}, options);
  EXPECT_EQ(total(trace.binned.channels.at("bytes_write")), 100.0);
  EXPECT_EQ(total(trace.binned.channels.at("time_write")), 0.0);
  EXPECT_EQ(trace.negative_timers, 1u);  // the write timer; the meta timer is not read
  test::write_file(path, lines + "STDIO\t0\t5\tSTDIO_BYTES_READ\tN/A\t<STDERR>\tUNKNOWN\tUNKNOWN\n");
  EXPECT_NE(error_of([&] { read_trace({path}, options); }).find("counter value 'N/A' is not a finite number"),
            std::string::npos);
}

// A trace list: comments, blank lines, paths relative to the list's folder or absolute.
TEST(TraceReaders, TraceListNamesTheLogs) {
  test::TempDir dir;
  test::write_file(dir.path("list.txt"), "# two logs\na.txt  # the first\n\n/abs/b.txt\n");
  std::vector<std::string> paths;
  append_trace_list(dir.path("list.txt"), paths);
  EXPECT_EQ(paths, (std::vector<std::string>{dir.path("a.txt"), "/abs/b.txt"}));
  test::write_file(dir.path("empty.txt"), "# nothing\n");
  EXPECT_NE(error_of([&] { append_trace_list(dir.path("empty.txt"), paths); }).find("names no file"),
            std::string::npos);
}

// Both spreads keep every byte, on the real 32-rank log.
TEST(TraceReaders, DarshanSpreadsConserveBytes) {
  TraceOptions options = options_for("darshan");
  options.bin_width = 1;
  const Trace overlap = read_trace({test::data_path("mpi-io-test.parser.txt.gz")}, options);
  options.spread = TraceOptions::Spread::equal_share;
  const Trace equal = read_trace({test::data_path("mpi-io-test.parser.txt.gz")}, options);
  for (const char* channel : {"bytes_read", "bytes_write", "count", "time"}) {
    const double a = total(overlap.binned.channels.at(channel)), b = total(equal.binned.channels.at(channel));
    EXPECT_GT(a, 0) << channel;
    EXPECT_NEAR(a, b, 1e-9 * a) << channel;
  }
  EXPECT_NE(overlap.binned.channels.at("bytes_write"), equal.binned.channels.at("bytes_write"));
}

// The kernel's blk tracer on a loop device while dd wrote Σ i·8 blocks of 64 KiB
// and read Σ i·10 blocks of 16 KiB (i = 1..6) with O_DIRECT (tests/data/README.md).
TEST(TraceReaders, BlkparseQueueEventsAreTheRequestsDdMade) {
  const Trace queued = read_trace({test::data_path("loop0_blk.txt.gz")}, options_for("blkparse"));
  ASSERT_EQ(queued.times.size(), 378u);
  EXPECT_EQ(count_op(queued, Operation::read), 210u);
  EXPECT_EQ(count_op(queued, Operation::write), 168u);
  double read_bytes = 0, write_bytes = 0;
  for (std::size_t i = 0; i < queued.times.size(); ++i)
    (queued.ops[i] == Operation::read ? read_bytes : write_bytes) += queued.sizes[i];
  EXPECT_EQ(read_bytes, 21.0 * 10 * 16384);
  EXPECT_EQ(write_bytes, 21.0 * 8 * 65536);
  TraceOptions issued = options_for("blkparse");
  issued.blk_action = 'D';
  const Trace dispatched = read_trace({test::data_path("loop0_blk.txt.gz")}, issued);
  ASSERT_EQ(dispatched.times.size(), 378u);
  EXPECT_GE(dispatched.times.front(), queued.times.front());
}

// blkparse's own layout has a sequence number before the time; its summary lines are not events.
TEST(TraceReaders, BlkparseDefaultLayoutWithSequenceNumbers) {
  test::TempDir dir;
  const std::string path = dir.path("blk.txt");
  test::write_file(path,
                   "  8,0    3        1     0.000000000   697  G   W 223490 + 8 [kjournald]\n"
                   "  8,0    3        2     0.000001000   697  Q   W 223490 + 8 [kjournald]\n"
                   "  8,0    1        3     0.250000000   700  Q   R 100 + 16 [cat]\n"
                   "  8,0    1        4     0.250010000   700  D   R 100 + 16 [cat]\n"
                   "\nCPU0 (8,0):\n Reads Queued:           1,        8KiB\n"
                   "Total (8,0):\n Reads Queued:           1,        8KiB\n");
  const Trace trace = read_trace({path}, options_for("blkparse"));
  ASSERT_EQ(trace.times.size(), 2u);
  EXPECT_EQ(trace.times[1], 0.25);
  EXPECT_EQ(trace.ops, (std::vector<Operation>{Operation::write, Operation::read}));
  EXPECT_EQ(trace.sizes, (std::vector<double>{4096, 8192}));
}

// awk: lines, `$5 % 2 == 1`, Σ $4·512.
TEST(TraceReaders, DisksimFlagsBitZeroIsRead) {
  TraceOptions options = options_for("disksim");
  options.time_unit = TimeUnit::ns;
  const Trace trace = read_trace({test::data_path("mqsim_tpcc_small.disksim.gz")}, options);
  ASSERT_EQ(trace.times.size(), 6999u);
  EXPECT_EQ(count_op(trace, Operation::read), 4381u);
  EXPECT_EQ(total(trace.sizes), 59718656.0);
  EXPECT_NEAR(trace.times.front(), 938513000e-9, 1e-12);
}

// awk on the CSV: rows, opcodes 28/88 and 2a/8a, Σ size; the counts file is its per-second binning.
TEST(TraceReaders, TimestampsWithNamedColumnsAndOpcodes) {
  TraceOptions options = options_for("timestamps");
  options.header = true;
  options.time_column = "time";
  options.op_column = "op";
  options.size_column = "size";
  options.read_values = {"28", "88"};
  options.write_values = {"2a", "8a"};
  const Trace trace = read_trace({test::data_path("cloudphysics_vscsi.csv.gz")}, options);
  ASSERT_EQ(trace.times.size(), 113872u);
  EXPECT_EQ(count_op(trace, Operation::read), 46974u);
  EXPECT_EQ(count_op(trace, Operation::write), 66898u);
  EXPECT_EQ(total(trace.sizes), 4205978112.0);

  TraceOptions counts = options_for("counts");
  counts.bin_width = 1;
  const Trace binned = read_trace({test::data_path("cloudphysics_per_second.counts")}, counts);
  EXPECT_EQ(bin_events(trace, 1.0).channels.at("count"), binned.binned.channels.at("count"));
}

TEST(TraceReaders, SeriesKeepsIrregularTimesAsGiven) {
  const Trace trace = read_trace({test::data_path("atlas10k_latency.series.gz")}, options_for("series"));
  ASSERT_EQ(trace.series_values.size(), 10000u);
  EXPECT_EQ(trace.series_times[1], 0.045422);
  EXPECT_EQ(trace.series_values[0], 663.0);
  EXPECT_TRUE(std::is_sorted(trace.series_times.begin(), trace.series_times.end()));
}

// Made from the DXT text above (tests/data/README.md): 256 reads, 320 writes, durations end − start.
TEST(TraceReaders, PioneerSevenFieldTrace) {
  const Trace trace = read_trace({test::data_path("mpi-io-test.pioneer")}, options_for("pioneer"));
  ASSERT_EQ(trace.times.size(), 576u);
  EXPECT_EQ(count_op(trace, Operation::read), 256u);
  EXPECT_EQ(count_op(trace, Operation::write), 320u);
  EXPECT_EQ(trace.durations.size(), 576u);
}

TEST(TraceReaders, PioneerTimeOfDayCrossesMidnight) {
  test::TempDir dir;
  const std::string path = dir.path("p.txt");
  test::write_file(path,
                   "23:59:59.5 MPI_File_open /f 0 0 0.001 -\n"
                   "00:00:00.25 MPI_File_write_at /f 0 1048576 0.002 -\n");
  const Trace trace = read_trace({path}, options_for("pioneer"));
  ASSERT_EQ(trace.times.size(), 2u);
  EXPECT_NEAR(trace.times[1] - trace.times[0], 0.75, 1e-9);
  EXPECT_EQ(trace.ops[1], Operation::write);
}

TEST(TraceReaders, Iso8601TimesWithOffsets) {
  test::TempDir dir;
  const std::string path = dir.path("iso.txt");
  test::write_file(path, "2024-02-28T23:59:59.5Z\n2024-02-29T01:00:00.5+01:00\n2024-03-01T00:00:01Z\n");
  TraceOptions options = options_for("timestamps");
  options.time_unit = TimeUnit::iso8601;
  const Trace trace = read_trace({path}, options);
  ASSERT_EQ(trace.times.size(), 3u);
  EXPECT_NEAR(trace.times[1], 1.0, 1e-6);
  EXPECT_NEAR(trace.times[2], 86401.5, 1e-6);  // 2024 is a leap year
  EXPECT_NEAR(trace.epoch, 1709164799.5, 1e-3);
}

// A first line without a number is read as the column names without --header
// (and said so); a first line with one is data; ISO-8601 times are text, so
// their first line stays data (the test above).
TEST(TraceReaders, FirstLineWithoutNumbersIsAHeader) {
  test::TempDir dir;
  const std::string path = dir.path("probe.series");
  test::write_file(path, "time,latency\n0.5,3\n1.5,4\n");
  const Trace named = read_trace({path}, options_for("series"));
  EXPECT_TRUE(named.header_detected);
  EXPECT_EQ(named.series_values, (std::vector<double>{3, 4}));
  TraceOptions by_name = options_for("series");
  by_name.value_column = "latency";
  EXPECT_EQ(read_trace({path}, by_name).series_values, (std::vector<double>{3, 4}));
  test::write_file(path, "0.5,3\n1.5,4\n");
  const Trace plain = read_trace({path}, options_for("series"));
  EXPECT_FALSE(plain.header_detected);
  EXPECT_EQ(plain.series_values, (std::vector<double>{3, 4}));
  test::write_file(path, "0.5,three\n1.5,4\n");  // a number in it: data, and its bad value is an error
  EXPECT_NE(error_of([&] { read_trace({path}, options_for("series")); }).find(":1:"), std::string::npos);
}

struct Malformed {
  std::string format;
  std::string text;
  std::string expected;  // part of the message
  int line, column;
};

TEST(TraceReaders, MalformedLinesAreLocatedErrorsOrCountedSkips) {
  const std::vector<Malformed> cases = {
      {"timestamps", "1.0\n2.0\nnan\n3\n", "'nan' is not a finite number", 3, 1},
      {"timestamps", "1.0\n-2.0\n3\n", "'-2.0' is negative", 2, 1},
      {"timestamps", "1.0\n2.0\n1.5\n3\n", "earlier than the previous event", 3, 1},
      {"timestamps", "1.0\n2.0 x\n1e400\n", "'1e400' is not a finite number", 3, 1},
      {"disksim", "1 0 5 8 1\n2 0 5 8\n3 0 5 8 0\n", "expected 5 fields", 2, 1},
      {"disksim", "1 0 5 8 1\n2 0 5 8 1.5\n3 0 5 8 0\n", "flags '1.5' is not an integer", 2, 9},
      // Converting it to an integer was undefined behaviour (found by fuzz_trace_disksim).
      {"disksim", "1 0 5 8 1\n2 0 5 8 1e300\n3 0 5 8 0\n", "flags '1e300' is out of range", 2, 9},
      {"series", "0 1\n1 2\n2 abc\n3 4\n", "value 'abc' is not a finite number", 3, 3},
      {"pioneer", "1 SYS_read /f 0 10 0.1 x\n2 SYS_read /f 0\n3 SYS_read /f 0 10 0.1 x\n", "expected 7 fields", 2, 1},
      {"blkparse", "  8,0 1 1 0.1 1 Q R 8 + 8 [a]\n  8,0 1 2 0.2 1 Q R 8 8 [a]\n  8,0 1 3 0.3 1 Q R 8 + 8 [a]\n",
       "needs 'sector + sectors'", 2, 25},
  };
  test::TempDir dir;
  for (const auto& c : cases) {
    const std::string path = dir.path("bad.txt");
    test::write_file(path, c.text);
    TraceOptions options = options_for(c.format);
    const std::string message = error_of([&] { read_trace({path}, options); });
    EXPECT_NE(message.find(fmt::format("{}:{}:{}:", path, c.line, c.column)), std::string::npos) << message;
    EXPECT_NE(message.find(c.expected), std::string::npos) << message;
    options.skip_bad_lines = true;
    const Trace trace = read_trace({path}, options);
    EXPECT_EQ(trace.bad_lines, 1u) << c.text;
    EXPECT_EQ(trace.bad_line_examples.size(), 1u);
  }
}

TEST(TraceReaders, SortAcceptsAnUnorderedTraceAndSaysSo) {
  test::TempDir dir;
  const std::string path = dir.path("t.txt");
  test::write_file(path, "# comment\n3\n1\n2\n");
  TraceOptions options = options_for("timestamps");
  options.sort = true;
  const Trace trace = read_trace({path}, options);
  EXPECT_EQ(trace.times, (std::vector<double>{1, 2, 3}));
  EXPECT_EQ(trace.reordered, 1u);
}

TEST(TraceReaders, OptionErrorsNameWhatIsAccepted) {
  test::TempDir dir;
  const std::string path = dir.path("h.csv");
  test::write_file(path, "when,kind\n1,r\n");
  TraceOptions options = options_for("timestamps");
  options.header = true;
  options.time_column = "time";
  EXPECT_NE(error_of([&] { read_trace({path}, options); }).find("its header: when, kind"), std::string::npos);
  EXPECT_NE(error_of([&] { read_trace({dir.path("missing.txt")}, options); }).find("cannot open"), std::string::npos);
  EXPECT_NE(
      error_of([] { trace_format("csv"); }).find("is not one of blkparse, counts, darshan, disksim, dxt, pioneer"),
      std::string::npos);
  TraceOptions counts = options_for("counts");
  EXPECT_NE(error_of([&] { read_trace({path}, counts); }).find("--bin is required"), std::string::npos);
  TraceOptions dxt = options_for("dxt");
  EXPECT_NE(error_of([&] { read_trace({path}, dxt); }).find("expected a DXT operation line"), std::string::npos);
}

// Issue 25: damaged input is an error with its line, or a counted skip; never
// a line dropped in silence, a short read taken for a whole file, or a crash.
struct Damaged {
  std::string format;
  std::string text;
  int line;  // where the error must point
};

// A valid first line of each text format, so that the damage is on line 2.
const std::map<std::string, std::string> kGoodLine = {
    {"timestamps", "1.5\n"},
    {"series", "1.5 3\n"},
    {"counts", "7\n"},
    {"disksim", "1.5 0 8 8 1\n"},
    {"pioneer", "1.5 SYS_read /f 0 10 0.1 x\n"},
    {"blkparse", "  8,0 1 1 0.1 1 Q R 8 + 8 [a]\n"},
    {"dxt", "# start_time: 1000\n X_POSIX 0 read 0 0 10 0.1 0.2\n"},
    {"darshan", "# start_time: 1000\nPOSIX\t0\t7\tPOSIX_READS\t4\t/f\t/\tnfs\n"},
};

TraceOptions damaged_options(const std::string& format) {
  TraceOptions options = options_for(format);
  options.bin_width = 1;
  return options;
}

TEST(TraceReaders, NulBytesAndOverlongLinesAreLocatedErrorsInEveryFormat) {
  test::TempDir dir;
  for (const auto& [format, good] : kGoodLine) {
    const int first_damaged = static_cast<int>(std::count(good.begin(), good.end(), '\n')) + 1;
    const std::string nul_line = std::string(1, '\0') + good.substr(good.rfind('\n', good.size() - 2) + 1);
    const std::string long_line = std::string(LineReader::kMaxLineBytes + 10, '7') + "\n";
    for (const auto& [damage, expected] :
         {std::pair{nul_line, std::string("a NUL byte")}, std::pair{long_line, std::string("longer than 1 MiB")}}) {
      const std::string path = dir.path(format + ".txt");
      test::write_file(path, good + damage + good.substr(good.rfind('\n', good.size() - 2) + 1));
      TraceOptions options = damaged_options(format);
      const std::string message = error_of([&] { read_trace({path}, options); });
      EXPECT_NE(message.find(fmt::format("{}:{}:", path, first_damaged)), std::string::npos)
          << format << ": " << message;
      EXPECT_NE(message.find(expected), std::string::npos) << format << ": " << message;
      options.skip_bad_lines = true;
      EXPECT_EQ(read_trace({path}, options).bad_lines, 1u) << format;
    }
  }
}

TEST(TraceReaders, TruncatedGzipIsAnErrorNotAShortTrace) {
  test::TempDir dir;
  const std::string whole = dir.path("t.gz"), cut = dir.path("cut.gz");
  std::string text;
  for (int i = 1; i <= 300; ++i) text += std::to_string(i) + "\n";
  gzFile out = gzopen(whole.c_str(), "wb");
  ASSERT_NE(out, nullptr);
  ASSERT_EQ(gzwrite(out, text.data(), static_cast<unsigned>(text.size())), static_cast<int>(text.size()));
  gzclose(out);
  EXPECT_EQ(read_trace({whole}, options_for("timestamps")).times.size(), 300u);
  std::ifstream in(whole, std::ios::binary);
  std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  for (const std::size_t keep : {bytes.size() - 4, bytes.size() / 2, std::size_t{20}}) {  // into the trailer, the data
    test::write_file(cut, bytes.substr(0, keep));
    TraceOptions options = options_for("timestamps");
    options.skip_bad_lines = true;  // not a bad line: the whole file is suspect
    EXPECT_NE(error_of([&] { read_trace({cut}, options); }).find("truncated"), std::string::npos) << keep;
  }
}

// blkparse's summary lines do not start with a device "major,minor": every
// line that does is an event, whatever its time field holds.
TEST(TraceReaders, BlkparseEventsWithBadTimesAreErrorsNotSummaries) {
  test::TempDir dir;
  const std::string path = dir.path("blk.txt");
  for (const std::string time : {"nan", "inf", "-5", "12abc", "-0.5"}) {
    test::write_file(path, "  8,0 1 1 0.1 1 Q R 8 + 8 [a]\n  8,0 1 2 " + time + " 1 Q R 8 + 8 [a]\n");
    const std::string message = error_of([&] { read_trace({path}, options_for("blkparse")); });
    EXPECT_NE(message.find(path + ":2:"), std::string::npos) << time << ": " << message;
  }
  for (const std::string time : {"nan", "1e308"}) {  // the kernel tracer's layout, without a sequence number
    test::write_file(path, "  7,0 1 0.1 1 Q R 8 + 8 [a]\n  7,0 1 " + time + " 1 Q R 8 + 8 [a]\n");
    const std::string message = error_of([&] { bin_events(read_trace({path}, options_for("blkparse")), 1.0); });
    EXPECT_NE(message.find(time == "nan" ? path + ":2:" : "bins"), std::string::npos) << time << ": " << message;
  }
}

TEST(TraceReaders, DarshanDamageIsAnErrorNotAQuietGap) {
  test::TempDir dir;
  const std::string path = dir.path("d.txt");
  const std::string header = "# start_time: 1000\n# run time: 4.0\n";
  const std::string record = "POSIX\t0\t7\tPOSIX_READS\t4\t/f\t/\tnfs\n";
  const TraceOptions options = damaged_options("darshan");
  const std::vector<std::pair<std::string, std::string>> cases = {
      {header + record + "garbage in the log\n", path + ":4:"},
      {header + record + "POSIX\tzero\t7\tPOSIX_READS\t4\n", "rank 'zero'"},
      {header + record + "POSIX\t0\t7\tposix reads\t4\n", "counter 'posix reads'"},
      {header + record + "POSIX\t0\t7\tPOSIX_BYTES_READ\tmany\n", "counter value 'many'"},
      {header + "# nothing but headers\n", "no counter records"},
      {header + record +
           "POSIX\t0\t7\tPOSIX_F_READ_START_TIMESTAMP\t0.5\n"
           "POSIX\t0\t7\tPOSIX_F_READ_END_TIMESTAMP\t1e308\n",
       "bins"},
  };
  for (const auto& [text, expected] : cases) {
    test::write_file(path, text);
    const std::string message = error_of([&] { read_trace({path}, options); });
    EXPECT_NE(message.find(expected), std::string::npos) << text << "\n" << message;
  }
  // A job without I/O among others adds nothing and is counted.
  const std::string empty = dir.path("empty.txt");
  test::write_file(empty, header);
  test::write_file(path, header + record);
  const Trace both = read_trace({path, empty}, options);
  EXPECT_EQ(both.logs_without_records, 1u);
}

}  // namespace
}  // namespace gs
