// ensemble.yaml parsing: every user mistake is a UserError naming the file,
// line, column and key with the accepted range; defaults are filled in.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include "host/base/errors.hpp"
#include "host/base/progress.hpp"
#include "host/engine/config.hpp"
#include "host/engine/plan.hpp"
#include "host/engine/run.hpp"
#include "kernels/philox.hpp"

namespace gs {
namespace {

const char* kValid = R"(seed: 7
backend: cpu
output: out.h5
ensembles:
  - name: a
    model: stable
    params: {alpha: 1.5}
    replicas: 4
    length: 10
  - name: b.2
    model: lfsn
    params: {alpha: 1.2, H: 0.7}
    workload: {v: 2, delta: 3, values: counts}
    replicas: 3
    length: 20
    dtype: float64
)";

// Expects a UserError whose message contains every piece.
void expect_user_error(const std::string& yaml, const std::vector<std::string>& pieces) {
  try {
    parse_config(yaml, "test.yaml");
    ADD_FAILURE() << "no error for:\n" << yaml;
  } catch (const UserError& e) {
    for (const auto& piece : pieces)
      EXPECT_NE(std::string(e.what()).find(piece), std::string::npos)
          << "message: " << e.what() << "\nlacks: " << piece;
  }
}

std::string with_params(const std::string& model, const std::string& params) {
  return "output: o.h5\nensembles:\n  - name: x\n    model: " + model + "\n    params: {" + params +
         "}\n    replicas: 2\n    length: 8\n";
}

// A value of an ensemble's model description.
AttributeValue described(const EnsembleSpec& spec, const std::string& name) {
  for (const Attribute& a : spec.model->describe())
    if (a.name == name) return a.value;
  ADD_FAILURE() << "no attribute " << name;
  return std::string();
}

TEST(Config, ValidFileWithDefaults) {
  const RunConfig config = parse_config(kValid, "test.yaml");
  EXPECT_EQ(config.seed, 7u);
  EXPECT_EQ(config.backend, BackendChoice::cpu);
  EXPECT_EQ(config.precision, MathPrecision::accurate);
  EXPECT_EQ(config.compression, 1);
  ASSERT_EQ(config.ensembles.size(), 2u);
  const auto& a = config.ensembles[0];
  EXPECT_EQ(a.model->name(), "stable");
  EXPECT_EQ(described(a, "beta"), AttributeValue(0.0));
  EXPECT_EQ(described(a, "sigma"), AttributeValue(1.0));
  EXPECT_EQ(described(a, "mu"), AttributeValue(0.0));
  EXPECT_EQ(described(a, "parameterization"), AttributeValue(std::string("S1")));
  EXPECT_EQ(a.workload.v, 1.0);
  EXPECT_EQ(a.workload.delta, 0.0);
  EXPECT_EQ(a.values, ValueKind::real);
  EXPECT_EQ(a.dtype, Dtype::float32);
  EXPECT_EQ(a.stream, stream_of_name("a"));
  EXPECT_EQ(a.line, 5);
  const auto& b = config.ensembles[1];
  EXPECT_EQ(b.model->name(), "lfsn");
  EXPECT_EQ(described(b, "m"), AttributeValue(std::int64_t{16}));
  EXPECT_EQ(described(b, "K"), AttributeValue(std::int64_t{256}));
  EXPECT_EQ(described(b, "beta"), AttributeValue(0.0));
  EXPECT_EQ(b.values, ValueKind::counts);
  EXPECT_EQ(b.dtype, Dtype::float64);
  EXPECT_EQ(b.workload.v, 2.0);
}

TEST(Config, DefaultSeedWhenAbsent) {
  const RunConfig config = parse_config(with_params("stable", "alpha: 1"), "t.yaml");
  EXPECT_EQ(config.seed, kDefaultSeed);
}

TEST(Config, StreamIsFnv1aOfTheName) {
  EXPECT_EQ(stream_of_name(""), 0x811c9dc5u);   // FNV-1a offset basis
  EXPECT_EQ(stream_of_name("a"), 0xe40c292cu);  // published test vector
  EXPECT_EQ(stream_of_name("foobar"), 0xbf9cf968u);
}

TEST(Config, UnknownKeysNameFileLineAndKey) {
  expect_user_error("outptu: x.h5\n", {"test.yaml:1:1:", "unknown key 'outptu'"});
  expect_user_error(std::string(kValid) + "extra: 1\n", {"test.yaml:17:1:", "unknown key 'extra'"});
  expect_user_error(with_params("stable", "alpha: 1.5, gamma: 2"),
                    {"test.yaml:5:", "unknown key 'gamma'", "ensembles[0] (x).params",
                     "accepted keys: alpha, beta, sigma, mu, parameterization"});
}

TEST(Config, WrongTypesAndMissingKeys) {
  expect_user_error(
      "output: o.h5\nensembles:\n  - name: x\n    model: stable\n    params: {alpha: 1}\n"
      "    replicas: many\n    length: 8\n",
      {"test.yaml:6:15:", "ensembles[0] (x).replicas must be a non-negative whole number", "'many'"});
  expect_user_error(with_params("stable", "alpha: [1, 2]"), {"params.alpha must be a number"});
  expect_user_error(with_params("stable", "beta: 0.1"), {"missing the required key 'alpha'"});
  expect_user_error("output: o.h5\nensembles:\n  - name: x\n    params: {alpha: 1}\n    replicas: 2\n    length: 8\n",
                    {"test.yaml:3:5:", "missing the required key 'model'", "one of farima, fbm, fgn"});
  EXPECT_TRUE(
      parse_config("ensembles:\n  - {name: x, model: stable, params: {alpha: 1}, replicas: 2, length: 8}\n", "t.yaml")
          .output.empty());
  expect_user_error("output: ''\nensembles: []\n", {"test.yaml:1:", "output must not be empty"});
  expect_user_error("output: o.h5\nensembles: []\n", {"at least one ensemble"});
  expect_user_error("output: o.h5\nensembles: {a: 1}\n", {"test.yaml:2:12:", "ensembles must be a list"});
  expect_user_error("", {"the file is empty"});
  expect_user_error("output: [unclosed\n", {"test.yaml:", "not valid YAML"});
  expect_user_error(with_params("nope", "alpha: 1"),
                    {"model = 'nope' is not a known model; accepted: farima, fbm, fgn, hmm, lfsn"});
}

TEST(Config, NamesAreCheckedAndUnique) {
  expect_user_error(
      "output: o.h5\nensembles:\n  - {name: a, model: stable, params: {alpha: 1}, replicas: 1, length: 1}\n"
      "  - {name: a, model: stable, params: {alpha: 1}, replicas: 1, length: 1}\n",
      {"test.yaml:4:", "name = 'a' is already used by ensembles[0]"});
  expect_user_error(
      "output: o.h5\nensembles:\n  - {name: 'a b', model: stable, params: {alpha: 1}, replicas: 1, length: 1}\n",
      {"name = 'a b' is not accepted", "letters, digits, _ . - (starting with a letter, a digit or _)"});
  for (const char* name : {".", "..", ".a", "-a"})  // "." and ".." would address HDF5 groups other than the ensemble's
    expect_user_error(fmt::format("output: o.h5\nensembles:\n  - {{name: '{}', model: stable, params: {{alpha: 1}}, "
                                  "replicas: 1, length: 1}}\n",
                                  name),
                      {"test.yaml:3:", fmt::format("name = '{}' is not accepted", name)});
  expect_user_error(
      "output: o.h5\ndatasets:\n  - {name: '..', trace: t.txt, format: timestamps, bin: 1s}\n"
      "ensembles:\n  - {name: a, model: stable, params: {alpha: 1}, replicas: 1, length: 1}\n",
      {"test.yaml:3:", "datasets[0].name = '..' is not accepted"});
  expect_user_error(
      "output: o.h5\nensembles:\n  - {name: a, stream: 5, model: stable, params: {alpha: 1}, replicas: 1, length: 1}\n"
      "  - {name: b, stream: 5, model: stable, params: {alpha: 1}, replicas: 1, length: 1}\n",
      {"Philox stream 5", "set a distinct 'stream'"});
}

// yaml-cpp keeps the first of two equal keys and ignores documents after the
// first: both would run something other than what the file seems to say.
TEST(Config, RepeatedKeysAndExtraDocumentsAreRefused) {
  const std::string ensemble = "ensembles:\n  - {name: a, model: stable, params: {alpha: 1}, replicas: 1, length: 1}\n";
  expect_user_error("seed: 1\noutput: o.h5\nseed: 2\n" + ensemble,
                    {"test.yaml:3:1:", "the key 'seed' appears twice in the file (first on line 1)"});
  expect_user_error(
      "output: o.h5\nensembles:\n  - {name: a, model: stable, params: {alpha: 1, alpha: 2}, replicas: "
      "1, length: 1}\n",
      {"test.yaml:3:", "'alpha' appears twice in ensembles[0] (a).params"});
  expect_user_error("output: o.h5\n" + ensemble + "---\nseed: 5\n", {"test.yaml:4:", "a second YAML document"});
  EXPECT_EQ(parse_config("---\noutput: o.h5\n" + ensemble + "...\n", "test.yaml").output, "o.h5");
  // A NUL byte made yaml-cpp's LoadAll loop for ever (found by fuzz_config).
  expect_user_error(std::string("output: o.h5\n# a comment") + '\0' + " with NUL\n" + ensemble,
                    {"test.yaml:2:12:", "NUL byte"});
}

// Nodes of an unexpected kind where texts or names are expected were
// yaml-cpp exceptions (an internal error, or std::terminate in a fuzzer):
// found by fuzz_config (tests/fuzz/regressions/config/).
TEST(Config, UnexpectedNodeKindsAreLocatedUserErrors) {
  const std::string ensemble = "ensembles:\n  - {name: a, model: stable, params: {alpha: 1}, replicas: 1, length: 1}\n";
  expect_user_error("output: o.h5\ndatasets:\n  - {name: d, trace: t.txt, format: timestamps, bin: 1s, "
                    "write_values: [2a, '8': x]}\n" + ensemble,
                    {"test.yaml:3:", "datasets[0].write_values must list texts"});
  expect_user_error("output: o.h5\ndatasets:\n  - {name: d, trace: t.txt, format: timestamps, bin: 1s, "
                    "modules: {POSIX: 1}}\n" + ensemble,
                    {"test.yaml:3:", "datasets[0].modules must be a text or a list of texts"});
  expect_user_error("output: o.h5\nensembles:\n  - {name: a, model: stable, params: {alpha: 1}, replicas: 1, "
                    "length: 1, fit: {[x]: 1}}\n",
                    {"test.yaml:3:", "fit: a key must be a name"});
  expect_user_error("output: o.h5\nensembles:\n  - {name: a, model: stable, params: {alpha: 1}, replicas: 1, "
                    "length: 1, fit: {x: {y: 1}}}\n",
                    {"test.yaml:3:", "fit.x must be a number, a text or a list"});
}

TEST(Config, ParameterRangesNameKeyValueAndRange) {
  expect_user_error(with_params("stable", "alpha: 2.5"),
                    {"test.yaml:5:", "params.alpha = 2.5 is out of range", "0 < alpha <= 2"});
  expect_user_error(with_params("stable", "alpha: 0"), {"alpha = 0 is out of range"});
  expect_user_error(with_params("stable", "alpha: 1, beta: 1.5"), {"beta = 1.5", "-1 <= beta <= 1"});
  expect_user_error(with_params("stable", "alpha: 1, sigma: 0"), {"sigma = 0", "sigma > 0"});
  expect_user_error(with_params("stable", "alpha: 1, parameterization: S2"),
                    {"'S2' is not accepted; accepted: S1, S0"});
  expect_user_error(with_params("stable", "alpha: .nan"), {"alpha must be a number"});
  expect_user_error(with_params("stable", "alpha: .inf"), {"alpha must be finite"});
  expect_user_error(with_params("lfsn", "alpha: 1.5, H: 1"), {"H = 1 is out of range", "0 < H < 1"});
  expect_user_error(with_params("lfsn", "alpha: 1.5, H: 0"), {"H = 0 is out of range"});
  expect_user_error(with_params("lfsn", "alpha: 1.25, H: 0.8"), {"H = 0.8 equals 1/alpha", "H != 1/alpha"});
  expect_user_error(with_params("lfsn", "alpha: 1.5, H: 0.7, m: 0"), {"m = 0 is out of range", "1 <= m"});
  expect_user_error(with_params("lfsn", "alpha: 1.5, H: 0.7, K: 0"), {"K = 0 is out of range", "1 <= K"});
  expect_user_error(with_params("lfsn", "alpha: 1.5, H: 0.7, K: 2.5"), {"K must be a whole number"});
  expect_user_error(with_params("lfsn", "alpha: 1.5, H: 0.7, beta: -2"), {"beta = -2 is out of range"});
  expect_user_error(with_params("lfsn", "alpha: 1.5"), {"missing the required key 'H'"});
}

TEST(Config, WorkloadAndOutputKeys) {
  const std::string base =
      "output: o.h5\nensembles:\n  - name: x\n    model: stable\n    params: {alpha: 1}\n"
      "    replicas: 2\n    length: 8\n";
  expect_user_error(base + "    workload: {v: 0}\n", {"workload.v = 0 is out of range", "v > 0"});
  expect_user_error(base + "    workload: {values: count}\n", {"'count' is not accepted; accepted: real, counts"});
  expect_user_error(base + "    dtype: float16\n", {"'float16' is not accepted; accepted: float32, float64"});
  expect_user_error(base + "    replicas2: 3\n", {"unknown key 'replicas2'"});
  expect_user_error("compression: 12\n" + base, {"compression = 12 is out of range", "0 (none) to 9"});
  expect_user_error("backend: gpu\n" + base, {"'gpu' is not accepted; accepted: auto, cpu, cuda"});
  expect_user_error("precision: single\n" + base, {"precision", "'single' is not accepted; accepted: accurate, fast"});
  EXPECT_EQ(parse_config("precision: fast\n" + base, "test.yaml").precision, MathPrecision::fast);
  expect_user_error("version: 2\n" + base, {"test.yaml:1:10: version = 2 is out of range; accepted: 1"});
  expect_user_error(std::string("output: o.h5\nensembles:\n  - name: x\n    model: stable\n    params: {alpha: 1}\n"
                                "    replicas: 0\n    length: 8\n"),
                    {"replicas = 0 is out of range"});
}

TEST(Config, OverridesApplyToEveryEnsemble) {
  RunConfig config = parse_config(kValid, "test.yaml");
  RunOptions options;
  options.seed = 99;
  options.replicas = 5;
  options.output = "other.h5";
  options.backend = BackendChoice::cpu;
  apply_overrides(config, options);
  EXPECT_EQ(config.seed, 99u);
  EXPECT_EQ(config.output, "other.h5");
  for (const auto& e : config.ensembles) EXPECT_EQ(e.replicas, 5u);
  options.replicas = 0;
  EXPECT_THROW(apply_overrides(config, options), UserError);
}

TEST(Config, MemorySizes) {
  EXPECT_EQ(parse_memory_size("2GiB"), 2ull << 30);
  EXPECT_EQ(parse_memory_size("512MiB"), 512ull << 20);
  EXPECT_EQ(parse_memory_size("1.5GB"), 1500000000ull);
  EXPECT_EQ(parse_memory_size("4096"), 4096ull);
  EXPECT_EQ(parse_memory_size("64 KiB"), 65536ull);
  for (const char* bad : {"", "abc", "-1GiB", "0", "2XB", "1e30"})
    EXPECT_THROW(parse_memory_size(bad), UserError) << bad;
}

}  // namespace
}  // namespace gs

namespace gs {
namespace {

const char* kStudy = R"(output: study.h5
datasets:
  - {name: d, trace: d.counts, format: counts, bin: 1s}
models: [lfsn, fgn, markov]
replicas: 200
cap_over_peak: 3
fitting: {lfsn_hurst: dfa, fgn_hurst: aggvar, farima_p: 1, markov_states: 4, hmm_starts: 2}
compare:
  metrics: [ks, burstiness, trimmed_error]
  trim: 0.2
  acf_lags: 20
  bootstrap: {resamples: 500, confidence: 0.9, method: bca}
  store_replicas: 3
)";

TEST(Config, StudyModelsFittingAndCompare) {
  const RunConfig config = parse_config(kStudy, "test.yaml");
  const StudySpec& study = config.study;
  EXPECT_EQ(study.models, (std::vector<std::string>{"lfsn", "fgn", "markov"}));
  EXPECT_EQ(study.replicas, 200u);
  EXPECT_EQ(study.cap_over_peak, std::optional<double>(3));
  EXPECT_FALSE(parse_config(kValid, "test.yaml").study.cap_over_peak.has_value());
  EXPECT_EQ(study.fitting.choice("lfsn_hurst"), "dfa");  // every estimator of `stats`, as --lfsn-hurst
  EXPECT_EQ(study.fitting.choice("fgn_hurst"), "aggvar");
  EXPECT_EQ(study.fitting.whole("farima_p"), std::optional<std::int64_t>(1));
  EXPECT_FALSE(study.fitting.whole("farima_q").has_value());
  EXPECT_EQ(study.fitting.whole("markov_states"), std::optional<std::int64_t>(4));
  EXPECT_EQ(study.fitting.whole("hmm_starts"), std::optional<std::int64_t>(2));
  EXPECT_EQ(study.fitting.whole("hmm_states"), std::optional<std::int64_t>(3));  // the default
  ASSERT_TRUE(study.compare.has_value());
  const CompareOptions& c = *study.compare;
  EXPECT_EQ(c.metrics,
            (std::vector<Metric>{Metric::ks, Metric::peak_to_mean_ratio, Metric::cv_ratio, Metric::trimmed_error}));
  EXPECT_EQ(c.rank_by, Metric::trimmed_error);  // the default, since it is listed
  EXPECT_EQ(c.trim, 0.2);
  EXPECT_EQ(c.acf_lags, 20u);
  EXPECT_EQ(c.bootstrap.resamples, 500u);
  EXPECT_EQ(c.bootstrap.confidence, 0.9);
  EXPECT_EQ(c.bootstrap.method, IntervalMethod::bca);
  EXPECT_EQ(c.store_replicas, std::optional<std::uint64_t>(3));

  const auto replaced = [](std::string from, std::string to) {
    std::string text = kStudy;
    text.replace(text.find(from), from.size(), to);
    return text;
  };
  expect_user_error(replaced("format: counts", "format: countz"),
                    {"test.yaml:3:", "datasets[0].format", "countz", "blkparse, counts, darshan"});
  expect_user_error(replaced("bin: 1s", "bin: 1s, time_unit: min"),
                    {"test.yaml:3:", "datasets[0].time_unit", "min", "s, ms, us, ns, iso8601"});
  expect_user_error(replaced("lfsn_hurst: dfa", "lfsn_hurst: pox"),
                    {"test.yaml:7:", "fitting.lfsn_hurst", "pox", "local_whittle, stable"});
  expect_user_error(replaced("models: [lfsn", "models: [gamma"), {"test.yaml:4:", "gamma", "not a fittable model"});
  expect_user_error(replaced("trim: 0.2", "trim: 0.5"), {"test.yaml:10:", "compare.trim", "0 <= trim < 0.5"});
  expect_user_error(replaced("metrics: [ks, burstiness, trimmed_error]", "metrics: [burstiness]"),
                    {"test.yaml:9:", "compare.metrics needs one of"});
  expect_user_error(replaced("method: bca", "method: normal"),
                    {"test.yaml:12:", "compare.bootstrap.method", "percentile, bca"});
  expect_user_error(replaced("markov_states: 4", "markov_states: 11"),
                    {"test.yaml:7:", "fitting.markov_states = 11 is out of range", "1 <= markov_states <= 10"});
  expect_user_error(replaced("markov_states: 4", "markov_states: many"), {"test.yaml:7:", "fitting.markov_states"});
  expect_user_error(replaced("cap_over_peak: 3", "cap_over_peak: 0.5"),
                    {"test.yaml:6:", "cap_over_peak = 0.5 is out of range", "cap_over_peak >= 1"});
}

const char* kBursts = R"(output: out.h5
datasets:
  - {name: system, trace: system.counts, format: counts, bin: 5min}
models: [fgn]
bursts:
  - name: write
    dataset: system
    detection: {k: 3}
    horizons: [5min, 1h]
    label: within
    predictors: [logistic]
    xgboost: {rounds: 50, threads: 2}
    bootstrap: {resamples: 200, confidence: 0.9}
    scheduling: {min_time: 1260s, max_time: 3780s, alphas: [1, 0], one_based: true}
    monte_carlo: {predictors: [logistic, xgboost], severity: true, replicas: 100}
    augment: {replicas: 5}
)";

TEST(Config, BurstsSection) {
  const RunConfig config = parse_config(kBursts, "test.yaml");
  ASSERT_EQ(config.bursts.size(), 1u);
  const BurstsSpec& b = config.bursts[0];
  EXPECT_EQ(b.dataset, "system");
  EXPECT_FALSE(b.ensembles);  // the study's ensembles fitted to 'system'
  EXPECT_EQ(b.analysis.k, std::optional<double>(3));
  EXPECT_EQ(b.horizon_seconds, (std::vector<double>{300, 3600}));
  EXPECT_EQ(b.analysis.prediction.label, BurstLabel::within);
  EXPECT_EQ(b.analysis.prediction.models, (std::vector<Predictor>{Predictor::logistic}));
  EXPECT_EQ(b.analysis.prediction.trees.rounds, 50);
  EXPECT_EQ(b.analysis.prediction.trees.threads, 2);
  EXPECT_EQ(b.analysis.prediction.resamples, 200u);
  EXPECT_EQ(b.analysis.scheduling.min_time, 1260.0);
  EXPECT_EQ(b.analysis.scheduling.max_time, 3780.0);
  EXPECT_EQ(b.analysis.scheduling.alphas, (std::vector<double>{1, 0}));
  EXPECT_TRUE(b.analysis.scheduling.one_based);
  EXPECT_EQ(b.monte_carlo_models, (std::vector<Predictor>{Predictor::logistic, Predictor::xgboost}));
  EXPECT_TRUE(b.monte_carlo_severity);
  EXPECT_EQ(b.monte_carlo_replicas, 100u);
  EXPECT_EQ(b.augment_replicas, 5u);

  const auto replaced = [](std::string from, std::string to) {
    std::string text = kBursts;
    text.replace(text.find(from), from.size(), to);
    return text;
  };
  expect_user_error(replaced("dataset: system", "dataset: other"), {"test.yaml:7:", "bursts[0].dataset", "other"});
  expect_user_error(replaced("{k: 3}", "{k: 3, share: 0.01}"), {"test.yaml:8:", "give k or share, not both"});
  expect_user_error(replaced("{k: 3}", "{share: 0.7}"), {"test.yaml:8:", "detection.share", "0 < share < 0.5"});
  expect_user_error(replaced("[5min, 1h]", "[5min, soon]"), {"test.yaml:9:", "horizons", "soon"});
  expect_user_error(replaced("label: within", "label: after"), {"test.yaml:10:", "label", "at, within"});
  expect_user_error(replaced("predictors: [logistic]", "predictors: [forest]"),
                    {"test.yaml:11:", "forest", "accepted: logistic, xgboost"});
  expect_user_error(replaced("max_time: 3780s", "max_time: 600s"), {"test.yaml:14:", "max_time", "at least min_time"});
  expect_user_error(replaced("alphas: [1, 0]", "alphas: [1, 2]"), {"test.yaml:14:", "alphas", "0 to 1"});
  expect_user_error(std::string(kBursts) + "    colour: red\n", {"bursts[0]", "colour"});
  const std::string without_dataset = replaced("    augment: {replicas: 5}\n", "");
  const auto without = [&](std::string from, std::string to) {
    std::string text = without_dataset;
    return text.replace(text.find(from), from.size(), to);
  };
  expect_user_error(without("    dataset: system\n", "    ensembles: [nowhere]\n    bin: 5min\n"),
                    {"bursts[0].ensembles", "nowhere", "not among the ensembles"});
  expect_user_error(without("    dataset: system\n", ""), {"bursts[0]", "needs 'bin'"});
  expect_user_error(replaced("    dataset: system\n", "    ensembles: [system-fgn]\n    bin: 5min\n"),
                    {"test.yaml:17:", "bursts[0].augment", "give 'dataset'"});
}

TEST(Progress, TerminalBarAndLogLines) {
  Progress bar(1000, /*quiet=*/true, /*terminal=*/true);
  bar.begin("ensemble-a");
  bar.advance(500);
  bar.finish();
  EXPECT_NE(bar.last_line().find("[##############################] 100.0% ensemble-a"), std::string::npos)
      << bar.last_line();
  Progress log(1000, /*quiet=*/true, /*terminal=*/false);
  log.begin("ensemble-b");
  log.advance(250);
  EXPECT_NE(log.last_line().find("progress:  25.0% ensemble-b"), std::string::npos) << log.last_line();
}

}  // namespace
}  // namespace gs
