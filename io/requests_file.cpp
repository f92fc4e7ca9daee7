#include "io/requests_file.hpp"

#include <map>

#include "host/base/interrupt.hpp"
#include "io/hdf5.hpp"

namespace gs {

namespace {

// Polls for SIGINT/SIGTERM every 64Ki steps of a loop over requests.
inline void poll_interrupts(std::size_t step) {
  if ((step & 0xffff) == 0) throw_if_interrupted();
}

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

// One table `requests` (replica, seq, rank, time, duration, op, file, offset,
// size, session, flags) over all replicas, with `ops` and `files` naming the
// indices of replica 0's tables (every replica is written with its own, concatenated).
void write_request_tables(hid_t group, const std::vector<Workload>& replicas,
                          const std::vector<Attribute>& attributes) {
  std::map<std::string, std::int64_t> op_index, file_index;
  std::vector<std::string> ops, files;
  const auto index_of = [](std::map<std::string, std::int64_t>& index, std::vector<std::string>& names,
                           const std::string& name) {
    auto [it, fresh] = index.emplace(name, static_cast<std::int64_t>(names.size()));
    if (fresh) names.push_back(name);
    return it->second;
  };
  std::vector<std::int64_t> replica, seq, rank, op, file, offset, size, session, flags;
  std::vector<double> time, duration;
  std::size_t rows = 0;
  for (const Workload& w : replicas) rows += w.table.requests.size();
  for (auto* column : {&replica, &seq, &rank, &op, &file, &offset, &size, &session, &flags}) column->reserve(rows);
  time.reserve(rows);
  duration.reserve(rows);
  std::size_t row = 0;
  for (std::size_t k = 0; k < replicas.size(); ++k) {
    const RequestTable& t = replicas[k].table;
    std::vector<std::int64_t> ops_here, files_here;
    for (const auto& name : t.ops) ops_here.push_back(index_of(op_index, ops, name));
    for (std::size_t f = 0; f < t.files.size(); ++f) {
      poll_interrupts(f);
      files_here.push_back(index_of(file_index, files, t.files[f]));
    }
    for (const Request& r : t.requests) {
      poll_interrupts(row++);
      replica.push_back(static_cast<std::int64_t>(k));
      seq.push_back(r.seq);
      rank.push_back(r.rank);
      time.push_back(r.start);
      duration.push_back(r.duration);
      op.push_back(ops_here[r.op]);
      file.push_back(r.file < 0 ? -1 : files_here[r.file]);
      offset.push_back(r.offset);
      size.push_back(r.size);
      session.push_back(r.session);
      flags.push_back(r.flags);
    }
  }
  // Moved, not copied (an initializer list copies): the columns are most of the memory a run takes.
  std::vector<h5::TableColumn> columns;
  columns.reserve(11);
  columns.push_back({"replica", std::move(replica)});
  columns.push_back({"seq", std::move(seq)});
  columns.push_back({"rank", std::move(rank)});
  columns.push_back({"time", std::move(time)});
  columns.push_back({"duration", std::move(duration)});
  columns.push_back({"op", std::move(op)});
  columns.push_back({"file", std::move(file)});
  columns.push_back({"offset", std::move(offset)});
  columns.push_back({"size", std::move(size)});
  columns.push_back({"session", std::move(session)});
  columns.push_back({"flags", std::move(flags)});
  h5::write_table(group, "requests", columns,
                  {{"dimensions", std::string("request")},
                   {"time_units", std::string("s")},
                   {"offset_size_units", std::string("bytes (-1: not given)")},
                   {"flags", std::string("bit 0 root-exclusive, 1 inferred open/close, 2 session may read, 3 may "
                                         "write")}});
  columns.clear();
  std::vector<std::string> classes;
  for (const auto& name : ops) classes.push_back(op_class_name(classify_operation(name)));
  h5::write_table(group, "ops", {{"name", ops}, {"class", classes}}, {{"dimensions", std::string("op")}});
  h5::write_table(group, "files", {{"name", files}}, {{"dimensions", std::string("file")}});
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
  write_request_tables(h5::create_group(parent, "generic_path").id(), {path},
                       {{"meaning", std::string("the root's requests with seq = global sequence ID; flags bit 0: "
                                                "root-exclusive, bit 1: inferred open/close")}});
  write_request_tables(h5::create_group(parent, "sanitized").id(), {characterization.sanitized},
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

void write_requests_entry(EnsembleFile& file, const std::string& name, const std::vector<Workload>& replicas,
                          const std::vector<Attribute>& attributes, const TraceCharacterization* characterized) {
  const h5::Handle top = h5::has_link(file.id(), "requests") ? h5::open_group(file.id(), "requests")
                                                             : h5::create_group(file.id(), "requests");
  const h5::Handle group = h5::create_group(top.id(), name);
  write_request_tables(group.id(), replicas, attributes);
  if (characterized) write_characterization(h5::create_group(group.id(), "characterized").id(), *characterized);
}

}  // namespace gs
