// estimators/logistic_lanes.hpp: every form this CPU runs gives, to the bit, the
// arithmetic the header promises, written here one row and one sum at a time:
// each sum over rows in its order (column sums row by row; the score and the
// information row i into partial sum i mod 4, added as (s0 + s1) + (s2 + s3)),
// for row counts around a pack (4) and the score's cache block (256 rows), and
// inputs spread over many magnitudes, so that any other order of additions
// changes some last bit. A form the CPU lacks is not offered.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <vector>

#include "estimators/logistic_lanes.hpp"
#include "kernels/philox.hpp"

namespace gs {
namespace {

constexpr VectorForm kForms[] = {VectorForm::portable, VectorForm::sse2, VectorForm::avx, VectorForm::avx512};
constexpr std::size_t kRowCounts[] = {1, 3, 4, 5, 255, 256, 257, 1031};

// Values of random sign spread over 1e-6 … 1e6, and some zeros of both signs: sums of these in another order
// round differently.
std::vector<double> spread_values(std::size_t count, std::uint32_t stream) {
  std::vector<double> v(count);
  for (std::size_t i = 0; i < count; ++i) {
    const PhiloxBits bits = philox_bits({23, stream}, 0, i, 0);
    const double magnitude = std::pow(10.0, 12 * uniform_open(bits[0]) - 6);
    v[i] = bits[1] % 17 == 0 ? (bits[1] % 2 ? 0.0 : -0.0) : (bits[1] % 2 ? magnitude : -magnitude);
  }
  return v;
}

bool same_bits(double a, double b) { return std::memcmp(&a, &b, sizeof a) == 0; }

// The first index where got and want differ in some bit, or want.size().
std::size_t first_difference(const std::vector<double>& got, const std::vector<double>& want) {
  for (std::size_t i = 0; i < want.size(); ++i)
    if (!same_bits(got[i], want[i])) return i;
  return want.size();
}

// Runs check(passes, form) for every form this CPU runs; a form it lacks gives nullptr.
template <class Check>
void for_every_form(Check check) {
  for (VectorForm form : kForms) {
    const LogisticPasses* passes = logistic_passes_in_form(form);
    EXPECT_EQ(passes != nullptr, form <= widest_vector_form()) << to_string(form);
    if (passes) check(*passes, form);
  }
}

TEST(LogisticLanes, ColumnMomentsAndStandardizeSumRowByRowInTheRowsOrder) {
  for (const std::size_t columns : {1, 3, 4, 7, 9}) {
    const std::size_t feature_rows = 1100;
    const std::vector<double> features = spread_values(feature_rows * columns, columns);
    for (const std::size_t n : kRowCounts) {
      std::vector<std::size_t> rows(n);  // out of order, some twice, the last row of the matrix among them
      for (std::size_t i = 0; i < n; ++i) rows[i] = (i * 7919 + 13) % feature_rows;
      rows[n / 2] = feature_rows - 1;
      std::vector<double> mean(columns), squares(columns), sd(columns), x(columns * n);
      for (std::size_t k = 0; k < columns; ++k) {
        double sum = 0, square = 0;
        for (std::size_t r : rows) sum += features[r * columns + k];
        mean[k] = sum / static_cast<double>(n);
        for (std::size_t r : rows)
          square += (features[r * columns + k] - mean[k]) * (features[r * columns + k] - mean[k]);
        squares[k] = square;
        sd[k] = square > 0 ? std::sqrt(square / static_cast<double>(n)) : 1.0;
        for (std::size_t i = 0; i < n; ++i) x[k * n + i] = (features[rows[i] * columns + k] - mean[k]) / sd[k];
      }
      for_every_form([&](const LogisticPasses& passes, VectorForm form) {
        std::vector<double> got_mean(columns), got_squares(columns), got_x(columns * n);
        passes.column_moments(features.data(), columns, rows.data(), n, got_mean.data(), got_squares.data());
        EXPECT_EQ(first_difference(got_mean, mean), columns) << to_string(form) << " columns " << columns << " n " << n;
        EXPECT_EQ(first_difference(got_squares, squares), columns)
            << to_string(form) << " columns " << columns << " n " << n;
        passes.standardize(features.data(), columns, rows.data(), n, mean.data(), sd.data(), got_x.data());
        EXPECT_EQ(first_difference(got_x, x), x.size()) << to_string(form) << " columns " << columns << " n " << n;
      });
    }
  }
}

// η and e as a fit has them: |η| up to ~40 and zeros of both signs.
struct Rows {
  std::vector<double> eta, e, y;
};
Rows logistic_rows(std::size_t n) {
  Rows r{spread_values(n, 101), std::vector<double>(n), std::vector<double>(n)};
  for (std::size_t i = 0; i < n; ++i) {
    r.eta[i] = std::copysign(std::fmod(std::fabs(r.eta[i]), 40.0), r.eta[i]);
    r.e[i] = std::exp(-std::fabs(r.eta[i]));
    r.y[i] = (i * 2654435761u) % 5 < 2;
  }
  return r;
}

TEST(LogisticLanes, RowPassesGiveEachRowsFormula) {
  for (const std::size_t n : kRowCounts) {
    for (const std::size_t p : {1, 2, 5, 8, 10}) {
      const std::vector<double> x = spread_values(n * p, 200 + p), beta = spread_values(p, 300 + p);
      const Rows r = logistic_rows(n);
      std::vector<double> eta(n), by_rows(n), probability(n), weight(n), residual(n), term(n);
      for (std::size_t i = 0; i < n; ++i) {
        double sum = 0;
        for (std::size_t k = 0; k < p; ++k) sum += x[k * n + i] * beta[k];
        eta[i] = sum;
        double from_row = beta[0];  // x read as n rows of p − 1 features (row-major), beta on their scale
        for (std::size_t k = 1; k < p; ++k) from_row += x[i * (p - 1) + k - 1] * beta[k];
        by_rows[i] = from_row;
        probability[i] = r.eta[i] >= 0 ? 1 / (1 + r.e[i]) : r.e[i] / (1 + r.e[i]);
        weight[i] = std::max(probability[i] * (1 - probability[i]), 1e-12);
        residual[i] = r.y[i] - probability[i];
        term[i] = r.y[i] * r.eta[i] - std::max(r.eta[i], 0.0);
      }
      for_every_form([&](const LogisticPasses& passes, VectorForm form) {
        std::vector<double> got(n), got_weight(n), got_residual(n), got_term(n);
        passes.linear_predictor(x.data(), n, p, beta.data(), got.data());
        EXPECT_EQ(first_difference(got, eta), n) << to_string(form) << " n " << n << " p " << p;
        passes.row_predictor(x.data(), p - 1, n, beta.data(), got.data());
        EXPECT_EQ(first_difference(got, by_rows), n) << to_string(form) << " n " << n << " p " << p << " by rows";
        passes.probabilities(r.eta.data(), r.e.data(), n, got.data());
        EXPECT_EQ(first_difference(got, probability), n) << to_string(form) << " n " << n;
        got = r.e;  // in place, as LogisticModel::probabilities calls it
        passes.probabilities(r.eta.data(), got.data(), n, got.data());
        EXPECT_EQ(first_difference(got, probability), n) << to_string(form) << " n " << n << " in place";
        passes.row_terms(r.eta.data(), r.e.data(), r.y.data(), n, got_weight.data(), got_residual.data(),
                         got_term.data());
        EXPECT_EQ(first_difference(got_weight, weight), n) << to_string(form) << " n " << n;
        EXPECT_EQ(first_difference(got_residual, residual), n) << to_string(form) << " n " << n;
        EXPECT_EQ(first_difference(got_term, term), n) << to_string(form) << " n " << n;
      });
    }
  }
}

TEST(LogisticLanes, ScoreAndInformationSumRowIIntoPartialSumIMod4) {
  for (const std::size_t n : kRowCounts) {
    for (const std::size_t p : {1, 2, 5, 8, 10}) {
      const std::vector<double> x = spread_values(n * p, 400 + p), weight = spread_values(n, 500),
                                residual = spread_values(n, 600);
      std::vector<double> gradient(p), information(p * p);
      const auto four_sums = [&](auto product) {
        double s[4] = {0, 0, 0, 0};
        for (std::size_t i = 0; i < n; ++i) s[i % 4] += product(i);
        return (s[0] + s[1]) + (s[2] + s[3]);
      };
      for (std::size_t k = 0; k < p; ++k) {
        gradient[k] = four_sums([&](std::size_t i) { return residual[i] * x[k * n + i]; });
        for (std::size_t c = 0; c <= k; ++c)
          information[k * p + c] = information[c * p + k] =
              four_sums([&](std::size_t i) { return (weight[i] * x[k * n + i]) * x[c * n + i]; });
      }
      for_every_form([&](const LogisticPasses& passes, VectorForm form) {
        std::vector<double> got_gradient(p), got_information(p * p), scratch(logistic_scratch_size(p), -1.0);
        passes.score_and_information(x.data(), n, p, weight.data(), residual.data(), got_gradient.data(),
                                     got_information.data(), scratch.data());
        EXPECT_EQ(first_difference(got_gradient, gradient), p) << to_string(form) << " n " << n << " p " << p;
        EXPECT_EQ(first_difference(got_information, information), p * p) << to_string(form) << " n " << n << " p " << p;
      });
    }
  }
}

}  // namespace
}  // namespace gs
