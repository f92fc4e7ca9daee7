// `gpusynth norros`: Norros' effective bandwidth (eq. (3) of the
// self-similarity paper) and the arrival rate at which eqs. (3) and (4) agree.
#include <cstdio>

#include "estimators/model_fit.hpp"
#include "host/app/fit.hpp"
#include "host/base/errors.hpp"

namespace gs {

int norros_command(const NorrosOptions& o) {
  const double lambda = norros_arrival_rate(o.a, o.H, o.epsilon, o.b);
  std::printf("eq. (5): arrival rate lambda = %.6g at a = %g, H = %g, epsilon = %g, b = %g\n", lambda, o.a, o.H,
              o.epsilon, o.b);
  std::printf("         (its effective bandwidth by eq. (3): C = %.6g; eq. (4) gives lambda = C eps/(b(1-eps)))\n",
              norros_bandwidth(lambda, o.a, o.H, o.epsilon, o.b));
  if (o.lambda) {
    std::printf("eq. (3): effective bandwidth C = %.6g at lambda = %g\n",
                norros_bandwidth(*o.lambda, o.a, o.H, o.epsilon, o.b), *o.lambda);
  }
  return kExitOk;
}

}  // namespace gs
