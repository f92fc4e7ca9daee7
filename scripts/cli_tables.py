#!/usr/bin/python3
"""The option tables of docs/cli.md, made from the CLI's own definitions (each command's --help,
which CLI11 prints from them), so that the reference cannot drift from the program.

    cli_tables.py GPUSYNTH docs/cli.md           # rewrites the tables between the markers
    cli_tables.py GPUSYNTH docs/cli.md --check   # exit 1 when a table differs (cli.docs runs this)

A table sits between `<!-- options: COMMAND -->` and `<!-- end options -->`; every command of
`gpusynth --help` must have one. Exit 2 on a wrong command line or a docs file without a marker.
"""
import re
import subprocess
import sys

OPTION = re.compile(r"^  (\S.*?)(?:\s{2,}(\S.*))?$")


def commands(gpusynth):
    text = subprocess.run([gpusynth, "--help"], capture_output=True, text=True, check=True).stdout
    body = text.split("Subcommands:", 1)[1]
    return [line.split()[0] for line in body.splitlines() if line.startswith("  ") and line.strip()]


def options(gpusynth, command):
    """[(option, meaning)] of `gpusynth COMMAND --help`, positionals first."""
    text = subprocess.run([gpusynth, command, "--help"], capture_output=True, text=True, check=True).stdout
    rows, section = [], None
    for line in text.splitlines():
        if line in ("Positionals:", "Options:"):
            section = line
            continue
        if section is None or not line.startswith("  "):
            section = None if not line.startswith("  ") else section
            continue
        if line.startswith("    ") and rows:  # CLI11 puts the meaning of a long option on its own line
            rows[-1] = (rows[-1][0], line.strip())
            continue
        match = OPTION.match(line)
        if match:
            rows.append((match.group(1).strip(), (match.group(2) or "").strip()))
    return rows


def table(rows):
    cell = lambda s: s.replace("|", "\\|")  # noqa: E731
    lines = ["| option | meaning |", "|---|---|"]
    lines += [f"| `{cell(option)}` | {cell(meaning)} |" for option, meaning in rows]
    return "\n".join(lines)


def main():
    if len(sys.argv) not in (3, 4) or (len(sys.argv) == 4 and sys.argv[3] != "--check"):
        print(__doc__, file=sys.stderr)
        return 2
    gpusynth, path, check = sys.argv[1], sys.argv[2], len(sys.argv) == 4
    with open(path) as f:
        docs = f.read()
    updated, problems = docs, []
    for command in commands(gpusynth):
        begin, end = f"<!-- options: {command} -->", "<!-- end options -->"
        if begin not in updated:
            problems.append(f"{path} has no `{begin}` ... `{end}` for `gpusynth {command}`")
            continue
        start = updated.index(begin) + len(begin)
        stop = updated.index(end, start)
        updated = updated[:start] + "\n" + table(options(gpusynth, command)) + "\n" + updated[stop:]
    if problems:
        print("\n".join(problems), file=sys.stderr)
        return 2
    if check:
        if updated != docs:
            print(f"{path}: the option tables differ from `gpusynth COMMAND --help`; run scripts/cli_tables.py "
                  f"{gpusynth} {path}", file=sys.stderr)
            return 1
        print(f"{path}: every command's option table matches its --help")
        return 0
    with open(path, "w") as f:
        f.write(updated)
    return 0


if __name__ == "__main__":
    sys.exit(main())
