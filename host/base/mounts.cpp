#include "host/base/mounts.hpp"

#include <fmt/format.h>
#include <sys/vfs.h>

#include <fstream>
#include <sstream>
#include <vector>

#include "host/base/run_paths.hpp"

namespace gs {

namespace {

// mountinfo writes space, tab, newline and backslash in paths as \ooo (octal).
std::string unescape(const std::string& field) {
  std::string out;
  for (std::size_t i = 0; i < field.size(); ++i) {
    if (field[i] == '\\' && i + 3 < field.size()) {
      const std::string octal = field.substr(i + 1, 3);
      if (octal.find_first_not_of("01234567") == std::string::npos) {
        out += static_cast<char>(std::stoi(octal, nullptr, 8));
        i += 3;
        continue;
      }
    }
    out += field[i];
  }
  return out;
}

// Whether mount point `mount` holds `path`: the mount point itself or a path inside it.
bool holds(const std::string& mount, const std::string& path) { return path == mount || inside(path, mount); }

// statfs(2)'s f_type of the file systems a replay target is likely on.
std::string type_of_magic(long magic) {
  switch (static_cast<unsigned long>(magic) & 0xffffffffUL) {
    case 0xEF53:
      return "ext2/3/4";
    case 0x58465342:
      return "xfs";
    case 0x9123683E:
      return "btrfs";
    case 0x01021994:
      return "tmpfs";
    case 0x6969:
      return "nfs";
    case 0x0BD00BD0:
      return "lustre";
    case 0x47504653:
      return "gpfs";
    case 0x794C7630:
      return "overlay";
    case 0x2FC12FC1:
      return "zfs";
    case 0x65735546:
      return "fuse";
    default:
      return fmt::format("unknown (statfs f_type {:#x})", static_cast<unsigned long>(magic));
  }
}

}  // namespace

MountInfo mount_from_mountinfo(const std::string& mountinfo, const std::string& path) {
  MountInfo best;
  std::istringstream lines(mountinfo);
  std::string line;
  while (std::getline(lines, line)) {
    // id parent major:minor root MOUNT_POINT OPTIONS [optional fields…] - TYPE SOURCE SUPER_OPTIONS
    std::istringstream in(line);
    std::vector<std::string> fields;
    for (std::string f; in >> f;) fields.push_back(f);
    std::size_t dash = 6;
    while (dash < fields.size() && fields[dash] != "-") ++dash;
    if (fields.size() < 6 || dash + 3 > fields.size()) continue;
    const std::string mount = unescape(fields[4]);
    if (!holds(mount, path) || mount.size() < best.mount_point.size()) continue;
    best = {mount, fields[dash + 1], unescape(fields[dash + 2]),
            dash + 3 < fields.size() ? fields[5] + "," + fields[dash + 3] : fields[5]};
  }
  return best;
}

MountInfo mount_of(const std::string& path) {
  std::ifstream file("/proc/self/mountinfo");
  std::ostringstream text;
  text << file.rdbuf();
  MountInfo m = mount_from_mountinfo(text.str(), identity_of(path).string());
  if (!m.type.empty()) return m;
  struct statfs info {};
  m = {"unknown", "unknown", "unknown", "unknown"};
  if (statfs(path.c_str(), &info) == 0) m.type = type_of_magic(static_cast<long>(info.f_type));
  return m;
}

}  // namespace gs
