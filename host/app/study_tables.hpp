// A comparison study printed as the α-stable paper prints its results: one
// table per metric (rows datasets, columns models, `median [lo, hi]`), the
// matching degrees (Table VI) and the paired probabilities.
#pragma once

#include <string>

#include "estimators/study.hpp"

namespace gs {

std::string study_tables(const Study& study);

}  // namespace gs
