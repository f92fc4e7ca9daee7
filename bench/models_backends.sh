#!/usr/bin/env bash
# Every model's example (`gpusynth models`) as one float64 ensemble, generated
# and discarded (--no-output) on each backend: samples/s of the generation
# alone (gpusynth's own account: generate seconds inside the backend).
# Usage: bench/models_backends.sh GPUSYNTH [WORK_DIR]   (env BACKENDS, default "cuda cpu")
set -u
gpusynth=$(realpath "$1")
work=${2:-$(mktemp -d)}
mkdir -p "$work"
echo "# $(date -u +%Y-%m-%dT%H:%M:%SZ) $(uname -n), $(nproc) threads; $("$gpusynth" --version | head -1)"
# model, replicas, length: sizes that take about a second on 16 host threads
while read -r model replicas length; do
  params=$("$gpusynth" models "$model" | sed -n 's/^  example: params: //p')
  printf 'seed: 1\nensembles:\n  - {name: %s, model: %s, params: %s, replicas: %s, length: %s, dtype: float64}\n' \
    "$model" "$model" "$params" "$replicas" "$length" >"$work/$model.yaml"
  for backend in ${BACKENDS:-cuda cpu}; do
    line=$("$gpusynth" "$work/$model.yaml" --backend "$backend" --no-output 2>&1 | grep "samples in")
    samples=$(sed -n 's/.* \([0-9]*\) samples in.*/\1/p' <<<"$line")
    seconds=$(sed -n 's/.*generate \([0-9.]*\) s.*/\1/p' <<<"$line")
    printf '%-8s %-5s %6s x %-8s generate %8s s  %10.3g samples/s\n' "$model" "$backend" "$replicas" "$length" \
      "$seconds" "$(awk -v n="$samples" -v s="$seconds" 'BEGIN { print (s > 0 ? n / s : 0) }')"
  done
done <<'LIST'
stable 1000 1000000
normal 1000 1000000
fgn 4096 65536
fbm 4096 65536
norros 4096 65536
farima 1024 65536
lfsn 1024 65536
markov 1000 1000000
onoff 256 65536
hmm 1000 65536
LIST
