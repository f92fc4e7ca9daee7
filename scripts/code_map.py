#!/usr/bin/python3
"""The file tables of docs/code-map.md, made from each source's own leading comment, so that the map
cannot drift from the tree: a new file appears in it, a removed one leaves it, and a file without a
comment saying what it is fails the check.

    code_map.py SOURCE_DIR docs/code-map.md           # rewrites the tables between the markers
    code_map.py SOURCE_DIR docs/code-map.md --check   # exit 1 when a table differs (cli.docs runs this)

A table sits between `<!-- files: FOLDER -->` and `<!-- end files -->` and lists the folder's own files
(not its subfolders'). Every folder under host/, kernels/, estimators/, io/ and python/ that holds a
tracked source must have one. A header and the source of the same name share a row; its text is the
first sentence of the header's leading comment (else the source's). Exit 2 on a wrong command line, a
map without a folder's marker, or a file without a leading comment.
"""
import os
import re
import subprocess
import sys

TOPS = ("host", "kernels", "estimators", "io", "python")
SOURCE = re.compile(r"\.(hpp|cpp|cu|cuh|inc|hpp\.in)$")
TABLE = re.compile(r"(<!-- files: (\S+) -->\n)(.*?)(<!-- end files -->)", re.S)
COMMENT_LINES_SEARCHED = 40  # a leading comment may follow #pragma once and the includes' first lines


class MapError(Exception):
    pass


def tracked_sources(root):
    out = subprocess.run(["git", "-C", root, "ls-files", *TOPS], capture_output=True, text=True, check=True).stdout
    return sorted(p for p in out.splitlines() if SOURCE.search(p) and os.path.exists(os.path.join(root, p)))


def leading_comment(path):
    """The text of the first block of // lines in the file's first lines, or ''."""
    lines = []
    with open(path, encoding="utf-8") as f:
        for n, line in enumerate(f):
            stripped = line.strip()
            if stripped.startswith("//"):
                lines.append(stripped[2:].strip())
            elif lines or n >= COMMENT_LINES_SEARCHED:
                break
    return re.sub(r"\s+", " ", " ".join(l for l in lines if l))


MAX_ROW = 200
ABBREVIATIONS = ("eq", "eqs", "i.i.d", "e.g", "i.e", "al", "vs", "fig", "cf", "no", "resp")


def first_sentence(text):
    """Up to the first full stop that ends a sentence: followed by a space and a capital letter, or by
    nothing, and not the stop of an abbreviation (eq., i.i.d., e.g., et al.)."""
    sentence = text
    for match in re.finditer(r"\.(?=\s+[A-Z`]|\s*$)", text):
        word = re.search(r"([\w.]*)$", text[: match.start()]).group(1).lower()
        if word not in ABBREVIATIONS:
            sentence = text[: match.end()]
            break
    return shortened(sentence).replace("|", "\\|")


def shortened(sentence):
    """A sentence over MAX_ROW characters cut at its last clause break (: ; — or ,) before that, with …:
    a row to scan, the file itself to read."""
    if len(sentence) <= MAX_ROW:
        return sentence
    head = sentence[:MAX_ROW]
    cut = max(head.rfind(mark) for mark in (": ", "; ", " — ", ", "))
    return (head[:cut] if cut > MAX_ROW // 3 else head.rsplit(" ", 1)[0]) + " …"


def rows_of(root, folder, sources):
    """[(names, text)] of the files directly in `folder`, a header and its source in one row."""
    units = {}
    for path in sources:
        if os.path.dirname(path) != folder:
            continue
        name = os.path.basename(path)
        stem, ext = re.match(r"(.*?)\.(hpp\.in|[a-z]+)$", name).groups()
        units.setdefault(stem, []).append(ext)
    rows = []
    for stem, exts in sorted(units.items()):
        order = sorted(exts, key=lambda e: (e not in ("hpp", "hpp.in", "cuh"), e))
        text = ""
        for ext in order:
            text = leading_comment(os.path.join(root, folder, f"{stem}.{ext}"))
            if text:
                break
        if not text:
            raise MapError(f"{folder}/{stem}.{order[0]}: no leading comment says what the file is")
        names = f"{stem}.{order[0]}" if len(order) == 1 else f"{stem}.{{{','.join(order)}}}"
        rows.append((names, first_sentence(text)))
    return rows


def table(rows):
    lines = ["| file | what it is |", "|---|---|"]
    lines += [f"| `{names}` | {text} |" for names, text in rows]
    return "\n".join(lines) + "\n"


def rendered(root, doc):
    sources = tracked_sources(root)
    folders = sorted({os.path.dirname(p) for p in sources})
    marked = [m.group(2) for m in TABLE.finditer(doc)]
    missing = [f for f in folders if f not in marked]
    if missing:
        raise MapError(f"no '<!-- files: FOLDER -->' table for {', '.join(missing)}")
    stale = [f for f in marked if f not in folders]
    if stale:
        raise MapError(f"a table for {', '.join(stale)}, which holds no tracked source")
    return TABLE.sub(lambda m: m.group(1) + table(rows_of(root, m.group(2), sources)) + m.group(4), doc)


def main(argv):
    if len(argv) not in (3, 4) or (len(argv) == 4 and argv[3] != "--check"):
        print(__doc__.strip().splitlines()[3].strip(), file=sys.stderr)
        return 2
    root, path, check = argv[1], argv[2], len(argv) == 4
    with open(path, encoding="utf-8") as f:
        doc = f.read()
    try:
        new = rendered(root, doc)
    except MapError as e:
        print(f"{path}: {e}", file=sys.stderr)
        return 2
    if check:
        if new != doc:
            print(f"{path} is not current: run scripts/code_map.py {root} {path}", file=sys.stderr)
            return 1
        return 0
    with open(path, "w", encoding="utf-8") as f:
        f.write(new)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
