// The `requests:` section of a config (docs/requests.md): which trace to
// characterize (or the characteristics a user gives), how to synthesize
// (Algorithm 1 or the path as a template, overrides, processes, replicas),
// how to time (slack time or an ensemble's counts) and what to emit.
#pragma once

#include <yaml-cpp/yaml.h>

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "host/requests/synthesize.hpp"
#include "io/trace.hpp"

namespace gs {

struct RequestsSpec {
  std::string name;
  int line = 0;
  std::string where;  // "requests[i] ('name')", for the errors found after parsing
  // From a trace ...
  std::vector<std::string> traces;  // resolved against the config's folder
  std::string format;               // dxt or pioneer
  std::string counters;             // darshan-parser text: opens per file
  TraceOptions trace_options;       // how the trace files are read (time unit, delimiter)
  // (read and characterized by the run's plan: prepare_requests, host/engine/requests_run.hpp)
  // ... or from the user's characteristics (a path of template files only).
  std::optional<Characteristics> given;
  Workload given_files;
  SynthesisOptions synthesis;
  std::int32_t processes = 0;  // 0: the trace's
  std::uint32_t replicas = 1;
  // How the requests are timed (docs/requests.md, "Timing"): the trace's phases (the default for a
  // sample of a trace), slack times (the default otherwise), or the counts of an ensemble.
  enum class Timing { slack, phases, counts } timing = Timing::slack;
  std::string timing_ensemble;  // Timing::counts: the ensemble
  double bin_width = 1;         // s, the ensemble's bins
  struct Emit {
    std::string fio, disksim, dxt;  // relative ones beside the HDF5 output; empty: not written
    std::string fio_at, disksim_at, dxt_at;  // "file:line:column" of each in the config
    std::uint32_t replica = 0;
  } emit;
};

// Every key checked, with its accepted range (docs/config.md); the trace is
// read later, before any work (host/engine/requests_run.hpp).
RequestsSpec parse_requests(const YAML::Node& node, const std::string& file, std::size_t index);

// The timing as the outputs name it: "phases", "slack" or "ensemble NAME (bins of W s)".
std::string timing_text(const RequestsSpec& spec);

}  // namespace gs
