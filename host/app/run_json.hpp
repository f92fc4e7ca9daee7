// `--json` of run, bursts and replay: what the tables print, as one JSON
// object on stdout (the log stays on stderr): the ensembles written, the
// study's medians with intervals and matching degrees, the burst analyses'
// detection, F1 per horizon and Monte Carlo figures, the replays' fidelity.
#pragma once

#include <nlohmann/json.hpp>
#include <string>

#include "host/engine/run.hpp"

namespace gs {

nlohmann::json run_json(const RunOutcome& outcome, const std::string& output);

// `--json --dry-run`: {"dry_run": true, "written": null, "plan": [its lines]}, the
// plan --dry-run prints (ensembles, batches, requests, replays), a line each.
nlohmann::json plan_json(const std::string& plan);

}  // namespace gs
