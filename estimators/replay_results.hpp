// The result of replaying one `requests:` entry (docs/requests.md, "Replay
// fidelity") as the engine hands it to the writer (io/replay_file.hpp) and to
// the tables the CLI prints: how it was replayed and its fidelity. Plain
// values; no file layout.
#pragma once

#include <string>
#include <vector>

#include "estimators/replay_fidelity.hpp"
#include "host/base/attributes.hpp"

namespace gs {

struct ReplayResult {
  std::string name;                   // the requests: entry replayed
  std::vector<Attribute> attributes;  // how it was replayed (target, fio, options)
  ReplayFidelity fidelity;
};

// The text attribute `name` of a replay (e.g. "target", "fio_servers"); empty when it has none.
std::string text_attribute(const ReplayResult& r, const char* name);

}  // namespace gs
