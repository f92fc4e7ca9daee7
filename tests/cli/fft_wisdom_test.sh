#!/usr/bin/env bash
# FFT plans from wisdom (docs/engine.md, "FFT plans"): `gpusynth fft-wisdom`
# writes FFTW wisdom for every host transform of a config's spectral
# ensembles (added to what the file holds, or refused where the file is not
# wisdom); runs that load it (config key fft_wisdom:, --fft-wisdom, the Python
# module's fft_wisdom=) give the same bits in every run, thread count and rank
# count, say which transforms came from it, record it in the file, warn for a
# transform it lacks; a missing or foreign file is exit 2 naming it, with
# nothing written.
set -u
source "$(dirname "$0")/lib.sh"

mkdir -p "$tmp/sub"
cat >"$tmp/sub/spectral.yaml" <<YAML
seed: 9
output: $tmp/unused.h5
fft_wisdom: plans.fftw
ensembles:
  - {name: g, model: fgn, params: {H: 0.8}, replicas: 12, length: 3000, dtype: float64}
  - {name: l, model: lfsn, params: {alpha: 1.5, beta: 0.5, H: 0.8, m: 4, K: 64}, replicas: 6, length: 1000}
YAML
# fgn: c2r of M = 6000; lfsn: r2c of L and c2r of M (m = 4, K = 64).
expect_rc 2 "a run before its wisdom exists" "$gpusynth" "$tmp/sub/spectral.yaml" -o "$tmp/early.h5"
expect_in "$tmp/stderr" "spectral.yaml:3:13: cannot open the FFTW wisdom '.*sub/plans.fftw'" \
  "the missing wisdom is named at its key"
[ -e "$tmp/early.h5" ] && fail "a run refused for its wisdom left an output file"

expect_rc 0 "fft-wisdom writes the config's fft_wisdom:" "$gpusynth" fft-wisdom "$tmp/sub/spectral.yaml"
[ -s "$tmp/sub/plans.fftw" ] || fail "no wisdom beside the config"
expect_in "$tmp/sub/plans.fftw" "^(fftw-3" "the file is FFTW wisdom"
for transform in "c2r 6000" "r2c " "c2r "; do
  expect_in "$tmp/stdout" "^$transform" "the table lists $transform"
done
[ "$(grep -c '^[cr]2[cr] ' "$tmp/stdout")" -eq 3 ] || fail "three transforms expected: $(cat "$tmp/stdout")"
expect_in "$tmp/stderr" "wrote .*plans.fftw: FFTW_MEASURE plans of 3 transforms" "what was written"

# The same bits with 1 and 2 threads and in a second run; the run says where its plans came from.
OMP_NUM_THREADS=1 expect_rc 0 "a run with the wisdom, 1 thread" "$gpusynth" "$tmp/sub/spectral.yaml" -o "$tmp/one.h5"
expect_in "$tmp/stderr" "FFT plans: 3 of 3 from the FFTW wisdom '.*plans.fftw'" "the log names the wisdom"
OMP_NUM_THREADS=2 expect_rc 0 "a run with the wisdom, 2 threads" "$gpusynth" "$tmp/sub/spectral.yaml" -o "$tmp/two.h5" -q
out=$(same_h5 "$tmp/one.h5" "$tmp/two.h5" /ensembles) || fail "threads changed the bits: $out"
h5dump -a /ensembles/g/fft_plans "$tmp/one.h5" >"$tmp/plans" 2>&1
expect_in "$tmp/plans" '"c2r 6000 from the FFTW wisdom"' "fgn's attribute fft_plans"
h5dump -a /ensembles/l/fft_plans "$tmp/one.h5" >"$tmp/plans" 2>&1
expect_in "$tmp/plans" 'r2c [0-9]* from the FFTW wisdom, c2r [0-9]* from the FFTW wisdom' "lfsn's attribute fft_plans"
h5dump -a /fft_wisdom "$tmp/one.h5" >"$tmp/root" 2>&1
expect_in "$tmp/root" "sha256 $(sha256sum "$tmp/sub/plans.fftw" | cut -d' ' -f1); fftw-3" "the root names the wisdom's sha256"
# --fft-wisdom overrides the key; without wisdom the attribute says FFTW_ESTIMATE.
cp "$tmp/sub/plans.fftw" "$tmp/copy.fftw"
expect_rc 0 "--fft-wisdom" "$gpusynth" "$tmp/sub/spectral.yaml" --fft-wisdom "$tmp/copy.fftw" -o "$tmp/copy.h5" -q
out=$(same_h5 "$tmp/one.h5" "$tmp/copy.h5" /ensembles) || fail "the same wisdom from --fft-wisdom changed the bits: $out"
grep -v fft_wisdom "$tmp/sub/spectral.yaml" >"$tmp/plain.yaml"
expect_rc 0 "a run without wisdom" "$gpusynth" "$tmp/plain.yaml" -o "$tmp/plain.h5" -q
h5dump -a /ensembles/g/fft_plans "$tmp/plain.h5" >"$tmp/plans" 2>&1
expect_in "$tmp/plans" '"c2r 6000 FFTW_ESTIMATE"' "without wisdom: FFTW_ESTIMATE"

# A transform the wisdom lacks: a warning, FFTW_ESTIMATE's plan, and the run goes on.
sed 's/length: 3000/length: 2500/' "$tmp/sub/spectral.yaml" >"$tmp/sub/other.yaml"
expect_rc 0 "a run with a size the wisdom lacks" "$gpusynth" "$tmp/sub/other.yaml" -o "$tmp/other.h5"
expect_in "$tmp/stderr" "FFT plans: 2 of 3 from the FFTW wisdom" "the count of planned transforms"
expect_in "$tmp/stderr" "warning: the FFTW wisdom '.*plans.fftw' has no plan for c2r 5000 (ensemble 'g')" \
  "the missing transform is named"
# fft-wisdom adds to the file: both configs' transforms are then in it.
expect_rc 0 "fft-wisdom adds to an existing file" "$gpusynth" fft-wisdom "$tmp/sub/other.yaml" -q
expect_rc 0 "the first config again" "$gpusynth" "$tmp/sub/spectral.yaml" -o "$tmp/again.h5"
expect_in "$tmp/stderr" "FFT plans: 3 of 3 from the FFTW wisdom" "the first config's plans were kept"
expect_rc 0 "the second config" "$gpusynth" "$tmp/sub/other.yaml" -o "$tmp/other.h5"
expect_in "$tmp/stderr" "FFT plans: 3 of 3 from the FFTW wisdom" "the second config's plan was added"

# Bad input: exit 2, named, nothing written or replaced.
printf 'not wisdom\n' >"$tmp/junk.fftw"
expect_rc 2 "--fft-wisdom of a file that is not wisdom" "$gpusynth" "$tmp/plain.yaml" --fft-wisdom "$tmp/junk.fftw" -o "$tmp/junk.h5"
expect_in "$tmp/stderr" "error: --fft-wisdom: '.*junk.fftw' is not FFTW wisdom this FFTW (fftw-3" "the foreign file is named"
[ -e "$tmp/junk.h5" ] && fail "a run refused for its wisdom left an output file"
expect_rc 2 "fft-wisdom over a file that is not wisdom" "$gpusynth" fft-wisdom "$tmp/plain.yaml" -o "$tmp/junk.fftw"
expect_in "$tmp/stderr" "it would be replaced: give another file" "the file is not replaced"
[ "$(cat "$tmp/junk.fftw")" = "not wisdom" ] || fail "fft-wisdom replaced a file that was not wisdom"
expect_rc 2 "fft-wisdom without a file" "$gpusynth" fft-wisdom "$tmp/plain.yaml"
expect_in "$tmp/stderr" "no wisdom file: give -o FILE" "no file given"
printf 'ensembles:\n  - {name: s, model: stable, params: {alpha: 1.5}, replicas: 2, length: 10}\n' >"$tmp/stable.yaml"
expect_rc 2 "fft-wisdom of a config without spectral models" "$gpusynth" fft-wisdom "$tmp/stable.yaml" -o "$tmp/s.fftw"
expect_in "$tmp/stderr" "no ensemble of a spectral model" "nothing to plan"
[ -e "$tmp/s.fftw" ] && fail "a refused fft-wisdom wrote a file"

# The Python module takes the same wisdom and gives the same bits.
if ls "$3"/python/gpusynth*.so >/dev/null 2>&1; then
  PYTHONPATH=$3/python /usr/bin/python3 - "$tmp" >"$tmp/py" 2>&1 <<'PY' || fail "python: $(tail -c 2000 "$tmp/py")"
import sys, h5py, numpy as np, gpusynth
tmp = sys.argv[1]
out = gpusynth.generate(f"{tmp}/plain.yaml", fft_wisdom=f"{tmp}/sub/plans.fftw", as_xarray=False)
with h5py.File(f"{tmp}/one.h5") as f:
    for name in ("g", "l"):
        assert np.array_equal(out[name], f[f"ensembles/{name}/series"][:]), name
PY
fi

# Ranks read the same file and give the serial bits.
if "$gpusynth" --version | grep -q "MPI (" && command -v mpirun >/dev/null; then
  launch=(mpirun --oversubscribe)
  [ "$(id -u)" -eq 0 ] && launch+=(--allow-run-as-root)
  expect_rc 0 "mpirun -np 2 with the wisdom" "${launch[@]}" -np 2 "$gpusynth" "$tmp/sub/spectral.yaml" -o "$tmp/ranks.h5" -q
  out=$(same_h5 "$tmp/one.h5" "$tmp/ranks.h5" /ensembles) || fail "two ranks changed the bits: $out"
fi

finish "fft-wisdom"
