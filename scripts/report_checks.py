"""What `gpusynth report` checks before it draws, and its progress lines.

- walk_in_child: HDF5 parses a damaged file's metadata (object headers, attribute and heap
  messages) in C, and some damage makes it read through a wild pointer: the process dies of
  SIGSEGV or SIGABRT, which no Python `except` sees (issue 56 item 11: a file with a few bytes
  changed killed the report with signal 11). So a forked child first opens every object, reads
  every attribute and the data of every dataset (the first row of one over WALK_FULL_BYTES, as the
  report reads no more of it) and says on a pipe what it is about to touch; a child killed by a
  signal names the object it died on, and the parent turns that into the report's one error line.
- draw_in_child: the drawing too runs in a forked child, naming each section as it starts, since
  HDF5 can die on damaged metadata that the drawing reaches another way than the walk did; a
  signal death there is the same one line. gpusynth (host/app/report.cpp) still turns a signal
  death of the script itself into one line and exit 2.
- check_study: the shapes, dtypes and attributes under /compare, /datasets and /ensembles that
  the study's tables and figures read, against the file's own sizes (the quantile levels, the ACF
  lags, the summary's datasets and models), as one InputError naming the object.
- Progress: one line per section on stderr ("progress:  40.0% dataset cloudphysics (3.1 s)", as
  gpusynth's other commands write them in a log; redrawn in place on a terminal); -q silences it.
"""
import json
import os
import select
import signal
import sys
import time
import traceback

import h5py
import numpy as np

from report_bursts import InputError, attribute, member, text, values

WALK_FULL_BYTES = 256 << 20  # a dataset this large is read whole by the walk; a larger one, its first row


def _walk(path, say):
    say("the file's superblock and root group")
    with h5py.File(path, "r") as f:
        def touch(name, obj):
            where = "/" + name if name else "/"
            say(where)
            for key in list(obj.attrs):
                say(f"attribute '{key}' of {where}")
                try:
                    obj.attrs[key]
                except Exception:  # noqa: BLE001 (an error, not a crash: the report says it where it reads it)
                    pass
            if isinstance(obj, h5py.Dataset):
                say(f"the data of {where}")
                try:
                    if obj.shape and obj.size and obj.id.get_storage_size() > WALK_FULL_BYTES:
                        obj[0:1]
                    else:
                        obj[()]
                except Exception:  # noqa: BLE001
                    pass

        touch("", f)
        try:
            f.visititems(lambda name, obj: touch(name, obj))
        except Exception:  # noqa: BLE001 (a link HDF5 cannot follow: the report says which)
            pass


def walk_deadline(path):
    """Seconds the walk may take: a healthy file's takes under a second here (it reads the first row of a
    large dataset only); overwritten metadata can send HDF5 round a loop for ever (seen: 12 CPU-minutes)."""
    return 60 + os.path.getsize(path) / 50e6


CANCEL = {signal.SIGINT, signal.SIGTERM}
RESULT = b"\x1e"  # begins the line that carries what the child's work returned; say() keeps it out of its lines


def _in_child(work, limit=None, python_stderr=False, default_signals=False):
    """Runs work(say) in a forked child, say(text) telling the parent in one line what the child is about to
    touch. Returns (the child's wait status, the last line it said, what work returned, through JSON); the
    status is None when the child did not finish within `limit` seconds (it is then ended, as it is when the
    parent is interrupted). The child's file descriptor 2 goes to /dev/null (what the C library says as HDF5
    crashes, "free(): invalid pointer", is not the report's line); python_stderr: Python's own sys.stderr
    (progress, warnings, errors) keeps the real one. default_signals: SIGINT and SIGTERM end the child at once
    instead of through the parent's handlers."""
    sys.stdout.flush()
    sys.stderr.flush()
    readable, writable = os.pipe()
    mask = signal.pthread_sigmask(signal.SIG_BLOCK, CANCEL)  # no handler of the parent's runs in the child
    try:
        child = os.fork()
    except BaseException:
        signal.pthread_sigmask(signal.SIG_SETMASK, mask)
        os.close(readable)
        os.close(writable)
        raise
    if child == 0:
        os.close(readable)
        _run_child(writable, work, python_stderr, default_signals, mask)  # never returns
    os.close(writable)
    pending, last, result, status = b"", b"", None, None
    deadline = None if limit is None else time.monotonic() + limit
    try:
        signal.pthread_sigmask(signal.SIG_SETMASK, mask)
        while True:
            left = None if deadline is None else deadline - time.monotonic()
            if left is not None and (left <= 0 or not select.select([readable], [], [], left)[0]):
                break
            chunk = os.read(readable, 65536)
            if not chunk:
                _, status = os.waitpid(child, 0)
                child = 0
                break
            lines = (pending + chunk).split(b"\n")
            pending = lines.pop()
            for line in lines:
                if line.startswith(RESULT):
                    result = json.loads(line[len(RESULT):])
                elif line:
                    last = line
    finally:
        os.close(readable)
        if child:  # interrupted or past the deadline: the child goes with the report
            _end(child)
    return status, last.decode(errors="replace").strip(), result


def _run_child(writable, work, python_stderr, default_signals, mask):
    """_in_child's child: whatever is raised, it ends by os._exit with Python's own exit status, so that none of
    the parent's code (its clean-up, Python's at exit with HDF5 objects open) runs in it."""
    code = 1
    try:
        null = os.open(os.devnull, os.O_WRONLY)
        if python_stderr:
            sys.stderr = os.fdopen(os.dup(2), "w", buffering=1)
        os.dup2(null, 2)
        if default_signals:
            signal.signal(signal.SIGINT, signal.SIG_DFL)
            signal.signal(signal.SIGTERM, signal.SIG_DFL)
        signal.pthread_sigmask(signal.SIG_SETMASK, mask)

        def say(what):
            os.write(writable, (what.replace("\n", " ").replace("\x1e", " ") + "\n").encode(errors="replace"))

        returned = work(say)
        os.write(writable, RESULT + json.dumps(returned).encode() + b"\n")
        code = 0
    except SystemExit as e:  # fail()'s 2, an interruption's 130
        if e.code is None:
            code = 0
        elif isinstance(e.code, int):
            code = e.code & 0xFF
        else:  # a message: said, status 1
            print(e.code, file=sys.stderr)
    except BaseException:  # noqa: BLE001 (a defect of the script: said as Python says it)
        traceback.print_exc()
    finally:
        try:
            signal.pthread_sigmask(signal.SIG_BLOCK, CANCEL)
            sys.stdout.flush()
            sys.stderr.flush()
        except BaseException:  # noqa: BLE001 (a closed stderr: the code still stands)
            pass
        finally:
            os._exit(code)


def _end(child):
    """Ends a child still running: SIGTERM first, so that a drawing child unwinds as an interrupted report does
    (its progress line cleared), SIGKILL after a second."""
    try:
        os.kill(child, signal.SIGTERM)
        waited = time.monotonic() + 1
        while time.monotonic() < waited:
            if os.waitpid(child, os.WNOHANG)[0]:
                return
            time.sleep(0.01)
        os.kill(child, signal.SIGKILL)
        os.waitpid(child, 0)
    except (ProcessLookupError, ChildProcessError):  # it ended meanwhile
        pass


def _signal_name(status):
    number = os.WTERMSIG(status)
    try:
        return signal.Signals(number).name
    except ValueError:  # a real-time signal has no name
        return f"signal {number}"


def walk_in_child(path, fail):
    """Reads all of PATH in a forked child; fail(message) when the child was killed by a signal or did not
    finish within walk_deadline(PATH)."""
    def walk(say):
        try:
            _walk(path, say)
        except Exception:  # noqa: BLE001 (errors are the report's to say; only a crash is the walk's)
            pass

    limit = walk_deadline(path)
    status, last, _ = _in_child(walk, limit, default_signals=True)
    if status is None:
        fail(f"{path}: HDF5 did not finish reading {last or 'it'} within {limit:.0f} s: the file is damaged "
             "(its metadata overwritten); nothing was written")
    if os.WIFSIGNALED(status):
        fail(f"{path}: HDF5 crashed ({_signal_name(status)}) reading {last or 'it'}: the file is damaged (cut short "
             "or overwritten); nothing was written")


def draw_in_child(path, fail, draw):
    """Returns draw(say) run in a forked child, say naming each section as it starts. The walk reads the whole
    file first, yet HDF5 can still die on damaged metadata that the drawing reaches another way (seen: a bursts
    file with a few bytes overwritten whose walk finished and whose drawing died of SIGSEGV in HDF5's metadata
    cache): that becomes the same one line, exit 2. A child that ends with an error (fail's 2, said already)
    ends the report with its code."""
    status, last, result = _in_child(draw, python_stderr=True)
    if os.WIFSIGNALED(status):
        fail(f"{path}: HDF5 crashed ({_signal_name(status)}) reading it for the report's section '{last}': the "
             "file is damaged (cut short or overwritten); nothing was written")
    if os.WEXITSTATUS(status):
        sys.exit(os.WEXITSTATUS(status))
    return result


def numeric(group, name, ndim, columns=None, what=None):
    """The array of group[name], numbers in ndim dimensions (and `columns` columns), or an InputError naming it."""
    data = values(group, name, ndim=ndim)
    where = f"{group.name.rstrip('/')}/{name}"
    if data.dtype.kind not in "iuf":
        raise InputError(f"{where} holds {data.dtype}, not numbers")
    if columns is not None and data.shape[-1] != columns:
        raise InputError(f"{where} has {data.shape[-1]} columns, expected {columns} ({what})")
    return data


SUMMARY_FIELDS = ("dataset", "model", "metric", "replicas_used", "median", "ci_low", "ci_high", "matching_degree",
                  "separated")
PAIRED_FIELDS = ("model_a", "model_b", "p_a_below_b", "ci_low", "ci_high")


def check_study(f):
    """Raises an InputError naming the first object under /compare (and the /datasets and /ensembles it names)
    that the study's tables and figures cannot use: missing, unreadable, of the wrong type, shape or size."""
    compare = member(f, "compare", h5py.Group)
    for key in ("rank_by", "interval_method", "matching_degree_rule"):
        attribute(compare, key, str)
    for key in ("confidence", "bootstrap_resamples"):
        attribute(compare, key)
    summary = values(compare, "summary", SUMMARY_FIELDS, ndim=1)
    if summary.size == 0:
        raise InputError(f"{compare.name}/summary has no rows")
    try:
        datasets = [text(d) for d in dict.fromkeys(summary["dataset"])]
        models = [text(m) for m in dict.fromkeys(summary["model"])]
        metrics = [text(m) for m in dict.fromkeys(summary["metric"])]
    except UnicodeDecodeError as e:
        raise InputError(f"{compare.name}/summary: a name in it is not text ({e})") from None
    rank_by = attribute(compare, "rank_by", str)
    if rank_by not in metrics:
        raise InputError(f"{compare.name}: attribute rank_by = '{rank_by}' is none of the summary's metrics "
                         f"({', '.join(metrics)})")
    for d in datasets:
        group = member(compare, d, h5py.Group)
        attribute(group, "stopped_models", str)
        quantiles = member(group, "real_quantiles", h5py.Dataset)
        real_q = numeric(group, "real_quantiles", 1)
        if "levels" not in quantiles.attrs:
            raise InputError(f"{quantiles.name} has no attribute 'levels'")
        levels = np.asarray(quantiles.attrs["levels"])
        if levels.ndim != 1 or levels.size != real_q.size or levels.dtype.kind not in "iuf":
            raise InputError(f"{quantiles.name}: attribute 'levels' has {levels.size} values, the dataset "
                             f"{real_q.size}")
        real_acf = numeric(group, "real_acf", 1)
        values(group, "paired", PAIRED_FIELDS, ndim=1)
        real = member(member(f, "datasets", h5py.Group), d, h5py.Group)
        for holder, name, data in ((real, "series", numeric(real, "series", 1)), (group, "real_quantiles", real_q)):
            if data.size == 0:
                raise InputError(f"{holder.name}/{name} is empty")
            bad = int(np.count_nonzero(~np.isfinite(data)))
            if bad:  # a trace's binned values are finite, and so are their quantiles
                raise InputError(f"{holder.name}/{name}: {bad} of its {data.size} values are not finite numbers")
        for m in models:
            if m not in group:
                continue  # a model stopped for this dataset: the tables say so
            one = member(group, m, h5py.Group)
            ensemble = attribute(one, "ensemble", str)
            numeric(one, "replica_quantiles", 2, real_q.size, f"one per level of {quantiles.name}")
            numeric(one, "replica_acf", 2, real_acf.size, f"one per lag of {group.name}/real_acf")
            for metric in metrics:
                numeric(one, metric, 1)
            ensembles = f["ensembles"] if "ensembles" in f else None
            if ensembles is not None and ensemble in ensembles:
                paths = member(member(ensembles, ensemble, h5py.Group), "series", h5py.Dataset)
                if paths.ndim != 2 or paths.dtype.kind not in "iuf":
                    raise InputError(f"{paths.name} is {paths.ndim}-dimensional {paths.dtype}, expected numbers "
                                     "(replicas x bins)")


class Progress:
    """One line per section on stderr: plain lines in a log, one line redrawn in place on a terminal (as
    host/base/progress.cpp); nothing with quiet."""

    def __init__(self, total, quiet, on_step=None):
        self.total, self.done, self.quiet, self.on_step = max(total, 1), 0, quiet, on_step
        self.terminal = sys.stderr.isatty()
        self.start = time.monotonic()

    def step(self, label):
        if self.on_step:
            self.on_step(label)
        if self.quiet:
            return
        line = f"progress: {100 * self.done / self.total:5.1f}% {label} ({time.monotonic() - self.start:.1f} s)"
        self.done += 1
        if self.terminal:
            print(f"\r{line:<100}", end="", file=sys.stderr, flush=True)
        else:
            print(line, file=sys.stderr, flush=True)

    def finish(self):
        """Ends the in-place line, so that what follows (a warning, an error) starts a line of its own."""
        if not self.quiet and self.terminal:
            print(f"\r{'':<100}\r", end="", file=sys.stderr, flush=True)
