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
expect_in "$tmp/stdout" "^(levels, locations and scales in count per 1 s bin; " "the fit table's unit"
# On this trace FARIMA's d ends on its bound 0.49 (stats' local Whittle says d >= 1/2) and lfsn's
# noise beta is clipped: both are boundary fits, with a warning and the config's # WARNING line.
expect_in "$tmp/stdout" "^farima   boundary .*d = 0.49 " "farima's d on its bound is a boundary fit"
expect_in "$tmp/stderr" "warning: farima: d = 0.49 is on the bound of the search" "farima's bound is warned"
expect_in "$tmp/fitted.yaml" "^# WARNING: ensemble cloudphysics_per_second-farima is a boundary fit" \
  "farima's boundary fit is marked in the config"
expect_in "$tmp/stderr" "warning: lfsn: .*clipped to -1, the replicas' marginal beta is 0.381, not the trace's" \
  "lfsn's clipped noise beta is warned"
expect_rc 0 "fitted config runs" "$gpusynth" "$tmp/fitted.yaml" -q
# The written config is a study (compare: {}): its output has /compare, and report reads it as it is.
expect_in "$tmp/fitted.yaml" "^compare: {}$" "fit -o writes a study"
expect_rc 0 "report reads the fitted run's output unedited" "$gpusynth" report "$tmp/fitted.h5" -o "$tmp/fitted-report"
[ -s "$tmp/fitted-report/index.html" ] || fail "the fitted run's report has no index.html"
# Every warning the fit printed reaches the written fit: (validity, boundary, warnings), the HDF5
# attributes made from it and the report's caveats (issue 58): farima's d on its bound, lfsn's clipped
# noise beta; the normal model's counts clipped at 0 are recorded per ensemble as a share.
expect_in "$tmp/fitted.yaml" "validity: boundary" "the validity word is in the written fit:"
expect_in "$tmp/fitted-report/report.md" "caveat.*ensemble cloudphysics_per_second-farima is a boundary fit: d = 0.49" \
  "farima's boundary is a caveat of the report"
expect_in "$tmp/fitted-report/report.md" "caveat.*ensemble cloudphysics_per_second-lfsn is a boundary fit: .*clipped to -1" \
  "lfsn's clipped beta is a caveat of the report"
/usr/bin/python3 - "$tmp/fitted.h5" "$tmp/fitted-report/report.md" <<'PY' || fail "fit warnings in the file"
import h5py, sys
f = h5py.File(sys.argv[1], "r")
report = open(sys.argv[2]).read()
fit = lambda m: f[f"/ensembles/cloudphysics_per_second-{m}/fit"].attrs  # noqa: E731
assert fit("farima")["validity"] == "boundary" and "d = 0.49" in fit("farima")["boundary"], dict(fit("farima"))
assert fit("lfsn")["validity"] == "boundary" and "clipped to -1" in fit("lfsn")["boundary"]
assert fit("normal")["validity"] == "ok" and "boundary" not in fit("normal")
for model in ("stable", "lfsn", "fgn", "norros", "farima", "normal", "markov"):
    e = f["/ensembles/cloudphysics_per_second-" + model]
    share = e.attrs["clipped_share"]
    assert share == e.attrs["clipped_bins"] / (3 * 7201), (model, share)
    warned = "warnings" in e.attrs and "clipped to 0" in e.attrs["warnings"]
    assert warned == (share > 0.05), (model, share, dict(e.attrs).get("warnings"))
    assert warned == (f"ensembles/cloudphysics_per_second-{model}: " in report), (model, "the report's caveat")
print({m: round(float(f[f"/ensembles/cloudphysics_per_second-{m}"].attrs["clipped_share"]), 4)
       for m in ("normal", "farima", "fgn")})
PY
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
# On this trace EM is still moving (by more than 1e-8 of logL per iteration) at its 500 iterations:
# a boundary fit, said in the row, a warning and the config.
expect_in "$tmp/stdout" "hmm      boundary .*(500 it, not converged" "hmm fitted, a boundary fit"
expect_in "$tmp/stderr" "warning: hmm: EM stopped at its limit of 500 iterations" "hmm's unfinished EM warned"
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
# Whittle's H of mpi-io-test's bytes per 100 ms is 0.99, the edge of its range (stats notes it):
# fgn and norros, which take that H, are boundary fits.
expect_rc 0 "fit H on the edge" "$gpusynth" fit "$data/mpi-io-test.parser.txt.gz" --bin 100ms --models fgn,norros,normal
expect_in "$tmp/stdout" "^fgn      boundary .*H = 0.99 " "fgn's H on the edge is a boundary fit"
expect_in "$tmp/stdout" "^norros   boundary" "norros' H on the edge is a boundary fit"
expect_in "$tmp/stdout" "^normal   ok" "normal, without H, stays ok"
expect_in "$tmp/stderr" "warning: fgn: H = 0.99 from the 'whittle' estimator is at the edge of (0, 1)" "fgn's edge warned"
# --json: YAML's .nan (a beta on its bound has no SE) is null, as cli.md says, never a string.
expect_rc 0 "fit --json" "$gpusynth" fit "$data/cloudphysics_per_second.counts" --format counts --bin 1s \
  --models stable --json
/usr/bin/python3 - "$tmp/stdout" <<'PY' || fail "fit --json has NaN as a string, or beta_se is not null"
import json, sys
text = open(sys.argv[1]).read()
assert ".nan" not in text and ".inf" not in text, text
fit = json.loads(text)["models"][0]["fit"]
assert fit["beta"] == 1 and fit["beta_se"] is None, fit
PY
# Darshan's evenly spread bytes: at 10 s a markov state's values are one value up to rounding (an
# atom), which has noise 0 and no density terms (its logL was +951 from a spread of 4e-11).
expect_rc 0 "fit markov on an atom" "$gpusynth" fit "$data/dxt.parser.txt.gz" --bin 10s --models markov --json
/usr/bin/python3 - "$tmp/stdout" <<'PY' || fail "markov's atom state"
import json, sys
fit = json.loads(open(sys.argv[1]).read())["models"][0]["fit"]
assert fit["noise"][1] == 0 and fit["log_likelihood"] < 0, fit
assert "state(s) 1 (from 0) hold one value each up to rounding" in fit["note"], fit
PY
# A request trace's row of its request timing (docs/models.md, "Request timing"): mpi-io-test's phases
# repeat 3 block writes and 3 block reads (df 4: weak), its gaps no kind pair (df 0: none).
expect_rc 0 "fit a DXT trace" "$gpusynth" fit "$data/mpi-io-test.dxt.txt.gz" --format dxt --bin 50ms --models normal
expect_in "$tmp/stdout" "^phases   weak       8 phases  *span_sd = 0.0202 ± 0.0071 (df 4, weak), gap_sd = 0 ± 0 (df 0, none)" \
  "the request timing's row"
expect_rc 0 "fit a DXT trace, --json" "$gpusynth" fit "$data/mpi-io-test.dxt.txt.gz" --format dxt --bin 50ms \
  --models normal --json
/usr/bin/python3 - "$tmp/stdout" <<'PY' || fail "fit --json: the request timing"
import json, sys
timing = json.loads(open(sys.argv[1]).read())["request_timing"]
assert timing["model"] == "phases" and timing["phases"] == 8 and timing["validity"] == "weak", timing
assert timing["span_sd"]["df"] == 4 and abs(timing["span_sd"]["estimate"] - 0.0202) < 5e-4, timing
assert timing["gap_sd"]["validity"] == "none", timing
PY
expect_rc 0 "fit a series has no request timing" "$gpusynth" fit "$data/cloudphysics_per_second.counts" --format counts \
  --bin 1s --models normal
grep -q "^phases " "$tmp/stdout" && fail "fit of a series printed a phases row"
expect_rc 2 "fit unknown model" "$gpusynth" fit "$data/cloudphysics_per_second.counts" --format counts --bin 1s \
  --models stable,gamma -o "$tmp/never.yaml"
expect_in "$tmp/stderr" "'gamma' is not a fittable model" "unknown model named"
[ ! -e "$tmp/never.yaml" ] || fail "a failed fit left its output"
expect_rc 0 "norros" "$gpusynth" norros -a 2.5 -H 0.8 --epsilon 1e-3 -b 8 --lambda 100
expect_in "$tmp/stdout" "arrival rate lambda" "norros eq. (5)"
expect_rc 2 "norros H = 0.5" "$gpusynth" norros -a 2.5 -H 0.5
expect_in "$tmp/stderr" "no unique arrival rate" "norros explains H = 0.5"

finish "fit"
