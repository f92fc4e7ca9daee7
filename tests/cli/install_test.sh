#!/usr/bin/env bash
# `cmake --install` into a temporary prefix (docs/development.md, "Installing"): the
# installed binary runs (--version, a shipped config from PREFIX/share/gpusynth/configs,
# whose traces are installed beside it), its man page reads with `man -l`, its bash
# completion lies where bash-completion looks, its report runs the installed scripts (the
# sources hidden), and the Python module imports from PREFIX/lib/python3.X/dist-packages.
set -u
source "$(dirname "$0")/lib.sh"
build=$3
prefix=$tmp/prefix
cmake --install "$build" --prefix "$prefix" >"$tmp/install.log" 2>&1 || fail "cmake --install: $(tail -5 "$tmp/install.log")"
expect_rc 0 "the installed gpusynth --version" "$prefix/bin/gpusynth" --version
expect_in "$tmp/stdout" "^gpusynth " "the version line"
if command -v help2man >/dev/null; then
  page=$prefix/share/man/man1/gpusynth.1
  [ -s "$page" ] || fail "no man page at $page"
  MANPAGER=cat MANWIDTH=100 man -l "$page" >"$tmp/man.txt" 2>"$tmp/man.err" || fail "man -l: $(cat "$tmp/man.err")"
  expect_in "$tmp/man.txt" "gpusynth CONFIG.yaml" "the man page's usage"
  expect_in "$tmp/man.txt" "replay" "the man page lists the commands"
  # One page per subcommand the help lists, named after it, with EXAMPLES; ± reads as ± in UTF-8,
  # and as +- in the C locale, never '??' (scripts/man_pages.sh).
  for command in $("$prefix/bin/gpusynth" --help | sed -n '/^Subcommands:/,$ s/^  \([a-z][a-z-]*\) .*/\1/p'); do
    page=$prefix/share/man/man1/gpusynth-$command.1
    [ -s "$page" ] || fail "no man page at $page"
    LC_ALL=C MANPAGER=cat MANWIDTH=100 man -l "$page" >"$tmp/man.txt" 2>"$tmp/man.err" || fail "man -l: $(cat "$tmp/man.err")"
    expect_in "$tmp/man.txt" "^ *gpusynth-$command  *-  *[a-zA-Z]" "the NAME of gpusynth-$command.1"
    expect_in "$tmp/man.txt" "^GPUSYNTH-${command^^}(1)" "the title of gpusynth-$command.1"
    expect_in "$tmp/man.txt" "^EXAMPLES" "the EXAMPLES of gpusynth-$command.1"
    ! grep -q '??' "$tmp/man.txt" || fail "gpusynth-$command.1 prints '??': $(grep -m 1 '??' "$tmp/man.txt")"
    # ASCII source, every other character a groff escape: a reader without preconv (nroff) shows it too.
    ! LC_ALL=C grep -qP '[^\x00-\x7F]' "$page" ||
      fail "gpusynth-$command.1 holds raw non-ASCII text: $(LC_ALL=C grep -m 1 -P '[^\x00-\x7F]' "$page")"
  done
  LC_ALL=C MANPAGER=cat man -l "$prefix/share/man/man1/gpusynth-fit.1" >"$tmp/man.txt" 2>&1
  expect_in "$tmp/man.txt" "estimates +- SE" "± in the C locale"
  LC_ALL=C.UTF-8 MANPAGER=cat man -l "$prefix/share/man/man1/gpusynth-fit.1" >"$tmp/man.txt" 2>&1
  expect_in "$tmp/man.txt" "estimates ± SE" "± in a UTF-8 locale"
else
  echo "note: help2man is not installed (Debian: help2man): no man page to check"
fi
completion=$prefix/share/bash-completion/completions/gpusynth
grep -q "complete .*-F _gpusynth gpusynth" "$completion" 2>/dev/null || fail "no bash completion at $completion"
expect_rc 0 "an installed config runs" "$prefix/bin/gpusynth" "$prefix/share/gpusynth/configs/replay.yaml" \
  --replicas 2 -q -o "$tmp/replay.h5"
# The report from the installed scripts alone: GPUSYNTH_REPORT_SCRIPT unset, the sources out of reach.
(unset GPUSYNTH_REPORT_SCRIPT; cd "$tmp" && "$prefix/bin/gpusynth" report "$tmp/replay.h5" -o "$tmp/report") \
  >"$tmp/report.log" 2>&1 || fail "the installed report: $(tail -3 "$tmp/report.log")"
[ -s "$tmp/report/index.html" ] || fail "the installed report wrote no index.html"
if ls "$build"/python/gpusynth*.so >/dev/null 2>&1; then
  site=$(ls -d "$prefix"/lib/python3*/dist-packages)
  PYTHONPATH=$site /usr/bin/python3 -c "import gpusynth, sys; assert gpusynth.__file__.startswith(sys.argv[1]), gpusynth.__file__" \
    "$site" >"$tmp/py.log" 2>&1 || fail "import gpusynth from $site: $(cat "$tmp/py.log")"
else
  echo "note: the Python module is not built: nothing to import"
fi
finish "cli.install"
