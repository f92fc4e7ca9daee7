#include "io/line_reader.hpp"

#include <fmt/format.h>
#include <openssl/evp.h>
#include <sys/stat.h>

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <cstring>
#include <fstream>
#include <memory>

#include "host/base/errors.hpp"

namespace gs {

LineReader::LineReader(const std::string& path) : path_(path), buffer_(1 << 16) {
  struct stat info {};
  if (stat(path.c_str(), &info) == 0 && S_ISDIR(info.st_mode))
    throw UserError(fmt::format("{}: is a directory, not a trace file", path));
  file_ = gzopen(path.c_str(), "rb");
  if (file_ == nullptr) throw UserError(fmt::format("{}: cannot open: {}", path, std::strerror(errno)));
  gzbuffer(file_, 1 << 15);  // zlib keeps twice this for output: 96 KiB per open file
}

LineReader::~LineReader() { gzclose(file_); }

bool LineReader::fill() {
  const int got = gzread(file_, buffer_.data(), static_cast<unsigned>(buffer_.size()));
  int code = Z_OK;
  const char* message = gzerror(file_, &code);
  if (got < 0 || (code != Z_OK && code != Z_BUF_ERROR))
    throw UserError(fmt::format("{}:{}: cannot read: {}", path_, line_number_ + 1,
                                code == Z_ERRNO ? std::strerror(errno) : message));
  if (got == 0 && code == Z_BUF_ERROR)  // zlib's "unexpected end of file"
    throw UserError(
        fmt::format("{}:{}: the gzip stream is truncated (the file ends inside it)", path_, line_number_ + 1));
  begin_ = 0;
  end_ = static_cast<std::size_t>(got);
  return got > 0;
}

bool LineReader::next(std::string& line) {
  line.clear();
  too_long_ = false;
  bool any = false;
  for (;;) {
    if (begin_ == end_ && !fill()) break;
    any = true;
    const char* start = buffer_.data() + begin_;
    const auto* newline = static_cast<const char*>(std::memchr(start, '\n', end_ - begin_));
    const std::size_t take = newline ? static_cast<std::size_t>(newline - start) : end_ - begin_;
    const std::size_t room = kMaxLineBytes - std::min(kMaxLineBytes, line.size());
    if (take > room) too_long_ = true;
    line.append(start, std::min(take, room));
    begin_ += take;
    if (newline) {
      ++begin_;
      break;
    }
  }
  if (!any) return false;
  while (!line.empty() && line.back() == '\r') line.pop_back();
  ++line_number_;
  return true;
}

std::vector<std::string_view> split_fields(std::string_view line, char delimiter) {
  std::vector<std::string_view> fields;
  if (delimiter == ' ') {
    std::size_t i = 0;
    while (i < line.size()) {
      while (i < line.size() && (line[i] == ' ' || line[i] == '\t')) ++i;
      if (i == line.size()) break;
      std::size_t j = i;
      while (j < line.size() && line[j] != ' ' && line[j] != '\t') ++j;
      fields.push_back(line.substr(i, j - i));
      i = j;
    }
    return fields;
  }
  std::size_t start = 0;
  for (;;) {
    const auto end = line.find(delimiter, start);
    fields.push_back(trim(line.substr(start, end == std::string_view::npos ? std::string_view::npos : end - start)));
    if (end == std::string_view::npos) break;
    start = end + 1;
  }
  return fields;
}

char detect_delimiter(std::string_view line) {
  if (line.find(',') != std::string_view::npos) return ',';
  if (line.find('\t') != std::string_view::npos) return '\t';
  return ' ';
}

bool parse_number(std::string_view field, double& value) {
  field = trim(field);
  if (!field.empty() && field.front() == '+') field.remove_prefix(1);
  if (field.empty()) return false;
  const auto [end, error] = std::from_chars(field.data(), field.data() + field.size(), value);
  return error == std::errc() && end == field.data() + field.size();
}

namespace {

// SHA-256 over bytes given in pieces, as lower-case hex.
class Sha256 {
 public:
  Sha256() : context_(EVP_MD_CTX_new(), EVP_MD_CTX_free) {
    if (!context_ || EVP_DigestInit_ex(context_.get(), EVP_sha256(), nullptr) != 1)
      throw InternalError("EVP_DigestInit_ex", "failed", __FILE__, __LINE__);
  }
  void add(const char* bytes, std::size_t size) { EVP_DigestUpdate(context_.get(), bytes, size); }
  std::string hex() {
    unsigned char digest[EVP_MAX_MD_SIZE];
    unsigned int length = 0;
    EVP_DigestFinal_ex(context_.get(), digest, &length);
    std::string text;
    for (unsigned int i = 0; i < length; ++i) text += fmt::format("{:02x}", digest[i]);
    return text;
  }

 private:
  std::unique_ptr<EVP_MD_CTX, void (*)(EVP_MD_CTX*)> context_;
};

}  // namespace

std::string file_sha256(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw UserError(fmt::format("{}: cannot open: {}", path, std::strerror(errno)));
  Sha256 sha;
  std::vector<char> chunk(1 << 20);
  while (in) {
    in.read(chunk.data(), static_cast<std::streamsize>(chunk.size()));
    if (in.gcount() > 0) sha.add(chunk.data(), static_cast<std::size_t>(in.gcount()));
  }
  return sha.hex();
}

std::string bytes_sha256(std::string_view bytes) {
  Sha256 sha;
  sha.add(bytes.data(), bytes.size());
  return sha.hex();
}

}  // namespace gs
