#include "io/hdf5.hpp"

#include <fmt/format.h>
#include <hdf5_hl.h>

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <map>
#include <mutex>

#include "host/base/errors.hpp"
#include "version.hpp"

namespace gs::h5 {

Handle::Handle(hid_t id, Closer closer) : id_(id), closer_(closer) {
  if (id_ < 0) throw InternalError("HDF5 call", "returned an invalid handle", __FILE__, __LINE__);
}

Handle& Handle::operator=(Handle&& other) noexcept {
  if (this != &other) {
    reset();
    id_ = std::exchange(other.id_, -1);
    closer_ = other.closer_;
  }
  return *this;
}

bool has_link(hid_t parent, const std::string& path) {
  std::string prefix;
  std::size_t start = 0;
  while (start <= path.size()) {  // H5Lexists fails, rather than says no, when a parent is missing
    const std::size_t slash = std::min(path.find('/', start), path.size());
    prefix = path.substr(0, slash);
    if (GS_H5_LOCKED(H5Lexists(parent, prefix.c_str(), H5P_DEFAULT)) <= 0) return false;
    start = slash + 1;
  }
  return true;
}

bool file_has(const std::string& path, const std::string& object) {
  const Handle file = open_file_read(path);
  return has_link(file.id(), object);
}

bool any_file_open() { return GS_H5_LOCKED(H5Fget_obj_count(H5F_OBJ_ALL, H5F_OBJ_FILE)) > 0; }

std::recursive_mutex& library_mutex() {
  static std::recursive_mutex mutex;
  return mutex;
}

void Handle::reset() {
  if (id_ >= 0 && closer_) GS_H5_LOCKED(closer_(id_));
  id_ = -1;
}

void Handle::abandon() { id_ = -1; }

herr_t Handle::release() {
  const herr_t status = id_ >= 0 && closer_ ? GS_H5_LOCKED(closer_(id_)) : 0;
  id_ = -1;
  return status;
}

void skip_library_cleanup_at_exit() { GS_H5_LOCKED(H5dont_atexit()); }

void quiet_library_errors() { GS_H5_LOCKED(H5Eset_auto2(H5E_DEFAULT, nullptr, nullptr)); }

namespace {

// Temporary file → the output the user named, for the messages of write errors.
std::mutex pending_mutex;
std::map<std::string, std::string>& pending_outputs() {
  static std::map<std::string, std::string> outputs;
  return outputs;
}

struct StackFacts {
  std::string innermost;  // the most specific message
  int system_error = 0;   // errno of a failed system call (the sec2 driver writes it into its message)
  std::string file;       // the file it named
};

herr_t collect_facts(unsigned, const H5E_error2_t* error, void* data) {
  auto& facts = *static_cast<StackFacts*>(data);
  const std::string text = error->desc ? error->desc : "";
  if (facts.innermost.empty()) facts.innermost = text;
  const auto at = text.find("errno = ");
  if (facts.system_error == 0 && at != std::string::npos) {
    facts.system_error = std::atoi(text.c_str() + at + 8);
    const auto name = text.find("filename = '");
    if (name != std::string::npos) {
      const auto begin = name + 12, end = text.find('\'', begin);
      facts.file = text.substr(begin, end == std::string::npos ? std::string::npos : end - begin);
    }
  }
  return 0;
}

Handle create_file(const std::string& path) {
  // STRONG: closing the file closes every object still open in it.
  Handle access(GS_H5_CHECK(H5Pcreate(H5P_FILE_ACCESS)), H5Pclose);
  GS_H5_CHECK(H5Pset_fclose_degree(access.id(), H5F_CLOSE_STRONG));
  return Handle(GS_H5_CHECK(H5Fcreate(path.c_str(), H5F_ACC_TRUNC, H5P_DEFAULT, access.id())), H5Fclose);
}

}  // namespace

void raise_failure(const char* call, const char* file, int line) {
  StackFacts facts;
  GS_H5_LOCKED(H5Ewalk2(H5E_DEFAULT, H5E_WALK_UPWARD, collect_facts, &facts));  // GS_H5_CHECK, the caller, holds it
  GS_H5_LOCKED(H5Eclear2(H5E_DEFAULT));
  if (facts.system_error != 0) {
    std::string path = facts.file;
    {
      const std::lock_guard<std::mutex> lock(pending_mutex);
      const auto found = pending_outputs().find(path);
      if (found != pending_outputs().end()) path = found->second;
    }
    throw_write_error(path, facts.system_error);
  }
  throw InternalError(call, facts.innermost.empty() ? "returned an error" : "failed: " + facts.innermost, file, line);
}

namespace {

bool allowed_in_name(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '.' || c == '-'; }
bool allowed_first(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }

}  // namespace

bool is_group_name(const std::string& name) {
  return !name.empty() && allowed_first(name[0]) && std::all_of(name.begin(), name.end(), allowed_in_name);
}

std::string group_name_from(const std::string& text) {
  std::string name = text;
  for (char& c : name)
    if (!allowed_in_name(c)) c = '_';
  if (name.empty() || !allowed_first(name[0])) name.insert(name.begin(), '_');
  return name;
}

PendingFile::PendingFile(const std::string& output_path, const std::string& option) : output_(output_path, option) {
  file_ = create_file(output_.temp_path());
  const std::lock_guard<std::mutex> lock(pending_mutex);
  pending_outputs()[output_.temp_path()] = output_.path();
}

PendingFile::~PendingFile() {
  file_.reset();
  const std::lock_guard<std::mutex> lock(pending_mutex);
  pending_outputs().erase(output_.temp_path());
}

void PendingFile::suspend() {
  GS_H5_CHECK(file_.release());
}

void PendingFile::resume() {
  Handle access(GS_H5_CHECK(H5Pcreate(H5P_FILE_ACCESS)), H5Pclose);
  GS_H5_CHECK(H5Pset_fclose_degree(access.id(), H5F_CLOSE_STRONG));
  file_ = Handle(GS_H5_CHECK(H5Fopen(output_.temp_path().c_str(), H5F_ACC_RDWR, access.id())), H5Fclose);
}

void PendingFile::commit() {
  name_remaining_dimensions(file_.id());
  GS_H5_CHECK(H5Fflush(file_.id(), H5F_SCOPE_GLOBAL));
  GS_H5_CHECK(file_.release());
  output_.commit();
}

void write_vector(hid_t parent, const std::string& name, const std::vector<double>& values,
                  const std::vector<Attribute>& attributes) {
  write_matrix(parent, name, values.size(), 0, values, attributes);
}

void write_matrix(hid_t parent, const std::string& name, std::size_t rows, std::size_t columns,
                  const std::vector<double>& values, const std::vector<Attribute>& attributes) {
  const int rank = columns == 0 ? 1 : 2;  // 0 columns: a vector
  const hsize_t dims[2] = {rows, columns};
  Handle space(GS_H5_CHECK(H5Screate_simple(rank, dims, nullptr)), H5Sclose);
  Handle properties(GS_H5_CHECK(H5Pcreate(H5P_DATASET_CREATE)), H5Pclose);
  if (rank == 2 && values.size() >= 4096 && rows > 0 && columns > 0) {
    const hsize_t chunk[2] = {std::min<hsize_t>(rows, std::max<hsize_t>(1, 65536 / columns)), columns};
    GS_H5_CHECK(H5Pset_chunk(properties.id(), 2, chunk));
    GS_H5_CHECK(H5Pset_shuffle(properties.id()));
    GS_H5_CHECK(H5Pset_deflate(properties.id(), 4));
  }
  const Handle dataset = create_dataset(parent, name, GS_H5_LOCKED(H5T_IEEE_F64LE), space.id(), properties.id());
  if (!values.empty())
    GS_H5_CHECK(H5Dwrite(dataset.id(), H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, values.data()));
  write_attributes(dataset.id(), attributes);
}

namespace {

void make_dimension(hid_t scale, const std::string& name, const std::vector<hid_t>& datasets, unsigned axis,
                    const std::vector<Attribute>& attributes) {
  GS_H5_CHECK(H5DSset_scale(scale, name.c_str()));
  write_attributes(scale, attributes);
  for (hid_t dataset : datasets) GS_H5_CHECK(H5DSattach_scale(dataset, scale, axis));
}

}  // namespace

void write_dimension(hid_t parent, const std::string& name, std::uint64_t n, const std::vector<hid_t>& datasets,
                     unsigned axis, const std::vector<Attribute>& attributes) {
  const hsize_t dims[1] = {n};
  Handle space(GS_H5_CHECK(H5Screate_simple(1, dims, nullptr)), H5Sclose);
  const Handle scale = create_dataset(parent, name, GS_H5_LOCKED(H5T_STD_I64LE), space.id());
  // 0 … n − 1 a slab at a time: a dimension of 10^8 requests would take 800 MB at once.
  constexpr std::uint64_t kSlab = std::uint64_t{1} << 20;
  std::vector<std::int64_t> index(std::min(n, kSlab));
  for (std::uint64_t begin = 0; begin < n; begin += kSlab) {
    const hsize_t start[1] = {begin}, count[1] = {std::min(n - begin, kSlab)};
    for (std::uint64_t i = 0; i < count[0]; ++i) index[i] = static_cast<std::int64_t>(begin + i);
    GS_H5_CHECK(H5Sselect_hyperslab(space.id(), H5S_SELECT_SET, start, nullptr, count, nullptr));
    const Handle memory(GS_H5_CHECK(H5Screate_simple(1, count, nullptr)), H5Sclose);
    GS_H5_CHECK(H5Dwrite(scale.id(), H5T_NATIVE_INT64, memory.id(), space.id(), H5P_DEFAULT, index.data()));
  }
  make_dimension(scale.id(), name, datasets, axis, attributes);
}

void write_dimension(hid_t parent, const std::string& name, const std::vector<double>& values,
                     const std::vector<hid_t>& datasets, unsigned axis, const std::vector<Attribute>& attributes) {
  write_vector(parent, name, values, {});
  Handle scale = open_dataset(parent, name);
  make_dimension(scale.id(), name, datasets, axis, attributes);
}

void write_dimension(hid_t parent, const std::string& name, const std::vector<std::string>& labels,
                     const std::vector<hid_t>& datasets, unsigned axis, const std::vector<Attribute>& attributes) {
  std::vector<const char*> texts;
  for (const std::string& label : labels) texts.push_back(label.c_str());
  const hsize_t dims[1] = {labels.size()};
  Handle space(GS_H5_CHECK(H5Screate_simple(1, dims, nullptr)), H5Sclose);
  Handle type(GS_H5_CHECK(H5Tcopy(H5T_C_S1)), H5Tclose);
  GS_H5_CHECK(H5Tset_size(type.id(), H5T_VARIABLE));
  GS_H5_CHECK(H5Tset_cset(type.id(), H5T_CSET_UTF8));
  const Handle scale = create_dataset(parent, name, type.id(), space.id());
  if (!texts.empty()) GS_H5_CHECK(H5Dwrite(scale.id(), type.id(), H5S_ALL, H5S_ALL, H5P_DEFAULT, texts.data()));
  make_dimension(scale.id(), name, datasets, axis, attributes);
}

namespace {

// The names of a dataset's axes from its `dimensions` attribute ("a, b (note)"),
// when it names exactly `rank` of them.
std::vector<std::string> declared_dimensions(hid_t dataset, int rank) {
  if (!has_attribute(dataset, "dimensions")) return {};
  const std::string text = read_string_attribute(dataset, "dimensions");
  std::vector<std::string> names;
  std::string current;
  bool in_note = false;
  for (const char c : text + ",") {
    if (c == '(') in_note = true;
    if (c == ')') in_note = false;
    if (in_note || c == ')') continue;
    if (c == ',') {
      while (!current.empty() && current.back() == ' ') current.pop_back();
      names.push_back(current);
      current.clear();
    } else if (c != ' ' || !current.empty()) {
      current += c;
    }
  }
  const bool usable = static_cast<int>(names.size()) == rank &&
                      std::all_of(names.begin(), names.end(), [](const std::string& n) { return is_group_name(n); });
  return usable ? names : std::vector<std::string>{};
}

herr_t collect_link_name(hid_t, const char* name, const H5L_info_t*, void* names) {
  static_cast<std::vector<std::string>*>(names)->emplace_back(name);
  return 0;
}

// Whether `name` under `group` is a 1-D dimension scale of `length` values.
bool is_scale_of_length(hid_t group, const std::string& name, hsize_t length) {
  Handle existing = open_dataset(group, name);
  if (GS_H5_CHECK(H5DSis_scale(existing.id())) <= 0) return false;
  Handle space(GS_H5_CHECK(H5Dget_space(existing.id())), H5Sclose);
  if (GS_H5_CHECK(H5Sget_simple_extent_ndims(space.id())) != 1) return false;
  hsize_t found = 0;
  GS_H5_CHECK(H5Sget_simple_extent_dims(space.id(), &found, nullptr));
  return found == length;
}

void name_dimensions_in(hid_t group) {
  std::vector<std::string> links;  // collected first: the loop adds scales to the group
  GS_H5_CHECK(H5Literate(group, H5_INDEX_NAME, H5_ITER_INC, nullptr, collect_link_name, &links));
  for (const std::string& name : links) {
    Handle object(GS_H5_CHECK(H5Oopen(group, name.c_str(), H5P_DEFAULT)), H5Oclose);
    const H5I_type_t type = GS_H5_LOCKED(H5Iget_type(object.id()));
    if (type == H5I_GROUP) name_dimensions_in(object.id());
    if (type != H5I_DATASET) continue;
    const Handle& dataset = object;
    if (GS_H5_CHECK(H5DSis_scale(dataset.id())) > 0) continue;
    Handle space(GS_H5_CHECK(H5Dget_space(dataset.id())), H5Sclose);
    const int rank = GS_H5_CHECK(H5Sget_simple_extent_ndims(space.id()));
    std::vector<hsize_t> dims(static_cast<std::size_t>(rank));
    GS_H5_CHECK(H5Sget_simple_extent_dims(space.id(), dims.data(), nullptr));
    std::vector<std::string> names = declared_dimensions(dataset.id(), rank);
    if (names.empty()) {
      if (rank == 1) names = {name + "_index"};
      if (rank == 2) names = {name + "_row", name + "_column"};
    }
    for (int axis = 0; axis < rank && axis < static_cast<int>(names.size()); ++axis) {
      if (GS_H5_CHECK(H5DSget_num_scales(dataset.id(), static_cast<unsigned>(axis))) > 0) continue;
      const hsize_t length = dims[static_cast<std::size_t>(axis)];
      std::string dimension = names[static_cast<std::size_t>(axis)];
      // A name taken by anything but a scale of this length gets the length appended.
      if (GS_H5_CHECK(H5Lexists(group, dimension.c_str(), H5P_DEFAULT)) > 0 &&
          !is_scale_of_length(group, dimension, length))
        dimension = fmt::format("{}_{}", dimension, length);
      if (GS_H5_CHECK(H5Lexists(group, dimension.c_str(), H5P_DEFAULT)) > 0) {
        Handle scale = open_dataset(group, dimension);
        GS_H5_CHECK(H5DSattach_scale(dataset.id(), scale.id(), static_cast<unsigned>(axis)));
      } else {
        write_dimension(group, dimension, length, {dataset.id()}, static_cast<unsigned>(axis),
                        {{"long_name", std::string("index")}});
      }
    }
  }
}

}  // namespace

void name_remaining_dimensions(hid_t file) {
  Handle root(GS_H5_CHECK(H5Gopen2(file, "/", H5P_DEFAULT)), H5Gclose);
  name_dimensions_in(root.id());
}

void write_coordinate(hid_t parent, const std::string& name, const std::vector<double>& values,
                      const std::string& dimension, hid_t dataset, const std::vector<Attribute>& attributes) {
  write_vector(parent, name, values, attributes);
  Handle coordinate = open_dataset(parent, name);
  Handle scale = open_dataset(parent, dimension);
  GS_H5_CHECK(H5DSattach_scale(coordinate.id(), scale.id(), 0));
  write_attribute(dataset, {"coordinates", name});
}

void write_table(hid_t parent, const std::string& name, const std::vector<TableColumn>& columns,
                 const std::vector<Attribute>& attributes) {
  const std::size_t rows =
      columns.empty() ? 0 : std::visit([](const auto& v) { return v.size(); }, columns.front().values);
  std::vector<std::size_t> offsets, widths;
  std::vector<Handle> string_types;
  std::size_t row_bytes = 0;
  for (const auto& column : columns) {
    std::size_t width = 8;
    if (const auto* texts = std::get_if<std::vector<std::string>>(&column.values)) {
      width = 1;
      for (const auto& t : *texts) width = std::max(width, t.size() + 1);
    }
    offsets.push_back(row_bytes);
    widths.push_back(width);
    row_bytes += width;
  }
  Handle type(GS_H5_CHECK(H5Tcreate(H5T_COMPOUND, std::max<std::size_t>(row_bytes, 1))), H5Tclose);
  std::vector<unsigned char> buffer(rows * row_bytes, 0);
  for (std::size_t c = 0; c < columns.size(); ++c) {
    const auto& column = columns[c];
    if (std::visit([](const auto& v) { return v.size(); }, column.values) != rows)
      throw InternalError("write_table", "columns of different lengths", __FILE__, __LINE__);
    hid_t member = GS_H5_LOCKED(H5T_NATIVE_DOUBLE);
    if (const auto* numbers = std::get_if<std::vector<double>>(&column.values)) {
      for (std::size_t r = 0; r < rows; ++r) std::memcpy(&buffer[r * row_bytes + offsets[c]], &(*numbers)[r], 8);
    } else if (const auto* integers = std::get_if<std::vector<std::int64_t>>(&column.values)) {
      member = GS_H5_LOCKED(H5T_NATIVE_INT64);
      for (std::size_t r = 0; r < rows; ++r) std::memcpy(&buffer[r * row_bytes + offsets[c]], &(*integers)[r], 8);
    } else {
      const auto& texts = std::get<std::vector<std::string>>(column.values);
      string_types.emplace_back(GS_H5_CHECK(H5Tcopy(H5T_C_S1)), H5Tclose);
      GS_H5_CHECK(H5Tset_size(string_types.back().id(), widths[c]));
      GS_H5_CHECK(H5Tset_strpad(string_types.back().id(), H5T_STR_NULLTERM));
      member = string_types.back().id();
      for (std::size_t r = 0; r < rows; ++r)
        std::memcpy(&buffer[r * row_bytes + offsets[c]], texts[r].data(), texts[r].size());
    }
    GS_H5_CHECK(H5Tinsert(type.id(), column.name.c_str(), offsets[c], member));
  }
  const hsize_t dims[1] = {rows};
  Handle space(GS_H5_CHECK(H5Screate_simple(1, dims, nullptr)), H5Sclose);
  const Handle dataset = create_dataset(parent, name, type.id(), space.id());
  if (rows > 0) GS_H5_CHECK(H5Dwrite(dataset.id(), type.id(), H5S_ALL, H5S_ALL, H5P_DEFAULT, buffer.data()));
  write_attributes(dataset.id(), attributes);
}

TableAppender::TableAppender(hid_t parent, const std::string& name, const std::vector<Column>& columns,
                             std::size_t chunk_rows, const std::vector<Attribute>& attributes,
                             const Placement& placement)
    : row_bytes_(8 * columns.size()), chunk_rows_(chunk_rows), buffer_(row_bytes_ * chunk_rows), placement_(placement) {
  type_ = Handle(GS_H5_CHECK(H5Tcreate(H5T_COMPOUND, std::max<std::size_t>(row_bytes_, 1))), H5Tclose);
  for (std::size_t c = 0; c < columns.size(); ++c)
    GS_H5_CHECK(H5Tinsert(type_.id(), columns[c].name.c_str(), 8 * c,
                          columns[c].integer ? GS_H5_LOCKED(H5T_NATIVE_INT64) : GS_H5_LOCKED(H5T_NATIVE_DOUBLE)));
  const hsize_t dims[1] = {placement.fixed ? placement.rows : 0}, most[1] = {H5S_UNLIMITED}, chunk[1] = {chunk_rows};
  const Handle space(GS_H5_CHECK(H5Screate_simple(1, dims, most)), H5Sclose);
  const Handle properties(GS_H5_CHECK(H5Pcreate(H5P_DATASET_CREATE)), H5Pclose);
  GS_H5_CHECK(H5Pset_chunk(properties.id(), 1, chunk));
  // Every row is written, so no chunk needs filling first: parallel HDF5
  // allocates a fixed table's chunks at creation and would write it twice.
  GS_H5_CHECK(H5Pset_fill_time(properties.id(), H5D_FILL_TIME_NEVER));
  dataset_ = create_dataset(parent, name, type_.id(), space.id(), properties.id());
  write_attributes(dataset_.id(), attributes);
}

void TableAppender::append(const void* row) {
  std::memcpy(&buffer_[buffered_ * row_bytes_], row, row_bytes_);
  if (++buffered_ == chunk_rows_) write_buffered();
}

void TableAppender::flush() {
  if (buffered_ > 0) write_buffered();
}

void TableAppender::write_buffered() {
  const hsize_t start[1] = {placement_.first + written_}, count[1] = {buffered_}, size[1] = {start[0] + buffered_};
  if (!placement_.fixed) {
    GS_H5_CHECK(H5Dset_extent(dataset_.id(), size));
  } else if (size[0] > placement_.rows) {
    throw InternalError("TableAppender",
                        fmt::format("a table made for {} rows was given row {}", placement_.rows, size[0] - 1),
                        __FILE__, __LINE__);
  }
  const Handle file_space(GS_H5_CHECK(H5Dget_space(dataset_.id())), H5Sclose);
  GS_H5_CHECK(H5Sselect_hyperslab(file_space.id(), H5S_SELECT_SET, start, nullptr, count, nullptr));
  const Handle memory_space(GS_H5_CHECK(H5Screate_simple(1, count, nullptr)), H5Sclose);
  GS_H5_CHECK(H5Dwrite(dataset_.id(), type_.id(), memory_space.id(), file_space.id(), H5P_DEFAULT, buffer_.data()));
  written_ += buffered_;
  buffered_ = 0;
}

Handle open_file_read(const std::string& path) {
  const hid_t id = GS_H5_LOCKED(H5Fopen(path.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT));
  if (id < 0) throw UserError(fmt::format("{}: cannot open as an HDF5 file", path));
  return Handle(id, H5Fclose);
}

Handle create_group(hid_t parent, const std::string& name) {
  return Handle(GS_H5_CHECK(H5Gcreate2(parent, name.c_str(), H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT)), H5Gclose);
}

Handle open_group(hid_t parent, const std::string& name) {
  return Handle(GS_H5_CHECK(H5Gopen2(parent, name.c_str(), H5P_DEFAULT)), H5Gclose);
}

Handle open_dataset(hid_t parent, const std::string& name) {
  return Handle(GS_H5_CHECK(H5Dopen2(parent, name.c_str(), H5P_DEFAULT)), H5Dclose);
}

Handle create_dataset(hid_t parent, const std::string& name, hid_t type, hid_t space, hid_t properties) {
  Handle dataset(GS_H5_CHECK(H5Dcreate2(parent, name.c_str(), type, space, H5P_DEFAULT, properties, H5P_DEFAULT)),
                 H5Dclose);
  write_attribute(dataset.id(), {"stream_version", std::int64_t{kStreamVersion}});
  return dataset;
}

namespace {

void write_raw(hid_t object, const std::string& name, hid_t type, hid_t space, const void* data) {
  if (GS_H5_CHECK(H5Aexists(object, name.c_str())) > 0) GS_H5_CHECK(H5Adelete(object, name.c_str()));
  Handle attr(GS_H5_CHECK(H5Acreate2(object, name.c_str(), type, space, H5P_DEFAULT, H5P_DEFAULT)), H5Aclose);
  GS_H5_CHECK(H5Awrite(attr.id(), type, data));
}

Handle scalar_space() { return Handle(GS_H5_CHECK(H5Screate(H5S_SCALAR)), H5Sclose); }

}  // namespace

void write_attribute(hid_t object, const Attribute& attribute) {
  const std::string& name = attribute.name;
  std::visit(
      [&](const auto& value) {
        using T = std::decay_t<decltype(value)>;
        if constexpr (std::is_same_v<T, std::string>) {
          // Variable-length UTF-8 strings read as str in h5py and xarray.
          Handle type(GS_H5_CHECK(H5Tcopy(H5T_C_S1)), H5Tclose);
          GS_H5_CHECK(H5Tset_size(type.id(), H5T_VARIABLE));
          GS_H5_CHECK(H5Tset_cset(type.id(), H5T_CSET_UTF8));
          const char* text = value.c_str();
          write_raw(object, name, type.id(), scalar_space().id(), &text);
        } else if constexpr (std::is_same_v<T, std::vector<double>>) {
          const hsize_t n = value.size();
          const double none = 0;  // HDF5 wants a buffer even for an empty list
          Handle space(GS_H5_CHECK(H5Screate_simple(1, &n, nullptr)), H5Sclose);
          write_raw(object, name, GS_H5_LOCKED(H5T_NATIVE_DOUBLE), space.id(), value.empty() ? &none : value.data());
        } else if constexpr (std::is_same_v<T, double>) {
          write_raw(object, name, GS_H5_LOCKED(H5T_NATIVE_DOUBLE), scalar_space().id(), &value);
        } else if constexpr (std::is_same_v<T, std::int64_t>) {
          write_raw(object, name, GS_H5_LOCKED(H5T_NATIVE_INT64), scalar_space().id(), &value);
        } else {
          write_raw(object, name, GS_H5_LOCKED(H5T_NATIVE_UINT64), scalar_space().id(), &value);
        }
      },
      attribute.value);
}

void write_attributes(hid_t object, const std::vector<Attribute>& attributes) {
  for (const auto& attribute : attributes) write_attribute(object, attribute);
}

bool has_attribute(hid_t object, const std::string& name) { return GS_H5_CHECK(H5Aexists(object, name.c_str())) > 0; }

namespace {

Handle open_attribute(hid_t object, const std::string& name) {
  if (!has_attribute(object, name)) throw UserError(fmt::format("attribute '{}' is missing", name));
  return Handle(GS_H5_CHECK(H5Aopen(object, name.c_str(), H5P_DEFAULT)), H5Aclose);
}

template <class T>
T read_scalar(hid_t object, const std::string& name, hid_t memtype) {
  Handle attr = open_attribute(object, name);
  T value{};
  GS_H5_CHECK(H5Aread(attr.id(), memtype, &value));
  return value;
}

}  // namespace

std::string read_string_attribute(hid_t object, const std::string& name) {
  Handle attr = open_attribute(object, name);
  Handle type(GS_H5_CHECK(H5Aget_type(attr.id())), H5Tclose);
  if (GS_H5_LOCKED(H5Tis_variable_str(type.id())) > 0) {
    Handle memtype(GS_H5_CHECK(H5Tcopy(H5T_C_S1)), H5Tclose);
    GS_H5_CHECK(H5Tset_size(memtype.id(), H5T_VARIABLE));
    GS_H5_CHECK(H5Tset_cset(memtype.id(), H5Tget_cset(type.id())));
    char* text = nullptr;
    GS_H5_CHECK(H5Aread(attr.id(), memtype.id(), &text));
    std::string result = text ? text : "";
    Handle space(GS_H5_CHECK(H5Aget_space(attr.id())), H5Sclose);
    GS_H5_LOCKED(H5Dvlen_reclaim(memtype.id(), space.id(), H5P_DEFAULT, &text));
    return result;
  }
  const std::size_t size = GS_H5_LOCKED(H5Tget_size(type.id()));
  std::string result(size, '\0');
  GS_H5_CHECK(H5Aread(attr.id(), type.id(), result.data()));
  return result.substr(0, result.find('\0'));
}

std::vector<double> read_as_double(hid_t dataset, std::vector<hsize_t>* dims) {
  Handle space(GS_H5_CHECK(H5Dget_space(dataset)), H5Sclose);
  const int rank = GS_H5_CHECK(H5Sget_simple_extent_ndims(space.id()));
  std::vector<hsize_t> shape(static_cast<std::size_t>(rank));
  GS_H5_CHECK(H5Sget_simple_extent_dims(space.id(), shape.data(), nullptr));
  hsize_t count = 1;
  for (hsize_t d : shape) count *= d;
  std::vector<double> values(count);
  if (count > 0) GS_H5_CHECK(H5Dread(dataset, H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, values.data()));
  if (dims) *dims = shape;
  return values;
}

double read_double_attribute(hid_t object, const std::string& name) {
  return read_scalar<double>(object, name, GS_H5_LOCKED(H5T_NATIVE_DOUBLE));
}
std::int64_t read_int_attribute(hid_t object, const std::string& name) {
  return read_scalar<std::int64_t>(object, name, GS_H5_LOCKED(H5T_NATIVE_INT64));
}
std::uint64_t read_uint_attribute(hid_t object, const std::string& name) {
  return read_scalar<std::uint64_t>(object, name, GS_H5_LOCKED(H5T_NATIVE_UINT64));
}

}  // namespace gs::h5
