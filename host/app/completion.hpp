#pragma once

#include <string>

namespace CLI {
class App;
}

namespace gs {

// A bash completion script for the command line `app` parses (`gpusynth
// completion bash`; installed as share/bash-completion/completions/gpusynth):
// the commands, each command's options and the accepted values of those
// that take one of a list. It is read from the parser itself, so an option
// added to the CLI completes without editing a script.
std::string bash_completion(const CLI::App& app);

}  // namespace gs
