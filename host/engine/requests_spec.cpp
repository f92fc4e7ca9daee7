#include "host/engine/requests_spec.hpp"

#include <fmt/format.h>

#include "host/base/config_map.hpp"
#include "host/base/paths.hpp"
#include "host/engine/config.hpp"
#include "host/engine/config_keys.hpp"
#include "io/series_source.hpp"

namespace gs {

namespace {

// The classes a config names under `characteristics:` and `files:`.
constexpr FileClass kClasses[] = {FileClass::root_exclusive, FileClass::private_file, FileClass::shared};

Frequencies frequencies(ConfigMap& map, const std::string& key) {
  const YAML::Node node = map.node(key);
  Frequencies f;
  if (!node.IsMap()) throw map.error_at(key, fmt::format("{} must map names to counts", map.path_of(key)));
  std::vector<std::string> names;
  for (const auto& item : node) {
    // A mapping or a list as a key ({{write: 5}: 1}) names no operation.
    if (!item.first.IsScalar() || item.first.Scalar().empty())
      throw located_error_at(item.first, map.file(),
                             fmt::format("{} has a key that is {}; accepted: operation names with their counts "
                                         "(e.g. {{write: 5, read: 2}})",
                                         map.path_of(key),
                                         item.first.IsMap()        ? "a mapping"
                                         : item.first.IsSequence() ? "a list"
                                                                   : "empty"));
    names.push_back(item.first.Scalar());
  }
  ConfigMap counts(node, map.file(), map.path_of(key), names);
  for (const auto& name : names) {
    const double count = *counts.number(name);
    require_in_range(counts, name, count, count >= 0 && count < 1e15, "a count >= 0");
    f.add(name, count);
  }
  return f;
}

// A user's characteristics of one class: samples of each Table III characteristic.
void parse_given_class(ConfigMap& map, FileClass file_class, ClassCharacteristics& c, Workload& files) {
  const auto files_given = map.unsigned_integer("files");
  c.files = static_cast<double>(map.require(files_given, "files", "the number of files of the class (OS)"));
  for (const CharacteristicInfo& info : characteristic_table()) {
    if (!info.samples) continue;  // categorical (RT1, RT2, AM) or OS, read below
    if (auto values = map.numbers(info.config_key())) c.*info.samples = *values;
  }
  const std::int64_t stride = *map.integer("rank_stride");
  // Templates <class>_<k> (at most 10^4; more files cycle through them as <class>_<k>.s<j>).
  for (std::uint64_t k = 0; k < static_cast<std::uint64_t>(std::min(c.files, 1e4)); ++k) {
    const std::string name = fmt::format("{}_{}", file_class_name(file_class), k);
    const std::int32_t id = files.table.file_id(name);
    files.files.resize(files.table.files.size());
    files.files[id].file_class = file_class;
    files.files[id].rank_stride = file_class == FileClass::shared ? stride : 0;
    files.files[id].name.root_name = name;
    c.files_in_path.push_back(id);
  }
}

// `trace` (one file or a list), its `format`, `counters`, `time_unit` and `delimiter`.
void parse_trace_keys(ConfigMap& map, const std::string& file, RequestsSpec& spec) {
  const YAML::Node trace = map.node("trace");
  if (!trace) return;
  const auto add = [&](const YAML::Node& item) {
    if (!item.IsScalar() || item.Scalar().empty())
      throw located_error_at(item, file, fmt::format("{}.trace must name trace files", map.where()));
    spec.traces.push_back(path_beside(file, item.Scalar()));
  };
  if (trace.IsSequence())
    for (const auto& item : trace) add(item);
  else
    add(trace);
  spec.format = trace_format_key(map, spec.traces,
                                 "the trace format: dxt or pioneer; told from the first trace when it is "
                                 "darshan-dxt-parser's text or a .darshan log with DXT records");
  if (auto counters = map.text("counters")) spec.counters = path_beside(file, *counters);
  if (auto unit = map.choice("time_unit")) spec.trace_options.time_unit = parse_time_unit(*unit);
  if (auto delimiter = map.choice("delimiter"))
    spec.trace_options.delimiter = *delimiter == "comma" ? ',' : *delimiter == "tab" ? '\t' : ' ';
}

// `characteristics`: a user's Table III per file class, instead of a trace (exactly one of the two).
void parse_given_characteristics(ConfigMap& map, RequestsSpec& spec) {
  const bool trace = map.has("trace");
  if (auto given = map.map("characteristics")) {
    if (trace) throw map.error_at("characteristics", "give either 'trace' or 'characteristics', not both");
    spec.given.emplace();
    for (const FileClass file_class : kClasses) {
      const char* key = file_class_name(file_class);
      if (!given->has(key)) continue;
      ConfigMap c = *given->map(key);
      ClassCharacteristics& k = spec.given->of(file_class);
      parse_given_class(c, file_class, k, spec.given_files);
      if (c.has("RT1")) k.types_in_sessions = frequencies(c, "RT1");
      if (c.has("RT2")) k.types_outside = frequencies(c, "RT2");
      if (c.has("AM")) k.access_mode = frequencies(c, "AM");
      for (const auto& mode : k.access_mode.names)
        if (!access_mode_flags(mode))
          throw c.error_at("AM", fmt::format("{}.AM names '{}'; accepted: read_only, write_only, read_write, none",
                                             c.where(), mode));
      if (k.types_in_sessions.names.empty())
        throw c.error_here(fmt::format("{} needs RT1: the operations inside sessions and their counts", c.where()));
    }
  } else if (!trace) {
    throw map.error_here(fmt::format("{} needs 'trace' (a DXT or PIONEER trace) or 'characteristics'", map.where()));
  }
}

// `mode`, `draw`, `processes`, `replicas` and `stream`.
void parse_sizes(ConfigMap& map, RequestsSpec& spec) {
  spec.synthesis.template_mode = *map.choice("mode") == "template";
  if (map.choice("draw").value_or(spec.given ? "class" : "file") == "class")
    spec.synthesis.draw = SynthesisOptions::Draw::class_pools;
  if (spec.synthesis.template_mode && spec.given)
    throw map.error_at("mode", "mode: template replays a trace's own path; it needs 'trace'");
  if (auto processes = map.unsigned_integer("processes")) {
    spec.processes = static_cast<std::int32_t>(*processes);
  } else if (spec.given) {
    spec.processes = 1;
  }
  spec.replicas = static_cast<std::uint32_t>(*map.unsigned_integer("replicas"));
  if (auto stream = map.unsigned_integer("stream")) {
    spec.synthesis.key.stream = static_cast<std::uint32_t>(*stream);
  } else {
    spec.synthesis.key.stream = stream_of_name("requests/" + spec.name);
  }
}

// `timing`: phases, slack, or {ensemble, bin}; a sample of a trace without it is timed by its phases.
void parse_timing(ConfigMap& map, RequestsSpec& spec) {
  if (const YAML::Node timing = map.node("timing")) {
    if (timing.IsScalar()) {
      if (timing.Scalar() != "slack" && timing.Scalar() != "phases")
        throw map.error_at("timing", fmt::format("{}.timing = '{}'; accepted: phases, slack, or {{ensemble: NAME, "
                                                 "bin: WIDTH}}",
                                                 map.where(), timing.Scalar()));
      spec.timing = timing.Scalar() == "phases" ? RequestsSpec::Timing::phases : RequestsSpec::Timing::slack;
      if (spec.timing == RequestsSpec::Timing::phases && spec.given)
        throw map.error_at("timing", fmt::format("{}.timing = phases: the phases are fitted to a trace's ranks, and "
                                                 "this entry gives characteristics; accepted here: slack, or "
                                                 "{{ensemble: NAME, bin: WIDTH}}",
                                                 map.where()));
    } else {
      spec.timing = RequestsSpec::Timing::counts;
      ConfigMap t = *map.map("timing");
      spec.timing_ensemble = t.require(t.text("ensemble"), "ensemble", "the ensemble whose counts time the requests");
      const std::string bin = t.require(t.text("bin"), "bin", "the width of the ensemble's bins (e.g. 100ms)");
      try {
        spec.bin_width = parse_duration(bin, (t.where() + ".bin").c_str());
      } catch (const UserError& e) {
        throw t.error_at("bin", e.what());
      }
      // Wider bins put requests beyond the 10^9 s the outputs take (host/requests/synthesize.hpp).
      if (!(spec.bin_width >= 1e-9 && spec.bin_width <= 1e6))
        throw t.error_at("bin", fmt::format("{}.bin = '{}' is out of range; accepted: 1ns to 10^6 s (about 11.6 "
                                            "days)",
                                            t.where(), bin));
    }
  } else if (!spec.given && !spec.synthesis.template_mode) {
    spec.timing = RequestsSpec::Timing::phases;  // a sample of a trace: its phases (template keeps its own times)
  }
}

// `overrides`: a scale and a shift per overridable characteristic.
void parse_overrides(ConfigMap& map, RequestsSpec& spec) {
  if (auto overrides = map.map("overrides")) {
    for (const CharacteristicInfo& info : characteristic_table()) {
      const std::string key = info.short_name;
      if (!info.overridable || !overrides->has(key)) continue;
      ConfigMap o = *overrides->map(key);
      CharacteristicOverride change;
      change.scale = *o.number("scale");
      change.shift = *o.number("shift");
      const bool seconds = info.id == Characteristic::ST;  // ST is in seconds: a shift as large as the samples may be
      require_in_range(o, "shift", change.shift, std::abs(change.shift) <= (seconds ? 1e6 : 1e15),
                       seconds ? "-10^6 to 10^6 (seconds)" : "-10^15 to 10^15");
      if (spec.synthesis.template_mode && info.id != Characteristic::SIZE && info.id != Characteristic::OFF)
        throw overrides->error_at(
            key, fmt::format("{}.{}: mode: template copies the trace's path with its own times and files, which "
                             "no drawn {} changes; accepted with template: SIZE and OFF (they scale the requests)",
                             overrides->where(), key, key));
      if (info.id == Characteristic::SIZE && change.scale == 0 && change.shift < 1)
        throw o.error_at("scale", fmt::format("{}.scale = 0 makes every request {} bytes: nothing to read or write; "
                                              "accepted: scale > 0, or scale 0 with shift >= 1 (every request of "
                                              "that size)",
                                              o.where(), std::max(0.0, std::round(change.shift))));
      spec.synthesis.overrides[info.id] = change;
    }
  }
}

// `files`: the files per class a sample draws (not with mode: template).
void parse_files(ConfigMap& map, RequestsSpec& spec) {
  if (spec.synthesis.template_mode && map.has("files"))
    throw map.error_at("files", fmt::format("{}.files: mode: template keeps the trace's own files; leave 'files' out, "
                                            "or use mode: sample",
                                            map.where()));
  if (auto files = map.map("files")) {
    for (const FileClass file_class : kClasses)
      if (auto n = files->unsigned_integer(file_class_name(file_class)))
        spec.synthesis.files[static_cast<int>(file_class)] = *n;
  }
}

// `emit`: the fio, DiskSim and DXT outputs of one replica, each path with where the config gave it.
void parse_emit(ConfigMap& map, const std::string& file, RequestsSpec& spec) {
  if (auto emit = map.map("emit")) {
    const auto path_of = [&](const char* key, std::string& path, std::string& at) {
      if (!emit->has(key)) return;
      path = *emit->text(key);
      const YAML::Mark mark = emit->node(key).Mark();
      at = fmt::format("{}:{}:{}", file, mark.line + 1, mark.column + 1);
      if (path.empty())
        throw emit->error_at(key, fmt::format("{}.{} is empty; give a path, or leave the key out to write no {} output",
                                              emit->where(), key, key));
    };
    path_of("fio", spec.emit.fio, spec.emit.fio_at);
    path_of("disksim", spec.emit.disksim, spec.emit.disksim_at);
    path_of("dxt", spec.emit.dxt, spec.emit.dxt_at);
    const std::uint64_t replica = *emit->unsigned_integer("replica");
    require_in_range(*emit, "replica", static_cast<double>(replica), replica < spec.replicas,
                     fmt::format("0 to replicas - 1 = {}", spec.replicas - 1));
    spec.emit.replica = static_cast<std::uint32_t>(replica);
  }
}

}  // namespace

std::string timing_text(const RequestsSpec& spec) {
  switch (spec.timing) {
    case RequestsSpec::Timing::slack:
      return "slack";
    case RequestsSpec::Timing::phases:
      return "phases";
    case RequestsSpec::Timing::counts:
      break;
  }
  return fmt::format("ensemble {} (bins of {} s)", spec.timing_ensemble, spec.bin_width);
}

RequestsSpec parse_requests(const YAML::Node& node, const std::string& file, std::size_t index) {
  ConfigMap map(node, file, fmt::format("requests[{}]", index), config_schema(), "requests[]");
  RequestsSpec spec;
  spec.line = static_cast<int>(node.Mark().line) + 1;
  spec.name = required_group_name(map, "the name of the synthesized requests (under /requests)");
  spec.where = fmt::format("requests[{}] ('{}')", index, spec.name);
  parse_trace_keys(map, file, spec);
  parse_given_characteristics(map, spec);
  parse_sizes(map, spec);
  parse_timing(map, spec);
  parse_overrides(map, spec);
  parse_files(map, spec);
  parse_emit(map, file, spec);
  return spec;
}

}  // namespace gs
