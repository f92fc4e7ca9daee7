// Request-level results in HDF5 (docs/requests.md, docs/hdf5.md): the
// characteristics of Table III with the generic workload path's files and
// requests, and the synthesized request tables under /requests/<name>.
#pragma once

#include <string>
#include <vector>

#include "io/attributes.hpp"
#include "io/ensemble_file.hpp"
#include "io/request_characteristics.hpp"

namespace gs {

// `gpusynth characterize -o PATH`: the root `attributes`, then
// /characteristics/<class>/<name> (Table III), /files, /generic_path and
// /sanitized (every rank's requests); written under a temporary name and
// renamed into place (h5::PendingFile).
void write_characterization_file(const std::string& path, const TraceCharacterization& characterization,
                                 const std::vector<Attribute>& attributes);

// /requests/<name> of a run's file: one table `requests` (replica, seq, rank,
// time, duration, op, file, offset, size, session, flags) over all replicas
// with `ops` and `files` naming their indices, the entry's `attributes`, and
// under `characterized` the characterization the entry was synthesized from
// (null: characteristics given in the config, nothing written).
void write_requests_entry(EnsembleFile& file, const std::string& name, const std::vector<Workload>& replicas,
                          const std::vector<Attribute>& attributes, const TraceCharacterization* characterized);

}  // namespace gs
