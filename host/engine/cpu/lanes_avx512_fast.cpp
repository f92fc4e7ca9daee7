// The sixteen-lane kernels with SLEEF's 3.5-ulp log, sin and sin/cos of π·x
// (precision: fast; host/engine/cpu/simd.hpp says which functions change).
#define GS_LANES_AVX512 1
#define GS_FAST_LANE_MATH 1
#include "host/engine/cpu/lane_kernels.inc"
