"""The checks of a request table read from gpusynth's HDF5 (docs/requests.md) that scripts/replay_check.py
and scripts/report.py share: the type of each column read, operations inside the table of classes, finite
times."""
import numpy as np


def request_table_problem(table, fields, classes, where):
    """What is wrong with `table` (a structured array of requests, the `fields` read of it) whose op column
    indexes `classes`, as a message naming `where` (the group), or None."""
    for field in fields:
        if table.dtype[field].kind not in ("iuf" if field == "time" else "iu"):
            return (f"{where}/requests: field '{field}' holds {table.dtype[field]}, not "
                    f"{'numbers' if field == 'time' else 'integers'}")
    bad = (table["op"] < 0) | (table["op"] >= len(classes))
    if bad.any():
        return (f"{where}/requests: {int(bad.sum())} of its {len(table)} requests name an operation outside "
                f"0 ... {len(classes) - 1} (the first: {int(table['op'][bad][0])}): the file is damaged")
    if not np.isfinite(table["time"]).all():
        return (f"{where}/requests: {int((~np.isfinite(table['time'])).sum())} of its {len(table)} requests "
                "have no finite time: the file is damaged")
    return None
