#include "host/engine/bursts_spec.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <cmath>

#include "host/base/config_map.hpp"
#include "host/engine/config.hpp"
#include "host/engine/config_keys.hpp"
#include "io/series_source.hpp"
#include "io/trace.hpp"

namespace gs {

namespace {

double duration_at(ConfigMap& map, const std::string& key, const std::string& text) {
  try {
    return parse_duration(text, map.path_of(key).c_str());
  } catch (const UserError& e) {
    throw map.error_at(key, e.what());
  }
}

std::vector<Predictor> predictors_at(ConfigMap& map, const YAML::Node& list, const std::string& key) {
  std::vector<Predictor> out;
  if (!list.IsSequence() || list.size() == 0)
    throw map.error_at(key, fmt::format("{} must list predictors: logistic, xgboost", map.path_of(key)));
  for (const auto& item : list) {
    if (!item.IsScalar())
      throw located_error_at(item, map.file(), fmt::format("{}: a predictor name", map.path_of(key)));
    Predictor predictor;
    try {
      predictor = parse_predictor(item.Scalar());
    } catch (const UserError& e) {
      throw located_error_at(item, map.file(), fmt::format("{}: {}", map.path_of(key), e.what()));
    }
    if (std::find(out.begin(), out.end(), predictor) != out.end())
      throw located_error_at(item, map.file(),
                             fmt::format("{} lists '{}' twice; each predictor once", map.path_of(key), item.Scalar()));
    out.push_back(predictor);
  }
  return out;
}

// The channels a binned trace can have (docs/traces.md); which of them a
// dataset has depends on its format (darshan alone has the I/O times).
const std::vector<std::string> kChannels = {"count",       "count_read", "count_write", "bytes",     "bytes_read",
                                            "bytes_write", "time",       "time_read",   "time_write"};

std::vector<std::string> names_at(ConfigMap& map, const YAML::Node& list, const std::string& key) {
  std::vector<std::string> out;
  if (!list.IsSequence()) throw map.error_at(key, fmt::format("{} must list names", map.path_of(key)));
  for (const auto& item : list) {
    if (!item.IsScalar() || item.Scalar().empty())
      throw located_error_at(item, map.file(), fmt::format("{}: a name", map.path_of(key)));
    out.push_back(item.Scalar());
  }
  return out;
}

// What is analysed: a `dataset` (with its `operations` and `io_time` channels) and/or `ensembles`, and `bin`.
void parse_sources(ConfigMap& map, BurstsSpec& spec) {
  spec.dataset = map.text("dataset").value_or("");
  spec.operations = map.text("operations").value_or("");
  spec.io_time = map.text("io_time").value_or("");
  if (spec.dataset.empty() && (!spec.operations.empty() || !spec.io_time.empty()))
    throw map.error_at("operations", fmt::format("{}: operations and io_time are channels of a dataset", map.where()));
  if (auto list = map.sequence("ensembles")) spec.ensembles = names_at(map, *list, "ensembles");
  if (auto bin = map.text("bin")) {
    spec.bin_seconds = duration_at(map, "bin", *bin);
  } else if (spec.dataset.empty()) {
    throw map.error_here(
        fmt::format("{} without a dataset needs 'bin', the width of the ensembles' bins (e.g. "
                    "5min)",
                    map.where()));
  }
  if (spec.dataset.empty() && (!spec.ensembles || spec.ensembles->empty()))
    throw map.error_here(fmt::format("{} needs a 'dataset' (the real series) or 'ensembles'", map.where()));
}

// `detection`: the threshold mean + k·σ, or the one that makes a share of the bins bursts (default 1 %).
void parse_detection(ConfigMap& map, BurstAnalysisOptions& a) {
  if (auto detection = map.map("detection")) {
    if (detection->has("k") && detection->has("share"))
      throw detection->error_here(fmt::format("{}: give k or share, not both", detection->where()));
    a.k = detection->number("k");
    a.share = *detection->number("share");
  }
}

// `features` and `horizons`.
void parse_features_and_horizons(ConfigMap& map, const std::string& file, BurstsSpec& spec) {
  if (auto features = map.choice("features")) spec.features = parse_feature_set(*features);
  if (auto horizons = map.sequence("horizons")) {
    if (horizons->size() == 0) throw map.error_at("horizons", fmt::format("{}.horizons is empty", map.where()));
    for (const auto& item : *horizons) {
      if (!item.IsScalar()) throw located_error_at(item, file, fmt::format("{}.horizons: durations", map.where()));
      try {
        spec.horizon_seconds.push_back(parse_duration(item.Scalar(), (map.where() + ".horizons").c_str()));
      } catch (const UserError& e) {
        throw located_error_at(item, file, e.what());
      }
    }
  }
}

// How the rows are labelled and split, and which predictors are trained.
void parse_prediction(ConfigMap& map, BurstAnalysisOptions& a) {
  a.prediction.label = *map.choice("label") == "at" ? BurstLabel::at : BurstLabel::within;
  a.prediction.train_share = *map.number("train_share");
  a.prediction.validation_share = *map.number("validation_share");
  a.prediction.models = {Predictor::logistic, Predictor::xgboost};
  if (auto list = map.sequence("predictors")) a.prediction.models = predictors_at(map, *list, "predictors");
  a.prediction.severity = map.flag("severity");
}

// `xgboost`: the boosted trees' parameters.
void parse_xgboost(ConfigMap& map, BurstAnalysisOptions& a) {
  if (auto trees = map.map("xgboost")) {
    BoostedTreesOptions& t = a.prediction.trees;
    t.rounds = static_cast<int>(*trees->unsigned_integer("rounds"));
    t.max_depth = static_cast<int>(*trees->unsigned_integer("max_depth"));
    t.learning_rate = *trees->number("learning_rate");
    t.min_child_weight = *trees->number("min_child_weight");
    t.l2 = *trees->number("lambda");
    t.threads = static_cast<int>(*trees->unsigned_integer("threads"));
  }
}

// `bootstrap`: the intervals of the prediction scores.
void parse_bootstrap(ConfigMap& map, BurstAnalysisOptions& a) {
  if (auto bootstrap = map.map("bootstrap")) {
    a.prediction.resamples = static_cast<std::uint32_t>(*bootstrap->unsigned_integer("resamples"));
    a.prediction.confidence = *bootstrap->number("confidence");
    a.prediction.block = *bootstrap->unsigned_integer("block");
  }
}

// `scheduling` (Algorithm 1) and `run_length_limit`.
void parse_scheduling(ConfigMap& map, BurstAnalysisOptions& a) {
  if (auto s = map.map("scheduling")) {
    ScheduleOptions& o = a.scheduling;
    if (auto t = s->text("min_time")) o.min_time = duration_at(*s, "min_time", *t);
    if (auto t = s->text("max_time")) o.max_time = duration_at(*s, "max_time", *t);
    require_in_range(*s, "max_time", o.max_time, o.max_time >= o.min_time && o.min_time > 0,
                     fmt::format("at least min_time ({} s)", o.min_time));
    o.window = *s->unsigned_integer("window");
    if (auto alphas = s->numbers("alphas")) {
      if (alphas->empty()) throw s->error_at("alphas", fmt::format("{}.alphas is empty", s->where()));
      o.alphas = *alphas;
    }
    o.one_based = s->flag("one_based");
  }
  a.run_length_limit = *map.unsigned_integer("run_length_limit");
}

// `monte_carlo`: the predictors scored on every replica, and how many replicas.
void parse_monte_carlo(ConfigMap& map, BurstsSpec& spec) {
  if (auto mc = map.map("monte_carlo")) {
    if (auto list = mc->sequence("predictors")) spec.monte_carlo_models = predictors_at(*mc, *list, "predictors");
    spec.monte_carlo_severity = mc->flag("severity");
    spec.monte_carlo_replicas = mc->unsigned_integer("replicas").value_or(0);  // 0: every stored replica
  }
}

// `augment`: replicas that join the real training bins.
void parse_augment(ConfigMap& map, BurstsSpec& spec) {
  if (auto augment = map.map("augment")) {
    spec.augment_replicas = augment->require(augment->unsigned_integer("replicas"), "replicas",
                                             "how many replicas of each ensemble join the real training bins");
    if (spec.dataset.empty())
      throw augment->error_here(
          fmt::format("{} trains on a real dataset and replicas: give 'dataset'", augment->where()));
  }
}

}  // namespace

BurstsSpec parse_bursts(const YAML::Node& node, const std::string& file, std::size_t index) {
  ConfigMap map(node, file, fmt::format("bursts[{}]", index), config_schema(), "bursts[]");
  BurstsSpec spec;
  spec.line = static_cast<int>(node.Mark().line) + 1;
  spec.name = required_group_name(map, "the name of the analysis (under /bursts)");
  parse_sources(map, spec);
  parse_detection(map, spec.analysis);
  parse_features_and_horizons(map, file, spec);
  parse_prediction(map, spec.analysis);
  parse_xgboost(map, spec.analysis);
  parse_bootstrap(map, spec.analysis);
  parse_scheduling(map, spec.analysis);
  parse_monte_carlo(map, spec);
  parse_augment(map, spec);
  return spec;
}

std::optional<std::size_t> horizon_in_bins(double seconds, double bin_seconds) {
  const double bins = seconds / bin_seconds;
  if (!(bins >= 1 - 1e-9) || std::abs(bins - std::round(bins)) > 1e-6 * bins) return std::nullopt;
  return static_cast<std::size_t>(std::llround(bins));
}

void check_bursts_with_datasets(const std::vector<BurstsSpec>& bursts, const std::vector<DatasetSpec>& datasets,
                                const YAML::Node& list, const std::string& file) {
  for (std::size_t i = 0; i < bursts.size(); ++i) {
    const BurstsSpec& spec = bursts[i];
    const YAML::Node node = list[i];
    const std::string where = fmt::format("bursts[{}]", i);
    for (const auto& [key, channel] : {std::pair{"operations", &spec.operations}, std::pair{"io_time", &spec.io_time}})
      if (!channel->empty() && std::find(kChannels.begin(), kChannels.end(), *channel) == kChannels.end())
        throw located_error_at(node[key], file,
                               fmt::format("{}.{} = '{}' is not a channel; accepted: {}", where, key, *channel,
                                           fmt::join(kChannels, ", ")));
    if (spec.dataset.empty()) continue;
    const DatasetSpec& dataset =
        *std::find_if(datasets.begin(), datasets.end(), [&](const DatasetSpec& d) { return d.name == spec.dataset; });
    if (trace_format(dataset.source.trace.format).kind == Trace::Kind::series || dataset.source.bin.empty())
      throw located_error_at(node["dataset"], file,
                             fmt::format("{}.dataset = '{}' is a (time, value) series without bins; bursts need a "
                                         "binned series (darshan, counts, …)",
                                         where, spec.dataset));
    const double bin = parse_duration(dataset.source.bin, ("datasets " + dataset.name + " bin").c_str());
    if (spec.bin_seconds > 0 && std::abs(spec.bin_seconds - bin) > 1e-9 * bin)
      throw located_error_at(node["bin"], file,
                             fmt::format("{}.bin = {} s differs from dataset '{}''s bins of {} s", where,
                                         spec.bin_seconds, dataset.name, bin));
    for (std::size_t h = 0; h < spec.horizon_seconds.size(); ++h)
      if (!horizon_in_bins(spec.horizon_seconds[h], bin))
        throw located_error_at(node["horizons"][h], file,
                               fmt::format("{}.horizons: {} s is not a whole number (>= 1) of dataset '{}''s bins "
                                           "of {} s",
                                           where, spec.horizon_seconds[h], dataset.name, bin));
  }
}

}  // namespace gs
