#!/bin/sh
# run.sh [TARGET] SECONDS — fuzz one target for SECONDS seconds.
#
# TARGET is parse (the PTX front-end and emulator; the default), fatbin
# (the decoding of CUDA binaries and of the fatbins programs register) or
# runtime (sequences of CUDA runtime calls). Configures and builds
# build-fuzz/ (clang, -Dfuzz=true, ASan+UBSan) when it is not there yet,
# makes a fresh seed corpus in a temporary directory (parse:
# make_corpus.sh; the others: seeds/TARGET/ and regressions/TARGET/, and
# for fatbin the sample binaries of testdata/bin) and
# runs fuzz_TARGET on it, one job. Exits non-zero on any crash, leak,
# timeout, out-of-memory or sanitizer report (libFuzzer's exit status;
# UBSan reports are made fatal) and prints the path of the input that
# caused it.
# Environment: SIMTLAB_FUZZ_BUILDDIR (default: build-fuzz in the source
# tree), SIMTLAB_FUZZ_ARTIFACTS (where failing inputs go; default:
# BUILDDIR/fuzz-artifacts/TARGET), SIMTLAB_FUZZ_CORPUS (a corpus directory
# to use and keep instead of the temporary one), UBSAN_OPTIONS /
# ASAN_OPTIONS (override the defaults below), FUZZ_ARGS (extra libFuzzer
# flags).
set -eu

usage() {
    echo "usage: $0 [parse|fatbin|runtime] SECONDS" >&2
    exit 2
}
target=parse
if [ $# -eq 2 ]; then
    target=$1
    shift
fi
[ $# -eq 1 ] && [ "$1" -gt 0 ] 2>/dev/null || usage
seconds=$1
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
build=${SIMTLAB_FUZZ_BUILDDIR:-$root/build-fuzz}
artifacts=${SIMTLAB_FUZZ_ARTIFACTS:-$build/fuzz-artifacts/$target}

# per target: libFuzzer flags (the runtime prints why it refuses a call on
# stderr, thousands of lines a second: -close_fd_mask=2 hides them, while
# sanitizer reports and the harness's own failure message still appear)
case $target in
parse) flags="-dict=$here/ptx.dict -max_len=65536" ;;
fatbin) flags="-max_len=32768" ;;
runtime) flags="-max_len=512 -close_fd_mask=2" ;;
*) usage ;;
esac

if [ ! -f "$build/build.ninja" ]; then
    CC=clang meson setup "$build" "$root" -Dfuzz=true \
        -Db_sanitize=address,undefined -Db_lundef=false
fi
ninja -C "$build" "tools/fuzz/fuzz_$target"

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT INT TERM
corpus=${SIMTLAB_FUZZ_CORPUS:-$work/corpus}
mkdir -p "$corpus"
if [ "$target" = parse ]; then
    "$here/make_corpus.sh" "$corpus"
else
    dirs="$here/seeds/$target $here/regressions/$target"
    # the sample binaries of testdata/bin (executables, shared object, objects, fatbins)
    [ "$target" = fatbin ] && dirs="$dirs $root/testdata/bin"
    for d in $dirs; do
        [ -d "$d" ] || continue
        for f in "$d"/*; do
            [ -f "$f" ] && [ "$(wc -c < "$f")" -le 32768 ] && cp "$f" "$corpus/$(basename "$d")_$(basename "$f")"
        done
    done
fi
mkdir -p "$artifacts"
# remember what was there before, to report only this run's findings
(cd "$artifacts" && find . -type f | sort) > "$work/before"

export UBSAN_OPTIONS="${UBSAN_OPTIONS:-halt_on_error=1:abort_on_error=1:print_stacktrace=1}"
export ASAN_OPTIONS="${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=1}"

status=0
# shellcheck disable=SC2086 # flags and FUZZ_ARGS are lists of flags
"$build/tools/fuzz/fuzz_$target" "$corpus" $flags -timeout=10 -rss_limit_mb=2048 \
    -max_total_time="$seconds" -print_final_stats=1 \
    -artifact_prefix="$artifacts/" ${FUZZ_ARGS:-} || status=$?

if [ "$status" -ne 0 ]; then
    echo "run.sh: fuzz_$target failed (exit status $status); failing input(s):" >&2
    (cd "$artifacts" && find . -type f | sort) | while IFS= read -r f; do
        grep -qxF "$f" "$work/before" || echo "  $artifacts/${f#./}" >&2
    done
    echo "reproduce: $build/tools/fuzz/fuzz_$target FILE" >&2
    exit "$status"
fi
echo "run.sh: fuzz_$target: no failures in $seconds seconds"
