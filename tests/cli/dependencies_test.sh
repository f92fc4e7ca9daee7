#!/usr/bin/env bash
# Every Python module, header, shared library and program the project uses
# comes from a package of scripts/debian-packages.txt (or one it pulls in):
# scripts/check_dependencies.py. The check must also fail when it should:
# with a needed package taken out of the list it names that package.
set -u
source_dir=$1
build_dir=$2
check="/usr/bin/python3 $source_dir/scripts/check_dependencies.py $source_dir $build_dir"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }

$check || fail "scripts/debian-packages.txt misses a dependency (above)"

# Mutations: a Python module (report), a header-only library, a test tool.
for package in python3-matplotlib librandom123-dev hdf5-tools; do
  grep -vx "$package" "$source_dir/scripts/debian-packages.txt" >"$tmp/list.txt"
  if $check --list "$tmp/list.txt" >"$tmp/out.txt" 2>&1; then
    fail "the check passed with $package removed from the list"
  elif ! grep -q "Debian package $package," "$tmp/out.txt"; then
    fail "with $package removed the check failed without naming it: $(head -c 400 "$tmp/out.txt")"
  fi
done

if [ "$failures" -ne 0 ]; then
  echo "$failures failure(s)"
  exit 1
fi
echo "dependencies: the list is complete, and the check names a package taken out of it"
