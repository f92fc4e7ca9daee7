#!/usr/bin/env bash
# Every Python module, header, shared library and program the project uses
# comes from a package of scripts/debian-packages.txt or debian-packages-tests.txt (or one they pull in):
# scripts/check_dependencies.py. The check must also fail when it should:
# with a needed package taken out of the list it names that package (a Python
# module of the report, a header-only library, a tool of the tests).
set -u
source "$(dirname "$0")/lib.sh"
build_dir=$3

expect_rc 0 "the package list, and three packages taken out of it" \
  /usr/bin/python3 "$source_dir/scripts/check_dependencies.py" "$source_dir" "$build_dir" \
  --without python3-matplotlib librandom123-dev hdf5-tools
cat "$tmp/stdout"
for package in python3-matplotlib librandom123-dev hdf5-tools; do
  expect_in "$tmp/stdout" "without $package: the check fails: .*Debian package $package," "the check names $package"
done

# The README's first command installs scripts/debian-packages.txt alone: that list must hold what
# it builds (the executable and the Python module) and what the report runs; the tests' packages
# must not be needed there (libgtest-dev would be named if the first run's objects included it).
expect_rc 0 "the first run's package list" \
  /usr/bin/python3 "$source_dir/scripts/check_dependencies.py" "$source_dir" "$build_dir" --first-run \
  --without python3-matplotlib libfftw3-dev
cat "$tmp/stdout"
expect_in "$tmp/stdout" "resolves to a package of scripts/debian-packages.txt (" "the first run checks its own list"
for package in python3-matplotlib libfftw3-dev; do
  expect_in "$tmp/stdout" "without $package: the check fails: .*Debian package $package," "the first run's check names $package"
done

finish "dependencies"
