#include "variants.cuh"
namespace PROBE_NS {
// variant: 0 engine law 64-bit, 1 engine law 32-bit+float2, 2 Gauss-only 64-bit, 3 Gauss-only 32-bit+float2,
// 4 engine law 32-bit+float2 with 512 threads, 5 engine law 32-bit 128 threads
void run_all(double alpha, std::uint64_t rows, std::uint64_t length, float* out, unsigned long long* tallies, int sms,
             int variant) {
  StableLawParams p; p.alpha = alpha; p.beta = alpha == 2 ? 0 : 0.5;
  const EngineLaw law{make_stable_sampler<float>(p)};
  const RngStreamKey key{42, 1};
  switch (variant) {
    case 0: launch64(law, key, rows, length, out, tallies, sms); break;
    case 1: launch32(law, key, rows, length, out, tallies, sms); break;
    case 2: launch64(GaussOnly{}, key, rows, length, out, tallies, sms); break;
    case 3: launch32(GaussOnly{}, key, rows, length, out, tallies, sms); break;
    case 4: launch32(law, key, rows, length, out, tallies, sms, 512); break;
    case 5: launch32(law, key, rows, length, out, tallies, sms, 128); break;
  }
}
}  // namespace PROBE_NS
