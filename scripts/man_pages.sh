#!/usr/bin/env bash
# The man pages `cmake --install` installs (CMakeLists.txt, target gpusynth_man): gpusynth.1 and
# one gpusynth-COMMAND.1 per subcommand the CLI's --help lists, each made by help2man from the
# CLI's own --help, with the EXAMPLES of docs/man/COMMAND.h2m (docs/man/gpusynth.h2m for the top
# page; a subcommand without one is an error, so a new subcommand cannot ship without examples).
# Non-ASCII characters (±, µ, α) become groff's \[uXXXX] escapes, so that `man` shows them in any
# locale (± is "+-" in ASCII): help2man under the C locale wrote '??' for ±, and raw UTF-8 needs a
# UTF-8 reader; groff has no ASCII form of "…", written "...".
#
#   man_pages.sh GPUSYNTH EXAMPLES_DIR OUT_DIR
set -euo pipefail
gpusynth=$1 examples=$2 out=$3
mkdir -p "$out"
rm -f "$out"/*.1  # a page of a subcommand that is gone is not installed
version=$("$gpusynth" --version | head -n 1)
# The escapes, for the generated page and for the NAME line help2man takes as bytes.
escape() { perl -CSD -pe 's/\x{2026}/.../g; s/([^\x00-\x7F])/sprintf("\\[u%04X]", ord $1)/ge'; }
# "  name   description" under "Subcommands:"; the description's first clause is the page's NAME line.
listing=$("$gpusynth" --help | sed -n '/^Subcommands:/,$p' | sed -n 's/^  \([a-z][a-z-]*\)  *\(.*\)$/\1\t\2/p')
[ -n "$listing" ] || { echo "man_pages.sh: '$gpusynth --help' lists no subcommands" >&2; exit 1; }
commands=$(cut -f 1 <<<"$listing")
see_also=$(mktemp)
trap 'rm -f "$see_also"' EXIT

# page NAME HELP_OPTION DESCRIPTION: OUT_DIR/NAME.1
page() {
  local name=$1 option=$2 description=$3 include=$examples/${1#gpusynth-}.h2m
  [ "$name" = gpusynth ] && include=$examples/gpusynth.h2m
  [ -s "$include" ] || { echo "man_pages.sh: no EXAMPLES for $name: $include is missing" >&2; exit 1; }
  { echo "[SEE ALSO]"; for c in gpusynth $(sed 's/^/gpusynth-/' <<<"$commands"); do
      [ "$c" = "$name" ] || printf '.BR %s (1),\n' "${c//-/\\-}"; done | sed '$ s/,$//'; } >"$see_also"
  help2man --locale=C.UTF-8 --no-info --no-discard-stderr --section 1 --name "$(escape <<<"$description")" \
    --help-option "$option" --version-string "$version" --include "$include" --include "$see_also" \
    "$gpusynth" >"$out/$name.1.tmp"
  # The page's own name (help2man names every page after the executable), then the escapes.
  NAME=$name perl -pe '
    BEGIN { ($upper = uc $ENV{NAME}) =~ s/-/\\-/g; ($lower = $ENV{NAME}) =~ s/-/\\-/g }
    s/^\.TH GPUSYNTH /.TH $upper /;
    s/^gpusynth \\- /$lower \\- / if $name_next; $name_next = /^\.SH NAME/' "$out/$name.1.tmp" | escape >"$out/$name.1"
  rm -f "$out/$name.1.tmp"
}

page gpusynth --help "GPU-accelerated synthesis of bursty, heavy-tailed, self-similar parallel I/O workloads"
while IFS=$'\t' read -r command description; do
  description=${description%%: *}  # "run CONFIG and its bursts: section: ..." -> "run CONFIG and its bursts"
  page "gpusynth-$command" "$command --help" "${description%% (*}"
done <<<"$listing"
