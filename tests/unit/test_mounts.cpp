// The replay target's file system (host/base/mounts.hpp): the longest
// whole-component mount-point prefix of the path, escapes undone, optional
// fields skipped, the mount's and the super block's options together.
#include <gtest/gtest.h>

#include "host/base/mounts.hpp"

namespace gs {
namespace {

const char* kMountinfo =
    "22 1 259:2 / / rw,relatime shared:1 - ext4 /dev/nvme0n1p2 rw,errors=remount-ro\n"
    "30 22 0:26 / /scratch rw,nosuid shared:7 master:2 - lustre 10.0.0.1@o2ib:/fs rw,flock\n"
    "31 22 0:27 / /scratch2 rw - xfs /dev/sdb1 rw,noquota\n"
    "32 22 0:28 / /my\\040disk rw,noatime - tmpfs tmpfs rw,size=1024k\n"
    "a broken line\n";

TEST(Mounts, LongestWholeComponentPrefixWins) {
  const MountInfo m = mount_from_mountinfo(kMountinfo, "/scratch/run/out");
  EXPECT_EQ(m.mount_point, "/scratch");
  EXPECT_EQ(m.type, "lustre");
  EXPECT_EQ(m.device, "10.0.0.1@o2ib:/fs");
  EXPECT_EQ(m.options, "rw,nosuid,rw,flock");
  // /scratch2 is no part of /scratch, nor /scratchy of either.
  EXPECT_EQ(mount_from_mountinfo(kMountinfo, "/scratch2/x").type, "xfs");
  EXPECT_EQ(mount_from_mountinfo(kMountinfo, "/scratchy").type, "ext4");
  EXPECT_EQ(mount_from_mountinfo(kMountinfo, "/").device, "/dev/nvme0n1p2");
}

TEST(Mounts, EscapedSpacesAndLaterMountsHidingEarlierOnes) {
  EXPECT_EQ(mount_from_mountinfo(kMountinfo, "/my disk/a").type, "tmpfs");
  const std::string hidden = std::string(kMountinfo) + "40 22 0:30 / /scratch rw - nfs4 server:/x rw\n";
  EXPECT_EQ(mount_from_mountinfo(hidden, "/scratch/a").type, "nfs4");
  EXPECT_TRUE(mount_from_mountinfo("nonsense\n", "/a").type.empty());
}

TEST(Mounts, ThisProcessHasARoot) { EXPECT_FALSE(mount_of("/").type.empty()); }

}  // namespace
}  // namespace gs
