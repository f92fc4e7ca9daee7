#!/usr/bin/env bash
# gpusynth fit and gpusynth norros: every model from a real trace, a runnable
# config (fit -> run round trip), the hmm on a (time, latency) series observed
# at the trace's own times, models stopped with a reason, and located errors.
set -u
source "$(dirname "$0")/lib.sh"

# fit: every model from a real trace, a runnable config, fit -> run round trip.
expect_rc 0 "fit counts" "$gpusynth" fit "$data/cloudphysics_per_second.counts" --format counts --bin 1s \
  --models stable,lfsn,fgn,norros,farima,normal,markov --replicas 3 -o "$tmp/fitted.yaml" \
  --ensemble-output "$tmp/fitted.h5"
for model in stable lfsn fgn norros farima normal markov; do expect_in "$tmp/stdout" "$model " "fit table row"; done
expect_rc 0 "fitted config runs" "$gpusynth" "$tmp/fitted.yaml" -q
# The written config is a study (compare: {}): its output has /compare, and report reads it as it is.
expect_in "$tmp/fitted.yaml" "^compare: {}$" "fit -o writes a study"
expect_rc 0 "report reads the fitted run's output unedited" "$gpusynth" report "$tmp/fitted.h5" -o "$tmp/fitted-report"
[ -s "$tmp/fitted-report/index.html" ] || fail "the fitted run's report has no index.html"
# The written config's output follows the config's path rule (docs/config.md): the default lands
# beside the YAML, a relative --ensemble-output is written absolute (it was given from the working directory).
mkdir -p "$tmp/yaml" "$tmp/work"
expect_rc 0 "fit -o into another folder" sh -c "cd '$tmp/work' && '$gpusynth' fit '$data/cloudphysics_per_second.counts' \
  --format counts --bin 1s --models normal --replicas 2 -o ../yaml/beside.yaml"
expect_in "$tmp/yaml/beside.yaml" "^output: beside.h5$" "the default output is the YAML's name"
expect_rc 0 "the fitted config runs from anywhere" sh -c "cd / && '$gpusynth' '$tmp/yaml/beside.yaml' -q"
[ -f "$tmp/yaml/beside.h5" ] || fail "the fitted config's output did not land beside it"
expect_rc 0 "fit --ensemble-output relative" sh -c "cd '$tmp/work' && '$gpusynth' fit \
  '$data/cloudphysics_per_second.counts' --format counts --bin 1s --models normal --replicas 2 \
  -o ../yaml/given.yaml --ensemble-output given.h5"
expect_in "$tmp/yaml/given.yaml" "^output: $tmp/work/given.h5$" "a relative --ensemble-output is written absolute"
/usr/bin/python3 - "$tmp/fitted.h5" "$data/cloudphysics_per_second.counts" <<'PY' || fail "fitted HDF5 layout"
import h5py, hashlib, sys
f = h5py.File(sys.argv[1], "r")
d = f["/datasets/cloudphysics_per_second"]
assert d["series"].shape == (7201,), d["series"].shape
assert d.attrs["source_sha256"] == hashlib.sha256(open(sys.argv[2], "rb").read()).hexdigest()
for model in ("stable", "lfsn", "fgn", "norros", "farima", "normal", "markov"):
    e = f["/ensembles/cloudphysics_per_second-" + model]
    assert e["series"].shape == (3, 7201), (model, e["series"].shape)
    assert len(e["fit"].attrs) > 0, model
st = f["/ensembles/cloudphysics_per_second-stable"]
assert abs(st.attrs["alpha"] - st["fit"].attrs["alpha"]) < 1e-12
assert 0 < st["fit"].attrs["alpha_se"] < 0.1
PY
# The HMM from a (time, latency) series; a non-series trace is refused for hmm only.
expect_rc 0 "fit hmm" "$gpusynth" fit "$data/atlas10k_latency_2000.series.gz" --format series --models hmm,normal \
  --hmm-starts 2 -o "$tmp/hmm.yaml" --ensemble-output "$tmp/hmm.h5" --replicas 2
expect_in "$tmp/stdout" "hmm      ok" "hmm fitted"
expect_rc 0 "fitted hmm runs" "$gpusynth" "$tmp/hmm.yaml" -q
expect_in "$tmp/hmm.yaml" "times: dataset" "the fitted hmm replays the trace's observation times"
# The replicas are observed at the trace's own (irregular) times.
/usr/bin/python3 - "$tmp/hmm.h5" "$data/atlas10k_latency_2000.series.gz" <<'PY' || fail "hmm observation times are not the trace's"
import gzip, sys
import h5py, numpy as np
times = np.loadtxt(gzip.open(sys.argv[2], "rt"), comments="#")[:, 0]
with h5py.File(sys.argv[1]) as f:
    (name,) = [n for n in f["ensembles"] if n.endswith("-hmm")]
    stored = f["ensembles"][name]["observation_times"][:]
    assert "dataset" in f["ensembles"][name].attrs["observation_times"]
assert stored.shape == times.shape and np.array_equal(stored, times), (stored[:3], times[:3])
PY
sed 's/length: 2000/length: 1999/' "$tmp/hmm.yaml" > "$tmp/hmm_bad.yaml"
expect_rc 2 "hmm times: dataset of another length" "$gpusynth" "$tmp/hmm_bad.yaml" -q -o "$tmp/hmm_bad.h5"
expect_in "$tmp/stderr" "length = 1999 but dataset 'atlas10k_latency_2000' has 2000 observation times" "times: dataset length named"
expect_rc 0 "fit hmm on counts" "$gpusynth" fit "$data/cloudphysics_per_second.counts" --format counts --bin 1s \
  --models hmm,normal
expect_in "$tmp/stdout" "hmm needs a series trace" "hmm on counts is stopped with a reason"
# Darshan spreads an operation evenly over its bins: 62 % of this series is one value, an
# atom with no stable maximum likelihood; the stable models stop with why, the others fit.
expect_rc 0 "fit darshan atom" "$gpusynth" fit "$data/dxt.parser.txt.gz" --format darshan --bin 1s --series bytes \
  --models stable,normal -o "$tmp/atom.yaml"
expect_in "$tmp/stdout" "stable   stopped .*905 of the 1469 values (61.6 %) equal" "stable stopped on an atom"
expect_in "$tmp/stdout" "normal   ok" "normal still fitted beside a stopped stable"
expect_rc 2 "fit unknown model" "$gpusynth" fit "$data/cloudphysics_per_second.counts" --format counts --bin 1s \
  --models stable,gamma -o "$tmp/never.yaml"
expect_in "$tmp/stderr" "'gamma' is not a fittable model" "unknown model named"
[ ! -e "$tmp/never.yaml" ] || fail "a failed fit left its output"
expect_rc 0 "norros" "$gpusynth" norros -a 2.5 -H 0.8 --epsilon 1e-3 -b 8 --lambda 100
expect_in "$tmp/stdout" "arrival rate lambda" "norros eq. (5)"
expect_rc 2 "norros H = 0.5" "$gpusynth" norros -a 2.5 -H 0.5
expect_in "$tmp/stderr" "no unique arrival rate" "norros explains H = 0.5"

finish "fit"
