// The file system a path lives on, as the kernel mounted it: what a replay's
// figures measure (docs/requests.md, "Replay fidelity") depends on it.
#pragma once

#include <string>

namespace gs {

struct MountInfo {
  std::string mount_point;  // the longest mount point that is a prefix of the path
  std::string type;         // ext4, xfs, tmpfs, lustre, nfs4, …
  std::string device;       // the mount source: /dev/nvme0n1p2, server:/export, tmpfs, …
  std::string options;      // the mount's and the super block's options, comma-separated
};

// From /proc/self/mountinfo (the path resolved first: links and ".." say
// nothing of where the data go); where that cannot be read, the type from
// statfs's f_type (a name for the common ones, else its hex) and the rest
// "unknown".
MountInfo mount_of(const std::string& path);

// The mount of `path` from the text of a mountinfo file (proc(5)): the entry
// whose mount point is the longest whole-component prefix of `path` (the
// last such line wins: a later mount hides an earlier one). Empty fields when
// no line parses.
MountInfo mount_from_mountinfo(const std::string& mountinfo, const std::string& path);

}  // namespace gs
