// Request-level traces and synthesis (docs/requests.md): the PIONEER lines of
// the paper's Table II, exact operation classes, sanitization of the LANL
// mpi-io-test DXT trace (576 operations -> 320 requests), root-exclusive
// requests found where they were put, template expansion, counts-driven
// timing, the dependency checker, reproducibility and the writers.
#include <fmt/format.h>
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

#include <algorithm>
#include <csignal>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <tuple>

#include "host/base/errors.hpp"
#include "host/base/interrupt.hpp"
#include "host/engine/config.hpp"
#include "host/engine/requests_run.hpp"
#include "host/requests/synthesize.hpp"
#include "io/hdf5.hpp"
#include "io/line_reader.hpp"
#include "io/request_texts.hpp"
#include "io/request_trace.hpp"
#include "io/requests_file.hpp"
#include "test_support.hpp"

namespace gs {
namespace {

using test::error_of;

RequestTrace mpi_io_test() {
  return read_request_trace({test::data_path("mpi-io-test.dxt.txt.gz")}, "dxt", TraceOptions{},
                            test::data_path("mpi-io-test.parser.txt.gz"));
}

std::string gunzipped(const std::string& path) {
  LineReader reader(path);
  std::string line, text;
  while (reader.next(line)) text += line + "\n";
  return text;
}

using Key = std::tuple<std::int32_t, std::string, std::string, std::int64_t, std::int64_t>;
std::multiset<Key> request_multiset(const Workload& w, bool data_only) {
  std::multiset<Key> out;
  for (const Request& r : w.table.requests) {
    if (data_only && !is_data(w.table.op_class(r))) continue;
    out.emplace(r.rank, w.table.op_name(r), r.file < 0 ? "" : w.table.files[r.file], r.offset, r.size);
  }
  return out;
}

TEST(Requests, OperationsAreClassedByExactName) {
  EXPECT_EQ(classify_operation("SYS_read"), OpClass::read);
  EXPECT_EQ(classify_operation("pread64"), OpClass::read);
  EXPECT_EQ(classify_operation("MPI_File_iread_at"), OpClass::read);
  EXPECT_EQ(classify_operation("MPI_File_write_all"), OpClass::write);
  EXPECT_EQ(classify_operation("read0"), OpClass::read);
  EXPECT_EQ(classify_operation("MPI_File_iwrite1"), OpClass::write);
  EXPECT_EQ(classify_operation("SYS_readlink"), OpClass::metadata);
  EXPECT_EQ(classify_operation("readdir"), OpClass::metadata);
  EXPECT_EQ(classify_operation("SYS_statfs64"), OpClass::metadata);
  EXPECT_EQ(classify_operation("SYS_fstat64"), OpClass::in_session);
  EXPECT_EQ(classify_operation("MPIO_Wait"), OpClass::in_session);
  EXPECT_EQ(classify_operation("MPI_File_seek"), OpClass::in_session);
  EXPECT_EQ(classify_operation("pread640"), OpClass::read);  // pread64 in its soft-dependency form
  EXPECT_EQ(classify_operation("SYS_pwrite641"), OpClass::write);
  EXPECT_EQ(classify_operation("SYS_open"), OpClass::open);
  EXPECT_EQ(classify_operation("MPI_File_close"), OpClass::close);
}

// The "after" line of the paper's Table II: NULL offset and size, a comma in extra.
TEST(Requests, PioneerTableTwoLine) {
  test::TempDir dir;
  const std::string path = dir.path("table2.pioneer");
  test::write_file(path,
                   "10:48:52.404754 MPI_File_open /panfs/caddypan.lanl.gov/scratch1/nobody/tests/OUTPUT.1206553581.0 "
                   "NULL NULL 0.011931 MPI_COMM_SELF,34\n"
                   "10:48:52.416760 SYS_readlink /proc/self/exe NULL NULL 0.000010 -\n"
                   "10:48:52.416800 SYS_read /panfs/caddypan.lanl.gov/scratch1/nobody/tests/OUTPUT.1206553581.0 0 "
                   "4096 0.000100 rank=3\n");
  const RequestTrace trace = read_request_trace({path}, "pioneer", TraceOptions{});
  ASSERT_EQ(trace.table.requests.size(), 3u);
  const Request& open = trace.table.requests[0];
  EXPECT_EQ(trace.table.op_name(open), "MPI_File_open");
  EXPECT_EQ(trace.table.files[open.file], "/panfs/caddypan.lanl.gov/scratch1/nobody/tests/OUTPUT.1206553581.0");
  EXPECT_EQ(open.offset, kUnknown);
  EXPECT_EQ(open.size, kUnknown);
  EXPECT_DOUBLE_EQ(open.duration, 0.011931);
  EXPECT_EQ(open.rank, 0);
  EXPECT_EQ(trace.table.op_class(trace.table.requests[1]), OpClass::metadata);  // readlink is not a read
  EXPECT_EQ(trace.table.requests[2].rank, 3);
  // The event reader takes the same lines: one read, the readlink counted as other.
  TraceOptions options;
  options.format = "pioneer";
  const Trace events = read_trace({path}, options);
  ASSERT_EQ(events.ops.size(), 3u);
  EXPECT_EQ(std::count(events.ops.begin(), events.ops.end(), Operation::read), 1);
  EXPECT_EQ(events.ops[1], Operation::other);
}

TEST(Requests, PioneerErrorsNameTheField) {
  test::TempDir dir;
  const std::string path = dir.path("bad.pioneer");
  test::write_file(path, "1.0 SYS_read /f 0 4096 0.1 x\n2.0 SYS_read /f zero 4096 0.1 x\n");
  const std::string message = error_of([&] { read_request_trace({path}, "pioneer", TraceOptions{}); });
  EXPECT_NE(message.find(path + ":2:"), std::string::npos) << message;
  EXPECT_NE(message.find("offset 'zero'"), std::string::npos) << message;
}

// 32 ranks × (8 MPI-IO + 8 POSIX on test.out, 2 POSIX on their .sm file) = 576;
// the POSIX calls inside the MPI-IO calls fold into them: 32 × 10 = 320.
TEST(Requests, MpiIoTestSanitizesTo320Requests) {
  const RequestTrace trace = mpi_io_test();
  EXPECT_EQ(trace.table.requests.size(), 576u);
  EXPECT_EQ(trace.ranks, 32);
  SanitizeSummary summary;
  const Workload sanitized = sanitize(trace, summary);
  EXPECT_EQ(summary.absorbed, 256u);
  EXPECT_EQ(request_multiset(sanitized, true).size(), 320u);
  // darshan counts 2 MPI-IO opens of test.out and 2 POSIX opens of each .sm file per rank.
  EXPECT_EQ(summary.sessions, 32u * 4u);
  EXPECT_EQ(check_dependencies(sanitized).total(), 0u);
}

TEST(Requests, GenericPathOfMpiIoTest) {
  SanitizeSummary s;
  PathSummary p;
  const Workload path = extract_path(sanitize(mpi_io_test(), s), p);
  EXPECT_EQ(p.children_aligned, 31);
  EXPECT_EQ(p.root_exclusive, 0u);
  ASSERT_EQ(path.files.size(), 2u);
  std::map<std::string, const FileInfo*> by_name;
  for (std::size_t f = 0; f < path.files.size(); ++f) by_name[path.table.files[f]] = &path.files[f];
  const FileInfo& shared = *by_name.at("/yellow/users/treddy/mpi_io_rough_work/test.out");
  EXPECT_EQ(shared.file_class, FileClass::shared);
  EXPECT_EQ(shared.rank_stride, 16777216);  // N-1 strided: rank r at r × 16 MiB
  const FileInfo& own = *by_name.at("/tmp/ompi.sn362.28751/jf.47773/1/test.out_cid-1-33371.sm");
  EXPECT_EQ(own.file_class, FileClass::private_file);
  ASSERT_TRUE(own.name.learned);
  EXPECT_EQ(own.name.name_for(31), "/tmp/ompi.sn362.28751/jf.47773/1/test.out_cid-1-33402.sm");
  EXPECT_EQ(own.name.name_for(255), "/tmp/ompi.sn362.28751/jf.47773/1/test.out_cid-1-33626.sm");
}

// A request only the root makes, put into the DXT text at 5.0 s: after the
// root's .sm session (3 requests), its MPI-IO open and two writes (at 0.0892
// and 2.7325 s), so its open, write and close are path requests 6, 7 and 8.
TEST(Requests, InjectedRootOnlyRequestIsFoundAtItsIndex) {
  test::TempDir dir;
  const std::string path = dir.path("injected.dxt.txt");
  std::string text = gunzipped(test::data_path("mpi-io-test.dxt.txt.gz"));
  text += "\n# DXT, file_id: 42, file_name: /tmp/root_only.log\n# DXT, rank: 0, hostname: sn362\n"
          " X_POSIX       0  write        0               0            4096      5.0000      5.0001   N/A\n";
  test::write_file(path, text);
  const RequestTrace trace =
      read_request_trace({path}, "dxt", TraceOptions{}, test::data_path("mpi-io-test.parser.txt.gz"));
  const TraceCharacterization c = characterize_requests(trace);
  EXPECT_EQ(c.path_summary.root_exclusive_indices, (std::vector<std::int64_t>{6, 7, 8}));
  EXPECT_EQ(c.path.table.op_name(c.path.table.requests[7]), "write0");
  EXPECT_EQ(c.characteristics.of(FileClass::root_exclusive).files, 1.0);
}

// Counters of another job (dxt.parser's files are not mpi-io-test's) count
// no open of the trace's files: said, not used in silence; the job's own are.
TEST(Requests, CountersOfAnotherJobAreSaid) {
  EXPECT_EQ(mpi_io_test().counters_note, "");
  const RequestTrace other = read_request_trace({test::data_path("mpi-io-test.dxt.txt.gz")}, "dxt", TraceOptions{},
                                                test::data_path("dxt.parser.txt.gz"));
  EXPECT_NE(other.counters_note.find("count opens of none of the trace's 33 files (another job's log?)"),
            std::string::npos)
      << other.counters_note;
}

// Template mode with N = 32 gives back the multiset of (rank, op, file, offset, size).
TEST(Requests, TemplateExpansionReproducesTheTrace) {
  const TraceCharacterization c = characterize_requests(mpi_io_test());
  SynthesisOptions options;
  options.template_mode = true;
  Workload expanded = synthesize_processes(synthesis_source(c), options, 0, 32);
  EXPECT_EQ(request_multiset(expanded, false), request_multiset(c.sanitized, false));
  EXPECT_EQ(check_dependencies(expanded).total(), 0u);
}

// Each process's (or rank's) data requests as (read or write, size), in its order.
std::multiset<std::vector<std::pair<OpClass, std::int64_t>>> data_sequences(const Workload& w) {
  std::map<std::int32_t, std::vector<std::pair<OpClass, std::int64_t>>> by_rank;
  for (const Request& r : w.table.requests)
    if (is_data(w.table.op_class(r))) by_rank[r.rank].emplace_back(w.table.op_class(r), r.size);
  std::multiset<std::vector<std::pair<OpClass, std::int64_t>>> out;
  for (auto& [rank, sequence] : by_rank) out.insert(std::move(sequence));
  return out;
}

// A real job whose ranks differ (darshan-logs' hdf5_diagonal_write_half_ranks,
// tests/data/darshan/README.md): every rank reads the same 40 requests, the
// even ranks then write 4 requests of 96, 1, 1400 and 96 bytes, the odd ranks
// 3 of 96, 800 and 96. Two rank classes; in template mode and in sample mode
// (file draws keep a file's sessions and sizes) each of N = 10 processes does
// one rank's data requests, every rank's once, and N = 20 every rank's
// twice, with no dependency broken; what the plan expects a replica to write
// is what it writes. Before 0.5.0 every process ran the root's 4 writes: 40
// writes of 15930 bytes for the trace's 35 of 12925.
TEST(Requests, RanksThatDifferKeepTheirOwnRequests) {
  const TraceCharacterization c = characterize_requests(read_request_trace(
      {test::data_path("darshan/hdf5_diagonal_write_half_ranks_dxt.darshan")}, "dxt", TraceOptions{}, ""));
  ASSERT_EQ(c.path_summary.rank_classes.size(), 2u);
  EXPECT_EQ(c.path_summary.rank_classes[0], (std::vector<std::int32_t>{0, 2, 4, 6, 8}));
  EXPECT_EQ(c.path_summary.rank_classes[1], (std::vector<std::int32_t>{1, 3, 5, 7, 9}));
  EXPECT_EQ(c.path_summary.root_exclusive, 0u);
  const SynthesisSource source = synthesis_source(c);
  const auto ranks = data_sequences(c.sanitized);
  ASSERT_EQ(ranks.size(), 10u);
  for (const bool template_mode : {true, false}) {
    SynthesisOptions options;
    options.template_mode = template_mode;
    for (const std::int32_t processes : {10, 20}) {
      auto expected = ranks;
      if (processes == 20) expected.insert(ranks.begin(), ranks.end());
      const SynthesisVolume planned = expected_synthesis(source, options, processes).volume;
      for (std::uint32_t replica = 0; replica < 3; ++replica) {
        const Workload w = synthesize_processes(source, options, replica, processes);
        EXPECT_EQ(data_sequences(w), expected) << processes << " processes, replica " << replica;
        EXPECT_EQ(check_dependencies(w).total(), 0u);
        double writes = 0, written = 0;
        for (const Request& r : w.table.requests)
          if (w.table.op_class(r) == OpClass::write) writes += 1, written += static_cast<double>(r.size);
        EXPECT_EQ(written, 12925.0 * processes / 10) << processes << " processes, replica " << replica;
        EXPECT_EQ(planned.writes, writes);
        EXPECT_EQ(planned.bytes_written, written);
      }
    }
  }
}

// Template mode takes the SIZE and OFF overrides as the replay's original
// does: the expansion is the original the replay runs, request for request,
// its files as large as their requests reach (mpi-io-test's 16 MiB writes
// become 4 KiB, its 40-byte ones 1 byte).
TEST(Requests, TemplateExpansionIsScaledAsTheReplaysOriginal) {
  const TraceCharacterization c = characterize_requests(mpi_io_test());
  SynthesisOptions options;
  options.template_mode = true;
  options.overrides[Characteristic::SIZE].scale = 1.0 / 4096;
  options.overrides[Characteristic::OFF].scale = 1.0 / 4096;
  const Workload expanded = synthesize_processes(synthesis_source(c), options, 0, 32);
  const Workload original = replay_original(c.sanitized, options);
  EXPECT_EQ(request_multiset(expanded, false), request_multiset(original, false));
  std::set<std::int64_t> sizes;
  for (const Request& r : expanded.table.requests)
    if (r.size > 0) sizes.insert(r.size);
  EXPECT_EQ(sizes, (std::set<std::int64_t>{1, 4096}));
  std::map<std::string, std::int64_t> reach;
  for (const Request& r : expanded.table.requests)
    if (r.file >= 0 && r.size > 0) {
      std::int64_t& most = reach[expanded.table.files[r.file]];
      most = std::max(most, r.offset + r.size);
    }
  ASSERT_FALSE(reach.empty());
  for (std::size_t f = 0; f < expanded.files.size(); ++f) {
    if (reach.count(expanded.table.files[f])) {
      EXPECT_EQ(expanded.files[f].size, reach[expanded.table.files[f]]) << f;
    }
  }
}

// A PIONEER trace with a seek before a read, a stat outside any session and a
// file only ever stat'ed: the seek folds into read1 and comes back in front of
// its read with its own sequence ID; the stat'ed file keeps no session.
TEST(Requests, SeeksComeBackAndMetadataOnlyFilesSynthesize) {
  test::TempDir dir;
  const std::string path = dir.path("seek.pioneer");
  test::write_file(path,
                   "1.0 SYS_stat /cfg NULL NULL 0.001 rank=0\n"
                   "1.1 SYS_open /data NULL NULL 0.001 rank=0\n"
                   "1.2 SYS_lseek /data 4096 NULL 0.001 rank=0\n"
                   "1.3 SYS_read64 /data 4096 4096 0.001 rank=0\n"
                   "1.4 SYS_read64 /data 8192 4096 0.001 rank=0\n"
                   "1.5 SYS_close /data NULL NULL 0.001 rank=0\n");
  const TraceCharacterization c = characterize_requests(read_request_trace({path}, "pioneer", TraceOptions{}));
  ASSERT_EQ(c.path.table.requests.size(), 5u);  // the seek folded into its read
  EXPECT_EQ(c.path.table.op_name(c.path.table.requests[2]), "SYS_read641");
  for (const bool use_template : {true, false}) {
    SynthesisOptions options;
    options.template_mode = use_template;
    const Workload w = synthesize_processes(synthesis_source(c), options, 0, 2);
    std::vector<std::string> rank0;
    std::set<std::int64_t> seqs;
    for (const Request& r : w.table.requests)
      if (r.rank == 0) {
        rank0.push_back(w.table.op_name(r));
        EXPECT_TRUE(seqs.insert(r.seq).second) << "sequence ID " << r.seq << " twice";
      }
    EXPECT_EQ(std::count(rank0.begin(), rank0.end(), "SYS_lseek"), 1) << use_template;
    EXPECT_EQ(std::count(rank0.begin(), rank0.end(), "SYS_read64"), 2) << use_template;
    EXPECT_EQ(check_dependencies(w).total(), 0u) << use_template;
  }
}

TEST(Requests, MoreFilesThanTheTraceGetNamesOfTheirOwn) {
  const TraceCharacterization c = characterize_requests(mpi_io_test());
  SynthesisOptions options;
  options.files[static_cast<int>(FileClass::shared)] = 5;
  const Workload w = synthesize_path(c.path, c.characteristics, options, 0);
  std::set<std::string> shared;
  for (std::size_t f = 0; f < w.files.size(); ++f)
    if (w.files[f].file_class == FileClass::shared) shared.insert(w.table.files[f]);
  EXPECT_EQ(shared.size(), 5u);
  EXPECT_EQ(check_dependencies(w).total(), 0u);
}

// Scaling OFF and SIZE (the docs' quick try: 4 KiB requests) scales a shared
// file's rank stride with the offsets, so rank r stays in the scaled file, and
// keeps a request that scales below 1 byte at 1 byte (fio drops an empty one).
TEST(Requests, ScaledOffsetsAndSizesStayConsistent) {
  const TraceCharacterization c = characterize_requests(mpi_io_test());
  const double scale = 1.0 / 4096;
  SynthesisOptions options;
  options.overrides[Characteristic::SIZE] = {scale, 0};
  options.overrides[Characteristic::OFF] = {scale, 0};
  const Workload w = synthesize_path(c.path, c.characteristics, options, 0);
  std::size_t shared = 0;
  for (std::size_t f = 0; f < w.files.size(); ++f) {
    if (w.files[f].file_class != FileClass::shared) continue;
    ++shared;
    const auto source = std::find(c.path.table.files.begin(), c.path.table.files.end(), w.table.files[f]);
    ASSERT_NE(source, c.path.table.files.end()) << w.table.files[f];
    const std::int64_t traced = c.path.files[static_cast<std::size_t>(source - c.path.table.files.begin())].rank_stride;
    EXPECT_GT(traced, 4096) << "the trace's stride is large enough to show the scale";
    EXPECT_EQ(w.files[f].rank_stride, std::llround(static_cast<double>(traced) * scale)) << w.table.files[f];
  }
  EXPECT_GT(shared, 0u);
  std::size_t data = 0, small = 0;
  for (const Request& r : c.path.table.requests)
    small += is_data(c.path.table.op_class(r)) && r.size > 0 && static_cast<double>(r.size) * scale < 0.5;
  for (const Request& r : w.table.requests) {
    if (!is_data(w.table.op_class(r))) continue;
    ++data;
    EXPECT_GE(r.size, 1) << "a data request scaled to nothing";
  }
  EXPECT_GT(data, 0u);
  EXPECT_GT(small, 0u) << "the trace has requests that scale below half a byte (the case checked)";
}

TEST(Requests, OffsetsOutsideTheRangeAreUserErrors) {
  Workload path;
  const std::int32_t f = path.table.file_id("/shared");
  path.files.resize(1);
  path.files[0].file_class = FileClass::shared;
  path.files[0].rank_stride = -4096;  // the root at the top: rank 3 would read below 0
  Request r;
  r.op = path.table.op_id("read");
  r.file = f;
  r.offset = 8192;
  r.size = 4096;
  path.table.requests.push_back(r);
  EXPECT_NO_THROW(expand(path, 3));
  EXPECT_NE(error_of([&] { expand(path, 4); }).find("outside 0 to 2^62"), std::string::npos);
}

TEST(Requests, NamePatterns) {
  const NamePattern padded = learn_name_pattern({{0, "ckpt/out.0003.dat"}, {1, "ckpt/out.0004.dat"}, {5, "ckpt/out.0008.dat"}});
  ASSERT_TRUE(padded.learned);
  EXPECT_EQ(padded.name_for(10), "ckpt/out.0013.dat");
  const NamePattern two = learn_name_pattern({{0, "r0/f_100"}, {2, "r2/f_104"}});
  EXPECT_EQ(two.name_for(7), "r7/f_114");
  const NamePattern none = learn_name_pattern({{0, "alpha.log"}, {1, "beta.log"}});
  EXPECT_FALSE(none.learned);
  EXPECT_EQ(none.name_for(3), "alpha.log.3");
}

Workload small_workload() {
  Workload w;
  const std::int32_t f = w.table.file_id("/data/a");
  w.files.resize(1);
  const auto add = [&](const char* op, std::uint32_t flags, std::int64_t seq) {
    Request r;
    r.op = w.table.op_id(op);
    r.file = f;
    r.flags = flags;
    r.seq = seq;
    r.offset = 0;
    r.size = 4096;
    w.table.requests.push_back(r);
  };
  add("open", kModeRead, 0);
  add("read", 0, 1);
  add("read", 0, 2);
  add("close", 0, 3);
  return w;
}

TEST(Requests, DependencyCheckerReportsEachKind) {
  EXPECT_EQ(check_dependencies(small_workload()).total(), 0u);
  Workload w = small_workload();
  w.table.requests.erase(w.table.requests.begin());  // no open
  EXPECT_EQ(check_dependencies(w).violations["outside_session"], 3u);
  w = small_workload();
  w.table.requests.insert(w.table.requests.begin() + 1, w.table.requests[0]);
  EXPECT_EQ(check_dependencies(w).violations["double_open"], 1u);
  w = small_workload();
  w.table.requests[2].seq = 4;  // a read after the close
  EXPECT_EQ(check_dependencies(w).violations["after_close"], 1u);
  w = small_workload();
  w.table.requests[1].op = w.table.op_id("write");
  EXPECT_EQ(check_dependencies(w).violations["write_in_read_only"], 1u);
  w = small_workload();
  w.table.requests[0].flags = kModeWrite;
  EXPECT_EQ(check_dependencies(w).violations["read_in_write_only"], 2u);
  w = small_workload();
  w.table.requests.pop_back();
  EXPECT_EQ(check_dependencies(w).violations["unclosed"], 1u);
}

// The data requests of bin k are the next counts[k]: binned, they equal the counts.
TEST(Requests, CountsDrivenTimingMatchesEveryBin) {
  const TraceCharacterization c = characterize_requests(mpi_io_test());
  SynthesisOptions options;
  options.key = {11, 5};
  Workload w = synthesize_processes(synthesis_source(c), options, 3, 64);
  std::vector<double> counts;
  std::uint64_t state = 99, total = 0;
  while (total < 600) {
    state = state * 6364136223846793005ull + 1442695040888963407ull;
    counts.push_back(static_cast<double>((state >> 33) % 21));  // 0 … 20, zeros included
    total += static_cast<std::uint64_t>(counts.back());
  }
  const double width = 0.05;
  const std::uint64_t filled = time_by_counts(w, counts, width);
  std::vector<double> binned(counts.size() + 1, 0);
  std::uint64_t data = 0;
  for (const Request& r : w.table.requests) {
    if (!is_data(w.table.op_class(r))) continue;
    ++data;
    binned[std::min<std::size_t>(static_cast<std::size_t>(r.start / width), counts.size())] += 1;
  }
  ASSERT_EQ(data, 640u);  // 64 ranks × 10 data requests: fewer than the counts ask
  std::size_t full = 0;
  double used = 0;
  while (full < counts.size() && used + counts[full] <= static_cast<double>(data)) used += counts[full++];
  EXPECT_EQ(filled, full);
  for (std::size_t k = 0; k < full; ++k) EXPECT_EQ(binned[k], counts[k]) << "bin " << k;
  EXPECT_EQ(check_dependencies(w).total(), 0u);
  // Every process's times never go back in its own order.
  std::map<std::int32_t, double> last;
  for (const Request& r : w.table.requests) {
    EXPECT_GE(r.start, last[r.rank]);
    last[r.rank] = r.start;
  }
}

// The expansion a replica used to be: every rank's requests rank by rank,
// files named as met, then stable-sorted into issue order (seq, rank). The
// reference the streamed Expansion is held to.
Workload expanded_rank_by_rank(const Workload& path, std::int32_t processes) {
  Workload out;
  out.processes = processes;
  for (const auto& name : path.table.ops) out.table.op_id(name);
  std::map<std::pair<std::int32_t, std::int32_t>, std::int32_t> ids;  // (path file, rank or 0) -> id
  std::int64_t sessions = 0;
  for (const Request& r : path.table.requests) sessions = std::max<std::int64_t>(sessions, r.session + 1);
  for (std::int32_t rank = 0; rank < processes; ++rank)
    for (const Request& source : path.table.requests) {
      if (rank > 0 && (source.flags & kRootExclusive)) continue;
      Request r = source;
      r.rank = rank;
      if (r.file >= 0) {
        const FileInfo& info = path.files[source.file];
        const bool private_file = info.file_class == FileClass::private_file;
        if (info.file_class == FileClass::shared && r.offset != kUnknown) r.offset += info.rank_stride * rank;
        auto [it, fresh] = ids.emplace(std::make_pair(source.file, private_file ? rank : 0), -1);
        if (fresh) {
          it->second = out.table.file_id(private_file ? info.name.name_for(rank) : path.table.files[source.file]);
          out.files.resize(out.table.files.size());
          out.files[it->second] = info;
        }
        r.file = it->second;
        if (r.offset != kUnknown && r.size != kUnknown)
          out.files[r.file].size = std::max(out.files[r.file].size, r.offset + r.size);
      }
      if (r.session >= 0) r.session += sessions * rank;
      out.table.requests.push_back(r);
    }
  std::stable_sort(out.table.requests.begin(), out.table.requests.end(),
                   [](const Request& a, const Request& b) { return std::tie(a.seq, a.rank) < std::tie(b.seq, b.rank); });
  return out;
}

using Row = std::tuple<double, double, std::int32_t, std::string, std::string, std::int64_t, std::int64_t,
                       std::uint32_t, std::int64_t, std::int64_t>;
std::vector<Row> rows_of(const RequestTable& t, const std::vector<Request>& requests) {
  std::vector<Row> rows;
  for (const Request& r : requests)
    rows.emplace_back(r.start, r.duration, r.rank, t.ops[r.op], r.file < 0 ? "" : t.files[r.file], r.offset, r.size,
                      r.flags, r.session, r.seq);
  return rows;
}

// A path with what the issue order has to get right: two requests of one seq
// (kept in path order on each rank), a root-exclusive group, a root-exclusive
// request sharing its seq with one every rank makes, a shared file with a
// rank stride, a private file named per rank, sessions.
Workload path_with_ties() {
  Workload path;
  const auto file = [&](const std::string& name, FileClass c, std::int64_t stride) {
    const std::int32_t id = path.table.file_id(name);
    path.files.resize(id + 1);
    path.files[id].file_class = c;
    path.files[id].rank_stride = stride;
    path.files[id].name.root_name = name;
    return id;
  };
  const std::int32_t shared = file("/shared", FileClass::shared, 4096);
  const std::int32_t own = file("/out", FileClass::private_file, 0);
  const std::int32_t root = file("/root.cfg", FileClass::root_exclusive, 0);
  const auto add = [&](const char* op, std::int32_t f, std::int64_t seq, std::int64_t session, std::uint32_t flags) {
    Request r;
    r.op = path.table.op_id(op);
    r.file = f;
    r.seq = seq;
    r.session = session;
    r.flags = flags;
    r.start = 0.25 * static_cast<double>(seq);
    r.offset = f == shared ? 8192 * seq : 0;
    r.size = 4096;
    path.table.requests.push_back(r);
  };
  add("open", shared, 0, 0, kModeWrite);
  add("open", own, 1, 1, kModeWrite);
  add("write", shared, 2, 0, 0);
  add("write", own, 2, 1, 0);  // the same seq: after the shared write on every rank
  add("stat", root, 3, -1, kRootExclusive);
  add("stat", root, 6, -1, kRootExclusive);
  add("write", shared, 6, 0, 0);  // the same seq as a root-exclusive stat: rank 0 makes both, the others one
  add("write", shared, 5, 0, 0);  // out of seq order in the path
  add("close", shared, 4, 0, 0);
  add("close", own, 4, 1, 0);
  return path;
}

// A replica made a block at a time is the replica expanded rank by rank and
// sorted for issue, request for request and file for file, whatever the block.
TEST(Requests, StreamedExpansionIsTheSortedExpansion) {
  const TraceCharacterization c = characterize_requests(mpi_io_test());
  SynthesisOptions options;
  options.key = {9, 3};
  Workload synthetic = synthesize_path(c.path, c.characteristics, options, 2);
  lower_soft_dependencies(synthetic);
  for (const auto& [path, processes] :
       {std::pair{path_with_ties(), 5}, std::pair{path_with_ties(), 1}, std::pair{synthetic, 7}}) {
    const Workload reference = expanded_rank_by_rank(path, processes);
    for (const std::size_t block : {std::size_t{1}, std::size_t{7}, std::size_t{1} << 20}) {
      Expansion expansion(path, processes);
      std::vector<Request> made;
      while (expansion.next(made, block) > 0) {
      }
      EXPECT_EQ(expansion.requests(), made.size());
      EXPECT_EQ(expansion.files().table.files, reference.table.files) << "block " << block;
      ASSERT_EQ(made.size(), reference.table.requests.size()) << "block " << block;
      EXPECT_EQ(rows_of(expansion.files().table, made), rows_of(reference.table, reference.table.requests))
          << "block " << block;
      for (std::size_t f = 0; f < reference.files.size(); ++f)
        EXPECT_EQ(expansion.files().files[f].size, reference.files[f].size) << reference.table.files[f];
    }
  }
}

// Timing and checking a replica block by block, in issue order, gives what
// they give on the whole replica expanded rank by rank: the same times,
// filled bins and violations.
TEST(Requests, StreamedTimingAndCheckingAreTheWholeReplicas) {
  Workload path = path_with_ties();
  path.table.requests.erase(path.table.requests.begin());  // the shared file's open: violations to find
  Workload whole = expanded_rank_by_rank(path, 4);
  const std::vector<double> counts = {2, 0, 3, 1};
  const std::uint64_t filled = time_by_counts(whole, counts, 0.5);
  const DependencyReport report = check_dependencies(whole);
  ASSERT_GT(report.total(), 0u);

  Expansion expansion(path, 4);
  CountsTiming timing(counts, 0.5);
  DependencyChecker checker;
  std::vector<Request> made, block;
  while (expansion.next(block, 3) > 0) {
    for (Request& r : block) {
      timing.time(r, is_data(expansion.files().table.op_class(r)));
      checker.add(expansion.files().table, r, made.size());
      made.push_back(r);
    }
    block.clear();
  }
  EXPECT_EQ(rows_of(expansion.files().table, made), rows_of(whole.table, whole.table.requests));
  EXPECT_EQ(timing.filled_bins(), filled);
  EXPECT_EQ(checker.report().violations, report.violations);
}

// The MPI ranks' merge (docs/scale-out.md): each rank's names, in the order
// they first appear in its contiguous share of the replicas, merged rank by
// rank, are the names one writer meets replica by replica, with the same
// index for every replica's names.
TEST(Requests, NamesMergedShareByShareAreTheOneWritersNames) {
  std::vector<std::vector<std::string>> replicas = {{"b", "a"}, {"a", "c"}, {"d", "b"}, {"e"}, {"c", "f", "a"},
                                                    {"g", "d"}, {"b"}};
  const std::vector<std::string> ops = {"write", "open"};
  RequestNames one;
  std::vector<std::vector<std::int64_t>> indices;
  for (const auto& files : replicas) {
    one.add(ops, files);
    indices.push_back(one.files_here());
  }
  ASSERT_EQ(one.files(), (std::vector<std::string>{"b", "a", "c", "d", "e", "f", "g"}));
  for (const std::size_t shares : {2u, 3u, 7u}) {
    RequestNames merged;
    for (std::size_t share = 0; share < shares; ++share) {
      RequestNames own;  // one rank's first pass over its share
      const std::size_t first = share * replicas.size() / shares, end = (share + 1) * replicas.size() / shares;
      for (std::size_t r = first; r < end; ++r) own.add(ops, replicas[r]);
      merged.add(own.ops(), own.files());
    }
    EXPECT_EQ(merged.files(), one.files()) << shares << " shares";
    EXPECT_EQ(merged.ops(), one.ops());
    for (std::size_t r = 0; r < replicas.size(); ++r) {  // the second pass: the merged names index every replica
      merged.add(ops, replicas[r]);
      EXPECT_EQ(merged.files_here(), indices[r]) << "replica " << r << ", " << shares << " shares";
    }
    EXPECT_EQ(merged.files(), one.files()) << "no name is new in the second pass";
  }
}

// An appender placed at row `first` of a table made for all rows (an MPI
// rank's share, written independently) puts each row where one growing
// appender puts it; a row beyond the table is refused.
TEST(Requests, PlacedTableRowsAreWhereTheAppendedRowsAre) {
  const test::TempDir dir;
  constexpr std::size_t kRows = 23, kChunk = 5;
  const std::vector<h5::TableAppender::Column> columns = {{"n", true}, {"x", false}};
  struct Row {
    std::int64_t n;
    double x;
  };
  const auto row = [](std::size_t i) { return Row{static_cast<std::int64_t>(i * i), 0.5 + static_cast<double>(i)}; };
  const auto append = [&](h5::TableAppender& table, std::size_t i) {
    const Row r = row(i);
    table.append(&r);
  };
  const std::size_t splits[] = {0, 7, 10, kRows - 1};  // at a table's start, inside a chunk, at a chunk, its end
  h5::quiet_library_errors();
  {
    h5::PendingFile file(dir.path("t.h5"), "--output");
    {
      h5::TableAppender grown(file.id(), "grown", columns, kChunk, {});
      for (std::size_t i = 0; i < kRows; ++i) append(grown, i);
      grown.flush();
    }
    for (const std::size_t first : splits) {
      h5::TableAppender placed(file.id(), fmt::format("placed{}", first), columns, kChunk, {}, {true, kRows, first});
      for (std::size_t i = first; i < kRows; ++i) append(placed, i);
      placed.flush();
    }
    file.commit();
  }
  const h5::Handle read = h5::open_file_read(dir.path("t.h5"));
  const auto rows_of = [&](const std::string& name) {
    const h5::Handle dataset = h5::open_dataset(read.id(), name);
    const h5::Handle type(H5Dget_type(dataset.id()), H5Tclose);
    std::vector<Row> rows(kRows);
    EXPECT_GE(H5Dread(dataset.id(), type.id(), H5S_ALL, H5S_ALL, H5P_DEFAULT, rows.data()), 0);
    return rows;
  };
  const std::vector<Row> grown = rows_of("grown");
  for (std::size_t i = 0; i < kRows; ++i) ASSERT_EQ(grown[i].n, row(i).n);
  for (const std::size_t first : splits) {
    const std::vector<Row> placed = rows_of(fmt::format("placed{}", first));
    for (std::size_t i = first; i < kRows; ++i) {  // the rows before `first` are another rank's
      EXPECT_EQ(placed[i].n, grown[i].n) << "row " << i << ", first " << first;
      EXPECT_EQ(placed[i].x, grown[i].x) << "row " << i << ", first " << first;
    }
  }
  h5::PendingFile other(dir.path("u.h5"), "--output");
  h5::TableAppender full(other.id(), "t", columns, kChunk, {}, {true, 3, 0});
  for (std::size_t i = 0; i < 4; ++i) append(full, i);
  EXPECT_THROW(full.flush(), InternalError);
}

TEST(Requests, ReplicasAreReproducibleAndDiffer) {
  const TraceCharacterization c = characterize_requests(mpi_io_test());
  SynthesisOptions options;
  options.key = {5, 77};
  options.draw = SynthesisOptions::Draw::class_pools;
  const auto times = [&](std::uint32_t replica) {
    std::vector<std::tuple<std::int64_t, std::uint32_t, std::int64_t, double>> out;
    for (const Request& r : synthesize_path(c.path, c.characteristics, options, replica).table.requests)
      out.emplace_back(r.seq, r.op, r.offset, r.start);
    return out;
  };
  EXPECT_EQ(times(4), times(4));
  EXPECT_NE(times(4), times(5));
}

TEST(Requests, DxtTextReadsBack) {
  const TraceCharacterization c = characterize_requests(mpi_io_test());
  SynthesisOptions options;
  options.key = {3, 1};
  Workload w = synthesize_processes(synthesis_source(c), options, 0, 8);
  sort_for_issue(w);
  test::TempDir dir;
  write_dxt_text(dir.path("round.dxt"), w);
  SanitizeSummary summary;
  const Workload back = sanitize(read_request_trace({dir.path("round.dxt")}, "dxt", TraceOptions{}), summary);
  EXPECT_EQ(request_multiset(back, true), request_multiset(w, true));
  std::multiset<std::pair<std::int32_t, double>> written, read;
  for (const Request& r : w.table.requests)
    if (is_data(w.table.op_class(r))) written.emplace(r.rank, std::round(r.start * 1e6));
  for (const Request& r : back.table.requests)
    if (is_data(back.table.op_class(r))) read.emplace(r.rank, std::round(r.start * 1e6));
  EXPECT_EQ(written, read);
}

// DiskSim's device 0 holds the files end to end, each from a 4 KiB boundary;
// block = first sector of the file + offset / 512, sectors covering the bytes.
TEST(Requests, DiskSimTextLaysFilesEndToEnd) {
  Workload w = small_workload();
  const std::int32_t b = w.table.file_id("/data/b");
  w.files.resize(2);
  w.files[0].size = 5000;  // two pages: b starts at sector 16
  w.files[1].size = 100;
  Request r = w.table.requests[1];
  r.file = b;
  r.offset = 1000;
  r.size = 100;
  r.start = 0.5;
  w.table.requests.push_back(r);
  for (Request& q : w.table.requests)
    if (q.file == 0) q.start = 0.001 * static_cast<double>(q.seq);
  EXPECT_EQ(disksim_text(w), "1.000000 0 0 8 1\n2.000000 0 0 8 1\n500.000000 0 17 2 1\n");

  // Files of 2^62 bytes each (the synthesis's bound): 2^53 sectors apart; a
  // byte address of the third file's last page is past 2^63.
  const std::int64_t huge = std::int64_t{1} << 62;
  w.table.requests.back().file = w.table.file_id("/data/c");
  w.table.requests.back().offset = huge - 4096;
  w.files.assign(3, FileInfo{});
  for (FileInfo& f : w.files) f.size = huge;
  const std::string text = disksim_text(w);
  const std::int64_t block = 3 * (std::int64_t{1} << 53) - 8;  // (3 * 2^62 - 4096) / 512
  EXPECT_NE(text.find(fmt::format(" 0 {} 1 1\n", block)), std::string::npos) << text;

  // 2^62 sectors (2^71 bytes) in all is the bound: 513 files of 2^62 bytes pass it.
  for (int i = 3; i <= 512; ++i) w.table.file_id(fmt::format("/data/{}", i));
  w.files.assign(w.table.files.size(), FileInfo{});
  for (FileInfo& f : w.files) f.size = huge;
  ASSERT_EQ(w.files.size(), 513u);
  try {
    disksim_text(w);
    ADD_FAILURE() << "513 files of 2^62 bytes laid out";
  } catch (const UserError& e) {
    EXPECT_NE(std::string(e.what()).find("513 files laid end to end on one device pass sector 2^62 at file 512 "
                                         "('/data/512')"),
              std::string::npos)
        << e.what();
  }
  w.files.pop_back();
  w.table.files.pop_back();
  EXPECT_NO_THROW(disksim_text(w));
}

TEST(Requests, FioReplayDirectory) {
  Workload w = small_workload();
  w.processes = 2;
  Request r = w.table.requests[1];
  r.rank = 1;
  w.table.requests.push_back(r);  // rank 1 reads without a session: left as it is
  // Opens and closes carry the time of the process's I/O before them (its first, before any).
  for (Request& q : w.table.requests) q.start = 0.25 * static_cast<double>(q.seq) + 0.5;
  w.files[0].size = 8192;
  test::TempDir dir;
  const FioSummary summary = write_fio_replay(dir.path("fio"), w, "test");
  EXPECT_EQ(summary.processes, 2u);
  std::ifstream log(dir.path("fio/rank_0.iolog"));
  std::stringstream text;
  text << log.rdbuf();
  EXPECT_EQ(text.str(),
            "fio version 3 iolog\n750000 files/0_a add\n750000 files/0_a open\n750000 files/0_a read 0 4096\n"
            "1000000 files/0_a read 0 4096\n1000000 files/0_a close\n");
  std::ifstream job(dir.path("fio/replay.fio"));
  std::stringstream job_text;
  job_text << job.rdbuf();
  EXPECT_NE(job_text.str().find("[rank_1]\nread_iolog=rank_1.iolog\nwrite_lat_log=lat/rank_1\nstartdelay=750000us"),
            std::string::npos)
      << job_text.str();
  // A process without I/O has no job (fio refuses a log without I/O); sync carries an offset and length.
  Workload quiet = w;
  quiet.processes = 3;
  Request sync = w.table.requests[1];
  sync.op = quiet.table.op_id("fsync");
  sync.seq = 2;
  quiet.table.requests.insert(quiet.table.requests.begin() + 2, sync);
  const FioSummary q = write_fio_replay(dir.path("fio3"), quiet, "quiet");
  EXPECT_EQ(q.processes_without_io, 1u);
  EXPECT_FALSE(std::ifstream(dir.path("fio3/rank_2.iolog")).good());
  std::ifstream log0(dir.path("fio3/rank_0.iolog"));
  std::stringstream log0_text;
  log0_text << log0.rdbuf();
  EXPECT_NE(log0_text.str().find("files/0_a sync 0 0\n"), std::string::npos) << log0_text.str();
  // Written again over its own directory; never over anything else.
  EXPECT_NO_THROW(write_fio_replay(dir.path("fio"), w, "again"));
  test::write_file(dir.path("precious"), "keep");
  EXPECT_NE(error_of([&] { write_fio_replay(dir.path("precious"), w, "x"); }).find("not a replay directory"),
            std::string::npos);
}

TEST(RequestsConfig, SectionIsChecked) {
  const auto parse = [](const std::string& requests) {
    return error_of([&] {
      parse_config("output: o.h5\nrequests:\n" + requests, "c.yaml");
    });
  };
  EXPECT_NE(parse("  - {name: r}\n").find("needs 'trace'"), std::string::npos);
  EXPECT_NE(parse("  - {name: r, trace: t.dxt, format: dxt, speed: 2}\n").find("speed"), std::string::npos);
  EXPECT_NE(parse("  - {name: r, trace: t.dxt, format: dxt, timing: fast}\n").find("accepted: phases, slack"),
            std::string::npos);
  EXPECT_NE(parse("  - {name: r, timing: phases, characteristics: {shared: {files: 1, RT1: {write: 1}}}}\n")
                .find("timing = phases: the phases are fitted to a trace's ranks"),
            std::string::npos);
  EXPECT_NE(parse("  - {name: r, trace: t.dxt, format: dxt, timing: {ensemble: nope, bin: 1s}}\n")
                .find("'nope' is not among the ensembles"),
            std::string::npos);
  EXPECT_NE(parse("  - {name: r, trace: t.dxt, format: dxt, replicas: 2, emit: {replica: 2}}\n").find("c.yaml:3"),
            std::string::npos);
  EXPECT_NE(parse("  - {name: r, trace: t.dxt, format: dxt, overrides: {SIZE: {scale: -1}}}\n").find("scale"),
            std::string::npos);
  EXPECT_NE(parse("  - {name: r, trace: t.dxt, format: dxt, draw: random}\n").find("accepted: file, class"),
            std::string::npos);
  const RunConfig drawn = parse_config("output: o.h5\nrequests:\n  - {name: r, trace: t.dxt, format: dxt, draw: class}\n",
                                       "c.yaml");
  EXPECT_EQ(drawn.requests[0].synthesis.draw, SynthesisOptions::Draw::class_pools);
  EXPECT_NE(parse("  - {name: r, trace: t.dxt, format: dxt}\n  - {name: r, trace: t.dxt, format: dxt}\n")
                .find("already used"),
            std::string::npos);
}

// A left-out `format` is told from the first trace as the command line tells
// it: darshan-dxt-parser's text is dxt (a request trace and a dataset), a
// file that tells nothing (or is missing) is the missing key's error, and a
// dataset's darshan-parser text is darshan, which a requests entry refuses.
TEST(RequestsConfig, FormatIsToldFromTheTraceWhenLeftOut) {
  const std::string dxt = test::data_path("mpi-io-test.dxt.txt.gz");
  const std::string parser = test::data_path("mpi-io-test.parser.txt.gz");
  const RunConfig told = parse_config("output: o.h5\nmodels: [normal]\ndatasets:\n  - {name: d, trace: " + dxt +
                                          ", bin: 1s}\nrequests:\n  - {name: r, trace: " + dxt + "}\n",
                                      "c.yaml");
  EXPECT_EQ(told.requests[0].format, "dxt");
  EXPECT_EQ(told.datasets[0].source.trace.format, "dxt");
  EXPECT_EQ(parse_config("output: o.h5\nmodels: [normal]\ndatasets:\n  - {name: d, trace: " + parser + ", bin: 1s}\n",
                         "c.yaml")
                .datasets[0]
                .source.trace.format,
            "darshan");
  for (const std::string& trace : {parser, std::string("missing.dxt")}) {
    const std::string error =
        error_of([&] { parse_config("output: o.h5\nrequests:\n  - {name: r, trace: " + trace + "}\n", "c.yaml"); });
    EXPECT_NE(error.find("missing the required key 'format'"), std::string::npos) << error;
    EXPECT_NE(error.find("told from the first trace"), std::string::npos) << error;
  }
}

// Synthesis from a user's characteristics, without a trace.
TEST(RequestsConfig, GivenCharacteristicsSynthesize) {
  const RunConfig config = parse_config(
      "output: o.h5\nrequests:\n"
      "  - name: given\n    processes: 4\n"
      "    characteristics:\n"
      "      shared: {files: 2, OT: [1, 2], D: [4, 8], IRG: [1], ISG: [1, 3], SIZE: [1048576], OFF: [0, 1048576],\n"
      "               SEQ: [1.0], AM: {write_only: 3, read_only: 1}, RT1: {MPI_File_write_at: 3, MPI_File_read_at: 1},\n"
      "               rank_stride: 1048576}\n",
      "c.yaml");
  ASSERT_EQ(config.requests.size(), 1u);
  const RequestsSpec& spec = config.requests[0];
  ASSERT_TRUE(spec.given);
  SynthesisOptions options = spec.synthesis;
  options.key.seed = 1;
  Workload w = synthesize_processes(synthesis_source(spec.given_files, *spec.given), options, 0, spec.processes);
  EXPECT_EQ(check_dependencies(w).total(), 0u);
  std::set<std::string> files;
  std::size_t data = 0;
  for (const Request& r : w.table.requests) {
    files.insert(w.table.files[r.file]);
    if (!is_data(w.table.op_class(r))) continue;
    ++data;
    EXPECT_EQ(r.size, 1048576);
    EXPECT_EQ(r.offset % 1048576, 0);
  }
  EXPECT_EQ(files, (std::set<std::string>{"shared_0", "shared_1"}));
  EXPECT_GE(data, 4u * 2u * 4u);  // 4 processes, 2 files, at least 1 session of at least 4 requests
}

// --- The request-synthesis reliability issue: ranges, memory, signals, outputs as one unit, DXT.

const char* kGiven =
    "output: OUT\nrequests:\n"
    "  - name: given\n    processes: 4\n"
    "    characteristics:\n"
    "      shared: {files: 2, OT: [1, 2], D: [4, 8], IRG: [1], ISG: [1, 3], SIZE: [4096], OFF: [0, 4096],\n"
    "               RT1: {write: 3, read: 1}, ST: [0.001], data_execution_time: [0.0001]}\n";

// kGiven with each (text, replacement) applied, and `extra` lines for the entry.
std::string given_config(const std::vector<std::pair<std::string, std::string>>& changes = {},
                         const std::string& extra = "") {
  std::string text = kGiven;
  for (const auto& [replace, with] : changes) {
    const auto at = text.find(replace);
    EXPECT_NE(at, std::string::npos) << replace;
    if (at != std::string::npos) text.replace(at, replace.size(), with);
  }
  return text + extra;
}

TEST(RequestsConfig, GivenSamplesAndTimingOutsideTheirRangesAreLocated) {
  const auto error = [](const std::string& text) { return error_of([&] { parse_config(text, "c.yaml"); }); };
  const std::pair<std::string, std::string> cases[] = {
      {error(given_config({{"ST: [0.001]", "ST: [1e300]"}})),
       "c.yaml:7:47: requests[0].characteristics.shared.ST[0] = 1e+300 is out of range; accepted: seconds from 0 to "
       "10^6"},
      {error(given_config({{"data_execution_time: [0.0001]", "data_execution_time: [1e300]"}})),
       "data_execution_time[0] = 1e+300 is out of range"},
      {error(given_config({{"OFF: [0, 4096]", "OFF: [0, 9223372036854775807]"}})),
       "OFF[1] = 9.223372036854776e+18 is out of range; accepted: bytes from 0 to 2^62"},
      {error(given_config({{"SIZE: [4096]", "SIZE: [1e300]"}})), "SIZE[0] = 1e+300 is out of range"},
      {error(given_config({{"D: [4, 8]", "D: [4, 200000000]"}})),
       "D[1] = 200000000 is out of range; accepted: requests from 0 to 10^8"},
      {error(given_config({{"RT1: {write: 3, read: 1}", "RT1: {{write: 5}: 1}"}})),
       "c.yaml:7:22: requests[0].characteristics.shared.RT1 has a key that is a mapping"},
      {error(given_config({}, "    emit: {fio: ''}\n")), "c.yaml:8:17: requests[0].emit.fio is empty"},
      {error(given_config({}, "    overrides: {SIZE: {scale: 0}}\n")), "SIZE.scale = 0 makes every request 0 bytes"},
      {error(given_config({}, "    overrides: {ST: {shift: 1e9}}\n")),
       "ST.shift = 1000000000 is out of range; accepted: -10^6 to 10^6 (seconds)"},
  };
  for (const auto& [message, expected] : cases) EXPECT_NE(message.find(expected), std::string::npos) << message;
  EXPECT_EQ(error(given_config({}, "    overrides: {SIZE: {scale: 0, shift: 512}}\n")), "");
  const std::string timed =
      "output: o.h5\nensembles:\n  - {name: e, model: normal, params: {}, replicas: 1, length: 8}\n"
      "requests:\n  - {name: r, trace: t.dxt, format: dxt, timing: {ensemble: e, bin: 10000000000000h}}\n";
  EXPECT_NE(error(timed).find("c.yaml:5:69: requests[0].timing.bin = '10000000000000h' is out of range"),
            std::string::npos)
      << error(timed);
}

Workload given_replica(const std::vector<std::pair<std::string, std::string>>& changes,
                       const SynthesisOptions* options_in = nullptr, std::int32_t processes = 4) {
  const RunConfig config = parse_config(given_config(changes), "c.yaml");
  const RequestsSpec& spec = config.requests[0];
  SynthesisOptions options = options_in ? *options_in : spec.synthesis;
  options.key.seed = 1;
  return synthesize_processes(synthesis_source(spec.given_files, *spec.given), options, 0, processes);
}

TEST(Requests, SynthesisNeverClipsOffsetsOrTimesInSilence) {
  // Each sample in range; together beyond what the outputs hold.
  const std::string bytes = error_of([] {
    given_replica({{"shared:", "private:"}, {"SIZE: [4096], OFF: [0, 4096]", "SIZE: [1e18], OFF: [4e18]"}});
  });
  EXPECT_NE(bytes.find("would reach byte 5e+18 (offset 4e+18 + size 1e+18), beyond 2^62"), std::string::npos) << bytes;
  EXPECT_EQ(error_of([] { given_replica({{"ST: [0.001]", "ST: [1000000]"}}); }), "");  // a few requests 10^6 s apart
  const std::string late = error_of([] {
    given_replica({{"D: [4, 8]", "D: [2000]"}, {"ST: [0.001]", "ST: [1000000]"}});
  });
  EXPECT_NE(late.find("beyond 10^9 s"), std::string::npos) << late;
}

TEST(Requests, CountsThatAreAllZeroCannotTimeDataRequests) {
  Workload w = small_workload();
  const std::string message = error_of([&] { time_by_counts(w, {0, -3, 0.2}, 1.0); });
  EXPECT_NE(message.find("the 3 counts are all 0"), std::string::npos) << message;
  Workload metadata_only;
  Request stat;
  stat.op = metadata_only.table.op_id("stat");
  metadata_only.table.requests.push_back(stat);
  EXPECT_EQ(error_of([&] { time_by_counts(metadata_only, {0, 0}, 1.0); }), "");
  // Too few counts for the requests: beyond 10^9 s is an error, not a time in the outputs.
  Workload many = small_workload();
  for (int k = 0; k < 2000; ++k) many.table.requests.insert(many.table.requests.begin() + 1, many.table.requests[1]);
  std::vector<double> one(1000, 0.0);
  one[0] = 1;
  EXPECT_NE(error_of([&] { time_by_counts(many, one, 1e6); }).find("beyond 10^9 s"), std::string::npos);
}

TEST(Requests, MemoryGuardStopsBeforeTheReplicaIsAllocated) {
  SynthesisOptions options;
  options.max_replica_bytes = 1 << 20;
  options.limit_note = "NOTE";
  const std::string message = error_of([&] { given_replica({}, &options, 1000000); });
  EXPECT_NE(message.find("the replica of 1000000 processes would hold"), std::string::npos) << message;
  EXPECT_NE(message.find("; NOTE"), std::string::npos) << message;
  // A session longer than a path may be is refused before it is built.
  SynthesisOptions guarded;
  guarded.max_replica_bytes = 1 << 30;
  const std::string session = error_of([&] { given_replica({{"D: [4, 8]", "D: [100000000]"}}, &guarded); });
  EXPECT_NE(session.find("would hold"), std::string::npos) << session;
}

TEST(Requests, ExpectedSizeIsCloseToTheSynthesis) {
  const RunConfig config = parse_config(given_config(), "c.yaml");
  const RequestsSpec& spec = config.requests[0];
  for (const std::int32_t processes : {1, 64}) {
    const SynthesisSize expected =
        expected_synthesis(synthesis_source(spec.given_files, *spec.given), spec.synthesis, processes).size;
    double requests = 0;
    for (std::uint32_t replica = 0; replica < 20; ++replica) {
      SynthesisOptions options = spec.synthesis;
      options.key.seed = 5;
      requests += static_cast<double>(
          synthesize_processes(synthesis_source(spec.given_files, *spec.given), options, replica, processes)
              .table.requests.size());
    }
    requests /= 20;
    EXPECT_GT(expected.replica_requests, 0.5 * requests);
    EXPECT_LT(expected.replica_requests, 2.0 * requests);
    EXPECT_EQ(expected.replica_files, 2.0);
  }
}

TEST(Requests, SignalsStopTheSynthesis) {
  const RunConfig config = parse_config(given_config({{"files: 2,", "files: 200000,"}}), "c.yaml");
  const RequestsSpec& spec = config.requests[0];
  {
    InterruptGuard guard;
    std::raise(SIGTERM);
    EXPECT_THROW(synthesize_processes(synthesis_source(spec.given_files, *spec.given), spec.synthesis, 0, 4),
                 Interrupted);
  }
  InterruptGuard clear;  // a new guard forgets the signal: the tests after this one run
}

std::string dxt_header(std::size_t writes) {
  return "# start_time: 0\n# DXT, file_id: 1, file_name: /f\n# DXT, rank: 0, hostname: h\n" +
         fmt::format("# DXT, write_count: {}, read_count: 0\n", writes);
}

// A darshan-dxt-parser output of a log recorded without DXT tracing (its
// header, then "# no DXT module data available"): the error says so and how
// to record the requests, not only "no requests".
TEST(RequestTraces, ALogWithoutDxtDataSaysHowToRecordIt) {
  test::TempDir dir;
  test::write_file(dir.path("plain.dxt"), "# start_time: 0\n# no DXT module data available\n");
  const std::string error = error_of([&] { read_request_trace({dir.path("plain.dxt")}, "dxt", TraceOptions{}); });
  EXPECT_NE(error.find(dir.path("plain.dxt") + ": no DXT records: the log holds no DXT module data"), std::string::npos)
      << error;
  EXPECT_NE(error.find("DXT_ENABLE_IO_TRACE=1"), std::string::npos) << error;
  EXPECT_NE(error.find("darshan-dxt-parser LOG"), std::string::npos) << error;
  // A binary log without DXT data: gpusynth reads the new log itself, no parser to run.
  const std::string binary = test::data_path("darshan/mpi-io-test-x86_64-3.2.0.darshan");
  const std::string binary_error = error_of([&] { read_request_trace({binary}, "dxt", TraceOptions{}); });
  EXPECT_NE(binary_error.find("no DXT records"), std::string::npos) << binary_error;
  EXPECT_NE(binary_error.find("give gpusynth its new .darshan log"), std::string::npos) << binary_error;
  EXPECT_EQ(binary_error.find("darshan-dxt-parser"), std::string::npos) << binary_error;
}

TEST(RequestTraces, DxtBlocksAreCheckedAgainstTheirCounts) {
  test::TempDir dir;
  const std::string op = " X_POSIX 0 write 0 0 10 0.1 0.2\n";
  const auto read_both = [&](const std::string& name, const std::string& text) {
    test::write_file(dir.path(name), text);
    const std::string requests = error_of([&] { read_request_trace({dir.path(name)}, "dxt", TraceOptions{}); });
    TraceOptions options;
    options.format = "dxt";
    const std::string events = error_of([&] { read_trace({dir.path(name)}, options); });
    EXPECT_EQ(requests, events);
    return requests;
  };
  EXPECT_EQ(read_both("whole.dxt", dxt_header(2) + op + op), "");
  EXPECT_EQ(read_both("no-counts.dxt", "# start_time: 0\n# DXT, file_id: 1, file_name: /f\n" + op), "");
  const std::string cut = read_both("cut.dxt", dxt_header(3) + op + op);
  EXPECT_NE(cut.find(dir.path("cut.dxt") + ":6:1: the file ends in the block of '/f' that starts at line 2: its "
                                           "header (line 4) says 3 writes and 0 reads, but 2 and 0 were read: the "
                                           "trace is truncated"),
            std::string::npos)
      << cut;
  const std::string joined = read_both("joined.dxt", dxt_header(3) + op + "# DXT, file_id: 2, file_name: /g\n" + op);
  EXPECT_NE(joined.find("joined.dxt:6:1: this line follows the block of '/f'"), std::string::npos) << joined;
  const std::string id = read_both("id.dxt", dxt_header(1) + op + "# DXT, file_id: 2, file_na");
  EXPECT_NE(id.find("id.dxt:6:1: a '# DXT, file_id: ID, file_name: NAME' line without its file name"),
            std::string::npos)
      << id;
  const std::string header = read_both("header.dxt", dxt_header(1) + op + "# DXT, file_id: 2, file_name: /g\n");
  EXPECT_NE(header.find("header.dxt:6:1: the file ends in the header of the block of '/g'"), std::string::npos)
      << header;
}

TEST(RequestTraces, OffsetsAreExactIntegersBelow2To62) {
  test::TempDir dir;
  const auto offsets = [&](const std::string& offset) {
    test::write_file(dir.path("o.dxt"), dxt_header(1) + " X_POSIX 0 write 0 " + offset + " 1 0.1 0.2\n");
    return read_request_trace({dir.path("o.dxt")}, "dxt", TraceOptions{}).table.requests.at(0).offset;
  };
  EXPECT_EQ(offsets("9007199254740993"), 9007199254740993);        // 2^53 + 1, which a double makes 2^53
  EXPECT_EQ(offsets("4611686018427387903"), 4611686018427387903);  // 2^62 - 1
  EXPECT_EQ(offsets("4096.0"), 4096);
  EXPECT_NE(error_of([&] { offsets("4611686018427387904"); }).find("from 0 to 2^62 - 1"), std::string::npos);
  EXPECT_NE(error_of([&] { offsets("9.007199254740993e15"); }).find("write it in digits"), std::string::npos);
  EXPECT_NE(error_of([&] { offsets("99999999999999999999999"); }).find("from 0 to 2^62 - 1"), std::string::npos);
}

TEST(RequestOutputs, ReplayFolderTargetsAreCheckedAndStaleStagingRemoved) {
  test::TempDir dir;
  test::write_file(dir.path("file"), "x");
  ASSERT_EQ(mkfifo(dir.path("fifo").c_str(), 0600), 0);
  std::filesystem::create_directory(dir.path("foreign"));
  EXPECT_NE(error_of([&] { resolve_replay_directory(dir.path("file"), "fio"); }).find("is a regular file"),
            std::string::npos);
  EXPECT_NE(error_of([&] { resolve_replay_directory(dir.path("fifo"), "fio"); }).find("is a FIFO"), std::string::npos);
  EXPECT_NE(error_of([&] { resolve_replay_directory(dir.path("foreign"), "fio"); }).find("not a replay directory"),
            std::string::npos);
  EXPECT_NE(error_of([&] { resolve_replay_directory(dir.path("none/f"), "fio"); }).find("does not exist"),
            std::string::npos);
  // A staging folder of a dead process, old and new names, goes when it carries gpusynth's
  // marker; a folder with such a name but no marker is a user's and stays. An unpublished
  // one leaves nothing.
  pid_t dead = 400000;
  while (kill(dead, 0) == 0 || errno != ESRCH) ++dead;
  const std::string old_staging = dir.path("f.tmp-" + std::to_string(dead));
  const std::string new_staging = dir.path(temporary_prefix(dir.path("f")) + std::to_string(dead));
  const std::string users = new_staging + ".1";
  std::filesystem::create_directories(old_staging + "/lat");
  std::filesystem::create_directories(new_staging);
  std::filesystem::create_directories(users);
  write_marker(old_staging, kReplayMarker, "");
  write_marker(new_staging, kReplayMarker, "");
  {
    PendingReplayDirectory staged(dir.path("f"), "fio");
    staged.write("a", "text");
    EXPECT_FALSE(std::filesystem::exists(old_staging));
    EXPECT_FALSE(std::filesystem::exists(new_staging));
    EXPECT_TRUE(std::filesystem::exists(users));
  }
  std::filesystem::remove(users);
  EXPECT_EQ(std::distance(std::filesystem::directory_iterator(dir.root()), {}), 3);  // file, fifo, foreign
  // Published: exchanged with the replay folder it replaces.
  Workload w = small_workload();
  w.table.requests[1].start = 0.5;
  write_fio_replay(dir.path("f"), w, "first");
  write_fio_replay(dir.path("f"), w, "second");
  std::ifstream marker(dir.path("f/.gpusynth-replay"));
  std::string title;
  std::getline(marker, title);
  EXPECT_EQ(title, "second");
  // Nothing fio can issue: no replay.fio without jobs.
  Workload empty = small_workload();
  for (Request& r : empty.table.requests) r.size = 0;
  EXPECT_NE(error_of([&] { write_fio_replay(dir.path("g"), empty, "x"); }).find("a replay.fio without jobs"),
            std::string::npos);
  EXPECT_FALSE(std::filesystem::exists(dir.path("g")));
}

TEST(RequestsRun, PathsAndMemoryAreCheckedBeforeAnyWork) {
  test::TempDir dir;
  const auto prepare = [&](const std::string& emit, std::optional<std::uint64_t> limit = std::nullopt) {
    std::string text = given_config({}, "    emit: {" + emit + "}\n");
    text.replace(text.find("OUT"), 3, dir.path("out.h5"));
    test::write_file(dir.path("c.yaml"), text);
    RunConfig config = load_config(dir.path("c.yaml"));
    return error_of([&] { prepare_requests(config, limit, true, false); });
  };
  EXPECT_EQ(prepare("fio: f, disksim: d.txt, dxt: x.txt"), "");
  EXPECT_NE(prepare("disksim: out.h5")
                .find("c.yaml:8:21: output '" + dir.path("out.h5") + "' and requests[0] ('given').emit.disksim '" +
                      dir.path("out.h5") + "' are the same file"),
            std::string::npos)
      << prepare("disksim: out.h5");
  EXPECT_NE(prepare("disksim: t.txt, dxt: t.txt").find("are the same file"), std::string::npos);
  EXPECT_NE(prepare("dxt: c.yaml").find("an output may not replace an input of its own run"), std::string::npos);
  EXPECT_NE(prepare("dxt: missing/x.txt").find("c.yaml:8:17: requests[0] ('given').emit.dxt"), std::string::npos);
  const std::string memory = prepare("", 4096);  // about 96 requests of 256 B
  EXPECT_NE(memory.find("c.yaml:3: requests[0] ('given'): about "), std::string::npos) << memory;
  EXPECT_NE(memory.find("more than the budget of 4.0 KiB (--memory-limit)"), std::string::npos) << memory;
  std::string source;
  EXPECT_GT(default_requests_budget(source), 0u);
  EXPECT_NE(source.find("default"), std::string::npos);
}

}  // namespace
}  // namespace gs
