// The gpusynth executable: MPI ranks when mpirun or srun started it, then the command line
// (host/app/cli.cpp); MPI is finalized unless a failed write left an HDF5 file open.
#include <cstdlib>

#include "host/app/cli.hpp"
#include "host/base/allocation.hpp"
#include "host/base/ranks.hpp"
#include "io/hdf5_library.hpp"

int main(int argc, char** argv) {
  gs::keep_freed_memory_for_reuse();
  gs::init_ranks(&argc, &argv);  // MPI only when mpirun or srun started us; else one plain rank
  const int code = gs::main_cli(argc, argv);
  // A write that failed (a full disk) can leave a file open in HDF5; parallel
  // HDF5 closes the library inside MPI_Finalize and would flush it once more
  // and crash. Such a process leaves without finalizing; mpirun reports its code.
  if (code != 0 && gs::h5::any_file_open()) std::_Exit(code);
  gs::finalize_ranks();
  return code;
}
