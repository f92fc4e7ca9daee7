#!/usr/bin/env bash
# The stage times of bench_study.sh's study (10 datasets x 5 models x 1000 replicas,
# no output written) for several metric sets, on the device and on the host
# cores: what each metric costs in the compare stage.
# Usage: bench/study_stages.sh GPUSYNTH [WORK_DIR]
set -u
gpusynth=$(realpath "$1")
work=${2:-$(mktemp -d)}
mkdir -p "$work"
here=$(cd "$(dirname "$0")" && pwd)
data=$(cd "$here/../tests/data" && pwd)
# The study's config, as bench_study.sh writes it.
template=$(awk '/^cat > "\$out\/study10.yaml" <<EOF/{f=1;next} /^EOF/{if(f){exit}} f' "$here/bench_study.sh")
for metrics in "trimmed_error, ks, acf, hurst, burstiness" "trimmed_error, ks, acf, burstiness" "ks" "acf" "trimmed_error"; do
  printf '%s\n' "$template" | sed -e "s#\$out#$work#g; s#\$data#$data#g; s#\$replicas#1000#" \
    -e "s#\${STUDY_METRICS:-trimmed_error, ks, acf, hurst, burstiness}#$metrics#" >"$work/stages.yaml"
  for backend in ${STAGES_BACKENDS:-cuda cpu}; do
    echo "$backend [$metrics]: $("$gpusynth" "$work/stages.yaml" --backend "$backend" --no-output 2>&1 | grep "study stages")"
  done
done
