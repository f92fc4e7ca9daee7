"""The /replay part of `gpusynth report` (docs/requests.md, "Replay fidelity"): for each replayed
requests entry, throughput over time (the original's replays against the replicas' 5-95 % band), the
file data operation ratio (a mean per coarse bin) and the arrival rate over time, one legend outside the data, the latency CDFs of every replay, and the
tables of whole-replay figures (replay errors with their intervals and the system's own) and of the
fidelity measures (band coverage, KS distances against their noise floors). A part whose data is
missing or damaged is left out with a warning naming the object in the file.
"""
import math
import warnings

import h5py
import numpy as np

from report_bursts import InputError, attribute, legend_outside, member, plt, save, values

MIB = 2.0 ** 20
RATIO_BINS = 40  # the data operation ratio's coarse bins: most fine bins of a sparse replay have no operation


def fmt(x, digits=4):
    return "n/a" if not math.isfinite(x) else f"{x:.{digits}g}"


def pct(x):
    return "n/a" if not math.isfinite(x) else f"{100 * x:.1f} %"


def pct_interval(x, low, high):
    return f"{pct(x)} [{pct(low)}, {pct(high)}]"


def matrix(g, name, rows):
    m = values(g, name)
    if m.ndim != 2 or m.shape[0] != rows:
        raise InputError(f"{g.name}/{name} has shape {m.shape}, expected ({rows}, bins)")
    return m


def band_plot(axis, time, original, synthetic, scale, label_replicas):
    """The replicas' pointwise 5-95 % band and mean, the original's replays over it."""
    with warnings.catch_warnings():  # a bin where no replica ran an operation has no ratio: drawn as a gap
        warnings.simplefilter("ignore", RuntimeWarning)
        low = np.nanpercentile(synthetic, 5, axis=0) * scale
        high = np.nanpercentile(synthetic, 95, axis=0) * scale
        mean = np.nanmean(synthetic, axis=0) * scale
    axis.fill_between(time, low, high, step="post", color="tab:orange", alpha=0.35, lw=0, label=label_replicas)
    axis.step(time, mean, where="post", color="tab:orange", lw=1, label="replicas' mean")
    for i, row in enumerate(original):
        axis.step(time, row * scale, where="post", color="black", lw=1, ls="-" if i == 0 else ":",
                  label="original" if i == 0 else "original, replay 2")


def binned_mean(m, k):
    """Each row's mean over consecutive groups of k bins, bins without a value left out (NaN where a group has
    none): a ratio defined only in the few bins that ran an operation becomes a curve, not scattered points."""
    rows, bins = m.shape
    padded = np.full((rows, -(-bins // k) * k), np.nan)
    padded[:, :bins] = m
    with warnings.catch_warnings():  # a group without any value is NaN, drawn as a gap
        warnings.simplefilter("ignore", RuntimeWarning)
        return np.nanmean(padded.reshape(rows, -1, k), axis=2)


def draw(name, g, directory):
    originals = int(attribute(g, "original_replays"))
    replicas = int(attribute(g, "replicas"))
    width = attribute(g, "bin_seconds")
    time = values(g, "time")
    band = f"replicas' 5-95 % band ({replicas} replicas)"
    images = {}
    fig, axes = plt.subplots(4, 1, figsize=(7, 8.5), sharex=True)
    original_throughput = matrix(g, "original_throughput", originals)
    band_plot(axes[0], time, original_throughput, matrix(g, "synthetic_throughput", replicas), 1 / MIB, band)
    axes[0].set_ylabel("throughput (MiB/s)")
    axes[0].set_title(f"{name}: replayed by fio, bins of {width * 1e3:g} ms")
    k = max(1, -(-len(time) // RATIO_BINS))
    band_plot(axes[1], time[::k], binned_mean(matrix(g, "original_data_operation_ratio", originals), k),
              binned_mean(matrix(g, "synthetic_data_operation_ratio", replicas), k), 1, band)
    axes[1].set_ylabel(f"file data operation ratio,\nmean per {k * width:g} s")
    axes[1].set_ylim(-0.02, 1.02)
    band_plot(axes[2], time, matrix(g, "original_arrival_rate", originals), matrix(g, "synthetic_arrival_rate", replicas),
              1, band)
    axes[2].set_ylabel("data requests issued per s")
    axes[3].fill_between(time, values(g, "cumulative_band_low") / MIB, values(g, "cumulative_band_high") / MIB,
                         step="post", color="tab:orange", alpha=0.35, lw=0, label=band)
    for i, row in enumerate(original_throughput):
        axes[3].step(time, np.cumsum(row * width) / MIB, where="post", color="black", ls="-" if i == 0 else ":",
                     label="original" if i == 0 else "original, replay 2")
    axes[3].set_ylabel("bytes done (MiB)")
    axes[3].set_xlabel("time since the replay's start (s)")
    legend_outside(axes[0], fontsize=8)  # every panel draws its figures the same way: one legend
    fig.tight_layout()
    images[f"{name}: throughput, data operation ratio, arrival rate and bytes done over time"] = save(
        fig, directory, f"replay_{name}_over_time.png")
    probability = values(g, "probability")
    fig, axis = plt.subplots(figsize=(3.5, 2.6))
    for row in matrix(g, "synthetic_latency_quantiles", replicas):
        axis.step(row * 1e6, probability, where="post", color="tab:orange", alpha=0.5, lw=0.8)
    axis.plot([], [], color="tab:orange", label=f"replicas ({replicas})")
    for i, row in enumerate(matrix(g, "original_latency_quantiles", originals)):
        axis.step(row * 1e6, probability, where="post", color="black", ls="-" if i == 0 else ":",
                  label="original" if i == 0 else "original, replay 2")
    axis.set_xscale("log")
    axis.set_xlabel("request latency, issue to completion (µs)")
    axis.set_ylabel("cumulative probability")
    axis.set_title(f"{name}: latency of the data requests")
    legend_outside(axis, fontsize=8)
    images[f"{name}: latency CDFs"] = save(fig, directory, f"replay_{name}_latency.png")
    return images


# A figure's unit as the figures over time show it, and the factor from the file's unit to it.
SHOWN = {"B": ("MiB", MIB), "B/s": ("MiB/s", MIB), "s": ("µs", 1e-6)}


def figure_rows(g):
    table = values(g, "figures", ("figure", "unit", "original", "original_again", "synthetic_mean", "synthetic_low",
                                  "synthetic_high", "replay_error", "replay_error_low", "replay_error_high",
                                  "noise_error"), ndim=1)
    ranked = "original_rank" in table.dtype.names  # files of versions before 0.2.0 lack it
    replicas = int(attribute(g, "replicas", undefined=True)) if "replicas" in g.attrs else 0
    rows = []
    for r in table:
        figure, unit = r["figure"].decode(), r["unit"].decode()
        # The run time stays in s; the latencies go to µs, bytes to MiB (as the CLI's table).
        shown, per = SHOWN.get(unit, (unit, 1.0)) if figure != "run_time" else (unit, 1.0)
        v = lambda key: fmt(r[key] / per)  # noqa: E731
        rows.append([figure, shown, v("original"), v("original_again"),
                     f"{v('synthetic_mean')} [{v('synthetic_low')}, {v('synthetic_high')}]",
                     pct_interval(r["replay_error"], r["replay_error_low"], r["replay_error_high"]),
                     pct(r["noise_error"]), within_own_noise(r["replay_error"], r["replay_error_low"], r["noise_error"]),
                     f"{fmt(r['original_rank'])}/{replicas + 1}" if ranked else "n/a"])
    return rows


def within_own_noise(error, low, noise):
    """estimators/replay_fidelity.cpp's within_own_noise: the error interval reaches down into the noise."""
    if not (math.isfinite(noise) and math.isfinite(error)):
        return "n/a"
    return "yes" if low <= noise else "no"


def fidelity_rows(g):
    a = lambda key: attribute(g, key, undefined=True)  # noqa: E731  # n/a where the run had too few replays
    replayer = []
    if "replayer_run_time_error" in g.attrs:  # files of versions before 2026-11-28 lack it
        replayer = [["the replayer (//TRACE's figure): the original's replay against the traced run, run time",
                     pct(a("replayer_run_time_error")), f"the traced run: {fmt(a('trace_run_time'))} s; goal 6 %"],
                    ["the same, throughput", pct(a("replayer_throughput_error")),
                     f"the traced run: {fmt(a('trace_throughput') / MIB)} MiB/s; goal 6 %"]]
    # The busy bins and the bytes done first: on a sparse trace the idle bins lie inside any band holding 0.
    return replayer + [
            [f"band coverage of its {int(a('busy_bins'))} busy bins (where it moved data)",
             pct_interval(a("busy_coverage"), a("busy_coverage_low"), a("busy_coverage_high")), "goal 90 %"],
            ["band coverage of the bytes done by each bin's end",
             pct_interval(a("cumulative_coverage"), a("cumulative_coverage_low"), a("cumulative_coverage_high")),
             "goal 90 %"],
            ["band coverage of all the original's bins, idle ones included",
             pct_interval(a("coverage"), a("coverage_low"), a("coverage_high")),
             f"a replica among the others: {pct(a('replica_coverage'))}; the original's second replay: "
             f"{pct(a('original_again_coverage'))}"],
            ["KS distance, throughput per bin", f"{fmt(a('ks_throughput'), 3)} [{fmt(a('ks_throughput_low'), 3)}, "
                                                 f"{fmt(a('ks_throughput_high'), 3)}]",
             f"original against itself: {fmt(a('ks_throughput_floor'), 3)}"],
            ["KS distance, request latency", f"{fmt(a('ks_latency'), 3)} [{fmt(a('ks_latency_low'), 3)}, "
                                              f"{fmt(a('ks_latency_high'), 3)}]",
             f"original against itself: {fmt(a('ks_latency_floor'), 3)}"]] + exchangeability_rows(g)


def exchangeability_rows(g):
    """The original as one more replica (files of versions before 0.2.0 lack it)."""
    if "exchangeable" not in g.attrs:
        return []
    a = lambda key: attribute(g, key, undefined=True)  # noqa: E731
    return [["the original as one more replica: KS throughput per bin, median over the replicas",
             fmt(a("ks_throughput_median"), 3),
             f"between two replicas: 95th percentile {fmt(a('ks_throughput_replicas_p95'), 3)}, median "
             f"{fmt(a('ks_throughput_replicas_median'), 3)} ({int(a('ks_throughput_replica_pairs'))} pairs); "
             f"between the original's two replays: {fmt(a('ks_throughput_floor'), 3)}; "
             f"exchangeable: {attribute(g, 'exchangeable', str)}"]]


def replay_sections(f, directory, warn):
    """(title, paragraphs, tables, images) per replayed entry under /replay."""
    top = member(f, "replay", h5py.Group)
    sections = []
    for name in top:
        try:
            g = member(top, name, h5py.Group)
            paragraphs = [f"Replayed in {attribute(g, 'target', str)} by {attribute(g, 'fio', str)} "
                          f"(options: {attribute(g, 'fio_options', str) or 'none'}; replicas only: "
                          f"{attribute(g, 'synthetic_fio_options', str) or 'none'}). Original: "
                          f"{attribute(g, 'original', str)}. Measured {attribute(g, 'measured', str)}."]
            if "filesystem_type" in g.attrs:  # files of versions before 2026-11-28 lack it
                paragraphs.append(f"The target's file system: {attribute(g, 'filesystem_type', str)} on "
                                  f"{attribute(g, 'filesystem_device', str)}, mounted at "
                                  f"{attribute(g, 'filesystem_mount_point', str)} with "
                                  f"{attribute(g, 'filesystem_mount_options', str)}: the figures are this system's.")
            tables = [("Whole replays: the replicas' mean and replay error |synthetic - original| / original with "
                       "95 % bootstrap intervals; 'own': the original's second replay against its first; 'in "
                       "own': whether the replay error's interval reaches down into it; 'rank': the original's "
                       "among itself and the replicas (1 the smallest)",
                       ["figure", "unit", "original", "again", "replicas: mean [95 %]", "replay error [95 %]", "own",
                        "in own", "rank"],
                       figure_rows(g)),
                      ("Fidelity (the noise floor: the original against its own second replay)",
                       ["measure", "value [95 %]", "reference"], fidelity_rows(g))]
            images = draw(name, g, directory)
        except (InputError, KeyError, OSError, ValueError) as e:
            warn(f"replay '{name}' is left out: {e}")
            continue
        sections.append((f"Replay {name}", paragraphs, tables, list(images.items())))
    return sections
