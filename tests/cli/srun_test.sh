#!/usr/bin/env bash
# A task of an srun step that is alone in its MPI world (srun without --mpi=pmix, or a build
# without MPI) would run the whole job into the one output file, once per task
# (docs/scale-out.md, "A Slurm job"): it stops with exit 2, writes nothing and gives the fix.
# srun's environment is set by hand here (cli.slurm checks a real srun); a batch script's own
# shell (SLURM_NTASKS without SLURM_STEP_ID) and a one-task step still run.
set -u
source "$(dirname "$0")/lib.sh"

cat >"$tmp/small.yaml" <<YAML
seed: 1
ensembles:
  - {name: f, model: fgn, params: {H: 0.7}, replicas: 2, length: 64}
YAML
for variable in SLURM_NTASKS SLURM_NPROCS; do
  expect_rc 2 "srun step of 4 tasks ($variable), MPI size 1" \
    env SLURM_STEP_ID=0 "$variable=4" "$gpusynth" "$tmp/small.yaml" -o "$tmp/four.h5" -q
  expect_in "$tmp/stderr" "srun started 4 tasks" "the refusal says what it saw ($variable)"
  expect_in "$tmp/stderr" "srun --mpi=pmix gpusynth" "the refusal gives the fix ($variable)"
  [ -e "$tmp/four.h5" ] && fail "the refused task wrote $tmp/four.h5"
done
expect_rc 0 "a batch script's shell (SLURM_NTASKS=4, no step)" \
  env -u SLURM_STEP_ID -u SLURM_STEP_NUM_TASKS SLURM_NTASKS=4 SLURM_NPROCS=4 "$gpusynth" "$tmp/small.yaml" -o "$tmp/batch.h5" -q
expect_rc 0 "a one-task step" env -u SLURM_STEP_NUM_TASKS -u SLURM_NPROCS SLURM_STEP_ID=0 SLURM_NTASKS=1 "$gpusynth" "$tmp/small.yaml" -o "$tmp/one.h5" -q
finish "cli.srun"
