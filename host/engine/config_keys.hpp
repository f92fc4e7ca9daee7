// The schema of the config: every mapping a config can hold and every key of
// each (host/base/config_schema.hpp), declared once here. The parsers
// (config.cpp, requests_spec.cpp, bursts_spec.cpp) read each mapping against
// its entry; docs/config-keys.md, `gpusynth config-schema` and
// fuzz/config.dict are generated from it (host/app/config_reference.hpp).
#pragma once

#include "host/base/config_schema.hpp"

namespace gs {

const ConfigSchema& config_schema();

}  // namespace gs
