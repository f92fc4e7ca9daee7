// `gpusynth models [NAME…] [--markdown]`: every model's parameters (key,
// default, accepted range, meaning) from its table, with an example; the
// reference docs/models.md holds the same tables (tests/cli/models_test.sh).
#pragma once

#include <string>
#include <vector>

namespace gs {

struct ModelsOptions {
  std::vector<std::string> names;  // empty: every model
  bool markdown = false;
};

int models_command(const ModelsOptions& options);

// The parameter table of one model as Markdown (docs/models.md).
std::string model_markdown_table(const std::string& name);

}  // namespace gs
