"""The ensembles of a run that no study compares (`gpusynth configs/quickstart.yaml` writes only those):
what each carries (model, size, values, workload mapping, marginal law, clipped and saturated bins) and,
from its first replicas, summary statistics, their sample paths (one panel per replica, each on its own
y scale: one shared scale shows nothing when one replica has a burst 100 times the others') and the CDF
of their values, with the units the file records (docs/hdf5.md: series@units, time)."""
import h5py
import numpy as np

from report_bursts import InputError, member, plt, save, text

PATHS_SHOWN = 4  # replicas drawn as sample paths
STATS_VALUES = 20_000_000  # values read for the statistics and the CDF, at most (16 replicas at most)
POINTS_DRAWN = 5000  # a longer path is drawn as its min/max envelope over this many buckets


def compared_ensembles(f):
    """The ensembles a study under /compare draws (its sample paths figure shows them)."""
    out = set()
    if "compare" not in f:
        return out
    for d in f["compare"].values():
        if isinstance(d, h5py.Group):
            for m in d.values():
                if isinstance(m, h5py.Group) and "ensemble" in m.attrs:
                    out.add(text(m.attrs["ensemble"]))
    return out


def plain_ensembles(f):
    """Names of the ensembles under /ensembles with a series that no study draws, in the file's order."""
    if "ensembles" not in f:
        return []
    compared = compared_ensembles(f)
    return [name for name, group in f["ensembles"].items()
            if name not in compared and isinstance(group, h5py.Group) and "series" in group]


def envelope(x, y, buckets=POINTS_DRAWN):
    """(x, low, high) per bucket: a path of a million bins drawn as what a pixel column shows."""
    if len(y) <= buckets:
        return x, y, y
    edges = np.linspace(0, len(y), buckets + 1).astype(int)
    return x[edges[:-1]], np.minimum.reduceat(y, edges[:-1]), np.maximum.reduceat(y, edges[:-1])


class Ensemble:
    def __init__(self, f, name):
        self.group = member(f["ensembles"], name, h5py.Group)
        self.name = name
        series = member(self.group, "series", h5py.Dataset)
        if series.ndim != 2 or series.dtype.kind not in "iuf":
            raise InputError(f"{series.name} is a {series.ndim}-dimensional {series.dtype} dataset, expected numbers "
                             "(replicas x bins)")
        self.replicas, self.length = series.shape
        if self.replicas == 0 or self.length == 0:
            raise InputError(f"{series.name} is empty ({self.replicas} x {self.length})")
        read = max(1, min(16, self.replicas, STATS_VALUES // self.length))
        try:
            self.values = series[:read].astype(float)
        except (OSError, ValueError, TypeError, RuntimeError) as e:
            raise InputError(f"{series.name} cannot be read ({e}): the file is damaged") from None
        self.unit = text(series.attrs.get("units", "value per bin"))
        self.time = None
        if "time" in self.group:
            time = self.group["time"]
            if isinstance(time, h5py.Dataset) and time.shape == (self.length,) and time.dtype.kind in "iuf":
                self.time = time[()].astype(float)
        self.attrs = {k: self.group.attrs[k] for k in self.group.attrs}

    def attr(self, key, default="-"):
        value = self.attrs.get(key, default)
        return text(value) if isinstance(value, (bytes, str)) else value

    def rows(self):
        v = self.values[np.isfinite(self.values)]
        clipped = self.attr("clipped_bins", None)
        share = (f"{clipped} ({100 * float(clipped) / (self.replicas * self.length):.2g} % of all bins)"
                 if isinstance(clipped, (int, float, np.integer, np.floating)) else "-")
        rows = [["model", self.attr("model")], ["replicas x bins", f"{self.replicas} x {self.length}"],
                ["values", f"{self.attr('values')} ({self.unit})"], ["mapping", self.attr("mapping")],
                ["workload v, delta", f"{self.attr('workload_v')}, {self.attr('workload_delta')}"]]
        if "marginal_law" in self.attrs or "law" in self.attrs:
            rows.append(["law", self.attr("marginal_law", self.attr("law"))])
        rows += [["clipped bins (negative values set to 0)", share],
                 ["saturated values", str(self.attr("saturated_values"))],
                 ["seed, stream", f"{self.attr('seed')}, {self.attr('stream')}"]]
        if v.size:
            read = len(self.values)
            rows.append([f"over replicas 0-{read - 1}: mean, median, 99th percentile, max ({self.unit})",
                         ", ".join(f"{x:.4g}" for x in (v.mean(), np.median(v), np.percentile(v, 99), v.max()))])
        return rows


def plot_paths(e, directory):
    shown = min(PATHS_SHOWN, len(e.values))
    fig, axes = plt.subplots(shown, 1, figsize=(7, 1.1 * shown + 0.7), sharex=True, squeeze=False)
    x = e.time if e.time is not None else np.arange(e.length, dtype=float)
    for k, axis in enumerate(axes[:, 0]):
        y = e.values[k]
        xs, low, high = envelope(x, y)
        if low is high:
            axis.plot(xs, y, color="tab:blue", lw=0.5)
        else:
            axis.fill_between(xs, low, high, color="tab:blue", edgecolor="tab:blue", lw=0.5, step="post")
        finite = y[np.isfinite(y)]
        if finite.size and finite.min() >= 0 and finite.max() > 20 * max(np.median(finite), 1):
            axis.set_yscale("symlog", linthresh=max(np.median(finite), 1))  # bursts and the body both in view
        axis.text(0.01, 0.85, f"replica {k}", transform=axis.transAxes, fontsize=7)
        axis.set_ylabel(e.unit if k == shown // 2 else "")
    axes[-1, 0].set_xlabel("time (s)" if e.time is not None else "bin (index)")
    fig.suptitle(f"{e.name}: replicas 0-{shown - 1}, each on its own y scale (symmetric log where a burst is 20 "
                 "times the median)"
                 + (" (min/max per pixel)" if e.length > POINTS_DRAWN else ""))
    fig.tight_layout()
    return save(fig, directory, f"ensemble_{e.name}_paths.png")


def plot_cdfs(ensembles, directory):
    fig, axis = plt.subplots(figsize=(7, 3))
    wide = False
    for e in ensembles:
        v = np.sort(e.values[np.isfinite(e.values)])
        if v.size:
            axis.step(v, np.arange(1, v.size + 1) / v.size, where="post", label=f"{e.name} ({e.unit})")
            wide = wide or (v[0] >= 0 and v[-1] > 100 * max(np.median(v), 1))
    if wide:
        axis.set_xscale("symlog", linthresh=1)
    units = sorted({e.unit for e in ensembles})
    axis.set_xlabel(units[0] if len(units) == 1 else "value (each ensemble's unit, in the legend)")
    axis.set_ylabel("cumulative fraction")
    axis.legend(loc="upper left", bbox_to_anchor=(1.01, 1), fontsize=7)
    axis.set_title("CDF of the values of each ensemble's first replicas")
    fig.tight_layout()
    return save(fig, directory, "ensembles_cdf.png")


def ensemble_sections(f, directory, names, warn, step):
    """(title, paragraphs, tables, images) of the ensembles `names`; one that cannot be read is warned about."""
    ensembles, tables, images = [], [], []
    for name in names:
        step(f"ensemble {name}")
        try:
            e = Ensemble(f, name)
        except InputError as error:
            warn(f"ensemble '{name}' is left out: {error}")
            continue
        ensembles.append(e)
        tables.append((f"Ensemble {name}", ["key", "value"], e.rows()))
        images.append((f"{name}: sample paths of its first replicas", plot_paths(e, directory)))
    if not ensembles:
        return []
    images.append(("The values of each ensemble's first replicas: CDF", plot_cdfs(ensembles, directory)))
    paragraph = ("Ensembles no study compares: what each records (docs/hdf5.md) and, from its first replicas, "
                 "statistics, sample paths and the CDF of the values.")
    return [("Ensembles", [paragraph], tables, images)]
