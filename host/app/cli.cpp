#include "host/app/cli.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <CLI/CLI.hpp>
#include <algorithm>
#include <charconv>
#include <cstdint>
#include <cstdio>
#include <map>
#include <memory>
#include <new>
#include <string>
#include <vector>

#include "estimators/boosted_trees.hpp"
#include "host/app/characterize.hpp"
#include "host/app/completion.hpp"
#include "host/app/config_reference.hpp"
#include "host/app/fft_wisdom.hpp"
#include "host/app/fit.hpp"
#include "host/app/models.hpp"
#include "host/app/report.hpp"
#include "host/app/run.hpp"
#include "host/app/stats.hpp"
#include "host/base/errors.hpp"
#include "host/base/interrupt.hpp"
#include "host/base/ranks.hpp"
#include "host/engine/plan.hpp"
#include "host/models/model.hpp"
#include "io/darshan_log.hpp"
#include "io/hdf5_library.hpp"
#include "io/series_source.hpp"
#include "version.hpp"

namespace gs {

namespace {

const std::vector<std::string> kCommands = {"run",    "stats",  "fit",    "norros",     "report",        "characterize",
                                            "bursts", "replay", "models", "fft-wisdom", "config-schema", "completion"};

// The options that say how to read and bin a trace (stats and fit).
struct TraceArguments {
  std::string format, time_unit, delimiter, blk_event = "Q", spread, align, trace_list;
};

void add_trace_options(CLI::App* app, SeriesSource& o, TraceArguments& a) {
  app->add_option("trace", o.traces, "trace file(s), gzip or plain; several are merged");
  app->add_option("--trace-list", a.trace_list,
                  "a file naming trace files, one per line ('#' comments; relative to the list's folder): "
                  "thousands of darshan logs");
  app->add_option("--format", a.format,
                  fmt::format("{} (docs/traces.md; default: told from the first trace's first lines where they leave "
                              "no doubt: darshan-dxt-parser, darshan-parser, ftrace blk text)",
                              fmt::join(trace_format_names(), ", ")));
  app->add_option("--bin", o.bin, "bin width: 1s, 250ms, 10us, 5min, … (all formats but series and values)");
  app->add_option("--column", o.trace.time_column,
                  "timestamps/series: the time column, 1-based or a header name (series: row, the row index)");
  app->add_option("--value-column", o.trace.value_column, "series (default 2) / counts (default 1): the value column");
  app->add_option("--op-column", o.trace.op_column, "timestamps: the operation column (read/write)");
  app->add_option("--size-column", o.trace.size_column, "timestamps: the request size column, in bytes");
  app->add_option("--read-values", o.trace.read_values, "values of --op-column meaning read (default r,read,rd)")
      ->delimiter(',');
  app->add_option("--write-values", o.trace.write_values, "values meaning write (default w,write,wr)")->delimiter(',');
  app->add_flag("--header", o.trace.header, "the first line names the columns");
  app->add_option("--delimiter", a.delimiter, "comma, tab or space (default: detected from the first line)")
      ->check(CLI::IsMember({"comma", "tab", "space"}));
  app->add_option("--time-unit", a.time_unit, "s, ms, us, ns or iso8601 (default s; disksim: ms)");
  app->add_option("--modules", o.trace.modules, "darshan/dxt modules (default POSIX,STDIO): POSIX, MPI-IO, STDIO")
      ->delimiter(',');
  app->add_option("--blk-event", a.blk_event, "blkparse: Q (queued, default) or D (issued to the driver)")
      ->check(CLI::IsMember({"Q", "D"}));
  app->add_option("--spread", a.spread,
                  "darshan: a record's amounts over the bins it covers: overlap (by time, default) or equal (an "
                  "equal share to each, the burst paper's)")
      ->check(CLI::IsMember({"overlap", "equal"}));
  app->add_option("--align", a.align,
                  "darshan: bins from the first log's start (start, default) or at multiples of the bin width in "
                  "Unix time (epoch: calendar bins)")
      ->check(CLI::IsMember({"start", "epoch"}));
  app->add_flag("--sort", o.trace.sort, "accept events out of time order by sorting them (reported)");
  app->add_flag("--skip-bad-lines", o.trace.skip_bad_lines, "count and report malformed lines instead of stopping");
  app->add_option("--series", o.channel,
                  "channel analysed: count, count_read, count_write, bytes, bytes_read, bytes_write (darshan also time, "
                  "time_read, time_write: seconds spent in I/O) "
                  "(default count; darshan: bytes)");
}

// --format, or the format the first trace's first lines name without doubt; a
// darshan-dxt-parser text given as darshan gets a hint (darshan reads counters). A binary
// log given as darshan does not: it holds the counters too, and they are what was asked for.
std::string trace_format_of(const TraceArguments& a, const std::vector<std::string>& traces) {
  if (!a.format.empty() && a.format != "darshan") return a.format;
  std::optional<std::string> seen;
  try {
    seen = detect_trace_format(traces.front());
  } catch (const UserError&) {
    if (a.format.empty()) throw;  // unreadable: the reader says why when a format is given
  }
  if (a.format.empty()) {
    if (!seen)
      throw UserError(
          fmt::format("--format is required: the first lines of '{}' do not tell its format; accepted: {} "
                      "(docs/traces.md)",
                      traces.front(), fmt::join(trace_format_names(), ", ")));
    std::fprintf(stderr, "format: %s (told from the first lines of %s; --format overrides)\n", seen->c_str(),
                 traces.front().c_str());
    return *seen;
  }
  if (a.format == "darshan" && seen == std::string("dxt") && !is_darshan_log(traces.front()))
    std::fprintf(stderr,
                 "hint: '%s' holds DXT records (darshan-dxt-parser text): --format dxt reads its requests; "
                 "--format darshan reads only darshan-parser counters\n",
                 traces.front().c_str());
  return a.format;
}

void apply_trace_arguments(const TraceArguments& a, SeriesSource& o) {
  if (!a.format.empty()) trace_format(a.format);  // an unknown name is said first
  o.trace_list = a.trace_list;
  if (!a.trace_list.empty()) append_trace_list(a.trace_list, o.traces);
  if (o.traces.empty()) throw UserError("no trace: give trace files, or --trace-list FILE");
  o.trace.format = trace_format(trace_format_of(a, o.traces)).name;
  if (!a.time_unit.empty()) o.trace.time_unit = parse_time_unit(a.time_unit);
  if (!a.delimiter.empty()) o.trace.delimiter = a.delimiter == "comma" ? ',' : a.delimiter == "tab" ? '\t' : ' ';
  o.trace.blk_action = a.blk_event[0];
  if (!a.spread.empty()) o.trace.spread = parse_spread(a.spread);
  if (!a.align.empty()) o.trace.align = parse_align(a.align);
}

// CLI11 would convert "-5" to 2^64 - 5: whole numbers are checked as written
// (decimal digits only) before conversion.
CLI::Validator whole_number(std::uint64_t min, std::uint64_t max) {
  return CLI::Validator(
      [min, max](std::string& text) -> std::string {
        std::uint64_t value = 0;
        const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
        if (error == std::errc() && end == text.data() + text.size() && value >= min && value <= max) return "";
        return fmt::format("'{}' is not accepted; accepted: a whole number from {} to {}", text, min, max);
      },
      fmt::format("UINT in [{}, {}]", min, max));
}

// What this binary was built with (`--version`; tests ask it whether MPI is there).
std::string build_features() {
#ifdef GPUSYNTH_HAVE_CUDA
  const char* cuda = "CUDA";
#else
  const char* cuda = "no CUDA";
#endif
  const std::string mpi = mpi_library_version().empty() ? "no MPI" : "MPI (" + mpi_library_version() + ")";
  return fmt::format("{}, {}, {}", cuda, mpi, boosted_trees_available() ? "XGBoost" : "no XGBoost");
}

// CLI11 2.1 prints one generic usage line; the top level names both forms.
class TopLevelFormatter : public CLI::Formatter {
 public:
  std::string make_usage(const CLI::App*, std::string) const override {
    return "Usage: gpusynth CONFIG.yaml [options]   (the same as: gpusynth run CONFIG.yaml [options])\n"
           "       gpusynth COMMAND [options]       (gpusynth COMMAND --help gives its options)\n";
  }
};

// `gpusynth CONFIG.yaml ...` → `gpusynth run CONFIG.yaml ...`.
std::vector<std::string> normalised_arguments(int argc, char** argv) {
  std::vector<std::string> args(argv + 1, argv + argc);
  if (!args.empty() && !args[0].empty() && args[0][0] != '-') {
    bool is_command = false;
    for (const auto& command : kCommands) is_command = is_command || args[0] == command;
    if (!is_command) args.insert(args.begin(), "run");
  }
  return args;
}

std::string joined(int argc, char** argv) {
  std::string line;
  for (int i = 0; i < argc; ++i) {
    if (i) line += ' ';
    line += argv[i];
  }
  return line;
}

// A subcommand: its options, declared on the app when it is made, and what it does once CLI11 parsed it.
class Command {
 public:
  explicit Command(CLI::App* app) : app_(app) {}
  virtual ~Command() = default;
  virtual bool parsed() const { return app_->parsed(); }
  virtual int run() = 0;

 protected:
  CLI::App* app_;
};

// run, bursts and replay: a config run, with the same options (one of them is parsed).
class RunCommands final : public Command {
 public:
  RunCommands(CLI::App& app, const std::string& version, const std::string& command_line)
      : Command(app.add_subcommand("run", "generate the ensembles of CONFIG and write them to one HDF5 file")) {
    options_.command_line = command_line;
    add_run_options(app_, version);
    app_->add_flag("--no-output", options_.no_output,
                   "generate every batch and discard it: timing without the HDF5 write");
    bursts_ = app.add_subcommand(
        "bursts",
        "run CONFIG and its bursts: section: burst detection, prediction 5-120 min ahead and burst-aware "
        "scheduling on the real series and on every replica of its fitted models (docs/bursts.md)");
    add_run_options(bursts_, version);
    replay_ = app.add_subcommand(
        "replay",
        "run CONFIG, then replay its requests: with fio in --target DIR: the trace's own requests twice and every "
        "synthetic replica once, and compare them (throughput band coverage, replay error, KS with the noise floor) "
        "into /replay of the output (docs/requests.md)");
    add_run_options(replay_, version);
    add_replay_options();
    std::string models = "\nModels (key `model:` of each ensemble; parameters in docs/models.md):\n";
    for (const ModelTraits* traits : registered_models())
      models += fmt::format("  {:<8} {}\n", traits->name, traits->summary);
    app_->footer(models);
  }
  bool parsed() const override { return app_->parsed() || bursts_->parsed() || replay_->parsed(); }
  int run() override {
    options_.bursts_required = bursts_->parsed();
    if (replay_->parsed()) {
      if (replay_->count("--bin") > 0) replay_options_.bin_seconds = parse_duration(replay_bin_, "--bin");
      if (replay_->count("--clients") > 0 && replay_options_.clients.empty())
        throw UserError("--clients must not be empty: give a file of fio servers, HOST or HOST,PORT a line");
      options_.replay = replay_options_;
    }
    if (!backend_.empty()) options_.backend = parse_backend_choice(backend_);
    if (!precision_.empty()) options_.precision = parse_math_precision(precision_);
    if (!memory_limit_.empty()) options_.memory_limit = parse_memory_size(memory_limit_);
    if (!fft_wisdom_.empty()) options_.fft_wisdom = fft_wisdom_;
    return run_command(options_);
  }

 private:
  void add_run_options(CLI::App* command, const std::string& version) {
    command->add_option("config", options_.config_path, "ensemble.yaml (schema v1, docs/config.md)")->required();
    command
        ->add_option("--backend", backend_,
                     "auto (the GPU when present for the models it generates faster, the host's threads for "
                     "the others: docs/engine.md), cpu or cuda; overrides the config")
        ->check(CLI::IsMember({"auto", "cpu", "cuda"}));
    command
        ->add_option("--precision", precision_,
                     "accurate (default) or fast: 3.5-ulp functions on the CPU's lanes, hardware "
                     "approximations for float32 on the GPU (docs/engine.md); overrides the config")
        ->check(CLI::IsMember({"accurate", "fast"}));
    command->add_option("-o,--output", options_.output, "output HDF5 path; overrides the config");
    command->add_option("--fft-wisdom", fft_wisdom_,
                        "FFTW wisdom made by `gpusynth fft-wisdom`: the host's FFTs take its measured plans, the same "
                        "in every run that loads it (docs/engine.md); overrides the config");
    command->add_option("--seed", options_.seed, "64-bit seed; overrides the config")
        ->check(whole_number(0, UINT64_MAX));
    command->add_option("--replicas", options_.replicas, "replicas of every ensemble; overrides the config")
        ->check(whole_number(1, 4294967295));
    command->add_option("--memory-limit", memory_limit_,
                        "memory budget for batches, e.g. 2GiB (default: a quarter of "
                        "the available RAM up to 4 GiB, or the GPU's free memory)");
    command->add_flag("--dry-run", options_.dry_run,
                      "print the plan (ensembles, replicas, bytes, batches) and write nothing");
    command->add_flag("-q,--quiet", options_.quiet, "no progress and no log lines");
    command->add_flag("--json", options_.json,
                      "print what the run did (ensembles; the study's medians, intervals and degrees; bursts; "
                      "replays) as one JSON object instead of the tables");
    command->set_version_flag("--version", version);
  }
  void add_replay_options() {
    replay_
        ->add_option("--target", replay_options_.target,
                     "a directory on the file system under test: each replay's files are made there and removed after")
        ->required();
    replay_->add_option("--fio", replay_options_.fio, "the fio to run (default: fio on PATH)");
    replay_
        ->add_option("--fio-option", replay_options_.fio_options,
                     "passed to fio for every replay, e.g. --fio-option=--fsync_on_close=1 (repeatable)")
        ->allow_extra_args(false);
    replay_
        ->add_option("--synthetic-fio-option", replay_options_.synthetic_fio_options,
                     "passed to fio for the replicas only, e.g. --synthetic-fio-option=--replay_no_stall=1 (a "
                     "baseline without the synthesized timing) (repeatable)")
        ->allow_extra_args(false);
    replay_->add_option("--bin", replay_bin_,
                        "bin width of the figures over time, e.g. 50ms (default: the entry's timing bins, else 100ms)");
    replay_
        ->add_option("--original-replays", replay_options_.original_replays,
                     "replays of the original: 2 (default; the second measures the system's own noise) or 1")
        ->check(whole_number(1, 2));
    replay_
        ->add_option("--entry", replay_options_.entries, "the requests: entries to replay (repeatable; default: all)")
        ->allow_extra_args(false);
    replay_->add_option("--clients", replay_options_.clients,
                        "a file of fio servers (`fio --server` on each node), HOST or HOST,PORT a line: each replay's "
                        "processes split over them in contiguous blocks, one fio client driving them all; --target "
                        "must be at the same path on every server (a shared file system)");
  }

  RunOptions options_;
  ReplayOptions replay_options_;
  std::string backend_, precision_, memory_limit_, fft_wisdom_, replay_bin_;
  CLI::App* bursts_ = nullptr;
  CLI::App* replay_ = nullptr;
};

// stats: a real trace binned, and its statistics.
class StatsCommand final : public Command {
 public:
  StatsCommand(CLI::App& app, const std::string& command_line)
      : Command(app.add_subcommand("stats",
                                   "read a real trace, bin it and print its statistics (Hurst, ACF, burstiness)")) {
    options_.command_line = command_line;
    add_trace_options(app_, options_.source, trace_);
    app_->add_option("--max-lag", options_.max_lag, "ACF lags (default 100)")->check(whole_number(1, 100000000));
    app_->add_option("-o,--output", options_.output, "write the series and statistics to this HDF5 file");
    app_->add_option("--name", options_.source.name, "dataset name under /datasets (default: the trace's file name)");
    app_->add_flag("--json", options_.json, "print the summary as one JSON object");
  }
  int run() override {
    apply_trace_arguments(trace_, options_.source);
    return stats_command(options_);
  }

 private:
  StatsOptions options_;
  TraceArguments trace_;
};

// fit: the models fitted to a real trace, and a runnable config.
class FitCommand final : public Command {
 public:
  explicit FitCommand(CLI::App& app)
      : Command(app.add_subcommand(
            "fit", "fit the models to a real trace, print estimates ± SE and write a runnable ensemble.yaml")) {
    add_trace_options(app_, options_.source, trace_);
    app_->add_option("--models", models_,
                     fmt::format("comma-separated: {} (default {})", fmt::join(fittable_model_names(), ", "),
                                 fmt::join(default_fit_models(), ",")));
    app_->add_option("-o,--output", options_.output, "the ensemble.yaml to write (runnable by `gpusynth FILE`)");
    app_->add_option("--ensemble-output", options_.ensemble_output,
                     "the HDF5 path that config writes (default: beside it, FILE.h5)");
    app_->add_option("--name", options_.source.name, "dataset name (default: the trace's file name)");
    app_->add_option("--replicas", options_.replicas, "replicas of each fitted ensemble (default 100)")
        ->check(whole_number(1, 4294967295));
    app_->add_flag("--json", options_.json,
                   "print the fits (validity, estimates and SEs, params) as one JSON object instead of the table");
    app_->add_option("--seed", options_.seed, "seed of the bootstrap and the EM starts; written to the config")
        ->check(whole_number(0, UINT64_MAX));
    // The fit adapters' options, as the models declare them (`fitting:` keys of a config).
    for (const FitOptionSpec* option : fit_option_specs()) {
      std::string flag = "--" + option->name;
      std::replace(flag.begin(), flag.end(), '_', '-');
      CLI::Option* added = app_->add_option(flag, settings_[option->name], option->help);
      if (!option->choices.empty())
        added->check(CLI::IsMember(option->choices));
      else
        added->check(CLI::Range(option->min, option->max));
    }
  }
  int run() override {
    apply_trace_arguments(trace_, options_.source);
    for (const auto& [name, value] : settings_)
      if (!value.empty()) options_.settings.set(name, value, "--" + name);
    if (!models_.empty()) {
      options_.models.clear();
      std::size_t at = 0;
      while (at <= models_.size()) {
        const std::size_t comma = std::min(models_.find(',', at), models_.size());
        options_.models.push_back(models_.substr(at, comma - at));
        at = comma + 1;
      }
    }
    return fit_command(options_);
  }

 private:
  FitOptions options_;
  TraceArguments trace_;
  std::string models_;
  std::map<std::string, std::string> settings_;  // the fit adapters' options, by their `fitting:` key
};

// norros: Norros' effective bandwidth.
class NorrosCommand final : public Command {
 public:
  explicit NorrosCommand(CLI::App& app)
      : Command(
            app.add_subcommand("norros",
                               "Norros' (1995) effective bandwidth and the arrival rate it admits (eqs. (3)-(5) of the "
                               "self-similarity paper)")) {
    app_->add_option("-a", options_.a, "variance coefficient a > 0")->required();
    app_->add_option("-H,--hurst", options_.H, "Hurst exponent, 0 < H < 1, H != 0.5")->required();
    app_->add_option("--epsilon", options_.epsilon, "miss probability, 0 < epsilon < 1 (default 1e-3)");
    app_->add_option("-b", options_.b, "outstanding streams per device (buffer), > 0 (default 1)");
    app_->add_option("--lambda", options_.lambda, "also print C at this arrival rate");
  }
  int run() override { return norros_command(options_); }

 private:
  NorrosOptions options_;
};

// The request format the first lines or records of `trace` tell without doubt (a .darshan log with DXT
// records, DXT text: dxt), said on stderr; else the error that --format is required.
std::string request_format_of(const std::string& trace) {
  const std::optional<std::string> seen = detect_trace_format(trace);
  if (!seen || (*seen != "dxt" && *seen != "pioneer"))
    throw UserError(
        fmt::format("--format is required: the first lines of '{}' do not tell a request trace's "
                    "format{}; accepted: dxt, pioneer (docs/requests.md)",
                    trace, seen ? fmt::format(" (they read as {}, a series format)", *seen) : ""));
  std::fprintf(stderr, "format: %s (told from the first lines of %s; --format overrides)\n", seen->c_str(),
               trace.c_str());
  return *seen;
}

// characterize: PIONEER's characteristics of a request trace.
class CharacterizeCommand final : public Command {
 public:
  CharacterizeCommand(CLI::App& app, const std::string& command_line)
      : Command(app.add_subcommand(
            "characterize", "PIONEER's request-level characteristics of a DXT or PIONEER trace (docs/requests.md)")) {
    options_.command_line = command_line;
    app_->add_option("trace", options_.traces, "trace file(s), gzip or plain")->required();
    app_->add_option("--format", options_.format,
                     "dxt or pioneer (default: what the first trace's first lines or records tell)")
        ->check(CLI::IsMember({"dxt", "pioneer"}));
    app_->add_option("--counters", options_.counters,
                     "darshan-parser text of the same job: its open counts place the sessions DXT lacks");
    app_->add_option("-o,--output", options_.output,
                     "write the characteristics, the rank classes' generic paths and the sanitized requests "
                     "(HDF5)");
    app_->add_option("--delimiter", delimiter_, "pioneer: tab or comma (default: spaces and tabs)")
        ->check(CLI::IsMember({"comma", "tab", "space"}));
    app_->add_option("--time-unit", unit_, "pioneer: s, ms, us or ns (default s)");
    app_->add_flag("--skip-bad-lines", options_.trace.skip_bad_lines,
                   "count and report malformed lines instead of stopping");
  }
  int run() override {
    if (!unit_.empty()) options_.trace.time_unit = parse_time_unit(unit_);
    if (!delimiter_.empty()) options_.trace.delimiter = delimiter_ == "comma" ? ',' : delimiter_ == "tab" ? '\t' : ' ';
    if (options_.format.empty()) options_.format = request_format_of(options_.traces.front());
    return characterize_command(options_);
  }

 private:
  CharacterizeOptions options_;
  std::string delimiter_, unit_;
};

// report: a results file drawn as one page.
class ReportCommand final : public Command {
 public:
  explicit ReportCommand(CLI::App& app)
      : Command(app.add_subcommand(
            "report",
            "draw a results file as one self-contained page: DIR/index.html (figures embedded), DIR/report.md and "
            "every "
            "figure as PNG, SVG and PDF; provenance, datasets and fitted models, then each study (/compare), request "
            "synthesis (/requests), replay (/replay), burst analysis (/bursts) and the ensembles no study compares "
            "(/ensembles: a plain run's sample paths); scripts/report.py under /usr/bin/python3 (matplotlib, h5py)")) {
    app_->add_option("results", options_.results,
                     "an HDF5 file gpusynth wrote: any run (its /ensembles), a study, requests, replays or bursts")
        ->required();
    app_->add_option("-o,--output", options_.output,
                     "the report directory: a new path, an empty directory or a report gpusynth wrote (replaced "
                     "whole when the new one is complete)")
        ->required();
    app_->add_flag("-q,--quiet", options_.quiet, "no progress lines (one per section on stderr)");
  }
  int run() override { return report_command(options_); }

 private:
  ReportOptions options_;
};

// fft-wisdom: FFTW's measured plans of a config's host FFTs.
class FftWisdomCommand final : public Command {
 public:
  explicit FftWisdomCommand(CLI::App& app)
      : Command(app.add_subcommand(
            "fft-wisdom",
            "measure FFTW's plans of the host FFTs that CONFIG's spectral ensembles run and keep them as FFTW wisdom "
            "in "
            "FILE (added to what it holds); runs that load FILE take these faster plans, the same in every run")) {
    app_->add_option("config", options_.run.config_path, "ensemble.yaml (schema v1, docs/config.md)")->required();
    app_->add_option("-o,--output", options_.output,
                     "the wisdom file, written when complete (default: the config's fft_wisdom:)");
    app_->add_flag("--patient", options_.patient,
                   "FFTW_PATIENT instead of FFTW_MEASURE: minutes for a million points, sometimes faster plans");
    app_->add_flag("-q,--quiet", options_.run.quiet, "no table and no log lines");
  }
  int run() override { return fft_wisdom_command(options_); }

 private:
  FftWisdomOptions options_;
};

// models: the models and their parameters.
class ModelsCommand final : public Command {
 public:
  explicit ModelsCommand(CLI::App& app)
      : Command(app.add_subcommand("models",
                                   "list the models and their parameters (key, default, accepted range, meaning)")) {
    app_->add_option("name", options_.names, "the models to show (default: all)");
    app_->add_flag("--markdown", options_.markdown, "print Markdown tables (docs/models.md)");
  }
  int run() override { return models_command(options_); }

 private:
  ModelsOptions options_;
};

// config-schema: the config's keys as JSON Schema, the Markdown reference or the fuzz dictionary.
class ConfigSchemaCommand final : public Command {
 public:
  explicit ConfigSchemaCommand(CLI::App& app)
      : Command(app.add_subcommand("config-schema",
                                   "print every key of the config (type, unit, range, default, meaning) as a JSON "
                                   "Schema for editors, or as docs/config-keys.md or fuzz/config.dict")) {
    app_->add_option("--format", options_.format,
                     "json (JSON Schema, draft 2020-12), markdown (docs/config-keys.md) or dict (fuzz/config.dict)")
        ->check(CLI::IsMember({"json", "markdown", "dict"}))
        ->default_str("json");
  }
  int run() override { return config_schema_command(options_); }

 private:
  ConfigSchemaOptions options_;
};

// completion: a bash completion script of `app`'s commands and options.
class CompletionCommand final : public Command {
 public:
  explicit CompletionCommand(CLI::App& app)
      : Command(app.add_subcommand(
            "completion",
            "print a bash completion script for gpusynth: `source <(gpusynth completion bash)`, or let "
            "`cmake --install` put it into share/bash-completion/completions")),
        top_(app) {
    app_->add_option("shell", shell_, "bash (the one shell whose script gpusynth writes)")
        ->required()
        ->check(CLI::IsMember({"bash"}));
  }
  int run() override {
    std::fputs(bash_completion(top_).c_str(), stdout);
    return kExitOk;
  }

 private:
  const CLI::App& top_;
  std::string shell_;
};

int parse_and_run(int argc, char** argv) {
  CLI::App app{"gpusynth: GPU-accelerated synthesis of bursty, heavy-tailed, self-similar parallel I/O workloads.",
               "gpusynth"};
  const std::string version = fmt::format("gpusynth {} ({}), stream version {}\nbuilt with: {}", kVersion, kGitRevision,
                                          kStreamVersion, build_features());
  app.set_version_flag("--version", version);
  app.require_subcommand(1);

  const std::string command_line = joined(argc, argv);
  std::vector<std::unique_ptr<Command>> commands;  // in the order --help lists them
  commands.push_back(std::make_unique<RunCommands>(app, version, command_line));
  commands.push_back(std::make_unique<StatsCommand>(app, command_line));
  commands.push_back(std::make_unique<FitCommand>(app));
  commands.push_back(std::make_unique<NorrosCommand>(app));
  commands.push_back(std::make_unique<CharacterizeCommand>(app, command_line));
  commands.push_back(std::make_unique<ReportCommand>(app));
  commands.push_back(std::make_unique<FftWisdomCommand>(app));
  commands.push_back(std::make_unique<ModelsCommand>(app));
  commands.push_back(std::make_unique<ConfigSchemaCommand>(app));
  commands.push_back(std::make_unique<CompletionCommand>(app));
  app.formatter(std::make_shared<TopLevelFormatter>());  // after the commands: they keep CLI11's own
  if (argc < 2) {                                        // plain `gpusynth`
    std::fprintf(stderr,
                 "gpusynth: give a config or a command:\n"
                 "  gpusynth CONFIG.yaml [options]   generate what the config describes (gpusynth run --help)\n"
                 "  gpusynth COMMAND [options]       one of: %s (gpusynth --help says what each does)\n",
                 fmt::format("{}", fmt::join(kCommands, ", ")).c_str());
    return kExitUser;
  }
  std::vector<std::string> args = normalised_arguments(argc, argv);
  std::reverse(args.begin(), args.end());  // CLI11 takes the arguments reversed
  try {
    app.parse(args);
  } catch (const CLI::ParseError& e) {
    const int code = app.exit(e);
    return code == 0 ? kExitOk : kExitUser;
  }
  for (const auto& command : commands)
    if (command->parsed()) return command->run();
  throw InternalError("parse_and_run", "CLI11 parsed no subcommand", __FILE__, __LINE__);
}

}  // namespace

int main_cli(int argc, char** argv) {
  h5::skip_library_cleanup_at_exit();  // a failed write's abandoned file is not flushed again at exit
  h5::quiet_library_errors();
  InterruptGuard interrupts;  // SIGINT/SIGTERM end every command cleanly, with nothing written
  // Under several ranks, the same config errors on every rank: rank 0 reports
  // them. A rank's own failure once the job has begun ends every rank, naming
  // the rank (host/base/ranks.hpp).
  const auto fail = [](const char* kind, const std::string& message, int code) {
    if (failure_ends_job()) abort_job(code, kind + message);
    if (is_root_rank()) std::fprintf(stderr, "gpusynth: %s%s\n", kind, message.c_str());
    return code;
  };
  try {
    return parse_and_run(argc, argv);
  } catch (const Interrupted& interrupted) {
    if (failure_ends_job())
      abort_job(kExitInterrupted, fmt::format("interrupted by signal {}: nothing was written", interrupted.signal));
    if (is_root_rank())
      std::fprintf(stderr, "\ngpusynth: interrupted by signal %d: nothing was written\n", interrupted.signal);
    return kExitInterrupted;
  } catch (const UserError& e) {
    return fail("error: ", e.what(), kExitUser);
  } catch (const InternalError& e) {
    return fail("internal error: ", e.what(), kExitInternal);
  } catch (const std::bad_alloc&) {
    return fail("internal error: ", "out of memory; lower --memory-limit", kExitInternal);
  } catch (const std::exception& e) {
    return fail("internal error: ", e.what(), kExitInternal);
  }
}

}  // namespace gs
