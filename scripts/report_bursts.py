"""The /bursts part of `gpusynth report` (docs/bursts.md): the Darshan burst paper's figures drawn
from what `gpusynth bursts` wrote, with the intervals the paper could not give.

sigma histogram (Fig. 4), run lengths beside the replicas' (Fig. 5), F1 against the horizon with
bootstrap bands and the replicas' band (Fig. 6-7), delay/runtime/total per alpha (Fig. 10) and their
CDFs (Fig. 11), and F1 trained with and without replicas.
"""
import os

import matplotlib.pyplot as plt
import numpy as np


def text(value):
    return value.decode() if isinstance(value, bytes) else str(value)


def save(fig, directory, name):
    fig.savefig(os.path.join(directory, name), dpi=110, bbox_inches="tight")
    plt.close(fig)
    return name


def names(group, key):
    return [n for n in text(group.attrs[key]).split(",") if n]


def monte_carlo_rows(g):
    """{ensemble: {figure: (real, mean, low, high, p)}}."""
    out = {}
    for ensemble, mc in g.get("monte_carlo", {}).items():
        s = mc["summary"][()]
        out[ensemble] = {text(r["figure"]): (r["real"], r["mean"], r["low"], r["high"], r["p_value"]) for r in s}
    return out


def plot_detection(g, name, directory, mc):
    images = {}
    counts = g["sigma_histogram"][()]
    step, first = g["sigma_histogram"].attrs["step_sigma"], g["sigma_histogram"].attrs["first_edge_sigma"]
    centres = first + step * (np.arange(len(counts)) + 0.5)
    fig, axis = plt.subplots(figsize=(7, 3.5))
    axis.bar(centres, np.maximum(counts, 1e-1), width=step, color="tab:blue")
    axis.axvline(g.attrs["k"], color="tab:red", linestyle="--", label=f"threshold: mean + {g.attrs['k']:.2f} sigma")
    axis.set_yscale("log")
    axis.set_ylim(bottom=0.5)
    axis.set_xlabel("(bytes per bin - mean) / sigma")
    axis.set_ylabel("bins")
    axis.legend()
    images[f"{name}: bins by distance from the mean in {step:g} sigma steps (paper Fig. 4)"] = save(
        fig, directory, f"bursts_{name}_sigma.png")

    runs = g["run_length_counts"][()]
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
    axis.legend(fontsize=8)
    images[f"{name}: lengths of burst runs, real and replicas (paper Fig. 5)"] = save(
        fig, directory, f"bursts_{name}_runs.png")
    return images


def plot_prediction(g, name, directory, mc, mc_predictors):
    if "prediction" not in g:
        return {}
    p = g["prediction"]
    minutes = p["horizon_minutes"][()]
    predictors = names(p, "predictors")
    images = {}
    for metric, label in (("f1", "F1"), ("average_precision", "average precision (PR-AUC)")):
        fig, axis = plt.subplots(figsize=(7, 4))
        for k, predictor in enumerate(predictors):
            value, low, high = p[metric][k], p[metric + "_low"][k], p[metric + "_high"][k]
            line, = axis.plot(minutes, value, marker="o", markersize=3, label=predictor)
            axis.fill_between(minutes, low, high, color=line.get_color(), alpha=0.15)
        if metric == "f1":
            for ensemble, rows in mc.items():
                for predictor in mc_predictors:
                    keys = [key for key in rows if key.startswith(f"f1/{predictor}/")]
                    if len(keys) != len(minutes):
                        continue
                    low = [rows[key][2] for key in keys]
                    high = [rows[key][3] for key in keys]
                    axis.fill_between(minutes, low, high, alpha=0.1, linestyle="--", edgecolor="gray",
                                      label=f"{predictor} on replicas of {ensemble}")
        axis.set_xlabel("horizon (min)")
        axis.set_ylabel(label)
        axis.set_ylim(0, 1)
        axis.legend(fontsize=7)
        images[f"{name}: {label} against the horizon, bootstrap bands (paper Fig. 6-7)"] = save(
            fig, directory, f"bursts_{name}_{metric}.png")
    return images


def plot_scheduling(g, name, directory):
    s = g["scheduling"]
    decisions, alphas = names(s, "decided_by"), s.attrs["alphas"]
    images = {}
    fig, axes = plt.subplots(1, 3, figsize=(13, 3.8), sharey=True)
    width = 0.8 / len(decisions)
    x = np.arange(len(alphas))
    for axis, metric in zip(axes, ("delay", "runtime", "total")):
        for k, decision in enumerate(decisions):
            value, low, high = s[metric][k], s[metric + "_low"][k], s[metric + "_high"][k]
            axis.bar(x - 0.4 + width * (k + 0.5), value, width=width, label=decision,
                     yerr=[np.maximum(value - low, 0), np.maximum(high - value, 0)], capsize=2)
        axis.set_xticks(x)
        axis.set_xticklabels([f"{a:g}" for a in alphas])
        axis.set_xlabel("alpha (1: start at once; 0: shortest runtime)")
        axis.set_title(f"mean {metric} (s)")
    axes[0].legend(fontsize=7)
    images[f"{name}: Algorithm 1, mean delay, runtime and total per alpha with intervals (paper Fig. 10)"] = save(
        fig, directory, f"bursts_{name}_schedule.png")
    per_window = s["per_window"]
    for decision in decisions:
        if "delay" not in per_window[decision]:
            continue
        fig, axes = plt.subplots(1, 3, figsize=(13, 3.5), sharey=True)
        for axis, metric in zip(axes, ("delay", "runtime", "total")):
            values = per_window[decision][metric][()]
            for k, alpha in enumerate(alphas):
                v = np.sort(values[k])
                axis.step(v, np.arange(1, len(v) + 1) / len(v), where="post", label=f"alpha {alpha:g}")
            axis.set_xlabel(f"{metric} (s)")
        axes[0].set_ylabel("CDF over the windows")
        axes[0].legend(fontsize=7)
        images[f"{name}: CDFs over the windows, decided by {decision} (paper Fig. 11)"] = save(
            fig, directory, f"bursts_{name}_cdf_{decision}.png")
    return images


def plot_augment(g, name, directory):
    images = {}
    for ensemble, a in g.get("augment", {}).items():
        minutes = a["horizon_minutes"][()]
        fig, axis = plt.subplots(figsize=(7, 3.5))
        for k, predictor in enumerate(names(a, "predictors")):
            axis.plot(minutes, a["f1_real_only"][k], marker="o", markersize=3, label=f"{predictor}, real bins only")
            axis.plot(minutes, a["f1_augmented"][k], marker="s", markersize=3,
                      label=f"{predictor}, + {a.attrs['replicas']} replicas")
            base = a["f1_real_only"][k]
            axis.fill_between(minutes, base + a["difference_low"][k], base + a["difference_high"][k], alpha=0.15,
                              label="real only + the difference's interval")
        axis.set_xlabel("horizon (min)")
        axis.set_ylabel("F1 on the real scored bins")
        axis.legend(fontsize=7)
        images[f"{name}: training with replicas of {ensemble}"] = save(fig, directory, f"bursts_{name}_augment_{ensemble}.png")
    return images


def burst_sections(f, directory):
    """(title, paragraphs, tables, images) per analysis under /bursts."""
    sections = []
    for name, g in f["bursts"].items():
        a = g.attrs
        paragraphs = []
        tables = []
        if "severity" in g:
            paragraphs.append(
                f"{a['bins']} bins of {a['bin_s']:g} s from dataset '{text(a['dataset'])}'; threshold "
                f"{a['threshold']:.6g} = mean + {a['k']:.3f} sigma ({text(a['detection'])}); {a['bursts']} burst bins "
                f"({100 * a['burst_share']:.2f} %), mean run {a['mean_run_length']:.2f} bins; features "
                f"{text(a['features'])} ({text(a['feature_names'])}).")
        if "prediction" in g:
            p = g["prediction"]
            paragraphs += [text(p.attrs["label_definition"]), text(p.attrs["split"]), text(p.attrs["threshold_rule"]),
                           text(p.attrs["intervals"])]
            predictors = names(p, "predictors")
            rows = []
            for h, minutes in enumerate(p["horizon_minutes"][()]):
                rows.append([f"{minutes:g}"] + [f"{p['f1'][k][h]:.3f} [{p['f1_low'][k][h]:.3f}, {p['f1_high'][k][h]:.3f}]"
                                                for k in range(len(predictors))])
            tables.append(("F1 [interval] on the scored bins", ["horizon (min)"] + predictors, rows))
        mc = monte_carlo_rows(g)
        mc_predictors = names(g["monte_carlo"], "predictors") if "monte_carlo" in g else []
        for ensemble, rows in mc.items():
            wanted = [k for k in rows if k in ("burst_share", "k", "mean_run_length", "run_length_share_1",
                                               "run_length_distance")
                      or k.startswith("runtime/perfect/") or k.endswith(("/5min", "/60min", "/120min"))]
            tables.append((f"Monte Carlo over the replicas of {ensemble}: real against the replicas",
                           ["figure", "real", "replicas' mean", "interval", "p"],
                           [[k, f"{rows[k][0]:.4g}", f"{rows[k][1]:.4g}", f"[{rows[k][2]:.4g}, {rows[k][3]:.4g}]",
                             f"{rows[k][4]:.3f}"] for k in wanted]))
        images = {}
        if "severity" in g:
            images.update(plot_detection(g, name, directory, mc))
            images.update(plot_prediction(g, name, directory, mc, mc_predictors))
            images.update(plot_scheduling(g, name, directory))
        images.update(plot_augment(g, name, directory))
        sections.append((f"Bursts {name}", paragraphs, tables, list(images.items())))
    return sections
