#include "io/requests_file.hpp"

#include <algorithm>
#include <exception>
#include <map>
#include <utility>

#include "host/base/fault_injection.hpp"
#include "host/base/interrupt.hpp"
#include "host/base/ranks.hpp"
#include "io/hdf5.hpp"
#include "io/parallel_series.hpp"

namespace gs {

namespace {

void write_frequencies(hid_t group, const std::string& name, const Frequencies& f, const CharacteristicInfo& info) {
  h5::write_table(group, name, {{"name", f.names}, {"count", f.counts}},
                  {{"table_iii", std::string(info.short_name)},
                   {"units", std::string(info.units)},
                   {"meaning", std::string(info.meaning)}});
}

// The counts of a categorical characteristic (RT1, RT2, AM); nullptr for the others.
const Frequencies* frequencies_of(const ClassCharacteristics& c, Characteristic id) {
  switch (id) {
    case Characteristic::RT1:
      return &c.types_in_sessions;
    case Characteristic::RT2:
      return &c.types_outside;
    case Characteristic::AM:
      return &c.access_mode;
    default:
      return nullptr;
  }
}

// A row of a `requests` table as stored: 8 bytes per column.
struct StoredRequest {
  std::int64_t replica, seq, rank;
  double time, duration;
  std::int64_t op, file, offset, size, session, flags;
};
static_assert(sizeof(StoredRequest) == 88, "a stored request is 11 columns of 8 bytes");

// Rows of the table per chunk: about 704 KiB, inside HDF5's default chunk
// cache of 1 MiB; fewer for a table expected smaller (an unfiltered chunk
// takes its whole size on disk).
constexpr std::size_t kRequestChunkRows = 8192;

// /requests/<name> under `file`, made if new (with /requests).
h5::Handle entry_group(hid_t file, const std::string& name, bool create) {
  const h5::Handle top = h5::has_link(file, "requests") ? h5::open_group(file, "requests")
                                                        : h5::create_group(file, "requests");
  return create ? h5::create_group(top.id(), name) : h5::open_group(top.id(), name);
}

// `ops` (name, class) and `files` (name): what the table's indices name.
void write_names(hid_t group, const RequestNames& names) {
  std::vector<std::string> classes;
  for (const auto& name : names.ops()) classes.push_back(op_class_name(classify_operation(name)));
  h5::write_table(group, "ops", {{"name", names.ops()}, {"class", classes}}, {{"dimensions", std::string("op")}});
  h5::write_table(group, "files", {{"name", names.files()}}, {{"dimensions", std::string("file")}});
}

}  // namespace

void RequestNames::add(const std::vector<std::string>& ops, const std::vector<std::string>& files) {
  ops_here_.clear();
  files_here_.clear();
  for (const auto& name : ops) ops_here_.push_back(index_of(op_index_, ops_, name));
  for (std::size_t f = 0; f < files.size(); ++f) {
    poll_interrupts(f);
    files_here_.push_back(index_of(file_index_, files_, files[f]));
  }
}

std::int64_t RequestNames::index_of(std::map<std::string, std::int64_t>& index, std::vector<std::string>& names,
                                    const std::string& name) {
  auto [it, fresh] = index.emplace(name, static_cast<std::int64_t>(names.size()));
  if (fresh) names.push_back(name);
  return it->second;
}

// One table `requests` (replica, seq, rank, time, duration, op, file, offset,
// size, session, flags) over all replicas, written as the rows come, with
// `ops` and `files` naming the indices: every replica's names mapped onto one
// list in the order they first appear. Under MPI ranks each rank writes its
// replicas' rows into the table they made together (`placement`), with the
// names of every rank merged beforehand (`names`).
class RequestTableWriter {
 public:
  RequestTableWriter(hid_t group, std::uint64_t expected_rows, std::uint32_t first_replica = 0,
                     RequestNames names = {}, const h5::TableAppender::Placement& placement = {})
      : table_(group, "requests",
               {{"replica", true}, {"seq", true}, {"rank", true}, {"time", false}, {"duration", false}, {"op", true},
                {"file", true}, {"offset", true}, {"size", true}, {"session", true}, {"flags", true}},
               std::clamp<std::uint64_t>(expected_rows, 1, kRequestChunkRows),
               {{"dimensions", std::string("request")},
                {"time_units", std::string("s")},
                {"offset_size_units", std::string("bytes (-1: not given)")},
                {"flags", std::string("bit 0 root-exclusive, 1 inferred open/close, 2 session may read, 3 may "
                                      "write")}},
               placement),
        names_(std::move(names)),
        replica_(static_cast<std::int64_t>(first_replica) - 1) {}

  void abandon() { table_.abandon(); }

  void begin_replica(const Workload& files) {
    ++replica_;
    names_.add(files.table.ops, files.table.files);
  }

  void append(const std::vector<Request>& requests) {
    fault_point("request-rows");  // a rank failing with its table open (tests/cli/mpi_test.sh)
    const std::vector<std::int64_t>& ops = names_.ops_here();
    const std::vector<std::int64_t>& files = names_.files_here();
    for (const Request& r : requests) {
      poll_interrupts(rows_++);
      const std::int64_t file = r.file < 0 ? -1 : files[r.file];
      const StoredRequest row{replica_, r.seq,    r.rank, r.start,   r.duration, ops[r.op],
                              file,     r.offset, r.size, r.session, static_cast<std::int64_t>(r.flags)};
      table_.append(&row);
    }
  }

  void finish() { table_.flush(); }  // the rows still buffered
  const RequestNames& names() const { return names_; }

 private:
  h5::TableAppender table_;
  RequestNames names_;
  std::int64_t replica_;  // the replica whose rows come now
  std::uint64_t rows_ = 0;
};

namespace {

// One workload's table (replica 0).
void write_request_table(hid_t group, const Workload& workload, const std::vector<Attribute>& attributes) {
  RequestTableWriter writer(group, workload.table.requests.size());
  writer.begin_replica(workload);
  writer.append(workload.table.requests);
  writer.finish();
  write_names(group, writer.names());
  h5::write_attributes(group, attributes);
}

// /characteristics/<class>/<name> (Table III), /files, /generic_path and
// /sanitized (every rank's requests) under `parent`.
void write_characterization(hid_t parent, const TraceCharacterization& characterization) {
  const Characteristics& characteristics = characterization.characteristics;
  const Workload& path = characterization.path;
  const h5::Handle top = h5::create_group(parent, "characteristics");
  for (int ci = 0; ci < kFileClassCount; ++ci) {
    const ClassCharacteristics& c = characteristics.classes[ci];
    const h5::Handle group = h5::create_group(top.id(), file_class_name(static_cast<FileClass>(ci)));
    h5::write_attribute(group.id(), {"files", static_cast<std::int64_t>(c.files)});
    for (const CharacteristicInfo& info : characteristic_table()) {
      const std::string name = info.name;
      std::vector<Attribute> attributes = {{"table_iii", std::string(info.short_name)},
                                           {"units", std::string(info.units)},
                                           {"meaning", std::string(info.meaning)}};
      if (const auto* samples = numeric_characteristic(c, name)) {
        h5::write_vector(group.id(), name, *samples, attributes);
      } else if (const Frequencies* counts = frequencies_of(c, info.id)) {
        write_frequencies(group.id(), name, *counts, info);
      }
    }
  }
  std::vector<std::string> names, classes, patterns;
  std::vector<std::int64_t> sizes, strides;
  for (std::size_t f = 0; f < path.files.size(); ++f) {
    const FileInfo& info = path.files[f];
    names.push_back(path.table.files[f]);
    classes.push_back(file_class_name(info.file_class));
    sizes.push_back(info.size);
    strides.push_back(info.rank_stride);
    patterns.push_back(info.file_class != FileClass::private_file ? ""
                       : info.name.learned                        ? info.name.name_for(1) + " (rank 1)"
                                                                  : "not learned: NAME.<rank>");
  }
  h5::write_table(
      parent, "files",
      {{"name", names}, {"class", classes}, {"size", sizes}, {"rank_stride", strides}, {"name_on_rank_1", patterns}},
      {{"meaning", std::string("the generic workload path's files: class, FS, offset stride per rank "
                               "(shared), private name pattern")},
       {"dimensions", std::string("file")}});
  write_request_table(h5::create_group(parent, "generic_path").id(), path,
                       {{"meaning", std::string("the root's requests with seq = global sequence ID; flags bit 0: "
                                                "root-exclusive, bit 1: inferred open/close")}});
  std::vector<std::int64_t> class_ranks, class_of_rank;
  const auto& rank_classes = characterization.path_summary.rank_classes;
  for (std::size_t c = 0; c < rank_classes.size(); ++c)
    for (const std::int32_t rank : rank_classes[c]) {
      class_ranks.push_back(rank);
      class_of_rank.push_back(static_cast<std::int64_t>(c));
    }
  h5::write_table(parent, "rank_classes", {{"rank", class_ranks}, {"class", class_of_rank}},
                  {{"meaning", std::string("the trace's ranks by what they do (the same operations on the same "
                                           "files, of the same sizes, in order): class 0 runs generic_path, class "
                                           "c ≥ 1 class_paths/<c>")},
                   {"dimensions", std::string("rank")}});
  if (!characterization.other_classes.empty()) {
    const h5::Handle paths = h5::create_group(parent, "class_paths");
    for (std::size_t c = 0; c < characterization.other_classes.size(); ++c)
      write_request_table(h5::create_group(paths.id(), std::to_string(c + 1)).id(),
                          characterization.other_classes[c].path,
                          {{"meaning", std::string("the generic path of rank class c: the requests of its smallest "
                                                   "rank, seq = its sequence ID")}});
  }
  write_request_table(h5::create_group(parent, "sanitized").id(), characterization.sanitized,
                       {{"meaning", std::string("every rank's requests after sanitization, opens and closes "
                                                "included")}});
}

}  // namespace

void write_characterization_file(const std::string& path, const TraceCharacterization& characterization,
                                 const std::vector<Attribute>& attributes) {
  h5::PendingFile file(path, "--output");
  h5::write_attributes(file.id(), attributes);
  write_characterization(file.id(), characterization);
  file.commit();
}

RequestsEntryWriter::RequestsEntryWriter(EnsembleFile& file, const std::string& name, std::uint64_t expected_rows)
    : group_(std::make_unique<h5::Handle>(entry_group(file.hdf5().id(), name, true))),
      table_(std::make_unique<RequestTableWriter>(group_->id(), expected_rows)) {}

#ifdef GPUSYNTH_HAVE_MPI
RequestsEntryWriter::RequestsEntryWriter(ParallelSeriesFile& file, const std::string& name, std::uint64_t expected_rows,
                                         const RanksShare& share)
    : group_(std::make_unique<h5::Handle>(entry_group(file.hdf5().id(), name, true))),
      table_(std::make_unique<RequestTableWriter>(group_->id(), expected_rows, share.first_replica, share.names,
                                                  h5::TableAppender::Placement{true, share.rows, share.first_row})) {}
#endif

RequestsEntryWriter::~RequestsEntryWriter() {
  // Unwinding on one rank of several: its handles are dropped, not closed (a
  // collective call the other ranks never make), as ParallelSeriesFile does;
  // the job is ending (docs/scale-out.md).
  if (std::uncaught_exceptions() > 0 && ranks().size > 1) table_->abandon(), group_->abandon();
}

void RequestsEntryWriter::begin_replica(const Workload& files) { table_->begin_replica(files); }

void RequestsEntryWriter::append(const std::vector<Request>& requests) { table_->append(requests); }

namespace {

// What follows an entry's rows under /requests/<name>.
void write_entry_rest(hid_t group, const RequestNames& names, const std::vector<Attribute>& attributes,
                      const TraceCharacterization* characterized) {
  write_names(group, names);
  h5::write_attributes(group, attributes);
  if (characterized) write_characterization(h5::create_group(group, "characterized").id(), *characterized);
}

}  // namespace

void RequestsEntryWriter::finish(const std::vector<Attribute>& attributes,
                                 const TraceCharacterization* characterized) {
  table_->finish();
  write_entry_rest(group_->id(), table_->names(), attributes, characterized);
}

void RequestsEntryWriter::finish_share() {
  table_->finish();
  table_.reset();
  group_->reset();
}

void finish_requests_entry(EnsembleFile& file, const std::string& name, const RequestNames& names,
                           const std::vector<Attribute>& attributes, const TraceCharacterization* characterized) {
  write_entry_rest(entry_group(file.hdf5().id(), name, false).id(), names, attributes, characterized);
}

}  // namespace gs
