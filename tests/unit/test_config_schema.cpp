// The config's schema is the one place a key is declared: the parsers may ask
// only for declared keys (as declared), every declared key is read by some
// parser, and the schema's bounds and defaults are what a config gets.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <set>

#include "host/base/config_map.hpp"
#include "host/base/errors.hpp"
#include "host/engine/config.hpp"
#include "host/engine/config_keys.hpp"
#include "io/trace.hpp"

namespace gs {
namespace {

TEST(ConfigSchema, AKeyTheSchemaLacksOrAnotherTypeIsAnInternalError) {
  const YAML::Node node = YAML::Load("{compression: 3, backend: cpu}");
  ConfigMap top(node, "c.yaml", "", config_schema(), "");
  EXPECT_THROW(top.number("no_such_key"), InternalError);
  EXPECT_THROW(top.has("no_such_key"), InternalError);
  EXPECT_THROW(top.number("compression"), InternalError);  // a whole number, asked as a number
  EXPECT_THROW(top.integer("backend"), InternalError);     // a choice, asked as a number
  EXPECT_THROW(top.map("compression"), InternalError);
  EXPECT_EQ(*top.integer("compression"), 3);
  EXPECT_EQ(*top.choice("backend"), "cpu");
}

TEST(ConfigSchema, AbsentKeysReadAsTheirDefaultsAndBoundsAreChecked) {
  const YAML::Node empty = YAML::Load("{}");
  ConfigMap top(empty, "c.yaml", "", config_schema(), "");
  EXPECT_EQ(*top.integer("compression"), 1);
  EXPECT_EQ(*top.unsigned_integer("seed"), kDefaultSeed);
  EXPECT_EQ(*top.choice("backend"), "auto");
  EXPECT_FALSE(top.number("cap_over_peak"));  // no default: absent
  const YAML::Node bad = YAML::Load("{compression: 10}");
  ConfigMap wrong(bad, "c.yaml", "", config_schema(), "");
  try {
    wrong.integer("compression");
    ADD_FAILURE() << "compression = 10 accepted";
  } catch (const UserError& e) {
    EXPECT_NE(std::string(e.what()).find("c.yaml:1:15: compression = 10 is out of range; accepted: deflate level 0 "
                                         "(none) to 9"),
              std::string::npos)
        << e.what();
  }
}

// A dataset without reading options gets what the trace reader's own defaults are.
TEST(ConfigSchema, TheDefaultsOfADatasetAreTheTraceReadersOwn) {
  const DatasetSpec d =
      parse_dataset(YAML::Load("{name: d, trace: t.txt, format: timestamps, bin: 1s}"), "c.yaml", "datasets[0]");
  const TraceOptions defaults;
  EXPECT_EQ(d.source.trace.blk_action, defaults.blk_action);
  EXPECT_EQ(d.source.trace.spread, defaults.spread);
  EXPECT_EQ(d.source.trace.align, defaults.align);
  EXPECT_EQ(d.source.trace.header, defaults.header);
  EXPECT_EQ(d.source.trace.sort, defaults.sort);
}

// Every mapping of the schema, once: the keys the parsers ask for reading it.
const char* kEveryMapping = R"(version: 1
seed: 3
backend: cpu
precision: accurate
compression: 1
fft_wisdom: none.fftw
datasets:
  - {name: d, trace: d.txt, trace_list: LIST, format: timestamps, bin: 1s}
models: [normal]
replicas: 4
cap_over_peak: 10
fitting: {markov_states: 3}
compare: {metrics: [ks], bootstrap: {resamples: 100}}
ensembles:
  - name: e
    model: normal
    params: {mu: 1, sigma: 1}
    workload: {v: 1, cap: 10}
    replicas: 2
    length: 8
    dataset: d
    fit: {mu: 1}
requests:
  - name: r
    trace: r.dxt.txt
    format: dxt
    timing: {ensemble: e, bin: 1s}
    overrides: {SIZE: {scale: 2}}
    files: {shared: 1}
    emit: {fio: f}
  - name: g
    characteristics:
      shared: {files: 1, RT1: {write: 1}, RT2: {stat: 1}, AM: {write_only: 1}}
bursts:
  - name: b
    dataset: d
    ensembles: [e]
    detection: {share: 0.1}
    xgboost: {rounds: 2}
    bootstrap: {resamples: 0}
    scheduling: {window: 4}
    monte_carlo: {replicas: 1}
    augment: {replicas: 1}
)";

TEST(ConfigSchema, EveryDeclaredKeyIsRead) {
  const std::filesystem::path dir = std::filesystem::temp_directory_path() / "gpusynth_config_schema_test";
  std::filesystem::create_directories(dir);
  std::ofstream(dir / "list.txt") << "d.txt\n";
  std::string text = kEveryMapping;
  text.replace(text.find("LIST"), 4, (dir / "list.txt").string());
  parse_config(text, (dir / "c.yaml").string());
  const std::vector<std::string> asked = keys_asked();
  const std::set<std::string> read(asked.begin(), asked.end());
  for (const MappingSpec& mapping : config_schema().mappings())
    for (const KeySpec& key : mapping.keys)
      EXPECT_TRUE(read.count(mapping.id + "/" + key.name))
          << "'" << key.name << "' of '" << mapping.id << "' is declared, but no parser reads it";
  std::filesystem::remove_all(dir);
}

// Each default a number key declares lies within its own bounds.
TEST(ConfigSchema, DefaultsLieWithinTheirBounds) {
  for (const MappingSpec& mapping : config_schema().mappings()) {
    for (const KeySpec& key : mapping.keys) {
      if (key.default_number && key.bounds.any()) {
        EXPECT_TRUE(key.bounds.contains(*key.default_number)) << mapping.id << "." << key.name;
      }
    }
  }
}

}  // namespace
}  // namespace gs
