#include "host/app/models.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <cstdio>

#include "host/base/errors.hpp"
#include "host/models/model.hpp"

namespace gs {

namespace {

const ModelTraits& traits_of(const std::string& name) {
  const ModelTraits* traits = find_model(name);
  if (!traits)
    throw UserError(fmt::format("'{}' is not a known model; accepted: {}", name, fmt::join(model_names(), ", ")));
  return *traits;
}

std::string text_table(const ModelTraits& traits) {
  std::string out =
      fmt::format("{}: {}{}\n", traits.name, traits.summary, traits.fit ? " (fitted by `gpusynth fit`)" : "");
  out += fmt::format("  {:<18} {:<34} {:<40} {}\n", "key (params:)", "default", "accepted", "meaning");
  for (const ParamSpec& p : traits.params)
    out +=
        fmt::format("  {:<18} {:<34} {:<40} {}\n", p.name, p.default_description(), p.range_description(), p.meaning);
  out += fmt::format("  example: params: {}\n", traits.example);
  return out;
}

}  // namespace

std::string model_markdown_table(const std::string& name) {
  const ModelTraits& traits = traits_of(name);
  const auto cell = [](std::string text) {  // a | inside a cell would end it
    for (std::size_t at = 0; (at = text.find('|', at)) != std::string::npos; at += 2) text.insert(at, "\\");
    return text;
  };
  std::string out = "| key | default | accepted | meaning |\n|---|---|---|---|\n";
  for (const ParamSpec& p : traits.params)
    out += fmt::format("| `{}` | {} | {} | {} |\n", p.name, cell(p.default_description()), cell(p.range_description()),
                       cell(p.meaning));
  return out;
}

int models_command(const ModelsOptions& options) {
  const std::vector<std::string> names = options.names.empty() ? model_names() : options.names;
  for (std::size_t i = 0; i < names.size(); ++i) {
    const ModelTraits& traits = traits_of(names[i]);
    if (options.markdown) {
      std::printf("%s### `model: %s`\n\n%s.\n\n%s\nExample: `params: %s`\n", i ? "\n" : "", traits.name.c_str(),
                  traits.summary.c_str(), model_markdown_table(traits.name).c_str(), traits.example.c_str());
    } else {
      std::printf("%s%s", i ? "\n" : "", text_table(traits).c_str());
    }
  }
  return kExitOk;
}

}  // namespace gs
