// The eight-lane kernels on AVX2 with FMA (host/engine/cpu/lane_kernels.inc).
#include "host/engine/cpu/lane_kernels.inc"
