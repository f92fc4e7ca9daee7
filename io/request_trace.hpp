// Request traces read (docs/traces.md, docs/requests.md): DXT text, binary
// Darshan logs' DXT records and PIONEER's 7-field trace into a RequestTrace
// (estimators/requests.hpp), every field kept, with darshan-parser's open counts.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "estimators/requests.hpp"
#include "io/trace.hpp"

namespace gs {

// One PIONEER line: timestamp, operation, file, offset, size, execution time,
// extra (the rest of the line, commas and all). NULL offsets and sizes are kUnknown.
struct PioneerFields {
  std::string_view time, op, file, offset, size, execution_time, extra;
};

// Reads DXT (`format` "dxt": every module, POSIX and MPI-IO) or PIONEER
// ("pioneer": one file per process, or a `rank=N` word in extra) request
// traces. `counters` (darshan-parser text of the same job, may be empty) gives
// the opens used to infer file open sessions.
RequestTrace read_request_trace(const std::vector<std::string>& paths, const std::string& format,
                                const TraceOptions& options, const std::string& counters = {});

// What to know before trusting a request trace (its incomplete modules, counters
// of another job), or empty.
std::string request_trace_warning(const RequestTrace& trace);

}  // namespace gs
