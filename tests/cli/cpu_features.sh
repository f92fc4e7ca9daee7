#!/usr/bin/env bash
# The CPU features that choose code paths whose rounding may differ (FFTW's codelets; the
# lanes give the same bits at either width): the regression digests hold for this set.
# GPUSYNTH_CPU_FEATURES, for tests only, replaces what /proc/cpuinfo says: a test that runs
# gpusynth under an emulator (scripts/emulate_avx2.sh) sets it to the emulated CPU's features
# ("avx2 fma"), which /proc/cpuinfo does not show (qemu-user passes the host's through).
# Set elsewhere it can only make run_config.sh compare with another CPU's digest and fail.
if [ -n "${GPUSYNTH_CPU_FEATURES:-}" ]; then
  echo "$GPUSYNTH_CPU_FEATURES"
  exit 0
fi
grep -o -w -m1 -E 'avx2|avx512f|fma' /proc/cpuinfo | sort -u | tr '\n' ' ' | sed 's/ $//'
