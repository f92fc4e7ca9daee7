#!/usr/bin/python3
"""Checks the source folders' rules (DESIGN.md); each broken rule is reported with the file and line.

1. The folders include only downwards:

    python, host/app -> host/engine -> host/models, host/requests -> io -> estimators -> kernels, host/base

A file may include headers of its own layer and of the layers below it.
kernels and host/base are the bottom layer together (the CPU launcher polls
interrupts; the FFT plans take the kernels' complex type). DESIGN.md's
"estimators / io" band is two layers here: io may include estimators (it maps
their results and the request-level nouns to files, as DESIGN.md's "io/ owns
every file layout; the engine hands it plain result objects" needs), never the
reverse, and the nouns the layers above compute with live in estimators (or
host/base), not in io. The Python module
(python/) stands on the CLI's layer, as a second front end. Every
quoted #include of every .hpp, .cpp, .cu and .cuh under host/, kernels/,
estimators/, io/ and python/ is resolved (beside the file first, then from the source
root) and each upward one is reported.

2. HDF5 is io/'s: no file outside io/ includes <hdf5.h> or io/hdf5.hpp, names
hid_t, herr_t or hsize_t, or calls the library (H5...( ); the others hand io/
plain results and read through its classes (io/hdf5_library.hpp is what they
may know of the library). io/'s own headers, which the others include, keep
the library out too: only io/'s sources and its two HDF5 headers (IO_HDF5_HEADERS:
io/hdf5.hpp and io/ensemble_hdf5.hpp, included by io/'s sources alone) include
<hdf5.h> or name its types, so no raw handle reaches past io/.

3. Every HDF5 call in io/ holds the library's lock (GS_H5_CHECK or
GS_H5_LOCKED, io/hdf5_library.hpp): Debian's HDF5 is not thread-safe, and runs
in several threads share it. The type macros (H5T_NATIVE_DOUBLE, ...) call
the library too.

4. No process-wide mutable state outside a run's execution context
(host/engine/context.hpp): a variable at namespace scope, a static member or
a function's static that is neither const nor constexpr is reported unless
ALLOWED names it with the reason it is process-wide by nature.

Exit 1 when a rule is broken.

usage: check_layers.py [SOURCE_DIR]
"""
import os
import re
import sys

# Bottom to top, each layer its folders.
LAYERS = [("host/base", "kernels"), ("estimators",), ("io",), ("host/models", "host/requests"), ("host/engine",), ("host/app", "python")]
GENERATED = {"version.hpp": "host/base"}  # written by CMake into the build tree
INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"')
TOPS = ("host", "kernels", "estimators", "io", "python")

IO_HDF5_HEADERS = ("io/hdf5.hpp", "io/ensemble_hdf5.hpp")  # the library's types, for io/'s sources
# A call of the library: H5Fopen(…), and the few in lower case, H5open(), H5dont_atexit().
HDF5_OUTSIDE_IO = re.compile(r'#\s*include\s*[<"](hdf5\.h|io/hdf5\.hpp)[>"]|\b(hid_t|herr_t|hsize_t)\b|\bH5[A-Za-z][A-Za-z0-9_]*\s*\(')
HDF5_CALL = re.compile(r'\bH5[A-Za-z][A-Za-z0-9_]*\s*\(|\bH5T_(NATIVE|STD|IEEE|C_S1)[A-Z0-9_]*|'
                       r'\bH5P_(FILE|DATASET|LINK|GROUP|ATTRIBUTE|OBJECT|STRING)[A-Z_]*')
LOCKED = re.compile(r'GS_H5_(CHECK|LOCKED)\s*\(')

# The process-wide state there is, each with why it is process-wide by nature:
# (file, variable) -> reason.
ALLOWED = {
    ("host/base/interrupt.cpp", "recorded_signal"): "a signal reaches the process",
    ("host/base/interrupt.cpp", "signal_cleanup"): "called from the signal handler",
    ("host/base/interrupt.cpp", "guard_mutex"): "the process's signal handlers",
    ("host/base/interrupt.cpp", "guard_depth"): "the process's signal handlers",
    ("host/base/interrupt.cpp", "previous_int"): "the process's signal handlers (and previous_term)",
    ("host/base/fft.cpp", "planner_mutex"): "FFTW's planner is process-wide",
    ("host/base/config_schema.cpp", "asked_mutex"): "guards the record of the config keys asked for (below)",
    ("host/base/config_schema.cpp", "keys"): "the config keys this process's parsers asked for: a coverage "
                                             "record only tests/unit/test_config_schema.cpp reads; no run does",
    ("host/base/fft.cpp", "cache"): "FFTW plans, immutable once made, shared by every run",
    ("host/base/ranks.cpp", "r"): "the MPI ranks of the process",
    ("host/base/ranks.cpp", "job"): "the MPI job of the process (and whether its failure is shared)",
    ("host/base/ranks.cpp", "paths"): "the files the ranks write together, removed when the job aborts",
    ("host/base/ranks.cpp", "signal_paths"): "the same, for the signal handler",
    ("host/base/ranks.cpp", "signal_path_count"): "the same, for the signal handler",
    ("host/base/output_file.cpp", "sequence"): "temporary names unique in the process",
    ("host/base/fault_injection.cpp", "calls"): "the tests' GPUSYNTH_FAULT is the process's environment: its stage's calls in the process",
    ("host/models/registry.cpp", "models"): "models registered at static initialisation, read after main starts",
    ("io/trace.cpp", "registered"): "trace formats registered at static initialisation, read after main starts",
    ("io/hdf5.cpp", "pending_mutex"): "temporary files of every run, named in write errors",
    ("io/hdf5.cpp", "outputs"): "temporary files of every run, named in write errors",
    ("io/hdf5.cpp", "mutex"): "the HDF5 library's lock (the library is process-wide)",
    ("kernels/launch.hpp", "launch"): "launchers registered at static initialisation, never changed",
    ("kernels/launch.hpp", "fast_launch"): "launchers registered at static initialisation, never changed",
    ("estimators/stable_law.cpp", "rule"): "a per-thread quadrature cache (thread_local)",
    ("python/gpusynth_module.cpp", "inside_call"): "per thread: a call from inside a call",
    ("python/gpusynth_module.cpp", "m"): "the calls' shared interrupt scope (the process's signal handlers)",
    ("python/gpusynth_module.cpp", "shared"): "the calls' shared interrupt scope (the process's signal handlers)",
}
# A definition of a mutable variable: at namespace scope (the sources do not
# indent namespaces), or a static (member or function-local), with no const;
# a line defining several is reported by its first name.
ANGLES = r'<[^;{}<>]*(?:<[^;{}<>]*>[^;{}<>]*)*>'  # template arguments, nested once
TYPE = r'[A-Za-z_](?:[\w:,\s\*&]|' + ANGLES + r')*?[\s\*&>]'
NAMESPACE_VARIABLE = re.compile(
    r'^(?:static\s+|inline\s+|thread_local\s+)*(?!(?:const|constexpr|using|template|class|enum|namespace|'
    r'typedef|return|extern|friend|public|private|protected|case|default|goto|if|else|for|while|do|switch|'
    r'static_assert|union)\b|struct\s+\w+\s*(?:final\b)?\s*[{:;])' + TYPE +
    r'((?:[A-Za-z_]\w*::)*[A-Za-z_]\w*)\s*(?:\[[^\]]*\])*\s*(?:=[^=]|\{|;|,)')
STATIC_VARIABLE = re.compile(
    r'^\s+(?:static|thread_local)\s+(?:inline\s+|thread_local\s+)*(?!(?:const|constexpr)\b)' + TYPE +
    r'([A-Za-z_]\w*)\s*(?:\[[^\]]*\])*\s*(?:=[^=]|\{|;)')
# A function pointer: `T (*name)(args) = …;`, at namespace scope or static.
FUNCTION_POINTER = re.compile(
    r'^(?:\s+static\s+|(?=\S)(?:static\s+|inline\s+)*)(?:inline\s+)?(?!(?:const|constexpr|using|typedef|return)\b)[\w:<>\s]*'
    r'\(\s*\*\s*([A-Za-z_]\w*)\s*(?:\[[^\]]*\])*\s*\)\s*\([^;]*\)\s*(?:=[^=]|\{|;)')


def layer_of(path):
    for index, folders in enumerate(LAYERS):
        if any(path == folder or path.startswith(folder + "/") for folder in folders):
            return index
    return None


def names(layers):
    return ", ".join(folder for folders in layers for folder in folders)


def source_files(root):
    for top in TOPS:
        for folder, _, entries in os.walk(os.path.join(root, top)):
            for name in sorted(entries):
                if name.endswith((".hpp", ".cpp", ".cu", ".cuh", ".inc")):
                    yield os.path.relpath(os.path.join(folder, name), root)


def without_comments(text):
    """The text with // and /* */ comments and string literals blanked, lines kept."""
    blank = lambda m: re.sub(r"[^\n]", " ", m.group(0))
    return re.sub(r'//[^\n]*|/\*.*?\*/|"(?:\\.|[^"\\\n])*"', blank, text, flags=re.S)


def upward_includes(root, path, text, problems):
    own = layer_of(path)
    for number, line in enumerate(text.splitlines(), 1):
        match = INCLUDE.match(line)
        if not match:
            continue
        included = match.group(1)
        beside = os.path.normpath(os.path.join(os.path.dirname(path), included))
        target = beside if os.path.exists(os.path.join(root, beside)) else os.path.normpath(included)
        other = layer_of(GENERATED.get(target, target))
        if other is None:
            continue  # not a project header (a test's or a benchmark's)
        if other > own:
            problems.append(f"{path}:{number} includes {target}: {names([LAYERS[own]])} may include "
                            f"only {names(LAYERS[:own + 1])}, not {names([LAYERS[other]])}")


def hdf5_outside_io(path, text, problems):
    """HDF5 outside io/, or in an io/ header the other layers include (rule 2)."""
    if path in IO_HDF5_HEADERS or (path.startswith("io/") and not path.endswith((".hpp", ".cuh"))):
        return
    for number, line in enumerate(text.splitlines(), 1):
        code = line if INCLUDE.match(line) or "#" in line.split("include")[0] else without_comments(line)
        match = HDF5_OUTSIDE_IO.search(code)
        included = INCLUDE.match(code)
        if not match and included and included.group(1) in IO_HDF5_HEADERS:
            match = included
        if match and path.startswith("io/"):
            problems.append(f"{path}:{number} uses HDF5 in a header ({match.group(0).strip()}): the other layers "
                            f"include io/'s headers; keep the library's types in io/'s sources (or "
                            f"{' and '.join(IO_HDF5_HEADERS)}, which only they include)")
        elif match:
            problems.append(f"{path}:{number} uses HDF5 ({match.group(0).strip()}): HDF5 is io/'s; hand io/ "
                            f"plain results, or use io/hdf5_library.hpp")


def unlocked_hdf5_calls(path, text, problems):
    if not path.startswith("io/"):
        return
    code = without_comments(text)
    held = [False] * len(code)
    for match in LOCKED.finditer(code):
        end, depth = match.end(), 1
        while depth and end < len(code):
            depth += {"(": 1, ")": -1}.get(code[end], 0)
            end += 1
        held[match.start():end] = [True] * (end - match.start())
    for match in HDF5_CALL.finditer(code):
        if not held[match.start()]:
            number = code.count("\n", 0, match.start()) + 1
            problems.append(f"{path}:{number} calls HDF5 ({match.group(0).rstrip('( ')}) without the library's "
                            f"lock: wrap it in GS_H5_CHECK or GS_H5_LOCKED (io/hdf5_library.hpp)")


def without_angles(text):
    """The text without its template arguments (innermost first)."""
    while True:
        shorter = re.sub(r"<[^<>;{}]*>", "", text)
        if shorter == text:
            return text
        text = shorter


QUALIFIERS = re.compile(r'^\s*(?:(?:static|inline|thread_local)\s+)*(?:const|constexpr)\b')
NAMED_TYPE = re.compile(r'^\s*(?:struct|class)\s+\w+\s*(?:<.*>)?\s*(?:final\s*)?[:{;]')  # a type, not a variable


# A declaration at namespace scope that goes on over the lines after it (indented,
# until a `;` or `{` ends it): `std::map<std::string, int>\n    planted;`.
OPEN_ENDED = re.compile(r'^[A-Za-z_][^;{}]*$')
# A class type defined where its variable is: `struct {…} x;` (anonymous or
# named, at namespace scope); the variable follows the closing brace.
TYPE_WITH_VARIABLE = re.compile(r'^((?:static\s+|inline\s+|thread_local\s+)*)(?:struct|class|union)\b[^;{()]*\{', re.M)
DECLARATOR_AFTER = re.compile(r'\}\s*((?:[\*&]\s*)*)([A-Za-z_]\w*)\s*(?:\[[^\]]*\]\s*)*(?:=[^=]|\{|;|,)')


def statements(code):
    """(line number, text) of each line; a namespace-scope line that ends in neither `;` nor `{` is
    joined with the indented lines that continue it (at most 8), so a declaration over two lines is one."""
    lines = code.splitlines()
    number = 0
    while number < len(lines):
        line = lines[number]
        joined, end = line, number + 1
        if OPEN_ENDED.match(line) and not line.lstrip().startswith(("template", "#")):
            while (end < len(lines) and end - number < 8 and lines[end][:1].isspace() and lines[end].strip()
                   and not re.search(r'[;{}]\s*$', joined)):
                joined += "\n" + lines[end]
                end += 1
            if not re.search(r'[;{]\s*$', joined):
                joined, end = line, number + 1  # not a declaration that ends: the line alone
        yield number + 1, joined
        number = end if joined is not line else number + 1


def typed_variables(path, code, problems, found):
    """`struct {…} x;` at namespace scope: a variable of the type defined in it."""
    for match in TYPE_WITH_VARIABLE.finditer(code):
        depth, end = 0, match.end() - 1
        while end < len(code):
            depth += {"{": 1, "}": -1}.get(code[end], 0)
            if depth == 0:
                break
            end += 1
        declarator = DECLARATOR_AFTER.match(code, end)
        if not declarator or declarator.group(2) in ("const", "constexpr"):
            continue  # `struct X {…};`, a type alone, or a constant
        number = code.count("\n", 0, end) + 1
        report_state(path, number, declarator.group(2), problems, found)


def report_state(path, number, name, problems, found):
    if found is not None:
        found.add((path, name))
    if (path, name) not in ALLOWED:
        problems.append(f"{path}:{number} defines process-wide mutable state '{name}': pass it in the run's "
                        f"execution context (host/engine/context.hpp), or make it const")


def mutable_globals(path, text, problems, found=None):
    code = without_comments(text)
    typed_variables(path, code, problems, found)
    for number, line in statements(code):
        if "namespace" in line or QUALIFIERS.match(line) or NAMED_TYPE.match(line):  # `inline constexpr`: const
            continue
        match = FUNCTION_POINTER.match(line)
        if not match:
            match = NAMESPACE_VARIABLE.match(line) or STATIC_VARIABLE.match(line)
            if not match or "(" in without_angles(line[:match.end(1)]):
                continue  # a function's declaration or definition, or a call
        name = match.group(1)
        if name.endswith("::operator"):  # an operator's definition, Handle& Handle::operator=(…)
            continue
        report_state(path, number, name, problems, found)


def main():
    root = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), ".."))
    problems, files, found = [], 0, set()
    for path in source_files(root):
        if layer_of(path) is None:
            problems.append(f"{path}: in no layer; put it under one of {names(LAYERS)}")
            continue
        files += 1
        with open(os.path.join(root, path), errors="replace") as f:
            text = f.read()
        upward_includes(root, path, text, problems)
        hdf5_outside_io(path, text, problems)
        unlocked_hdf5_calls(path, text, problems)
        mutable_globals(path, text, problems, found)
    for (path, name), reason in ALLOWED.items():  # the list stays true: no entry for state that is gone
        if os.path.exists(os.path.join(root, path)) and (path, name) not in found:
            problems.append(f"{path}: '{name}' is allowed as process-wide state ({reason}) but no longer "
                            f"defined there; remove it from ALLOWED in scripts/check_layers.py")
    for problem in problems:
        print(f"layers: {problem}")
    if problems:
        return 1
    print(f"layers: {files} files include only their own layer and those below "
          f"({' <- '.join(names([layer]) for layer in reversed(LAYERS))}); HDF5 only in io/, every call of it "
          f"under the library's lock; no process-wide mutable state but the {len(ALLOWED)} allowed")
    return 0


if __name__ == "__main__":
    sys.exit(main())
