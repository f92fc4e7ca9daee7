// Another program run to its end as gpusynth's child (the report's Python
// script, fio for a replay): SIGINT and SIGTERM that gpusynth records are
// passed on to it, and it dies with gpusynth (PR_SET_PDEATHSIG).
#pragma once

#include <string>
#include <vector>

namespace gs {

// The exit status of a child that could not start its program (as the
// shell's "command not found"); it said why on stderr.
constexpr int kCannotRun = 127;

struct ChildProgram {
  std::vector<std::string> argv;         // argv[0] is looked up on PATH when it has no '/'
  std::string directory;                 // its working directory (empty: ours)
  std::string stdout_path, stderr_path;  // where its output goes (empty: ours)
  // SIGINT and SIGTERM blocked through exec, for a program that unblocks them
  // once its handlers are in place (report.py): one that comes while it starts
  // then ends it like one that comes later.
  bool block_interrupts_through_exec = false;
  std::string cannot_run_note;  // printed after "cannot run ARGV0: reason" (exit kCannotRun)
};

// Runs `program` and waits for it; returns the wait status (waitpid's). A
// recorded SIGINT or SIGTERM is passed on once; the child then has
// `grace_seconds` to stop before SIGKILL. The caller checks for the interrupt.
int run_child(const ChildProgram& program, double grace_seconds = 10);

// "exit status 3", "killed by signal 9".
std::string describe_wait_status(int status);

}  // namespace gs
