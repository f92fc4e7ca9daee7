"""The first sections of `gpusynth report`: where the results come from (gpusynth version, git
revision, command, config, seed, backend, device, date), the datasets (trace, format, channel, bin
width, span, counts), the fitted models with their estimates ± SE and validity, and the caveats
the run recorded in the file: boundary fits, models stopped by their validity checks, metrics
without a value, predictors no better than climatology, replays of loads of different sizes.
"""
import math

import h5py
import numpy as np

from report_bursts import text

PROVENANCE = (("gpusynth_version", "gpusynth"), ("git_revision", "git revision"), ("command_line", "command"),
              ("config_path", "config"), ("seed", "seed"), ("backend", "backend"), ("device", "device"),
              ("precision", "precision"), ("host", "host"), ("created_utc", "created (UTC)"))


def attrs_of(obj):
    out = {}
    for key in obj.attrs:
        try:
            value = obj.attrs[key]
        except (OSError, TypeError, RuntimeError):
            continue
        out[key] = text(value) if isinstance(value, (bytes, str)) else value
    return out


def provenance_rows(f, results):
    a = attrs_of(f)
    rows = [["results file", results]]
    rows += [[label, str(a[key])] for key, label in PROVENANCE if key in a]
    return rows


def number(x):
    return f"{x:.4g}" if isinstance(x, (float, np.floating)) else str(x)


def dataset_rows(f):
    rows = []
    for name, group in (f["datasets"].items() if "datasets" in f else []):
        a = attrs_of(group)
        series = group["series"][()] if "series" in group else np.array([])
        width = float(a.get("bin_width", float("nan")))
        span = f"{len(series) * width:.4g} s" if math.isfinite(width) and width > 0 else "-"
        rows.append([name, a.get("source", "?"), a.get("format", "?"), a.get("series_name", "?"),
                     f"{width:g} s" if math.isfinite(width) else "-", len(series), span,
                     number(float(np.nansum(series))) if series.size else "-",
                     number(float(np.nanmean(series))) if series.size else "-"])
    return rows


def fit_rows(f):
    """Per fitted ensemble: its model, validity and every estimate that has a standard error, ± it."""
    rows = []
    for name, group in (f["ensembles"].items() if "ensembles" in f else []):
        if not isinstance(group, h5py.Group) or "fit" not in group:
            continue
        fit = attrs_of(group["fit"])
        estimates = []
        for key, value in fit.items():
            se = fit.get(f"{key}_se", fit.get(key.replace("_row_major", "_se_row_major")))  # markov's matrix
            if key.endswith("_se") or se is None or isinstance(value, str):
                continue
            values, errors = np.atleast_1d(value), np.atleast_1d(se)
            shown = ", ".join(f"{v:.4g} ± {e:.2g}" for v, e in zip(values[:6], errors[:6]))
            estimates.append(f"{key} = {shown}" + (" ..." if values.size > 6 else ""))
        validity = "boundary" if "boundary" in fit else "ok"
        rows.append([name, text(group.attrs.get("model", "?")), validity,
                     "; ".join(estimates) or fit.get("method", "-")])
    return rows


def caveats(f):
    """Every caveat the run recorded in the file, one sentence each."""
    out = []
    for name, group in (f["ensembles"].items() if "ensembles" in f else []):
        if isinstance(group, h5py.Group) and "fit" in group and "boundary" in group["fit"].attrs:
            out.append(f"ensemble {name} is a boundary fit: {text(group['fit'].attrs['boundary'])}")
    if "compare" in f:
        summary = f["compare"]["summary"][()] if "summary" in f["compare"] else []
        said = set()
        for row in summary:
            if row["replicas_used"] == 0:
                dataset, model, metric = (text(row[k]) for k in ("dataset", "model", "metric"))
                note = text(f["compare"][dataset].attrs.get("real_hurst_note", "")) if metric == "hurst" else ""
                if note and (dataset, metric) not in said:  # the real series': every model at once
                    said.add((dataset, metric))
                    out.append(f"{metric} of {dataset} has no value for any model: the real series' H has none "
                               f"({note}); compare: {{hurst_estimator: rs}} or a coarser bin may give one")
                elif not note:
                    out.append(f"{metric} of {dataset} / {model} has no value: no replica gives a finite one")
        for dataset in (d for d in f["compare"] if isinstance(f["compare"][d], h5py.Group)):
            stopped = text(f["compare"][dataset].attrs.get("stopped_models", ""))
            if stopped:
                out.append(f"{dataset}: models stopped by their validity checks: {stopped}")
    for name, group in (f["bursts"].items() if "bursts" in f else []):
        if isinstance(group, h5py.Group) and "prediction" in group:
            notes = text(group["prediction"].attrs.get("notes", ""))
            out += [f"bursts {name}: {n.strip()}" for n in notes.split(";") if n.strip()]
    for name, group in (f["replay"].items() if "replay" in f else []):
        a = attrs_of(group)
        if a.get("original_processes") != a.get("synthetic_processes"):
            out.append(f"replay {name}: the original has {a.get('original_processes')} processes and the replicas "
                       f"{a.get('synthetic_processes')}: its figures compare loads of different sizes")
    return out


def overview_sections(f, results):
    """(title, paragraphs, tables, images) of the provenance, the datasets and the fitted models."""
    tables = [("Where these results come from", ["key", "value"], provenance_rows(f, results))]
    datasets = dataset_rows(f)
    if datasets:
        tables.append(("Datasets (the real series)", ["dataset", "trace", "format", "channel", "bin", "bins", "span",
                                                       "total", "mean per bin"], datasets))
    fits = fit_rows(f)
    if fits:
        tables.append(("Fitted models: estimates ± standard error", ["ensemble", "model", "validity", "estimates"],
                       fits))
    return [("Overview", [], tables, [])]
