#include "host/app/report.hpp"

#include <fmt/format.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <filesystem>

#include "host/base/errors.hpp"
#include "host/base/interrupt.hpp"
#include "io/hdf5.hpp"

namespace gs {

namespace {

std::string environment_or(const char* name, const std::string& fallback) {
  const char* value = std::getenv(name);
  return value && *value ? value : fallback;
}

}  // namespace

int report_command(const ReportOptions& o) {
  {
    const h5::Handle file = h5::open_file_read(o.results);
    bool found = false;
    for (const char* group : {"compare", "requests", "bursts"}) found = found || H5Lexists(file.id(), group, H5P_DEFAULT) > 0;
    if (!found)
      throw UserError(fmt::format("{}: no /compare, /requests or /bursts group; run a config with a 'compare:', "
                                  "'requests:' or 'bursts:' block first",
                                  o.results));
  }
  // Debian's matplotlib and h5py belong to /usr/bin/python3 (a python3 earlier on PATH may lack them).
  const std::string python = environment_or("GPUSYNTH_PYTHON", "/usr/bin/python3");
  const std::string script = environment_or("GPUSYNTH_REPORT_SCRIPT", GPUSYNTH_REPORT_SCRIPT);
  if (!std::filesystem::is_regular_file(script))
    throw UserError(
        fmt::format("the report script '{}' is missing; set GPUSYNTH_REPORT_SCRIPT to scripts/report.py "
                    "of the gpusynth sources",
                    script));
  const pid_t child = fork();
  if (child < 0) throw InternalError("fork", "cannot start the report script", __FILE__, __LINE__);
  if (child == 0) {
    execl(python.c_str(), python.c_str(), script.c_str(), o.results.c_str(), o.output.c_str(),
          static_cast<char*>(nullptr));
    std::fprintf(stderr, "gpusynth: error: cannot run %s (python3-matplotlib and python3-h5py are needed)\n",
                 python.c_str());
    _exit(kExitUser);
  }
  int status = 0;
  while (waitpid(child, &status, 0) < 0)
    if (errno != EINTR) throw InternalError("waitpid", "lost the report script", __FILE__, __LINE__);
  throw_if_interrupted();  // the script had the same signal (one process group)
  if (WIFEXITED(status)) return WEXITSTATUS(status);
  return kExitInternal;
}

}  // namespace gs
