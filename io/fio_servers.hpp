// The fio servers a replay runs on (`gpusynth replay --clients FILE`,
// docs/requests.md): fio's client/server mode, one fio client driving every
// server at once, each server replaying a contiguous block of the replay's
// processes (fio runs at most kFioMaxJobs jobs per process).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace gs {

constexpr int kFioMaxJobs = 4096;      // fio 3.33's FIO_MAX_JOBS: jobs one fio (or one fio server) runs
constexpr int kFioDefaultPort = 8765;  // fio's FIO_NET_PORT (server.h): `fio --server`'s port by default

struct FioServer {
  std::string host;  // as fio's --client takes it: a name or an address, optionally ip:, ip4: or ip6: first
  int port = kFioDefaultPort;
  std::int64_t line = 0;  // in the clients file

  std::string argument() const;  // "HOST,PORT", fio's --client=HOST,PORT
};

// The clients file: one server a line, `HOST` or `HOST,PORT` (PORT 1-65535,
// default 8765), `#` to the end of a line a comment, blank lines skipped. A
// line that is not a server, a server listed twice and a file without any is
// a UserError naming the file and the line.
std::vector<FioServer> read_fio_servers(const std::string& path);

// The contiguous block [first, first + count) of processes a server replays.
struct ProcessBlock {
  std::int32_t first = 0, count = 0;
};

// Processes 0 .. processes - 1 in one block per server, in the servers'
// order, as even as possible: the first (processes mod servers) blocks take
// one more (a block is empty when there are fewer processes than servers).
std::vector<ProcessBlock> process_blocks(std::int32_t processes, std::size_t servers);

}  // namespace gs
