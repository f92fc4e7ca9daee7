// Line-by-line reading of text traces, gzip-compressed or not (zlib's gzread
// passes plain files through unchanged), with the line number kept for
// error messages, plus the field splitting the text formats share.
#pragma once

#include <zlib.h>

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace gs {

class LineReader {
 public:
  explicit LineReader(const std::string& path);  // UserError when the file cannot be opened
  LineReader(const LineReader&) = delete;
  LineReader& operator=(const LineReader&) = delete;
  ~LineReader();

  // The next line without its end-of-line characters; false at the end.
  bool next(std::string& line);
  std::int64_t line_number() const { return line_number_; }
  const std::string& path() const { return path_; }

 private:
  std::string path_;
  gzFile file_;
  std::int64_t line_number_ = 0;
  std::vector<char> buffer_;
};

// Fields separated by `delimiter`; ' ' means runs of spaces and tabs.
std::vector<std::string_view> split_fields(std::string_view line, char delimiter);

// The delimiter of a data line: a comma or a tab when the line has one, else whitespace.
char detect_delimiter(std::string_view line);

// A whole-field decimal number (std::from_chars); false on anything else.
bool parse_number(std::string_view field, double& value);

std::string_view trim(std::string_view text);

// SHA-256 of a file's bytes as stored (compressed files are hashed compressed), lower-case hex.
std::string file_sha256(const std::string& path);

}  // namespace gs
