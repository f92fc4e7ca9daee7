"""The /bursts part of `gpusynth report` (docs/bursts.md): the Darshan burst paper's figures drawn
from what `gpusynth bursts` wrote, with the intervals the paper could not give.

sigma histogram (Fig. 4), run lengths beside the replicas' (Fig. 5), F1 against the horizon with
bootstrap bands and the replicas' band (Fig. 6-7), delay/runtime/total per alpha (Fig. 10) and their
CDFs (Fig. 11), and F1 trained with and without replicas. A figure or table whose data is missing or
damaged is left out with a warning that names the object in the file (report.py shows the warnings
on the page and on stderr), never in silence.

Also the checked reading of the results file that report.py shares: member, values, attribute.
"""
import os

import h5py
import numpy as np


class InputError(Exception):
    """What the results file lacks or garbles, in one sentence naming the object in the file."""


class MissingModule(Exception):
    """A module the drawing needs is not installed (report.py names the package to install)."""

    def __init__(self, module):
        super().__init__(module)
        self.module = module


class LazyPyplot:
    """matplotlib.pyplot (Agg), imported at the first figure: the file's checks come before its 0.5 s import."""

    def __getattr__(self, name):
        if "module" not in self.__dict__:
            try:
                import matplotlib

                matplotlib.use("Agg")
                import matplotlib.pyplot
                matplotlib.pyplot.rcParams.update(PAPER_STYLE)
            except ImportError as missing:
                raise MissingModule((missing.name or "matplotlib").split(".")[0]) from None
            self.module = matplotlib.pyplot
        return getattr(self.module, name)


plt = LazyPyplot()


def text(value):
    return value.decode() if isinstance(value, bytes) else str(value)


def member(group, name, kind=None):
    """group[name], an InputError naming its path when it is missing, unreadable or not of `kind`."""
    where = f"{group.name.rstrip('/')}/{name}"
    if name not in group:
        raise InputError(f"{where} is missing")
    try:
        obj = group[name]
    except (KeyError, OSError, RuntimeError, ValueError) as e:
        raise InputError(f"{where} cannot be opened ({e}): the file is damaged") from None
    if kind is not None and not isinstance(obj, kind):
        found = "a group" if isinstance(obj, h5py.Group) else "a dataset"
        raise InputError(f"{where} is {found}, not {'a group' if kind is h5py.Group else 'a dataset'}")
    return obj


def values(group, name, fields=(), ndim=None):
    """The array of dataset group[name], with these fields and dimensions, or an InputError naming it."""
    dataset = member(group, name, h5py.Dataset)
    present = dataset.dtype.names or ()
    missing = [field for field in fields if field not in present]
    if missing:
        raise InputError(f"{dataset.name} has no field{'s' if len(missing) > 1 else ''} {', '.join(repr(m) for m in missing)} (it has: "
                         f"{', '.join(present) or 'none'})")
    if ndim is not None and dataset.ndim != ndim:
        raise InputError(f"{dataset.name} has {dataset.ndim} dimensions, expected {ndim}")
    try:
        return dataset[()]
    except (OSError, ValueError, TypeError, RuntimeError) as e:
        raise InputError(f"{dataset.name} cannot be read ({e}): the file is damaged") from None


def attribute(obj, key, kind=float, undefined=False):
    """An attribute as a finite number (kind float) or as text (kind str), or an InputError naming it. With
    undefined, NaN is taken too: a figure the run could not define (one replica has no band), drawn as n/a."""
    if key not in obj.attrs:
        raise InputError(f"{obj.name} has no attribute '{key}'")
    try:
        value = obj.attrs[key]
    except (OSError, TypeError, RuntimeError) as e:
        raise InputError(f"{obj.name}: attribute '{key}' cannot be read ({e}): the file is damaged") from None
    if kind is str:
        return text(value)
    try:
        number = float(value)
    except (TypeError, ValueError):
        number = float("nan")
    if not np.isfinite(number) and not (undefined and np.isnan(number)):
        raise InputError(f"{obj.name}: attribute '{key}' = {text(value)!r} is not a finite number")
    return number


class WriteError(Exception):
    """A file of the report that cannot be written (a full disk): said as gpusynth says it."""

    def __init__(self, path, error):
        super().__init__(f"cannot write '{path}': {error.strerror or error} (errno {error.errno})")


# Figures read in a two-column paper: 7 in wide at most (a full-width figure), 8 pt text.
PAPER_STYLE = {"font.size": 8, "axes.titlesize": 8, "axes.labelsize": 8, "legend.fontsize": 7,
               "xtick.labelsize": 7, "ytick.labelsize": 7, "svg.fonttype": "none", "pdf.fonttype": 42}


def save(fig, directory, name):
    """NAME.png (embedded in index.html) and, beside it, NAME.svg and NAME.pdf (vector, for LaTeX;
    the SVG keeps its text as text)."""
    path = os.path.join(directory, name)
    stem = os.path.splitext(path)[0]
    try:
        with plt.rc_context({"svg.fonttype": "none", "pdf.fonttype": 42}):
            fig.savefig(path, dpi=150, bbox_inches="tight")
            fig.savefig(stem + ".svg", bbox_inches="tight")
            fig.savefig(stem + ".pdf", bbox_inches="tight")
    except OSError as e:
        raise WriteError(path, e) from None
    finally:
        plt.close(fig)
    return name


def legend_outside(axis, **options):
    """The legend right of the axes, outside the data (issue 58 part 3, item 6): inside, it hides the bars or the
    lines a reader looks for."""
    handles, labels = axis.get_legend_handles_labels()
    if handles:
        axis.legend(handles, labels, loc="upper left", bbox_to_anchor=(1.01, 1), borderaxespad=0, **options)


def say_empty(axis, why):
    """An empty panel says why it is empty."""
    axis.text(0.5, 0.5, why, ha="center", va="center", fontsize=7, wrap=True, transform=axis.transAxes)


def names(group, key):
    return [n for n in attribute(group, key, str).split(",") if n]


def matrix(group, name, shape):
    """A 2-D dataset of this shape (rows: predictors or decisions; columns: horizons or alphas)."""
    data = values(group, name, ndim=2)
    if data.shape != shape:
        raise InputError(f"{group.name}/{name} is {data.shape[0]} x {data.shape[1]}, expected {shape[0]} x {shape[1]}")
    return data


def monte_carlo_rows(g, warn):
    """{ensemble: {figure: (real, mean, low, high, p)}}; an ensemble without a readable summary is warned about."""
    out = {}
    if "monte_carlo" not in g:
        return out
    mc = member(g, "monte_carlo", h5py.Group)
    for ensemble in mc:
        try:
            s = values(member(mc, ensemble, h5py.Group), "summary", ("figure", "real", "mean", "low", "high", "p_value"),
                       ndim=1)
        except InputError as e:
            warn(f"the Monte Carlo over the replicas of {ensemble} is left out: {e}")
            continue
        out[ensemble] = {text(r["figure"]): (r["real"], r["mean"], r["low"], r["high"], r["p_value"]) for r in s}
    return out


def plot_sigma(g, name, directory):
    histogram = member(g, "sigma_histogram", h5py.Dataset)
    counts = values(g, "sigma_histogram", ndim=1)
    step, first = attribute(histogram, "step_sigma"), attribute(histogram, "first_edge_sigma")
    k = attribute(g, "k")
    centres = first + step * (np.arange(len(counts)) + 0.5)
    fig, axis = plt.subplots(figsize=(7, 3.5))
    axis.bar(centres, np.maximum(counts, 1e-1), width=step, color="tab:blue")
    axis.axvline(k, color="tab:red", linestyle="--", label=f"threshold: mean + {k:.2f} sigma")
    axis.set_yscale("log")
    axis.set_ylim(bottom=0.5)
    axis.set_xlabel("(bytes per bin - mean) / sigma")
    axis.set_ylabel("bins")
    legend_outside(axis)
    return {f"{name}: bins by distance from the mean in {step:g} sigma steps (paper Fig. 4)":
            save(fig, directory, f"bursts_{name}_sigma.png")}


def plot_runs(g, name, directory, mc):
    runs = values(g, "run_length_counts", ndim=1)
    total = max(runs.sum(), 1)
    lengths = np.arange(1, len(runs) + 1)
    fig, axis = plt.subplots(figsize=(7, 3.5))
    width = 0.8 / (1 + len(mc))
    axis.bar(lengths - 0.4 + width / 2, runs / total, width=width, label="real series", color="black")
    for k, (ensemble, rows) in enumerate(mc.items()):
        keys = [key for key in rows if key.startswith("run_length_share_")]
        mean = np.array([rows[key][1] for key in keys])
        low = np.array([rows[key][2] for key in keys])
        high = np.array([rows[key][3] for key in keys])
        x = lengths[:len(keys)] - 0.4 + width * (k + 1.5)
        axis.bar(x, mean, width=width, label=f"{ensemble} (replicas' mean, interval)", alpha=0.7)
        axis.errorbar(x, mean, yerr=[np.maximum(mean - low, 0), np.maximum(high - mean, 0)], fmt="none", color="gray", capsize=2)
    axis.set_xticks(lengths)
    axis.set_xticklabels([str(v) for v in lengths[:-1]] + [f"{lengths[-1]}+"])
    axis.set_xlabel("run of consecutive burst bins")
    axis.set_ylabel("share of runs")
    legend_outside(axis, fontsize=7)
    return {f"{name}: lengths of burst runs, real and replicas (paper Fig. 5)": save(fig, directory, f"bursts_{name}_runs.png")}


def prediction_of(g):
    """The prediction group, its horizons (min), predictors and the (predictors x horizons) shape."""
    p = member(g, "prediction", h5py.Group)
    minutes = values(p, "horizon_minutes", ndim=1)
    predictors = names(p, "predictors")
    return p, minutes, predictors, (len(predictors), len(minutes))


def plot_prediction(prediction, name, directory, mc, mc_predictors):
    p, minutes, predictors, shape = prediction
    images = {}
    for metric, label in (("f1", "F1"), ("average_precision", "average precision (PR-AUC)")):
        value, low, high = (matrix(p, metric + suffix, shape) for suffix in ("", "_low", "_high"))
        fig, axis = plt.subplots(figsize=(7, 4))
        for k, predictor in enumerate(predictors):
            line, = axis.plot(minutes, value[k], marker="o", markersize=3, label=predictor)
            axis.fill_between(minutes, low[k], high[k], color=line.get_color(), alpha=0.15)
        # the replicas' bands hatched, each in its own colour, none of the first five predictors' (the colour
        # cycle's first five) (issue 58 part 3, item 6)
        band_colours, drawn_bands = ["tab:brown", "tab:pink", "tab:olive", "tab:cyan", "tab:gray"], []
        if metric == "f1":
            for ensemble, rows in mc.items():
                for predictor in mc_predictors:
                    keys = [key for key in rows if key.startswith(f"f1/{predictor}/")]
                    if len(keys) != len(minutes):
                        continue
                    low_mc = [rows[key][2] for key in keys]
                    high_mc = [rows[key][3] for key in keys]
                    colour = band_colours[len(drawn_bands) % len(band_colours)]
                    drawn_bands.append(colour)
                    axis.fill_between(minutes, low_mc, high_mc, facecolor="none", edgecolor=colour, hatch="///",
                                      lw=0.8, label=f"{predictor} on replicas of {ensemble}")
        axis.set_xlabel("horizon (min)")
        axis.set_ylabel(label)
        axis.set_ylim(0, 1)
        axis.set_title(f"{name}: {label} per horizon; shaded: each predictor's moving-block bootstrap interval")
        legend_outside(axis, fontsize=7)
        images[f"{name}: {label} against the horizon, bootstrap bands (paper Fig. 6-7)"] = save(
            fig, directory, f"bursts_{name}_{metric}.png")
    return images


def scheduling_of(g):
    s = member(g, "scheduling", h5py.Group)
    decisions = names(s, "decided_by")
    if "alphas" not in s.attrs:
        raise InputError(f"{s.name} has no attribute 'alphas'")
    alphas = np.atleast_1d(np.asarray(s.attrs["alphas"], dtype=float))
    return s, decisions, alphas


def plot_scheduling(scheduling, name, directory):
    s, decisions, alphas = scheduling
    fig, axes = plt.subplots(1, 3, figsize=(7, 2.8), sharey=True)
    width = 0.8 / max(len(decisions), 1)
    x = np.arange(len(alphas))
    for axis, metric in zip(axes, ("delay", "runtime", "total")):
        value, low, high = (matrix(s, metric + suffix, (len(decisions), len(alphas))) for suffix in ("", "_low", "_high"))
        for k, decision in enumerate(decisions):
            none = not np.isfinite(value[k]).any()  # a decision without a window has no bar: the legend says why
            axis.bar(x - 0.4 + width * (k + 0.5), value[k], width=width,
                     label=f"{decision} (no window: no bar)" if none else decision,
                     yerr=[np.maximum(value[k] - low[k], 0), np.maximum(high[k] - value[k], 0)], capsize=2)
        axis.set_xticks(x)
        axis.set_xticklabels([f"{a:g}" for a in alphas])
        axis.set_title(f"mean {metric} (s)")
        if not np.isfinite(value).any():
            say_empty(axis, "no decision had a window to schedule")
    axes[0].set_ylabel("seconds (s)")
    fig.supxlabel("alpha (1: start at once; 0: shortest runtime)", fontsize=8)
    fig.suptitle(f"{name}: Algorithm 1, mean delay, runtime and total per alpha, with intervals")
    legend_outside(axes[-1], fontsize=7)
    fig.tight_layout()
    return {f"{name}: Algorithm 1, mean delay, runtime and total per alpha with intervals (paper Fig. 10)":
            save(fig, directory, f"bursts_{name}_schedule.png")}


def plot_window_cdfs(scheduling, name, directory, decision, notes):
    """The CDFs over the windows of one decision; a decision without windows is said in `notes`."""
    s, _, alphas = scheduling
    one = member(member(s, "per_window", h5py.Group), decision, h5py.Group)
    windows = attribute(one, "windows")
    if windows == 0:
        notes.append(f"Decided by {decision}: no window to schedule, so no CDF.")
        return {}
    fig, axes = plt.subplots(1, 3, figsize=(7, 2.6), sharey=True)
    fig.suptitle(f"{name}: Algorithm 1 decided by {decision}: CDFs over its {int(windows)} windows")
    for axis, metric in zip(axes, ("delay", "runtime", "total")):
        per_window = matrix(one, metric, (len(alphas), int(windows)))
        for k, alpha in enumerate(alphas):
            v = np.sort(per_window[k])
            axis.step(v, np.arange(1, len(v) + 1) / len(v), where="post", label=f"alpha {alpha:g}")
        axis.set_xlabel(f"{metric} (s)")
    axes[0].set_ylabel("CDF over the windows")
    legend_outside(axes[-1], fontsize=7)
    return {f"{name}: CDFs over the windows, decided by {decision} (paper Fig. 11)":
            save(fig, directory, f"bursts_{name}_cdf_{decision}.png")}


def plot_augment(a, name, ensemble, directory):
    minutes = values(a, "horizon_minutes", ndim=1)
    predictors = names(a, "predictors")
    replicas = attribute(a, "replicas")
    shape = (len(predictors), len(minutes))
    real_only, augmented, low, high = (matrix(a, key, shape) for key in
                                       ("f1_real_only", "f1_augmented", "difference_low", "difference_high"))
    fig, axis = plt.subplots(figsize=(7, 3.5))
    for k, predictor in enumerate(predictors):
        axis.plot(minutes, real_only[k], marker="o", markersize=3, label=f"{predictor}, real bins only")
        axis.plot(minutes, augmented[k], marker="s", markersize=3, label=f"{predictor}, + {replicas:g} replicas")
        axis.fill_between(minutes, real_only[k] + low[k], real_only[k] + high[k], alpha=0.15,
                          label="real only + the difference's interval")
    axis.set_xlabel("horizon (min)")
    axis.set_ylabel("F1 on the real scored bins")
    legend_outside(axis, fontsize=7)
    return {f"{name}: training with replicas of {ensemble}": save(fig, directory, f"bursts_{name}_augment_{ensemble}.png")}


def detection_paragraph(g):
    a = {key: attribute(g, key) for key in ("bins", "bin_s", "threshold", "k", "bursts", "burst_share", "mean_run_length")}
    t = {key: attribute(g, key, str) for key in ("dataset", "detection", "features", "feature_names")}
    return (f"{a['bins']:g} bins of {a['bin_s']:g} s from dataset '{t['dataset']}'; threshold "
            f"{a['threshold']:.6g} = mean + {a['k']:.3f} sigma ({t['detection']}); {a['bursts']:g} burst bins "
            f"({100 * a['burst_share']:.2f} %), mean run {a['mean_run_length']:.2f} bins; features "
            f"{t['features']} ({t['feature_names']}).")


def prediction_table(prediction, paragraphs):
    p, minutes, predictors, shape = prediction
    paragraphs += [attribute(p, key, str) for key in ("label_definition", "split", "threshold_rule", "intervals")]
    f1, low, high = (matrix(p, "f1" + suffix, shape) for suffix in ("", "_low", "_high"))
    rows = [[f"{m:g}"] + [f"{f1[k][h]:.3f} [{low[k][h]:.3f}, {high[k][h]:.3f}]" for k in range(len(predictors))]
            for h, m in enumerate(minutes)]
    return ("F1 [interval] on the scored bins", ["horizon (min)"] + predictors, rows)


def monte_carlo_table(ensemble, rows):
    wanted = [k for k in rows if k in ("burst_share", "k", "mean_run_length", "run_length_share_1", "run_length_distance")
              or k.startswith("runtime/perfect/") or k.endswith(("/5min", "/60min", "/120min"))]
    return (f"Monte Carlo over the replicas of {ensemble}: real against the replicas",
            ["figure", "real", "replicas' mean", "interval", "p"],
            [[k, f"{rows[k][0]:.4g}", f"{rows[k][1]:.4g}", f"[{rows[k][2]:.4g}, {rows[k][3]:.4g}]", f"{rows[k][4]:.3f}"]
             for k in wanted])


def burst_analyses(f, warn):
    """[(name, group, real)] of the analyses under /bursts that burst_sections draws (real: the analysis of a real
    series, else a Monte Carlo over replicas only); what cannot be drawn goes to warn(message), naming the object."""
    bursts = member(f, "bursts", h5py.Group)
    if len(bursts) == 0:
        warn("/bursts holds no analysis (gpusynth bursts writes one group per entry of the config's `bursts:` "
             "section)")
        return []
    analyses = []
    for name in bursts:
        try:
            g = member(bursts, name, h5py.Group)
        except InputError as e:
            warn(f"bursts '{name}' is left out: {e}")
            continue
        try:
            dataset = text(g.attrs["dataset"]) if "dataset" in g.attrs else ""
        except (OSError, TypeError, RuntimeError, UnicodeDecodeError):
            dataset = "?"  # unreadable: taken as a real series', whose parts then say what is wrong
        real = "severity" in g or dataset != ""  # the analysis of a real series, else replicas only
        if not real and "monte_carlo" not in g:
            warn(f"bursts '{name}' is left out: {g.name} holds neither the analysis of a real series (severity, "
                 "sigma_histogram, prediction, scheduling) nor a Monte Carlo over replicas (monte_carlo)")
            continue
        analyses.append((name, g, real))
    return analyses


def burst_sections(f, directory, warn, analyses=None, step=lambda label: None):
    """(title, paragraphs, tables, images) per analysis under /bursts (burst_analyses). What is missing or damaged
    goes to warn(message), naming the object in the file, and the rest is drawn; nothing is left out in silence."""
    sections = []
    for name, g, real in burst_analyses(f, warn) if analyses is None else analyses:
        step(f"bursts {name}")
        paragraphs, tables, images = [], [], {}

        def attempt(what, make, default=None):
            try:
                return make()
            except InputError as e:
                warn(f"bursts '{name}': {what} is left out: {e}")
                return default

        mc = attempt("the Monte Carlo over the replicas",
                     lambda: monte_carlo_rows(g, lambda message: warn(f"bursts '{name}': {message}")), {})
        mc_predictors = attempt("the replicas' F1 bands", lambda: names(member(g, "monte_carlo"), "predictors"),
                                []) if mc else []
        prediction = scheduling = None
        if real:
            paragraphs += attempt("the detection summary", lambda: [detection_paragraph(g)], [])
            prediction = attempt("the prediction (its F1 table, Fig. 6-7)", lambda: prediction_of(g))
            scheduling = attempt("the scheduling (Fig. 10-11)", lambda: scheduling_of(g))
        if prediction:
            table = attempt("the F1 table", lambda: prediction_table(prediction, paragraphs))
            tables += [table] if table else []
        tables += [monte_carlo_table(ensemble, rows) for ensemble, rows in mc.items()]
        if real:
            images.update(attempt("the sigma histogram (Fig. 4)", lambda: plot_sigma(g, name, directory), {}))
            images.update(attempt("the run lengths (Fig. 5)", lambda: plot_runs(g, name, directory, mc), {}))
        if prediction:
            images.update(attempt("F1 and average precision against the horizon (Fig. 6-7)",
                                  lambda: plot_prediction(prediction, name, directory, mc, mc_predictors), {}))
        if scheduling:
            images.update(attempt("the scheduling figure (Fig. 10)", lambda: plot_scheduling(scheduling, name, directory),
                                  {}))
            for decision in scheduling[1]:
                images.update(attempt(f"the CDFs over the windows decided by {decision} (Fig. 11)",
                                      lambda: plot_window_cdfs(scheduling, name, directory, decision, paragraphs), {}))
            if "note" in scheduling[0].attrs:
                paragraphs.append(attempt("the scheduling note", lambda: attribute(scheduling[0], "note", str), ""))
        if "augment" in g:
            augment = attempt("the training with replicas", lambda: member(g, "augment", h5py.Group))
            for ensemble in augment if augment is not None else []:
                images.update(attempt(f"the training with replicas of {ensemble}",
                                      lambda: plot_augment(member(augment, ensemble, h5py.Group), name, ensemble,
                                                           directory), {}))
        sections.append((f"Bursts {name}", [p for p in paragraphs if p], tables, list(images.items())))
    return sections
