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

PROVENANCE = (("gpusynth_version", "gpusynth"), ("stream_version", "stream version of the values"), ("git_revision", "git revision"),
              ("command_line", "command"), ("config_path", "config"), ("seed", "seed"), ("backend", "backend"),
              ("device", "device"), ("precision", "precision"), ("host", "host"), ("created_utc", "created (UTC)"))


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


STATISTICS = (("log_likelihood", "ln L"), ("aic", "AIC"), ("bic", "BIC"), ("n", "n"))
# What a fit records beside its estimates: how it got there, not a parameter of the model.
NOT_ESTIMATES = {"iterations", "starts", "starts_at_best", "start_log_likelihoods"}
LIST_SHOWN = 12  # entries of a list or matrix shown before "... (k more)"


def finite(x):
    try:
        return math.isfinite(float(x))
    except (TypeError, ValueError):
        return False


def with_se(value, se):
    """value ± se where the SE is a finite number; the value alone otherwise (no SE, or one the fit could not
    define: a boundary, an atom)."""
    return f"{value:.4g} ± {se:.2g}" if finite(se) else f"{value:.4g}"


def estimate_cell(key, value, fit):
    """One estimate as the table shows it: ± only where the fit recorded a finite SE; a profile-likelihood interval
    where the SE came from one (*_se_from 'profile...': the SE is its width / 3.92, and the interval is the better
    summary of an asymmetric likelihood); lists entry by entry, an empty one as 'none'."""
    name = key.replace("_row_major", "")
    se = fit.get(f"{key}_se", fit.get(f"{name}_se_row_major") if key.endswith("_row_major") else None)
    values = np.atleast_1d(np.asarray(value, dtype=float))
    if values.size == 0:
        return f"{name} = none"
    if np.ndim(value) == 0:
        profile = fit.get(f"{key}_profile_95")
        if text(fit.get(f"{key}_se_from", "")).startswith("profile") and profile is not None and np.size(profile) == 2:
            low, high = (float(v) for v in np.ravel(profile))
            return f"{name} = {float(value):.4g}, 95 % profile-likelihood interval [{low:.4g}, {high:.4g}]"
        return f"{name} = {with_se(float(value), se)}" + (" (no SE)" if se is not None and not finite(se) else "")
    errors = np.atleast_1d(np.asarray(se, dtype=float)) if se is not None else np.array([])
    shown = [with_se(v, errors[k] if k < errors.size else None) for k, v in enumerate(values[:LIST_SHOWN])]
    more = f", ... ({values.size - LIST_SHOWN} more)" if values.size > LIST_SHOWN else ""
    layout = " (row-major)" if key.endswith("_row_major") else ""
    return f"{name}{layout} = [{', '.join(shown)}{more}]"


def is_estimate(key, value, fit):
    if isinstance(value, str) or key in NOT_ESTIMATES or key in dict(STATISTICS):
        return False
    if key.endswith(("_se", "_se_row_major", "_se_information", "_se_from", "_profile_95")):
        return False
    return True


def statistic_cell(fit, key):
    value = fit.get(key)
    if value is None or np.ndim(value) != 0 or not finite(value):
        return "-"
    value = float(value)
    return f"{value:.0f}" if key == "n" and value == round(value) else f"{value:.1f}"


def config_of(f):
    """The run's config (the root attribute 'config'), parsed; {} where it is missing or does not parse."""
    try:
        import yaml

        config = yaml.safe_load(text(f.attrs["config"])) if "config" in f.attrs else {}
    except Exception:  # noqa: BLE001 (a config that does not parse leaves the file's order)
        return {}
    return config if isinstance(config, dict) else {}


def names_in(entries):
    return [e if isinstance(e, str) else text(e.get("name", e.get("model", ""))) if isinstance(e, dict) else ""
            for e in entries if isinstance(entries, list)] if isinstance(entries, list) else []


def run_order(f):
    """The order the user gave the datasets and models in: the study's (its summary), else the config's
    `datasets:` and `models:`; names not there come after, in the file's order."""
    datasets, models = [], []
    if "compare" in f and "summary" in f["compare"]:
        summary = f["compare"]["summary"][()]
        datasets = [text(d) for d in dict.fromkeys(summary["dataset"])]
        models = [text(m) for m in dict.fromkeys(summary["model"])]
    config = config_of(f)
    return datasets or names_in(config.get("datasets")), models or names_in(config.get("models"))


def fit_rows(f):
    """Per fitted ensemble, by dataset and then in model order (the study's or the config's), its model,
    validity, every estimate (± its SE only where the fit recorded one; a profile-likelihood interval where the SE
    came from one) and, in their own columns, ln L, AIC, BIC and n where the fit recorded them."""
    datasets, models = run_order(f)
    rows = []
    for position, (name, group) in enumerate(f["ensembles"].items() if "ensembles" in f else []):
        if not isinstance(group, h5py.Group) or "fit" not in group:
            continue
        fit = attrs_of(group["fit"])
        model = text(group.attrs.get("model", "?"))
        estimates = [estimate_cell(key, value, fit) for key, value in fit.items() if is_estimate(key, value, fit)]
        validity = text(fit["validity"]) if "validity" in fit else \
            "boundary" if "boundary" in fit else "not converged" if fit.get("converged") == "no" else "ok"
        dataset = next((k for k, d in enumerate(datasets) if name == f"{d}-{model}"), len(datasets))
        rank = models.index(model) if model in models else len(models)
        rows.append(((dataset, rank, position), [name, model, validity, "; ".join(estimates) or fit.get("method", "-")]
                     + [statistic_cell(fit, key) for key, _ in STATISTICS]))
    return [row for _, row in sorted(rows, key=lambda r: r[0])]


def implausible_peaks(compare, dataset):
    """The models of `dataset` whose share of replicas peaking above the run's factor × the real peak is above the
    share the run warns at (the rule and both numbers are /compare's attributes)."""
    warn_above = compare.attrs.get("implausible_share_warning")
    if warn_above is None:  # a file from before the rule
        return []
    factor, real_peak = compare.attrs["implausible_peak_factor"], compare[dataset].attrs["real_peak"]
    out = []
    for model, group in compare[dataset].items():
        share = group.attrs.get("implausible_peak_share") if isinstance(group, h5py.Group) else None
        if share is not None and share > warn_above:
            out.append(f"{dataset} / {model}: {100 * share:.1f} % of the replicas peak above {factor:g} × the trace's "
                       f"peak ({real_peak:g}): the model's tail is heavier than the trace's; workload: {{cap: …}} "
                       f"truncates the values (docs/config.md)")
    return out


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
            out += implausible_peaks(f["compare"], dataset)
    for name, group in (f["bursts"].items() if "bursts" in f else []):
        if isinstance(group, h5py.Group) and "prediction" in group:
            notes = text(group["prediction"].attrs.get("notes", ""))
            out += [f"bursts {name}: {n.strip()}" for n in notes.split(";") if n.strip()]
    for name, group in (f["bursts"].items() if "bursts" in f else []):
        for ensemble, g in (group["monte_carlo"].items() if isinstance(group, h5py.Group) and "monte_carlo" in group
                            else []):
            if isinstance(g, h5py.Group) and g.attrs.get("logistic_fits_unconverged", 0) > 0:
                out.append(f"bursts {name} / {ensemble}: {int(g.attrs['logistic_fits_unconverged'])} logistic fits "
                           f"in {int(g.attrs.get('replicas_with_unconverged_fits', 0))} replicas stopped without "
                           "converging: their probabilities are the last Newton step's")
        for ensemble, g in (group["augment"].items() if isinstance(group, h5py.Group) and "augment" in group else []):
            notes = text(g.attrs.get("notes", "")) if isinstance(g, h5py.Group) else ""
            out += [f"bursts {name}, training with replicas of {ensemble}: {n.strip()}" for n in notes.split("; ")
                    if n.strip()]
    for name, group in (f["replay"].items() if "replay" in f else []):
        a = attrs_of(group)
        if "warnings" not in a and a.get("original_processes") != a.get("synthetic_processes"):  # before 2026-11-28
            out.append(f"replay {name}: the original has {a.get('original_processes')} processes and the replicas "
                       f"{a.get('synthetic_processes')}: its figures compare loads of different sizes")
    return out + recorded_warnings(f)


def recorded_warnings(f):
    """Every `warnings` attribute in the file, the one home gpusynth gives a warning beside what it concerns
    (a fit's, an ensemble's clipped bins, a replay's page cache and missed goals): one caveat per object,
    named by its path."""
    out = []

    def walk(group, prefix):
        try:
            names = list(group)
        except (KeyError, OSError, RuntimeError, ValueError):  # a damaged group: the rest is still read
            return
        for name in names:
            try:
                obj = group[name]
                w = text(obj.attrs.get("warnings", "")).strip()
            except (KeyError, OSError, RuntimeError, ValueError):  # a damaged or dangling object
                continue
            if w:
                out.append(f"{prefix}{name}: {w}")
            if isinstance(obj, h5py.Group):
                walk(obj, f"{prefix}{name}/")
    walk(f, "")
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
        tables.append(("Fitted models: estimates ± standard error (± only where the fit has one), fit statistics",
                       ["ensemble", "model", "validity", "estimates"] + [label for _, label in STATISTICS], fits))
    return [("Overview", [], tables, [])]
