// estimators/deterministic_exp.hpp: every form this CPU runs gives the portable
// C form's bits (SLEEF's deterministic functions without FMA), wherever a value
// falls in a pack and however many values there are (log1p's too); the values are within
// SLEEF's 1.0 ulp of exp in long double, as are log1p's; a NaN stays
// a NaN; a form the CPU lacks writes nothing.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <limits>
#include <vector>

#include "estimators/deterministic_exp.hpp"
#include "kernels/philox.hpp"

namespace gs {
namespace {

constexpr VectorForm kForms[] = {VectorForm::portable, VectorForm::sse2, VectorForm::avx, VectorForm::avx512};

// η of a logistic fit (|η| up to ~40), the edges of exp's range, zeros of both signs and infinities.
std::vector<double> inputs() {
  std::vector<double> x = {0.0, -0.0, 1e-300, -5e-324, 1e-17, 0.5, -0.5, 1.0, 36.7, -37.0, 700.0, 708.39, 709.8,
                           -744.4, 745.2, 746.0, 1e308, -std::numeric_limits<double>::infinity(),
                           std::numeric_limits<double>::infinity()};
  for (std::uint64_t i = 0; x.size() < 4099; ++i) {
    const PhiloxBits bits = philox_bits({17, 9}, 0, i, 0);
    const double u = uniform_open(bits[0]) - 0.5;
    x.push_back(bits[1] % 4 == 0 ? u * 1600 : u * 80);
  }
  return x;
}

bool same_bits(double a, double b) { return std::memcmp(&a, &b, sizeof a) == 0; }

// Every form of `in_form` (one of the *_in_form functions) gives the portable form's bits on x, for counts that
// end a pack anywhere and starts that shift every value's lane; a form this CPU lacks writes nothing.
// Returns the number of forms run here.
template <class InForm>
int expect_every_form_gives_the_portable_bits(InForm in_form, const std::vector<double>& x) {
  std::vector<double> reference(x.size());
  EXPECT_TRUE(in_form(VectorForm::portable, x.data(), x.size(), reference.data()));
  int forms_run = 0;
  for (VectorForm form : kForms) {
    for (const std::size_t offset : {0, 1, 3}) {
      for (const std::size_t n : {1, 2, 7, 13, 1001, 4096}) {
        std::vector<double> out(n, -1.0);
        const bool ran = in_form(form, x.data() + offset, n, out.data());
        EXPECT_EQ(ran, form <= widest_vector_form()) << to_string(form);
        if (!ran) {
          EXPECT_EQ(out, std::vector<double>(n, -1.0)) << to_string(form) << ": written though not run";
          continue;
        }
        for (std::size_t i = 0; i < n; ++i) {
          const bool same = same_bits(out[i], reference[offset + i]);
          EXPECT_TRUE(same) << to_string(form) << " at x = " << x[offset + i];
          if (!same) return forms_run;  // one report, not thousands
        }
      }
    }
    forms_run += form <= widest_vector_form();
  }
  return forms_run;
}

TEST(DeterministicExp, EveryFormGivesThePortableBits) {
  const int forms_run = expect_every_form_gives_the_portable_bits(exp_of_negative_magnitude_in_form, inputs());
  std::printf("forms run here: %d (widest %s)\n", forms_run, to_string(widest_vector_form()));
}

// A NaN gives a NaN in every form and lane (its payload may differ between
// forms: the callers refuse NaN scores before exp, so no bits depend on it),
// and leaves the other lanes' values as they were.
TEST(DeterministicExp, NanStaysNanInEveryFormAndLane) {
  const std::vector<double> x = inputs();
  for (VectorForm form : kForms) {
    if (form > widest_vector_form()) continue;
    for (std::size_t at = 0; at < 9; ++at) {
      std::vector<double> in(x.begin(), x.begin() + 9), e(9), clean(9);
      ASSERT_TRUE(exp_of_negative_magnitude_in_form(form, in.data(), in.size(), clean.data()));
      in[at] = std::numeric_limits<double>::quiet_NaN();
      ASSERT_TRUE(exp_of_negative_magnitude_in_form(form, in.data(), in.size(), e.data()));
      for (std::size_t i = 0; i < in.size(); ++i) {
        if (i == at)
          EXPECT_TRUE(std::isnan(e[i])) << to_string(form) << " lane " << at;
        else
          EXPECT_TRUE(same_bits(e[i], clean[i])) << to_string(form) << " lane " << i << " beside a NaN";
      }
    }
  }
}

// log1p_of likewise: every form the portable bits, over the excesses the likelihood takes (Π(1 + e) − 1
// over 16 rows: from e itself to 2^16 − 1) and the edges (0, −0, subnormal, near −1, huge, infinite).
TEST(DeterministicExp, EveryFormsLog1pGivesThePortableBits) {
  std::vector<double> x = inputs(), e(x.size());
  exp_of_negative_magnitude(x.data(), x.size(), e.data());
  for (std::size_t i = 0; i < x.size(); ++i) x[i] = std::ldexp(e[i], static_cast<int>(i % 17));
  x.insert(x.begin(), {0.0, -0.0, 5e-324, -0.5, -0.999999, 1e300, std::numeric_limits<double>::infinity()});
  expect_every_form_gives_the_portable_bits(log1p_of_in_form, x);
  std::vector<double> reference(x.size());
  ASSERT_TRUE(log1p_of_in_form(VectorForm::portable, x.data(), x.size(), reference.data()));
  // In place, as the likelihood calls it.
  std::vector<double> in_place(x.begin(), x.begin() + 1001);
  log1p_of(in_place.data(), in_place.size(), in_place.data());
  for (std::size_t i = 0; i < in_place.size(); ++i) ASSERT_TRUE(same_bits(in_place[i], reference[i])) << x[i];
}

// Error in units of the last place of the double nearest the reference.
double ulps(double got, long double reference) {
  const double nearest = static_cast<double>(reference);
  const double ulp = std::nextafter(std::fabs(nearest), INFINITY) - std::fabs(nearest);
  return static_cast<double>(std::fabs(static_cast<long double>(got) - reference) / ulp);
}

TEST(DeterministicExp, WithinOneUlpOfLongDouble) {
  const std::vector<double> x = inputs();
  std::vector<double> e(x.size());
  exp_of_negative_magnitude(x.data(), x.size(), e.data());
  double worst_exp = 0, worst_log = 0;
  for (std::size_t i = 0; i < x.size(); ++i) {
    const long double reference = std::exp(-std::fabs(static_cast<long double>(x[i])));
    if (reference < std::numeric_limits<double>::min())  // subnormal or zero: within one subnormal step
      EXPECT_LE(std::fabs(e[i] - static_cast<double>(reference)), 5e-324) << x[i];
    else
      worst_exp = std::max(worst_exp, ulps(e[i], reference));
    // The likelihood's log1p are of Π(1 + e) − 1 over 16 rows: from e itself to 2^16 − 1.
    const double excess = std::ldexp(e[i], static_cast<int>(i % 17));
    double log = 0;
    log1p_of(&excess, 1, &log);
    if (excess > 0) worst_log = std::max(worst_log, ulps(log, std::log1p(static_cast<long double>(excess))));
  }
  EXPECT_LE(worst_exp, 1.0);
  EXPECT_LE(worst_log, 1.0);
  std::printf("worst: exp %.3f ulp, log1p %.3f ulp\n", worst_exp, worst_log);
}

}  // namespace
}  // namespace gs
