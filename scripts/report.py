#!/usr/bin/python3
"""The report of a run: `gpusynth report RESULTS.h5 -o DIR` runs this.

Reads the /compare, /datasets and /ensembles groups that `gpusynth` wrote (docs/studies.md), and the
/requests groups (docs/requests.md: each synthesis's first replica beside the trace it came from, as
rank x time request plots and requests per bin), the /replay groups (docs/requests.md, report_replay.py:
throughput, data operation ratio and arrival rate over time against the replicas' band, latency CDFs,
replay errors and fidelity with intervals) and the /bursts groups (docs/bursts.md, report_bursts.py:
the burst paper's figures with intervals), and writes DIR/index.html (tables and plots, the images
embedded, so the one file stands alone), DIR/report.md and the plots as PNGs:
CDFs of real vs synthetic with a replica band (the alpha-stable paper's
Fig. 5-6), QQ plots (Fig. 3-4), ACFs (Fig. 2), sample paths and the
per-replica error distributions.

    report.py --staged RESULTS.h5 EMPTY_DIR   # what gpusynth report runs: it made EMPTY_DIR beside the
                                              # target, renames it into place on exit 0 and removes it otherwise
    report.py RESULTS.h5 DIR                  # by hand: the same, with the staging and renaming done here

Exit status: 0 written (warnings, if any, on stderr and at the top of the page: a part of /bursts that
is missing or damaged); 2 a user error, one line "gpusynth report: error: ..." naming the file and the
object in it that is missing or wrong (request tables are checked before anything is drawn), or a
file of the report that cannot be written; 130 interrupted by SIGINT or SIGTERM, nothing written.
"""
import signal
import sys


class Interrupted(SystemExit):
    """SIGINT or SIGTERM: exit 130, after the unwinding removed what was being written."""

    def __init__(self, number):
        super().__init__(130)
        self.signal = number


def interrupted(number, frame):
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # one is enough: the clean-up must not be interrupted
    signal.signal(signal.SIGTERM, signal.SIG_IGN)
    raise Interrupted(number)


signal.signal(signal.SIGINT, interrupted)  # first, so that even the imports below stop without a traceback
signal.signal(signal.SIGTERM, interrupted)
# gpusynth starts the script with both blocked: one that came before the handlers comes now, to them.
signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT, signal.SIGTERM})

import base64  # noqa: E402
import html  # noqa: E402
import math  # noqa: E402
import os  # noqa: E402
import re  # noqa: E402
import shutil  # noqa: E402
import socket  # noqa: E402
import stat  # noqa: E402
import warnings as python_warnings  # noqa: E402

# numpy's "All-NaN slice" and "Mean of empty slice" on a replica band that has no value: the figure shows the gap,
# and stderr keeps to what the report has to say (progress, its warnings, one error line).
python_warnings.filterwarnings("ignore", category=RuntimeWarning)


def fail(message):
    """A user error: the message and exit code 2, as gpusynth's own."""
    print(f"gpusynth report: error: {message}", file=sys.stderr)
    sys.exit(2)


# The Debian packages of the modules the report draws with (scripts/debian-packages.txt).
REPORT_PACKAGES = {"h5py": "python3-h5py", "matplotlib": "python3-matplotlib", "numpy": "python3-numpy"}


def fail_missing(module):
    package = REPORT_PACKAGES.get(module, "the package that provides it")
    fail(f"the report needs the Python module '{module}' for {sys.executable}, which is not installed; "
         f"install {package} (apt-get install {package})")


try:
    import h5py
    import numpy as np
except ImportError as missing:
    fail_missing((missing.name or "").split(".")[0])

# matplotlib loads at the first figure (report_bursts.LazyPyplot), after the file's checks; without it, MissingModule.
from request_table_checks import request_table_problem  # noqa: E402
from report_bursts import (InputError, MissingModule, WriteError, attribute, burst_analyses,  # noqa: E402
                           burst_sections, member, plt, save, text, values)
from report_checks import Progress, check_study, draw_in_child, walk_in_child  # noqa: E402
from report_ensembles import ensemble_sections, plain_ensembles  # noqa: E402
from report_overview import caveats, overview_sections  # noqa: E402
from report_replay import replay_sections  # noqa: E402

BAND = (5, 95)  # percentiles of the replicas drawn as a band


def cell(row):
    if row["replicas_used"] == 0:
        return "n/a"
    return f"{row['median']:.3g} [{row['ci_low']:.3g}, {row['ci_high']:.3g}]"


class Study:
    def __init__(self, f):
        self.compare = f["compare"]
        self.attrs = {k: text(v) if isinstance(v, (bytes, str)) else v for k, v in self.compare.attrs.items()}
        self.summary = self.compare["summary"][()]
        self.datasets = [text(d) for d in dict.fromkeys(self.summary["dataset"])]
        self.models = [text(m) for m in dict.fromkeys(self.summary["model"])]
        self.metrics = [text(m) for m in dict.fromkeys(self.summary["metric"])]
        self.rank_by = self.attrs["rank_by"]

    def row(self, dataset, model, metric):
        s = self.summary
        mask = (s["dataset"] == dataset.encode()) & (s["model"] == model.encode()) & (s["metric"] == metric.encode())
        return s[mask][0] if mask.any() else None


def table_rows(study, metric, render):
    rows = []
    for d in study.datasets:
        cells = []
        for m in study.models:
            r = study.row(d, m, metric)
            cells.append(render(r) if r is not None else "-")
        rows.append([d] + cells)
    return rows


def degree_cell(row):
    return f"{row['matching_degree']}" + ("" if row["separated"] == 1 else "?")


def replica_band(group, model, name):
    """The 5 %, 50 % and 95 % points over the replicas of a stored per-replica curve."""
    return np.nanpercentile(group[model][name][()], [BAND[0], 50, BAND[1]], axis=0)


def duration(seconds):
    """A bin width for people: 50 ms, 1 s, 5 min."""
    for unit, size in (("h", 3600), ("min", 60), ("s", 1), ("ms", 1e-3), ("µs", 1e-6), ("ns", 1e-9)):
        if seconds >= size * 0.999:
            return f"{seconds / size:.4g} {unit}"
    return f"{seconds:g} s"


CHANNEL_UNITS = {"count": "operations", "count_read": "read operations", "count_write": "write operations",
                 "bytes": "bytes", "bytes_read": "bytes read", "bytes_write": "bytes written",
                 "time": "s of I/O", "time_read": "s of reads", "time_write": "s of writes"}


class DatasetUnits:
    """What a dataset's values and bins are, from its attributes (/datasets/NAME: series_name, bin_width)."""

    def __init__(self, group):
        channel = text(group.attrs.get("series_name", ""))
        width = float(group.attrs.get("bin_width", 0) or 0)
        self.bin_seconds = width if math.isfinite(width) and width > 0 else None
        what = CHANNEL_UNITS.get(channel, channel or "value")
        self.value = f"{what} per {duration(self.bin_seconds)}" if self.bin_seconds else what
        self.bin = f"bins of {duration(self.bin_seconds)}" if self.bin_seconds else "bins"


def panels(count, width=7.0, height=1.9, columns=3, sharex=True, sharey=True):
    """A grid of small multiples, one panel per model, axes shared where values are compared."""
    columns = min(columns, count)
    rows = (count + columns - 1) // columns
    fig, axes = plt.subplots(rows, columns, figsize=(width, height * rows + 0.4), sharex=sharex, sharey=sharey,
                             squeeze=False)
    for extra in axes.flat[count:]:
        extra.set_visible(False)
    return fig, axes.flat[:count]


def legend_below(fig, axes, note=""):
    """One legend for a figure of small multiples, below the panels, outside the data (issue 58 part 3, item 6):
    the first panel's entries, each panel drawn in its model's colour."""
    handles, labels = axes[0].get_legend_handles_labels()
    labels = [label.split(": ", 1)[-1] for label in labels]  # "lfsn: replicas' median" -> "replicas' median"
    if handles:
        fig.legend(handles, [label + (note if k == 0 else "") for k, label in enumerate(labels)], loc="upper center",
                   bbox_to_anchor=(0.5, 0.0), ncol=len(handles), frameon=False)


def plot_dataset(f, study, dataset, directory):
    group = study.compare[dataset]
    units = DatasetUnits(f["datasets"][dataset])
    real = f["datasets"][dataset]["series"][()]
    levels = group["real_quantiles"].attrs["levels"]
    real_q = group["real_quantiles"][()]
    real_acf = group["real_acf"][()]
    models = [m for m in study.models if m in group]
    colors = plt.rcParams["axes.prop_cycle"].by_key()["color"]
    band = f"replicas' {BAND[0]}-{BAND[1]} % band"
    plots = {}

    fig, axes = panels(len(models))
    xs = np.sort(real)
    for i, (ax, m) in enumerate(zip(axes, models)):
        lo, mid, hi = replica_band(group, m, "replica_quantiles")
        c = colors[i % len(colors)]
        ax.fill_betweenx(levels, lo, hi, color=c, alpha=0.3, lw=0, label=band)
        ax.plot(mid, levels, color=c, lw=1, label=f"{m}: replicas' median")
        ax.step(xs, np.arange(1, len(xs) + 1) / len(xs), where="post", color="black", lw=1, label="real")
        if xs.min() > 0 and xs.max() / xs.min() > 100:
            ax.set_xscale("log")
        elif xs.min() >= 0 and xs.max() > 100:
            ax.set_xscale("symlog", linthresh=1)
        ax.set_title(m)
        ax.set_xlabel(units.value)
        ax.set_ylabel("cumulative fraction")
    fig.suptitle(f"{dataset}: CDF of the real series and of each model's replicas")
    fig.tight_layout()
    legend_below(fig, axes, " (each panel in its model's colour)")
    plots["CDF, one panel per model"] = save(fig, directory, f"cdf_{dataset}.png")

    fig, axes = panels(len(models), height=2.3)
    span = [np.nanmin(real_q), np.nanmax(real_q)]
    for i, (ax, m) in enumerate(zip(axes, models)):
        lo, mid, hi = replica_band(group, m, "replica_quantiles")
        c = colors[i % len(colors)]
        ax.fill_between(real_q, lo, hi, color=c, alpha=0.3, lw=0, label=band)
        ax.plot(real_q, mid, "o", ms=2, color=c, label="replicas' median")
        ax.plot(span, span, color="black", lw=0.8, label="y = x")
        if span[0] >= 0 and span[1] > 100:
            ax.set_xscale("symlog", linthresh=1)
            ax.set_yscale("symlog", linthresh=1)
        ax.set_title(m)
        ax.set_xlabel(f"real quantile ({units.value})")
        ax.set_ylabel(f"synthetic quantile ({units.value})")
    fig.suptitle(f"{dataset}: QQ plots, p = 0, 0.01, ..., 1")
    fig.tight_layout()
    legend_below(fig, axes, " (each panel in its model's colour)")
    plots["QQ, one panel per model"] = save(fig, directory, f"qq_{dataset}.png")

    fig, axes = panels(len(models))
    lags = np.arange(len(real_acf))
    for i, (ax, m) in enumerate(zip(axes, models)):
        lo, mid, hi = replica_band(group, m, "replica_acf")
        c = colors[i % len(colors)]
        ax.fill_between(lags, lo, hi, color=c, alpha=0.3, lw=0, label=band)
        ax.plot(lags, mid, color=c, lw=1, label="replicas' median")
        ax.plot(lags, real_acf, color="black", lw=1, label="real")
        ax.axhline(0, color="grey", lw=0.5)
        ax.set_title(m)
        ax.set_xlabel(f"lag ({units.bin})")
        ax.set_ylabel("autocorrelation")
        if units.bin_seconds:  # the lag in time as well
            w = units.bin_seconds
            top = ax.secondary_xaxis("top", functions=(lambda b, w=w: b * w, lambda t, w=w: t / w))
            top.set_xlabel("lag (s)")
    fig.suptitle(f"{dataset}: autocorrelation of the real series and of each model's replicas")
    fig.tight_layout()
    legend_below(fig, axes, " (each panel in its model's colour)")
    plots["ACF, one panel per model"] = save(fig, directory, f"acf_{dataset}.png")

    # Each path on its own y scale (a symmetric log one where a burst is 20 times the median): on one shared scale
    # the largest burst of one model flattens every other path (issue 58 part 3, item 3).
    fig, axes = plt.subplots(len(models) + 1, 1, figsize=(7, 1.0 * (len(models) + 1) + 0.5), sharex=True)
    axes = np.atleast_1d(axes)
    time = np.arange(len(real)) * (units.bin_seconds or 1)
    axes[0].plot(time, real, color="black", lw=0.5)
    axes[0].text(0.01, 0.85, "real", transform=axes[0].transAxes, fontsize=7)
    for i, m in enumerate(models):
        ensemble = text(group[m].attrs["ensemble"])
        ax = axes[i + 1]
        series = f["ensembles"].get(ensemble, {}).get("series") if ensemble in f["ensembles"] else None
        if series is not None and series.shape[0] > 0:
            ax.plot(time[:series.shape[1]], series[0, :len(time)], color=colors[i % len(colors)], lw=0.5)
        ax.text(0.01, 0.85, f"{m}, replica 0", transform=ax.transAxes, fontsize=7)
    for ax in axes:
        burst_scale(ax)
    axes[len(axes) // 2].set_ylabel(units.value)
    axes[-1].set_xlabel("time (s)" if units.bin_seconds else "bin (index)")
    axes[0].set_title(f"{dataset}: the real series and replica 0 of each model, each on its own y scale")
    fig.tight_layout()
    plots["Sample paths"] = save(fig, directory, f"paths_{dataset}.png")

    plots["Per-replica metrics with the bootstrap interval of the median"] = plot_metrics(
        study, group, dataset, models, units, directory)
    return plots


def burst_scale(ax):
    """A symmetric log y scale where the drawn values are non-negative and a burst is 20 times the median."""
    ys = np.concatenate([line.get_ydata() for line in ax.get_lines()] or [np.array([])]).astype(float)
    ys = ys[np.isfinite(ys)]
    if ys.size and ys.min() >= 0 and ys.max() > 20 * max(np.median(ys), 1):
        ax.set_yscale("symlog", linthresh=max(float(np.median(ys)), 1.0))


def plot_metrics(study, group, dataset, models, units, directory):
    """Per metric: the replicas' values (boxes) and the median's bootstrap interval (error bar)."""
    fig, axes = panels(len(study.metrics), height=2.4, sharex=False, sharey=False)
    for ax, metric in zip(axes, study.metrics):
        data, medians, errors, shown = [], [], [[], []], []
        for k, m in enumerate(models):
            v = group[m][metric][()]
            data.append(v[np.isfinite(v)])
            row = study.row(dataset, m, metric)
            if row is not None and row["replicas_used"] > 0:
                shown.append(k + 1)
                medians.append(row["median"])
                errors[0].append(row["median"] - row["ci_low"])
                errors[1].append(row["ci_high"] - row["median"])
        if not any(len(d) for d in data):
            note = text(group.attrs.get("real_hurst_note", "")) if metric == "hurst" else ""
            ax.text(0.5, 0.5, "no model has a finite value" + (f":\nthe real series' H has none\n({note})" if note
                                                                else ""),
                    ha="center", va="center", fontsize=7, wrap=True, transform=ax.transAxes)
            ax.set_xticks([])
            ax.set_yticks([])
        else:
            ax.boxplot(data, labels=models, showfliers=False)
            ax.errorbar(shown, medians, yerr=errors, fmt="o", color="tab:red", ms=3, capsize=3,
                        label=f"median, {study.attrs['interval_method']} interval")
            ax.tick_params(axis="x", labelrotation=45)
            if metric == "hurst":
                ax.axhline(0, color="grey", lw=0.5)
            if metric.endswith("_ratio"):
                ax.axhline(1, color="grey", lw=0.5)
        ax.set_title(metric)
        # the trimmed error is a distance between values; the others are distances of shares or ratios
        ax.set_ylabel(f"{metric} ({units.value})" if metric == "trimmed_error" else f"{metric} (dimensionless)")
    fig.suptitle(f"{dataset}: per-replica metrics (boxes: quartiles, whiskers 1.5 IQR; red: the median's "
                 f"{100 * study.attrs['confidence']:g} % bootstrap interval)")
    fig.tight_layout()
    legend_below(fig, [ax for ax in axes if ax.get_legend_handles_labels()[0]] or axes)
    return save(fig, directory, f"metrics_{dataset}.png")


REQUEST_FIELDS = ("replica", "rank", "time", "op")  # what the plots read of a request table (docs/requests.md)


def request_table(group):
    """The request table of a group of gpusynth's (/requests/NAME or its characterized/sanitized) and its operation
    classes, checked: an InputError names what is missing or wrong."""
    table = values(group, "requests", REQUEST_FIELDS, ndim=1)
    classes = [text(c) for c in values(group, "ops", ("class",), ndim=1)["class"]]
    problem = request_table_problem(table, REQUEST_FIELDS, classes, group.name)
    if problem:
        raise InputError(problem)
    return table, classes


def request_rows(table, classes, replica=None):
    """(rank, time, is_write) of the data requests of a request table."""
    is_data = np.array([c in ("read", "write") for c in classes], dtype=bool)
    is_write = np.array([c == "write" for c in classes], dtype=bool)
    data = is_data[table["op"]]
    if replica is not None:
        data &= table["replica"] == replica
    rows = table[data]
    return rows["rank"], rows["time"], is_write[rows["op"]]


def load_requests(f):
    """[(name, attributes, panels, bin width)] of every synthesis under /requests, read and checked before anything
    is drawn: panels are (title, ranks, times, writes) of the trace (when stored) and of replica 0."""
    top = member(f, "requests", h5py.Group)
    if len(top) == 0:
        raise InputError("/requests holds no request synthesis")
    syntheses = []
    for name in top:
        group = member(top, name, h5py.Group)
        try:
            attrs = {k: (text(v) if isinstance(v, (bytes, str)) else v) for k, v in group.attrs.items()}
        except (OSError, TypeError, RuntimeError) as e:
            raise InputError(f"{group.name}: its attributes cannot be read ({e}): the file is damaged") from None
        panels = [("synthetic, replica 0", *request_rows(*request_table(group), 0))]
        if "characterized" in group and "sanitized" in member(group, "characterized", h5py.Group):
            sanitized = member(group["characterized"], "sanitized", h5py.Group)
            panels.insert(0, ("trace", *request_rows(*request_table(sanitized))))
        times = panels[-1][2]
        width = attribute(group, "bin_width") if "bin_width" in attrs else 0.0
        span = float(times.max() - min(times.min(), 0.0)) if times.size else 0.0
        if width < 0 or (width > 0 and span / width > 1e7):
            raise InputError(f"{group.name}: attribute 'bin_width' = {width:g} s is not a positive width that gives at "
                             f"most 10^7 bins over the {span:g} s of replica 0's requests")
        syntheses.append((name, attrs, panels, width))
    return syntheses


def plot_requests(name, attrs, panels, width, directory):
    """Rank x time of replica 0 beside the trace's requests, and data requests per bin."""
    fig, axes = plt.subplots(1, len(panels), figsize=(3.5 * len(panels), 2.8), squeeze=False)
    for axis, (title, ranks, times, writes) in zip(axes[0], panels):
        axis.scatter(times[~writes], ranks[~writes], s=4, marker="|", color="tab:blue", label="read")
        axis.scatter(times[writes], ranks[writes], s=4, marker="|", color="tab:red", label="write")
        axis.set_xlabel("time (s)")
        axis.set_ylabel("rank")
        axis.set_title(f"{name}: {title} ({len(times)} data requests)")
        axis.legend(loc="upper right", markerscale=3)
    images = {f"{name}: data requests by rank and time": save(fig, directory, f"requests_{name}_rank_time.png")}
    _, _, times, _ = panels[-1]
    first, last = (min(float(times.min()), 0.0), float(times.max())) if times.size else (0.0, 0.0)
    width = width or max((last - first) / 100, 1e-3)
    fig, axis = plt.subplots(figsize=(7, 2.4))
    edges = np.arange(np.floor(first / width) * width, last + 2 * width, width)
    axis.step(edges[:-1], np.histogram(times, edges)[0], where="post", label="synthetic, replica 0")
    axis.set_xlabel("time (s)")
    axis.set_ylabel(f"data requests per {width:g} s")
    axis.set_title(f"{name}: {attrs.get('timing', '')}")
    axis.legend()
    images[f"{name}: data requests per bin"] = save(fig, directory, f"requests_{name}_per_bin.png")
    rows = [[k, str(attrs[k])] for k in ("source", "mode", "processes", "replicas", "timing", "filled_bins",
                                          "dependency_violations", "seed", "stream") if k in attrs]
    return rows, images


def html_table(header, rows):
    out = ["<table><tr>" + "".join(f"<th>{html.escape(h)}</th>" for h in header) + "</tr>"]
    for r in rows:
        out.append("<tr>" + "".join(f"<td>{html.escape(str(c))}</td>" for c in r) + "</tr>")
    return "\n".join(out) + "</table>"


def md_text(text):
    """Text from the file (attributes, names, messages) as Markdown shows it: HTML in it is text, not markup (a
    Markdown viewer would render a <script> or an <img> an attribute holds), and a line break ends no paragraph."""
    return html.escape(str(text), quote=False).replace("\n", " ")


def md_table(header, rows):
    cell = lambda c: md_text(c).replace("|", "\\|")  # noqa: E731  # a | would split the cell
    out = ["| " + " | ".join(cell(h) for h in header) + " |", "|" + "---|" * len(header)]
    out += ["| " + " | ".join(cell(c) for c in r) + " |" for r in rows]
    return "\n".join(out)


def write_report(results, directory, quiet=False, stated=()):
    """Draws the report of RESULTS.h5 into directory and returns its warnings: the parts of /bursts that are missing
    or damaged, said on stderr and at the top of the page. What the report cannot do without is an error (exit 2,
    one line): a file that is not HDF5 or that HDF5 crashes on (report_checks.walk_in_child), request tables or a
    study missing or damaged, nothing at all to show. All of that is checked before the first progress line, so
    that a damaged file gives the one line alone. The drawing runs in a child of its own (draw_in_child)."""
    walk_in_child(results, fail)
    return draw_in_child(results, fail, lambda say: draw_report(results, directory, quiet, stated, say))


def draw_report(results, directory, quiet, stated, say):
    """write_report's checks and drawing, in the child; say(section) as each starts."""
    say("checks")
    try:
        f = h5py.File(results, "r")
    except OSError as e:
        fail(f"{results}: cannot open as an HDF5 file ({e})")
    warnings, sections = [], []  # sections: (title, paragraphs, tables [(caption, header, rows)], images [(caption, file)])
    with f:
        try:
            present = [group for group in ("compare", "requests", "replay", "bursts", "ensembles") if group in f]
        except (OSError, RuntimeError, ValueError) as e:
            fail(f"{results}: its root group cannot be read ({e}): the file is damaged")
        if not present:
            fail(f"{results}: no /compare, /requests, /replay, /bursts or /ensembles group; give a file that gpusynth, "
                 "gpusynth bursts or gpusynth replay wrote")
        try:
            syntheses = load_requests(f) if "requests" in f else []
        except InputError as e:
            fail(f"{results}: {e}; the report draws the request tables gpusynth writes (docs/requests.md)")
        try:
            if "compare" in f:
                check_study(f)
        except InputError as e:
            fail(f"{results}: the study under /compare cannot be drawn: {e}; the file is damaged or was not written "
                 "by gpusynth")
        except (KeyError, OSError, ValueError, TypeError, IndexError, RuntimeError) as e:
            fail(f"{results}: the study under /compare cannot be drawn: {e}; the file is damaged")
        try:
            analyses = burst_analyses(f, warnings.append) if "bursts" in f else []
        except InputError as e:
            warnings.append(f"the burst analyses are left out: {e}")
            analyses = []
        try:
            plain = plain_ensembles(f)
        except (KeyError, OSError, ValueError, TypeError, RuntimeError) as e:
            fail(f"{results}: /ensembles cannot be read ({e}): the file is damaged")
        if not ("compare" in present or syntheses or "replay" in present or analyses or plain):
            fail(f"{results}: nothing to report: {'; '.join(warnings) or 'no ensemble holds a series'}")
        datasets = len(Study(f).datasets) if "compare" in f else 0
        progress = Progress(2 + ("compare" in f) + datasets + len(syntheses) + ("replay" in f) + len(analyses)
                            + len(plain), quiet, say)
        notes = list(stated)  # the caveats gpusynth gave and those the run recorded, shown in their own box
        where = "the overview"
        try:
            progress.step("overview")
            try:
                sections += overview_sections(f, results)
                notes += caveats(f)
            except Exception as e:  # noqa: BLE001 (provenance: the report goes on without it, and says so)
                warnings.append(f"the overview is left out: {e}")
            if "compare" in f:
                where = "the study under /compare"
                study_sections(f, results, directory, sections, progress.step)
            for name, attrs, panels, width in syntheses:
                where = f"the requests of /requests/{name}"
                progress.step(f"requests {name}")
                rows, images = plot_requests(name, attrs, panels, width, directory)
                sections.append((f"Requests {name}", [], [("Synthesis", ["key", "value"], rows)], list(images.items())))
            if "replay" in f:
                where = "the replays under /replay"
                progress.step("replays")
                try:
                    sections += replay_sections(f, directory, warnings.append)
                except InputError as e:
                    warnings.append(f"the replays are left out: {e}")
            if analyses:
                where = "the burst analyses under /bursts"
                sections += burst_sections(f, directory, warnings.append, analyses, progress.step)
            if plain:
                where = "the ensembles under /ensembles"
                sections += ensemble_sections(f, directory, plain, warnings.append, progress.step)
            progress.step("index.html and report.md")
        except WriteError as e:
            progress.finish()
            fail(str(e))
        except MissingModule as e:
            progress.finish()
            fail_missing(e.module)
        except Interrupted:
            progress.finish()
            raise
        except Exception as e:  # noqa: BLE001 (past the checks: a damaged value they do not see; never a traceback)
            progress.finish()
            fail(f"{results}: {where} cannot be drawn ({type(e).__name__}: {e}); the file is damaged or was not "
                 "written by gpusynth")
    progress.finish()
    if not any(tables or images for title, _, tables, images in sections if title != "Overview"):  # results, not provenance
        fail(f"{results}: nothing to report: {'; '.join(warnings)}")
    for warning in warnings:
        print(f"gpusynth report: warning: {results}: {warning}", file=sys.stderr)
    try:
        write_pages(sections, warnings, notes, results, directory)
    except OSError as e:
        fail(str(WriteError(e.filename or directory, e)))
    return warnings


def study_sections(f, results, directory, sections, step=lambda label: None):
    step("study tables")
    study = Study(f)
    a = study.attrs
    interval = f"{100 * a['confidence']:g}% {a['interval_method']} bootstrap interval, {a['bootstrap_resamples']} resamples"
    intro = [f"Every cell is the median of a metric over the replicas with its {interval}."]
    for metric in study.metrics:
        intro.append(f"{metric}: {a.get('definition_' + metric, '')}")
    sections.append(("Study", intro, [], []))
    tables = []
    for metric in study.metrics:
        tables.append((f"{metric}: median [interval]", ["dataset"] + study.models,
                       table_rows(study, metric, cell)))
    tables.append((f"Matching degree by {study.rank_by} (3 best, 2 better than average, 1 average, 0 below; "
                   "? = its interval overlaps one of a model with another degree)",
                   ["dataset"] + study.models, table_rows(study, study.rank_by, degree_cell)))
    paired_rows = []
    for d in study.datasets:
        for p in study.compare[d]["paired"][()]:
            paired_rows.append([d, text(p["model_a"]), text(p["model_b"]),
                                f"{p['p_a_below_b']:.3f} [{p['ci_low']:.3f}, {p['ci_high']:.3f}]"])
    tables.append((f"P({study.rank_by} of A < B's) with its percentile interval",
                   ["dataset", "A", "B", "P(A < B)"], paired_rows))
    stopped = [[d, text(study.compare[d].attrs["stopped_models"])] for d in study.datasets
               if text(study.compare[d].attrs["stopped_models"])]
    if stopped:
        tables.append(("Models stopped by their validity checks", ["dataset", "models"], stopped))
    sections.append(("Tables", [a["matching_degree_rule"]], tables, []))
    for d in study.datasets:
        step(f"dataset {d}")
        plots = plot_dataset(f, study, d, directory)
        sections.append((f"Dataset {d}", [], [], list(plots.items())))


def write_pages(sections, warnings, notes, results, directory):
    md, body = ["# gpusynth report", ""], []
    if notes:  # what the results themselves warn of, before a reader trusts a figure
        heading = "Caveats recorded by the run"
        md += [f"## {heading}", ""] + [f"- **caveat**: {md_text(n)}" for n in notes] + [""]
        body.append(f"<div class='caveats'><h2>{html.escape(heading)}</h2><ul>"
                    + "".join(f"<li>caveat: {html.escape(n)}</li>" for n in notes) + "</ul></div>")
    if warnings:  # at the top, where a reader sees that something is missing before looking for it
        heading = f"Warnings: parts of {results} are missing or damaged and are left out of this report"
        md += [f"## {md_text(heading)}", ""] + [f"- **warning**: {md_text(w)}" for w in warnings] + [""]
        body.append(f"<div class='warnings'><h2>{html.escape(heading)}</h2><ul>"
                    + "".join(f"<li>warning: {html.escape(w)}</li>" for w in warnings) + "</ul></div>")
    for title, paragraphs, tabs, images in sections:
        md += [f"## {md_text(title)}", ""]
        body.append(f"<h2>{html.escape(title)}</h2>")
        for p in paragraphs:
            md += [md_text(p), ""]
            body.append(f"<p>{html.escape(p)}</p>")
        for caption, header, rows in tabs:
            md += [f"**{md_text(caption)}**", "", md_table(header, rows), ""]
            body.append(f"<h3>{html.escape(caption)}</h3>" + html_table(header, rows))
        for caption, name in images:
            md += [f"![{md_text(caption)}]({name})", ""]
            with open(os.path.join(directory, name), "rb") as image:
                data = base64.b64encode(image.read()).decode()
            body.append(f"<h3>{html.escape(caption)}</h3><img alt='{html.escape(caption)}' "
                        f"src='data:image/png;base64,{data}'>")
    with open(os.path.join(directory, "report.md"), "w") as out:
        out.write("\n".join(md))
    style = ("body{font-family:sans-serif;max-width:1200px;margin:auto} table{border-collapse:collapse;font-size:12px}"
             " td,th{border:1px solid #ccc;padding:3px 6px;text-align:right} img{max-width:100%}"
             " .warnings{border:2px solid #c00;background:#fee;padding:0 1em;margin:1em 0}"
             " .caveats{border:2px solid #c80;background:#fff6e0;padding:0 1em;margin:1em 0}")
    with open(os.path.join(directory, "index.html"), "w") as out:
        out.write(f"<!DOCTYPE html><html><head><meta charset='utf-8'><title>gpusynth report</title>"
                  f"<style>{style}</style></head><body><h1>gpusynth report</h1>{''.join(body)}</body></html>")


def file_kind(path):
    mode = os.stat(path).st_mode
    for test, kind in ((stat.S_ISCHR, "a character device"), (stat.S_ISBLK, "a block device"),
                       (stat.S_ISFIFO, "a FIFO (named pipe)"), (stat.S_ISSOCK, "a socket"), (stat.S_ISREG, "a file")):
        if test(mode):
            return kind
    return "not a directory"


# What marks a directory as a report gpusynth wrote (host/base/output_file.hpp): only such a one is replaced.
REPORT_MARKER = ".gpusynth-report"


def staging_directory(path):
    """By hand (without gpusynth): the target (links followed), checked as gpusynth checks it (report.cpp), and a
    new empty directory beside it, .NAME.tmp-HOST-PID, to draw into."""
    target = os.path.realpath(path)
    parent, name = os.path.split(target)
    if not name:
        fail(f"-o {path}: give a directory path, e.g. out/report")
    if not os.path.isdir(parent):
        fail(f"-o {path}: the directory '{parent}' does not exist; create it first or choose another path")
    if os.path.exists(target):
        if not os.path.isdir(target):
            fail(f"-o {path} is {file_kind(target)}; the report is a directory: give a new path or a directory that "
                 "holds a report")
        if os.listdir(target) and not os.path.isfile(os.path.join(target, REPORT_MARKER)):
            fail(f"-o {path}: exists and is not a report gpusynth wrote (no {REPORT_MARKER}); gpusynth replaces only "
                 "its own reports: choose another directory")
    host = re.sub(r"[^A-Za-z0-9.-]", "_", socket.gethostname()) or "localhost"
    staging = os.path.join(parent, f".{name}.tmp-{host}-{os.getpid()}")
    try:
        os.mkdir(staging)
    except OSError as e:
        fail(f"-o {path}: cannot create a directory in '{parent}': {e.strerror}")
    with open(os.path.join(staging, REPORT_MARKER), "w") as marker:  # as gpusynth marks its reports
        marker.write("a report gpusynth wrote; `gpusynth report -o` replaces it\n")
    return target, staging


def main():
    arguments = sys.argv[1:]
    quiet = "-q" in arguments or "--quiet" in arguments
    arguments = [a for a in arguments if a not in ("-q", "--quiet")]
    stated = []  # --caveat TEXT: what gpusynth found before the script ran (values of an older stream version)
    while arguments[:1] == ["--caveat"] and len(arguments) > 1:
        stated.append(arguments[1])
        arguments = arguments[2:]
    staged = arguments[:1] == ["--staged"]
    if staged:
        arguments = arguments[1:]
    if len(arguments) != 2:
        fail("usage: report.py [-q] [--caveat TEXT]... RESULTS.h5 DIR, or report.py [-q] [--caveat TEXT]... --staged "
             "RESULTS.h5 EMPTY_DIR (as gpusynth report runs it)")
    results, path = arguments
    if staged:  # gpusynth renames the directory into place on exit 0 and removes it otherwise
        write_report(results, path, quiet, stated)
        return
    target, staging = staging_directory(path)
    try:
        warnings = write_report(results, staging, quiet, stated)
        signal.signal(signal.SIGINT, signal.SIG_IGN)  # complete: a signal from here on no longer cancels it
        signal.signal(signal.SIGTERM, signal.SIG_IGN)
        if os.path.isdir(target):
            os.rename(target, staging + ".old")
            os.rename(staging, target)
            shutil.rmtree(staging + ".old")
        else:
            os.rename(staging, target)
    except BaseException:
        shutil.rmtree(staging, ignore_errors=True)
        raise
    print(f"wrote {path}/index.html ({len(os.listdir(target))} files"
          f"{f'; {len(warnings)} warning(s), at the top of the page' if warnings else ''})")


if __name__ == "__main__":
    try:
        main()
    except Interrupted as e:
        if "--staged" not in sys.argv[1:3]:  # gpusynth says it for the script it runs
            print(f"gpusynth report: interrupted by signal {e.signal}: nothing was written", file=sys.stderr)
        raise
