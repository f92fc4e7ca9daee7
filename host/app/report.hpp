// `gpusynth report RESULTS.h5 -o DIR`: the tables and plots of a comparison
// study, of request syntheses and of burst analyses as a self-contained HTML
// page (and Markdown), drawn by matplotlib in scripts/report.py (docs/studies.md,
// docs/requests.md, docs/bursts.md).
//
// DIR is written whole or not at all: -o is checked before any work (nothing
// there, an empty directory or a directory holding a report; a file, a device
// or a FIFO is refused, exit 2); the script draws into ".DIR.tmp-HOST-PID"
// beside it, which replaces DIR in one rename when the script exits 0 and is
// removed otherwise. SIGINT or SIGTERM reaches the script too and ends the
// command with exit 130 and nothing written.
#pragma once

#include <string>

namespace gs {

struct ReportOptions {
  std::string results;  // an HDF5 file written by a run with `compare:`, `requests:` or `bursts:`
  std::string output;   // the report directory
};

int report_command(const ReportOptions& options);

}  // namespace gs
