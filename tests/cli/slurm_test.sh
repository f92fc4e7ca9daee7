#!/usr/bin/env bash
# Slurm, for real (docs/scale-out.md, "A Slurm job"): a one-node Slurm on this host (munged,
# slurmctld and slurmd with their config, key, state and logs in a temporary folder, on ports
# of their own), the documented batch script submitted with sbatch (its node, GPU and core
# counts fitted to this host: 1 node, 2 tasks), and `srun --mpi=pmix -n 2 gpusynth ...`; each
# output must hold the serial run's bits. The daemons this test started are stopped at exit.
# Skipped with a message where gpusynth has no MPI, Slurm or munge is missing, or the daemons
# cannot start (Debian: slurm-wlm, munge).
set -u
source "$(dirname "$0")/lib.sh"
for tool in slurmctld slurmd munged sbatch srun sinfo scontrol; do
  command -v "$tool" >/dev/null || { echo "SKIP: $tool is not installed (Debian: slurm-wlm, munge)"; exit 77; }
done
"$gpusynth" --version | grep -q "MPI (" || { echo "SKIP: this gpusynth was built without MPI"; exit 77; }
gpusynth=$(realpath "$gpusynth")
docs=$source_dir/docs/scale-out.md
stop() {
  [ -f "$tmp/slurm.conf" ] && SLURM_CONF=$tmp/slurm.conf timeout 10 scontrol shutdown >/dev/null 2>&1
  for pid in slurmd slurmctld munge/munged; do
    [ -f "$tmp/$pid.pid" ] && kill "$(cat "$tmp/$pid.pid")" 2>/dev/null
  done
  sleep 1
  rm -rf "$tmp"
}
trap stop EXIT
mkdir -p "$tmp/state" "$tmp/spool" "$tmp/munge"
chmod 700 "$tmp/munge"
head -c 1024 /dev/urandom >"$tmp/munge/munge.key"
chmod 600 "$tmp/munge/munge.key"
munged --force --key-file="$tmp/munge/munge.key" --socket="$tmp/munge/munge.socket" \
  --pid-file="$tmp/munge/munged.pid" --log-file="$tmp/munge/munged.log" --seed-file="$tmp/munge/seed" \
  >"$tmp/munged.out" 2>&1 || { echo "SKIP: munged does not start here: $(tail -2 "$tmp/munged.out")"; exit 77; }
port=$((40000 + $$ % 20000))
host=$(hostname)
cat >"$tmp/slurm.conf" <<CONF
ClusterName=gpusynth-test
SlurmctldHost=$host
SlurmUser=$(id -un)
SlurmctldPort=$port
SlurmdPort=$((port + 1))
AuthType=auth/munge
AuthInfo=socket=$tmp/munge/munge.socket
CredType=cred/munge
StateSaveLocation=$tmp/state
SlurmdSpoolDir=$tmp/spool
SlurmctldPidFile=$tmp/slurmctld.pid
SlurmdPidFile=$tmp/slurmd.pid
SlurmctldLogFile=$tmp/slurmctld.log
SlurmdLogFile=$tmp/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
MpiDefault=none
ReturnToService=2
SchedulerType=sched/builtin
JobCompType=jobcomp/none
AccountingStorageType=accounting_storage/none
JobAcctGatherType=jobacct_gather/none
NodeName=$host CPUs=$(nproc) State=UNKNOWN
PartitionName=debug Nodes=ALL Default=YES MaxTime=INFINITE State=UP
CONF
export SLURM_CONF=$tmp/slurm.conf
slurmctld -f "$SLURM_CONF" >"$tmp/slurmctld.out" 2>&1 && slurmd -f "$SLURM_CONF" >"$tmp/slurmd.out" 2>&1 ||
  { echo "SKIP: the Slurm daemons do not start here: $(tail -2 "$tmp"/slurm*.out "$tmp"/slurm*.log 2>/dev/null)"; exit 77; }
for _ in $(seq 40); do
  [ "$(sinfo -h -o %t 2>/dev/null)" = "idle" ] && break
  sleep 0.5
done
[ "$(sinfo -h -o %t 2>/dev/null)" = "idle" ] ||
  { echo "SKIP: the node did not become idle: $(sinfo 2>&1 | tail -1); $(tail -2 "$tmp/slurmd.log")"; exit 77; }

cat >"$tmp/ranks.yaml" <<YAML
seed: 4
output: $tmp/serial.h5
ensembles:
  - {name: big, model: lfsn, params: {alpha: 1.6, H: 0.8}, replicas: 21, length: 2000, workload: {v: 3, delta: 20, values: counts}}
  - {name: fgn, model: fgn, params: {H: 0.75}, replicas: 5, length: 3000, dtype: float64}
YAML
expect_rc 0 "the serial run" "$gpusynth" "$tmp/ranks.yaml" -q --memory-limit 4MiB

# The documented script, as docs/scale-out.md prints it, fitted to one node of this host.
sed -n '/^## A Slurm job/,/^## /p' "$docs" | sed -n '/^```bash/,/^```/p' | sed '1d;$d' >"$tmp/documented.sh"
grep -q "^srun --mpi=pmix gpusynth ensemble.yaml" "$tmp/documented.sh" ||
  fail "docs/scale-out.md has no batch script with 'srun --mpi=pmix gpusynth ensemble.yaml'"
sed -e 's/--nodes=[0-9]*/--nodes=1/' -e 's/--ntasks-per-node=[0-9]*/--ntasks-per-node=2/' -e '/--gpus-per-node/d' \
  -e 's/--cpus-per-task=[0-9]*/--cpus-per-task=1/' -e 's/--time=.*/--time=00:05:00/' \
  -e "s|^srun --mpi=pmix gpusynth ensemble.yaml|srun --mpi=pmix $gpusynth $tmp/ranks.yaml --memory-limit 4MiB|" \
  "$tmp/documented.sh" >"$tmp/job.sh"
(cd "$tmp" && SCRATCH=$tmp timeout 300 sbatch --wait --output="$tmp/job.out" "$tmp/job.sh") >"$tmp/stdout" 2>"$tmp/stderr" ||
  fail "sbatch of the documented script: $(cat "$tmp/stderr"); job output: $(tail -5 "$tmp/job.out" 2>/dev/null)"
[ -f "$tmp/study.h5" ] || fail "the batch job wrote no \$SCRATCH/study.h5: $(tail -5 "$tmp/job.out" 2>/dev/null)"
expect_in "$tmp/job.out" "wrote $tmp/study.h5: 2 MPI ranks" "the job ran as 2 ranks and reported once"
[ "$(grep -c "^wrote " "$tmp/job.out")" -eq 1 ] || fail "the batch job reported $(grep -c "^wrote " "$tmp/job.out") writes"

expect_rc 0 "srun --mpi=pmix -n 2" timeout 120 srun --mpi=pmix -n 2 "$gpusynth" "$tmp/ranks.yaml" -o "$tmp/srun.h5" \
  --memory-limit 4MiB
expect_in "$tmp/stderr" "wrote $tmp/srun.h5: 2 MPI ranks" "srun ran 2 ranks"
# Without --mpi=pmix (this Slurm's MpiDefault=none) each task would be a world of its own and
# run the whole job into one file: every task refuses, and says how to start it.
expect_rc 2 "srun -n 2 without PMI" timeout 120 srun -n 2 "$gpusynth" "$tmp/ranks.yaml" -o "$tmp/nopmi.h5" \
  --memory-limit 4MiB
expect_in "$tmp/stderr" "srun --mpi=pmix gpusynth" "the refusal gives the fix"
[ -e "$tmp/nopmi.h5" ] && fail "srun without PMI wrote $tmp/nopmi.h5"
for out in study srun; do
  same_h5 "$tmp/serial.h5" "$tmp/$out.h5" /ensembles >"$tmp/diff" 2>&1 ||
    fail "$out.h5 differs from the serial run: $(head -c 300 "$tmp/diff")"
done
finish "cli.slurm"
