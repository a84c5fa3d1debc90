#!/bin/sh
# run.sh SECONDS — fuzz the PTX parser for SECONDS seconds.
#
# Configures and builds build-fuzz/ (clang, -Dfuzz=true, ASan+UBSan) when it
# is not there yet, makes a fresh seed corpus in a temporary directory and
# runs fuzz_parse with the PTX dictionary. Exits non-zero on any crash, leak,
# timeout, out-of-memory or sanitizer report (libFuzzer's exit status; UBSan
# reports are made fatal) and prints the path of the input that caused it.
# Environment: SIMTLAB_FUZZ_BUILDDIR (default: build-fuzz in the source
# tree), SIMTLAB_FUZZ_ARTIFACTS (where failing inputs go; default:
# BUILDDIR/fuzz-artifacts), UBSAN_OPTIONS / ASAN_OPTIONS (override the
# defaults below), FUZZ_ARGS (extra libFuzzer flags).
set -eu

if [ $# -ne 1 ] || ! [ "$1" -gt 0 ] 2>/dev/null; then
    echo "usage: $0 SECONDS" >&2
    exit 2
fi
seconds=$1
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
build=${SIMTLAB_FUZZ_BUILDDIR:-$root/build-fuzz}
artifacts=${SIMTLAB_FUZZ_ARTIFACTS:-$build/fuzz-artifacts}

if [ ! -f "$build/build.ninja" ]; then
    CC=clang meson setup "$build" "$root" -Dfuzz=true \
        -Db_sanitize=address,undefined -Db_lundef=false
fi
ninja -C "$build" tools/fuzz/fuzz_parse

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT INT TERM
"$here/make_corpus.sh" "$work/corpus"
mkdir -p "$artifacts"
# remember what was there before, to report only this run's findings
(cd "$artifacts" && find . -type f | sort) > "$work/before"

export UBSAN_OPTIONS="${UBSAN_OPTIONS:-halt_on_error=1:abort_on_error=1:print_stacktrace=1}"
export ASAN_OPTIONS="${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=1}"

status=0
# shellcheck disable=SC2086 # FUZZ_ARGS is a list of flags
"$build/tools/fuzz/fuzz_parse" "$work/corpus" \
    -dict="$here/ptx.dict" -max_len=65536 -timeout=10 -rss_limit_mb=2048 \
    -max_total_time="$seconds" -print_final_stats=1 \
    -artifact_prefix="$artifacts/" ${FUZZ_ARGS:-} || status=$?

if [ "$status" -ne 0 ]; then
    echo "run.sh: fuzz_parse failed (exit status $status); failing input(s):" >&2
    (cd "$artifacts" && find . -type f | sort) | while IFS= read -r f; do
        grep -qxF "$f" "$work/before" || echo "  $artifacts/${f#./}" >&2
    done
    echo "reproduce: $build/tools/fuzz/fuzz_parse FILE" >&2
    exit "$status"
fi
echo "run.sh: no failures in $seconds seconds"
