#include "io/parallel_series.hpp"

#ifdef GPUSYNTH_HAVE_MPI

#include <fmt/format.h>
#include <mpi.h>

#include <exception>

#include "host/base/ranks.hpp"
#include "io/ensemble_hdf5.hpp"
#include "io/hdf5.hpp"

namespace gs {

ParallelSeriesFile::ParallelSeriesFile(const std::string& path)
    : path_(path),
      file_(std::make_unique<h5::Handle>()),
      dataset_(std::make_unique<h5::Handle>()),
      transfer_(std::make_unique<h5::Handle>()) {
  remove_if_job_aborts(path_);
  h5::Handle access(GS_H5_CHECK(H5Pcreate(H5P_FILE_ACCESS)), H5Pclose);
  GS_H5_CHECK(H5Pset_fapl_mpio(access.id(), MPI_COMM_WORLD, MPI_INFO_NULL));
  *file_ = h5::Handle(GS_H5_CHECK(H5Fopen(path.c_str(), H5F_ACC_RDWR, access.id())), H5Fclose);
  *transfer_ = h5::Handle(GS_H5_CHECK(H5Pcreate(H5P_DATASET_XFER)), H5Pclose);
  GS_H5_CHECK(H5Pset_dxpl_mpio(transfer_->id(), H5FD_MPIO_COLLECTIVE));
}

void ParallelSeriesFile::open(const std::string& ensemble, StorageType type, std::uint64_t length) {
  dataset_->reset();
  *dataset_ = h5::open_dataset(file_->id(), fmt::format("ensembles/{}/series", ensemble));
  type_ = type;
  length_ = length;
}

void ParallelSeriesFile::write_rows(std::uint64_t first, std::uint64_t count, const void* rows) {
  const h5::Handle file_space(GS_H5_CHECK(H5Dget_space(dataset_->id())), H5Sclose);
  const hsize_t start[2] = {first, 0}, extent[2] = {count, length_};
  const hsize_t memory_extent[2] = {count > 0 ? count : 1, length_};
  const h5::Handle memory_space(GS_H5_CHECK(H5Screate_simple(2, memory_extent, nullptr)), H5Sclose);
  if (count > 0) {
    GS_H5_CHECK(H5Sselect_hyperslab(file_space.id(), H5S_SELECT_SET, start, nullptr, extent, nullptr));
  } else {  // this rank has nothing this time but takes part in the collective call
    GS_H5_CHECK(H5Sselect_none(file_space.id()));
    GS_H5_CHECK(H5Sselect_none(memory_space.id()));
  }
  GS_H5_CHECK(H5Dwrite(dataset_->id(), native_type(type_), memory_space.id(), file_space.id(), transfer_->id(), rows));
}

ParallelSeriesFile::~ParallelSeriesFile() {
  if (std::uncaught_exceptions() > 0) {
    transfer_->abandon(), dataset_->abandon(), file_->abandon();
    return;
  }
  forget_if_job_aborts(path_);
}

std::vector<double> ParallelSeriesFile::read_row(const std::string& ensemble, std::uint64_t replica) const {
  return read_row_in(file_->id(), ensemble, replica);
}

void ParallelSeriesFile::close() {
  dataset_->reset();
  GS_H5_CHECK(file_->release());
}

}  // namespace gs

#endif
