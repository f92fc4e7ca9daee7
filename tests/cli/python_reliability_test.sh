#!/usr/bin/env bash
# The Python module's reliability (docs/python.md: Errors, Threads and Ctrl-C,
# Memory): a recursive or 100 000-deep config is a gpusynth.UserError, not a
# segfault; generate from several threads gives the serial bits and leaves
# Python's Ctrl-C handling whole; a str naming no file is "No such file", not
# YAML text; fit with no models names the accepted ones; replicas=10**9 is
# refused at once with the numbers (memory_limit); SIGINT stops a run, the
# calls waiting for it and a blocking read within a second. Each case runs in
# its own interpreter (a crash fails that case only), under a time limit and a
# 6 GB address-space limit (a module that allocated instead of refusing fails
# rather than take the machine's memory). Skipped when the module is not built.
set -u
source "$(dirname "$0")/lib.sh"
use_python_module "$@"
export GS_DATA=$data
check=$(dirname "$0")/python_reliability_check.py

run_case() {  # case [repeat]
  local name=$1 repeat=${2:-1} i rc
  for ((i = 1; i <= repeat; i++)); do
    (ulimit -v 6000000; timeout -s KILL 60 /usr/bin/python3 "$check" "$name" "$tmp") >"$tmp/out" 2>&1
    rc=$?
    if [ "$rc" -ne 0 ]; then
      fail "$name (run $i of $repeat): exit $rc: $(tail -c 1500 "$tmp/out")"
      return
    fi
  done
  tail -n 1 "$tmp/out"
}

for kind in dict list deep-dict deep-list keyword; do run_case "recursion-$kind"; done
run_case threads 3  # the unserialised read-back crashed about one run in three
run_case concurrent
run_case readback
run_case paths
run_case fit-empty
run_case memory
run_case interrupt-run
run_case interrupt-threads
finish "python_reliability"
