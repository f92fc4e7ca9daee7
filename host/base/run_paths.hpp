// Every path one command reads or writes, checked against the others before
// any work (docs/cli.md): no output may be an input of the same run (the
// config, a trace, a trace list, counters, a results file), also through a
// symbolic link, a hard link or a bind mount; no two outputs may be one path;
// nothing of the run may lie inside a folder an output replaces whole (a fio
// replay folder, a report). A clash is a UserError naming both paths.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

namespace gs {

struct RunPath {
  std::string what;     // "output 'x.h5'", "requests[0] ('io').emit.fio 'f'", "the config 'c.yaml'"
  std::string at;       // "c.yaml:12:20: " where a config line gave it, else ""
  std::string target;   // what is read or replaced: symbolic links followed for outputs
  bool folder = false;  // replaced as a whole: nothing else of the run may be inside
  bool output = true;
};

class RunPaths {
 public:
  // `target` is what resolve_output_target (or a folder's resolver) returned.
  RunPath& add_output(const std::string& what, const std::string& target, const std::string& at = "",
                      bool folder = false);
  void add_input(const std::string& what, const std::string& path, const std::string& at = "");
  // Each input named `what` ("trace") with its path appended: "trace 'x.gz'".
  void add_inputs(const std::string& what, const std::vector<std::string>& paths);

  // The clashes, as a UserError: an output that is an input or another
  // output, or a path inside an output folder.
  void check() const;

  const std::vector<RunPath>& paths() const { return paths_; }

 private:
  std::vector<RunPath> paths_;
};

// The absolute path with every link that exists followed (lexically
// normalised where the file system cannot say): where a path really is.
std::filesystem::path identity_of(const std::string& path);
// Whether `path` lies strictly below `folder` (whole components: /a/bc is not
// inside /a/b); both as identity_of gives them.
bool inside(const std::filesystem::path& path, const std::filesystem::path& folder);

// Whether two paths name one file (or folder): the same absolute path once
// links are followed, or the same device and inode (hard links, bind mounts).
bool same_file(const std::string& a, const std::string& b);

}  // namespace gs
