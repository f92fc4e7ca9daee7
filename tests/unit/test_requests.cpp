// Request-level traces and synthesis (docs/requests.md): the PIONEER lines of
// the paper's Table II, exact operation classes, sanitization of the LANL
// mpi-io-test DXT trace (576 operations -> 320 requests), root-exclusive
// requests found where they were put, template expansion, counts-driven
// timing, the dependency checker, reproducibility and the writers.
#include <gtest/gtest.h>

#include <zlib.h>

#include <algorithm>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <tuple>

#include "host/engine/config.hpp"
#include "host/requests/emit.hpp"
#include "host/requests/synthesize.hpp"
#include "io/line_reader.hpp"
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

// Template mode with N = 32 gives back the multiset of (rank, op, file, offset, size).
TEST(Requests, TemplateExpansionReproducesTheTrace) {
  const TraceCharacterization c = characterize_requests(mpi_io_test());
  SynthesisOptions options;
  options.template_mode = true;
  Workload expanded = synthesize_processes(c.path, c.characteristics, options, 0, 32);
  EXPECT_EQ(request_multiset(expanded, false), request_multiset(c.sanitized, false));
  EXPECT_EQ(check_dependencies(expanded).total(), 0u);
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
    const Workload w = synthesize_processes(c.path, c.characteristics, options, 0, 2);
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
  Workload w = synthesize_processes(c.path, c.characteristics, options, 3, 64);
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
  Workload w = synthesize_processes(c.path, c.characteristics, options, 0, 8);
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
  EXPECT_NE(parse("  - {name: r, trace: t.dxt, format: dxt, timing: fast}\n").find("accepted: slack"),
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
  Workload w = synthesize_processes(spec.given_files, *spec.given, options, 0, spec.processes);
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

}  // namespace
}  // namespace gs
