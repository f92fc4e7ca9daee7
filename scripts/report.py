#!/usr/bin/python3
"""The report of a run: `gpusynth report RESULTS.h5 -o DIR` runs this.

Reads the /compare, /datasets and /ensembles groups that `gpusynth` wrote (docs/studies.md), and the
/requests groups (docs/requests.md: each synthesis's first replica beside the trace it came from, as
rank x time request plots and requests per bin) and the /bursts groups (docs/bursts.md, report_bursts.py:
the burst paper's figures with intervals), and writes DIR/index.html (tables and plots, the images
embedded, so the one file stands alone), DIR/report.md and the plots as PNGs:
CDFs of real vs synthetic with a replica band (the alpha-stable paper's
Fig. 5-6), QQ plots (Fig. 3-4), ACFs (Fig. 2), sample paths and the
per-replica error distributions. Written beside DIR and renamed on success.
"""
import base64
import html
import os
import shutil
import sys
import tempfile


def fail(message):
    """A user error: the message and exit code 2, as gpusynth's own."""
    print(f"gpusynth report: error: {message}", file=sys.stderr)
    sys.exit(2)


# The Debian packages of the modules the report draws with (scripts/debian-packages.txt).
REPORT_PACKAGES = {"h5py": "python3-h5py", "matplotlib": "python3-matplotlib", "numpy": "python3-numpy"}
try:
    import h5py
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    import numpy as np
except ImportError as missing:
    module = (missing.name or "").split(".")[0]
    package = REPORT_PACKAGES.get(module, "the package that provides it")
    fail(f"the report needs the Python module '{module}' for {sys.executable}, which is not installed; "
         f"install {package} (apt-get install {package})")

from report_bursts import burst_sections  # noqa: E402 (after the check that matplotlib is there)

BAND = (5, 95)  # percentiles of the replicas drawn as a band


def text(value):
    return value.decode() if isinstance(value, bytes) else str(value)


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


def save(fig, directory, name):
    path = os.path.join(directory, name)
    fig.savefig(path, dpi=110, bbox_inches="tight")
    plt.close(fig)
    return name


def replica_band(group, model, name):
    """The 5 %, 50 % and 95 % points over the replicas of a stored per-replica curve."""
    return np.nanpercentile(group[model][name][()], [BAND[0], 50, BAND[1]], axis=0)


def plot_dataset(f, study, dataset, directory):
    group = study.compare[dataset]
    real = f["datasets"][dataset]["series"][()]
    levels = group["real_quantiles"].attrs["levels"]
    real_q = group["real_quantiles"][()]
    real_acf = group["real_acf"][()]
    models = [m for m in study.models if m in group]
    colors = plt.rcParams["axes.prop_cycle"].by_key()["color"]
    plots = {}

    fig, ax = plt.subplots(figsize=(7, 4.5))
    xs = np.sort(real)
    ax.step(xs, np.arange(1, len(xs) + 1) / len(xs), where="post", color="black", lw=2, label="real")
    for i, m in enumerate(models):
        lo, mid, hi = replica_band(group, m, "replica_quantiles")
        c = colors[i % len(colors)]
        ax.fill_betweenx(levels, lo, hi, color=c, alpha=0.2)
        ax.plot(mid, levels, color=c, label=f"{m} (median, {BAND[0]}-{BAND[1]}% band)")
    if xs.min() > 0 and xs.max() / xs.min() > 100:
        ax.set_xscale("log")
    elif xs.min() >= 0 and xs.max() > 100:
        ax.set_xscale("symlog", linthresh=1)
    ax.set_xlabel("value per bin")
    ax.set_ylabel("cumulative fraction")
    ax.set_title(f"{dataset}: CDF of real vs synthetic")
    ax.legend(fontsize=7)
    plots["CDF"] = save(fig, directory, f"cdf_{dataset}.png")

    fig, ax = plt.subplots(figsize=(5.5, 5.5))
    for i, m in enumerate(models):
        lo, mid, hi = replica_band(group, m, "replica_quantiles")
        c = colors[i % len(colors)]
        ax.fill_between(real_q, lo, hi, color=c, alpha=0.2)
        ax.plot(real_q, mid, "o", ms=3, color=c, label=m)
    span = [np.nanmin(real_q), np.nanmax(real_q)]
    ax.plot(span, span, color="black", lw=1, label="y = x")
    if span[0] >= 0 and span[1] > 100:
        ax.set_xscale("symlog", linthresh=1)
        ax.set_yscale("symlog", linthresh=1)
    ax.set_xlabel("real quantile")
    ax.set_ylabel("synthetic quantile (median over replicas)")
    ax.set_title(f"{dataset}: QQ plot, p = 0, 0.01, ..., 1")
    ax.legend(fontsize=7)
    plots["QQ"] = save(fig, directory, f"qq_{dataset}.png")

    fig, ax = plt.subplots(figsize=(7, 4.5))
    lags = np.arange(len(real_acf))
    ax.plot(lags, real_acf, color="black", lw=2, label="real")
    for i, m in enumerate(models):
        lo, mid, hi = replica_band(group, m, "replica_acf")
        c = colors[i % len(colors)]
        ax.fill_between(lags, lo, hi, color=c, alpha=0.2)
        ax.plot(lags, mid, color=c, label=m)
    ax.axhline(0, color="grey", lw=0.5)
    ax.set_xlabel("lag (bins)")
    ax.set_ylabel("autocorrelation")
    ax.set_title(f"{dataset}: ACF, median and {BAND[0]}-{BAND[1]}% band of the replicas")
    ax.legend(fontsize=7)
    plots["ACF"] = save(fig, directory, f"acf_{dataset}.png")

    fig, axes = plt.subplots(len(models) + 1, 1, figsize=(8, 1.6 * (len(models) + 1)), sharex=True)
    axes = np.atleast_1d(axes)
    axes[0].plot(real, color="black", lw=0.6)
    axes[0].set_ylabel("real", fontsize=8)
    for i, m in enumerate(models):
        ensemble = text(group[m].attrs["ensemble"])
        ax = axes[i + 1]
        series = f["ensembles"].get(ensemble, {}).get("series") if ensemble in f["ensembles"] else None
        if series is not None and series.shape[0] > 0:
            ax.plot(series[0, :], color=colors[i % len(colors)], lw=0.6)
        ax.set_ylabel(m, fontsize=8)
    axes[-1].set_xlabel("bin")
    axes[0].set_title(f"{dataset}: the real series and replica 0 of each model")
    plots["Sample paths"] = save(fig, directory, f"paths_{dataset}.png")

    metrics = study.metrics
    fig, axes = plt.subplots(1, len(metrics), figsize=(3.2 * len(metrics), 3.8))
    axes = np.atleast_1d(axes)
    for ax, metric in zip(axes, metrics):
        data = []
        for m in models:
            v = group[m][metric][()]
            data.append(v[np.isfinite(v)])
        ax.boxplot(data, labels=models, showfliers=False)
        ax.set_title(metric, fontsize=9)
        ax.tick_params(axis="x", labelrotation=45, labelsize=7)
        if metric in ("hurst",):
            ax.axhline(0, color="grey", lw=0.5)
        if metric.endswith("_ratio"):
            ax.axhline(1, color="grey", lw=0.5)
    fig.suptitle(f"{dataset}: per-replica metrics (boxes: quartiles; whiskers: 1.5 IQR)")
    fig.tight_layout()
    plots["Per-replica metrics"] = save(fig, directory, f"metrics_{dataset}.png")
    return plots


def request_rows(group, replica=None):
    """(rank, time, is_write) of the data requests of a request table group."""
    table = group["requests"][()]
    classes = [text(c) for c in group["ops"]["class"][()]]
    data = np.array([classes[o] in ("read", "write") for o in table["op"]], dtype=bool)
    if replica is not None:
        data &= table["replica"] == replica
    rows = table[data]
    writes = np.array([classes[o] == "write" for o in rows["op"]], dtype=bool)
    return rows["rank"], rows["time"], writes


def plot_requests(f, name, directory):
    """Rank x time of replica 0 beside the trace's requests, and data requests per bin."""
    group = f["requests"][name]
    attrs = {k: (text(v) if isinstance(v, (bytes, str)) else v) for k, v in group.attrs.items()}
    panels = [("synthetic, replica 0", group, 0)]
    if "characterized" in group and "sanitized" in group["characterized"]:
        panels.insert(0, ("trace", group["characterized"]["sanitized"], None))
    fig, axes = plt.subplots(1, len(panels), figsize=(6 * len(panels), 4.2), squeeze=False)
    for axis, (title, g, replica) in zip(axes[0], panels):
        ranks, times, writes = request_rows(g, replica)
        axis.scatter(times[~writes], ranks[~writes], s=4, marker="|", color="tab:blue", label="read")
        axis.scatter(times[writes], ranks[writes], s=4, marker="|", color="tab:red", label="write")
        axis.set_xlabel("time (s)")
        axis.set_ylabel("rank")
        axis.set_title(f"{name}: {title} ({len(times)} data requests)")
        axis.legend(loc="upper right", markerscale=3)
    images = {f"{name}: data requests by rank and time": save(fig, directory, f"requests_{name}_rank_time.png")}
    ranks, times, _ = request_rows(group, 0)
    width = float(attrs.get("bin_width", 0)) or max(times.max() / 100, 1e-3)
    fig, axis = plt.subplots(figsize=(8, 3.2))
    edges = np.arange(0, times.max() + 2 * width, width)
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


def md_table(header, rows):
    out = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    out += ["| " + " | ".join(str(c) for c in r) + " |" for r in rows]
    return "\n".join(out)


def write_report(results, directory):
    with h5py.File(results, "r") as f:
        if "compare" not in f and "requests" not in f and "bursts" not in f:
            fail(f"{results}: no /compare, /requests or /bursts group; run a config with a 'compare:', 'requests:' or "
                 "'bursts:' block first")
        sections = []  # (title, paragraphs, tables [(header, rows)], images [(caption, file)])
        if "compare" in f:
            study_sections(f, results, directory, sections)
        for name in f.get("requests", {}):
            rows, images = plot_requests(f, name, directory)
            sections.append((f"Requests {name}", [], [("Synthesis", ["key", "value"], rows)], list(images.items())))
        if "bursts" in f:
            sections += burst_sections(f, directory)
    write_pages(sections, directory)


def study_sections(f, results, directory, sections):
    study = Study(f)
    a = study.attrs
    interval = f"{100 * a['confidence']:g}% {a['interval_method']} bootstrap interval, {a['bootstrap_resamples']} resamples"
    intro = [
        f"Results file: {os.path.abspath(results)} (gpusynth {text(f.attrs.get('gpusynth_version', '?'))}, "
        f"created {text(f.attrs.get('created_utc', '?'))}, seed {f.attrs.get('seed', '?')}, backend "
        f"{text(f.attrs.get('backend', '?'))}).",
        f"Every cell is the median of a metric over the replicas with its {interval}.",
    ]
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
        plots = plot_dataset(f, study, d, directory)
        sections.append((f"Dataset {d}", [], [], list(plots.items())))


def write_pages(sections, directory):
    md, body = ["# gpusynth report", ""], []
    for title, paragraphs, tabs, images in sections:
        md += [f"## {title}", ""]
        body.append(f"<h2>{html.escape(title)}</h2>")
        for p in paragraphs:
            md += [p, ""]
            body.append(f"<p>{html.escape(p)}</p>")
        for caption, header, rows in tabs:
            md += [f"**{caption}**", "", md_table(header, rows), ""]
            body.append(f"<h3>{html.escape(caption)}</h3>" + html_table(header, rows))
        for caption, name in images:
            md += [f"![{caption}]({name})", ""]
            with open(os.path.join(directory, name), "rb") as image:
                data = base64.b64encode(image.read()).decode()
            body.append(f"<h3>{html.escape(caption)}</h3><img alt='{html.escape(caption)}' "
                        f"src='data:image/png;base64,{data}'>")
    with open(os.path.join(directory, "report.md"), "w") as out:
        out.write("\n".join(md))
    style = ("body{font-family:sans-serif;max-width:1200px;margin:auto} table{border-collapse:collapse;font-size:12px}"
             " td,th{border:1px solid #ccc;padding:3px 6px;text-align:right} img{max-width:100%}")
    with open(os.path.join(directory, "index.html"), "w") as out:
        out.write(f"<!DOCTYPE html><html><head><meta charset='utf-8'><title>gpusynth report</title>"
                  f"<style>{style}</style></head><body><h1>gpusynth report</h1>{''.join(body)}</body></html>")


def main():
    if len(sys.argv) != 3:
        fail("usage: report.py RESULTS.h5 DIR")
    results, target = sys.argv[1], os.path.abspath(sys.argv[2])
    parent = os.path.dirname(target)
    if not os.path.isdir(parent):
        fail(f"-o {sys.argv[2]}: the directory '{parent}' does not exist")
    if os.path.exists(target) and not os.path.isfile(os.path.join(target, "index.html")) and os.listdir(target):
        fail(f"-o {sys.argv[2]}: exists and is not a gpusynth report; choose another directory")
    temp = tempfile.mkdtemp(prefix=f".{os.path.basename(target)}.tmp-", dir=parent)
    try:
        write_report(results, temp)
        if os.path.exists(target):
            shutil.rmtree(target)
        os.rename(temp, target)
        os.chmod(target, 0o755)
    except BaseException:
        shutil.rmtree(temp, ignore_errors=True)
        raise
    print(f"wrote {target}/index.html ({len(os.listdir(target))} files)")


if __name__ == "__main__":
    main()
