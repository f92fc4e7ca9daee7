// `gpusynth report RESULTS.h5 -o DIR`: the tables and plots of a comparison
// study as a self-contained HTML page (and Markdown), drawn by matplotlib in
// scripts/report.py (docs/studies.md).
#pragma once

#include <string>

namespace gs {

struct ReportOptions {
  std::string results;  // an HDF5 file written by a run with `compare:`
  std::string output;   // the report directory
};

int report_command(const ReportOptions& options);

}  // namespace gs
