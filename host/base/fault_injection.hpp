// Fault injection for the failure tests (tests/cli/mpi_test.sh,
// tests/cli/hostile_test.sh): with GPUSYNTH_FAULT=STAGE, STAGE#N, STAGE@RANK
// or STAGE#N@RANK in the environment, the N-th call (the first without #N)
// of fault_point(STAGE) throws an InternalError on that rank (on every rank
// without @RANK), as a failing library call would. The stages
// are named where fault_point is called: plan (every rank's planning, before
// the ranks agree to go), generate, study, requests, request-rows (a request
// table open in the file), bursts, deflate (inside the writer's OpenMP loop).
// Unset, it costs one comparison.
#pragma once

namespace gs {

void fault_point(const char* stage);

}  // namespace gs
