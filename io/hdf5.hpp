// Thin RAII over the HDF5 C API: every handle closes itself, every call is
// checked (InternalError names the call), attributes are written from
// gs::Attribute values and read back for tests and tools.
#pragma once

#include <hdf5.h>

#include <cstdint>
#include <string>
#include <utility>
#include <variant>
#include <vector>

#include "host/base/attributes.hpp"
#include "host/base/output_file.hpp"
#include "io/hdf5_library.hpp"

namespace gs::h5 {

class Handle {
 public:
  using Closer = herr_t (*)(hid_t);
  Handle() = default;
  Handle(hid_t id, Closer closer);
  Handle(const Handle&) = delete;
  Handle& operator=(const Handle&) = delete;
  Handle(Handle&& other) noexcept : id_(std::exchange(other.id_, -1)), closer_(other.closer_) {}
  Handle& operator=(Handle&& other) noexcept;
  ~Handle() { reset(); }

  hid_t id() const { return id_; }
  void reset();      // closes, ignoring a failure (unwinding)
  herr_t release();  // closes and returns the library's status (a file's last writes happen here)
  void abandon();    // forgets the id without closing it (the process is about to end every rank)

 private:
  hid_t id_ = -1;
  Closer closer_ = nullptr;
};

// A failed HDF5 call: a UserError naming the output and errno when the
// library's error stack holds a system error (a full disk, a quota, EIO),
// else an InternalError naming the call and HDF5's innermost message.
[[noreturn]] void raise_failure(const char* call, const char* file, int line);

// An HDF5 file written through a PendingOutput (host/base/output_file.hpp):
// under a temporary name, renamed over the output by commit(), removed when
// never committed, so a failed run leaves no partial output and replaces
// nothing but a regular file.
class PendingFile {
 public:
  PendingFile(const std::string& output_path, const std::string& option);
  PendingFile(const PendingFile&) = delete;
  PendingFile& operator=(const PendingFile&) = delete;
  ~PendingFile();

  hid_t id() const { return file_.id(); }
  const std::string& output_path() const { return output_.path(); }
  const std::string& temp_path() const { return output_.temp_path(); }
  void commit();  // close every handle into the file first
  // Closes the file but keeps it pending (other writers, the MPI ranks' collective
  // writes, open it meanwhile); resume() opens it again here.
  void suspend();
  void resume();

 private:
  PendingOutput output_;
  Handle file_;  // closed before output_ removes an uncommitted file
};
Handle open_file_read(const std::string& path);
// Whether `path` (relative to `parent`) names an object; false where a part of it is missing.
bool has_link(hid_t parent, const std::string& path);

Handle create_group(hid_t parent, const std::string& name);
Handle open_group(hid_t parent, const std::string& name);
Handle open_dataset(hid_t parent, const std::string& name);
// Every dataset gpusynth writes is made here: it carries the attribute `stream_version`, the stream
// version of the values this gpusynth makes (kStreamVersion, CHANGELOG.md), so that a dataset from
// an older stream says so to whoever reads it.
Handle create_dataset(hid_t parent, const std::string& name, hid_t type, hid_t space, hid_t properties = H5P_DEFAULT);

// A one-dimensional float64 dataset `name` under `parent`, with attributes.
void write_vector(hid_t parent, const std::string& name, const std::vector<double>& values,
                  const std::vector<Attribute>& attributes);
// A rows × columns float64 dataset from row-major values (deflated when large).
void write_matrix(hid_t parent, const std::string& name, std::size_t rows, std::size_t columns,
                  const std::vector<double>& values, const std::vector<Attribute>& attributes);

// A table as one compound dataset (h5py reads it as a structured array):
// every column has one entry per row; texts become fixed-length strings.
struct TableColumn {
  std::string name;
  std::variant<std::vector<double>, std::vector<std::int64_t>, std::vector<std::string>> values;
};
void write_table(hid_t parent, const std::string& name, const std::vector<TableColumn>& columns,
                 const std::vector<Attribute>& attributes);

// A table of 8-byte columns (float64 or int64) that grows as rows come
// (chunked, unlimited; h5py reads it as write_table's): a table too large to
// hold is written a chunk of rows at a time, each a whole chunk.
// Where a TableAppender's rows go: appended, the table growing as they come;
// or, `fixed`, into a table made with `rows` rows, this appender's from row
// `first` on (MPI ranks each fill their own range of a table they made
// together: in parallel HDF5 the constructor is collective, the writes
// independent).
struct TablePlacement {
  bool fixed = false;
  hsize_t rows = 0, first = 0;
};

class TableAppender {
 public:
  struct Column {
    std::string name;
    bool integer;  // int64, else float64
  };
  using Placement = TablePlacement;
  TableAppender(hid_t parent, const std::string& name, const std::vector<Column>& columns, std::size_t chunk_rows,
                const std::vector<Attribute>& attributes, const Placement& placement = {});
  // One row: its columns' 8 bytes each, in order, packed (a struct of doubles and int64s).
  void append(const void* row);
  // Writes the rows still buffered; once, after the last append.
  void flush();
  // Forgets the handles without closing them: closing is collective in a
  // ranks' shared file, and one rank unwinding alone would wait in it.
  void abandon() { type_.abandon(), dataset_.abandon(); }

 private:
  void write_buffered();
  Handle type_, dataset_;
  std::size_t row_bytes_, chunk_rows_, buffered_ = 0;
  std::vector<unsigned char> buffer_;
  Placement placement_;
  hsize_t written_ = 0;
};

// A dimension scale (H5DS, the netCDF-4 convention xarray reads): a 1-D
// coordinate `name` under `parent` (int64 indices 0 … n − 1, or the given
// float64 values), attached as axis `axis` of each dataset in `datasets`.
void write_dimension(hid_t parent, const std::string& name, std::uint64_t n, const std::vector<hid_t>& datasets,
                     unsigned axis, const std::vector<Attribute>& attributes);
void write_dimension(hid_t parent, const std::string& name, const std::vector<double>& values,
                     const std::vector<hid_t>& datasets, unsigned axis, const std::vector<Attribute>& attributes);
// The same with text labels (variable-length UTF-8 strings, which xarray reads as str).
void write_dimension(hid_t parent, const std::string& name, const std::vector<std::string>& labels,
                     const std::vector<hid_t>& datasets, unsigned axis, const std::vector<Attribute>& attributes);
// Gives every axis of every dataset in the file that has no dimension scale an
// index scale (0 … n − 1), so that xarray opens every group with named
// dimensions: the names of the dataset's `dimensions` attribute where it
// names one per axis, else <dataset>_index (1-D) or <dataset>_row and
// <dataset>_column. A group's datasets share a name's scale where their
// lengths agree. Called once before a file is committed.
void name_remaining_dimensions(hid_t file);
// An auxiliary coordinate (CF): the float64 vector `name` under `parent` along
// its existing dimension scale `dimension`, named in the `coordinates`
// attribute of `dataset`, so that xarray reads it as a coordinate of it.
void write_coordinate(hid_t parent, const std::string& name, const std::vector<double>& values,
                      const std::string& dimension, hid_t dataset, const std::vector<Attribute>& attributes);

void write_attribute(hid_t object, const Attribute& attribute);
void write_attributes(hid_t object, const std::vector<Attribute>& attributes);

bool has_attribute(hid_t object, const std::string& name);
std::string read_string_attribute(hid_t object, const std::string& name);
double read_double_attribute(hid_t object, const std::string& name);
std::int64_t read_int_attribute(hid_t object, const std::string& name);
std::uint64_t read_uint_attribute(hid_t object, const std::string& name);

// A whole dataset converted to double (HDF5 converts float32 and uint32), with
// its shape in `dims`.
std::vector<double> read_as_double(hid_t dataset, std::vector<hsize_t>* dims = nullptr);

}  // namespace gs::h5

// Wraps an HDF5 call whose failure is a negative return value (read from
// the library's error stack under the same lock).
#define GS_H5_CHECK(call)                                                   \
  ([&]() {                                                                  \
    const ::gs::h5::LibraryLock gs_lock_(::gs::h5::library_mutex());        \
    const auto gs_status_ = (call);                                         \
    if (gs_status_ < 0) ::gs::h5::raise_failure(#call, __FILE__, __LINE__); \
    return gs_status_;                                                      \
  }())
// An HDF5 call whose result is read as it is (a test such as H5Lexists).
#define GS_H5_LOCKED(call)                                           \
  ([&]() {                                                           \
    const ::gs::h5::LibraryLock gs_lock_(::gs::h5::library_mutex()); \
    return (call);                                                   \
  }())
