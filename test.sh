#!/usr/bin/env bash
# Run simtlab's whole test suite: the unit and end-to-end tests in a normal
# build and again under AddressSanitizer + UndefinedBehaviorSanitizer, then
# the parser fuzzer for a bounded time. Installs missing dependencies first.
set -euo pipefail
cd "$(dirname "$0")"
tools/deps.sh

run_suite() { # build-dir, meson options...
    local dir=$1
    shift
    if [ ! -f "$dir/build.ninja" ]; then
        meson setup "$dir" "$@"
    fi
    ninja -C "$dir"
    meson test -C "$dir" --print-errorlogs
}

echo "== tests (debugoptimized build)"
run_suite build-test
echo "== tests under ASan + UBSan"
ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1 \
    run_suite build-asan -Db_sanitize=address,undefined -Db_lundef=false
echo "== parser fuzzing (${SIMTLAB_FUZZ_SECONDS:-60} s)"
tools/fuzz/run.sh "${SIMTLAB_FUZZ_SECONDS:-60}"
echo "== all tests passed"
