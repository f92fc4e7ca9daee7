// A replay split over fio servers (`gpusynth replay --clients FILE`,
// docs/requests.md): the clients file, the processes' blocks, the servers'
// job files and their latency logs read back as one local replay's.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "io/fio_logs.hpp"
#include "io/fio_servers.hpp"
#include "io/request_texts.hpp"
#include "test_support.hpp"

namespace gs {
namespace {

using test::error_of;

class FioServersFile : public ::testing::Test {
 protected:
  std::vector<FioServer> read(const std::string& text) {
    std::ofstream(path) << text;
    return read_fio_servers(path);
  }
  std::string error(const std::string& text) {
    return error_of([&] { read(text); });
  }
  test::TempDir dir;
  std::string path = dir.path("clients");
};

TEST_F(FioServersFile, ReadsHostsPortsCommentsAndBlankLines) {
  const std::vector<FioServer> s =
      read("# the nodes\n\nnode1\n  node2,9000  # a comment\n10.0.0.7 , 8766\nip6:::1,4444\nip:node3\n");
  ASSERT_EQ(s.size(), 5u);
  EXPECT_EQ(s[0].host, "node1");
  EXPECT_EQ(s[0].port, 8765);  // fio's own default
  EXPECT_EQ(s[0].line, 3);
  EXPECT_EQ(s[1].argument(), "node2,9000");
  EXPECT_EQ(s[1].line, 4);
  EXPECT_EQ(s[2].argument(), "10.0.0.7,8766");
  EXPECT_EQ(s[3].argument(), "ip6:::1,4444");
  EXPECT_EQ(s[4].argument(), "ip:node3,8765");
}

TEST_F(FioServersFile, ErrorsNameTheFileAndLine) {
  const std::string where = "--clients " + path;
  EXPECT_NE(error("a\nb,0\n").find(where + ":2: 'b,0': the port '0' is not a number from 1 to 65535"),
            std::string::npos)
      << error("a\nb,0\n");
  EXPECT_NE(error("b,65536\n").find(where + ":1: 'b,65536': the port '65536'"), std::string::npos);
  EXPECT_NE(error("b,http\n").find(":1: 'b,http': the port 'http'"), std::string::npos);
  EXPECT_NE(error("b,\n").find(":1: 'b,': the port ''"), std::string::npos);
  EXPECT_NE(error("b,80,81\n").find(":1: 'b,80,81': the port '80,81'"), std::string::npos);
  EXPECT_NE(error("\n\nnode 1\n").find(":3: 'node 1': 'node 1' is not a host name or address"), std::string::npos);
  EXPECT_NE(error(",8765\n").find(":1: ',8765': no host"), std::string::npos);
  EXPECT_NE(error("::1\n").find("an IPv6 address takes fio's ip6: first"), std::string::npos);
  EXPECT_NE(error("sock:/tmp/fio.sock\n").find("a local socket (sock:) reaches no other node"), std::string::npos);
  EXPECT_NE(error("a\nb,9000\na,8765\n").find(where + ":3: the fio server a,8765 is listed already on line 1"),
            std::string::npos);
  EXPECT_NE(error("").find(where + ": lists no fio server"), std::string::npos);
  EXPECT_NE(error("# only a comment\n\n").find(where + ": lists no fio server"), std::string::npos);
  EXPECT_NE(error_of([&] { read_fio_servers(dir.path("none")); }).find("--clients " + dir.path("none")),
            std::string::npos);
}

TEST(FioServers, ProcessBlocksAreContiguousAndEven) {
  const auto blocks = [](std::int32_t processes, std::size_t servers) {
    std::vector<std::pair<std::int32_t, std::int32_t>> out;
    for (const ProcessBlock& b : process_blocks(processes, servers)) out.emplace_back(b.first, b.count);
    return out;
  };
  using Blocks = std::vector<std::pair<std::int32_t, std::int32_t>>;
  EXPECT_EQ(blocks(10, 3), (Blocks{{0, 4}, {4, 3}, {7, 3}}));
  EXPECT_EQ(blocks(4100, 2), (Blocks{{0, 2050}, {2050, 2050}}));
  EXPECT_EQ(blocks(2, 3), (Blocks{{0, 1}, {1, 1}, {2, 0}}));  // fewer processes than servers: an empty block
  EXPECT_EQ(blocks(32, 1), (Blocks{{0, 32}}));
  for (std::int32_t processes : {1, 7, 4096, 8193, 12288})
    for (std::size_t servers : {1u, 2u, 3u, 5u}) {
      std::int32_t next = 0, least = processes, most = 0;
      for (const ProcessBlock& b : process_blocks(processes, servers)) {
        EXPECT_EQ(b.first, next);
        next += b.count;
        least = std::min(least, b.count);
        most = std::max(most, b.count);
      }
      EXPECT_EQ(next, processes);
      EXPECT_LE(most - least, 1) << processes << " over " << servers;
    }
}

// Three processes, each writing its file twice; process 1 has no I/O (it opens only).
Workload three_processes() {
  Workload w;
  w.processes = 4;
  for (std::int32_t rank = 0; rank < 4; ++rank) {
    const std::int32_t file = w.table.file_id("/data/f" + std::to_string(rank));
    w.files.push_back(FileInfo{});
    w.files.back().size = 8192;
    for (int k = 0; k < 3; ++k) {
      Request r;
      r.rank = rank;
      r.op = w.table.op_id(k == 0 ? "open" : rank == 1 ? "close" : "write");
      r.file = file;
      r.offset = 4096 * (k - 1);
      r.size = 4096;
      r.seq = k;
      r.start = 0.1 * rank + 0.01 * k;
      w.table.requests.push_back(r);
    }
  }
  return w;
}

std::string text_of(const std::string& path) {
  std::stringstream text;
  text << std::ifstream(path).rdbuf();
  return text.str();
}

// fio's latency log of a job's two 4 KiB writes: completion ms, latency ns, direction, size, then the
// offset (log_offset=1) or, as a server's, the priority (log_offset=0).
void write_latency_log(const std::string& path, int ms, bool offsets = true) {
  std::ofstream(path) << ms << ", 200000, 1, 4096, 0\n"
                      << ms + 5 << ", 300000, 1, 4096, " << (offsets ? 4096 : 0) << "\n";
}

TEST(FioServers, TheServersJobFilesReadBackAsOneReplay) {
  test::TempDir dir;
  const Workload w = three_processes();
  // One local replay, its logs as fio names them.
  PendingReplayDirectory local(dir.path("local"), "test");
  const FioSummary one = stage_fio_replay(local, w, "local");
  EXPECT_EQ(one.job_files, std::vector<std::string>{"replay.fio"});
  std::filesystem::create_directories(local.temp_path() + "/lat");
  for (int rank : {0, 2, 3})
    write_latency_log(fmt::format("{}/lat/rank_{}_lat.{}.log", local.temp_path(), rank, rank + 1), 10 * rank);
  // The same over two servers: processes 0-1 on the first (1 has no job), 2-3 on the second; the
  // client writes each server's logs with the host after them.
  PendingReplayDirectory split(dir.path("split"), "test");
  FioServerStaging servers;
  servers.job_files = {{"replay.0.fio", "node1,8765", {0, 2}}, {"replay.1.fio", "node2,9000", {2, 2}}};
  servers.job_options = {"--fsync_on_close=1", "--direct"};
  const FioSummary two = stage_fio_replay(split, w, "split", servers);
  EXPECT_EQ(two.job_files, (std::vector<std::string>{"replay.0.fio", "replay.1.fio"}));
  EXPECT_EQ(two.processes_without_io, 1u);
  const std::string folder = std::filesystem::absolute(split.temp_path()).lexically_normal().string();
  const std::string first = text_of(split.temp_path() + "/replay.1.fio");
  EXPECT_NE(first.find("# then fio --client=node2,9000 replay.1.fio here (processes 2 to 3"), std::string::npos)
      << first;
  EXPECT_NE(first.find("[global]\nfsync_on_close=1\ndirect\nioengine=psync\n"), std::string::npos) << first;
  EXPECT_NE(first.find("\nlog_offset=0\n"), std::string::npos) << first;  // fio's client drops offsets' samples
  EXPECT_NE(first.find("[rank_2]\nread_iolog=" + folder + "/rank_2.iolog\nwrite_lat_log=lat/rank_2\n"),
            std::string::npos)
      << first;
  EXPECT_EQ(first.find("[rank_0]"), std::string::npos);
  EXPECT_NE(text_of(split.temp_path() + "/rank_3.iolog").find("310000 " + folder + "/files/3_f3 add\n"),
            std::string::npos);
  std::filesystem::create_directories(split.temp_path() + "/lat");
  write_latency_log(split.temp_path() + "/lat/rank_0_lat.1.log.node1", 0, false);
  write_latency_log(split.temp_path() + "/lat/rank_2_lat.1.log.node2", 20, false);
  write_latency_log(split.temp_path() + "/lat/rank_3_lat.2.log.node2", 30, false);
  const ReplayRecord a = read_fio_replay(local.temp_path()), b = read_fio_replay(split.temp_path(), two.job_files);
  ASSERT_EQ(a.ios.size(), 6u);
  ASSERT_EQ(b.ios.size(), a.ios.size());
  for (std::size_t i = 0; i < a.ios.size(); ++i) {
    EXPECT_EQ(a.ios[i].completion, b.ios[i].completion) << i;
    EXPECT_EQ(a.ios[i].bytes, b.ios[i].bytes) << i;
  }
  EXPECT_EQ(a.metadata_times, b.metadata_times);
  // A server's logs that did not come back are named.
  std::filesystem::remove(split.temp_path() + "/lat/rank_3_lat.2.log.node2");
  EXPECT_NE(error_of([&] { read_fio_replay(split.temp_path(), two.job_files); }).find("no latency log"),
            std::string::npos);
}

}  // namespace
}  // namespace gs
