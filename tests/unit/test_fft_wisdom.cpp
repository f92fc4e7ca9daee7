// FFT plans from wisdom (host/base/fft.hpp): the plan a run executes is the
// one its wisdom holds, or FFTW_ESTIMATE's own where it has none, whatever
// else the process left in FFTW's process-wide wisdom; and the generation's
// bits follow the plans alone, not the thread count. The plans FFTW itself
// makes (its own planner, called here directly) are the reference.
#include <fftw3.h>
#include <gtest/gtest.h>
#include <omp.h>

#include <cmath>
#include <cstdlib>
#include <string>
#include <vector>

#include "host/base/fft.hpp"
#include "host/engine/backend.hpp"
#include "host/engine/config.hpp"
#include "host/models/model.hpp"
#include "test_support.hpp"

namespace gs {
namespace {

// FFTW's own printed plan of `problem` under `flags`, made here on aligned
// scratch arrays with whatever wisdom FFTW holds now; "" where
// FFTW_WISDOM_ONLY finds none.
std::string fftw_plan_as_printed(const FftProblem& problem, unsigned flags) {
  const int n = static_cast<int>(problem.n);
  double* real = fftw_alloc_real(problem.n);
  fftw_complex* spectrum = fftw_alloc_complex(problem.n / 2 + 1);
  const fftw_plan plan = problem.forward ? fftw_plan_dft_r2c_1d(n, real, spectrum, flags)
                                         : fftw_plan_dft_c2r_1d(n, spectrum, real, flags | FFTW_DESTROY_INPUT);
  std::string text;
  if (plan) {
    char* printed = fftw_sprint_plan(plan);
    text = printed;
    std::free(printed);
    fftw_destroy_plan(plan);
  }
  fftw_free(real);
  fftw_free(spectrum);
  return text;
}

std::string exported_wisdom() {
  char* exported = fftw_export_wisdom_to_string();
  std::string text = exported;
  fftw_free(exported);
  return text;
}

TEST(FftWisdom, PlansComeFromTheWisdomWhereItHasThem) {
  const std::vector<FftProblem> problems = {{8192, false}, {4096, true}};
  const FftWisdom wisdom{"measured", measure_fft_wisdom(problems, "", false), ""};
  ASSERT_TRUE(fftw_accepts_wisdom(wisdom.text));
  fftw_forget_wisdom();
  const std::string none = exported_wisdom();
  for (const FftProblem& problem : problems) {
    ASSERT_TRUE(fftw_import_wisdom_from_string(wisdom.text.c_str()));  // gpusynth's planning below forgets it
    const std::string measured = fftw_plan_as_printed(problem, FFTW_ESTIMATE | FFTW_WISDOM_ONLY);
    ASSERT_FALSE(measured.empty()) << to_string(problem);
    EXPECT_EQ(fft_plan_text(problem, &wisdom), measured) << to_string(problem);
    EXPECT_TRUE(wisdom_has_plan(&wisdom, problem)) << to_string(problem);
    EXPECT_FALSE(wisdom_has_plan(nullptr, problem)) << to_string(problem);
    fftw_forget_wisdom();  // and without wisdom, FFTW_ESTIMATE's plan (a plan per wisdom is cached)
    EXPECT_EQ(fft_plan_text(problem, nullptr), fftw_plan_as_printed(problem, FFTW_ESTIMATE)) << to_string(problem);
  }
  EXPECT_FALSE(wisdom_has_plan(&wisdom, {10000, false}));
  EXPECT_FALSE(wisdom_has_plan(&wisdom, {8192, true}));  // the other direction is another plan
  // Nothing is left in FFTW's wisdom by gpusynth's planning.
  fftw_forget_wisdom();
  measure_fft_wisdom({{2048, false}}, wisdom.text, false);
  fft_plan_text({12000, false}, &wisdom);
  EXPECT_EQ(exported_wisdom(), none);
  // Wisdom is added to, not replaced.
  const std::string both = measure_fft_wisdom({{2048, false}}, wisdom.text, false);
  const FftWisdom merged{"merged", both, ""};
  for (const FftProblem& problem : {FftProblem{8192, false}, FftProblem{4096, true}, FftProblem{2048, false}})
    EXPECT_TRUE(wisdom_has_plan(&merged, problem)) << to_string(problem);
  EXPECT_FALSE(fftw_accepts_wisdom("(not wisdom)"));
  EXPECT_FALSE(fftw_accepts_wisdom("(fftw-2.1.5 fftw_wisdom #x0 #x0 #x0 #x0)"));
}

TEST(FftWisdom, PlansWithoutWisdomAreEstimatesWhateverFftwHolds) {
  const FftProblem problem{12288, false};  // planned by no other test of this process
  fftw_forget_wisdom();
  const std::string estimate = fftw_plan_as_printed(problem, FFTW_ESTIMATE);
  // A measured plan left in FFTW's process-wide wisdom (a benchmark's
  // FFTW_MEASURE, another run's wisdom) would be taken by FFTW_ESTIMATE.
  const std::string measured_wisdom = measure_fft_wisdom({problem}, "", false);
  ASSERT_TRUE(fftw_import_wisdom_from_string(measured_wisdom.c_str()));
  const std::string left_over = fftw_plan_as_printed(problem, FFTW_ESTIMATE);
  EXPECT_EQ(fft_plan_text(problem, nullptr), estimate);
  fftw_forget_wisdom();
  if (left_over == estimate)
    GTEST_SKIP() << "FFTW_MEASURE chose FFTW_ESTIMATE's plan for " << to_string(problem)
                 << " on this CPU: a left-over plan would not show (the plans above were still compared)";
}

// One ensemble's replicas generated on the CPU with `wisdom`.
std::vector<double> fgn_replicas(const FftWisdom* wisdom, int threads) {
  EnsembleSpec spec;
  spec.name = "wisdom";
  spec.model = make_model("fgn", "{H: 0.8}");
  spec.dtype = Dtype::float64;
  spec.replicas = 6;
  spec.length = 4096;
  spec.stream = 3;
  const EnsembleJob job = make_job(spec, 11);
  ExecutionContext context = test::context();
  if (wisdom) context.fft_wisdom = std::make_shared<const FftWisdom>(*wisdom);
  const int before = omp_get_max_threads();
  omp_set_num_threads(threads);
  std::vector<double> out(spec.replicas * spec.length);
  make_cpu_backend(context)->make_generator(job, spec.replicas)->generate(0, spec.replicas, out.data());
  omp_set_num_threads(before);
  return out;
}

TEST(FftWisdom, GenerationFollowsThePlansAloneNotTheThreads) {
  const FftWisdom wisdom{"measured", measure_fft_wisdom({{8192, false}}, "", false), ""};  // fgn: c2r of 2 x 4096
  ASSERT_TRUE(wisdom_has_plan(&wisdom, {8192, false}));
  const std::vector<double> planned = fgn_replicas(&wisdom, 1);
  EXPECT_EQ(fgn_replicas(&wisdom, 2), planned);
  // Another FFT's rounding only: the same Gaussian series to ~1e-15 of its
  // unit scale (sums of 8192 terms of size ~1/sqrt(8192) each).
  const std::vector<double> estimated = fgn_replicas(nullptr, 2);
  ASSERT_EQ(estimated.size(), planned.size());
  double largest = 0;
  for (std::size_t i = 0; i < planned.size(); ++i) largest = std::max(largest, std::abs(planned[i] - estimated[i]));
  EXPECT_LT(largest, 1e-12);
  EXPECT_EQ(fgn_replicas(nullptr, 1), estimated);
  // And the plan is the wisdom's: where it is not FFTW_ESTIMATE's, some of
  // the 24576 values round otherwise.
  if (fft_plan_text({8192, false}, &wisdom) != fft_plan_text({8192, false}, nullptr)) {
    EXPECT_NE(planned, estimated);
  }
}

}  // namespace
}  // namespace gs
