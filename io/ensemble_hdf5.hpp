// What io/'s sources share of a run file's HDF5 objects, kept out of
// io/ensemble_file.hpp, which the engine includes (scripts/check_layers.py:
// the library's types stay in io/'s sources and in io/hdf5.hpp and this header).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "io/ensemble_file.hpp"
#include "io/hdf5.hpp"
#include "kernels/workload.hpp"

namespace gs {

// The in-memory HDF5 type of a storage type (the rows the backends produce).
hid_t native_type(StorageType type);

// EnsembleFile::read_row on any open file of its layout (the MPI ranks'
// shared handle, io/parallel_series.hpp).
std::vector<double> read_row_in(hid_t file, const std::string& name, std::uint64_t replica);

}  // namespace gs
