// `gpusynth run CONFIG [options]`: exit codes 0, 2 (user error), 1 (internal
// error), 130 (interrupted; nothing left at the output path).
#pragma once

#include "host/engine/run.hpp"

namespace gs {

// Throws UserError / InternalError; returns an exit code otherwise.
int run_command(const RunOptions& options);

}  // namespace gs
