#!/usr/bin/env bash
# bash completion (`gpusynth completion bash`, installed by `cmake --install`): the script
# parses, completes the commands, each command's options (every long option its --help lists,
# and none it lacks), the values of an option that takes one of a list, a config given without
# `run`, and file names where a path goes.
set -u
source "$(dirname "$0")/lib.sh"

expect_rc 0 "completion bash" "$gpusynth" completion bash
cp "$tmp/stdout" "$tmp/completion.bash"
bash -n "$tmp/completion.bash" || fail "the completion script does not parse"
expect_rc 2 "completion of another shell" "$gpusynth" completion fish
expect_in "$tmp/stderr" "bash" "the accepted shell is named"

completions() {  # words...: what bash offers for `gpusynth words...`, the last word the one being typed
  bash -c 'source "$1"; shift; COMP_WORDS=(gpusynth "$@"); COMP_CWORD=$#; _gpusynth; printf "%s\n" "${COMPREPLY[@]}"' \
    _ "$tmp/completion.bash" "$@" | sort | tr '\n' ' ' | sed 's/ $//'
}
expect_completions() {  # expected words...
  local expected=$1
  shift
  local got
  got=$(completions "$@")
  [ "$got" = "$expected" ] || fail "gpusynth $*<TAB>: '$got', expected '$expected'"
}
expect_completions "replay report" re
expect_completions "--backend" run --back
expect_completions "auto cpu cuda" run --backend ""
expect_completions "accurate fast" bursts --precision ""
expect_completions "--precision" configs/quickstart.yaml --prec  # a config without `run` is run's
expect_completions "bash" completion ""
expect_completions "" stats --backend  # stats has no --backend
touch "$tmp/study.yaml"
expect_completions "$tmp/study.yaml" run "$tmp/stu"

commands=$("$gpusynth" --help | sed -n '/^Subcommands:/,$p' | awk 'NR > 1 && /^  [a-z]/ {print $1}')
[ "$(echo "$commands" | wc -w)" -ge 10 ] || fail "gpusynth --help lists too few commands: $commands"
for command in $commands; do
  "$gpusynth" "$command" --help >"$tmp/help.txt" 2>&1
  offered=" $(completions "$command" --) "
  for option in $(grep -o -- '--[a-z][a-z0-9-]*' "$tmp/help.txt" | sort -u); do
    # --help's text also names other commands' options in its sentences: those of this command are
    # the ones that open an entry (after its short name, if any).
    grep -qE "^ +(-[a-zA-Z],)?$option\b" "$tmp/help.txt" || continue
    [[ $offered == *" $option "* ]] || fail "gpusynth $command --<TAB> lacks $option"
  done
  for option in $offered; do
    grep -qE -- "(^| |,)$option\b" "$tmp/help.txt" || fail "gpusynth $command --<TAB> offers $option, which its --help lacks"
  done
done
finish "cli.completion"
