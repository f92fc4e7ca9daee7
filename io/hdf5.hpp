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

#include "io/attributes.hpp"

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
  void reset();

 private:
  hid_t id_ = -1;
  Closer closer_ = nullptr;
};

Handle create_file(const std::string& path);  // truncates

// The directory an output path lies in ("." for a bare name).
std::string output_directory(const std::string& path);

// An HDF5 file written under a temporary name in the output's directory and
// renamed to the output by commit(); removed when never committed, so a failed
// run leaves no partial output. The constructor checks that the directory
// exists and is writable (UserError otherwise).
class PendingFile {
 public:
  explicit PendingFile(std::string output_path);
  PendingFile(const PendingFile&) = delete;
  PendingFile& operator=(const PendingFile&) = delete;
  ~PendingFile();

  hid_t id() const { return file_.id(); }
  const std::string& output_path() const { return output_path_; }
  void commit();  // close every handle into the file first

 private:
  std::string output_path_;
  std::string temp_path_;
  Handle file_;
  bool committed_ = false;
};
Handle open_file_read(const std::string& path);
Handle create_group(hid_t parent, const std::string& name);
Handle open_group(hid_t parent, const std::string& name);
Handle open_dataset(hid_t parent, const std::string& name);

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

// Silence HDF5's own error stack printing; errors surface as exceptions.
void quiet_library_errors();

}  // namespace gs::h5
