#!/usr/bin/python3
"""Checks a report as a browser shows it (tests/cli/report_browser_test.sh):

    report_check.py REPORT_DIR DOM.html CHROMIUM.log SCREENSHOT.png [TEXT ...]

- Chromium logged no console error (an "Uncaught ..." or an error-level CONSOLE line);
- the DOM Chromium parsed holds one <img> per figure of the report (every NAME.png in REPORT_DIR),
  each embedded image decodes and is not blank (pixel variance), and each figure is also there as
  NAME.svg and NAME.pdf;
- the screenshot is not blank;
- every axis label of every SVG carries a unit (a parenthesized unit, "per ...", or a quantity that
  has none by nature: a fraction, a probability, a correlation, a rank, a count);
- each TEXT is in the page (e.g. a caveat the file records).
Exit 1 with one line per failure.
"""
import base64
import io
import os
import re
import sys
import xml.etree.ElementTree as ET

from PIL import Image, ImageStat

UNITLESS = re.compile(r"fraction|probability|autocorrelation|^rank$|^bins$|share of|F1|CDF|ratio|sigma\b|^run of")
UNIT = re.compile(r"\(.+\)|\bper\b|/s\b")
OFFSET = re.compile(r"[−+-]?[\d.]*(e[−+-]?\d+|×10\^?[−+-]?\d+)")  # an axis's scale factor ("1e6"): not a label


def variance(image):
    return max(ImageStat.Stat(image.convert("L")).var)


def axis_labels(svg_path):
    """The label of every axis of an SVG matplotlib wrote with svg.fonttype none."""
    ns = {"s": "http://www.w3.org/2000/svg"}
    labels = []
    for axis in ET.parse(svg_path).getroot().iter("{http://www.w3.org/2000/svg}g"):
        if not re.fullmatch(r"matplotlib\.axis_\d+", axis.get("id", "")):
            continue
        for child in axis.findall("s:g", ns):
            if re.match(r"[xy]tick_", child.get("id", "")):
                continue
            words = "".join(t.text or "" for t in child.iter("{http://www.w3.org/2000/svg}text")).strip()
            if words:
                labels.append(words)
    return labels


def main():
    directory, dom_path, log_path, shot_path, *texts = sys.argv[1:]
    failures = []
    log = open(log_path, errors="replace").read()
    for line in log.splitlines():
        if "CONSOLE" in line and ("Uncaught" in line or ":ERROR:" in line):
            failures.append(f"console error: {line[:200]}")
    dom = open(dom_path, errors="replace").read()
    embedded = re.findall(r'<img [^>]*src="data:image/png;base64,([^"]+)"', dom)
    figures = sorted(n for n in os.listdir(directory) if n.endswith(".png"))
    if len(embedded) != len(figures):
        failures.append(f"the page shows {len(embedded)} figures, the report has {len(figures)}: {figures}")
    for k, data in enumerate(embedded):
        try:
            image = Image.open(io.BytesIO(base64.b64decode(data)))
            image.load()
        except Exception as e:  # noqa: BLE001 (any decoding failure is the finding)
            failures.append(f"figure {k} of the page does not decode: {e}")
            continue
        if variance(image) < 10:
            failures.append(f"figure {k} of the page is blank (pixel variance {variance(image):.1f})")
    for name in figures:
        stem = os.path.join(directory, name[:-4])
        for kind in (".svg", ".pdf"):
            if not os.path.getsize(stem + kind) if os.path.exists(stem + kind) else True:
                failures.append(f"{name[:-4]}{kind} is missing or empty")
        if os.path.exists(stem + ".svg"):
            for label in axis_labels(stem + ".svg"):
                if not UNIT.search(label) and not UNITLESS.search(label) and not OFFSET.fullmatch(label):
                    failures.append(f"{name[:-4]}.svg: the axis label '{label}' has no unit")
    shot = Image.open(shot_path)
    if variance(shot) < 10:
        failures.append(f"the screenshot {shot_path} is blank")
    text = re.sub(r"<[^>]+>", " ", dom)
    for wanted in texts:
        if wanted not in text:
            failures.append(f"the page does not say '{wanted}'")
    for f in failures:
        print(f"FAIL: {f}")
    if not failures:
        print(f"{directory}: {len(embedded)} figures shown, none blank, every axis label with its unit")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
