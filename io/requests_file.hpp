// Request-level results in HDF5 (docs/requests.md, docs/hdf5.md): the
// characteristics of Table III with the generic workload path's files and
// requests, and the synthesized request tables under /requests/<name>.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "io/attributes.hpp"
#include "io/ensemble_file.hpp"
#include "io/hdf5.hpp"
#include "io/request_characteristics.hpp"

namespace gs {

// `gpusynth characterize -o PATH`: the root `attributes`, then
// /characteristics/<class>/<name> (Table III), /files, /generic_path and
// /sanitized (every rank's requests); written under a temporary name and
// renamed into place (h5::PendingFile).
void write_characterization_file(const std::string& path, const TraceCharacterization& characterization,
                                 const std::vector<Attribute>& attributes);

class RequestTableWriter;

// /requests/<name> of a run's file, written as its replicas are made: one
// table `requests` (replica, seq, rank, time, duration, op, file, offset,
// size, session, flags) over all replicas, each replica's rows as they come,
// with `ops` and `files` naming their indices; at the end the entry's
// `attributes` and under `characterized` the characterization it was
// synthesized from (null: characteristics given in the config, nothing written).
class RequestsEntryWriter {
 public:
  // `expected_rows`: about how many requests all replicas will have (the table's chunks are no larger).
  RequestsEntryWriter(EnsembleFile& file, const std::string& name, std::uint64_t expected_rows);
  RequestsEntryWriter(const RequestsEntryWriter&) = delete;
  RequestsEntryWriter& operator=(const RequestsEntryWriter&) = delete;
  ~RequestsEntryWriter();

  // The next replica (0, 1, …): its ops and files, which the requests that follow index.
  void begin_replica(const Workload& files);
  void append(const std::vector<Request>& requests);
  void finish(const std::vector<Attribute>& attributes, const TraceCharacterization* characterized);

 private:
  h5::Handle group_;
  std::unique_ptr<RequestTableWriter> table_;
};

}  // namespace gs
