#include "host/requests/characteristics.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <numeric>

#include "host/base/interrupt.hpp"

namespace gs {

namespace {

// A session in path order: its file and its members (open, requests…, close
// as recorded), by index.
struct SessionTrace {
  std::int32_t file = -1;
  std::vector<std::size_t> members;
};

// The sessions of a path, by id, and each file's session ids in path order.
struct PathSessions {
  std::map<std::int64_t, SessionTrace> sessions;
  std::map<std::int32_t, std::vector<std::int64_t>> of_file;
};

FileClass class_of_file(const Workload& path, std::int32_t file) {
  return file < 0 ? FileClass::none : path.files[static_cast<std::size_t>(file)].file_class;
}

// What each request says on its own: execution times, the slack after the
// rank's previous request (with that request's time, as a pair), data offsets
// and sizes, the operations outside and inside sessions; and which session
// each belongs to.
PathSessions record_requests(const Workload& path, Characteristics& out, std::vector<FileShape>& shapes) {
  const RequestTable& t = path.table;
  struct Previous {
    double end = 0, duration = 0;
    OpClass op_class = OpClass::metadata;
  };
  std::map<std::int32_t, Previous> previous;  // per rank
  PathSessions found;
  for (std::size_t i = 0; i < t.requests.size(); ++i) {
    const Request& r = t.requests[i];
    const OpClass op_class = t.op_class(r);
    ClassCharacteristics& c = out.of(class_of_file(path, r.file));
    const double duration = to_nanoseconds(r.duration);
    if (auto it = previous.find(r.rank); it != previous.end()) {
      const double slack = to_nanoseconds(r.start - it->second.end);
      c.slack_time.push_back(slack);
      c.timing_pairs[static_cast<int>(op_class) * kOpClasses + static_cast<int>(it->second.op_class)].emplace_back(
          it->second.duration, slack);
    }
    Previous& p = previous[r.rank];
    p.end = std::max(p.end, r.start + r.duration);
    p.duration = duration;
    p.op_class = op_class;
    (is_data(op_class) ? c.data_execution_time : c.metadata_execution_time).push_back(duration);
    if (is_data(op_class) && r.offset != kUnknown && r.size != kUnknown) {
      c.offset.push_back(static_cast<double>(r.offset));
      c.request_size.push_back(static_cast<double>(r.size));
      if (r.file >= 0) {
        shapes[r.file].offsets.push_back(static_cast<double>(r.offset));
        shapes[r.file].sizes.push_back(static_cast<double>(r.size));
      }
    }
    if (r.session < 0 || r.file < 0) {
      c.types_outside.add(t.ops[r.op]);
      continue;
    }
    auto [it, fresh] = found.sessions.emplace(r.session, SessionTrace{});
    if (fresh) {
      it->second.file = r.file;
      found.of_file[r.file].push_back(r.session);
    }
    it->second.members.push_back(i);
    if (op_class != OpClass::open && op_class != OpClass::close) c.types_in_sessions.add(t.ops[r.op]);
  }
  return found;
}

// One session's (D, SEQ, AM), its operations, gaps (IRG), data sizes and
// offsets, and which data requests continue the one before; the offsets where
// a run starts go to the file's jump offsets.
SessionShape shape_of_session(const RequestTable& t, const SessionTrace& s, FileShape& file) {
  SessionShape shape;
  for (std::size_t k = 1; k < s.members.size(); ++k)
    shape.gaps.push_back(static_cast<double>(t.requests[s.members[k]].seq - t.requests[s.members[k - 1]].seq));
  std::size_t data = 0, sequential = 0;
  const Request* previous = nullptr;
  for (std::size_t m : s.members) {
    const Request& r = t.requests[m];
    const OpClass oc = t.op_class(r);
    if (oc != OpClass::open && oc != OpClass::close) shape.ops.push_back(r.op);
    if (!is_data(oc)) continue;
    shape.mode |= oc == OpClass::read ? kModeRead : kModeWrite;
    const bool continues = previous && previous->offset != kUnknown && previous->size != kUnknown &&
                           r.offset == previous->offset + previous->size;
    sequential += continues;
    shape.continues.push_back(continues);
    shape.sizes.push_back(r.size == kUnknown ? 0.0 : static_cast<double>(r.size));
    shape.offsets.push_back(r.offset == kUnknown ? 0.0 : static_cast<double>(r.offset));
    if (!continues && r.offset != kUnknown) file.jump_offsets.push_back(static_cast<double>(r.offset));
    previous = &r;
    ++data;
  }
  shape.requests = static_cast<double>(shape.ops.size());
  shape.sequentiality = data > 1 ? static_cast<double>(sequential) / static_cast<double>(data - 1) : 0.0;
  return shape;
}

// A file's sessions: OT, the gaps before each (ISG; the first open and the
// later gaps kept for file draws), and each session's shape.
void characterize_file_sessions(const Workload& path, const PathSessions& found, std::int32_t file,
                                const std::vector<std::int64_t>& list, Characteristics& out, FileShape& shape) {
  const RequestTable& t = path.table;
  ClassCharacteristics& c = out.of(class_of_file(path, file));
  c.file_open_times.push_back(static_cast<double>(list.size()));
  shape.open_times = static_cast<double>(list.size());
  std::int64_t previous_close = 0;
  for (std::int64_t id : list) {
    const SessionTrace& s = found.sessions.at(id);
    const Request& first = t.requests[s.members.front()];
    const Request& last = t.requests[s.members.back()];
    c.inter_session_gap.push_back(static_cast<double>(first.seq - previous_close));
    if (id == list.front()) {
      shape.first_open = static_cast<double>(first.seq);
    } else {
      c.later_session_gap.push_back(static_cast<double>(first.seq - previous_close));
      shape.later_gaps.push_back(static_cast<double>(first.seq - previous_close));
    }
    previous_close = last.seq;
    SessionShape session = shape_of_session(t, s, shape);
    c.inter_request_gap.insert(c.inter_request_gap.end(), session.gaps.begin(), session.gaps.end());
    if (session.continues.size() > 1) c.sequentiality.push_back(session.sequentiality);
    c.session_requests.push_back(session.requests);
    c.access_mode.add(access_mode_name(session.mode));
    shape.sessions.push_back(c.sessions.size());
    c.sessions.push_back(std::move(session));
  }
}

}  // namespace

Characteristics characterize_path(const Workload& path) {
  Characteristics out;
  std::vector<FileShape> shapes(path.files.size());
  for (std::size_t f = 0; f < path.files.size(); ++f) shapes[f].size = static_cast<double>(path.files[f].size);
  const PathSessions found = record_requests(path, out, shapes);
  for (const auto& [file, list] : found.of_file) characterize_file_sessions(path, found, file, list, out, shapes[file]);
  // Files that were never opened (operations outside sessions only) keep OT = 0.
  for (std::size_t f = 0; f < path.files.size(); ++f) {
    ClassCharacteristics& c = out.of(path.files[f].file_class);
    c.files += 1;
    c.files_in_path.push_back(static_cast<std::int32_t>(f));
    c.file_size.push_back(shapes[f].size);
    c.file_shapes.push_back(std::move(shapes[f]));
  }
  return out;
}

TraceCharacterization characterize_requests(const RequestTrace& trace) {
  TraceCharacterization out;
  out.sanitized = sanitize(trace, out.sanitize);
  std::vector<Workload> others;
  out.path = extract_path(out.sanitized, out.path_summary, &others);
  derive_soft_dependencies(out.path);
  out.characteristics = characterize_path(out.path);
  for (Workload& path : others) {
    throw_if_interrupted();
    derive_soft_dependencies(path);
    RankClassPath& k = out.other_classes.emplace_back();
    k.characteristics = characterize_path(path);
    k.path = std::move(path);
  }
  return out;
}

}  // namespace gs
