#!/usr/bin/env bash
# How `simtlab analyze` scales with the size of one function: generates single
# kernels of 25k..400k instructions (tools/bench/gen_big_function.py) and times
# `simtlab parse` and `simtlab analyze` on each (best of 3: CPU seconds, user +
# system, which a busy machine distorts less than wall time; wall seconds and
# peak RSS of the best analyze run). Two series by default: compiler-shaped
# code, and --branchy (one loop holding tens of thousands of breaks, early
# returns and continues: many branches whose reconvergence points lie at the
# loop's end or outside it).
# Usage: scale_bench.sh [-m "25000 50000 100000 200000 400000"] [-x "--irreducible"]
#   -x FLAGS  one series with these generator flags ("" for compiler-shaped)
set -euo pipefail
cd "$(dirname "$0")/../.."
sizes="25000 50000 100000 200000 400000"
series=("" "--branchy")
while getopts "m:x:" opt; do
    case $opt in
    m) sizes=$OPTARG ;;
    x) series=("$OPTARG") ;;
    *) echo "usage: $0 [-m SIZES] [-x GENERATOR-FLAGS]" >&2; exit 2 ;;
    esac
done
if [ ! -f build-bench/build.ninja ]; then
    meson setup build-bench --buildtype=release >/dev/null
fi
ninja -C build-bench tools/simtlab >/dev/null
bin=build-bench/tools/simtlab
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
best() { # command... -> best CPU seconds of 3, wall seconds and peak RSS MiB of that run
    local best_c="" best_w="" best_m=""
    for _ in 1 2 3; do
        /usr/bin/time -f "%U %S %e %M" -o "$tmp/t" "$@" >/dev/null
        read -r u s w mem <"$tmp/t"
        c=$(awk "BEGIN {printf \"%.2f\", $u + $s}")
        if [ -z "$best_c" ] || awk "BEGIN {exit !($c < $best_c)}"; then
            best_c=$c
            best_w=$w
            best_m=$((mem / 1024))
        fi
    done
    echo "$best_c $best_w $best_m"
}
echo "scale benchmark: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'), load $(cut -d' ' -f1-3 /proc/loadavg)"
for extra in "${series[@]}"; do
    echo "${extra:-compiler-shaped}:"
    printf "%10s %8s %9s %9s %11s %11s %7s %8s\n" instrs blocks branches "parse s" "analyze s" \
        "(wall s)" ratio "RSS MiB"
    for n in $sizes; do
        # shellcheck disable=SC2086
        python3 tools/bench/gen_big_function.py -n "$n" $extra -o "$tmp/k.ptx"
        read -r cp _ _ < <(best "$bin" parse "$tmp/k.ptx")
        read -r ca wa ma < <(best "$bin" analyze "$tmp/k.ptx")
        "$bin" analyze "$tmp/k.ptx" >"$tmp/report"
        blocks=$(sed -n 's/^kernel k: \([0-9]*\) blocks.*/\1/p' "$tmp/report")
        branches=$(sed -n 's/^  branches: \([0-9]*\)$/\1/p' "$tmp/report")
        printf "%10s %8s %9s %9s %11s %11s %7s %8s\n" "$n" "$blocks" "$branches" "$cp" "$ca" \
            "($wa)" "$(awk "BEGIN {printf \"%.1f\", $ca / ($cp > 0 ? $cp : 0.01)}")" "$ma"
    done
done
