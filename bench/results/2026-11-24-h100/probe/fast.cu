#define PROBE_NS fast
#include "variants_impl.cuh"
