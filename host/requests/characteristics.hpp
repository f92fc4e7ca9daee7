// PIONEER's characterization phase (Table III, docs/requests.md): every
// characteristic of a generic workload path as an empirical distribution,
// per file class, with gaps measured in global sequence IDs.
#pragma once

#include "estimators/request_characteristics.hpp"
#include "host/requests/workload.hpp"

namespace gs {

// Table III of `path` (seq = position, sessions and file classes set).
Characteristics characterize_path(const Workload& path);

// The whole characterization phase of a request trace: sanitized, its generic
// workload path (soft dependencies derived) and the path's characteristics.
TraceCharacterization characterize_requests(const RequestTrace& trace);

}  // namespace gs
