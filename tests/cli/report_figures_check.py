#!/usr/bin/python3
"""Checks the figures of a report as a reviewer would (issue 58 part 3, items 3 and 6;
tests/cli/report_test.sh), from the SVGs matplotlib wrote (text kept as text):

    report_figures_check.py REPORT_DIR [PREFIX]

(PREFIX: only the figures whose names begin with it.)

- legends outside the data: in the burst analyses' figures (bursts_*), the study's small
  multiples (cdf_*, qq_*, acf_*) and per-replica metrics (metrics_*) and the replay's figures
  (replay_*), no legend's box overlaps the data area of any panel;
- Algorithm 1's figure (bursts_*_schedule) has one x-axis label for its panels and a title;
- the study's sample paths (paths_*: the real series above each model's replica 0, whose ranges
  differ) are drawn each on its own y scale: the panels' y tick labels are not all the same.
Exit 1 with one line per failure.
"""
import os
import re
import sys
import xml.etree.ElementTree as ET

SVG = "{http://www.w3.org/2000/svg}"
NUMBER = re.compile(r"-?\d+(?:\.\d+)?(?:e-?\d+)?")


def box(group):
    """(x0, y0, x1, y1) of the first patch path in a group: an axes' data area or a legend's frame."""
    for g in group.iter(f"{SVG}g"):
        if g.get("id", "").startswith("patch_"):
            path = g.find(f"{SVG}path")
            if path is not None and path.get("d"):
                values = [float(v) for v in NUMBER.findall(path.get("d"))]
                xs, ys = values[0::2], values[1::2]
                return min(xs), min(ys), max(xs), max(ys)
    return None


def overlap(a, b):
    return a[0] < b[2] - 0.5 and b[0] < a[2] - 0.5 and a[1] < b[3] - 0.5 and b[1] < a[3] - 0.5


def texts(group):
    return ["".join(t.itertext()).strip() for t in group.iter(f"{SVG}text")]


def main():
    directory, prefix = sys.argv[1], sys.argv[2] if len(sys.argv) > 2 else ""
    failures, checked = [], 0
    for name in sorted(os.listdir(directory)):
        if not name.endswith(".svg") or not name.startswith(prefix):
            continue
        root = ET.parse(os.path.join(directory, name)).getroot()
        groups = list(root.iter(f"{SVG}g"))
        axes = [g for g in groups if re.fullmatch(r"axes_\d+", g.get("id", ""))]
        if re.match(r"(bursts_|cdf_|qq_|acf_|metrics_|replay_)", name):
            checked += 1
            areas = [b for b in (box(a) for a in axes) if b]
            for legend in (g for g in groups if re.fullmatch(r"legend_\d+", g.get("id", ""))):
                frame = box(legend)
                if frame and any(overlap(frame, area) for area in areas):
                    failures.append(f"{name}: {legend.get('id')} lies over the data of a panel")
        if re.search(r"_schedule\.svg$", name):
            labels = [t for t in texts(root) if t.startswith("alpha (")]
            if len(labels) != 1:
                failures.append(f"{name}: {len(labels)} x-axis labels 'alpha (...)', expected one for its panels")
            if not any("Algorithm 1" in t for t in texts(root)):
                failures.append(f"{name}: no title naming Algorithm 1")
        if name.startswith("paths_") and len(axes) > 1:
            checked += 1
            ticks = []
            for a in axes:
                ys = [g for g in a.iter(f"{SVG}g") if g.get("id", "").startswith("ytick_")]
                ticks.append(tuple(t for g in ys for t in texts(g)))
            if len(set(ticks)) == 1:
                failures.append(f"{name}: every panel has the y ticks {ticks[0]}: one shared scale")
    for failure in failures:
        print(f"FAIL: {failure}")
    if not failures:
        print(f"{directory}: {checked} figures checked: legends outside the data, own y scales, one x label")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
