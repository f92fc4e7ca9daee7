#include "host/requests/synthesize.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <numeric>

#include "host/base/errors.hpp"

namespace gs {

namespace {

// Uniforms from Philox at (key, replica, position): four per call, in order.
class RandomDraws {
 public:
  RandomDraws(RngStreamKey key, std::uint32_t replica) : key_(key), replica_(replica) {}
  double uniform() {
    if (left_ == 0) {
      bits_ = philox_bits(key_, replica_, position_++, 0);
      left_ = 4;
    }
    return uniform_open(bits_[4 - left_--]);
  }
  std::size_t index(std::size_t n) { return std::min(n - 1, static_cast<std::size_t>(uniform() * static_cast<double>(n))); }
  std::size_t weighted(const std::vector<double>& weights, double total) {
    double target = uniform() * total;
    for (std::size_t i = 0; i < weights.size(); ++i) {
      if (target < weights[i]) return i;
      target -= weights[i];
    }
    return weights.size() - 1;
  }

 private:
  RngStreamKey key_;
  std::uint32_t replica_;
  std::uint64_t position_ = 0;
  PhiloxBits bits_{};
  int left_ = 0;
};

class Sampler {
 public:
  Sampler(RandomDraws& rng, const SynthesisOptions& options) : rng_(rng), options_(options) {}
  // A draw from `samples` (`fallback` when empty), with the user's override of `short_name`.
  double draw(const std::vector<double>& samples, const char* short_name, double fallback) {
    const double x = samples.empty() ? fallback : samples[rng_.index(samples.size())];
    return adjusted(x, short_name);
  }
  double adjusted(double x, const char* short_name) const {
    if (auto it = options_.overrides.find(short_name); it != options_.overrides.end())
      return it->second.scale * x + it->second.shift;
    return x;
  }
  std::int64_t whole(double x, std::int64_t at_least) const {
    return std::max<std::int64_t>(at_least, static_cast<std::int64_t>(std::llround(std::min(x, 9e18))));
  }

 private:
  RandomDraws& rng_;
  const SynthesisOptions& options_;
};

struct Placed {
  std::int64_t desired;
  Request request;
};

// The open and close operations the path uses for a class (MPI-IO or POSIX).
std::pair<std::uint32_t, std::uint32_t> session_ops(const Workload& path, FileClass c, RequestTable& out) {
  for (const Request& r : path.table.requests) {
    if (r.file < 0 || path.files[r.file].file_class != c || path.table.op_class(r) != OpClass::open) continue;
    const bool mpi = is_mpi_operation(path.table.op_name(r));
    return {out.op_id(path.table.op_name(r)), out.op_id(mpi ? "MPI_File_close" : "close")};
  }
  return {out.op_id("open"), out.op_id("close")};
}

}  // namespace

const std::vector<std::string>& overridable_characteristics() {
  static const std::vector<std::string> names = {"ISG", "IRG", "D", "OT", "FS", "OFF", "SIZE", "SEQ", "ST"};
  return names;
}

Workload synthesize_path(const Workload& path, const Characteristics& characteristics, const SynthesisOptions& options,
                         std::uint32_t replica) {
  if (options.template_mode) {
    Workload copy = path;
    double origin = 0;
    if (!copy.table.requests.empty()) origin = copy.table.requests.front().start;
    for (Request& r : copy.table.requests) r.start -= origin;
    return copy;
  }
  RandomDraws rng(options.key, replica);
  Sampler sample(rng, options);
  Workload out;
  out.processes = path.processes;
  out.seek_before = path.seek_before;
  for (const auto& op : path.table.ops) out.table.op_id(op);
  std::vector<Placed> placed;
  std::vector<std::vector<std::int32_t>> files_of_class(kFileClasses + 1);
  std::int64_t session = 0;
  for (int ci = 0; ci < kFileClasses; ++ci) {
    const FileClass file_class = static_cast<FileClass>(ci);
    const ClassCharacteristics& c = characteristics.classes[ci];
    const std::uint64_t files = options.files[ci].value_or(static_cast<std::uint64_t>(c.files));
    if (files == 0) continue;
    if (c.files_in_path.empty() || (c.sessions.empty() && c.types_in_sessions.names.empty()))
      throw UserError(fmt::format("{} {} files asked for, but the characteristics have no {} session to draw from",
                                  files, file_class_name(file_class), file_class_name(file_class)));
    const auto [open_op, close_op] = session_ops(path, file_class, out.table);
    // RT1 weights per access mode.
    const Frequencies& rt1 = c.types_in_sessions;
    std::vector<std::uint32_t> rt1_ops;
    for (const auto& name : rt1.names) rt1_ops.push_back(out.table.op_id(name));
    for (std::uint64_t k = 0; k < files; ++k) {
      const std::size_t templates = c.files_in_path.size();
      const std::int32_t source = c.files_in_path[k % templates];
      const std::string suffix = k >= templates ? fmt::format(".s{}", k / templates) : "";
      const std::int32_t file = out.table.file_id(path.table.files[source] + suffix);
      out.files.resize(out.table.files.size());
      FileInfo& info = out.files[file];
      info = path.files[source];
      info.size = 0;
      info.name.root_name = out.table.files[file];
      if (info.name.learned) info.name.texts.back() += suffix;
      files_of_class[ci].push_back(file);
      const double file_size = sample.draw(c.file_size, "FS", 0);
      const std::int64_t sessions = sample.whole(sample.draw(c.file_open_times, "OT", 1), 1);
      std::int64_t previous_close = 0;
      for (std::int64_t s = 0; s < sessions; ++s, ++session) {
        // A real session's (D, SEQ, AM) together; given characteristics: each drawn on its own.
        SessionShape shape;
        if (!c.sessions.empty()) {
          shape = c.sessions[rng.index(c.sessions.size())];
        } else {
          shape.requests = c.session_requests.empty() ? 1.0 : c.session_requests[rng.index(c.session_requests.size())];
          shape.sequentiality = c.sequentiality.empty() ? 0.0 : c.sequentiality[rng.index(c.sequentiality.size())];
          const Frequencies& am = c.access_mode;
          const std::string mode = am.names.empty() ? "read_write" : am.names[rng.weighted(am.counts, am.total())];
          shape.mode = (mode == "read_only" || mode == "read_write" ? kModeRead : 0u) |
                       (mode == "write_only" || mode == "read_write" ? kModeWrite : 0u);
        }
        const std::int64_t requests = sample.whole(sample.adjusted(shape.requests, "D"), 0);
        const double sequentiality = std::clamp(sample.adjusted(shape.sequentiality, "SEQ"), 0.0, 1.0);
        std::vector<double> weights(rt1.counts.size(), 0.0);
        double total = 0;
        for (std::size_t i = 0; i < weights.size(); ++i) {
          const OpClass oc = out.table.op_classes[rt1_ops[i]];
          const bool allowed = !is_data(oc) || (oc == OpClass::read && (shape.mode & kModeRead)) ||
                               (oc == OpClass::write && (shape.mode & kModeWrite));
          weights[i] = allowed ? rt1.counts[i] : 0.0;
          total += weights[i];
        }
        std::int64_t seq = previous_close + sample.whole(sample.draw(c.inter_session_gap, "ISG", 1), 0);
        Request open;
        open.file = file;
        open.op = open_op;
        open.session = session;
        open.flags = shape.mode | (file_class == FileClass::root_exclusive ? kRootExclusive : 0u);
        placed.push_back({seq, open});
        std::int64_t previous_offset = kUnknown, previous_size = kUnknown;
        for (std::int64_t d = 0; d < requests && total > 0; ++d) {
          seq += sample.whole(sample.draw(c.inter_request_gap, "IRG", 1), 1);
          Request r = open;
          r.flags &= kRootExclusive;
          r.op = rt1_ops[rng.weighted(weights, total)];
          if (is_data(out.table.op_classes[r.op])) {
            r.size = sample.whole(sample.draw(c.request_size, "SIZE", 4096), 1);
            if (previous_offset != kUnknown && rng.uniform() < sequentiality) {
              r.offset = previous_offset + previous_size;
            } else {
              r.offset = sample.whole(sample.draw(c.offset, "OFF", 0), 0);
              if (file_size > static_cast<double>(r.size) && static_cast<double>(r.offset + r.size) > file_size)
                r.offset %= static_cast<std::int64_t>(file_size) - r.size;
            }
            previous_offset = r.offset;
            previous_size = r.size;
            info.size = std::max(info.size, r.offset + r.size);
          }
          placed.push_back({seq, r});
        }
        Request close = open;
        close.op = close_op;
        close.flags &= kRootExclusive;
        seq += sample.whole(sample.draw(c.inter_request_gap, "IRG", 1), 1);
        placed.push_back({seq, close});
        previous_close = seq;
      }
    }
  }
  // Merge by sequence ID: each keeps its place unless taken, then the next free one.
  std::stable_sort(placed.begin(), placed.end(), [](const Placed& a, const Placed& b) { return a.desired < b.desired; });
  std::int64_t last = -1;
  for (Placed& p : placed) {
    p.request.seq = std::max(p.desired, last + 1);
    last = p.request.seq;
  }
  // Holes: metadata operations drawn from RT2, a file of the class they were seen on.
  std::vector<double> weights;
  std::vector<std::pair<int, std::uint32_t>> choices;
  for (int ci = 0; ci <= kFileClasses; ++ci) {
    const Frequencies& rt2 = characteristics.classes[ci].types_outside;
    for (std::size_t i = 0; i < rt2.names.size(); ++i) {
      weights.push_back(rt2.counts[i]);
      choices.emplace_back(ci, out.table.op_id(rt2.names[i]));
    }
  }
  const double total = std::accumulate(weights.begin(), weights.end(), 0.0);
  std::vector<Request>& requests = out.table.requests;
  requests.reserve(placed.size());
  if (total > 0) {
    std::int64_t next = 0;
    for (const Placed& p : placed) {
      for (; next < p.request.seq; ++next) {
        const auto [ci, op] = choices[rng.weighted(weights, total)];
        Request r;
        r.op = op;
        r.seq = next;
        const auto& candidates = files_of_class[ci];
        if (!candidates.empty()) r.file = candidates[rng.index(candidates.size())];
        if (ci == static_cast<int>(FileClass::root_exclusive)) r.flags = kRootExclusive;
        requests.push_back(r);
      }
      requests.push_back(p.request);
      next = p.request.seq + 1;
    }
  } else {
    for (const Placed& p : placed) {
      requests.push_back(p.request);
      requests.back().seq = static_cast<std::int64_t>(requests.size() - 1);
    }
  }
  // Slack-time timing: each request starts ST after the previous one ended.
  double previous_start = 0, previous_end = 0;
  for (std::size_t i = 0; i < requests.size(); ++i) {
    Request& r = requests[i];
    const ClassCharacteristics& c =
        characteristics.classes[r.file < 0 ? kFileClasses : static_cast<int>(out.files[r.file].file_class)];
    const double slack = sample.draw(c.slack_time, "ST", 0);
    r.start = i == 0 ? 0.0 : std::max(previous_start, previous_end + slack);
    r.duration = std::max(0.0, sample.draw(is_data(out.table.op_class(r)) ? c.data_execution_time
                                                                          : c.metadata_execution_time,
                                           "", 0));
    previous_start = r.start;
    previous_end = std::max(previous_end, r.start + r.duration);
  }
  return out;
}

void sort_for_issue(Workload& workload) {
  auto& requests = workload.table.requests;
  std::stable_sort(requests.begin(), requests.end(),
                   [](const Request& a, const Request& b) { return std::tie(a.seq, a.rank) < std::tie(b.seq, b.rank); });
}

std::uint64_t time_by_counts(Workload& workload, const std::vector<double>& counts, double bin_width) {
  sort_for_issue(workload);
  std::vector<std::uint64_t> targets(counts.size());
  double sum = 0;
  for (std::size_t k = 0; k < counts.size(); ++k) {
    targets[k] = counts[k] > 0 ? static_cast<std::uint64_t>(std::llround(std::min(counts[k], 1e15))) : 0;
    sum += static_cast<double>(targets[k]);
  }
  const double mean = counts.empty() ? 0.0 : sum / static_cast<double>(counts.size());
  const double spacing = bin_width / std::max(mean, 1e-9);  // beyond the counts
  std::size_t bin = 0;
  std::uint64_t in_bin = 0, beyond = 0, full_bins = 0;
  double time = 0;
  for (Request& r : workload.table.requests) {
    if (is_data(workload.table.op_class(r))) {
      while (bin < targets.size() && in_bin >= targets[bin]) {
        ++bin;
        in_bin = 0;
      }
      if (bin < targets.size()) {
        time = bin_width * (static_cast<double>(bin) +
                            (static_cast<double>(in_bin) + 0.5) / static_cast<double>(targets[bin]));
        if (++in_bin == targets[bin]) ++full_bins;
      } else {
        time = bin_width * static_cast<double>(targets.size()) + (static_cast<double>(beyond++) + 0.5) * spacing;
      }
    }
    r.start = time;
  }
  // Empty bins count as filled when the data requests reached past them.
  for (std::size_t k = 0; k < std::min(bin, targets.size()); ++k) full_bins += targets[k] == 0;
  return full_bins;
}

std::uint64_t DependencyReport::total() const {
  std::uint64_t sum = 0;
  for (const auto& [_, n] : violations) sum += n;
  return sum;
}

DependencyReport check_dependencies(const Workload& workload) {
  const RequestTable& t = workload.table;
  std::vector<std::size_t> order(t.requests.size());
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
    const Request &x = t.requests[a], &y = t.requests[b];
    return std::tie(x.rank, x.seq) < std::tie(y.rank, y.seq);
  });
  struct State {
    bool open = false, was_closed = false;
    std::uint32_t mode = 0;
  };
  std::map<std::pair<std::int32_t, std::int32_t>, State> states;
  DependencyReport report;
  const auto violation = [&](const char* kind, std::size_t index) {
    if (report.violations[kind]++ < 3) report.examples.emplace_back(kind, index);
  };
  for (std::size_t index : order) {
    const Request& r = t.requests[index];
    if (r.file < 0) continue;
    const OpClass c = t.op_class(r);
    if (c == OpClass::metadata) continue;
    State& s = states[{r.rank, r.file}];
    if (c == OpClass::open) {
      if (s.open) violation("double_open", index);
      s.open = true;
      s.mode = r.flags & (kModeRead | kModeWrite);
      continue;
    }
    if (!s.open) {
      violation(s.was_closed ? "after_close" : "outside_session", index);
      continue;
    }
    if (c == OpClass::close) {
      s.open = false;
      s.was_closed = true;
    } else if (c == OpClass::write && !(s.mode & kModeWrite)) {
      violation("write_in_read_only", index);
    } else if (c == OpClass::read && !(s.mode & kModeRead)) {
      violation("read_in_write_only", index);
    }
  }
  for (const auto& [key, s] : states)
    if (s.open) violation("unclosed", 0);
  return report;
}

}  // namespace gs
