#!/usr/bin/env bash
# The CPU features that choose code paths whose rounding may differ (FFTW's codelets; the
# lanes give the same bits at either width): the regression digests hold for this set.
grep -o -w -m1 -E 'avx2|avx512f|fma' /proc/cpuinfo | sort -u | tr '\n' ' ' | sed 's/ $//'
