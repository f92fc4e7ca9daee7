#include "io/ensemble_file.hpp"

#include <fmt/format.h>
#include <zlib.h>

#include <algorithm>
#include <array>
#include <vector>

#include "host/base/errors.hpp"
#include "host/base/fault_injection.hpp"
#include "host/base/parallel.hpp"
#include "io/ensemble_hdf5.hpp"
#include "io/hdf5.hpp"
#include "version.hpp"

namespace gs {

hid_t native_type(StorageType type) {
  switch (type) {
    case StorageType::float64:
      return GS_H5_LOCKED(H5T_NATIVE_DOUBLE);
    case StorageType::uint32:
      return GS_H5_LOCKED(H5T_NATIVE_UINT32);
    default:
      return GS_H5_LOCKED(H5T_NATIVE_FLOAT);
  }
}

namespace {

// Stored little-endian whatever the host, so files compare byte for byte.
hid_t file_type(StorageType type) {
  switch (type) {
    case StorageType::float64:
      return GS_H5_LOCKED(H5T_IEEE_F64LE);
    case StorageType::uint32:
      return GS_H5_LOCKED(H5T_STD_U32LE);
    default:
      return GS_H5_LOCKED(H5T_IEEE_F32LE);
  }
}

}  // namespace

ChunkShape series_chunk_shape(std::uint64_t replicas, std::uint64_t length, std::size_t element_bytes,
                              std::uint64_t wanted_rows) {
  constexpr std::uint64_t min_bytes = 64u << 10, max_bytes = 1u << 20;
  constexpr std::uint64_t max_chunk_elements = 1u << 28;  // 1 GiB of float32
  const std::uint64_t row_bytes = std::max<std::uint64_t>(1, length * element_bytes);
  const std::uint64_t min_rows = std::max<std::uint64_t>(1, min_bytes / row_bytes);
  const std::uint64_t max_rows = std::max<std::uint64_t>(1, max_bytes / row_bytes);
  const std::uint64_t rows = std::min({max_rows, std::max(min_rows, wanted_rows), replicas});
  return ChunkShape{std::max<std::uint64_t>(1, rows), std::min(length, max_chunk_elements)};
}

SeriesDataset::SeriesDataset(h5::Handle group, h5::Handle dataset, StorageType type, std::uint64_t length,
                             ChunkShape chunk, int compression_level)
    : group_(std::make_unique<h5::Handle>(std::move(group))),
      dataset_(std::make_unique<h5::Handle>(std::move(dataset))),
      type_(type),
      length_(length),
      chunk_(chunk),
      compression_level_(compression_level) {}

namespace {

// HDF5's shuffle filter (byte j of element i goes to j·n + i) then its deflate
// filter (zlib's compress2 at the dataset's level), as the filter pipeline
// would apply them to one chunk.
std::vector<unsigned char> shuffle_and_deflate(const unsigned char* chunk, std::size_t elements,
                                               std::size_t element_bytes, int level) {
  std::vector<unsigned char> shuffled(elements * element_bytes);
  for (std::size_t i = 0; i < elements; ++i) {
    for (std::size_t j = 0; j < element_bytes; ++j) shuffled[j * elements + i] = chunk[i * element_bytes + j];
  }
  uLongf size = compressBound(static_cast<uLong>(shuffled.size()));
  std::vector<unsigned char> deflated(size);
  if (compress2(deflated.data(), &size, shuffled.data(), static_cast<uLong>(shuffled.size()), level) != Z_OK) {
    throw InternalError("compress2", "failed", __FILE__, __LINE__);
  }
  deflated.resize(size);
  return deflated;
}

}  // namespace

void SeriesDataset::write_rows(std::uint64_t first, std::uint64_t count, const void* data) {
  h5::quiet_library_errors();  // runs on the writer thread, which has its own error stack
  const auto* bytes = static_cast<const unsigned char*>(data);
  const std::size_t element_bytes = storage_bytes(type_);
  const std::size_t row_bytes = length_ * element_bytes;
  if (compression_level_ > 0 && chunk_.columns == length_ && first % chunk_.rows == 0) {
    const std::uint64_t chunks = count / chunk_.rows;
    std::vector<std::vector<unsigned char>> compressed(chunks);
    parallel_for(chunks, [&](std::size_t c) {
      fault_point("deflate");
      compressed[c] = shuffle_and_deflate(bytes + c * chunk_.rows * row_bytes, chunk_.rows * length_, element_bytes,
                                          compression_level_);
    });
    for (std::uint64_t c = 0; c < chunks; ++c) {
      const hsize_t offset[2] = {first + c * chunk_.rows, 0};
      GS_H5_CHECK(H5Dwrite_chunk(dataset_->id(), H5P_DEFAULT, 0, offset, compressed[c].size(), compressed[c].data()));
    }
    // The ensemble's last rows may end inside a chunk: through the pipeline.
    first += chunks * chunk_.rows;
    count -= chunks * chunk_.rows;
    bytes += chunks * chunk_.rows * row_bytes;
    if (count == 0) return;
  }
  const hsize_t start[2] = {first, 0};
  const hsize_t extent[2] = {count, length_};
  h5::Handle file_space(GS_H5_CHECK(H5Dget_space(dataset_->id())), H5Sclose);
  GS_H5_CHECK(H5Sselect_hyperslab(file_space.id(), H5S_SELECT_SET, start, nullptr, extent, nullptr));
  h5::Handle memory_space(GS_H5_CHECK(H5Screate_simple(2, extent, nullptr)), H5Sclose);
  GS_H5_CHECK(H5Dwrite(dataset_->id(), native_type(type_), memory_space.id(), file_space.id(), H5P_DEFAULT, bytes));
}

void SeriesDataset::write_attributes(const std::vector<Attribute>& attributes) {
  h5::write_attributes(group_->id(), attributes);
}

void SeriesDataset::write_fit(const std::vector<Attribute>& attributes) {
  const h5::Handle fit = h5::create_group(group_->id(), "fit");
  h5::write_attributes(fit.id(), attributes);
}

void SeriesDataset::write_vector(const std::string& name, const std::vector<double>& values,
                                 const std::vector<Attribute>& attributes) {
  h5::write_vector(group_->id(), name, values, attributes);
}

SeriesDataset::SeriesDataset(SeriesDataset&&) noexcept = default;
SeriesDataset::~SeriesDataset() = default;

void SeriesDataset::write_series_attributes(const std::vector<Attribute>& attributes) {
  h5::write_attributes(dataset_->id(), attributes);
}

EnsembleFile::EnsembleFile(const std::string& output_path)
    : file_(std::make_unique<h5::PendingFile>(output_path, "output")),
      ensembles_(std::make_unique<h5::Handle>()),
      datasets_(std::make_unique<h5::Handle>()) {
  *ensembles_ = h5::create_group(file_->id(), "ensembles");
}

EnsembleFile::~EnsembleFile() = default;

const std::string& EnsembleFile::temp_path() const { return file_->temp_path(); }

void EnsembleFile::write_root_attributes(const std::vector<Attribute>& attributes) {
  h5::write_attributes(file_->id(), attributes);
}

namespace {

// time(bin) = k·bin_seconds, CF units and long_name.
void write_bin_times(hid_t group, hid_t series, std::uint64_t bins, double bin_seconds) {
  if (!(bin_seconds > 0)) return;
  std::vector<double> times(bins);
  for (std::uint64_t k = 0; k < bins; ++k) times[k] = static_cast<double>(k) * bin_seconds;
  h5::write_coordinate(group, "time", times, "bin", series,
                       {{"units", std::string("s")},
                        {"long_name", std::string("start time of the bin, seconds from the start of the series")}});
}

}  // namespace

void EnsembleFile::write_dataset(const std::string& name, const std::vector<double>& series,
                                 const std::vector<Attribute>& attributes, double bin_seconds) {
  if (datasets_->id() < 0) *datasets_ = h5::create_group(file_->id(), "datasets");
  const h5::Handle group = h5::create_group(datasets_->id(), name);
  h5::write_attributes(group.id(), attributes);
  h5::write_vector(group.id(), "series", series,
                   {{"description", std::string("the real series, as gpusynth stats reads it")}});
  const h5::Handle values = h5::open_dataset(group.id(), "series");
  h5::write_dimension(group.id(), "bin", series.size(), {values.id()}, 0, {{"long_name", std::string("bin index")}});
  write_bin_times(group.id(), values.id(), series.size(), bin_seconds);
}

SeriesDataset EnsembleFile::create_series(const std::string& name, StorageType type, std::uint64_t replicas,
                                          std::uint64_t length, ChunkShape chunk, int compression_level,
                                          double bin_seconds) {
  h5::Handle group = h5::create_group(ensembles_->id(), name);
  const hsize_t dims[2] = {replicas, length};
  h5::Handle space(GS_H5_CHECK(H5Screate_simple(2, dims, nullptr)), H5Sclose);
  h5::Handle properties(GS_H5_CHECK(H5Pcreate(H5P_DATASET_CREATE)), H5Pclose);
  const hsize_t chunk_dims[2] = {chunk.rows, chunk.columns};
  GS_H5_CHECK(H5Pset_chunk(properties.id(), 2, chunk_dims));
  // Every stored row is written: parallel HDF5, which allocates every chunk
  // when the ranks open the file, would otherwise write the series twice
  // (zeros first) where it is not compressed.
  GS_H5_CHECK(H5Pset_fill_time(properties.id(), H5D_FILL_TIME_NEVER));
  if (compression_level > 0) {
    GS_H5_CHECK(H5Pset_shuffle(properties.id()));
    GS_H5_CHECK(H5Pset_deflate(properties.id(), static_cast<unsigned>(compression_level)));
  }
  h5::Handle dataset = h5::create_dataset(group.id(), "series", file_type(type), space.id(), properties.id());
  h5::write_dimension(group.id(), "replica", replicas, {dataset.id()}, 0,
                      {{"long_name", std::string("replica index (one independent realization per row)")}});
  h5::write_dimension(group.id(), "bin", length, {dataset.id()}, 1, {{"long_name", std::string("bin index")}});
  write_bin_times(group.id(), dataset.id(), length, bin_seconds);
  return SeriesDataset(std::move(group), std::move(dataset), type, length, chunk, compression_level);
}

SeriesDataset EnsembleFile::open_series(const std::string& name, StorageType type, std::uint64_t length,
                                        ChunkShape chunk, int compression_level) {
  h5::Handle group = h5::open_group(ensembles_->id(), name);
  h5::Handle dataset = h5::open_dataset(group.id(), "series");
  return SeriesDataset(std::move(group), std::move(dataset), type, length, chunk, compression_level);
}

void EnsembleFile::suspend() {
  ensembles_->reset();
  datasets_->reset();
  file_->suspend();
}

void EnsembleFile::resume() {
  file_->resume();
  *ensembles_ = h5::open_group(file_->id(), "ensembles");
}

void EnsembleFile::commit() {
  ensembles_->reset();
  file_->commit();
}

namespace {

std::string series_path(const std::string& name) { return fmt::format("ensembles/{}/series", name); }

// The (rows, columns) of a 2-D dataset.
std::array<hsize_t, 2> dimensions_of(hid_t dataset) {
  const h5::Handle space(GS_H5_CHECK(H5Dget_space(dataset)), H5Sclose);
  std::array<hsize_t, 2> dims = {0, 0};
  GS_H5_CHECK(H5Sget_simple_extent_dims(space.id(), dims.data(), nullptr));
  return dims;
}

// Rows [first, first + count) of a 2-D dataset of `columns` columns into
// `out`, converted to `memory_type`.
void read_row_block(hid_t dataset, std::uint64_t first, std::uint64_t count, hsize_t columns, hid_t memory_type,
                    void* out) {
  const h5::Handle file_space(GS_H5_CHECK(H5Dget_space(dataset)), H5Sclose);
  const hsize_t start[2] = {first, 0}, block[2] = {count, columns};
  GS_H5_CHECK(H5Sselect_hyperslab(file_space.id(), H5S_SELECT_SET, start, nullptr, block, nullptr));
  const h5::Handle memory_space(GS_H5_CHECK(H5Screate_simple(2, block, nullptr)), H5Sclose);
  GS_H5_CHECK(H5Dread(dataset, memory_type, memory_space.id(), file_space.id(), H5P_DEFAULT, out));
}

}  // namespace

namespace {

std::uint64_t stored_replicas_in(hid_t file, const std::string& name, const std::string& purpose) {
  const std::string path = series_path(name);
  if (!h5::has_link(file, path))
    throw UserError(fmt::format("{}: ensemble '{}' has no stored series in this run", purpose, name));
  const hsize_t rows = dimensions_of(h5::open_dataset(file, path).id())[0];
  if (rows == 0) throw UserError(fmt::format("{}: ensemble '{}' stored no replica", purpose, name));
  return rows;
}

std::vector<double> read_rows_in(hid_t file, const std::string& name, std::uint64_t first, std::uint64_t count,
                                 std::uint64_t* length) {
  const h5::Handle dataset = h5::open_dataset(file, series_path(name));
  const hsize_t columns = dimensions_of(dataset.id())[1];
  std::vector<double> rows(count * columns);
  read_row_block(dataset.id(), first, count, columns, native_type(StorageType::float64), rows.data());
  if (length) *length = columns;
  return rows;
}

}  // namespace

std::uint64_t EnsembleFile::stored_replicas(const std::string& name, const std::string& purpose) const {
  return stored_replicas_in(file_->id(), name, purpose);
}

std::vector<double> EnsembleFile::read_rows(const std::string& name, std::uint64_t first, std::uint64_t count,
                                            std::uint64_t* length) const {
  return read_rows_in(file_->id(), name, first, count, length);
}

std::vector<double> EnsembleFile::read_row(const std::string& name, std::uint64_t replica) const {
  return read_row_in(file_->id(), name, replica);
}

std::vector<double> read_row_in(hid_t file, const std::string& name, std::uint64_t replica) {
  const std::uint64_t stored = stored_replicas_in(file, name, "requests timed by an ensemble");
  return read_rows_in(file, name, replica % stored, 1, nullptr);
}

std::string stream_note(const std::string& path) {
  const h5::Handle file = h5::open_file_read(path);
  // A file gpusynth did not write (h5py's, another tool's) has no stream of gpusynth's values to compare.
  if (!h5::has_attribute(file.id(), "gpusynth_version")) return "";
  const std::string made_by = "gpusynth " + h5::read_string_attribute(file.id(), "gpusynth_version");
  const std::string changelog = "CHANGELOG.md lists what moved, version by version";
  if (!h5::has_attribute(file.id(), "stream_version"))
    return fmt::format(
        "{} was made by {}, which did not record the stream version of its values; this gpusynth "
        "({}) makes stream version {}: the same config and seed may give other values now ({})",
        path, made_by, kVersion, kStreamVersion, changelog);
  const std::int64_t stream = h5::read_int_attribute(file.id(), "stream_version");
  if (stream == kStreamVersion) return "";
  return fmt::format(
      "{} holds values of stream version {} ({}); this gpusynth ({}) makes stream version {}, {}: "
      "the same config and seed give other values where they moved ({})",
      path, stream, made_by, kVersion, kStreamVersion, stream < kStreamVersion ? "a newer one" : "an older one",
      changelog);
}

SeriesReader::SeriesReader(const std::string& path) : file_(std::make_unique<h5::Handle>(h5::open_file_read(path))) {}

SeriesReader::~SeriesReader() = default;

SeriesShape SeriesReader::shape(const std::string& name) const {
  const h5::Handle data = h5::open_dataset(file_->id(), series_path(name));
  const h5::Handle type(GS_H5_CHECK(H5Dget_type(data.id())), H5Tclose);
  const std::array<hsize_t, 2> dims = dimensions_of(data.id());
  SeriesShape s;
  s.name = name;
  s.replicas = dims[0];
  s.bins = dims[1];
  s.storage = GS_H5_CHECK(H5Tget_class(type.id())) == H5T_INTEGER ? StorageType::uint32
              : GS_H5_LOCKED(H5Tget_size(type.id())) == 4         ? StorageType::float32
                                                                  : StorageType::float64;
  const h5::Handle create(GS_H5_CHECK(H5Dget_create_plist(data.id())), H5Pclose);
  hsize_t chunk[2] = {1, 1};
  if (GS_H5_CHECK(H5Pget_layout(create.id())) == H5D_CHUNKED && GS_H5_CHECK(H5Pget_chunk(create.id(), 2, chunk)) == 2 &&
      chunk[0] > 0)
    s.chunk_rows = chunk[0];
  return s;
}

void SeriesReader::read_rows(const SeriesShape& shape, std::uint64_t first, std::uint64_t count, void* out) const {
  const h5::Handle data = h5::open_dataset(file_->id(), series_path(shape.name));
  read_row_block(data.id(), first, count, shape.bins, native_type(shape.storage), out);
}

}  // namespace gs
