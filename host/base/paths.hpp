// A path written inside a file (a config, a trace list): relative ones are
// taken from that file's folder, so the file works from any working directory.
#pragma once

#include <filesystem>
#include <string>

namespace gs {

// The directory `path` lies in: "." for a bare name.
inline std::string directory_of(const std::string& path) {
  const std::filesystem::path parent = std::filesystem::path(path).parent_path();
  return parent.empty() ? std::string(".") : parent.string();
}

inline std::string path_beside(const std::string& file, const std::string& path) {
  const std::filesystem::path p(path);
  return p.is_relative() ? (std::filesystem::path(file).parent_path() / p).string() : path;
}

}  // namespace gs
