#include "host/engine/config_keys.hpp"

#include <fmt/format.h>

#include "estimators/boosted_trees.hpp"
#include "estimators/burst_analysis.hpp"
#include "estimators/compare.hpp"
#include "estimators/hurst.hpp"
#include "estimators/request_characteristics.hpp"
#include "host/engine/bursts_spec.hpp"
#include "host/engine/config.hpp"
#include "host/models/model.hpp"
#include "host/requests/synthesize.hpp"
#include "io/hdf5_library.hpp"
#include "io/trace.hpp"
#include "kernels/workload.hpp"

namespace gs {

namespace {

constexpr double kLargestStream = 4294967295.0;  // Philox streams and replica counts are 32-bit

MappingSpec top_keys() {
  return {"",
          "The file: the run's settings and its sections.",
          "host/engine/config.cpp (config_from, parse_run_keys, parse_study)",
          {
              whole_key("version", "The schema version of the file.").between(1, 1).defaults(1).stated("1"),
              whole_key("seed", "The seed of every random stream of the run; recorded in the output.")
                  .defaults(static_cast<double>(kDefaultSeed)),
              choice_key("backend", "Where the ensembles are generated (docs/engine.md).", {"auto", "cpu", "cuda"})
                  .defaults("auto"),
              choice_key("precision",
                         "accurate: correctly rounded math; fast: 3.5-ulp or hardware functions (docs/engine.md).",
                         {"accurate", "fast"})
                  .defaults("accurate"),
              path_key("output", "The HDF5 file to write; its folder must exist.")
                  .defaults("none: -o gives it, or --no-output / --dry-run write nothing"),
              whole_key("compression", "The deflate level of the datasets, with the shuffle filter.")
                  .between(0, 9)
                  .defaults(1)
                  .stated("deflate level 0 (none) to 9"),
              path_key("fft_wisdom", "FFTW wisdom made by `gpusynth fft-wisdom`: the host's FFTs take its plans."),
              mappings_key("datasets", "datasets[]", "Real traces, stored under /datasets/<name>/series."),
              mappings_key("ensembles", "ensembles[]", "The ensembles to generate.")
                  .defaults("required unless models, requests or bursts are given"),
              typed_key("models", KeyType::names,
                        "Models fitted to every dataset in a study, each the ensemble <dataset>-<model> "
                        "(docs/studies.md)."),
              whole_key("replicas", "Replicas of each ensemble a study fits.")
                  .between(1, kLargestStream)
                  .defaults(static_cast<double>(StudySpec{}.replicas))
                  .stated("1 <= replicas <= 4294967295"),
              mapping_key("fitting", "fitting", "Options of the study's fits (those of `gpusynth fit`)."),
              mapping_key("compare", "compare", "How a study compares every replica with its dataset."),
              number_key("cap_over_peak",
                         "Each fitted ensemble's workload cap, in multiples of its dataset's peak (its largest value).")
                  .at_least(1)
                  .stated("a finite cap_over_peak >= 1 (each fitted ensemble's cap, in multiples of its dataset's "
                          "peak)"),
              mappings_key("requests", "requests[]", "Request-level syntheses (docs/requests.md)."),
              mappings_key("bursts", "bursts[]", "Burst analyses (docs/bursts.md)."),
          }};
}

MappingSpec dataset_keys() {
  return {
      "datasets[]",
      "A real trace read as `gpusynth stats` reads it (docs/traces.md).",
      "host/engine/config.cpp (parse_dataset)",
      {
          text_key("name", "The dataset's name, a group under /datasets.").need().stated(h5::kGroupNameRule),
          typed_key("trace", KeyType::paths, "The trace file(s), gzip or plain; several are merged.")
              .defaults("required unless trace_list is given"),
          path_key("trace_list", "A file naming trace files, one per line ('#' comments)."),
          choice_key("format", "The trace format.", trace_format_names())
              .defaults("told from the first trace when it leaves no doubt (dxt, darshan, blkparse)"),
          duration_key("bin", "The width of the bins.").defaults("required for every format but series and values"),
          text_key("series",
                   "The channel analysed: count, count_read, count_write, bytes, bytes_read, bytes_write "
                   "(darshan also time, time_read, time_write).")
              .defaults("count; darshan: bytes"),
          text_key("column", "timestamps and series: the time column, 1-based or a header name (series: row).")
              .defaults("1"),
          text_key("value_column", "series and counts: the value column.").defaults("series 2, counts 1"),
          text_key("op_column", "timestamps: the operation column (read/write)."),
          text_key("size_column", "timestamps: the request size column, in bytes."),
          flag_key("header", "The first line names the columns."),
          choice_key("delimiter", "The field delimiter.", {"comma", "tab", "space"})
              .defaults("detected from the first line"),
          choice_key("time_unit", "The unit of the times.", time_unit_names()).defaults("s; disksim: ms"),
          typed_key("modules", KeyType::texts, "darshan and dxt: the modules read (POSIX, MPI-IO, STDIO).")
              .defaults("POSIX, STDIO"),
          choice_key("blk_event", "blkparse: Q (queued) or D (issued to the driver).", {"Q", "D"}).defaults("Q"),
          flag_key("sort", "Accept events out of time order by sorting them."),
          flag_key("skip_bad_lines", "Count and report malformed lines instead of stopping."),
          typed_key("read_values", KeyType::texts, "Values of op_column meaning read.").defaults("r, read, rd"),
          typed_key("write_values", KeyType::texts, "Values of op_column meaning write.").defaults("w, write, wr"),
          choice_key("spread", "darshan: a record's amounts over the bins it covers.", {"overlap", "equal"})
              .defaults("overlap"),
          choice_key("align", "darshan: bins from the first log's start, or at multiples of the width in Unix time.",
                     {"start", "epoch"})
              .defaults("start"),
      }};
}

MappingSpec ensemble_keys() {
  return {"ensembles[]",
          "An ensemble: replicas of one model's series.",
          "host/engine/config.cpp (parse_ensemble)",
          {
              text_key("name", "A unique name, the group /ensembles/<name>.").need().stated(h5::kGroupNameRule),
              choice_key("model", "The model (docs/models.md, `gpusynth models`).", model_names()).need(),
              typed_key("params", KeyType::model_params, "The model's parameters (`gpusynth models NAME`).").need(),
              mapping_key("workload", "ensembles[].workload", "How the model's X becomes a workload (eq. (5))."),
              whole_key("replicas", "How many independent series.")
                  .need()
                  .between(1, kLargestStream)
                  .stated("1 <= replicas <= 4294967295"),
              whole_key("length", "The bins of each series.")
                  .need()
                  .in("bins")
                  .between(1, 1099511627776.0)
                  .stated("1 <= length <= 2^40"),
              choice_key("dtype", "The precision of the computation and the stored values.", {"float32", "float64"})
                  .defaults("float32"),
              whole_key("stream", "The Philox stream of the ensemble.")
                  .between(0, kLargestStream)
                  .defaults("the FNV-1a hash of the name")
                  .stated("0 <= stream <= 4294967295"),
              text_key("dataset", "A dataset of the config the ensemble was fitted to (written by `gpusynth fit`)."),
              typed_key("fit", KeyType::any, "The fit's estimates, stored under /ensembles/<name>/fit."),
          }};
}

MappingSpec workload_keys() {
  return {"ensembles[].workload",
          "The workload mapping v·X + δ of eq. (5).",
          "host/engine/config.cpp (parse_workload)",
          {
              number_key("v", "The I/O mean velocity.")
                  .above(0)
                  .defaults(WorkloadMapping{}.v)
                  .stated("v > 0 (the I/O mean velocity of eq. (5))"),
              number_key("delta", "The deviation δ.").defaults(WorkloadMapping{}.delta),
              choice_key("values", "real: v·X + δ as computed; counts: rounded, clipped at 0, stored as uint32.",
                         {"real", "counts"})
                  .defaults("real"),
              number_key("cap", "Values above it are stored as the cap (a truncation, before rounding).")
                  .above(0)
                  .in("the values' unit")
                  .stated("cap > 0 (the largest value stored, in the values' unit)"),
          }};
}

// The fit options are the models' own table (FitOptionSpec): each becomes a key.
MappingSpec fitting_keys() {
  MappingSpec mapping{"fitting",
                      "The fit adapters' options, as `gpusynth fit`'s with _ for -.",
                      "host/engine/config.cpp (parse_study)",
                      {}};
  for (const FitOptionSpec* option : fit_option_specs()) {
    KeySpec key = option->choices.empty()
                      ? whole_key(option->name, option->help)
                            .between(static_cast<double>(option->min), static_cast<double>(option->max))
                      : choice_key(option->name, option->help, option->choices);
    mapping.keys.push_back(key.defaults(option->default_value));
  }
  return mapping;
}

MappingSpec compare_keys() {
  const CompareOptions o;
  return {"compare",
          "How a study compares every replica with its dataset (docs/studies.md).",
          "host/engine/config.cpp (parse_compare)",
          {
              typed_key("metrics", KeyType::names,
                        "The metrics: trimmed_error, trimmed_error_aligned, ks, acf, hurst, burstiness.")
                  .defaults("trimmed_error, ks, acf, hurst, burstiness"),
              number_key("trim", "The fraction cut from each end by the trimmed error.")
                  .at_least(0)
                  .below(0.5)
                  .defaults(o.trim)
                  .stated("0 <= trim < 0.5 (fraction cut from each end)"),
              whole_key("acf_lags", "L, the lags of the ACF distance.")
                  .between(1, 100000)
                  .defaults(static_cast<double>(o.acf_lags))
                  .stated("1 to 100000"),
              choice_key("hurst_estimator", "The estimator of H.", hurst_estimator_keys()).defaults(o.hurst_estimator),
              mapping_key("bootstrap", "compare.bootstrap", "The intervals of the figures."),
              choice_key("rank_by", "The metric that ranks the models (the matching degree).",
                         {"trimmed_error", "trimmed_error_aligned", "ks", "acf"})
                  .defaults("the first error metric listed"),
              whole_key("store_replicas", "Replicas kept in /ensembles/<name>/series; the rest are compared only.")
                  .or_words({"all"})
                  .defaults("all"),
          }};
}

MappingSpec compare_bootstrap_keys() {
  const BootstrapOptions o;
  return {"compare.bootstrap",
          "The bootstrap intervals of a study's figures.",
          "host/engine/config.cpp (parse_compare)",
          {
              whole_key("resamples", "Bootstrap resamples.")
                  .between(100, 1000000)
                  .defaults(o.resamples)
                  .stated("100 to 1000000"),
              number_key("confidence", "The intervals' confidence.")
                  .at_least(0.5)
                  .below(1)
                  .defaults(o.confidence)
                  .stated("0.5 <= confidence < 1"),
              choice_key("method", "The interval the tables show.", {"percentile", "bca"}).defaults("percentile"),
          }};
}

MappingSpec request_keys() {
  return {"requests[]",
          "A request-level synthesis: PIONEER's Algorithm 1 from a trace or from given characteristics.",
          "host/engine/requests_spec.cpp (parse_requests)",
          {
              text_key("name", "The synthesis' name, the group /requests/<name>.").need().stated(h5::kGroupNameRule),
              typed_key("trace", KeyType::paths, "The DXT or PIONEER trace(s), relative to the config.")
                  .defaults("required unless characteristics are given"),
              choice_key("format", "The trace format.", {"dxt", "pioneer"})
                  .defaults("told from the first trace (DXT text or a .darshan log)"),
              path_key("counters", "darshan-parser text of the job: its opens."),
              choice_key("time_unit", "pioneer: the unit of the times.", {"s", "ms", "us", "ns"}).defaults("s"),
              choice_key("delimiter", "pioneer: the field delimiter.", {"comma", "tab", "space"})
                  .defaults("spaces and tabs"),
              choice_key("mode", "sample: Algorithm 1's draws; template: the trace's own path.", {"sample", "template"})
                  .defaults("sample"),
              choice_key("draw", "How samples are drawn: per real file, or from the class's distributions.",
                         {"file", "class"})
                  .defaults("file; class with characteristics"),
              whole_key("processes", "The synthetic processes.")
                  .between(1, 10000000)
                  .defaults("the trace's ranks; 1 with characteristics")
                  .stated("1 to 10^7"),
              whole_key("replicas", "Synthetic workloads.").between(1, 1000000).defaults(1).stated("1 to 10^6"),
              whole_key("stream", "The Philox stream of the synthesis.")
                  .between(0, kLargestStream)
                  .defaults("the FNV-1a hash of \"requests/<name>\"")
                  .stated("0 to 4294967295"),
              mapping_key("timing", "requests[].timing", "When the requests start: a word, or an ensemble's counts.")
                  .or_words({"phases", "slack"})
                  .defaults("phases for a sample of a trace; slack otherwise"),
              mapping_key("overrides", "requests[].overrides",
                          "Each drawn value x of a characteristic becomes "
                          "scale·x + shift."),
              mapping_key("files", "requests[].files", "The files per class a sample draws (OS)."),
              mapping_key("characteristics", "requests[].characteristics",
                          "Table III given by hand per file class, instead of a trace."),
              mapping_key("emit", "requests[].emit", "The texts written of one replica."),
          }};
}

MappingSpec timing_keys() {
  return {"requests[].timing",
          "Timing by an ensemble's counts: each bin's count of requests start in that bin.",
          "host/engine/requests_spec.cpp (parse_timing)",
          {
              text_key("ensemble", "The ensemble whose counts time the requests.").need(),
              duration_key("bin", "The width of the ensemble's bins.").need().stated("1ns to 10^6 s (about 11.6 days)"),
          }};
}

const char* const kFileClasses[] = {"root_exclusive", "private", "shared"};

MappingSpec files_keys() {
  MappingSpec mapping{"requests[].files",
                      "The files per class a sample draws (not with mode: template).",
                      "host/engine/requests_spec.cpp (parse_files)",
                      {}};
  for (const char* name : kFileClasses)
    mapping.keys.push_back(
        whole_key(name, fmt::format("Files of the {} class.", name)).between(0, 10000000).stated("0 to 10^7"));
  return mapping;
}

MappingSpec characteristics_keys() {
  MappingSpec mapping{"requests[].characteristics",
                      "The characteristics of each file class given.",
                      "host/engine/requests_spec.cpp (parse_given_characteristics)",
                      {}};
  for (const char* name : kFileClasses)
    mapping.keys.push_back(
        mapping_key(name, "requests[].characteristics.<class>", fmt::format("Table III of the {} class.", name)));
  return mapping;
}

// The largest sample of a characteristic given by hand, in its unit, and the
// range as the errors state it: sequence IDs, counts and requests within the
// 10^8 IDs of a path, bytes below 2^62 (offset + size stays in range), times
// within 10^6 s (a synthetic time beyond 10^9 s is refused; host/requests/synthesize.hpp).
KeySpec sample_key(const CharacteristicInfo& info) {
  const std::string key = info.config_key();
  KeySpec spec = typed_key(key, KeyType::numbers, fmt::format("Samples: {}.", info.meaning)).in(info.units);
  if (key == "SEQ") return spec.between(0, 1).stated("numbers from 0 to 1");
  if (key == "FS" || key == "OFF" || key == "SIZE")
    return spec.between(0, kMaxRequestBytes).stated("bytes from 0 to 2^62");
  if (std::string(info.units) == "s") return spec.between(0, 1e6).stated("seconds from 0 to 10^6");
  return spec.between(0, 1e8).stated(key == "D"    ? "requests from 0 to 10^8"
                                     : key == "OT" ? "sessions from 0 to 10^8"
                                                   : "sequence IDs from 0 to 10^8");
}

MappingSpec class_characteristics_keys() {
  MappingSpec mapping{"requests[].characteristics.<class>",
                      "Table III of one file class: samples of each characteristic (docs/requests.md).",
                      "host/engine/requests_spec.cpp (parse_given_class)",
                      {whole_key("files", "The files of the class (OS).").need().between(1, 1e7).stated("1 to 10^7")}};
  for (const CharacteristicInfo& info : characteristic_table()) {
    if (info.id == Characteristic::OS) continue;
    if (info.samples)
      mapping.keys.push_back(sample_key(info));
    else
      mapping.keys.push_back(
          typed_key(info.short_name, KeyType::counts, fmt::format("{}: names and counts.", info.meaning))
              .defaults(info.id == Characteristic::RT1 ? "required" : "none"));
  }
  mapping.keys.push_back(
      whole_key("rank_stride", "shared: the offset between ranks' accesses of a file.").in("bytes").defaults(0));
  return mapping;
}

MappingSpec overrides_keys() {
  MappingSpec mapping{"requests[].overrides",
                      "A scale and a shift per characteristic.",
                      "host/engine/requests_spec.cpp (parse_overrides)",
                      {}};
  for (const CharacteristicInfo& info : characteristic_table())
    if (info.overridable)
      mapping.keys.push_back(mapping_key(info.short_name, "requests[].overrides.<characteristic>",
                                         fmt::format("{} ({}).", info.meaning, info.units)));
  return mapping;
}

MappingSpec override_keys() {
  return {"requests[].overrides.<characteristic>",
          "x becomes scale·x + shift, then rounded (counts, gaps, sizes) or clipped (SEQ to [0, 1]).",
          "host/engine/requests_spec.cpp (parse_overrides)",
          {
              number_key("scale", "The factor.").between(0, 1e6).defaults(1).stated("0 to 10^6"),
              number_key("shift", "The shift, in the characteristic's unit.")
                  .defaults(0)
                  .stated("-10^6 to 10^6 seconds for ST, -10^15 to 10^15 otherwise"),
          }};
}

MappingSpec emit_keys() {
  return {"requests[].emit",
          "The texts written of one replica, relative to the HDF5 output's folder.",
          "host/engine/requests_spec.cpp (parse_emit)",
          {
              path_key("fio", "A folder of fio job files and iologs (docs/requests.md)."),
              path_key("disksim", "A DiskSim ASCII trace."),
              path_key("dxt", "darshan-dxt-parser text."),
              whole_key("replica", "The replica written.").defaults(0).stated("0 to replicas - 1"),
          }};
}

MappingSpec bursts_keys() {
  const BurstAnalysisOptions a;
  return {"bursts[]",
          "A burst analysis: detection, prediction, scheduling (docs/bursts.md).",
          "host/engine/bursts_spec.cpp (parse_bursts)",
          {
              text_key("name", "The analysis' name, the group /bursts/<name>.").need().stated(h5::kGroupNameRule),
              text_key("dataset", "A binned dataset of the config.").defaults("none: give ensembles and bin"),
              text_key("operations", "The dataset's channel of operations.")
                  .defaults("the series' direction's count channel"),
              text_key("io_time", "The dataset's channel of I/O time (darshan).")
                  .defaults("the series' direction's time channel"),
              typed_key("ensembles", KeyType::names, "Ensembles analysed as the dataset is.")
                  .defaults("the study's <dataset>-<model>"),
              duration_key("bin", "The width of the bins.").defaults("the dataset's; required without one"),
              mapping_key("detection", "bursts[].detection", "Which bins are bursts.").defaults("{share: 0.01}"),
              choice_key("features", "The feature set.", {"fs1", "fs2", "fs3", "fs3-bytes"})
                  .defaults("fs3; fs3-bytes on a bytes series"),
              typed_key("horizons", KeyType::texts, "Prediction horizons, each a whole number of bins.")
                  .defaults("1 to scheduling.window bins"),
              choice_key("label", "A bin is labelled by a burst at the horizon, or within it.", {"at", "within"})
                  .defaults("at"),
              number_key("train_share", "The share of the bins that trains.")
                  .between(0.1, 0.95)
                  .defaults(a.prediction.train_share)
                  .stated("0.1 to 0.95"),
              number_key("validation_share", "The share of the training bins that validates.")
                  .between(0.05, 0.5)
                  .defaults(a.prediction.validation_share)
                  .stated("0.05 to 0.5"),
              typed_key("predictors", KeyType::names, "The predictors trained: logistic, xgboost.")
                  .defaults("logistic, xgboost"),
              flag_key("severity", "Also the multi-class severity prediction.")
                  .defaults(a.prediction.severity ? "true" : "false"),
              mapping_key("xgboost", "bursts[].xgboost", "The boosted trees' parameters."),
              mapping_key("bootstrap", "bursts[].bootstrap", "The intervals of the prediction scores."),
              mapping_key("scheduling", "bursts[].scheduling", "Algorithm 1's scheduling."),
              mapping_key("monte_carlo", "bursts[].monte_carlo", "The analysis on every replica of the ensembles."),
              mapping_key("augment", "bursts[].augment", "Replicas that join the real training bins."),
              whole_key("run_length_limit", "Run lengths counted: 1 to limit - 1 bins, the last at least the limit.")
                  .in("bins")
                  .between(1, 10000)
                  .defaults(static_cast<double>(a.run_length_limit))
                  .stated("1 to 10000"),
          }};
}

MappingSpec detection_keys() {
  return {"bursts[].detection",
          "The threshold mean + k·σ, or the one that makes a share of the bins bursts; not both.",
          "host/engine/bursts_spec.cpp (parse_detection)",
          {
              number_key("k", "Bins above mean + k·σ are bursts.").between(0, 100).stated("0 to 100"),
              number_key("share", "The share of the bins that are bursts.")
                  .above(0)
                  .below(0.5)
                  .defaults(BurstAnalysisOptions{}.share)
                  .stated("0 < share < 0.5"),
          }};
}

MappingSpec xgboost_keys() {
  const BoostedTreesOptions t;
  return {"bursts[].xgboost",
          "XGBoost's parameters.",
          "host/engine/bursts_spec.cpp (parse_xgboost)",
          {
              whole_key("rounds", "Boosting rounds.").between(1, 10000).defaults(t.rounds).stated("1 to 10000"),
              whole_key("max_depth", "The trees' depth.").between(1, 20).defaults(t.max_depth).stated("1 to 20"),
              number_key("learning_rate", "eta.").above(0).at_most(1).defaults(t.learning_rate).stated("0 < eta <= 1"),
              number_key("min_child_weight", "The smallest hessian sum of a leaf.")
                  .between(0, 1e6)
                  .defaults(t.min_child_weight)
                  .stated("0 to 10^6"),
              number_key("lambda", "The leaf weights' ridge.").between(0, 1e6).defaults(t.l2).stated("0 to 10^6"),
              whole_key("threads", "XGBoost's threads.").between(1, 1024).defaults(t.threads).stated("1 to 1024"),
          }};
}

MappingSpec prediction_bootstrap_keys() {
  const PredictionOptions p;
  return {"bursts[].bootstrap",
          "Block-bootstrap intervals of the prediction scores.",
          "host/engine/bursts_spec.cpp (parse_bootstrap)",
          {
              whole_key("resamples", "Resamples; 0: no intervals.")
                  .between(0, 100000)
                  .defaults(p.resamples)
                  .stated("0 to 100000"),
              number_key("confidence", "The intervals' confidence.")
                  .above(0)
                  .below(1)
                  .defaults(p.confidence)
                  .stated("0 < confidence < 1"),
              whole_key("block", "The block length; 0: the cube root of the scored rows.")
                  .in("bins")
                  .between(0, 1000000)
                  .defaults(static_cast<double>(p.block))
                  .stated("0 (automatic) to 10^6 bins"),
          }};
}

MappingSpec scheduling_keys() {
  const ScheduleOptions o;
  return {"bursts[].scheduling",
          "Algorithm 1: each window's checkpoint is delayed by the predicted bursts.",
          "host/engine/bursts_spec.cpp (parse_scheduling)",
          {
              duration_key("min_time", "The shortest delay.").defaults(fmt::format("{}s", o.min_time)),
              duration_key("max_time", "The longest delay.")
                  .defaults(fmt::format("{}s", o.max_time))
                  .stated("at least min_time"),
              whole_key("window", "The bins of a window.")
                  .in("bins")
                  .between(1, 10000)
                  .defaults(static_cast<double>(o.window))
                  .stated("1 to 10000 bins"),
              typed_key("alphas", KeyType::numbers, "The weights α of a burst's cost.")
                  .between(0, 1)
                  .defaults(fmt::format("{}", fmt::join(o.alphas, ", ")))
                  .stated("0 to 1"),
              flag_key("one_based", "Number the windows from 1."),
          }};
}

MappingSpec monte_carlo_keys() {
  const BurstsSpec b;
  return {"bursts[].monte_carlo",
          "The predictors scored on every replica, for figures with intervals.",
          "host/engine/bursts_spec.cpp (parse_monte_carlo)",
          {
              typed_key("predictors", KeyType::names, "The predictors: logistic, xgboost.").defaults("logistic"),
              flag_key("severity", "Also the severity prediction.").defaults(b.monte_carlo_severity ? "true" : "false"),
              whole_key("replicas", "The first N replicas of each ensemble.")
                  .between(1, kLargestStream)
                  .defaults("every stored replica")
                  .stated("1 to 4294967295 (leave it out for every stored replica)"),
          }};
}

MappingSpec augment_keys() {
  return {"bursts[].augment",
          "Replicas that join the real training bins (needs dataset).",
          "host/engine/bursts_spec.cpp (parse_augment)",
          {
              whole_key("replicas", "Replicas of each ensemble.").need().between(1, 10000).stated("1 to 10000"),
          }};
}

}  // namespace

const ConfigSchema& config_schema() {
  static const ConfigSchema schema({
      top_keys(),
      dataset_keys(),
      ensemble_keys(),
      workload_keys(),
      fitting_keys(),
      compare_keys(),
      compare_bootstrap_keys(),
      request_keys(),
      timing_keys(),
      overrides_keys(),
      override_keys(),
      files_keys(),
      characteristics_keys(),
      class_characteristics_keys(),
      emit_keys(),
      bursts_keys(),
      detection_keys(),
      xgboost_keys(),
      prediction_bootstrap_keys(),
      scheduling_keys(),
      monte_carlo_keys(),
      augment_keys(),
  });
  return schema;
}

}  // namespace gs
