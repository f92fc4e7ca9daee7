// darshan-dxt-parser's blocks, checked whole by both DXT readers (--format dxt
// for `stats`, io/traces/dxt.cpp, and the request reader, io/request_trace.cpp).
// A line "# DXT, file_id: ID, file_name: NAME" opens a block; its header line
// "# DXT, write_count: W, read_count: R" says how many operation lines follow.
// A block with other counts, a file_id line without its file name, or a file
// that ends in a block's header (no counts, no operations) is a damaged or
// truncated trace: a located error, never a shorter trace read in silence. A
// block without a counts line (gpusynth's own DXT-like text before it wrote
// them) is taken as it is.
#pragma once

#include <fmt/format.h>

#include <cstdint>
#include <cstdio>
#include <optional>
#include <string>
#include <string_view>

#include "io/traces/fields.hpp"

namespace gs {

class DxtBlocks {
 public:
  explicit DxtBlocks(std::string path) : path_(std::move(path)) {}

  // A '#' line at `line` of the file: the file name when it opens a block.
  // A file_id line without "file_name: NAME" is a BadLine.
  std::optional<std::string_view> header(std::string_view content, std::uint64_t line) {
    if (starts_with(content, "# DXT, file_id:")) {
      close_block(line, false);
      const auto at = content.find(", file_name: ");
      const std::string_view name = at == std::string_view::npos ? std::string_view() : trim(content.substr(at + 13));
      if (name.empty())
        throw BadLine{
            "a '# DXT, file_id: ID, file_name: NAME' line without its file name: the line is cut or "
            "damaged",
            content};
      block_ = Block{line, 0, std::string(name)};
      return name;
    }
    if (block_ && starts_with(content, "# DXT, write_count:")) {
      unsigned long long writes = 0, reads = 0;
      int consumed = 0;
      const std::string text(content);
      if (std::sscanf(text.c_str(), "# DXT, write_count: %llu, read_count: %llu%n", &writes, &reads, &consumed) != 2)
        throw BadLine{"expected '# DXT, write_count: W, read_count: R'", content};
      block_->counts_line = line;
      block_->writes_expected = writes;
      block_->reads_expected = reads;
    }
    return std::nullopt;
  }

  // An operation line (X_POSIX, X_MPIIO, …) of the current block.
  void operation(bool write) {
    if (block_) ++(write ? block_->writes : block_->reads);
  }

  // At the end of the file, whose last line is `last_line`.
  void finish(std::uint64_t last_line) { close_block(last_line, true); }

 private:
  struct Block {
    std::uint64_t line = 0, counts_line = 0;  // where it starts, where its counts are (0: none)
    std::string file;
    std::uint64_t writes_expected = 0, reads_expected = 0, writes = 0, reads = 0;
  };

  void close_block(std::uint64_t line, bool at_end) {
    if (!block_) return;
    const Block b = *block_;
    block_.reset();
    const int at = static_cast<int>(line);
    if (b.counts_line == 0 && b.writes + b.reads == 0)
      throw located_error(path_, at, 1,
                          at_end ? fmt::format("the file ends in the header of the block of '{}' that starts at line "
                                               "{} (no counts, no operations): the trace is truncated",
                                               b.file, b.line)
                                 : fmt::format("the block of '{}' that starts at line {} has no '# DXT, write_count:' "
                                               "line and no operations: the trace is damaged",
                                               b.file, b.line));
    if (b.counts_line != 0 && (b.writes != b.writes_expected || b.reads != b.reads_expected))
      throw located_error(path_, at, 1,
                          fmt::format("{} the block of '{}' that starts at line {}: its header (line {}) says {} "
                                      "writes and {} reads, but {} and {} {}: the trace is {}",
                                      at_end ? "the file ends in" : "this line follows", b.file, b.line, b.counts_line,
                                      b.writes_expected, b.reads_expected, b.writes, b.reads,
                                      at_end ? "were read" : "are in it", at_end ? "truncated" : "damaged"));
  }

  std::string path_;
  std::optional<Block> block_;
};

}  // namespace gs
