#include "io/fio_servers.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <optional>
#include <string_view>

#include "host/base/errors.hpp"
#include "host/base/ranks.hpp"
#include "io/line_reader.hpp"

namespace gs {

namespace {

// fio's --client prefixes of a TCP server (server.c, fio_server_parse_string);
// "sock:" (a local socket) reaches no other node and is not taken.
constexpr const char* kHostPrefixes[] = {"ip:", "ip4:", "ip6:"};

// What is wrong with `host` as fio's --client host ("" when nothing).
std::string host_problem(std::string_view host) {
  if (host.substr(0, 5) == "sock:")
    return "a local socket (sock:) reaches no other node; give the server's HOST or HOST,PORT";
  std::string_view name = host;
  bool ipv6 = false;
  for (const std::string_view prefix : kHostPrefixes)
    if (name.substr(0, prefix.size()) == prefix) {
      ipv6 = prefix == "ip6:";
      name.remove_prefix(prefix.size());
      break;
    }
  if (name.empty()) return "no host";
  for (const char c : name)
    if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '.' || c == '-' || c == '_' || (ipv6 && c == ':')))
      return fmt::format("'{}' is not a host name or address ({})", name,
                         c == ':' ? "an IPv6 address takes fio's ip6: first" : "a character fio does not take");
  return "";
}

FioServer server_of(std::string_view text, const std::string& where) {
  const auto refuse = [&](const std::string& problem) {
    throw UserError(
        fmt::format("{}: '{}': {}; accepted: HOST or HOST,PORT (fio's --client syntax, PORT 1-65535, "
                    "default {}), one a line, # comments",
                    where, text, problem, kFioDefaultPort));
  };
  FioServer server;
  const std::size_t comma = text.find(',');
  server.host = std::string(trim(text.substr(0, comma)));
  if (const std::string problem = host_problem(server.host); !problem.empty()) refuse(problem);
  if (comma == std::string_view::npos) return server;
  const std::string_view port = trim(text.substr(comma + 1));
  const bool digits = !port.empty() && port.size() <= 5 &&
                      std::all_of(port.begin(), port.end(), [](char c) { return c >= '0' && c <= '9'; });
  server.port = digits ? std::stoi(std::string(port)) : 0;
  if (server.port < 1 || server.port > 65535)
    refuse(fmt::format("the port '{}' is not a number from 1 to 65535", port));
  return server;
}

}  // namespace

std::string FioServer::argument() const { return fmt::format("{},{}", host, port); }

std::vector<FioServer> read_fio_servers(const std::string& path) {
  std::optional<LineReader> reader;
  try {
    reader.emplace(path);
  } catch (const UserError& e) {
    throw UserError(fmt::format("--clients {}", e.what()));  // the file missing, unreadable or a directory
  }
  std::vector<FioServer> servers;
  for (std::string line; reader->next(line);) {
    const std::string_view text = trim(std::string_view(line).substr(0, line.find('#')));
    if (text.empty()) continue;
    const std::string where = fmt::format("--clients {}:{}", path, reader->line_number());
    FioServer server = server_of(text, where);
    server.line = reader->line_number();
    for (const FioServer& s : servers)
      if (s.argument() == server.argument())
        throw UserError(
            fmt::format("{}: the fio server {} is listed already on line {}: each server replays one "
                        "block of a replay's processes",
                        where, server.argument(), s.line));
    servers.push_back(std::move(server));
  }
  if (servers.empty())
    throw UserError(
        fmt::format("--clients {}: lists no fio server; give one HOST or HOST,PORT a line, each "
                    "running `fio --server`",
                    path));
  return servers;
}

std::vector<ProcessBlock> process_blocks(std::int32_t processes, std::size_t servers) {
  std::vector<ProcessBlock> blocks;
  for (std::size_t k = 0; k < servers; ++k) {
    // The ranks' split of replicas (host/base/ranks.hpp): the same contiguous, even shares.
    const ReplicaRange range = replica_range(static_cast<std::uint64_t>(std::max(processes, 0)), static_cast<int>(k),
                                             static_cast<int>(servers));
    blocks.push_back({static_cast<std::int32_t>(range.first), static_cast<std::int32_t>(range.count)});
  }
  return blocks;
}

}  // namespace gs
