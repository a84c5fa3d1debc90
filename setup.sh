#!/usr/bin/env bash
# Set up simtlab on a fresh Debian machine: install what is missing, build,
# and run the main job (parse a bundled CUDA example and print its CFG).
set -euo pipefail
cd "$(dirname "$0")"
tools/deps.sh
if [ ! -f build/build.ninja ]; then
    meson setup build --buildtype=release
fi
ninja -C build
example=testdata/bin/sample_exe
echo
echo "== simtlab extract $example"
build/tools/simtlab extract "$example"
echo
echo "== simtlab parse $example"
build/tools/simtlab parse "$example"
echo
echo "== simtlab cfg -k _Z9alternatePii $example"
build/tools/simtlab cfg -k _Z9alternatePii "$example"
