#!/usr/bin/python3
"""Checks the report's "Fitted models" table against the fits the results file records (issue 58 part 3,
item 1; tests/cli/report_test.sh):

    report_fits_check.py RESULTS.h5 REPORT_DIR/report.md

- the statistics (ln L, AIC, BIC, n) have columns of their own, each the file's value or "-" where the
  fit records none, and none of them is among the estimates;
- an estimate carries "±" exactly where the fit records a finite standard error (*_se, or
  *_se_row_major for a matrix), entry by entry for a list: no value is printed "x ± x";
- an estimate whose *_se_from says "profile" shows its *_profile_95 interval and says "profile";
- an empty list reads "none", never "ar = ;";
- rows come by dataset, and within a dataset in the order of the models in the study (its summary).
Exit 1 with one line per failure.
"""
import math
import re
import sys

import h5py
import numpy as np

STATISTICS = {"ln L": "log_likelihood", "AIC": "aic", "BIC": "bic", "n": "n"}
NOT_ESTIMATES = {"iterations", "starts", "starts_at_best", "start_log_likelihoods"}
AUXILIARY = ("_se", "_se_row_major", "_se_information", "_se_from", "_profile_95")


def text(v):
    return v.decode() if isinstance(v, bytes) else str(v)


def table(md):
    """(header, rows) of the Markdown table after the "Fitted models" caption."""
    lines = md.splitlines()
    start = next((k for k, line in enumerate(lines) if line.startswith("**Fitted models")), None)
    if start is None:
        return None, []
    rows = []
    for line in lines[start + 2:]:
        if not line.startswith("|"):
            break
        rows.append([c.strip() for c in re.split(r"(?<!\\)\|", line.strip())[1:-1]])
    return rows[0], [r for r in rows[2:]]


def finite(x):
    try:
        return math.isfinite(float(x))
    except (TypeError, ValueError):
        return False


def main():
    results, md_path = sys.argv[1:3]
    failures = []
    header, rows = table(open(md_path).read())
    if header is None:
        print(f"FAIL: {md_path} has no 'Fitted models' table")
        return 1
    for label in STATISTICS:
        if label not in header:
            failures.append(f"the table has no column '{label}' (its columns: {header})")
    if failures:
        print("\n".join(f"FAIL: {f}" for f in failures))
        return 1
    column = {label: header.index(label) for label in header}
    with h5py.File(results, "r") as f:
        summary = f["compare"]["summary"][()] if "compare" in f else None
        order = [text(m) for m in dict.fromkeys(summary["model"])] if summary is not None else []
        datasets = [text(d) for d in dict.fromkeys(summary["dataset"])] if summary is not None else []
        seen = []
        for row in rows:
            name = row[column["ensemble"]]
            fit = {k: (text(v) if isinstance(v, (bytes, str)) else v)
                   for k, v in f["ensembles"][name]["fit"].attrs.items()}
            model = text(f["ensembles"][name].attrs["model"])
            seen.append((name, model))
            pieces = row[column["estimates"]].split("; ")
            for label, key in STATISTICS.items():
                cell = row[column[label]]
                if key in fit and finite(fit[key]):
                    if not finite(cell) or abs(float(cell) - float(fit[key])) > 0.051 + 1e-6 * abs(float(fit[key])):
                        failures.append(f"{name}: column {label} reads '{cell}', the file's {key} is {fit[key]}")
                elif cell != "-":
                    failures.append(f"{name}: column {label} reads '{cell}' but the fit records no {key}")
                if any(p.startswith(f"{key} =") for p in pieces):
                    failures.append(f"{name}: the statistic {key} is among the estimates")
            for key, value in fit.items():
                if (isinstance(value, str) or key in NOT_ESTIMATES or key in STATISTICS.values()
                        or key.endswith(AUXILIARY)):
                    continue
                shown = key.replace("_row_major", "")
                piece = next((p for p in pieces if re.match(rf"{re.escape(shown)}( \(row-major\))? = ", p)), None)
                if piece is None:
                    failures.append(f"{name}: the estimate {key} is not in the table")
                    continue
                se = fit.get(f"{key}_se", fit.get(f"{shown}_se_row_major") if key.endswith("_row_major") else None)
                entries = np.atleast_1d(np.asarray(value, dtype=float))
                if re.search(r"= *(;|,|$)|\[\]", piece):
                    failures.append(f"{name}: '{piece}' shows nothing for {key}")
                if entries.size == 0:
                    if "none" not in piece:
                        failures.append(f"{name}: the empty list {key} reads '{piece}', not 'none'")
                    continue
                if text(fit.get(f"{key}_se_from", "")).startswith("profile"):
                    low, high = np.ravel(fit[f"{key}_profile_95"])
                    if "profile" not in piece or f"[{low:.4g}, {high:.4g}]" not in piece:
                        failures.append(f"{name}: {key}'s SE is from the profile likelihood; '{piece}' does not show "
                                        f"the interval [{low:.4g}, {high:.4g}] and say so")
                    continue
                errors = np.atleast_1d(np.asarray(se, dtype=float)) if se is not None else np.array([])
                wanted = sum(1 for k in range(min(entries.size, 12)) if k < errors.size and finite(errors[k]))
                if piece.count("±") != wanted:
                    failures.append(f"{name}: '{piece}' has {piece.count('±')} '±', the file gives {wanted} finite "
                                    f"standard error(s) for {key}")
        for d in datasets:
            models = [m for n, m in seen if n == f"{d}-{m}"]
            if models != [m for m in order if m in models]:
                failures.append(f"dataset {d}: the rows come in the order {models}, the study's is {order}")
        firsts = [next((k for k, (n, m) in enumerate(seen) if n == f"{d}-{m}"), None) for d in datasets]
        firsts = [k for k in firsts if k is not None]
        if firsts != sorted(firsts):
            failures.append(f"the datasets' rows are not in the study's order {datasets}")
    for failure in failures:
        print(f"FAIL: {failure}")
    if not failures:
        print(f"{md_path}: {len(rows)} fitted models, ± only where an SE is recorded, statistics in their columns")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
