// The output file of a run (docs/hdf5.md):
//
//   /                         file_type, format_version, gpusynth_version, git_revision,
//                             created_utc, seed, backend, device, host, config (full text)
//   /ensembles/<name>/        model, every parameter, workload mapping, RNG stream, tallies
//   /ensembles/<name>/fit     (fitted ensembles) the estimates, SEs and fit statistics
//   /datasets/<name>/series   (configs with datasets) the real series, source and sha256
//   /ensembles/<name>/series  replicas × length, float32 | float64 | uint32, chunked by
//                             replica, shuffled and deflated
//
// The file is written under a temporary name beside the output and renamed on
// commit(); destroying an uncommitted EnsembleFile removes the temporary, so a
// failed or interrupted run never leaves a file at the output path.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "host/base/attributes.hpp"
#include "kernels/workload.hpp"

// The library's objects stay io/'s (scripts/check_layers.py): the classes
// below hold them behind pointers, and only io/'s sources, which include
// io/hdf5.hpp, reach them (EnsembleFile::hdf5).
namespace gs::h5 {
class Handle;
class PendingFile;
}  // namespace gs::h5

namespace gs {

// HDF5 chunks of whole replicas: `wanted_rows`, kept between 64 KiB and 1 MiB
// per chunk when the ensemble allows (good for deflate and for reading a few
// replicas back), and split along time beyond 1 GiB (HDF5's limit is 4 GiB).
struct ChunkShape {
  std::uint64_t rows;
  std::uint64_t columns;
};
ChunkShape series_chunk_shape(std::uint64_t replicas, std::uint64_t length, std::size_t element_bytes,
                              std::uint64_t wanted_rows);

class SeriesDataset {
 public:
  SeriesDataset(h5::Handle group, h5::Handle dataset, StorageType type, std::uint64_t length, ChunkShape chunk,
                int compression_level);
  SeriesDataset(SeriesDataset&&) noexcept;
  ~SeriesDataset();

  // Rows [first, first + count) from row-major host memory. Whole compressed
  // chunks are shuffled and deflated on every core and written with
  // H5Dwrite_chunk (HDF5's own filters run on one thread); the file is the
  // same as through the filter pipeline and reads back with any HDF5 reader.
  void write_rows(std::uint64_t first, std::uint64_t count, const void* data);
  void write_attributes(const std::vector<Attribute>& attributes);  // on the ensemble group
  // On the series itself (its units, its dimensions' names).
  void write_series_attributes(const std::vector<Attribute>& attributes);
  // /ensembles/<name>/fit: the estimates the ensemble's parameters came from.
  void write_fit(const std::vector<Attribute>& attributes);
  // A float64 vector beside the series (e.g. observation_times).
  void write_vector(const std::string& name, const std::vector<double>& values,
                    const std::vector<Attribute>& attributes);

 private:
  std::unique_ptr<h5::Handle> group_;
  std::unique_ptr<h5::Handle> dataset_;
  StorageType type_;
  std::uint64_t length_;
  ChunkShape chunk_;
  int compression_level_;
};

// An ensemble's series as a reader sees it: its rows (replicas) and bins, its
// stored type and the rows of its chunks (1 when not chunked).
struct SeriesShape {
  std::string name;
  std::uint64_t replicas = 0, bins = 0, chunk_rows = 1;
  StorageType storage = StorageType::float32;
};
// A run's file opened for reading its series back as stored (Python's generate).
class SeriesReader {
 public:
  explicit SeriesReader(const std::string& path);
  ~SeriesReader();
  // /ensembles/<name>/series.
  SeriesShape shape(const std::string& name) const;
  // Rows [first, first + count) of it into `out`, in the stored type: the file's bits.
  void read_rows(const SeriesShape& shape, std::uint64_t first, std::uint64_t count, void* out) const;

 private:
  std::unique_ptr<h5::Handle> file_;
};

// "" where the gpusynth file at `path` holds values of this version's stream
// (its root attribute `stream_version` is kStreamVersion) or where gpusynth did
// not write it (no root `gpusynth_version`); otherwise a sentence
// that says which stream version and gpusynth made it, and that the same config
// and seed give other values now (CHANGELOG.md lists what moved).
std::string stream_note(const std::string& path);

class EnsembleFile {
 public:
  // Creates the temporary file (h5::PendingFile: UserError when the output
  // may not be replaced or its directory not written).
  explicit EnsembleFile(const std::string& output_path);
  ~EnsembleFile();
  EnsembleFile(const EnsembleFile&) = delete;
  EnsembleFile& operator=(const EnsembleFile&) = delete;

  void write_root_attributes(const std::vector<Attribute>& attributes);
  // /datasets/<name>/series: a real series the ensembles are compared with.
  // `bin_seconds` > 0 (a binned trace): also the coordinate time(bin) of the
  // bins' start times, k·bin_seconds from the series' start.
  void write_dataset(const std::string& name, const std::vector<double>& series,
                     const std::vector<Attribute>& attributes, double bin_seconds = 0);
  // Chunked as the plan chose (see series_chunk_shape); time(bin) as above
  // where the ensemble's bins have a width (that of its dataset).
  SeriesDataset create_series(const std::string& name, StorageType type, std::uint64_t replicas, std::uint64_t length,
                              ChunkShape chunk, int compression_level, double bin_seconds = 0);
  // An ensemble's series created before (create_series), for its attributes.
  SeriesDataset open_series(const std::string& name, StorageType type, std::uint64_t length, ChunkShape chunk,
                            int compression_level);
  // What the analyses after the generation read back (bursts, requests timed by
  // an ensemble): the replicas the file stores of /ensembles/<name>/series
  // (UserError naming `purpose` when it stores none), rows of it as doubles,
  // and one replica (the replica index modulo the stored ones).
  std::uint64_t stored_replicas(const std::string& name, const std::string& purpose) const;
  std::vector<double> read_rows(const std::string& name, std::uint64_t first, std::uint64_t count,
                                std::uint64_t* length) const;
  std::vector<double> read_row(const std::string& name, std::uint64_t replica) const;

  void commit();
  // The file, for io/'s writers of the groups beside /ensembles (an incomplete
  // type outside io/: the engine hands io/ results, it writes nothing itself).
  const h5::PendingFile& hdf5() const { return *file_; }
  // MPI ranks: rank 0 lays the file out, suspends it while every rank writes
  // its replicas (io/parallel_series.hpp) and resumes it for the attributes.
  const std::string& temp_path() const;
  void suspend();
  void resume();

 private:
  std::unique_ptr<h5::PendingFile> file_;
  std::unique_ptr<h5::Handle> ensembles_;  // closed before file_ (declared after it)
  std::unique_ptr<h5::Handle> datasets_;   // created with the first dataset
};

}  // namespace gs
