#include "host/requests/workload.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <map>
#include <numeric>
#include <optional>
#include <tuple>
#include <unordered_map>

#include "host/base/errors.hpp"
#include "host/base/interrupt.hpp"
#include "host/base/text.hpp"

namespace gs {

namespace {

// A name cut into texts and digit runs: "out_17.dat" -> {"out_", ".dat"}, {"17"}.
void split_numbers(const std::string& name, std::vector<std::string>& texts, std::vector<std::string>& numbers) {
  texts.assign(1, "");
  numbers.clear();
  for (std::size_t i = 0; i < name.size();) {
    if (std::isdigit(static_cast<unsigned char>(name[i]))) {
      std::size_t end = i;
      while (end < name.size() && std::isdigit(static_cast<unsigned char>(name[end]))) ++end;
      numbers.push_back(name.substr(i, end - i));
      texts.emplace_back();
      i = end;
    } else {
      texts.back() += name[i++];
    }
  }
}

}  // namespace

NamePattern learn_name_pattern(const std::vector<std::pair<std::int64_t, std::string>>& names) {
  NamePattern pattern;
  pattern.root_name = names.front().second;
  if (names.size() < 2) return pattern;
  std::vector<std::string> texts, numbers, other_texts, other_numbers;
  split_numbers(names.front().second, texts, numbers);
  const std::int64_t root = names.front().first;
  std::vector<NamePattern::Number> fitted(numbers.size());
  std::vector<bool> step_known(numbers.size(), false);
  for (std::size_t i = 0; i < numbers.size(); ++i) {
    if (numbers[i].size() > 9) return pattern;  // not a counter (and base + step·rank stays far from overflow)
    fitted[i].width = numbers[i].size() > 1 && numbers[i][0] == '0' ? numbers[i].size() : 0;
    fitted[i].base = std::stoll(numbers[i]);
  }
  for (std::size_t k = 1; k < names.size(); ++k) {
    split_numbers(names[k].second, other_texts, other_numbers);
    if (other_texts != texts || other_numbers.size() != numbers.size()) return pattern;
    const std::int64_t dr = names[k].first - root;
    if (dr == 0) return pattern;
    for (std::size_t i = 0; i < numbers.size(); ++i) {
      if (other_numbers[i].size() > 9) return pattern;
      const std::int64_t dv = std::stoll(other_numbers[i]) - std::stoll(numbers[i]);
      if (dv % dr != 0) return pattern;
      if (!step_known[i]) {
        fitted[i].step = dv / dr;
        step_known[i] = true;
      } else if (fitted[i].step != dv / dr) {
        return pattern;
      }
    }
  }
  for (auto& n : fitted) n.base -= n.step * root;  // the value at rank 0
  if (std::all_of(fitted.begin(), fitted.end(), [](const auto& n) { return n.step == 0; })) return pattern;
  pattern.texts = texts;
  pattern.numbers = fitted;
  pattern.learned = true;
  return pattern;
}

namespace {

// Folds POSIX calls into the MPI-IO call of the same rank, file, offset and
// size whose time span holds them (DXT prints times to 10^-4 s).
std::vector<bool> absorbed_posix_calls(const RequestTable& table) {
  constexpr double kTimeSlack = 1e-4;
  using Key = std::tuple<std::int32_t, std::int32_t, std::int64_t, std::int64_t>;
  std::map<Key, std::vector<std::pair<double, double>>> mpi_spans;
  for (const Request& r : table.requests)
    if (is_mpi_operation(table.op_name(r)))
      mpi_spans[{r.rank, r.file, r.offset, r.size}].emplace_back(r.start, r.start + r.duration);
  std::vector<bool> absorbed(table.requests.size(), false);
  if (mpi_spans.empty()) return absorbed;
  for (std::size_t i = 0; i < table.requests.size(); ++i) {
    const Request& r = table.requests[i];
    if (is_mpi_operation(table.op_name(r))) continue;
    const auto it = mpi_spans.find({r.rank, r.file, r.offset, r.size});
    if (it == mpi_spans.end()) continue;
    for (const auto& [begin, end] : it->second)
      if (r.start >= begin - kTimeSlack && r.start + r.duration <= end + kTimeSlack) {
        absorbed[i] = true;
        break;
      }
  }
  return absorbed;
}

std::uint32_t mode_flags(bool reads, bool writes) { return (reads ? kModeRead : 0u) | (writes ? kModeWrite : 0u); }

// Sessions as recorded, over one (rank, file)'s requests in time order: open
// … close; operations between a close and the next open are outside. Each
// open gets its session's access mode.
void recorded_sessions(const std::vector<Request*>& requests, const std::vector<OpClass>& classes,
                       std::int64_t& next_session, SanitizeSummary& summary) {
  std::int64_t session = -1;
  Request* open = nullptr;
  bool reads = false, writes = false;
  const auto close_mode = [&] {
    if (open) open->flags |= mode_flags(reads, writes);
  };
  for (Request* r : requests) {
    const OpClass c = classes[r->op];
    if (c == OpClass::open) {
      close_mode();
      session = next_session++;
      ++summary.sessions;
      open = r;
      reads = writes = false;
      r->session = session;
    } else if (c == OpClass::close) {
      r->session = session;
      close_mode();
      open = nullptr;
      session = -1;
    } else if (c != OpClass::metadata) {
      r->session = session;
      reads |= c == OpClass::read;
      writes |= c == OpClass::write;
    }
  }
  close_mode();
}

// The opens darshan counted for (rank, file): MPI-IO opens for MPI-IO requests,
// POSIX opens otherwise; a shared record (rank -1) divided by the ranks using
// the file; 1 without a count.
std::uint64_t counted_opens(const RequestTrace& trace, bool mpi, std::int32_t rank, const std::string& file,
                            std::uint64_t ranks_using) {
  const auto& counted = mpi ? trace.mpiio_opens : trace.posix_opens;
  if (auto it = counted.find({rank, file}); it != counted.end() && it->second > 0) return it->second;
  if (auto shared = counted.find({-1, file}); shared != counted.end() && shared->second > 0)
    return std::max<std::uint64_t>(1, (shared->second + ranks_using / 2) / std::max<std::uint64_t>(1, ranks_using));
  return 1;
}

}  // namespace

namespace {

// A kept request with its sort key: (rank, order), order its place among the
// kept requests in (rank, start) order; inferred opens and closes go a quarter
// before and after the requests of their session.
struct Keyed {
  Request request;
  double order;
};

// The operations an inferred session opens and closes with (POSIX or MPI-IO).
struct SessionOps {
  std::uint32_t open, close, mpi_open, mpi_close;
};

// Where the sessions of one (rank, file) without a recorded open or close end:
// cut[g] after member g, `opens` sessions (darshan's count), cut first where
// the direction changes (a file written, then read back), then at the longest
// idle gaps.
std::vector<bool> session_cuts(const std::vector<std::size_t>& members, const std::vector<Keyed>& rows,
                               const RequestTable& in, std::uint64_t opens) {
  std::vector<std::size_t> gaps(members.size() - 1);
  std::iota(gaps.begin(), gaps.end(), 0);
  const auto idle = [&](std::size_t g) {
    const Request &a = rows[members[g]].request, &b = rows[members[g + 1]].request;
    return b.start - (a.start + a.duration);
  };
  const auto turns = [&](std::size_t g) {
    return in.op_classes[rows[members[g]].request.op] != in.op_classes[rows[members[g + 1]].request.op];
  };
  std::stable_sort(gaps.begin(), gaps.end(), [&](std::size_t a, std::size_t b) {
    return std::make_pair(turns(a), idle(a)) > std::make_pair(turns(b), idle(b));
  });
  std::vector<bool> cut(members.size(), false);
  for (std::uint64_t k = 0; k + 1 < opens; ++k) cut[gaps[k]] = true;
  cut.back() = true;
  return cut;
}

// The sessions of one (rank, file) that recorded no open or close, inferred:
// its requests (metadata aside) cut into darshan's count of opens, each
// session's requests numbered, and an open and a close for each in `added`.
void infer_sessions(const RequestTrace& trace, std::int32_t rank, std::int32_t file,
                    const std::vector<std::size_t>& members, std::uint64_t ranks_using, const SessionOps& ops,
                    std::vector<Keyed>& rows, std::vector<Keyed>& added, std::int64_t& next_session,
                    SanitizeSummary& summary) {
  const RequestTable& in = trace.table;
  std::vector<std::size_t> in_session;
  for (std::size_t m : members)
    if (in.op_classes[rows[m].request.op] != OpClass::metadata) in_session.push_back(m);
  if (in_session.empty()) return;
  const bool mpi = is_mpi_operation(in.ops[rows[in_session.front()].request.op]);
  const std::uint64_t opens =
      std::min<std::uint64_t>(counted_opens(trace, mpi, rank, in.files[file], ranks_using), in_session.size());
  const std::vector<bool> cut = session_cuts(in_session, rows, in, opens);
  std::size_t first = 0;
  for (std::size_t g = 0; g < in_session.size(); ++g) {
    if (!cut[g]) continue;
    const std::int64_t session = next_session++;
    ++summary.sessions;
    ++summary.inferred_sessions;
    bool reads = false, writes = false;
    double end = 0;
    for (std::size_t j = first; j <= g; ++j) {
      Request& r = rows[in_session[j]].request;
      r.session = session;
      reads |= in.op_classes[r.op] == OpClass::read;
      writes |= in.op_classes[r.op] == OpClass::write;
      end = std::max(end, r.start + r.duration);
    }
    const Keyed& head = rows[in_session[first]];
    const Keyed& tail = rows[in_session[g]];
    if (g + 1 < in_session.size()) end = std::min(end, rows[in_session[g + 1]].request.start);
    Request open = head.request;
    open.op = mpi ? ops.mpi_open : ops.open;
    open.offset = open.size = kUnknown;
    open.duration = 0;
    open.flags = kInferred | mode_flags(reads, writes);
    Request close = open;
    close.op = mpi ? ops.mpi_close : ops.close;
    close.start = std::max(end, tail.request.start);
    close.flags = kInferred;
    added.push_back({open, head.order - 0.25});
    added.push_back({close, tail.order + 0.25});
    first = g + 1;
  }
}

// The requests that are not absorbed into an MPI-IO call, in (rank, start)
// order, each with its place as its order.
std::vector<Keyed> kept_requests(const RequestTable& in, SanitizeSummary& summary) {
  const std::vector<bool> absorbed = absorbed_posix_calls(in);
  std::vector<std::size_t> kept;
  for (std::size_t i = 0; i < in.requests.size(); ++i) {
    if (absorbed[i]) {
      ++summary.absorbed;
      continue;
    }
    kept.push_back(i);
  }
  std::stable_sort(kept.begin(), kept.end(), [&](std::size_t a, std::size_t b) {
    const Request &x = in.requests[a], &y = in.requests[b];
    return std::tie(x.rank, x.start) < std::tie(y.rank, y.start);
  });
  std::vector<Keyed> rows;
  rows.reserve(kept.size() + kept.size() / 2);
  for (std::size_t k = 0; k < kept.size(); ++k) rows.push_back({in.requests[kept[k]], static_cast<double>(k)});
  return rows;
}

}  // namespace

Workload sanitize(const RequestTrace& trace, SanitizeSummary& summary) {
  const RequestTable& in = trace.table;
  summary.read = in.requests.size();
  Workload out;
  for (const auto& name : in.ops) out.table.op_id(name);  // the same ids as the trace's
  for (const auto& name : in.files) out.table.file_id(name);
  out.files.resize(in.files.size());
  out.processes = std::max(trace.ranks, 1);

  std::vector<Keyed> rows = kept_requests(in, summary);
  // Per (rank, file): the indices of its requests in time order.
  std::map<std::pair<std::int32_t, std::int32_t>, std::vector<std::size_t>> by_file;
  for (std::size_t k = 0; k < rows.size(); ++k)
    if (rows[k].request.file >= 0) by_file[{rows[k].request.rank, rows[k].request.file}].push_back(k);
  std::vector<std::uint64_t> ranks_using(in.files.size(), 0);
  for (const auto& [key, _] : by_file) ++ranks_using[key.second];
  std::int64_t next_session = 0;
  const SessionOps ops{out.table.op_id("open"), out.table.op_id("close"), out.table.op_id("MPI_File_open"),
                       out.table.op_id("MPI_File_close")};
  std::vector<Keyed> added;
  for (auto& [key, members] : by_file) {
    throw_if_interrupted();
    const auto& [rank, file] = key;
    const bool explicit_sessions = std::any_of(members.begin(), members.end(), [&](std::size_t m) {
      const OpClass c = in.op_classes[rows[m].request.op];
      return c == OpClass::open || c == OpClass::close;
    });
    if (explicit_sessions) {
      std::vector<Request*> requests;
      for (std::size_t m : members) requests.push_back(&rows[m].request);
      recorded_sessions(requests, in.op_classes, next_session, summary);
    } else {
      infer_sessions(trace, rank, file, members, ranks_using[file], ops, rows, added, next_session, summary);
    }
  }
  rows.insert(rows.end(), added.begin(), added.end());
  std::sort(rows.begin(), rows.end(), [](const Keyed& a, const Keyed& b) {
    return std::tie(a.request.rank, a.order) < std::tie(b.request.rank, b.order);
  });
  out.table.requests.reserve(rows.size());
  for (const Keyed& k : rows) out.table.requests.push_back(k.request);
  return out;
}

namespace {

// LCS alignment of two token sequences: for each element of `a`, the index
// of its partner in `b` or -1. Common ends are matched first (diff's trick).
std::vector<std::int64_t> align(const std::vector<std::uint64_t>& a, const std::vector<std::uint64_t>& b) {
  std::vector<std::int64_t> partner(a.size(), -1);
  std::size_t head = 0;
  while (head < a.size() && head < b.size() && a[head] == b[head]) {
    partner[head] = static_cast<std::int64_t>(head);
    ++head;
  }
  std::size_t tail = 0;
  while (tail < a.size() - head && tail < b.size() - head && a[a.size() - 1 - tail] == b[b.size() - 1 - tail]) {
    partner[a.size() - 1 - tail] = static_cast<std::int64_t>(b.size() - 1 - tail);
    ++tail;
  }
  const std::size_t n = a.size() - head - tail, m = b.size() - head - tail;
  if (n == 0 || m == 0) return partner;
  if (static_cast<std::uint64_t>(n) * m > kMaxAlignmentCells)
    throw UserError(
        fmt::format("cannot align {} root requests with {} of a child ({} cells; at most {}): trace "
                    "fewer ranks or a shorter run",
                    a.size(), b.size(), n * m, kMaxAlignmentCells));
  // lengths[i][j]: LCS of a[head+i..] and b[head+j..], row by row.
  std::vector<std::uint32_t> lengths((n + 1) * (m + 1), 0);
  const auto at = [&](std::size_t i, std::size_t j) -> std::uint32_t& { return lengths[i * (m + 1) + j]; };
  for (std::size_t i = n; i-- > 0;) {
    for (std::size_t j = m; j-- > 0;)
      at(i, j) = a[head + i] == b[head + j] ? at(i + 1, j + 1) + 1 : std::max(at(i + 1, j), at(i, j + 1));
  }
  for (std::size_t i = 0, j = 0; i < n && j < m;) {
    if (a[head + i] == b[head + j]) {
      partner[head + i] = static_cast<std::int64_t>(head + j);
      ++i;
      ++j;
    } else if (at(i + 1, j) >= at(i, j + 1)) {
      ++i;
    } else {
      ++j;
    }
  }
  return partner;
}

// The requests of every rank in order, which ranks touch each file, and each
// rank's shadow: its (operation, file) sequence with shared files by id and
// the rank's own files by order of first use, so that ranks doing the same
// thing on their own files align.
struct RankShadows {
  std::map<std::int32_t, std::vector<std::size_t>> by_rank;  // sanitize sorted by rank, then time
  std::vector<std::vector<std::int32_t>> ranks_of_file;
  std::map<std::int32_t, std::vector<std::uint64_t>> shadows;
  std::map<std::int32_t, std::vector<std::int32_t>> own_files;  // rank -> its single-rank files by first use

  bool is_shared(std::int32_t file) const { return file >= 0 && ranks_of_file[file].size() > 1; }
};

RankShadows rank_shadows(const RequestTable& in) {
  RankShadows out;
  for (std::size_t i = 0; i < in.requests.size(); ++i) out.by_rank[in.requests[i].rank].push_back(i);
  out.ranks_of_file.resize(in.files.size());
  for (const Request& r : in.requests)
    if (r.file >= 0 && (out.ranks_of_file[r.file].empty() || out.ranks_of_file[r.file].back() != r.rank))
      out.ranks_of_file[r.file].push_back(r.rank);
  for (auto& ranks : out.ranks_of_file) {
    std::sort(ranks.begin(), ranks.end());
    ranks.erase(std::unique(ranks.begin(), ranks.end()), ranks.end());
  }
  for (const auto& [rank, members] : out.by_rank) {
    std::unordered_map<std::int32_t, std::uint64_t> own_index;
    auto& shadow = out.shadows[rank];
    for (std::size_t i : members) {
      const Request& r = in.requests[i];
      std::uint64_t file_key = std::uint64_t{1} << 31;
      if (out.is_shared(r.file)) {
        file_key = static_cast<std::uint64_t>(r.file);
      } else if (r.file >= 0) {
        auto [it, fresh] = own_index.emplace(r.file, own_index.size());
        if (fresh) out.own_files[rank].push_back(r.file);
        file_key = (std::uint64_t{1} << 30) + it->second;
      }
      shadow.push_back((std::uint64_t{r.op} << 32) | file_key);
    }
  }
  return out;
}

// The ranks grouped by their (operation, file, size) sequences (files as in
// the shadows), the root's class first, the others by their smallest rank.
std::vector<std::vector<std::int32_t>> rank_classes(const RequestTable& in, const RankShadows& ranks) {
  std::map<std::vector<std::pair<std::uint64_t, std::int64_t>>, std::size_t> class_of;
  std::vector<std::vector<std::int32_t>> classes;
  for (const auto& [rank, members] : ranks.by_rank) {  // by rank: the root first
    throw_if_interrupted();
    const auto& shadow = ranks.shadows.at(rank);
    std::vector<std::pair<std::uint64_t, std::int64_t>> signature(members.size());
    for (std::size_t i = 0; i < members.size(); ++i) signature[i] = {shadow[i], in.requests[members[i]].size};
    const auto [it, fresh] = class_of.emplace(std::move(signature), classes.size());
    if (fresh) classes.emplace_back();
    classes[it->second].push_back(rank);
  }
  return classes;
}

// What the children's alignments with the root say of each root request: how
// many children have a partner for it, the (rank, offset) of the partners on
// shared files, and per root-private file the names the children use for it.
struct ChildAlignment {
  std::vector<std::uint32_t> matches;
  std::vector<std::vector<std::pair<std::int64_t, std::int64_t>>> child_offsets;
  std::map<std::int32_t, std::vector<std::pair<std::int64_t, std::string>>> private_names;  // root file -> names
};

ChildAlignment align_children(const RequestTable& in, const RankShadows& ranks, std::int32_t root,
                              PathSummary& summary) {
  const auto& root_members = ranks.by_rank.at(root);
  ChildAlignment out;
  out.matches.assign(root_members.size(), 0);
  out.child_offsets.resize(root_members.size());
  if (const auto own = ranks.own_files.find(root); own != ranks.own_files.end())
    for (std::int32_t f : own->second) out.private_names[f].emplace_back(root, in.files[f]);
  for (const auto& [rank, members] : ranks.by_rank) {
    if (rank == root) continue;
    throw_if_interrupted();
    ++summary.children_aligned;
    const std::vector<std::int64_t> partner = align(ranks.shadows.at(root), ranks.shadows.at(rank));
    std::map<std::int32_t, std::int32_t> private_partner;
    for (std::size_t i = 0; i < partner.size(); ++i) {
      if (partner[i] < 0) continue;
      ++out.matches[i];
      const Request& mine = in.requests[root_members[i]];
      const Request& theirs = in.requests[members[static_cast<std::size_t>(partner[i])]];
      if (ranks.is_shared(mine.file) && mine.offset != kUnknown && theirs.offset != kUnknown)
        out.child_offsets[i].emplace_back(rank, theirs.offset);
      if (mine.file >= 0 && !ranks.is_shared(mine.file)) private_partner.emplace(mine.file, theirs.file);
    }
    for (const auto& [mine, theirs] : private_partner) out.private_names[mine].emplace_back(rank, in.files[theirs]);
  }
  return out;
}

// The stride s with offset_c = offset_root + (c − root)·s for every child's
// partner (rank c, offset_c), or nothing when they follow no one stride.
std::optional<std::int64_t> common_stride(const std::vector<std::pair<std::int64_t, std::int64_t>>& child_offsets,
                                          std::int32_t root, std::int64_t root_offset) {
  std::optional<std::int64_t> stride;
  for (const auto& [rank, offset] : child_offsets) {
    const std::int64_t dr = rank - root, dv = offset - root_offset;
    if (dv % dr != 0 || (stride && *stride != dv / dr)) return std::nullopt;
    stride = dv / dr;
  }
  return stride;
}

// A generic path made of one rank's requests as they come: seq its
// position, op, file and session renumbered in the path, each file's FS the
// largest offset + size and its class shared or private by how many ranks
// use it, and the strides its shared requests follow, counted per file.
struct RankPath {
  Workload path;
  std::map<std::int32_t, std::int32_t> files;  // sanitized file -> path file
  std::map<std::int64_t, std::int64_t> sessions;
  std::map<std::int32_t, std::map<std::int64_t, std::uint64_t>> strides;  // path file -> stride -> requests

  const Request& add(const RequestTable& in, const RankShadows& ranks, Request r) {
    r.seq = static_cast<std::int64_t>(path.table.requests.size());
    r.op = path.table.op_id(in.ops[r.op]);
    if (r.file >= 0) {
      const std::int32_t source = r.file;
      const auto [it, fresh] = files.emplace(source, static_cast<std::int32_t>(path.files.size()));
      if (fresh) {
        path.table.file_id(in.files[source]);
        path.files.emplace_back();
      }
      r.file = it->second;
      FileInfo& info = path.files[r.file];
      if (r.offset != kUnknown && r.size != kUnknown) info.size = std::max(info.size, r.offset + r.size);
      info.file_class = ranks.is_shared(source) ? FileClass::shared : FileClass::private_file;
    }
    if (r.session >= 0) r.session = sessions.emplace(r.session, sessions.size()).first->second;
    return path.table.requests.emplace_back(r);
  }
  // Each file's most common stride (the smallest of equally common ones), where it has any.
  void set_strides() {
    for (const auto& [file, counts] : strides)
      if (!counts.empty())
        path.files[file].rank_stride = std::max_element(counts.begin(), counts.end(), [](const auto& a, const auto& b) {
                                         return a.second < b.second;
                                       })->first;
  }
};

// The files of the root's path once its requests are in: private files named
// by the pattern their names follow across ranks, root-exclusive ones marked,
// and each shared file's most common stride between ranks.
void finish_path_files(RankPath& built, ChildAlignment& aligned,
                       const std::map<std::int32_t, bool>& file_all_exclusive) {
  Workload& path = built.path;
  for (const auto& [source, file] : built.files)
    if (path.files[file].file_class == FileClass::private_file)
      path.files[file].name = learn_name_pattern(aligned.private_names[source]);
  for (const auto& [file, exclusive] : file_all_exclusive)
    if (exclusive && path.files[file].file_class == FileClass::private_file)
      path.files[file].file_class = FileClass::root_exclusive;
  for (std::size_t f = 0; f < path.files.size(); ++f)
    if (path.files[f].name.root_name.empty()) path.files[f].name.root_name = path.table.files[f];
  built.set_strides();
}

// The name pattern of `rank`'s k-th own file, learned from the k-th own file
// of every rank that has one (ranks doing the same thing name it alike).
NamePattern own_file_pattern(const RequestTable& in, const RankShadows& ranks, std::int32_t rank, std::size_t k) {
  std::vector<std::pair<std::int64_t, std::string>> names{{rank, in.files[ranks.own_files.at(rank)[k]]}};
  for (const auto& [other, files] : ranks.own_files)
    if (other != rank && files.size() > k) names.emplace_back(other, in.files[files[k]]);
  return learn_name_pattern(names);
}

// The generic path of a rank class other than the root's: its smallest
// rank's requests (seq = 0, 1, …), its own files private (named as the k-th
// own files of every rank are), a shared file's stride the most common one
// among the class's ranks at the same request, else the root path's for that
// file, else 0.
Workload class_path(const RequestTable& in, const RankShadows& ranks, const std::vector<std::int32_t>& members,
                    const Workload& root_path) {
  const std::int32_t rank = members.front();
  const auto& mine = ranks.by_rank.at(rank);
  RankPath built;
  built.path.processes = root_path.processes;
  for (std::size_t i = 0; i < mine.size(); ++i) {
    const Request& r = built.add(in, ranks, in.requests[mine[i]]);
    if (r.file < 0 || built.path.files[r.file].file_class != FileClass::shared || r.offset == kUnknown) continue;
    std::vector<std::pair<std::int64_t, std::int64_t>> others;  // the same request of the class's other ranks
    for (std::size_t m = 1; m < members.size(); ++m)
      if (const Request& o = in.requests[ranks.by_rank.at(members[m])[i]]; o.offset != kUnknown)
        others.emplace_back(members[m], o.offset);
    if (!others.empty())
      if (const auto stride = common_stride(others, rank, r.offset)) ++built.strides[r.file][*stride];
  }
  Workload& path = built.path;
  for (const auto& [source, file] : built.files) {
    FileInfo& info = path.files[file];
    info.name.root_name = in.files[source];
    if (info.file_class == FileClass::private_file) {  // the rank has own files
      const auto& own = ranks.own_files.at(rank);
      const auto k = std::find(own.begin(), own.end(), source) - own.begin();
      info.name = own_file_pattern(in, ranks, rank, static_cast<std::size_t>(k));
    } else if (const auto root_file = root_path.table.find_file(in.files[source])) {
      // The root path's stride, unless the class's ranks agree on another (set_strides below).
      info.rank_stride = root_path.files[static_cast<std::size_t>(*root_file)].rank_stride;
    }
  }
  built.set_strides();
  return std::move(built.path);
}

}  // namespace

Workload extract_path(const Workload& sanitized, PathSummary& summary, std::vector<Workload>* other_classes) {
  const RequestTable& in = sanitized.table;
  const RankShadows ranks = rank_shadows(in);
  summary.ranks = static_cast<std::int32_t>(ranks.by_rank.size());
  const std::int32_t root = ranks.by_rank.begin()->first;
  const auto& root_members = ranks.by_rank.at(root);
  ChildAlignment aligned = align_children(in, ranks, root, summary);
  summary.rank_classes = rank_classes(in, ranks);
  // A request of the root's is root-exclusive only where no other rank does what the root does: ranks
  // of the root's class do every one of its requests.
  const bool root_alone = summary.rank_classes.front().size() == 1;

  RankPath built;
  built.path.processes = summary.ranks;
  const double children = static_cast<double>(summary.children_aligned);
  std::map<std::int32_t, bool> file_all_exclusive;
  for (std::size_t i = 0; i < root_members.size(); ++i) {
    Request source = in.requests[root_members[i]];
    if (root_alone && children > 0 && aligned.matches[i] < children / 2) {
      source.flags |= kRootExclusive;
      summary.root_exclusive_indices.push_back(static_cast<std::int64_t>(i));
    }
    const Request& r = built.add(in, ranks, source);
    if (r.file < 0) continue;
    auto [flag, first] = file_all_exclusive.emplace(r.file, true);
    flag->second = flag->second && (r.flags & kRootExclusive);
    if (built.path.files[r.file].file_class == FileClass::shared && !aligned.child_offsets[i].empty()) {
      if (const auto stride = common_stride(aligned.child_offsets[i], root, r.offset))
        ++built.strides[r.file][*stride];
      else
        ++summary.irregular_offsets;
    }
  }
  finish_path_files(built, aligned, file_all_exclusive);
  Workload& path = built.path;
  std::vector<bool> in_path(in.files.size(), false);
  for (const auto& [source, _] : built.files) in_path[source] = true;
  summary.child_only_files = static_cast<std::uint64_t>(std::count(in_path.begin(), in_path.end(), false));
  summary.root_requests = path.table.requests.size();
  summary.root_exclusive = summary.root_exclusive_indices.size();
  if (other_classes)
    for (std::size_t c = 1; c < summary.rank_classes.size(); ++c)
      other_classes->push_back(class_path(in, ranks, summary.rank_classes[c], path));
  return std::move(built.path);
}

namespace {

// Where a shared file's request of a path lands on `rank`: its offset moved
// by (rank − the path's rank)·stride, the path's rank the one whose offsets it holds.
std::int64_t offset_on_rank(const Workload& path, std::int32_t path_rank, const Request& source, std::int32_t rank) {
  const FileInfo& info = path.files[source.file];
  if (info.file_class != FileClass::shared || source.offset == kUnknown) return source.offset;
  std::int64_t moved = 0, offset = 0;
  if (__builtin_mul_overflow(info.rank_stride, static_cast<std::int64_t>(rank) - path_rank, &moved) ||
      __builtin_add_overflow(source.offset, moved, &offset) || offset < 0 ||
      (source.size != kUnknown && offset > (std::int64_t{1} << 62) - source.size))
    throw UserError(
        fmt::format("shared file '{}': process {} would access offset {} + ({} − {})·{} (the file's "
                    "offset stride per rank: the trace's, or rank_stride), outside 0 to 2^62; use fewer "
                    "processes or another stride",
                    path.table.files[source.file], rank, source.offset, rank, path_rank, info.rank_stride));
  return offset;
}

ClassPaths one_class(Workload path, std::int32_t processes) {
  ClassPaths paths;
  paths.paths.push_back(std::move(path));
  paths.ranks.push_back(0);
  paths.process_class.assign(static_cast<std::size_t>(std::max(processes, 0)), 0);
  paths.process_rank.resize(paths.process_class.size());
  std::iota(paths.process_rank.begin(), paths.process_rank.end(), 0);
  return paths;
}

}  // namespace

Expansion::Expansion(Workload path, std::int32_t processes) : Expansion(one_class(std::move(path), processes)) {}

Expansion::Expansion(ClassPaths paths)
    : process_class_(std::move(paths.process_class)),
      process_rank_(std::move(paths.process_rank)),
      processes_(static_cast<std::int32_t>(process_class_.size())) {
  files_.processes = processes_;
  classes_.resize(paths.paths.size());
  for (std::size_t c = 0; c < classes_.size(); ++c) {
    Class& k = classes_[c];
    k.path = std::move(paths.paths[c]);
    k.rank = paths.ranks[c];
    k.ids.resize(k.path.files.size());
    for (const auto& name : k.path.table.ops) k.ops.push_back(files_.table.op_id(name));  // class 0's ids stay
    for (const Request& r : k.path.table.requests) sessions_ = std::max<std::int64_t>(sessions_, r.session + 1);
  }
  std::uint64_t step = 0;
  for (std::int32_t rank = 0; rank < processes_; ++rank) {
    Class& k = classes_[process_class_[rank]];
    for (const Request& source : k.path.table.requests) {
      if ((++step & 0xffff) == 0) throw_if_interrupted();  // a long path on each of many processes
      if (!makes(static_cast<std::size_t>(rank), source)) continue;
      ++requests_;
      if (source.file < 0) continue;
      const std::int64_t offset = offset_on_rank(k.path, k.rank, source, rank);
      const std::int32_t id = name_file(k, source.file, rank);
      if (offset != kUnknown && source.size != kUnknown)
        files_.files[id].size = std::max(files_.files[id].size, offset + source.size);
    }
  }
  for (Class& k : classes_) {
    const auto& requests = k.path.table.requests;
    k.order.resize(requests.size());
    std::iota(k.order.begin(), k.order.end(), std::size_t{0});
    std::stable_sort(k.order.begin(), k.order.end(),
                     [&](std::size_t a, std::size_t b) { return requests[a].seq < requests[b].seq; });
    for (std::size_t i = 0; i < k.order.size(); ++i) {
      const Request& r = requests[k.order[i]];
      if (i == 0 || r.seq != requests[k.order[i - 1]].seq) k.groups.push_back({i, i, r.seq, true});
      k.groups.back().end = i + 1;
      k.groups.back().root_only = k.groups.back().root_only && (r.flags & kRootExclusive);
    }
  }
  std::map<std::int64_t, bool> seqs;  // seq -> root-only in every class that has it
  for (const Class& k : classes_)
    for (const Group& g : k.groups) {
      const auto [it, fresh] = seqs.emplace(g.seq, g.root_only);
      it->second = it->second && g.root_only;
    }
  for (const auto& [seq, root_only] : seqs) {
    seqs_.push_back(seq);
    seq_root_only_.push_back(root_only);
  }
}

// The id of a path file on `rank`, named at its first use (shared and
// root-exclusive files keep one id on every process).
std::int32_t Expansion::name_file(Class& k, std::int32_t path_file, std::int32_t rank) {
  const FileInfo& info = k.path.files[path_file];
  const bool private_file = info.file_class == FileClass::private_file;
  auto& per_rank = k.ids[path_file];
  if (per_rank.empty()) per_rank.assign(private_file ? processes_ : 1, -1);
  std::int32_t& id = per_rank[private_file ? rank : 0];
  if (id < 0) {
    id = files_.table.file_id(private_file ? info.name.name_for(rank) : k.path.table.files[path_file]);
    if (static_cast<std::size_t>(id) >= files_.files.size()) files_.files.resize(id + 1);
    const std::int64_t reached = files_.files[id].size;  // a shared file another class named already
    files_.files[id] = info;                             // its FS grows to the largest offset + size of any process
    files_.files[id].size = std::max(reached, info.size);
    files_.files[id].name.root_name = files_.table.files[id];
    files_.files[id].name.learned = false;
  }
  return id;
}

Request Expansion::on_rank(const Class& k, std::size_t source, std::int32_t rank) const {
  Request r = k.path.table.requests[source];
  r.rank = rank;
  r.op = k.ops[r.op];
  if (r.file >= 0) {
    r.offset = offset_on_rank(k.path, k.rank, r, rank);
    const bool private_file = k.path.files[r.file].file_class == FileClass::private_file;
    r.file = k.ids[r.file][private_file ? rank : 0];
  }
  if (r.session >= 0) r.session += sessions_ * rank;
  return r;
}

const Expansion::Group* Expansion::group_at(const Class& k, std::int64_t seq) const {
  return k.group < k.groups.size() && k.groups[k.group].seq == seq ? &k.groups[k.group] : nullptr;
}

std::size_t Expansion::next(std::vector<Request>& out, std::size_t count) {
  std::size_t made = 0;
  while (made < count && processes_ > 0 && seq_ < seqs_.size()) {
    const std::int64_t seq = seqs_[seq_];
    const Class& k = classes_[process_class_[rank_]];
    if (const Group* group = group_at(k, seq)) {
      const std::size_t source = k.order[group->begin + member_];
      if (makes(static_cast<std::size_t>(rank_), k.path.table.requests[source])) {
        out.push_back(on_rank(k, source, rank_));
        if ((++made & 0xffff) == 0) throw_if_interrupted();  // a whole replica at once (expand)
      }
      if (group->begin + ++member_ < group->end) continue;
    }
    member_ = 0;
    if (++rank_ < processes_ && !seq_root_only_[seq_]) continue;
    rank_ = 0;
    for (Class& c : classes_)
      if (group_at(c, seq)) ++c.group;
    ++seq_;
  }
  return made;
}

Workload drained(Expansion& expansion) {
  Workload out = expansion.files();
  out.table.requests.reserve(expansion.requests());
  expansion.next(out.table.requests, SIZE_MAX);
  return out;
}

Workload expand(const Workload& path, std::int32_t processes) {
  Expansion expansion(path, processes);
  return drained(expansion);
}

namespace {

bool is_seek(const RequestTable& t, const Request& r) {
  return t.op_class(r) == OpClass::in_session && lower(t.op_name(r)).find("seek") != std::string::npos;
}

}  // namespace

void derive_soft_dependencies(Workload& path) {
  RequestTable& t = path.table;
  std::vector<Request> kept;
  kept.reserve(t.requests.size());
  std::map<std::pair<std::int32_t, std::int64_t>, std::size_t> last_in_session;  // (rank, session) -> kept index
  for (const Request& source : t.requests) {
    Request r = source;
    const OpClass c = t.op_class(r);
    if (is_data(c)) {
      const std::string base = t.ops[r.op];
      bool after_seek = false;
      if (r.session >= 0)
        if (auto it = last_in_session.find({r.rank, r.session});
            it != last_in_session.end() && it->second == kept.size() - 1 && is_seek(t, kept.back())) {
          path.seek_before.emplace(soft_dependency_name({base, true}), t.ops[kept.back().op]);
          kept.pop_back();
          after_seek = true;
        }
      r.op = t.op_id(soft_dependency_name({base, after_seek}));
    }
    if (r.session >= 0) last_in_session[{r.rank, r.session}] = kept.size();
    kept.push_back(r);
  }
  for (std::size_t i = 0; i < kept.size(); ++i) kept[i].seq = static_cast<std::int64_t>(i);
  t.requests = std::move(kept);
}

void lower_soft_dependencies(Workload& path) {
  RequestTable& t = path.table;
  // Derived op -> (its base op, the seek before it or none).
  const std::size_t derived_ops = t.ops.size();  // op_id below may add base names
  std::vector<std::pair<std::int64_t, std::int64_t>> lowered(derived_ops, {-1, -1});
  for (std::size_t op = 0; op < derived_ops; ++op) {
    const std::string name = t.ops[op];
    const std::optional<SoftDependencyForm> form =
        is_data(t.op_classes[op]) ? soft_dependency_form(name) : std::nullopt;
    if (!form) continue;
    lowered[op].first = t.op_id(form->base);
    if (auto it = path.seek_before.find(name); it != path.seek_before.end()) lowered[op].second = t.op_id(it->second);
  }
  // A seek put back takes the sequence ID before its request; every later ID moves up by one.
  std::vector<Request> out;
  out.reserve(t.requests.size());
  std::int64_t inserted = 0;
  std::uint64_t step = 0;
  for (const Request& source : t.requests) {
    if ((++step & 0xffff) == 0) throw_if_interrupted();
    Request r = source;
    r.seq += inserted;
    if (r.op < lowered.size() && lowered[r.op].first >= 0) {
      const auto [base, seek] = lowered[r.op];
      if (seek >= 0) {
        Request s = r;
        s.op = static_cast<std::uint32_t>(seek);
        s.size = kUnknown;
        s.duration = 0;
        out.push_back(s);
        ++inserted;
        ++r.seq;
      }
      r.op = static_cast<std::uint32_t>(base);
    }
    out.push_back(r);
  }
  t.requests = std::move(out);
}

}  // namespace gs
