#pragma once

namespace gs {

// The program's allocation policy, set once at start by the executables (not
// by the Python module: the interpreter owns its process): memory freed
// below 32 MiB stays in the heap for reuse instead of going back to the
// kernel. The burst Monte Carlo allocates and frees vectors of one series
// (tens to hundreds of KiB) about a thousand times per replica; with glibc's
// default (the heap's top trimmed past 128 KiB) every reuse faulted its pages
// in again, measured at a quarter of its time. Blocks of 32 MiB or more (the
// ensembles' batches) are still mapped and unmapped on their own.
void keep_freed_memory_for_reuse();

}  // namespace gs
