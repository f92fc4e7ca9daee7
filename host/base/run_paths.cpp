#include "host/base/run_paths.hpp"

#include <fmt/format.h>
#include <sys/stat.h>

#include <filesystem>

#include "host/base/errors.hpp"

namespace gs {

namespace fs = std::filesystem;

fs::path identity_of(const std::string& path) {
  std::error_code ec;
  fs::path absolute = fs::absolute(path, ec);
  if (ec) absolute = path;
  fs::path canonical = fs::weakly_canonical(absolute, ec);
  return ec ? absolute.lexically_normal() : canonical;
}

bool inside(const fs::path& path, const fs::path& folder) {
  const std::string p = path.string(), f = folder.string();
  return p.size() > f.size() && p.compare(0, f.size(), f) == 0 && (f.back() == '/' || p[f.size()] == '/');
}

bool same_file(const std::string& a, const std::string& b) {
  if (identity_of(a) == identity_of(b)) return true;
  struct stat x {
  }, y{};  // hard links, bind mounts
  return stat(a.c_str(), &x) == 0 && stat(b.c_str(), &y) == 0 && x.st_dev == y.st_dev && x.st_ino == y.st_ino;
}

RunPath& RunPaths::add_output(const std::string& what, const std::string& target, const std::string& at, bool folder) {
  RunPath p;
  p.what = what;
  p.target = target;
  p.at = at;
  p.folder = folder;
  paths_.push_back(p);
  return paths_.back();
}

void RunPaths::add_input(const std::string& what, const std::string& path, const std::string& at) {
  RunPath p;
  p.what = fmt::format("{} '{}'", what, path);
  p.target = path;
  p.at = at;
  p.output = false;
  paths_.push_back(p);
}

void RunPaths::add_inputs(const std::string& what, const std::vector<std::string>& paths) {
  for (const std::string& path : paths) add_input(what, path);
}

void RunPaths::check() const {
  std::vector<fs::path> identities;
  for (const RunPath& p : paths_) identities.push_back(identity_of(p.target));
  for (std::size_t i = 0; i < paths_.size(); ++i) {
    const RunPath& a = paths_[i];
    if (!a.output) continue;
    for (std::size_t j = 0; j < paths_.size(); ++j) {
      if (i == j) continue;
      const RunPath& b = paths_[j];
      const RunPath& shown = a.at.empty() && !b.at.empty() ? b : a;
      // Each pair of outputs once; an output against every input.
      if ((j > i || !b.output) && same_file(a.target, b.target))
        throw UserError(fmt::format("{}{} and {} are the same {}; {}", shown.at, a.what, b.what,
                                    a.folder || b.folder ? "path" : "file",
                                    b.output ? "every output of a run needs a path of its own"
                                             : "an output may not replace an input of its own run"));
      if (a.folder && inside(identities[j], identities[i]))
        throw UserError(fmt::format("{}{} is inside {}, which the run replaces as a whole; choose a path outside it",
                                    shown.at, b.what, a.what));
    }
  }
}

}  // namespace gs
