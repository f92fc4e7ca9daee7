#!/usr/bin/env bash
# The lanes' objects (host/engine/cpu/lanes_avx2*.cpp, lanes_avx512*.cpp,
# estimators/lanes_avx*_exp.cpp) are compiled for instruction sets the
# CPU may lack and entered only through host/engine/cpu/lanes.cpp's or
# estimators/deterministic_exp.cpp's dispatch. Two ways their code could run anyway:
# a global or weak function outside the lanes' inline namespaces (an inline
# function of a shared header, which the linker may keep from this object for
# every caller), or a static initialiser that uses the wider registers (it runs
# at start-up on any CPU). Fails on either.
# Usage: lanes_objects.sh <build dir>
set -euo pipefail
build=$1
mapfile -t objects < <(find "$build" -path '*gpusynth_core.dir*' -name 'lanes_avx*.cpp.o' | sort)
if [[ ${#objects[@]} -eq 0 ]]; then
  echo "no lanes objects under $build (not an x86-64 build): nothing to check"
  exit 77
fi
status=0
for object in "${objects[@]}"; do
  # Defined global (T) and weak (W, V) symbols, demangled, outside the lanes' namespaces. Two are
  # allowed: the dispatch slots CpuLanesSlot<Kernel>::launch, data these objects fill (GCC makes
  # them unique globals, u, which the awk leaves out; Clang weak objects, V), and Clang's
  # __clang_call_terminate, checked below for vector registers instead.
  leaked=$(nm --defined-only -C "$object" | awk '$2 ~ /^[TWV]$/' |
    grep -Ev ' gs::((avx2|avx512)_(accurate|fast)|(avx|avx512)_cinz|avx_logistic)_lanes::|DW\.ref\.__gxx_personality_v0' |
    grep -Ev '^[0-9a-f]+ V gs::CpuLanesSlot<.*>::launch$|^[0-9a-f]+ W __clang_call_terminate$' || true)
  if [[ -n $leaked ]]; then
    echo "FAIL $object defines code outside the lanes' namespaces:"
    echo "$leaked"
    status=1
  fi
  # Clang's weak __clang_call_terminate (catch, then std::terminate) is in every object that may
  # throw through a noexcept frame: any copy may be kept, so none may use the wider registers.
  for function in $(nm --defined-only "$object" | awk '$3 ~ /^(_GLOBAL__sub_I_|__clang_call_terminate$)/ {print $3}'); do
    wide=$(objdump -d --no-show-raw-insn --disassemble="$function" "$object" | grep -E '%[xyz]mm|%k[0-7]' || true)
    if [[ -n $wide ]]; then
      echo "FAIL $object: $function (a static initialiser or Clang's terminate) uses vector registers:"
      echo "$wide"
      status=1
    fi
  done
  echo "checked $object"
done
exit $status
