#!/usr/bin/env bash
# Time `simtlab analyze` against `simtlab parse` on the same large PTX file
# (the analyses include the parse; the text report is small, so that run
# measures the analyses; the --json run adds writing every register access).
# Usage: analyze_bench.sh [-s MiB] [-f FILE]
set -euo pipefail
cd "$(dirname "$0")/../.."
size=64
file=""
while getopts "s:f:" opt; do
    case $opt in
    s) size=$OPTARG ;;
    f) file=$OPTARG ;;
    *) echo "usage: $0 [-s MiB] [-f FILE]" >&2; exit 2 ;;
    esac
done
if [ ! -f build-bench/build.ninja ]; then
    meson setup build-bench --buildtype=release >/dev/null
fi
ninja -C build-bench tools/simtlab >/dev/null
bin=build-bench/tools/simtlab
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
if [ -z "$file" ]; then
    file=$tmp/bench.ptx
    python3 tools/bench/gen_ptx.py -s "$size" -o "$file" -q
fi
best() { # command... -> best wall seconds of 3 and peak RSS KiB of the best run
    local best_t="" best_m=""
    for _ in 1 2 3; do
        /usr/bin/time -f "%e %M" -o "$tmp/t" "$@" >/dev/null
        read -r t mem <"$tmp/t"
        if [ -z "$best_t" ] || awk "BEGIN {exit !($t < $best_t)}"; then
            best_t=$t
            best_m=$mem
        fi
    done
    echo "$best_t $best_m"
}
mb=$(awk "BEGIN {printf \"%.1f\", $(stat -c %s "$file") / 1048576}")
read -r tp mp < <(best "$bin" parse "$file")
read -r ta ma < <(best "$bin" analyze "$file")
read -r tj mj < <(best "$bin" analyze --json "$file")
echo "analyze benchmark: $mb MiB, $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //')"
echo "  simtlab parse          $tp s   peak RSS $((mp / 1024)) MiB"
echo "  simtlab analyze        $ta s   peak RSS $((ma / 1024)) MiB"
echo "  simtlab analyze --json $tj s   peak RSS $((mj / 1024)) MiB   ($(( $("$bin" analyze --json "$file" | wc -c) / 1048576 )) MiB of JSON)"
awk "BEGIN {r = $ta / $tp; printf \"  analyze / parse        %.2fx   target <= 2x: %s\n\", r, (r <= 2 ? \"PASS\" : \"FAIL\")}"
