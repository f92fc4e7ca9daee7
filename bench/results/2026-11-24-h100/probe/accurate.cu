#define PROBE_NS accurate
#include "variants_impl.cuh"
