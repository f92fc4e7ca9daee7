#include "estimators/requests.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <array>

#include "host/base/text.hpp"

namespace gs {

namespace {

// POSIX, stdio and MPI-IO names, without prefix, lower case.
constexpr std::array kReads = {"read",
                               "pread",
                               "readv",
                               "preadv",
                               "fread",
                               "iread",
                               "read_at",
                               "read_all",
                               "read_at_all",
                               "iread_at",
                               "iread_all",
                               "iread_at_all",
                               "read_shared",
                               "iread_shared",
                               "read_ordered",
                               "read_all_begin",
                               "read_at_all_begin",
                               "read_ordered_begin",
                               "aio_read",
                               "fgets"};
constexpr std::array kWrites = {"write",
                                "pwrite",
                                "writev",
                                "pwritev",
                                "fwrite",
                                "iwrite",
                                "write_at",
                                "write_all",
                                "write_at_all",
                                "iwrite_at",
                                "iwrite_all",
                                "iwrite_at_all",
                                "write_shared",
                                "iwrite_shared",
                                "write_ordered",
                                "write_all_begin",
                                "write_at_all_begin",
                                "write_ordered_begin",
                                "aio_write",
                                "fputs",
                                "fprintf"};
constexpr std::array kOpens = {"open", "creat", "fopen", "openat", "fdopen", "freopen"};
constexpr std::array kCloses = {"close", "fclose"};
// Fig. 1's column 2: metadata that needs an open file (or an MPI-IO handle).
constexpr std::array kInSession = {"seek",
                                   "lseek",
                                   "llseek",
                                   "_llseek",
                                   "fseek",
                                   "fseeko",
                                   "ftell",
                                   "fstat",
                                   "fsync",
                                   "fdatasync",
                                   "fcntl",
                                   "ftruncate",
                                   "fflush",
                                   "mmap",
                                   "munmap",
                                   "flock",
                                   "dup",
                                   "dup2",
                                   "set_view",
                                   "get_view",
                                   "get_size",
                                   "set_size",
                                   "preallocate",
                                   "get_position",
                                   "get_position_shared",
                                   "seek_shared",
                                   "sync",
                                   "set_info",
                                   "get_info",
                                   "set_atomicity",
                                   "get_atomicity",
                                   "wait",
                                   "test",
                                   "read_all_end",
                                   "write_all_end",
                                   "read_at_all_end",
                                   "write_at_all_end",
                                   "posix_fadvise",
                                   "fileno"};

template <std::size_t N>
bool among(const std::array<const char*, N>& names, std::string_view name) {
  return std::any_of(names.begin(), names.end(), [&](const char* n) { return name == n; });
}

std::string_view without_prefix(std::string_view name) {
  for (std::string_view prefix : {"sys_", "mpi_file_", "mpio_", "mpi_", "posix_", "stdio_"})
    if (name.substr(0, prefix.size()) == prefix) return name.substr(prefix.size());
  return name;
}

std::optional<OpClass> known_class(std::string_view base) {
  if (among(kReads, base)) return OpClass::read;
  if (among(kWrites, base)) return OpClass::write;
  if (among(kOpens, base)) return OpClass::open;
  if (among(kCloses, base)) return OpClass::close;
  if (among(kInSession, base)) return OpClass::in_session;
  return std::nullopt;
}

}  // namespace

OpClass classify_operation(std::string_view name) {
  const std::string lowered = lower(trim(name));
  const std::string_view base = without_prefix(lowered);
  const auto without_64 = [](std::string_view n) {
    return n.size() > 2 && n.substr(n.size() - 2) == "64" ? n.substr(0, n.size() - 2) : n;
  };
  if (auto c = known_class(without_64(base))) return *c;
  // Soft-dependency forms: a trailing run of 0/1 digits (read0, iread11, pread640).
  std::string_view stem = base;
  while (!stem.empty() && (stem.back() == '0' || stem.back() == '1')) {
    stem.remove_suffix(1);
    if (auto c = known_class(without_64(stem))) return *c;
  }
  return OpClass::metadata;
}

const char* op_class_name(OpClass c) {
  switch (c) {
    case OpClass::read:
      return "read";
    case OpClass::write:
      return "write";
    case OpClass::open:
      return "open";
    case OpClass::close:
      return "close";
    case OpClass::in_session:
      return "in_session";
    default:
      return "metadata";
  }
}

bool is_mpi_operation(std::string_view name) { return lower(name.substr(0, 3)) == "mpi"; }

std::uint32_t RequestTable::op_id(std::string_view name) {
  if (auto it = op_index_.find(name); it != op_index_.end()) return it->second;
  const auto id = static_cast<std::uint32_t>(ops.size());
  ops.emplace_back(name);
  op_classes.push_back(classify_operation(name));
  op_index_.emplace(std::string(name), id);
  return id;
}

std::int32_t RequestTable::file_id(std::string_view name) {
  if (auto it = file_index_.find(name); it != file_index_.end()) return it->second;
  const auto id = static_cast<std::int32_t>(files.size());
  files.emplace_back(name);
  file_index_.emplace(std::string(name), id);
  return id;
}

const char* file_class_name(FileClass c) {
  switch (c) {
    case FileClass::root_exclusive:
      return "root_exclusive";
    case FileClass::private_file:
      return "private";
    case FileClass::shared:
      return "shared";
    default:
      return "none";
  }
}

std::string NamePattern::name_for(std::int64_t rank) const {
  if (!learned) return rank == 0 ? root_name : fmt::format("{}.{}", root_name, rank);
  std::string name = texts[0];
  for (std::size_t i = 0; i < numbers.size(); ++i) {
    const std::int64_t value = numbers[i].base + numbers[i].step * rank;
    name += fmt::format("{:0{}}", value, numbers[i].width);
    name += texts[i + 1];
  }
  return name;
}

std::string soft_dependency_name(const SoftDependencyForm& form) { return form.base + (form.after_seek ? "1" : "0"); }

std::optional<SoftDependencyForm> soft_dependency_form(const std::string& name) {
  if (name.empty() || (name.back() != '0' && name.back() != '1')) return std::nullopt;
  return SoftDependencyForm{name.substr(0, name.size() - 1), name.back() == '1'};
}

}  // namespace gs
