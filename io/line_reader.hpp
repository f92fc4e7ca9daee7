// Line-by-line reading of text traces, gzip-compressed or not (zlib's gzread
// passes plain files through unchanged), with the line number kept for
// error messages, plus the field splitting the text formats share. A line is
// returned as it is, NUL bytes included, so that the caller can refuse it; a
// truncated gzip stream is an error, not a short file.
#pragma once

#include <zlib.h>

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "host/base/text.hpp"

namespace gs {

class LineReader {
 public:
  // Longer lines are not text a trace format writes (binary data, a lost newline).
  static constexpr std::size_t kMaxLineBytes = 1 << 20;

  explicit LineReader(const std::string& path);  // UserError when it cannot be opened or is a directory
  LineReader(const LineReader&) = delete;
  LineReader& operator=(const LineReader&) = delete;
  ~LineReader();

  // The next line without its end-of-line characters; false at the end. A
  // line longer than kMaxLineBytes is cut there, the rest of it skipped, and
  // too_long() set. UserError when the file cannot be read or the gzip stream
  // is corrupt or truncated.
  bool next(std::string& line);
  bool too_long() const { return too_long_; }
  std::int64_t line_number() const { return line_number_; }
  const std::string& path() const { return path_; }

 private:
  bool fill();  // more bytes into buffer_; false at the end of the data

  std::string path_;
  gzFile file_;
  std::int64_t line_number_ = 0;
  std::vector<char> buffer_;
  std::size_t begin_ = 0, end_ = 0;  // the unread bytes of buffer_
  bool too_long_ = false;
};

// Fields separated by `delimiter`; ' ' means runs of spaces and tabs.
std::vector<std::string_view> split_fields(std::string_view line, char delimiter);

// The delimiter of a data line: a comma or a tab when the line has one, else whitespace.
char detect_delimiter(std::string_view line);

// A whole-field decimal number (std::from_chars); false on anything else.
bool parse_number(std::string_view field, double& value);

// SHA-256 of a file's bytes as stored (compressed files are hashed compressed), lower-case hex.
std::string file_sha256(const std::string& path);
// The same of bytes already read (a file read whole: its hash without reading it again).
std::string bytes_sha256(std::string_view bytes);

}  // namespace gs
