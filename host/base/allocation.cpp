#include "host/base/allocation.hpp"

#include <cstdlib>  // defines __GLIBC__ where it applies

#if defined(__GLIBC__)
#include <malloc.h>
#endif

namespace gs {

void keep_freed_memory_for_reuse() {
#if defined(__GLIBC__)
  constexpr int kMappedFrom = 32 << 20;  // what glibc's dynamic threshold would reach at most
  mallopt(M_MMAP_THRESHOLD, kMappedFrom);
  mallopt(M_TRIM_THRESHOLD, 2 * kMappedFrom);
#endif
}

}  // namespace gs
