#include "host/requests/synthesize.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <numeric>
#include <queue>

#include "host/base/errors.hpp"
#include "host/base/interrupt.hpp"
#include "host/base/sysinfo.hpp"
#include "host/requests/random_draws.hpp"

namespace gs {

std::uint64_t replica_bytes(double requests, double files) {
  const double bytes = requests * static_cast<double>(kBytesPerRequest) + files * static_cast<double>(kBytesPerFile);
  return estimated_bytes(bytes);
}

namespace {

// The memory guard: `what` (requests and files) within options.max_replica_bytes.
void check_memory(const SynthesisOptions& options, double requests, double files, const std::string& what,
                  double states = 0) {
  const double all = static_cast<double>(replica_bytes(requests, files)) +
                     states * static_cast<double>(kBytesPerDependencyState);
  const std::uint64_t bytes = estimated_bytes(all);
  if (bytes <= options.max_replica_bytes) return;
  throw UserError(fmt::format(
      "{} would hold {:.0f} requests and {:.0f} files{}, about {} in memory; {}", what, requests, files,
      states > 0 ? fmt::format(" and check {:.0f} (process, file) pairs", states) : "", format_bytes(bytes),
      options.limit_note.empty() ? fmt::format("at most {} is allowed", format_bytes(options.max_replica_bytes))
                                 : options.limit_note));
}

class Sampler {
 public:
  Sampler(RandomDraws& rng, const SynthesisOptions& options) : rng_(rng), options_(options) {}
  // A draw from `samples` (`fallback` when empty), with the user's override of `c`.
  double draw(const std::vector<double>& samples, Characteristic c, double fallback) {
    return adjusted(draw(samples, fallback), c);
  }
  // A draw from `samples` (`fallback` when empty) that no override changes.
  double draw(const std::vector<double>& samples, double fallback) {
    return samples.empty() ? fallback : samples[rng_.index(samples.size())];
  }
  double adjusted(double x, Characteristic c) const {
    if (auto it = options_.overrides.find(c); it != options_.overrides.end())
      return it->second.scale * x + it->second.shift;
    return x;
  }
  // A difference of two values of `c` (a shared file's rank stride, of offsets) moves with its scale only.
  double adjusted_difference(double x, Characteristic c) const {
    if (auto it = options_.overrides.find(c); it != options_.overrides.end()) return it->second.scale * x;
    return x;
  }
  std::int64_t whole(double x, std::int64_t at_least) const {
    return std::max<std::int64_t>(at_least, static_cast<std::int64_t>(std::llround(std::min(x, 4.6e18))));
  }

 private:
  RandomDraws& rng_;
  const SynthesisOptions& options_;
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

// One session to place: its requests (open … close) at offsets from the open.
struct SessionPlan {
  std::vector<Request> requests;
  std::vector<std::int64_t> offsets;  // from the open, increasing; offsets[0] = 0
};

// A synthetic file: its template's shape and the sessions still to draw.
struct FilePlan {
  FileClass file_class = FileClass::private_file;
  std::int32_t file = -1;
  const FileShape* shape = nullptr;  // nullptr: the class's pools only (given characteristics)
  std::int64_t sessions_left = 0;
  std::vector<std::size_t> session_order;  // the template's sessions in order, when OT is its own
  std::vector<double> later_gaps;          // the template's ISGs after its first, likewise
  std::size_t sessions_done = 0;
  std::int64_t last_close = -1;
  double size = 0;  // FS the offsets stay within (0: unbounded)
};

// Sequence IDs taken so far. A session is placed whole, its gaps (IRG) as
// drawn, at the free place nearest to where it wants to open (not before
// `earliest`), so no ID is used twice.
class Occupancy {
 public:
  // IDs beyond it come from overrides far outside any trace (and would not fit in memory).
  static constexpr std::int64_t kMaxSequenceId = 100'000'000;

  std::int64_t place(std::int64_t desired, std::int64_t earliest, const std::vector<std::int64_t>& offsets) {
    desired = std::max(desired, earliest);
    if (desired > kMaxSequenceId || offsets.back() > kMaxSequenceId)
      throw UserError(
          fmt::format("a synthetic session wants sequence IDs beyond {} (ISG or IRG overrides too "
                      "large?); accepted: paths of at most 10^8 requests",
                      kMaxSequenceId));
    const auto fits = [&](std::int64_t start) {
      for (std::int64_t o : offsets)
        if (taken(start + o)) return false;
      return true;
    };
    std::int64_t start = desired;
    for (std::int64_t delta = 0;; ++delta) {
      poll_interrupts(static_cast<std::uint64_t>(delta) + 1);
      if (fits(desired + delta)) {
        start = desired + delta;
        break;
      }
      if (delta > 0 && desired - delta >= earliest && fits(desired - delta)) {
        start = desired - delta;
        break;
      }
    }
    for (std::int64_t o : offsets) mark(start + o);
    return start;
  }

 private:
  bool taken(std::int64_t at) const { return static_cast<std::size_t>(at) < used_.size() && used_[at]; }
  void mark(std::int64_t at) {
    if (static_cast<std::size_t>(at) >= used_.size()) used_.resize(static_cast<std::size_t>(at) * 2 + 64, false);
    used_[at] = true;
  }
  std::vector<bool> used_;
};

// A data request to place: its operation, size, and where it starts (or that
// it continues where the previous one ended).
struct DataRequest {
  std::uint32_t op = 0;
  double size = 0, offset = 0;
  bool continues = false;
};

// A real session's data requests, each in its place with its operation and
// size; the regions its runs (a jump and the requests continuing from it)
// visit are exchanged at random between runs of the same operations and
// length. A draw that would join two runs into one sequential run (or leave
// nothing to exchange) keeps the recorded offsets (8 tries).
std::vector<DataRequest> recorded_runs_shuffled(const SessionShape& shape, const RequestTable& table,
                                                RandomDraws& rng) {
  std::vector<DataRequest> recorded;
  std::size_t k = 0;
  for (std::uint32_t op : shape.ops) {
    if (!is_data(table.op_classes[op])) continue;
    recorded.push_back({op, shape.sizes[k], shape.offsets[k], k < shape.continues.size() && shape.continues[k]});
    ++k;
  }
  std::map<std::vector<std::uint32_t>, std::vector<std::size_t>> alike;  // run's operations -> its first requests
  for (std::size_t i = 0; i < recorded.size();) {
    std::size_t end = i + 1;
    while (end < recorded.size() && recorded[end].continues) ++end;
    std::vector<std::uint32_t> key;
    for (std::size_t j = i; j < end; ++j) key.push_back(recorded[j].op);
    alike[key].push_back(i);
    i = end;
  }
  for (int attempt = 0; attempt < 8; ++attempt) {
    std::vector<DataRequest> out = recorded;
    for (auto& [_, starts] : alike) {
      std::vector<double> targets;
      for (std::size_t i : starts) targets.push_back(recorded[i].offset);
      rng.shuffle(targets);
      for (std::size_t m = 0; m < starts.size(); ++m) out[starts[m]].offset = targets[m];
    }
    bool joined = false;
    double end = -1;
    for (const DataRequest& d : out) {
      const double offset = d.continues ? end : d.offset;
      joined = joined || (!d.continues && offset == end);
      end = offset + d.size;
    }
    if (!joined) return out;
  }
  return recorded;
}

// Data requests drawn: exactly round(SEQ·(n−1)) of the n continue the
// previous one, at random; sizes from the template file (else the class),
// the other offsets from where the template file's non-continuing requests
// began (else the class's OFF), moved so the run from them ends inside FS.
std::vector<DataRequest> drawn_data_requests(const std::vector<std::uint32_t>& ops, const RequestTable& table,
                                             const FilePlan& plan, const ClassCharacteristics& c, double sequentiality,
                                             RandomDraws& rng, Sampler& sample) {
  std::vector<DataRequest> out;
  for (std::uint32_t op : ops)
    if (is_data(table.op_classes[op])) out.push_back({op, 0, 0, false});
  const std::size_t n = out.size();
  const std::size_t continuing = n > 1 ? static_cast<std::size_t>(std::llround(sequentiality * double(n - 1))) : 0;
  std::vector<char> continues(n, 0);
  for (std::size_t k = 0; k < continuing; ++k) continues[1 + k] = 1;
  for (std::size_t k = n; k > 2; --k) {
    poll_interrupts(k);
    std::swap(continues[k - 1], continues[1 + rng.index(k - 1)]);
  }
  const auto pool = [](const std::vector<double>& own,
                       const std::vector<double>& fallback) -> const std::vector<double>& {
    return !own.empty() ? own : fallback;
  };
  const std::vector<double>& sizes = plan.shape ? pool(plan.shape->sizes, c.request_size) : c.request_size;
  const std::vector<double>& jumps =
      plan.shape ? pool(plan.shape->jump_offsets, pool(plan.shape->offsets, c.offset)) : c.offset;
  for (std::size_t k = 0; k < n; ++k) {
    poll_interrupts(k);
    out[k].size = sizes.empty() ? 4096.0 : sizes[rng.index(sizes.size())];
    out[k].continues = continues[k];
  }
  for (std::size_t k = 0; k < n; ++k) {
    poll_interrupts(k);
    if (out[k].continues) continue;
    double run = sample.adjusted(out[k].size, Characteristic::SIZE);
    for (std::size_t j = k + 1; j < n && out[j].continues; ++j)
      run += sample.adjusted(out[j].size, Characteristic::SIZE);
    double offset = jumps.empty() ? 0.0 : jumps[rng.index(jumps.size())];
    for (int tries = 0; tries < 32 && !jumps.empty() && plan.size >= run &&
                        sample.adjusted(offset, Characteristic::OFF) + run > plan.size;
         ++tries)
      offset = jumps[rng.index(jumps.size())];
    out[k].offset = offset;
  }
  return out;
}

// The SIZE and OFF overrides on every request (as synthesis applies them to
// drawn values: a data request keeps at least 1 byte) and on the shared
// files' rank strides (a difference of offsets: scaled only).
void scale_requests(Workload& w, const SynthesisOptions& options) {
  RandomDraws unused({}, 0);
  const Sampler sample(unused, options);
  for (FileInfo& f : w.files)
    f.rank_stride = std::llround(sample.adjusted_difference(static_cast<double>(f.rank_stride), Characteristic::OFF));
  for (Request& r : w.table.requests) {
    if (r.size != kUnknown && r.size > 0)
      r.size = sample.whole(sample.adjusted(static_cast<double>(r.size), Characteristic::SIZE), 1);
    if (r.offset != kUnknown && r.offset >= 0)
      r.offset = sample.whole(sample.adjusted(static_cast<double>(r.offset), Characteristic::OFF), 0);
  }
}

// Each file as large as its requests reach.
void size_files_by_reach(Workload& w) {
  for (FileInfo& f : w.files) f.size = 0;
  for (const Request& r : w.table.requests)
    if (r.file >= 0 && r.offset != kUnknown && r.size != kUnknown && r.size > 0)
      w.files[r.file].size = std::max(w.files[r.file].size, r.offset + r.size);
}

// The path itself, its times from its first request.
Workload template_copy(const Workload& path, const SynthesisOptions& options) {
  Workload copy = path;
  double origin = 0;
  if (!copy.table.requests.empty()) origin = copy.table.requests.front().start;
  for (Request& r : copy.table.requests) {
    r.start -= origin;
    if (!(r.start + r.duration <= kMaxRequestSeconds))
      throw UserError(
          fmt::format("mode: template: the trace's requests reach {} s after its first, beyond 10^9 s "
                      "(about 31.7 years), the latest time the outputs take",
                      r.start + r.duration));
  }
  check_memory(options, static_cast<double>(copy.table.requests.size()), static_cast<double>(copy.files.size()),
               "the template path");
  return copy;
}

// mode: template: the path itself, its times from its first request, its
// requests scaled by the SIZE and OFF overrides (and its files then as large as
// they reach), as the replay's original is.
Workload template_path(const Workload& path, const SynthesisOptions& options) {
  Workload copy = template_copy(path, options);
  if (options.overrides.count(Characteristic::SIZE) || options.overrides.count(Characteristic::OFF)) {
    scale_requests(copy, options);
    size_files_by_reach(copy);
  }
  return copy;
}

// One synthetic path as it is built, step by step: the files planned after
// real files of their classes, their sessions placed whole in the order of
// their desired opens, the holes between them filled with metadata operations
// (RT2), and the requests timed by slack (ST). The random draws come in this
// order, so that a path is the same for the same key and replica.
class PathBuilder {
 public:
  PathBuilder(const Workload& path, const Characteristics& characteristics, const SynthesisOptions& options,
              std::uint32_t replica, std::uint32_t rank_class)
      : path(path),
        characteristics(characteristics),
        options(options),
        rng(RandomDraws::of_rank_class(options.key, replica, rank_class)),
        sample(rng, options) {
    out.processes = path.processes;
    out.seek_before = path.seek_before;
    for (const auto& op : path.table.ops) out.table.op_id(op);  // the same ids as the path's
  }

  Workload build() {
    for (int ci = 0; ci < kClassesWithFiles; ++ci) plan_class(ci);
    while (!next_session.empty()) place_next_session();
    std::sort(placed.begin(), placed.end(), [](const Request& a, const Request& b) { return a.seq < b.seq; });
    fill_holes();
    time_requests();
    return std::move(out);
  }

 private:
  using Entry = std::pair<std::int64_t, std::size_t>;  // desired open, file plan

  // Files: each follows a real file of its class (the path's files once each,
  // then drawn at random): file draws take its first open, OT, FS and
  // sessions; class draws take those from the class's distributions.
  void plan_class(int ci) {
    const FileClass file_class = static_cast<FileClass>(ci);
    const ClassCharacteristics& c = characteristics.classes[ci];
    const std::uint64_t count = options.files[ci].value_or(static_cast<std::uint64_t>(c.files));
    if (count == 0) return;
    // A class whose files were never opened (named only by metadata) keeps
    // its files, without sessions, for the RT2 operations of the holes.
    const bool has_sessions = !c.sessions.empty() || !c.types_in_sessions.names.empty();
    if (c.files_in_path.empty() || (!has_sessions && options.files[ci]))
      throw UserError(fmt::format("{} {} files asked for, but the characteristics have no {} session to draw from",
                                  count, file_class_name(file_class), file_class_name(file_class)));
    open_close[ci] = session_ops(path, file_class, out.table);
    const std::size_t templates = c.files_in_path.size();
    check_memory(options, 0, static_cast<double>(count) + static_cast<double>(out.files.size()),
                 fmt::format("a synthetic path of {} {} files", count, file_class_name(file_class)));
    for (std::uint64_t k = 0; k < count; ++k) {
      throw_if_interrupted();
      const std::size_t pick = k < templates ? k : rng.index(templates);
      const std::int32_t source = c.files_in_path[pick];
      // Beyond the path's files: <name>.s<k>, made unique if a trace file has that name.
      std::string suffix = k >= templates ? fmt::format(".s{}", k) : "";
      while (k >= templates && out.table.has_file(path.table.files[source] + suffix)) suffix += "_";
      FilePlan plan;
      plan.file_class = file_class;
      plan.file = out.table.file_id(path.table.files[source] + suffix);
      out.files.resize(out.table.files.size());
      FileInfo& info = out.files[plan.file];
      info = path.files[source];
      info.size = 0;
      // Rank r reaches offset + r·stride: the stride is scaled as the offsets are (OFF).
      info.rank_stride =
          std::llround(sample.adjusted_difference(static_cast<double>(info.rank_stride), Characteristic::OFF));
      info.name.root_name = out.table.files[plan.file];
      if (info.name.learned) info.name.texts.back() += suffix;
      files_of_class[ci].push_back(plan.file);
      std::int64_t first_open = 0;
      if (options.draw == SynthesisOptions::Draw::file && pick < c.file_shapes.size()) {
        plan.shape = &c.file_shapes[pick];
        plan.sessions_left = sample.whole(sample.adjusted(plan.shape->open_times, Characteristic::OT), 0);
        if (static_cast<std::size_t>(plan.sessions_left) == plan.shape->sessions.size()) {
          plan.session_order = plan.shape->sessions;
          plan.later_gaps = plan.shape->later_gaps;
        }
        plan.size = sample.adjusted(plan.shape->size, Characteristic::FS);
        first_open = sample.whole(sample.adjusted(plan.shape->first_open, Characteristic::ISG), 0);
      } else {
        plan.sessions_left = sample.whole(sample.draw(c.file_open_times, Characteristic::OT, 1), 1);
        plan.size = sample.draw(c.file_size, Characteristic::FS, 0);
        first_open = sample.whole(sample.draw(c.inter_session_gap, Characteristic::ISG, 1), 0);
      }
      if (!has_sessions) plan.sessions_left = 0;
      files.push_back(plan);
      if (plan.sessions_left > 0) next_session.emplace(first_open, files.size() - 1);
    }
  }

  // (D, SEQ, AM) and the operations of one real session of the template
  // file (of the class, for given characteristics).
  SessionShape session_shape(const FilePlan& plan, const ClassCharacteristics& c) {
    SessionShape shape;
    if (!plan.session_order.empty()) {
      shape = c.sessions[plan.session_order[plan.sessions_done]];
    } else if (plan.shape && !plan.shape->sessions.empty()) {
      shape = c.sessions[plan.shape->sessions[rng.index(plan.shape->sessions.size())]];
    } else if (!c.sessions.empty()) {
      shape = c.sessions[rng.index(c.sessions.size())];
    } else {
      shape.requests = c.session_requests.empty() ? 1.0 : c.session_requests[rng.index(c.session_requests.size())];
      shape.sequentiality = c.sequentiality.empty() ? 0.0 : c.sequentiality[rng.index(c.sequentiality.size())];
      const Frequencies& am = c.access_mode;
      shape.mode = am.names.empty() ? kModeRead | kModeWrite
                                    : access_mode_flags(am.names[rng.weighted(am.counts, am.total())]).value_or(0);
    }
    return shape;
  }

  // The operations: the real session's in order when D is unchanged, else drawn from
  // them (or from RT1 within the access mode, for given characteristics).
  std::vector<std::uint32_t> session_operations(const SessionShape& shape, std::int64_t requests,
                                                const ClassCharacteristics& c) {
    std::vector<std::uint32_t> ops;
    if (!shape.ops.empty() && static_cast<std::size_t>(requests) == shape.ops.size()) {
      ops = shape.ops;
    } else if (!shape.ops.empty()) {
      for (std::int64_t d = 0; d < requests; ++d) {
        poll_interrupts(static_cast<std::uint64_t>(d));
        ops.push_back(shape.ops[rng.index(shape.ops.size())]);
      }
    } else {
      const Frequencies& rt1 = c.types_in_sessions;
      std::vector<double> weights;
      double total = 0;
      for (std::size_t i = 0; i < rt1.names.size(); ++i) {
        const OpClass oc = out.table.op_classes[out.table.op_id(rt1.names[i])];
        const bool allowed = !is_data(oc) || (oc == OpClass::read && (shape.mode & kModeRead)) ||
                             (oc == OpClass::write && (shape.mode & kModeWrite));
        weights.push_back(allowed ? rt1.counts[i] : 0.0);
        total += weights.back();
      }
      for (std::int64_t d = 0; total > 0 && d < requests; ++d) {
        poll_interrupts(static_cast<std::uint64_t>(d));
        ops.push_back(out.table.op_id(rt1.names[rng.weighted(weights, total)]));
      }
    }
    return ops;
  }

  // The session of `plan` (open, its requests, close) with each request's
  // offset in sequence IDs from the open (IRG), its data requests sized and placed.
  SessionPlan build_session(FilePlan& plan, const SessionShape& shape, const std::vector<std::uint32_t>& ops,
                            double sequentiality) {
    const int ci = static_cast<int>(plan.file_class);
    const ClassCharacteristics& c = characteristics.classes[ci];
    FileInfo& info = out.files[plan.file];
    SessionPlan plan_of_session;
    Request open;
    open.file = plan.file;
    open.op = open_close[ci].first;
    open.session = session++;
    open.flags = shape.mode | (plan.file_class == FileClass::root_exclusive ? kRootExclusive : 0u);
    plan_of_session.requests.push_back(open);
    plan_of_session.offsets.push_back(0);
    std::int64_t at = 0;
    // IRG: the real session's own gaps (file draws; moving them would collide
    // with the sessions interleaved with it), else the class's.
    const bool as_recorded = plan.shape && !shape.ops.empty() && ops == shape.ops;
    std::vector<double> gaps;
    if (as_recorded && shape.gaps.size() == ops.size() + 1) gaps = shape.gaps;
    std::size_t gap_index = 0;
    const auto next_gap = [&] {
      const double gap = gaps.empty() ? sample.draw(c.inter_request_gap, Characteristic::IRG, 1)
                                      : sample.adjusted(gaps[gap_index++], Characteristic::IRG);
      return sample.whole(std::min(gap, double(Occupancy::kMaxSequenceId) + 1), 1);
    };
    const std::vector<DataRequest> data_requests =
        as_recorded && !options.overrides.count(Characteristic::SEQ) && shape.sizes.size() == shape.offsets.size()
            ? recorded_runs_shuffled(shape, out.table, rng)
            : drawn_data_requests(ops, out.table, plan, c, sequentiality, rng, sample);
    std::size_t data_index = 0;
    std::int64_t previous_end = kUnknown;
    std::uint64_t step = 0;
    for (std::uint32_t op : ops) {
      poll_interrupts(++step);
      at += next_gap();
      Request r = open;
      r.flags &= kRootExclusive;
      r.op = op;
      if (is_data(out.table.op_classes[op]) && data_index < data_requests.size()) {
        const DataRequest& d = data_requests[data_index++];
        r.op = d.op;
        const double size = sample.adjusted(d.size, Characteristic::SIZE);
        const double offset = d.continues && previous_end != kUnknown ? static_cast<double>(previous_end)
                                                                      : sample.adjusted(d.offset, Characteristic::OFF);
        // Beyond 2^62 no offset + size is kept (docs/requests.md): never clipped in silence.
        if (!(std::max(offset, 0.0) + std::max(size, 0.0) <= kMaxRequestBytes && offset < kMaxRequestBytes))
          throw UserError(
              fmt::format("a synthetic {} of file '{}' would reach byte {:.17g} (offset {:.17g} + size "
                          "{:.17g}), beyond 2^62; accepted: offset + size up to 2^62 (are OFF, SIZE or "
                          "their overrides too large?)",
                          out.table.ops[d.op], out.table.files[plan.file], std::max(offset, 0.0) + std::max(size, 0.0),
                          offset, size));
        r.size = sample.whole(size, d.size > 0 ? 1 : 0);  // a request scaled below 1 byte keeps 1: it still happens
        r.offset = sample.whole(offset, 0);
        previous_end = r.offset + r.size;
        info.size = std::max(info.size, previous_end);
      }
      plan_of_session.requests.push_back(r);
      plan_of_session.offsets.push_back(at);
    }
    Request close = open;
    close.op = open_close[ci].second;
    close.flags &= kRootExclusive;
    at += next_gap();
    plan_of_session.requests.push_back(close);
    plan_of_session.offsets.push_back(at);
    return plan_of_session;
  }

  // The session that wants to open first, placed whole where it fits; the
  // file's next session queued after its gap (ISG).
  void place_next_session() {
    throw_if_interrupted();
    const auto [desired, index] = next_session.top();
    next_session.pop();
    FilePlan& plan = files[index];
    const ClassCharacteristics& c = characteristics.classes[static_cast<int>(plan.file_class)];
    const SessionShape shape = session_shape(plan, c);
    const std::int64_t requests = sample.whole(sample.adjusted(shape.requests, Characteristic::D), 0);
    // Before the session is built: its requests alone may be more than any path holds.
    if (requests > Occupancy::kMaxSequenceId)
      throw UserError(
          fmt::format("a synthetic session of {} requests (D) is longer than a path may be; accepted: "
                      "paths of at most 10^8 requests (is a D override too large?)",
                      requests));
    check_memory(options, static_cast<double>(placed.size()) + static_cast<double>(requests) + 2,
                 static_cast<double>(out.files.size()), "the synthetic path");
    const double sequentiality = std::clamp(sample.adjusted(shape.sequentiality, Characteristic::SEQ), 0.0, 1.0);
    const std::vector<std::uint32_t> ops = session_operations(shape, requests, c);
    SessionPlan plan_of_session = build_session(plan, shape, ops, sequentiality);
    const std::int64_t at = plan_of_session.offsets.back();
    const std::int64_t start = occupancy.place(desired, plan.last_close + 1, plan_of_session.offsets);
    plan.last_close = start + at;
    for (std::size_t k = 0; k < plan_of_session.requests.size(); ++k) {
      plan_of_session.requests[k].seq = start + plan_of_session.offsets[k];
      placed.push_back(plan_of_session.requests[k]);
    }
    ++plan.sessions_done;
    if (--plan.sessions_left > 0) {
      double gap = 0;
      if (plan.sessions_done <= plan.later_gaps.size())
        gap = sample.adjusted(plan.later_gaps[plan.sessions_done - 1], Characteristic::ISG);
      else
        gap = sample.draw(c.later_session_gap.empty() ? c.inter_session_gap : c.later_session_gap, Characteristic::ISG,
                          1);
      next_session.emplace(plan.last_close + sample.whole(gap, 1), index);
    }
  }

  // Holes: metadata operations drawn from RT2 (those that need no open file),
  // on a file of the class they were seen on.
  // Without RT2 the holes stay unused sequence IDs (gaps keep their meaning).
  void fill_holes() {
    std::vector<double> weights;
    std::vector<std::pair<int, std::uint32_t>> choices;
    for (int ci = 0; ci < kFileClassCount; ++ci) {
      const Frequencies& rt2 = characteristics.classes[ci].types_outside;
      for (std::size_t i = 0; i < rt2.names.size(); ++i) {
        const std::uint32_t op = out.table.op_id(rt2.names[i]);
        if (out.table.op_classes[op] != OpClass::metadata) continue;  // needs an open file: not in a hole
        weights.push_back(rt2.counts[i]);
        choices.emplace_back(ci, op);
      }
    }
    const double total = std::accumulate(weights.begin(), weights.end(), 0.0);
    std::vector<Request>& requests = out.table.requests;
    if (total > 0 && !placed.empty())  // the holes filled: every ID up to the last
      check_memory(options, static_cast<double>(placed.back().seq) + 1, static_cast<double>(out.files.size()),
                   "the synthetic path with its holes filled (RT2)");
    requests.reserve(placed.size());
    std::int64_t next = 0;
    for (const Request& p : placed) {
      for (; total > 0 && next < p.seq; ++next) {
        poll_interrupts(static_cast<std::uint64_t>(next));
        const auto [ci, op] = choices[rng.weighted(weights, total)];
        Request r;
        r.op = op;
        r.seq = next;
        const auto& candidates = files_of_class[ci];
        if (!candidates.empty()) r.file = candidates[rng.index(candidates.size())];
        if (ci == static_cast<int>(FileClass::root_exclusive)) r.flags = kRootExclusive;
        requests.push_back(r);
      }
      requests.push_back(p);
      next = p.seq + 1;
    }
  }

  // Slack-time timing: each request starts ST after the requests before it
  // ended. A request's execution time and the slack after it are drawn
  // together, as a real pair of the same operation classes (else each on its
  // own); a start before the previous start is drawn again (16 tries), then clipped.
  void time_requests() {
    std::vector<Request>& requests = out.table.requests;
    double previous_start = 0, previous_end = 0, slack = 0;
    const auto class_of = [&](const Request& r) -> const ClassCharacteristics& {
      return characteristics.of(r.file < 0 ? FileClass::none : out.files[r.file].file_class);
    };
    for (std::size_t i = 0; i < requests.size(); ++i) {
      poll_interrupts(i);
      Request& r = requests[i];
      const ClassCharacteristics& c = class_of(r);
      r.start = i == 0 ? 0.0 : to_nanoseconds(std::max(previous_start, previous_end + slack));
      const auto& own = is_data(out.table.op_class(r)) ? c.data_execution_time : c.metadata_execution_time;
      if (i + 1 < requests.size()) {
        const Request& next = requests[i + 1];
        const ClassCharacteristics& n = class_of(next);
        const auto& pairs = n.timing_pairs[static_cast<int>(out.table.op_class(next)) * kOpClasses +
                                           static_cast<int>(out.table.op_class(r))];
        const double end_before = std::max(previous_end, r.start);
        for (int tries = 0; tries < 16; ++tries) {
          if (!pairs.empty()) {
            const auto& [duration, after] = pairs[rng.index(pairs.size())];
            r.duration = duration;
            slack = sample.adjusted(after, Characteristic::ST);
          } else {
            r.duration = sample.draw(own, 0);
            slack = sample.draw(n.slack_time, Characteristic::ST, 0);
          }
          if (std::max(end_before, r.start + r.duration) + slack >= r.start) break;
        }
      } else {
        r.duration = sample.draw(own, 0);
      }
      r.duration = std::max(0.0, r.duration);
      if (!(r.start + r.duration <= kMaxRequestSeconds))
        throw UserError(
            fmt::format("synthetic request {} would start at {:.6g} s and end at {:.6g} s, beyond 10^9 s "
                        "(about 31.7 years), the latest time the outputs take: the slack (ST) or execution "
                        "times, or the ST override, are too large",
                        i, r.start, r.start + r.duration));
      previous_start = r.start;
      previous_end = std::max(previous_end, r.start + r.duration);
    }
  }

  const Workload& path;
  const Characteristics& characteristics;
  const SynthesisOptions& options;
  RandomDraws rng;
  Sampler sample;
  Workload out;
  std::vector<FilePlan> files;
  std::vector<std::vector<std::int32_t>> files_of_class = std::vector<std::vector<std::int32_t>>(kFileClassCount);
  std::array<std::pair<std::uint32_t, std::uint32_t>, kClassesWithFiles> open_close{};
  std::priority_queue<Entry, std::vector<Entry>, std::greater<>> next_session;
  Occupancy occupancy;
  std::vector<Request> placed;
  std::int64_t session = 0;
};

}  // namespace

Workload synthesize_path(const Workload& path, const Characteristics& characteristics, const SynthesisOptions& options,
                         std::uint32_t replica, std::uint32_t rank_class) {
  if (options.template_mode) return template_path(path, options);
  return PathBuilder(path, characteristics, options, replica, rank_class).build();
}

SynthesisSource synthesis_source(const TraceCharacterization& characterized) {
  SynthesisSource source;
  const auto& classes = characterized.path_summary.rank_classes;
  if (classes.size() != characterized.other_classes.size() + 1)
    throw InternalError("synthesis_source",
                        fmt::format("{} rank classes, {} paths of classes other than the root's", classes.size(),
                                    characterized.other_classes.size()),
                        __FILE__, __LINE__);
  if (classes.size() > kMaxRankClasses)
    throw UserError(fmt::format("the trace's ranks do {} different things (rank classes); at most {} are synthesized",
                                classes.size(), kMaxRankClasses));
  source.classes.push_back({&characterized.path, &characterized.characteristics, classes.front().front()});
  for (std::size_t c = 1; c < classes.size(); ++c) {
    const RankClassPath& other = characterized.other_classes[c - 1];
    source.classes.push_back({&other.path, &other.characteristics, classes[c].front()});
  }
  std::map<std::int32_t, std::uint32_t> class_of;
  for (std::size_t c = 0; c < classes.size(); ++c)
    for (std::int32_t rank : classes[c]) class_of[rank] = static_cast<std::uint32_t>(c);
  for (const auto& [rank, c] : class_of) {  // by rank: the root, the smallest, first
    source.roles.push_back(rank);
    source.role_class.push_back(c);
  }
  return source;
}

SynthesisSource synthesis_source(const Workload& path, const Characteristics& characteristics) {
  return {{{&path, &characteristics, 0}}, {0}, {0}};
}

// Fisher–Yates over the M roles, process i the (i mod M)-th (round after
// round; the last, partial round a random subset), a root card moved to
// process 0 (or put there when none was dealt), then Fisher–Yates over
// processes 1 … N − 1.
std::vector<std::uint32_t> deal_roles(std::size_t roles, std::size_t processes, RngStreamKey key,
                                      std::uint32_t replica) {
  std::vector<std::uint32_t> cards(processes, 0);
  if (roles <= 1 || processes == 0) return cards;
  RandomDraws draws(key, replica, kRoleDraws);
  std::vector<std::uint32_t> deck(roles);
  std::iota(deck.begin(), deck.end(), 0u);
  draws.shuffle(deck);
  for (std::size_t i = 0; i < cards.size(); ++i) cards[i] = deck[i % deck.size()];
  const auto root_card = std::find(cards.begin(), cards.end(), 0u);
  if (root_card != cards.end())
    std::iter_swap(cards.begin(), root_card);
  else
    cards.front() = 0;
  draws.shuffle(cards, 1);
  return cards;
}

namespace {

// The copies `p` processes of one rank class make of a path's request (Expansion::makes, counted), of a
// file's name and of a file's open state (the (process, file) pairs the dependency check follows).
double request_copies(const Request& r, double p) { return (r.flags & kRootExclusive) ? 1.0 : p; }
double file_copies(FileClass c, double p) { return c == FileClass::private_file ? p : 1.0; }
double state_copies(FileClass c, double p) { return c == FileClass::root_exclusive ? 1.0 : p; }

// The classes' paths a replica's processes run (a class no process takes
// left empty) and the roles behind them.
ClassPaths class_paths(const SynthesisSource& source, const SynthesisOptions& options, std::uint32_t replica,
                       std::int32_t processes) {
  ClassPaths paths;
  const std::vector<std::uint32_t> cards =
      deal_roles(source.roles.size(), static_cast<std::size_t>(std::max(processes, 0)), options.key, replica);
  std::vector<bool> taken(source.classes.size(), false);
  for (std::uint32_t card : cards) {
    paths.process_class.push_back(source.role_class[card]);
    paths.process_rank.push_back(source.roles[card]);
    taken[source.role_class[card]] = true;
  }
  for (std::size_t c = 0; c < source.classes.size(); ++c) {
    const SynthesisSource::Class& k = source.classes[c];
    paths.ranks.push_back(k.rank);
    paths.paths.emplace_back();
    if (!taken[c]) continue;
    paths.paths.back() = synthesize_path(*k.path, *k.characteristics, options, replica, static_cast<std::uint32_t>(c));
    lower_soft_dependencies(paths.paths.back());
  }
  return paths;
}

}  // namespace

Expansion synthesize_replica(const SynthesisSource& source, const SynthesisOptions& options, std::uint32_t replica,
                             std::int32_t processes, bool whole) {
  ClassPaths paths = class_paths(source, options, replica, processes);
  // Before the expansion names its files: root-exclusive requests stay on process 0, private files multiply.
  // The dependency check follows each file on each process that uses it (a root-exclusive one on process 0).
  std::vector<double> members(paths.paths.size(), 0.0);
  for (std::uint32_t c : paths.process_class) members[c] += 1;
  double path_requests = 0, requests = 0, files = 0, states = 0;
  for (std::size_t c = 0; c < paths.paths.size(); ++c) {
    const Workload& synthetic = paths.paths[c];
    const double p = members[c];
    path_requests += static_cast<double>(synthetic.table.requests.size());
    for (const Request& r : synthetic.table.requests) requests += request_copies(r, p);
    for (const FileInfo& f : synthetic.files) {
      files += file_copies(f.file_class, p);
      states += state_copies(f.file_class, p);
    }
  }
  if (whole)
    check_memory(options, requests, files, fmt::format("the replica of {} processes", processes), states);
  else
    check_memory(options, path_requests + std::min(requests, static_cast<double>(kStreamedRequests)), files,
                 fmt::format("the replica of {} processes, written as it is made,", processes), states);
  return Expansion(std::move(paths));
}

Workload synthesize_processes(const SynthesisSource& source, const SynthesisOptions& options, std::uint32_t replica,
                              std::int32_t processes) {
  Expansion expansion = synthesize_replica(source, options, replica, processes, true);
  return drained(expansion);
}

Workload replay_original(const Workload& sanitized, const SynthesisOptions& options) {
  Workload original = template_copy(sanitized, options);
  original.files.assign(original.table.files.size(), FileInfo{});
  scale_requests(original, options);
  size_files_by_reach(original);
  return original;
}

namespace {

// The mean of f over `samples` (`fallback` when there are none).
template <class F>
double mean_of(const std::vector<double>& samples, double fallback, F f) {
  if (samples.empty()) return f(fallback);
  double sum = 0;
  for (double x : samples) sum += f(x);
  return sum / static_cast<double>(samples.size());
}

// The requests template mode makes of `path`: those only the root issues and
// those every process issues (a data request after a seek, "<op>1", gets its
// seek back).
std::pair<double, double> template_requests(const Workload& path) {
  double root_only = 0, everyone = 0;
  for (const Request& r : path.table.requests) {
    const auto form = is_data(path.table.op_class(r)) ? soft_dependency_form(path.table.op_name(r)) : std::nullopt;
    const double n = form && form->after_seek ? 2.0 : 1.0;
    ((r.flags & kRootExclusive) ? root_only : everyone) += n;
  }
  return {root_only, everyone};
}

// One rank class's expected size, run by `p` processes.
SynthesisSize expected_class_size(const Workload& path, const Characteristics& characteristics,
                                  const SynthesisOptions& options, double p) {
  SynthesisSize size;
  if (options.template_mode) {
    const auto [root_only, everyone] = template_requests(path);
    size.path_requests = root_only + everyone;
    size.replica_requests = root_only + everyone * p;
    for (const FileInfo& f : path.files) {
      size.replica_files += file_copies(f.file_class, p);
      size.replica_states += state_copies(f.file_class, p);
    }
    return size;
  }
  RandomDraws unused({}, 0);
  Sampler sample(unused, options);
  const auto whole = [&](Characteristic name, double at_least) {
    return [&sample, name, at_least](double x) {
      return std::max(at_least, std::round(std::min(sample.adjusted(x, name), 4.6e18)));
    };
  };
  bool holes = false;
  for (const ClassCharacteristics& c : characteristics.classes)
    for (std::size_t i = 0; i < c.types_outside.names.size(); ++i)
      holes =
          holes || (classify_operation(c.types_outside.names[i]) == OpClass::metadata && c.types_outside.counts[i] > 0);
  double root_only = 0, everyone = 0, last_id = 0;
  for (int ci = 0; ci < kClassesWithFiles; ++ci) {
    const FileClass file_class = static_cast<FileClass>(ci);
    const ClassCharacteristics& c = characteristics.classes[ci];
    const double count = static_cast<double>(options.files[ci].value_or(static_cast<std::uint64_t>(c.files)));
    size.replica_files += count * file_copies(file_class, p);
    size.replica_states += count * state_copies(file_class, p);
    if (count == 0 || (c.sessions.empty() && c.types_in_sessions.names.empty())) continue;
    const bool file_draws = options.draw == SynthesisOptions::Draw::file && !c.file_shapes.empty();
    // Sessions per file (OT), requests per session (D, with its open and close), and one file's span of IDs.
    double sessions = 0, first_open = 0;
    if (file_draws) {
      for (const FileShape& f : c.file_shapes) {
        sessions += whole(Characteristic::OT, 0)(f.open_times);
        first_open += whole(Characteristic::ISG, 0)(f.first_open);
      }
      sessions /= static_cast<double>(c.file_shapes.size());
      first_open /= static_cast<double>(c.file_shapes.size());
    } else {
      sessions = mean_of(c.file_open_times, 1, whole(Characteristic::OT, 1));
      first_open = mean_of(c.inter_session_gap, 1, whole(Characteristic::ISG, 0));
    }
    std::vector<double> d = c.session_requests;
    if (!c.sessions.empty()) {
      d.clear();
      for (const SessionShape& shape : c.sessions) d.push_back(shape.requests);
    }
    const double requests = mean_of(d, 1, whole(Characteristic::D, 0)) + 2;
    const double irg = mean_of(c.inter_request_gap, 1, whole(Characteristic::IRG, 1));
    const double isg = mean_of(c.later_session_gap.empty() ? c.inter_session_gap : c.later_session_gap, 1,
                               whole(Characteristic::ISG, 1));
    (file_class == FileClass::root_exclusive ? root_only : everyone) += count * sessions * requests;
    last_id = std::max(last_id, first_open + sessions * (requests - 1) * irg + std::max(sessions - 1, 0.0) * isg);
  }
  // With RT2, the holes between the sessions' IDs are filled up to the last.
  if (holes) everyone += std::max(0.0, last_id + 1 - root_only - everyone);
  // No path holds more than its sequence IDs (a larger one is refused as it is drawn).
  const double most = static_cast<double>(Occupancy::kMaxSequenceId) + 1;
  if (root_only + everyone > most) {
    const double scale = most / (root_only + everyone);
    root_only *= scale;
    everyone *= scale;
  }
  size.path_requests = root_only + everyone;
  size.replica_requests = root_only + everyone * p;
  return size;
}

// One rank class's expected volume, run by `p` processes.
SynthesisVolume expected_class_volume(const Workload& path, const SynthesisOptions& options, double p,
                                      const SynthesisSize& size) {
  RandomDraws unused({}, 0);
  const Sampler sample(unused, options);
  SynthesisVolume v;
  for (const Request& r : path.table.requests) {
    const double copies = request_copies(r, p);
    const OpClass c = path.table.op_class(r);
    if (!is_data(c) || r.size <= 0) continue;
    const double bytes = std::max(1.0, sample.adjusted(static_cast<double>(r.size), Characteristic::SIZE));
    (c == OpClass::read ? v.reads : v.writes) += copies;
    (c == OpClass::read ? v.bytes_read : v.bytes_written) += copies * bytes;
  }
  const auto [root_only, everyone] = template_requests(path);
  const double path_requests = root_only + everyone * p;  // what template mode makes for these processes
  if (!options.template_mode && path_requests > 0) {
    const double drawn = size.replica_requests / path_requests;
    v.reads *= drawn, v.writes *= drawn, v.bytes_read *= drawn, v.bytes_written *= drawn;
  }
  return v;
}

// The processes expected in each rank class: its share of the trace's ranks,
// the root's class at least process 0.
std::vector<double> class_processes(const SynthesisSource& source, std::int32_t processes) {
  const double n = std::max(processes, 1), roles = static_cast<double>(source.roles.size());
  std::vector<double> p(source.classes.size(), 0.0);
  for (std::uint32_t c : source.role_class) p[c] += 1;  // the class's ranks
  for (double& share : p) share = n * share / roles;
  p.front() = std::max(p.front(), 1.0);
  return p;
}

}  // namespace

SynthesisExpectation expected_synthesis(const SynthesisSource& source, const SynthesisOptions& options,
                                        std::int32_t processes) {
  const std::vector<double> p = class_processes(source, processes);
  SynthesisExpectation e;
  for (std::size_t c = 0; c < source.classes.size(); ++c) {
    const SynthesisSource::Class& k = source.classes[c];
    // The class's own expected size, so that its draws scale its own requests.
    const SynthesisSize size = expected_class_size(*k.path, *k.characteristics, options, p[c]);
    const SynthesisVolume volume = expected_class_volume(*k.path, options, p[c], size);
    e.size.path_requests += size.path_requests;
    e.size.replica_requests += size.replica_requests;
    e.size.replica_files += size.replica_files;
    e.size.replica_states += size.replica_states;
    e.volume.reads += volume.reads, e.volume.writes += volume.writes;
    e.volume.bytes_read += volume.bytes_read, e.volume.bytes_written += volume.bytes_written;
  }
  return e;
}

std::uint64_t DependencyReport::total() const {
  std::uint64_t sum = 0;
  for (const auto& [_, n] : violations) sum += n;
  return sum;
}

void DependencyChecker::violation(DependencyReport& report, const char* kind, std::size_t index) {
  if (report.violations[kind]++ < 3) report.examples.emplace_back(kind, index);
}

void DependencyChecker::add(const RequestTable& table, const Request& r, std::size_t index) {
  if (r.file < 0) return;
  const OpClass c = table.op_class(r);
  if (c == OpClass::metadata) return;
  State& s = states_[static_cast<std::uint64_t>(static_cast<std::uint32_t>(r.rank)) << 32 |
                     static_cast<std::uint32_t>(r.file)];
  if (c == OpClass::open) {
    if (s.open) violation(report_, "double_open", index);
    s.open = true;
    s.mode = r.flags & (kModeRead | kModeWrite);
    return;
  }
  if (!s.open) {
    violation(report_, s.was_closed ? "after_close" : "outside_session", index);
    return;
  }
  if (c == OpClass::close) {
    s.open = false;
    s.was_closed = true;
  } else if (c == OpClass::write && !(s.mode & kModeWrite)) {
    violation(report_, "write_in_read_only", index);
  } else if (c == OpClass::read && !(s.mode & kModeRead)) {
    violation(report_, "read_in_write_only", index);
  }
}

DependencyReport DependencyChecker::report() const {
  DependencyReport report = report_;
  for (const auto& [key, s] : states_)
    if (s.open) violation(report, "unclosed", 0);
  return report;
}

DependencyReport check_dependencies(const Workload& workload) {
  const RequestTable& t = workload.table;
  std::vector<std::size_t> order(t.requests.size());
  std::iota(order.begin(), order.end(), 0);
  std::uint64_t comparisons = 0;
  std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
    poll_interrupts(++comparisons);
    const Request &x = t.requests[a], &y = t.requests[b];
    return std::tie(x.rank, x.seq) < std::tie(y.rank, y.seq);
  });
  DependencyChecker checker;
  std::uint64_t step = 0;
  for (std::size_t index : order) {
    poll_interrupts(++step);
    checker.add(t, t.requests[index], index);
  }
  return checker.report();
}

}  // namespace gs
