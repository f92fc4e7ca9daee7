// What is generated from the config's schema (host/engine/config_keys.hpp):
// `gpusynth config-schema` prints a JSON Schema (editors complete and check a
// config with it; a model's `params:` follow its table), the Markdown
// reference docs/config-keys.md or the libFuzzer dictionary fuzz/config.dict.
// The committed copies are checked against these by tests/cli/config_schema_test.sh.
#pragma once

#include <string>

namespace gs {

struct ConfigSchemaOptions {
  std::string format = "json";  // json, markdown, dict
};

int config_schema_command(const ConfigSchemaOptions& options);

std::string config_json_schema();
std::string config_keys_markdown();
std::string config_fuzz_dictionary();

}  // namespace gs
