// The MPI ranks' collective writes into one file (parallel HDF5, MPI-IO
// driver): every rank opens the file rank 0 laid out, and writes its replicas'
// rows of an ensemble's series in collective H5Dwrite calls, through the
// dataset's shuffle and deflate filters (parallel HDF5 compresses with
// collective writes since 1.10.2; Debian 12 has 1.10.8). Built with MPI only.
#pragma once

#ifdef GPUSYNTH_HAVE_MPI

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "kernels/workload.hpp"

namespace gs::h5 {
class Handle;  // io/hdf5.hpp: the library's objects stay in io/'s sources
}  // namespace gs::h5

namespace gs {

class ParallelSeriesFile {
 public:
  explicit ParallelSeriesFile(const std::string& path);  // collective
  // Closes nothing while an exception unwinds: closing is collective, and the
  // other ranks are not there to take part (the failing rank ends the job,
  // host/base/ranks.hpp); without one, as close().
  ~ParallelSeriesFile();
  ParallelSeriesFile(const ParallelSeriesFile&) = delete;
  ParallelSeriesFile& operator=(const ParallelSeriesFile&) = delete;

  void open(const std::string& ensemble, StorageType type, std::uint64_t length);  // collective
  // Collective: every rank calls it the same number of times, count 0 when it
  // has no rows this time.
  void write_rows(std::uint64_t first, std::uint64_t count, const void* rows);
  void close();  // collective: the series, then the file
  // The file, for the ranks' other writers (the request tables,
  // io/requests_file.hpp); their objects are closed before close().
  const h5::Handle& hdf5() const { return *file_; }
  // EnsembleFile::read_row of this file (independent: a rank reads alone).
  std::vector<double> read_row(const std::string& ensemble, std::uint64_t replica) const;

 private:
  std::string path_;
  std::unique_ptr<h5::Handle> file_, dataset_, transfer_;
  StorageType type_ = StorageType::float32;
  std::uint64_t length_ = 0;
};

}  // namespace gs

#endif
