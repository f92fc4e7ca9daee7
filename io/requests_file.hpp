// Request-level results in HDF5 (docs/requests.md, docs/hdf5.md): the
// characteristics of Table III with the generic workload path's files and
// requests, and the synthesized request tables under /requests/<name>.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "estimators/request_characteristics.hpp"
#include "host/base/attributes.hpp"
#include "io/ensemble_file.hpp"

namespace gs {

// `gpusynth characterize -o PATH`: the root `attributes`, then
// /characteristics/<class>/<name> (Table III), /files, /generic_path and
// /sanitized (every rank's requests); written under a temporary name and
// renamed into place (h5::PendingFile).
void write_characterization_file(const std::string& path, const TraceCharacterization& characterization,
                                 const std::vector<Attribute>& attributes);

class RequestTableWriter;
#ifdef GPUSYNTH_HAVE_MPI
class ParallelSeriesFile;
#endif

// The names a request table's `op` and `file` columns index: each in the
// order they first appear over the replicas (replica by replica, a replica's
// ops and files in the order of its tables).
class RequestNames {
 public:
  // The next replica's names; ops_here()/files_here() are then its indices.
  void add(const std::vector<std::string>& ops, const std::vector<std::string>& files);
  const std::vector<std::string>& ops() const { return ops_; }
  const std::vector<std::string>& files() const { return files_; }
  const std::vector<std::int64_t>& ops_here() const { return ops_here_; }
  const std::vector<std::int64_t>& files_here() const { return files_here_; }

 private:
  static std::int64_t index_of(std::map<std::string, std::int64_t>& index, std::vector<std::string>& names,
                               const std::string& name);
  std::map<std::string, std::int64_t> op_index_, file_index_;
  std::vector<std::string> ops_, files_;
  std::vector<std::int64_t> ops_here_, files_here_;
};

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
#ifdef GPUSYNTH_HAVE_MPI
  // MPI ranks (docs/scale-out.md): one rank's contiguous share of the
  // replicas, its rows placed where one rank would have written them.
  struct RanksShare {
    std::uint32_t first_replica = 0;  // the share's first replica
    std::uint64_t first_row = 0;      // its first row: the rows of the replicas before it
    std::uint64_t rows = 0;           // the table's rows, every rank's
    RequestNames names;               // every replica's names, merged in replica order
  };
  // Collective: every rank makes the group and the table of `share.rows`
  // rows in the ranks' shared file, then writes its own rows (independently);
  // finish_share() ends it, and rank 0 writes the rest (finish_requests_entry).
  RequestsEntryWriter(ParallelSeriesFile& file, const std::string& name, std::uint64_t expected_rows,
                      const RanksShare& share);
#endif
  RequestsEntryWriter(const RequestsEntryWriter&) = delete;
  RequestsEntryWriter& operator=(const RequestsEntryWriter&) = delete;
  ~RequestsEntryWriter();

  // The next replica (0, 1, …; a share's from its first): its ops and files, which the requests that follow index.
  void begin_replica(const Workload& files);
  void append(const std::vector<Request>& requests);
  void finish(const std::vector<Attribute>& attributes, const TraceCharacterization* characterized);
  // A share's rows written and its objects closed (before the shared file is).
  void finish_share();

 private:
  std::unique_ptr<h5::Handle> group_;  // io/hdf5.hpp's, declared in io/ensemble_file.hpp
  std::unique_ptr<RequestTableWriter> table_;
};

// What a share's rows leave to rank 0, in its own file once the ranks' shared
// file is closed: `ops`, `files`, the attributes and the characterization.
void finish_requests_entry(EnsembleFile& file, const std::string& name, const RequestNames& names,
                           const std::vector<Attribute>& attributes, const TraceCharacterization* characterized);

}  // namespace gs
