#!/usr/bin/python3
"""Checks that scripts/debian-packages.txt and scripts/debian-packages-tests.txt name everything gpusynth uses.

A fresh Debian 12 machine has only the packages those lists install (and what
they depend on), so every dependency must come from one of them:

- every Python module imported by a .py file under tests/, scripts/ and bench/
  and by the Python here-documents of their shell scripts, resolved by the
  interpreter the project runs (/usr/bin/python3);
- every header the build compiled (the compiler's .d files in the build tree)
  and every shared library the built programs link (ldd);
- every program a shell script under tests/, scripts/ or bench/ runs.

Each is mapped to its Debian package with `dpkg -S`. A package passes when it
is in the list, pulled in by a listed package (Depends and Pre-Depends,
transitively), or part of every Debian system (Essential or Priority:
required). Whatever fails is named with the file that uses it; exit 1.
Files outside the package manager (the CUDA toolkit in /usr/local/cuda) are
not the list's business: nvcc is optional.

usage: check_dependencies.py SOURCE_DIR BUILD_DIR [--list FILE]... [--first-run] [--without PACKAGE...]

--first-run checks the README's first command instead: scripts/debian-packages.txt
alone (what scripts/install-deps.sh installs without --tests) against what that
command builds and runs: the headers of the gpusynth executable and the Python
module (gpusynth_core, gpusynth, gpusynth_python), the libraries they link, and
the Python modules of the report (scripts/report*.py).

--without checks, after the list itself, that the check fails naming each
PACKAGE when that package alone is taken out of the list (the mutation test
of tests/cli/dependencies_test.sh, resolved once for all of them).
"""
import argparse
import ast
import json
import os
import re
import shutil
import subprocess
import sys

PYTHON = "/usr/bin/python3"
BUILT_MODULES = {"gpusynth"}  # the project's own extension module (python/), in BUILD_DIR/python
SCANNED = ("tests", "scripts", "bench")
OUTSIDE_DPKG = ("/usr/local/",)  # the CUDA toolkit: optional, not from Debian
SHELL_WORDS = set(
    """if then else elif fi for while until do done case esac in function select time
    return exit set unset export local declare readonly shift trap wait kill read echo printf
    cd pwd source . eval exec true false test [ [[ ]] ]] ! { } break continue command type
    hash mapfile readarray let builtin getopts umask ulimit shopt alias jobs fg bg disown""".split()
)


def listed_packages(path):
    with open(path) as f:
        return [line.strip() for line in f if line.strip() and not line.lstrip().startswith("#")]


def installed_packages():
    """name -> (dependencies as lists of alternatives, essential, priority, provides)."""
    out = subprocess.run(
        ["dpkg-query", "-W", "-f=${Package}\t${Status}\t${Depends}\t${Pre-Depends}\t${Essential}\t${Priority}\t${Provides}\n"],
        capture_output=True, text=True, check=True).stdout
    packages, providers = {}, {}
    for line in out.splitlines():
        name, status, depends, pre_depends, essential, priority, provides = line.split("\t")
        if not status.endswith("installed") or "not-installed" in status or "config-files" in status:
            continue
        alternatives = []
        for clause in filter(None, (c.strip() for c in f"{depends},{pre_depends}".split(","))):
            alternatives.append([re.split(r"[\s:(]", a.strip(), maxsplit=1)[0] for a in clause.split("|")])
        packages[name] = (alternatives, essential == "yes", priority)
        for p in filter(None, (p.strip() for p in provides.split(","))):
            providers.setdefault(re.split(r"[\s(]", p, maxsplit=1)[0], []).append(name)
    return packages, providers


def closure(roots, packages, providers):
    """The listed packages and every installed package they pull in."""
    seen, stack = set(), list(roots)
    while stack:
        name = stack.pop()
        for candidate in [name] + providers.get(name, []):
            if candidate in packages and candidate not in seen:
                seen.add(candidate)
                # apt installs the first alternative of "a | b" on a fresh machine
                stack.extend(alternatives[0] for alternatives in packages[candidate][0])
    return seen


def owners(paths):
    """path -> Debian package (dpkg -S), for the paths dpkg knows."""
    found = {}
    paths = sorted(set(paths))
    for start in range(0, len(paths), 200):
        queries = {}
        for path in paths[start:start + 200]:
            for variant in {path, os.path.realpath(path), re.sub(r"^/usr(/(lib|bin|sbin)/)", r"\1", path),
                            re.sub(r"^/(lib|bin|sbin)/", r"/usr/\1/", path)}:
                queries.setdefault(variant, path)
        out = subprocess.run(["dpkg", "-S"] + sorted(queries), capture_output=True, text=True).stdout
        for line in out.splitlines():
            package, _, owned = line.partition(": ")
            if owned in queries and "diversion" not in line:
                found.setdefault(queries[owned], package.split(",")[0].split(":")[0].strip())
    return found


def scanned_files(source, suffix):
    for folder in SCANNED:
        for root, _, files in os.walk(os.path.join(source, folder)):
            for name in sorted(files):
                if name.endswith(suffix):
                    yield os.path.join(root, name)


def python_sources(source):
    """(file, code) of every .py file and every Python here-document of a shell script."""
    for path in scanned_files(source, ".py"):
        with open(path) as f:
            yield path, f.read()
    heredoc = re.compile(r"python3\b[^\n]*<<-?\s*'?(\w+)'?\n(.*?)\n\s*\1\s*$", re.S | re.M)
    for path in scanned_files(source, ".sh"):
        with open(path) as f:
            for match in heredoc.finditer(f.read()):
                yield path, match.group(2)


FIRST_RUN_TARGETS = ("gpusynth_core.dir", "gpusynth.dir", "gpusynth_python.dir")  # what the first command builds
FIRST_RUN_SCRIPTS = re.compile(r"scripts/report[\w]*\.py$")  # what its user runs next: gpusynth report


def imported_modules(source, first_run=False):
    """top-level module -> the files importing it."""
    modules = {}
    for path, code in python_sources(source):
        if first_run and not FIRST_RUN_SCRIPTS.search(path):
            continue
        for node in ast.walk(ast.parse(code, path)):
            names = []
            if isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                names = [node.module]
            for name in names:
                top = name.split(".")[0]
                if any(os.path.exists(os.path.join(folder, top + ".py"))
                       for folder in (os.path.dirname(path), os.path.join(source, "scripts"))):
                    continue  # the project's own: beside the importer (scripts/report_bursts.py), or a script a test imports
                if top in BUILT_MODULES:
                    continue
                modules.setdefault(top, set()).add(path)
    return modules


def module_origins(names):
    """module -> its file as /usr/bin/python3 finds it; 'stdlib', or None when it is missing."""
    probe = (
        "import importlib.util, json, sys\n"
        "out = {}\n"
        "for name in sys.argv[1:]:\n"
        "    if name in sys.stdlib_module_names:\n"
        "        out[name] = 'stdlib'\n"
        "        continue\n"
        "    spec = importlib.util.find_spec(name)\n"
        "    out[name] = None if spec is None else (spec.origin or list(spec.submodule_search_locations)[0])\n"
        "print(json.dumps(out))\n")
    out = subprocess.run([PYTHON, "-c", probe] + sorted(names), capture_output=True, text=True, check=True)
    return json.loads(out.stdout)


def compiled_headers(build, first_run=False):
    """system header -> one object whose compilation included it."""
    headers = {}
    for root, _, files in os.walk(build):
        if first_run and not any(f"/CMakeFiles/{target}" in root + "/" for target in FIRST_RUN_TARGETS):
            continue
        for name in files:
            if not name.endswith(".d"):
                continue
            with open(os.path.join(root, name), errors="replace") as f:
                text = f.read().replace("\\\n", " ")
            for token in text.split():
                if token.startswith("/usr/") and not token.endswith(":"):
                    # CMakeFiles/<target>.dir/<source>.o.d: name the source that included it
                    compiled = re.sub(r"^.*?\.dir/|\.o\.d$", "", os.path.join(root, name))
                    headers.setdefault(os.path.normpath(token), compiled)
    return headers


def linked_libraries(build, first_run=False):
    """shared library -> the program linking it."""
    libraries = {}
    for root, _, files in os.walk(build):
        if "CMakeFiles" in root:
            continue
        for name in files:
            path = os.path.join(root, name)
            if first_run and not re.search(r"(^|/)(gpusynth|python/gpusynth[^/]*\.so)$", os.path.relpath(path, build)):
                continue
            if not os.access(path, os.X_OK) or name.endswith((".sh", ".py")):
                continue
            with open(path, "rb") as f:
                if f.read(4) != b"\x7fELF":
                    continue
            out = subprocess.run(["ldd", path], capture_output=True, text=True).stdout
            for match in re.finditer(r"=>\s*(/\S+)", out):
                libraries.setdefault(match.group(1), path)
    return libraries


def shell_commands(source):
    """program (absolute path) -> a script running it, from the words in command position."""
    commands = {}
    separators = re.compile(r"(?:^|[;&|(`]|\$\(|\bthen\b|\bdo\b|\belse\b|\bif\b|\bwhile\b|\buntil\b|!|\bexec\b|\btime\b)\s*")
    for path in scanned_files(source, ".sh"):
        with open(path) as f:
            text = f.read()
        functions = set(re.findall(r"^\s*(?:function\s+)?([\w-]+)\s*\(\)", text, re.M))
        text = re.sub(r"<<-?\s*'?(\w+)'?\n.*?\n\s*\1\s*$", "", text, flags=re.S | re.M)  # here-documents
        for line in text.splitlines():
            line = re.sub(r"(^|\s)#.*", "", line)
            line = re.sub(r"'[^']*'|\"[^\"]*\"", " ", line)
            for start in separators.finditer(line):
                words = line[start.end():].split()
                while words and re.match(r"^\w+=", words[0]):  # VAR=value command
                    words.pop(0)
                if words and words[0] == "env":
                    words = [w for w in words[1:] if not re.match(r"^(\w+=|-)", w)]
                if not words:
                    continue
                word = words[0]
                if word in SHELL_WORDS or word in functions or not re.match(r"^[A-Za-z][\w.+-]*$", word):
                    continue
                found = shutil.which(word, path="/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin")
                if found:
                    commands.setdefault(found, path)
    return commands


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("source")
    parser.add_argument("build")
    parser.add_argument("--list", action="append",
                        help="a package list (default: SOURCE/scripts/debian-packages.txt and debian-packages-tests.txt)")
    parser.add_argument("--first-run", action="store_true", help="the README's first command and its list alone")
    parser.add_argument("--without", nargs="*", default=[], help="packages the check must miss when removed")
    args = parser.parse_args()
    source = os.path.abspath(args.source)
    lists = args.list or [os.path.join(source, "scripts", name) for name in
                          (("debian-packages.txt",) if args.first_run else ("debian-packages.txt",
                                                                             "debian-packages-tests.txt"))]
    listed = [package for path in lists for package in listed_packages(path)]
    list_path = " and ".join(os.path.relpath(path, source) if path.startswith(source) else path for path in lists)
    packages, providers = installed_packages()
    base = {name for name, (_, essential, priority) in packages.items() if essential or priority == "required"}
    base_closure = closure(base, packages, providers)
    relative = lambda path: os.path.relpath(path, source) if path.startswith(source) else path  # noqa: E731

    # What the project uses, as (what, Debian package or None, user): resolved once.
    uses, unresolved = [], []
    modules = imported_modules(source, args.first_run)
    python_owner = owners([PYTHON]).get(PYTHON)
    for module, origin in sorted(module_origins(modules).items()):
        user = sorted(modules[module])[0]
        if origin is None:
            unresolved.append(f"Python module '{module}' (imported by {relative(user)}) is not installed for "
                              f"{PYTHON}; add its Debian package to {relative(list_path)}")
        elif origin == "stdlib":
            uses.append((f"Python's standard library ('{module}')", python_owner, user))
        elif not origin.startswith(source):
            owner = owners([origin]).get(origin)
            if owner is None:
                unresolved.append(f"Python module '{module}' (imported by {relative(user)}) is {origin}, which no "
                                  f"Debian package provides (installed by hand?)")
            else:
                uses.append((f"Python module '{module}'", owner, user))
    for kind, found in (("header", compiled_headers(args.build, args.first_run)),
                        ("shared library", linked_libraries(args.build, args.first_run)),
                        ("program", {} if args.first_run else shell_commands(source))):
        if kind == "header" and not found:
            unresolved.append(f"no compiler dependency files (.d) under {args.build}: build it with CMake's "
                              f"Makefile generator first")
        by_owner = owners(found)
        for path, user in sorted(found.items()):
            if path.startswith(OUTSIDE_DPKG) or path.startswith(source):
                continue
            if path not in by_owner:
                unresolved.append(f"{kind} {path} (used by {relative(user)}) belongs to no Debian package")
            else:
                uses.append((f"{kind} {path}", by_owner[path], user))

    def missing(listed_now, list_name):
        """One line per package the list lacks, naming the first file that needs it."""
        allowed = closure(listed_now, packages, providers) | base_closure
        report, seen = [], set()
        for what, owner, user in uses:
            if owner not in allowed and owner not in seen:
                seen.add(owner)
                report.append(f"{what} (used by {relative(user)}) comes from Debian package {owner}, which is "
                              f"neither in {list_name} nor pulled in by a package listed there")
        return report, allowed

    report, allowed = missing(listed, relative(list_path))
    report = unresolved + report
    for line in report:
        print(f"missing dependency: {line}")
    status = 1 if report else 0
    if not report:
        print(f"dependencies: every Python module, header, library and program resolves to a package of "
              f"{relative(list_path)} ({len(listed)} listed, {len(allowed)} with their dependencies and the base "
              f"system)")
    for package in args.without:
        mutated, _ = missing([p for p in listed if p != package], f"the list without {package}")
        named = [line for line in mutated if f"Debian package {package}," in line]
        if named:
            print(f"without {package}: the check fails: {named[0]}")
        else:
            print(f"MUTATION SURVIVED: with {package} taken out of the list the check does not name it")
            status = 1
    return status


if __name__ == "__main__":
    sys.exit(main())
