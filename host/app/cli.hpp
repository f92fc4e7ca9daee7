// The command line: `gpusynth CONFIG.yaml` is `gpusynth run CONFIG.yaml`.
// Exit codes: 0 success, 2 user error, 1 internal error, 130 interrupted.
#pragma once

namespace gs {

int main_cli(int argc, char** argv);

}  // namespace gs
