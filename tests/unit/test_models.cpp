// What every model gives through the registry (host/models/model.hpp), and the
// located errors of the parameter tables: every model's example generates the
// same values whatever the batch boundaries and thread count, and bad
// parameters are UserErrors naming the file, line, key and accepted range.
#include <fmt/format.h>
#include <gtest/gtest.h>
#include <omp.h>

#include <cstdio>

#include "host/base/errors.hpp"
#include "host/engine/config.hpp"
#include "host/models/model.hpp"
#include "test_support.hpp"

namespace gs {
namespace {

// Every registered model (its traits' example), float32 and counts, a batch
// split anywhere and one thread or all: the same values.
TEST(Models, EveryModelIgnoresBatchBoundariesAndThreads) {
  for (const ModelTraits* traits : registered_models()) {
    for (const char* values : {"real", "counts"}) {
      const EnsembleSpec spec = ensemble_from_yaml(
          fmt::format("{{name: {}-test, model: {}, params: {}, replicas: 7, length: 101, workload: {{values: {}}}}}",
                      traits->name, traits->name, traits->example, values));
      const EnsembleJob job = make_job(spec, 3);
      auto generator = make_cpu_backend(test::context())->make_generator(job, 7);
      std::vector<float> whole(7 * 101), parts(7 * 101), one_thread(7 * 101);
      generator->generate(0, 7, whole.data());
      generator->generate(0, 3, parts.data());
      generator->generate(3, 4, parts.data() + 3 * 101);
      const int threads = omp_get_max_threads();
      omp_set_num_threads(1);
      generator->generate(0, 7, one_thread.data());
      omp_set_num_threads(threads);
      EXPECT_EQ(whole, parts) << traits->name << " " << values;
      EXPECT_EQ(whole, one_thread) << traits->name << " " << values;
      if (std::string(values) == "real") {
        EXPECT_FALSE(std::equal(whole.begin(), whole.begin() + 101, whole.begin() + 101))
            << traits->name << ": replicas 0 and 1 are the same";
      }
    }
  }
}

TEST(Models, EveryModelDescribesItsParametersAndRandomNumbers) {
  for (const ModelTraits* traits : registered_models()) {
    const auto model = make_model(traits->name, traits->example);
    EXPECT_EQ(model->name(), traits->name);
    EXPECT_FALSE(model->describe().empty()) << traits->name;
    EXPECT_NE(model->rng_use().find("one Philox call at (replica r, position"), std::string::npos) << traits->name;
    EXPECT_FALSE(traits->summary.empty()) << traits->name;
    for (const ParamSpec& param : traits->params)
      EXPECT_FALSE(param.meaning.empty()) << traits->name << "." << param.name;
  }
}

void expect_config_error(const std::string& model, const std::string& params, const std::string& expected,
                         const std::string& extra = "") {
  const std::string text = "output: out.h5\nensembles:\n  - name: x\n    model: " + model + "\n    params: {" + params +
                           "}\n    replicas: 2\n    length: " + (extra.empty() ? "10" : extra) + "\n";
  try {
    parse_config(text, "models.yaml");
    ADD_FAILURE() << "no error for " << params;
  } catch (const UserError& e) {
    EXPECT_NE(std::string(e.what()).find(expected), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("models.yaml:"), std::string::npos) << e.what();
  }
}

TEST(Models, BadParametersAreLocatedUserErrors) {
  expect_config_error("fgn", "H: 1.2", "H = 1.2 is out of range; accepted: 0 < H < 1");
  expect_config_error("norros", "lambda: 10, H: 0.8", "missing the required key 'a'");
  expect_config_error("farima", "d: 0.6", "accepted: -0.5 < d < 0.5");
  expect_config_error("farima", "d: 0.3, innovations: stable, alpha: 1.2", "-1 < d < 0.166666");
  expect_config_error("farima", "d: 0.1, alpha: 1.5", "applies only with innovations: stable");
  expect_config_error("farima", "d: 0.1, ar: [1.2]", "is not stationary");
  expect_config_error("markov", "levels: [1, 2], transition: [[0.5, 0.4], [0.5, 0.5]]",
                      "transition[0] = [0.5, 0.4] sums to 0.9");
  expect_config_error("markov", "levels: [1, 2], transition: [[0.5, 0.5]]", "must be a list of 2 rows");
  expect_config_error("markov", "levels: [1, 2], transition: [[1, 0], [0, 1]]", "give the initial law");
  expect_config_error("hmm", "generator: [[-1, 1], [1, 1]], mu: [0, 0], sigma: [1, 1]", "is not a generator row");
  expect_config_error("hmm", "generator: [[-1, 1], [1, -1]], mu: [0], sigma: [1, 1]", "one per state (2)");
  expect_config_error("hmm", "generator: [[-1, 1], [1, -1]], mu: [0, 0], sigma: [1, 1], times: [0, 2, 1]",
                      "observation times must increase strictly");
  expect_config_error("hmm", "generator: [[-1, 1], [1, -1]], mu: [0, 0], sigma: [1, 1], times: [0, 1, 2]", "length = 3",
                      "5");
  expect_config_error("lfsn", "alpha: 1.5, H: 0.8, m: 0",
                      "m = 0 is out of range; accepted: whole number 1 <= m <= 1048576");
  expect_config_error("hmm", "generator: [[-1, 1], [1, -1]], mu: [0, 0], sigma: [1, 1], interval: 1, times: [0]",
                      "give the observation times one way");
  expect_config_error("hmm", "generator: [[-1, 1], [1, -1]], mu: [0, 0], sigma: [1, 1], interval: 1, times: dataset",
                      "give the observation times one way");
  expect_config_error("hmm", "generator: [[-1, 1], [1, -1]], mu: [0, 0], sigma: [1, 1], times: trace",
                      "= 'trace' is not accepted; accepted: a list of times or 'dataset'");
}

// `times: dataset` parses; the run gives the model its dataset's times
// (tests/cli/fit_test.sh runs it end to end).
TEST(Models, HmmTakesTheObservationTimesOfItsDataset) {
  const RunConfig config = parse_config(
      "output: o.h5\nensembles:\n  - {name: h, model: hmm, params: {generator: [[-1, 1], [1, -1]], mu: [0, 1], "
      "sigma: [1, 1], times: dataset}, replicas: 2, length: 3}\n",
      "models.yaml");
  const Model& hmm = *config.ensembles[0].model;
  EXPECT_FALSE(hmm.fixed_length().has_value());
  EXPECT_THROW(hmm.with_dataset(nullptr, 3, "here"), UserError);
  DatasetFacts facts{"latency", false, 3, {0.5, 1.25, 4}};
  EXPECT_THROW(hmm.with_dataset(&facts, 4, "here"), UserError);  // length 4, but 3 times
  facts.binned = true;
  EXPECT_THROW(hmm.with_dataset(&facts, 3, "here"), UserError);  // binned: no times
  facts.binned = false;
  const std::shared_ptr<Model> as_run = hmm.with_dataset(&facts, 3, "here");
  ASSERT_TRUE(as_run);
  EXPECT_EQ(as_run->side_vectors(3).at(0).values, facts.times);
  // The parsed config's model is left as it was: not the dataset's times.
  EXPECT_NE(hmm.side_vectors(3).at(0).values, facts.times);
}

TEST(Models, TimesFileIsReadRelativeToTheConfig) {
  test::TempDir dir;
  test::write_file(dir.path("times.txt"), "# seconds\n0.5\n1.25\n\n4 # late\n");
  test::write_file(dir.path("run.yaml"),
                   "output: o.h5\nensembles:\n  - {name: h, model: hmm, params: {generator: "
                   "[[-1, 1], [1, -1]], mu: [0, 1], sigma: [1, 1], times_file: times.txt}, "
                   "replicas: 2, length: 3}\n");
  const RunConfig config = load_config(dir.path("run.yaml"));
  EXPECT_EQ(config.ensembles[0].model->side_vectors(3).at(0).values, (std::vector<double>{0.5, 1.25, 4}));
  EXPECT_EQ(config.ensembles[0].model->fixed_length(), 3u);
  test::write_file(dir.path("times.txt"), "0.5\n0.4\n");
  try {
    load_config(dir.path("run.yaml"));
    ADD_FAILURE() << "decreasing times accepted";
  } catch (const UserError& e) {
    EXPECT_NE(std::string(e.what()).find("times.txt:2:"), std::string::npos) << e.what();
  }
  // A bad or missing times file is located at the config's key as well as in the file.
  for (const std::string& times : {std::string("0.5\n0.4\n"), std::string("0.5\n") + '\0' + "1\n", std::string()}) {
    if (times.empty())
      std::remove(dir.path("times.txt").c_str());
    else
      test::write_file(dir.path("times.txt"), times);
    try {
      load_config(dir.path("run.yaml"));
      ADD_FAILURE() << "accepted: " << times;
    } catch (const UserError& e) {
      EXPECT_NE(std::string(e.what()).find("run.yaml:3:"), std::string::npos) << e.what();
      EXPECT_NE(std::string(e.what()).find("params.times_file"), std::string::npos) << e.what();
    }
  }
}

}  // namespace
}  // namespace gs
