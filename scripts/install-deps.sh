#!/usr/bin/env bash
# Installs the Debian packages of scripts/debian-packages.txt that are missing
# (apt-get; through sudo when not run as root), and with --tests those of
# scripts/debian-packages-tests.txt too (the tests, benchmarks and fuzz
# targets). Installs nothing when all are present.
#   scripts/install-deps.sh [--tests]
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
lists=("$here/debian-packages.txt")
case "${1:-}" in
  "") ;;
  --tests) lists+=("$here/debian-packages-tests.txt") ;;
  *) echo "usage: scripts/install-deps.sh [--tests]" >&2; exit 2 ;;
esac
mapfile -t wanted < <(cat "${lists[@]}" | grep -v '^\s*#' | grep -v '^\s*$')
missing=()
for package in "${wanted[@]}"; do
  dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed" || missing+=("$package")
done
if [ ${#missing[@]} -eq 0 ]; then
  echo "install-deps: all ${#wanted[@]} packages are installed"
  exit 0
fi
sudo=""
if [ "$(id -u)" -ne 0 ]; then sudo="sudo"; fi
echo "install-deps: apt-get install ${missing[*]}"
$sudo apt-get update -qq
DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}"
