// Inputs that real data come in (issue: fits you can trust on real traces):
// `--format values`, one value per line of any sign with no bin (latencies,
// sizes), and `series` tables without a time column (`--column row`).
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "host/base/errors.hpp"
#include "io/series_source.hpp"
#include "test_support.hpp"

namespace gs {
namespace {

TEST(ValuesFormat, OneValuePerLineOfAnySignWithoutABin) {
  test::TempDir dir;
  const std::string path = dir.path("sizes.txt");
  test::write_file(path, "# request sizes\n4096\n-3.5\n0\n1e6\n");
  SeriesSource source;
  source.traces = {path};
  source.trace.format = "values";
  const LoadedSeries s = read_series(source);  // no --bin: it is not a binned format
  EXPECT_EQ(s.series, (std::vector<double>{4096, -3.5, 0, 1e6}));
  EXPECT_EQ(s.trace.series_times, (std::vector<double>{0, 1, 2, 3}));
  EXPECT_EQ(s.trace.kind, Trace::Kind::series);
}

// A per-OST table (ost_id, seconds, bytes, writes) has no time column: the
// row index is the time, and the value column is named.
TEST(ValuesFormat, SeriesWithTheRowIndexAsTime) {
  test::TempDir dir;
  const std::string path = dir.path("ost.tsv");
  test::write_file(path, "ost_id\tseconds\tbytes\twrites\n7\t0.5\t4096\t1\n3\t1.25\t8192\t2\n9\t0.75\t0\t0\n");
  SeriesSource source;
  source.traces = {path};
  source.trace.format = "series";
  source.trace.time_column = "row";
  source.trace.value_column = "seconds";
  const LoadedSeries s = read_series(source);
  EXPECT_EQ(s.series, (std::vector<double>{0.5, 1.25, 0.75}));
  EXPECT_EQ(s.trace.series_times, (std::vector<double>{0, 1, 2}));
  // Without it the first column (ost_id: 7, 3, 9) would be times out of order: an error.
  source.trace.time_column = "1";
  EXPECT_THROW(read_series(source), UserError);
}

}  // namespace
}  // namespace gs
