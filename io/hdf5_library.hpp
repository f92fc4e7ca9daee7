// What the layers above io/ may know of the HDF5 library, without its types
// (scripts/check_layers.py: no HDF5 outside io/): the names gpusynth gives
// groups, the library's lock, and the library-wide switches. Everything that
// touches a file is io/'s (io/hdf5.hpp and the *_file.hpp writers).
#pragma once

#include <mutex>
#include <string>

namespace gs::h5 {

// Debian's HDF5 is built without thread safety: two threads must never be
// inside the library at once. Every HDF5 call gpusynth makes holds this lock
// (GS_H5_CHECK, GS_H5_LOCKED and Handle's closing in io/hdf5.hpp), as a
// thread-safe build holds its own, so that runs in several threads of one
// process (Python calls) share the library; a reader that enters the library
// another way (h5py) holds it too. Recursive: a callback of the library
// (H5Literate) calls it again. Held for one call at a time, never across other work.
std::recursive_mutex& library_mutex();
using LibraryLock = std::lock_guard<std::recursive_mutex>;

// The names gpusynth gives groups (ensembles, datasets): A-Z a-z 0-9 _ . -,
// starting with a letter, a digit or _ (so never ".", ".." or a hidden name).
bool is_group_name(const std::string& name);
// `text` made a group name: other characters become _, and _ leads when needed.
std::string group_name_from(const std::string& text);
constexpr const char* kGroupNameRule = "letters, digits, _ . - (starting with a letter, a digit or _)";

// Whether the library still has a file open (a failed write left one).
bool any_file_open();

// No clean-up by the library at exit: after a failed write (a full disk) it
// would flush the abandoned temporary file again and crash; gpusynth's
// handles close everything on the normal paths. Once, before any file.
void skip_library_cleanup_at_exit();

// Silence HDF5's own error stack printing on the calling thread (a thread-safe
// HDF5 keeps one stack per thread); errors surface as exceptions.
void quiet_library_errors();

// Whether the HDF5 file at `path` has the object `object` (a group's path).
bool file_has(const std::string& path, const std::string& object);

}  // namespace gs::h5
