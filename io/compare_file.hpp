// The results of a comparison study under /compare (docs/hdf5.md): per
// replica metrics, quantile curves and ACFs of every compared ensemble, the
// summary table with bootstrap intervals and matching degrees, and the paired
// comparisons, with the definitions of everything as attributes.
#pragma once

#include "estimators/study.hpp"
#include "io/ensemble_file.hpp"

namespace gs {

void write_compare(EnsembleFile& file, const Study& study);

}  // namespace gs
