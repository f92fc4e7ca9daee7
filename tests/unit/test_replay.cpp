// The replay's inputs and measurements (docs/requests.md, "Replay
// fidelity"): the original a replay compares with (the trace's requests,
// scaled as the replicas are) and fio's logs read back into issue,
// completion and latency per request, with metadata operations placed.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "host/requests/characteristics.hpp"
#include "host/requests/synthesize.hpp"
#include "io/fio_logs.hpp"
#include "io/request_trace.hpp"
#include "test_support.hpp"

namespace gs {
namespace {

using test::error_of;

TraceCharacterization mpi_io_test() {
  return characterize_requests(read_request_trace({test::data_path("mpi-io-test.dxt.txt.gz")}, "dxt", TraceOptions{},
                                                  test::data_path("mpi-io-test.parser.txt.gz")));
}

TEST(ReplayOriginal, IsTheTracesRequestsScaledAsTheReplicas) {
  const TraceCharacterization c = mpi_io_test();
  SynthesisOptions scaled;
  scaled.overrides[Characteristic::SIZE] = {1.0 / 4096, 0};
  scaled.overrides[Characteristic::OFF] = {1.0 / 4096, 0};
  const Workload same = replay_original(c.sanitized, SynthesisOptions{});
  const Workload small = replay_original(c.sanitized, scaled);
  ASSERT_EQ(same.table.requests.size(), c.sanitized.table.requests.size());
  ASSERT_EQ(small.table.requests.size(), c.sanitized.table.requests.size());
  EXPECT_EQ(small.processes, 32);
  const double origin = c.sanitized.table.requests.front().start;
  std::int64_t data = 0, largest = 0;
  for (std::size_t i = 0; i < small.table.requests.size(); ++i) {
    const Request &r = c.sanitized.table.requests[i], &s = small.table.requests[i], &u = same.table.requests[i];
    EXPECT_DOUBLE_EQ(s.start, r.start - origin);
    EXPECT_EQ(u.size, r.size);
    EXPECT_EQ(u.offset, r.offset);
    if (!is_data(c.sanitized.table.op_class(r))) continue;
    ++data;
    EXPECT_EQ(s.size, std::max<std::int64_t>(1, std::llround(static_cast<double>(r.size) / 4096)));  // 40 B: 1 B
    EXPECT_EQ(s.offset, std::llround(static_cast<double>(r.offset) / 4096));
    largest = std::max(largest, s.offset + s.size);
  }
  EXPECT_EQ(data, 320);
  std::int64_t file_largest = 0;
  for (const FileInfo& f : small.files) file_largest = std::max(file_largest, f.size);
  EXPECT_EQ(file_largest, largest);
}

// A replay folder as stage_fio_replay writes it and fio leaves it: two jobs.
class FioLogs : public ::testing::Test {
 protected:
  void SetUp() override {
    std::filesystem::create_directories(dir.path("lat"));
    write("replay.fio",
          "# test\n[global]\nioengine=psync\n\n[rank_0]\nread_iolog=rank_0.iolog\nwrite_lat_log=lat/rank_0\n"
          "startdelay=0us\n\n[rank_1]\nread_iolog=rank_1.iolog\nwrite_lat_log=lat/rank_1\nstartdelay=500000us\n");
    write("rank_0.iolog",
          "fio version 3 iolog\n0 files/0_a add\n0 files/0_a open\n0 files/0_a write 0 4096\n"
          "100000 files/0_a write 4096 4096\n100000 files/0_a close\n");
    write("rank_1.iolog", "fio version 3 iolog\n0 files/1_b add\n0 files/1_b read 0 100\n0 files/1_b sync 0 0\n");
    write("lat/rank_0_lat.1.log", "2, 1500000, 1, 4096, 0\n103, 3000000, 1, 4096, 4096\n");
    write("lat/rank_1_lat.2.log", "1, 250000, 0, 100, 0\n");
  }
  void write(const std::string& name, const std::string& text) { std::ofstream(dir.path(name)) << text; }
  test::TempDir dir;
};

TEST_F(FioLogs, ReadsIssueCompletionLatencyAndMetadata) {
  const ReplayRecord r = read_fio_replay(dir.root());
  ASSERT_EQ(r.ios.size(), 3u);
  EXPECT_DOUBLE_EQ(r.ios[0].completion, 0.002);
  EXPECT_DOUBLE_EQ(r.ios[0].latency, 0.0015);
  EXPECT_DOUBLE_EQ(r.ios[0].issue, 0.0005);
  EXPECT_FALSE(r.ios[0].read);
  EXPECT_DOUBLE_EQ(r.ios[1].completion, 0.103);
  EXPECT_DOUBLE_EQ(r.ios[2].completion, 0.501);  // rank 1 started 0.5 s late
  EXPECT_DOUBLE_EQ(r.ios[2].issue, 0.50075);
  EXPECT_TRUE(r.ios[2].read);
  EXPECT_DOUBLE_EQ(r.bytes(), 8292);
  EXPECT_DOUBLE_EQ(r.run_time(), 0.501);
  // open at rank 0's start, close after its last write, sync after rank 1's read.
  EXPECT_EQ(r.metadata_times, (std::vector<double>{0.0, 0.103, 0.501}));
}

TEST_F(FioLogs, ALogThatDisagreesWithItsIologIsNamed) {
  write("lat/rank_0_lat.1.log", "2, 1500000, 1, 4096, 0\n103, 3000000, 0, 4096, 4096\n");
  EXPECT_NE(error_of([&] { read_fio_replay(dir.root()); }).find("rank_0_lat.1.log:2: fio logged a read of 4096 bytes"),
            std::string::npos);
  write("lat/rank_0_lat.1.log", "2, 1500000, 1, 4096, 0\n");
  EXPECT_NE(error_of([&] { read_fio_replay(dir.root()); }).find("fio stopped before the end"), std::string::npos);
  write("lat/rank_0_lat.1.log", "2, 1500000, 1, 4096, 0\nnot a line\n");
  EXPECT_NE(error_of([&] { read_fio_replay(dir.root()); }).find("rank_0_lat.1.log:2: 'not a line' is not a line"),
            std::string::npos);
  std::filesystem::remove(dir.path("lat/rank_1_lat.2.log"));
  write("lat/rank_0_lat.1.log", "2, 1500000, 1, 4096, 0\n103, 3000000, 1, 4096, 4096\n");
  EXPECT_NE(error_of([&] { read_fio_replay(dir.root()); }).find("no latency log"), std::string::npos);
  write("replay.fio", "[rank_0]\nread_iolog=rank_0.iolog\nwrite_lat_log=lat/rank_0\nstartdelay=5ms\n");
  EXPECT_NE(error_of([&] { read_fio_replay(dir.root()); }).find("replay.fio:4: startdelay '5ms'"), std::string::npos);
}

}  // namespace
}  // namespace gs
