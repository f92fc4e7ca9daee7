// The sixteen-lane kernels on AVX-512 (host/engine/cpu/lane_kernels.inc).
#define GS_LANES_AVX512 1
#include "host/engine/cpu/lane_kernels.inc"
