#!/usr/bin/env bash
# Install what simtlab needs to build and test, from Debian's packages, when
# it is missing. Safe to run repeatedly: it does nothing when all is present.
set -euo pipefail

packages=(gcc meson ninja-build flex bison pkg-config
          libelf-dev libzstd-dev liblz4-dev libcmocka-dev libjansson-dev
          libmetis-dev
          clang libclang-rt-dev
          python3-matplotlib)  # the plots of tools/experiments/run.py

missing=()
for p in "${packages[@]}"; do
    if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
        missing+=("$p")
    fi
done
if [ ${#missing[@]} -eq 0 ]; then
    exit 0
fi
echo "simtlab: installing missing packages: ${missing[*]}"
sudo=""
if [ "$(id -u)" -ne 0 ]; then
    sudo="sudo"
fi
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -qq
$sudo apt-get install -y -qq --no-install-recommends "${missing[@]}"
