// `gpusynth report RESULTS.h5 -o DIR`: the tables and plots of a comparison
// study, of request syntheses, replays and burst analyses, and the sample paths
// of the ensembles no study compares (a plain run's file), as a self-contained
// HTML page (and Markdown), drawn by matplotlib in scripts/report.py
// (docs/cli.md, docs/studies.md, docs/requests.md, docs/bursts.md). The script
// prints one progress line per section on stderr unless quiet.
//
// DIR is written whole or not at all: -o is checked before any work (nothing
// there, an empty directory or a directory holding a report; a file, a device
// or a FIFO is refused, exit 2); the script draws into ".DIR.tmp-HOST-PID"
// beside it, which replaces DIR in one rename when the script exits 0 and is
// removed otherwise. SIGINT or SIGTERM reaches the script too and ends the
// command with exit 130 and nothing written. A script killed by SIGSEGV, SIGBUS,
// SIGABRT, SIGFPE or SIGILL died in HDF5 on a damaged file (the script reads
// the file in a child first to name the object, so this is the fallback): one
// error line naming the file, exit 2, nothing written.
#pragma once

#include <string>

namespace gs {

struct ReportOptions {
  std::string results;  // an HDF5 file gpusynth wrote (any run, study, requests, replay or bursts)
  std::string output;   // the report directory
  bool quiet = false;   // no progress lines
};

int report_command(const ReportOptions& options);

}  // namespace gs
