// `gpusynth norros`: Norros' effective bandwidth (eq. (3) of the
// self-similarity paper) and the arrival rate at which eqs. (3) and (4) agree.
#include <cstdio>

#include "estimators/model_fit.hpp"
#include "host/app/fit.hpp"
#include "host/base/errors.hpp"

namespace gs {

int norros_command(const NorrosOptions& o) {
  const double lambda = norros_arrival_rate(o.a, o.H, o.epsilon, o.b);
  // a is per the time unit of t in Var A(t) = a lambda t^(2H); `fit --models norros` measures t in seconds.
  std::printf("eq. (5): arrival rate lambda = %.6g requests per time unit at a = %g, H = %g, epsilon = %g, b = %g\n",
              lambda, o.a, o.H, o.epsilon, o.b);
  std::printf(
      "         (its effective bandwidth by eq. (3): C = %.6g requests per time unit; eq. (4) gives "
      "lambda = C eps/(b(1-eps)))\n",
      norros_bandwidth(lambda, o.a, o.H, o.epsilon, o.b));
  if (o.lambda) {
    std::printf("eq. (3): effective bandwidth C = %.6g requests per time unit at lambda = %g\n",
                norros_bandwidth(*o.lambda, o.a, o.H, o.epsilon, o.b), *o.lambda);
  }
  std::printf(
      "units: the time unit of t in Var A(t) = a lambda t^(2H) (seconds when a comes from `gpusynth fit "
      "--models norros`); epsilon and b have none\n");
  return kExitOk;
}

}  // namespace gs
