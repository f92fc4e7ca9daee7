#include "host/engine/plan.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <cmath>

#include "host/base/errors.hpp"
#include "host/base/sysinfo.hpp"

namespace gs {

namespace {

constexpr std::uint64_t kMinBatches = 16;

std::uint64_t max_batch(std::uint64_t budget, std::uint64_t fixed, std::uint64_t per_replica) {
  if (budget <= fixed) return 0;
  if (per_replica == 0) return UINT64_MAX;
  return (budget - fixed) / per_replica;
}

}  // namespace

std::uint64_t default_host_budget() {
  return std::clamp<std::uint64_t>(available_memory() / 4, 64ull << 20, 4ull << 30);
}

std::uint64_t parse_memory_size(const std::string& text) {
  std::size_t pos = 0;
  double value = 0;
  try {
    value = std::stod(text, &pos);
  } catch (const std::exception&) {
    pos = 0;
  }
  std::string unit = text.substr(pos);
  unit.erase(std::remove_if(unit.begin(), unit.end(), [](unsigned char c) { return std::isspace(c); }), unit.end());
  static const std::pair<const char*, double> units[] = {{"", 1},
                                                         {"B", 1},
                                                         {"KiB", 1024.0},
                                                         {"MiB", 1024.0 * 1024},
                                                         {"GiB", 1 << 30},
                                                         {"TiB", 1099511627776.0},
                                                         {"kB", 1e3},
                                                         {"KB", 1e3},
                                                         {"MB", 1e6},
                                                         {"GB", 1e9},
                                                         {"TB", 1e12},
                                                         {"K", 1024.0},
                                                         {"M", 1024.0 * 1024},
                                                         {"G", 1 << 30},
                                                         {"T", 1099511627776.0}};
  if (pos > 0 && std::isfinite(value) && value > 0) {
    for (const auto& [name, factor] : units) {
      if (unit == name && value * factor >= 1 && value * factor < 1.8e19) {
        return static_cast<std::uint64_t>(value * factor);
      }
    }
  }
  throw UserError(
      fmt::format("memory size '{}' is not accepted; accepted: a positive number with an optional "
                  "unit B, KiB, MiB, GiB, TiB, kB, MB, GB, TB (e.g. 2GiB)",
                  text));
}

RunPlan make_plan(const RunConfig& config, const RunBackends& backends, std::optional<std::uint64_t> memory_limit) {
  RunPlan plan;
  plan.backend = backends.main->kind();
  plan.device = backends.main->description();
  if (backends.host) plan.device += "; the host's ensembles: " + backends.host->description();
  plan.seed = config.seed;
  plan.memory_budget_given = memory_limit.has_value();
  plan.memory_budget = memory_limit.value_or(backends.main->default_memory_budget());
  plan.host_budget =
      plan.backend == Backend::cpu ? plan.memory_budget : memory_limit.value_or(default_host_budget());
  // Two output buffers (one generating, one writing) and, when compressing,
  // the deflated copy of the batch being written.
  const std::uint64_t output_copies = config.compression > 0 ? 3 : 2;
  const auto too_small = [&](const std::string& memory, std::uint64_t budget, const std::string& name,
                             const std::string& need) {
    return UserError(
        fmt::format("the {} budget {} is too small for ensemble '{}': one replica needs {}; raise "
                    "--memory-limit or shorten the series",
                    memory, format_bytes(budget), name, need));
  };
  for (std::size_t e = 0; e < config.ensembles.size(); ++e) {
    const EnsembleSpec& spec = config.ensembles[e];
    const BackendDevice& backend = backends.of(e);
    const bool workspace_on_host = backend.kind() == Backend::cpu;
    EnsemblePlan ensemble;
    ensemble.backend = backend.kind();
    const StorageType storage = spec.storage();
    ensemble.row_bytes = spec.length * storage_bytes(storage);
    // Before the model plans its generation, which may be long work for a
    // length that cannot fit anyway (FFT sizes near 2^40).
    if (output_copies * ensemble.row_bytes > plan.host_budget)
      throw too_small(
          "host memory", plan.host_budget, spec.name,
          fmt::format("at least {} ({} output rows of {})", format_bytes(output_copies * ensemble.row_bytes),
                      output_copies, format_bytes(ensemble.row_bytes)));
    ensemble.job = make_job(spec, config.seed);
    ensemble.need = backend.memory_need(ensemble.job);
    const std::uint64_t host_fixed = workspace_on_host ? ensemble.need.fixed : 0;
    const std::uint64_t host_per_replica =
        output_copies * ensemble.row_bytes + (workspace_on_host ? ensemble.need.per_replica : 0);
    std::uint64_t batch = max_batch(plan.host_budget, host_fixed, host_per_replica);
    if (!workspace_on_host) {
      batch = std::min(batch, max_batch(plan.memory_budget, ensemble.need.fixed, ensemble.need.per_replica));
    }
    if (batch == 0) {
      const bool host_fits = host_fixed + host_per_replica <= plan.host_budget;
      const std::uint64_t budget = host_fits ? plan.memory_budget : plan.host_budget;
      const std::uint64_t one =
          host_fits ? ensemble.need.fixed + ensemble.need.per_replica : host_fixed + host_per_replica;
      throw too_small(
          host_fits ? "device memory" : "host memory", budget, spec.name,
          fmt::format("{} ({})", format_bytes(one),
                      host_fits ? "its GPU workspace and output row"
                                : fmt::format("{} output rows of {}{}", output_copies, format_bytes(ensemble.row_bytes),
                                              workspace_on_host ? " and the CPU workspace" : "")));
    }
    // About 16 batches, so progress moves and writes overlap generation; every
    // write covers whole chunks.
    const std::uint64_t wanted = std::min(batch, (spec.replicas + kMinBatches - 1) / kMinBatches);
    ensemble.chunk = series_chunk_shape(spec.replicas, spec.length, storage_bytes(storage), wanted);
    ensemble.chunk.rows = std::min(ensemble.chunk.rows, batch);
    batch = std::min(spec.replicas, std::max(wanted, ensemble.chunk.rows));
    if (batch < spec.replicas) batch = batch / ensemble.chunk.rows * ensemble.chunk.rows;
    ensemble.batch_replicas = batch;
    ensemble.batches = (spec.replicas + batch - 1) / batch;
    ensemble.backend_bytes = ensemble.need.fixed + batch * ensemble.need.per_replica;
    ensemble.host_bytes = output_copies * batch * ensemble.row_bytes + (workspace_on_host ? ensemble.backend_bytes : 0);
    plan.total_samples += spec.replicas * spec.length;
    plan.total_bytes += spec.replicas * ensemble.row_bytes;
    plan.ensembles.push_back(std::move(ensemble));
  }
  return plan;
}

std::string format_plan(const RunPlan& plan, const RunConfig& config) {
  std::string text = fmt::format("plan for {} (seed {}, backend {}, {})\n", config.path, plan.seed,
                                 to_string(plan.backend), plan.device);
  text += fmt::format("memory budget {} ({}){}\n", format_bytes(plan.memory_budget),
                      plan.memory_budget_given ? "--memory-limit" : "default",
                      plan.host_budget != plan.memory_budget
                          ? fmt::format(", host buffers {}", format_bytes(plan.host_budget))
                          : std::string());
  text += fmt::format("{:<24} {:<7} {:>10} {:>10} {:>14} {:>8} {:>11} {:>8} {:>11} {:>11}\n", "ensemble", "model",
                      "replicas", "length", "samples", "type", "bytes", "batches", "batch rows", "batch mem");
  for (const EnsemblePlan& e : plan.ensembles) {
    const EnsembleSpec& spec = *e.job.spec;
    text += fmt::format("{:<24} {:<7} {:>10} {:>10} {:>14} {:>8} {:>11} {:>8} {:>11} {:>11}\n", spec.name,
                        spec.model->name(), spec.replicas, spec.length, spec.replicas * spec.length,
                        to_string(e.job.request.storage), format_bytes(spec.replicas * e.row_bytes), e.batches,
                        e.batch_replicas, format_bytes(std::max(e.host_bytes, e.backend_bytes)));
    if (!e.job.generation.summary.empty()) text += fmt::format("  {}\n", e.job.generation.summary);
    if (e.backend != plan.backend)
      text += fmt::format("  generated by backend {} (its threads generate {} faster)\n", to_string(e.backend),
                          spec.model->name());
  }
  text += fmt::format("total: {} samples, {} uncompressed, output {}\n", plan.total_samples,
                      format_bytes(plan.total_bytes), config.output.empty() ? "(none given)" : config.output);
  return text;
}

}  // namespace gs
