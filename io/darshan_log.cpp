// Darshan binary logs (io/darshan_log.hpp). The layout, learned from
// darshan-util 3.5.0's darshan-log-format.h, darshan-logutils.c and the
// per-module headers and logutils:
//
//   header (uncompressed): version "3.xx\0" (8 bytes), magic 6567223 (int64),
//     compression (1 byte: 0 ZLIB, 1 BZIP2, 2 none), partial flags (one bit per
//     module), the name region's and every module's region (offset, length),
//     every module's format version. 3.41 widened the table from 16 to 64
//     modules and the partial flags from 32 to 64 bits; 3.20 added H5D (module
//     4) and 3.41 PNETCDF_VAR (module 6), shifting the modules after them.
//   job region (from the header's end to the name region): uid, start, end,
//     nprocs, jobid (3.41 adds the start's and end's nanoseconds), metadata, exe.
//   name region: (record id, path) pairs; 3.00 stores the path's length, later
//     versions end it with a NUL.
//   module regions: each rank's records, compressed rank by rank, so a region
//     is one or more concatenated compressed streams.
#include "io/darshan_log.hpp"

#include <bzlib.h>
#include <fmt/format.h>
#include <zlib.h>

#include <array>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <unordered_map>

#include "host/base/errors.hpp"
#include "io/darshan_modules.hpp"

namespace gs {

namespace {

constexpr std::int64_t kDarshanMagic = 6567223;
constexpr int kMaxModules = 64;
constexpr std::size_t kHeaderSize341 = 1328, kHeaderSizeOld = 360;  // 64 and 16 modules
constexpr std::size_t kBaseRecord = 16;                             // record id, rank

// Module ids of the current format (darshan-log-format.h's DARSHAN_MODULE_IDS).
enum ModuleId : int { kPosix = 1, kMpiio = 2, kLustre = 8, kStdio = 9, kDxtPosix = 10, kDxtMpiio = 11, kHeatmap = 15 };
constexpr std::array<const char*, 18> kModuleNames = {
    "NULL",  "POSIX",     "MPI-IO",    "H5F",   "H5D",  "PNETCDF_FILE", "PNETCDF_VAR", "BG/Q", "LUSTRE",
    "STDIO", "DXT_POSIX", "DXT_MPIIO", "MDHIM", "APXC", "APMPI",        "HEATMAP",     "DFS",  "DAOS"};
constexpr int kKnownModules = static_cast<int>(kModuleNames.size());

bool is_dxt(int id) { return id == kDxtPosix || id == kDxtMpiio; }

struct Region {
  std::uint64_t offset = 0, length = 0;
};

struct Header {
  int minor = 0;  // 3.minor: 0, 10, 20, 21 or 41
  bool big_endian = false;
  int compression = 0;
  std::uint64_t partial = 0;  // bit per current module id
  Region job, names;
  std::array<Region, kMaxModules> modules{};  // by current module id
  std::array<std::uint32_t, kMaxModules> versions{};
};

UserError log_error(const std::string& path, const std::string& what) {
  return UserError(fmt::format("{}: {}", path, what));
}

// The current id of the module in slot `slot` of a 3.`minor` header: 3.20
// inserted H5D at 4, 3.41 PNETCDF_VAR at 6 (darshan_log_get_header's shifts).
int current_module_id(int minor, int slot) {
  if (minor < 20 && slot >= 4) ++slot;
  if (minor < 41 && slot >= 6) ++slot;
  return slot;
}

int parse_minor(std::string_view head, const std::string& path) {
  const std::string_view version = head.substr(0, std::min<std::size_t>(head.find('\0'), 8));
  for (const auto& [text, minor] : {std::pair{"3.00", 0}, {"3.10", 10}, {"3.20", 20}, {"3.21", 21}, {"3.41", 41}})
    if (version == text) return minor;
  throw log_error(path, fmt::format("darshan log format version '{}' is not one this reader knows; accepted: 3.00, "
                                    "3.10, 3.20, 3.21, 3.41 (the versions darshan-util 3.5.0 reads)",
                                    std::string(version.substr(0, 8))));
}

void check_region(const Region& r, std::size_t header_size, std::size_t file_size, const std::string& what,
                  const std::string& path) {
  if (r.length == 0) return;
  if (r.offset < header_size || r.offset > file_size || r.length > file_size - r.offset)
    throw log_error(path, fmt::format("the header places the {} region at bytes {} to {}, outside the file's {} "
                                      "bytes after its {}-byte header: the log is cut or its header damaged",
                                      what, r.offset, r.offset + r.length, file_size, header_size));
}

// The job region runs from the header to the first region after it.
Region job_region(const Header& h, std::size_t header_size, std::size_t file_size, const std::string& path) {
  std::uint64_t next = file_size;
  if (h.names.offset != 0) {
    next = h.names.offset;
  } else {
    for (const Region& m : h.modules)
      if (m.offset != 0) {
        next = m.offset;
        break;
      }
  }
  if (next <= header_size || next > file_size)
    throw log_error(path, fmt::format("the header places the job record at bytes {} to {} of a {}-byte file: the log "
                                      "is cut or its header damaged",
                                      header_size, next, file_size));
  return Region{header_size, next - header_size};
}

// The header in `bytes`, the first bytes of a `file_size`-byte log (the whole log, or only its head
// when no region is read); its regions are checked against the file's size.
Header parse_header(std::string_view bytes, std::size_t file_size, const std::string& path) {
  Header h;
  if (bytes.size() < 16)
    throw log_error(path, fmt::format("{} bytes: shorter than a darshan log's header", bytes.size()));
  h.minor = parse_minor(bytes, path);
  const bool wide = h.minor >= 41;
  const std::size_t header_size = wide ? kHeaderSize341 : kHeaderSizeOld;
  if (bytes.size() < header_size)
    throw log_error(path, fmt::format("the file ends at byte {}, inside the {}-byte header of a version 3.{:02} log: "
                                      "the log is cut",
                                      bytes.size(), header_size, h.minor));
  if (LogBytes(bytes, false).i64(8) != kDarshanMagic) {
    if (LogBytes(bytes, true).i64(8) != kDarshanMagic)
      throw log_error(path, "darshan's magic number (6567223) is not at byte 8: the header is damaged");
    h.big_endian = true;
  }
  const LogBytes b(bytes, h.big_endian);
  h.compression = static_cast<unsigned char>(bytes[16]);
  if (h.compression > 2)
    throw log_error(path, fmt::format("compression type {} at byte 16 is none of 0 (ZLIB), 1 (BZIP2), 2 (none): the "
                                      "header is damaged",
                                      h.compression));
  const std::uint64_t partial = wide ? b.u64(24) : b.u32(20);
  const std::size_t names_at = wide ? 32 : 24, slots = wide ? 64 : 16, versions_at = wide ? 1072 : 296;
  h.names = Region{b.u64(names_at), b.u64(names_at + 8)};
  for (std::size_t slot = 0; slot < slots; ++slot) {
    const int id = current_module_id(h.minor, static_cast<int>(slot));
    if (id >= kMaxModules) continue;  // shifted past the 64 slots: never used by a 16-slot log
    h.modules[id] = Region{b.u64(names_at + 16 + 16 * slot), b.u64(names_at + 24 + 16 * slot)};
    h.versions[id] = b.u32(versions_at + 4 * slot);
    if ((partial >> slot) & 1) h.partial |= std::uint64_t{1} << id;
  }
  check_region(h.names, header_size, file_size, "name", path);
  for (int id = 0; id < kMaxModules; ++id)
    check_region(h.modules[id], header_size, file_size,
                 id < kKnownModules ? fmt::format("{} module", kModuleNames[id]) : fmt::format("module {}", id), path);
  h.job = job_region(h, header_size, file_size, path);
  return h;
}

// Whether a known module of the DXT kind (`dxt`) or of the other kind, the
// counters darshan-parser prints, holds data: the header's region lengths say.
bool holds_data(const Header& h, bool dxt) {
  for (int id = 0; id < kKnownModules; ++id)
    if (is_dxt(id) == dxt && h.modules[id].length > 0) return true;
  return false;
}

// zlib's inflate over every stream of the region (the runtime compresses rank by rank).
std::string inflate_zlib(std::string_view in, const std::string& where) {
  z_stream z{};
  if (inflateInit(&z) != Z_OK) throw std::runtime_error("zlib: inflateInit failed");
  std::string out(std::max<std::size_t>(4096, in.size() * 4), '\0');
  std::size_t done = 0;
  z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(in.data()));
  z.avail_in = static_cast<uInt>(in.size());
  for (;;) {
    if (done == out.size()) out.resize(out.size() * 2);
    z.next_out = reinterpret_cast<Bytef*>(out.data() + done);
    z.avail_out = static_cast<uInt>(std::min<std::size_t>(out.size() - done, 1u << 30));
    const uInt before = z.avail_out;
    const int rc = inflate(&z, Z_NO_FLUSH);
    done += before - z.avail_out;
    if (rc == Z_STREAM_END && z.avail_in == 0) break;
    if (rc == Z_STREAM_END) {  // the next rank's stream
      inflateReset(&z);
      continue;
    }
    if (rc == Z_OK || (rc == Z_BUF_ERROR && z.avail_out == 0)) continue;  // more input, or more room
    const std::string message = rc == Z_BUF_ERROR ? "ends inside a compressed stream: the region is cut or its length "
                                                    "in the header wrong"
                                                  : fmt::format("is not valid ZLIB data ({})", z.msg ? z.msg : "");
    inflateEnd(&z);
    throw UserError(fmt::format("{} {}", where, message));
  }
  out.resize(done);
  inflateEnd(&z);
  return out;
}

std::string inflate_bzip2(std::string_view in, const std::string& where) {
  bz_stream s{};
  if (BZ2_bzDecompressInit(&s, 0, 0) != BZ_OK) throw std::runtime_error("bzip2: BZ2_bzDecompressInit failed");
  std::string out(std::max<std::size_t>(4096, in.size() * 6), '\0');
  std::size_t done = 0;
  s.next_in = const_cast<char*>(in.data());
  s.avail_in = static_cast<unsigned>(in.size());
  for (;;) {
    if (done == out.size()) out.resize(out.size() * 2);
    s.next_out = out.data() + done;
    s.avail_out = static_cast<unsigned>(std::min<std::size_t>(out.size() - done, 1u << 30));
    const unsigned before = s.avail_out;
    const int rc = BZ2_bzDecompress(&s);
    done += before - s.avail_out;
    if (rc == BZ_STREAM_END && s.avail_in == 0) break;
    if (rc == BZ_STREAM_END) {  // the next rank's stream
      BZ2_bzDecompressEnd(&s);
      if (BZ2_bzDecompressInit(&s, 0, 0) != BZ_OK) throw std::runtime_error("bzip2: BZ2_bzDecompressInit failed");
      continue;
    }
    if (rc == BZ_OK && (s.avail_in > 0 || s.avail_out == 0)) continue;
    BZ2_bzDecompressEnd(&s);
    throw UserError(fmt::format("{} {}", where,
                                rc == BZ_OK ? "ends inside a compressed stream: the region is cut or its length in the "
                                              "header wrong"
                                            : fmt::format("is not valid BZIP2 data (bzip2 error {})", rc)));
  }
  out.resize(done);
  BZ2_bzDecompressEnd(&s);
  return out;
}

std::string region_data(std::string_view bytes, const Header& h, const Region& r, const std::string& what,
                        const std::string& path) {
  if (r.length == 0) return {};
  const std::string_view in = bytes.substr(r.offset, r.length);
  if (in.size() >= (std::size_t{1} << 32))
    throw log_error(path, fmt::format("the {} region is {} bytes: over 4 GiB", what, in.size()));
  const std::string where =
      fmt::format("{}: the {} region (bytes {} to {})", path, what, r.offset, r.offset + r.length);
  if (h.compression == 0) return inflate_zlib(in, where);
  if (h.compression == 1) return inflate_bzip2(in, where);
  return std::string(in);
}

void read_job(const std::string& data, const Header& h, const std::string& path, DarshanBinaryLog& log) {
  const bool with_nanoseconds = h.minor >= 41;
  const std::size_t fixed = (with_nanoseconds ? 7 : 5) * 8 + 1024;  // the integers and the metadata
  if (data.size() < fixed)
    throw log_error(
        path, fmt::format("the job record holds {} bytes, fewer than its {}: the log is damaged", data.size(), fixed));
  const LogBytes b(data, h.big_endian);
  const std::size_t step = with_nanoseconds ? 16 : 8;  // start and end carry their nanoseconds from 3.41
  log.uid = b.i64(0);
  log.start_time = b.i64(8);
  log.end_time = b.i64(8 + step);
  log.nprocs = b.i64(8 + 2 * step);
  log.jobid = b.i64(16 + 2 * step);
  // darshan_log_get_job_runtime: from 3.41 the nanoseconds count; before, whole
  // seconds and the last one counted whole. In doubles: a damaged log's times
  // may be any 64-bit values, whose difference overflows (exact below 2^53 s).
  log.run_time = with_nanoseconds ? (static_cast<double>(log.end_time) + static_cast<double>(b.i64(32)) / 1e9) -
                                        (static_cast<double>(log.start_time) + static_cast<double>(b.i64(16)) / 1e9)
                                  : static_cast<double>(log.end_time) - static_cast<double>(log.start_time) + 1;
}

std::unordered_map<std::uint64_t, std::string> read_names(const std::string& data, const Header& h,
                                                          const std::string& path) {
  std::unordered_map<std::uint64_t, std::string> names;
  const LogBytes b(data, h.big_endian);
  std::size_t at = 0;
  while (at < data.size()) {
    if (data.size() - at < (h.minor == 0 ? 12 : 9))
      throw log_error(path, fmt::format("the name region ends inside a record (byte {} of {}): the log is damaged", at,
                                        data.size()));
    const std::uint64_t id = b.u64(at);
    std::size_t begin = at + 8, end;
    if (h.minor == 0) {  // 3.00: the path's length, then the path
      const std::uint32_t length = b.u32(at + 8);
      begin += 4;
      if (length > data.size() - begin)
        throw log_error(path, fmt::format("a name record says {} bytes of path where {} remain: the log is damaged",
                                          length, data.size() - begin));
      end = begin + length;
      at = end;
    } else {
      end = data.find('\0', begin);
      if (end == std::string::npos)
        throw log_error(path, "the last name record has no terminating NUL: the log is cut or damaged");
      at = end + 1;
    }
    // A repeated id keeps its first name unless that one is empty (darshan_log_get_namerecs).
    auto [it, added] = names.emplace(id, data.substr(begin, end - begin));
    if (!added && it->second.empty()) it->second = data.substr(begin, end - begin);
  }
  return names;
}

std::string name_of(const std::unordered_map<std::uint64_t, std::string>& names, std::uint64_t id) {
  const auto it = names.find(id);
  return it == names.end() ? "(null)" : it->second;  // darshan's parsers print a missing name as printf does NULL
}

}  // namespace

namespace {

// The modules each parser warns are incomplete (darshan-parser.c and
// darshan-dxt-parser.c with --show-incomplete): darshan-parser every flagged
// module but DXT (and a flagged module without data, DXT included);
// darshan-dxt-parser flagged DXT and LUSTRE modules with data, when the log has DXT data.
void incomplete_modules(const Header& h, DarshanBinaryLog& log) {
  for (int id = 0; id < kKnownModules; ++id) {
    if (!((h.partial >> id) & 1)) continue;
    const bool has_data = h.modules[id].length > 0;
    if (!has_data || !is_dxt(id)) log.incomplete_counters.emplace_back(kModuleNames[id]);
    if (has_data && log.has_dxt_data && (is_dxt(id) || id == kLustre))
      log.incomplete_dxt.emplace_back(kModuleNames[id]);
  }
}

void name_records(const std::unordered_map<std::uint64_t, std::string>& names, DarshanBinaryLog& log) {
  for (auto& r : log.records) r.name = name_of(names, r.id);
  for (auto& r : log.dxt) r.name = name_of(names, r.id);
  for (auto& r : log.heatmaps) r.name = name_of(names, r.id);
}

}  // namespace

bool looks_like_darshan_log(std::string_view head) {
  if (head.size() < 16 || head.substr(0, 2) != "3." || head.find('\0') > 8) return false;
  return LogBytes(head, false).i64(8) == kDarshanMagic || LogBytes(head, true).i64(8) == kDarshanMagic;
}

bool is_darshan_log(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  char head[16];
  return in.read(head, sizeof head) && looks_like_darshan_log(std::string_view(head, sizeof head));
}

DarshanBinaryLog parse_darshan_log(std::string_view bytes, const std::string& path, unsigned parts) {
  const Header h = parse_header(bytes, bytes.size(), path);
  DarshanBinaryLog log;
  log.version = fmt::format("3.{:02}", h.minor);
  log.compression = std::array{"ZLIB", "BZIP2", "NONE"}[h.compression];
  read_job(region_data(bytes, h, h.job, "job", path), h, path, log);
  log.has_dxt_data = holds_data(h, true);
  log.has_counter_data = holds_data(h, false);
  for (int id = 0; id < kKnownModules; ++id) {
    if (h.modules[id].length == 0) continue;
    const std::string what = fmt::format("{} module", kModuleNames[id]);
    const bool counters = id == kPosix || id == kMpiio || id == kStdio;
    if (counters && (parts & kDarshanCounters))
      read_counter_records(region_data(bytes, h, h.modules[id], what, path), id, h.versions[id], h.big_endian, path,
                           log.records);
    if (is_dxt(id) && (parts & kDarshanDxt))
      read_dxt_records(region_data(bytes, h, h.modules[id], what, path), id == kDxtMpiio, h.versions[id], h.big_endian,
                       path, log.dxt);
    if (id == kHeatmap && (parts & kDarshanHeatmap))
      read_heatmap_records(region_data(bytes, h, h.modules[id], what, path), h.versions[id], h.big_endian, path,
                           log.heatmaps);
  }
  incomplete_modules(h, log);
  name_records(read_names(region_data(bytes, h, h.names, "name", path), h, path), log);
  return log;
}

bool darshan_log_has_dxt(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw UserError(fmt::format("{}: cannot open the darshan log", path));
  std::string head(kHeaderSize341, '\0');
  in.read(head.data(), static_cast<std::streamsize>(head.size()));
  head.resize(static_cast<std::size_t>(in.gcount()));
  const Header h = parse_header(head, std::filesystem::file_size(path), path);
  return holds_data(h, true);
}

DarshanBinaryLog read_darshan_log_file(const std::string& path, unsigned parts) {
  if (std::filesystem::is_directory(path)) throw UserError(fmt::format("{}: a directory, not a darshan log", path));
  std::ifstream in(path, std::ios::binary);
  if (!in) throw UserError(fmt::format("{}: cannot open the darshan log", path));
  const std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  if (in.bad()) throw UserError(fmt::format("{}: cannot read the darshan log", path));
  return parse_darshan_log(bytes, path, parts);
}

}  // namespace gs
