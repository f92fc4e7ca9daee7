// The nouns of request-level work (docs/requests.md): a request with its
// rank, file, offset, size, start and execution time, a trace as read
// (io/request_trace.hpp reads DXT text, PIONEER's 7-field trace and binary
// Darshan logs into it), the operation classes of PIONEER's library
// enforcement rules (Fig. 1: operations that need an open file and those that
// do not), and the workloads synthesis makes (host/requests) and io/ writes.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace gs {

// read/write: file data operations; open/close: the ends of a file open
// session; in_session: metadata on an open file (seek, fstat, fsync, MPIO_Wait);
// metadata: operations that need no open file (stat, unlink, readlink, readdir).
enum class OpClass : std::uint8_t { read, write, open, close, in_session, metadata };
constexpr int kOpClasses = 6;

// By exact name once the library prefix (SYS_, MPI_File_, MPIO_, MPI_) and a
// trailing "64" are removed, case-insensitively: "SYS_read", "MPI_File_iread_at"
// and "read64" are reads, "readlink" and "readdir" are not. A soft-dependency
// form ("read0", "MPI_File_iread1") is classed as its base operation.
OpClass classify_operation(std::string_view name);
const char* op_class_name(OpClass op_class);
inline bool is_data(OpClass c) { return c == OpClass::read || c == OpClass::write; }
// Whether the operation belongs to MPI-IO (its name starts with MPI).
bool is_mpi_operation(std::string_view name);

constexpr std::int64_t kUnknown = -1;  // an offset or size the trace does not give (PIONEER's NULL)

// Flags of a request (the `flags` column of the HDF5 request tables).
enum RequestFlag : std::uint32_t {
  kRootExclusive = 1u << 0,  // issued by the root process only (generic workload path)
  kInferred = 1u << 1,       // an open or close the trace did not record (DXT), placed by session inference
  kModeRead = 1u << 2,       // on an open: the session may read
  kModeWrite = 1u << 3,      // on an open: the session may write
};

struct Request {
  double start = 0;     // seconds from the trace's origin
  double duration = 0;  // execution time, seconds
  std::int32_t rank = 0;
  std::uint32_t op = 0;    // index into RequestTable::ops
  std::int32_t file = -1;  // index into RequestTable::files; -1: the operation names no file
  std::int64_t offset = kUnknown, size = kUnknown;
  std::uint32_t flags = 0;
  std::int64_t session = -1;  // index of its file open session, -1 outside one
  std::int64_t seq = -1;      // global sequence ID (generic workload path and syntheses)
};

// Requests with their operation and file names interned.
struct RequestTable {
  std::vector<std::string> ops;
  std::vector<OpClass> op_classes;  // parallel to ops
  std::vector<std::string> files;
  std::vector<Request> requests;

  std::uint32_t op_id(std::string_view name);
  std::int32_t file_id(std::string_view name);
  bool has_file(std::string_view name) const { return file_index_.count(name) > 0; }
  // The id of a file named already, else nothing.
  std::optional<std::int32_t> find_file(std::string_view name) const {
    const auto it = file_index_.find(name);
    return it == file_index_.end() ? std::nullopt : std::optional<std::int32_t>(it->second);
  }
  OpClass op_class(const Request& r) const { return op_classes[r.op]; }
  const std::string& op_name(const Request& r) const { return ops[r.op]; }

 private:
  std::map<std::string, std::uint32_t, std::less<>> op_index_;
  std::map<std::string, std::int32_t, std::less<>> file_index_;
};

// A request trace as read: the requests in file order, and the opens that
// darshan-parser counts for each (rank, file) when a counters file was given
// (rank -1: a shared record darshan reduced over all ranks).
struct RequestTrace {
  RequestTable table;
  std::vector<std::string> sources;
  std::int32_t ranks = 0;                                                                  // 1 + the largest rank
  std::map<std::pair<std::int32_t, std::string>, std::uint64_t> posix_opens, mpiio_opens;  // (rank, file name)
  std::uint64_t lines = 0;
  std::uint64_t bad_lines = 0;
  std::vector<std::string> bad_line_examples;
  std::vector<std::string> incomplete_modules;  // "FILE: MODULE" darshan marked incomplete (io/trace.hpp)
  std::string counters_note;  // the counters name none of the trace's files (another job's?), else empty
};

// The request-level workloads gpusynth derives from a trace and synthesizes
// (host/requests/workload.hpp makes them; io/requests_file.hpp and
// io/request_texts.hpp write them).

enum class FileClass : std::uint8_t { root_exclusive, private_file, shared, none };
// The classes with files come first; `none` holds the operations that name no file.
constexpr int kClassesWithFiles = 3;
constexpr int kFileClassCount = static_cast<int>(FileClass::none) + 1;
const char* file_class_name(FileClass c);  // root_exclusive, private, shared, none

// The name a private file has on rank r: the root's name with each number in
// it that follows the rank (base + step·r, at least `width` digits) replaced.
// Learned from the traced ranks; without them every rank gets "<name>.<rank>".
struct NamePattern {
  std::vector<std::string> texts;  // the parts between numbers (one more than numbers)
  struct Number {
    std::int64_t base = 0, step = 0;
    std::size_t width = 0;  // leading zeros kept
  };
  std::vector<Number> numbers;
  bool learned = false;
  std::string root_name;

  std::string name_for(std::int64_t rank) const;
};

struct FileInfo {
  FileClass file_class = FileClass::private_file;
  std::int64_t size = 0;         // FS: the largest offset + size
  std::int64_t rank_stride = 0;  // shared: rank r accesses offset + r·stride
  NamePattern name;              // private: the name on each rank
};

// Soft dependencies (Section IV-B) are written into the names of a path's
// data operations: "<op>1" a data operation right after a seek in its session
// (the seek folded in), "<op>0" any other. The name of a form, and a data
// operation's name read back as a form (nothing for a name without one).
struct SoftDependencyForm {
  std::string base;         // the operation's own name
  bool after_seek = false;  // "1": a seek came right before it
};
std::string soft_dependency_name(const SoftDependencyForm& form);
std::optional<SoftDependencyForm> soft_dependency_form(const std::string& name);

// A request stream with its files: a sanitized trace, a generic workload path,
// a synthetic path or its expansion to N processes.
struct Workload {
  RequestTable table;
  std::vector<FileInfo> files;  // parallel to table.files
  std::int32_t processes = 1;
  // The seek each "<op>1" stands for (soft dependencies, above).
  std::map<std::string, std::string> seek_before;
};

struct SanitizeSummary {
  std::uint64_t read = 0;               // requests in the trace
  std::uint64_t absorbed = 0;           // POSIX calls folded into the MPI-IO call that made them
  std::uint64_t inferred_sessions = 0;  // sessions placed where the trace has no open/close
  std::uint64_t sessions = 0;
};

struct PathSummary {
  std::int32_t ranks = 0, children_aligned = 0;
  std::uint64_t root_requests = 0, root_exclusive = 0;
  std::uint64_t child_only_files = 0;                // files no root request touches (not in the path)
  std::uint64_t irregular_offsets = 0;               // shared requests whose children's offsets follow no stride
  std::vector<std::int64_t> root_exclusive_indices;  // in the path
  // The ranks grouped by what they do (the same operations on the same files,
  // of the same sizes, in the same order), the root's class first, the others
  // by their smallest rank; a class's ranks ascending.
  std::vector<std::vector<std::int32_t>> rank_classes;
};

}  // namespace gs
