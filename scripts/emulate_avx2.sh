#!/usr/bin/env bash
# Runs a gpusynth binary on an emulated CPU with AVX2 and FMA but no AVX-512 (the CI's feature set,
# "avx2 fma"), on a machine of any x86-64 feature set: qemu-user (Debian's qemu-user, 7.2 or later:
# its TCG runs AVX2 and FMA, and has no AVX-512 at all).
#   scripts/emulate_avx2.sh GPUSYNTH [ARGS...]
# The program sees the emulated CPU through cpuid, so gpusynth's lanes (__builtin_cpu_supports,
# host/engine/cpu/lanes.cpp) take AVX2's eight, the logistic fit's exp takes its AVX form
# (estimators/deterministic_exp.cpp), and FFTW and glibc's libm choose their code as on such a CPU.
# /proc/cpuinfo is not emulated (it shows the host's), so tests/cli/cpu_features.sh cannot tell:
# the output's root attribute `device` says which lanes ran ("AVX2 lanes (8 wide ...").
# GPUSYNTH_QEMU_CPU chooses qemu's CPU model (default EPYC-Rome, as the CI's AMD EPYC; Haswell also
# has AVX2 and FMA without AVX-512). Runs are 10 to 30 times slower than native ones.
set -euo pipefail
[ $# -ge 1 ] || { echo "usage: $0 GPUSYNTH [ARGS...]" >&2; exit 2; }
command -v qemu-x86_64 >/dev/null || { echo "$0: qemu-x86_64 not found (apt-get install qemu-user)" >&2; exit 2; }
# TCG leaves out features of the model it does not emulate (none of them chooses a code path
# here) and says so once per thread: those lines are dropped, every other line of stderr is kept.
set +e
{
  qemu-x86_64 -cpu "${GPUSYNTH_QEMU_CPU:-EPYC-Rome}" "$@" 2>&1 1>&4 4>&- |
    grep -v "^qemu-x86_64: warning: TCG doesn't support requested feature" >&2
  status=${PIPESTATUS[0]}
} 4>&1
exit "$status"
