// A batch is sized from the memory budget; what a study needs beside it on
// the device (sorted copies, periodograms, bootstrap counts) is worked through
// in chunks of rows whose workspace stays below this.
#pragma once

#include <cstdint>

namespace gs {

constexpr std::uint64_t kComparisonWorkspaceBytes = 512ull << 20;

}  // namespace gs
