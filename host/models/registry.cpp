#include <fmt/format.h>

#include <map>

#include "host/models/fit.hpp"
#include "host/models/model.hpp"

namespace gs {

namespace {

// Filled by the model files' static initialisers, read after main starts;
// std::map keeps the names sorted and the entries in place.
std::map<std::string, ModelTraits>& registry() {
  static std::map<std::string, ModelTraits> models;
  return models;
}

}  // namespace

bool register_model(ModelTraits traits) {
  const std::string name = traits.name;
  if (!registry().emplace(name, std::move(traits)).second)
    throw InternalError("register_model", fmt::format("two models are named '{}'", name), __FILE__, __LINE__);
  return true;
}

std::vector<const ModelTraits*> registered_models() {
  std::vector<const ModelTraits*> models;
  for (const auto& [name, traits] : registry()) models.push_back(&traits);
  return models;
}

const ModelTraits* find_model(const std::string& name) {
  const auto found = registry().find(name);
  return found == registry().end() ? nullptr : &found->second;
}

std::vector<std::string> model_names() {
  std::vector<std::string> names;
  for (const auto& [name, traits] : registry()) names.push_back(name);
  return names;
}

std::vector<std::string> fittable_model_names() {
  std::vector<std::string> names;
  for (const auto& [name, traits] : registry())
    if (traits.fit) names.push_back(name);
  return names;
}

std::vector<std::string> default_fit_models() {
  std::vector<std::string> names;
  for (const auto& [name, traits] : registry())
    if (traits.fit && traits.fitted_by_default) names.push_back(name);
  return names;
}

std::vector<const FitOptionSpec*> fit_option_specs() {
  std::map<std::string, const FitOptionSpec*> options;
  for (const auto& [name, traits] : registry())
    for (const FitOptionSpec& option : traits.fit_options)
      if (!options.emplace(option.name, &option).second)
        throw InternalError("fit_option_specs", fmt::format("two models declare the fit option '{}'", option.name),
                            __FILE__, __LINE__);
  std::vector<const FitOptionSpec*> list;
  for (const auto& [name, option] : options) list.push_back(option);
  return list;
}

std::shared_ptr<Model> make_model(const ModelTraits& traits, const YAML::Node& params, const std::string& file,
                                  const std::string& where) {
  ParamValues values(ConfigMap(params, file, where, param_names(traits.params)), traits.params);
  std::shared_ptr<Model> model = traits.make(values);
  model->name_ = traits.name;
  return model;
}

std::shared_ptr<Model> make_model(const std::string& name, const std::string& params_yaml) {
  const ModelTraits* traits = find_model(name);
  if (!traits)
    throw UserError(fmt::format("'{}' is not a known model; accepted: {}", name, fmt::join(model_names(), ", ")));
  YAML::Node params;
  try {
    params = YAML::Load(params_yaml);
  } catch (const YAML::Exception& e) {
    throw UserError(fmt::format("params of {}: not valid YAML: {}", name, e.msg));
  }
  return make_model(*traits, params, "<" + name + " params>", "params");
}

}  // namespace gs
