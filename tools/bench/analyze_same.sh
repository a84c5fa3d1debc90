#!/usr/bin/env bash
# Check that two builds of simtlab give identical analysis results: runs
# `simtlab analyze` (--json, --json --control-dependence, the text report and
# --dot) with both on every file of testdata/ptx, testdata/hand and
# testdata/bin, on generated single huge kernels (tools/bench/gen_big_function.py:
# compiler-shaped, --irreducible, --dead-end, --branchy) and on any file given
# with -f, and compares the outputs byte for byte (large ones by SHA-256).
#
# The old side is a binary (-a) or a git revision (-r, built in a temporary
# directory from `git archive`); the new side is the working tree's release
# build (build-bench, built here) or a binary given with -b.
#
# Usage: analyze_same.sh (-r REV | -a OLD_BIN) [-b NEW_BIN] [-f FILE]... [-n]
#   -n  skip the generated kernels (quicker)
# Exit status: 0 all identical, 1 some output differs (listed), 2 usage or
# build failure.
set -euo pipefail
cd "$(dirname "$0")/../.."
old="" rev="" new="" gen=1
extra=()
while getopts "r:a:b:f:n" opt; do
    case $opt in
    r) rev=$OPTARG ;;
    a) old=$OPTARG ;;
    b) new=$OPTARG ;;
    f) extra+=("$OPTARG") ;;
    n) gen=0 ;;
    *) echo "usage: $0 (-r REV | -a OLD_BIN) [-b NEW_BIN] [-f FILE]... [-n]" >&2; exit 2 ;;
    esac
done
if { [ -z "$old" ] && [ -z "$rev" ]; } || { [ -n "$old" ] && [ -n "$rev" ]; }; then
    echo "usage: $0 (-r REV | -a OLD_BIN) [-b NEW_BIN] [-f FILE]... [-n]" >&2
    exit 2
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
if [ -n "$rev" ]; then
    mkdir "$tmp/src"
    git archive "$rev" | tar -x -C "$tmp/src"
    (cd "$tmp/src" && meson setup build --buildtype=release >/dev/null &&
        ninja -C build tools/simtlab >/dev/null) || { echo "building $rev failed" >&2; exit 2; }
    old=$tmp/src/build/tools/simtlab
fi
if [ -z "$new" ]; then
    if [ ! -f build-bench/build.ninja ]; then
        meson setup build-bench --buildtype=release >/dev/null
    fi
    ninja -C build-bench tools/simtlab >/dev/null || { echo "build failed" >&2; exit 2; }
    new=build-bench/tools/simtlab
fi

files=(testdata/ptx/*.ptx testdata/hand/*.ptx testdata/bin/*.ptx testdata/bin/sample.fatbin
       testdata/bin/sample.so "${extra[@]}")
if [ "$gen" = 1 ]; then
    for spec in "20000" "20000 --irreducible" "20000 --dead-end" "8000 --branchy"; do
        read -r n flags <<<"$spec"
        out="$tmp/big_${n}${flags// /}.ptx"
        # shellcheck disable=SC2086
        python3 tools/bench/gen_big_function.py -n "$n" $flags -o "$out"
        files+=("$out")
    done
fi

# run BIN MODE FILE OUT: the output of one analysis run, and its exit status
# on the last line (errors must agree too).
run() {
    local bin=$1 mode=$2 file=$3
    # shellcheck disable=SC2086
    { "$bin" analyze $mode "$file" 2>&1; echo "exit $?"; } | sha256sum
}
ndiff=0 nrun=0
for file in "${files[@]}"; do
    for mode in "--json" "--json --control-dependence" "" "--dot"; do
        a=$(run "$old" "$mode" "$file")
        b=$(run "$new" "$mode" "$file")
        nrun=$((nrun + 1))
        if [ "$a" != "$b" ]; then
            echo "DIFFERENT: simtlab analyze $mode $file"
            ndiff=$((ndiff + 1))
        fi
    done
done
echo "analyze_same: $nrun runs on ${#files[@]} files, $ndiff different"
[ "$ndiff" = 0 ]
