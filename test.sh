#!/usr/bin/env bash
# Run simtlab's whole test suite: the unit and end-to-end tests in a normal
# build and again under AddressSanitizer + UndefinedBehaviorSanitizer, then
# the three fuzzers (PTX, fatbin/ELF decoding, CUDA runtime calls) for a
# bounded time each. Installs missing dependencies first.
set -euo pipefail
cd "$(dirname "$0")"
tools/deps.sh

passed=0
failed=0
# meson test with the given arguments; adds its counts to the totals
count_tests() {
    local out
    out=$(mktemp)
    local rc=0
    meson test "$@" --print-errorlogs 2>&1 | tee "$out" || rc=$?
    passed=$((passed + $(awk '/^Ok:/ {print $2}' "$out")))
    failed=$((failed + $(awk '/^Fail:/ {print $2}' "$out")))
    rm -f "$out"
    return $rc
}

run_suite() { # build-dir, meson options...
    local dir=$1
    shift
    if [ ! -f "$dir/build.ninja" ]; then
        meson setup "$dir" "$@"
    fi
    ninja -C "$dir"
    count_tests -C "$dir"
}

echo "== tests (debugoptimized build)"
run_suite build-test
echo "== tests under ASan + UBSan"
ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1 \
    run_suite build-asan -Db_sanitize=address,undefined -Db_lundef=false
echo "== parser fuzzing (${SIMTLAB_FUZZ_SECONDS:-60} s)"
tools/fuzz/run.sh parse "${SIMTLAB_FUZZ_SECONDS:-60}"
echo "== fatbin and ELF decoding fuzzing (${SIMTLAB_FUZZ_SECONDS_FATBIN:-45} s)"
tools/fuzz/run.sh fatbin "${SIMTLAB_FUZZ_SECONDS_FATBIN:-45}"
echo "== CUDA runtime call fuzzing (${SIMTLAB_FUZZ_SECONDS_RUNTIME:-45} s)"
tools/fuzz/run.sh runtime "${SIMTLAB_FUZZ_SECONDS_RUNTIME:-45}"
echo "== all tests passed"
echo "$passed passed, $failed failed"
