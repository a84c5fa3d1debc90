#!/usr/bin/env bash
# Time `simtlab analyze` against `simtlab parse` on the same large PTX file
# (the analyses include the parse; the text report is small, so that run
# measures the analyses; the --json run adds writing every register access).
#
# Each round runs parse, analyze and analyze --json once, back to back, and
# takes their CPU time (user + system: a busy machine distorts it less than
# wall time). The ratio analyze / parse is taken within each round, so that
# a change in the machine's load between rounds moves both sides; the
# script prints the best CPU time of each command, the per-round ratios
# (smallest, median, largest) and the ratio of the best times, with the
# machine: CPU model, cores, load average.
# Usage: analyze_bench.sh [-s MiB] [-f FILE] [-n ROUNDS] [-x BIN]
set -euo pipefail
cd "$(dirname "$0")/../.."
size=64
file=""
rounds=5
bin=""
while getopts "s:f:n:x:" opt; do
    case $opt in
    s) size=$OPTARG ;;
    f) file=$OPTARG ;;
    n) rounds=$OPTARG ;;
    x) bin=$OPTARG ;;
    *) echo "usage: $0 [-s MiB] [-f FILE] [-n ROUNDS] [-x BIN]" >&2; exit 2 ;;
    esac
done
if [ ! -x /usr/bin/time ]; then
    echo "analyze_bench: GNU time is missing (apt-get install time)" >&2
    exit 2
fi
if [ -z "$bin" ]; then
    if [ ! -f build-bench/build.ninja ]; then
        meson setup build-bench --buildtype=release >/dev/null
    fi
    ninja -C build-bench tools/simtlab >/dev/null
    bin=build-bench/tools/simtlab
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
if [ -z "$file" ]; then
    file=$tmp/bench.ptx
    python3 tools/bench/gen_ptx.py -s "$size" -o "$file" -q
fi
# cpu NAME command...: one run; appends "CPU-seconds wall-seconds peak-RSS-KiB" to $tmp/NAME
cpu() {
    local name=$1
    shift
    /usr/bin/time -f "%U %S %e %M" -o "$tmp/t" "$@" >/dev/null
    read -r u s w m <"$tmp/t"
    awk -v u="$u" -v s="$s" -v w="$w" -v m="$m" 'BEGIN {printf "%.2f %s %s\n", u + s, w, m}' \
        >>"$tmp/$name"
}
load=$(cut -d' ' -f1-3 /proc/loadavg)
cat "$file" >/dev/null # page cache warm
for _ in $(seq "$rounds"); do
    cpu parse "$bin" parse "$file"
    cpu analyze "$bin" analyze "$file"
    cpu json "$bin" analyze --json "$file"
done
mb=$(awk "BEGIN {printf \"%.1f\", $(stat -c %s "$file") / 1048576}")
json_mb=$(( $("$bin" analyze --json "$file" | wc -c) / 1048576 ))
best() { sort -n "$tmp/$1" | head -1; } # the line of the smallest CPU time
read -r cp wp mp < <(best parse)
read -r ca wa ma < <(best analyze)
read -r cj wj mj < <(best json)
echo "analyze benchmark: $mb MiB, $rounds rounds; $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'), $(nproc) cores, load $load"
echo "  best CPU seconds (wall of that run, peak RSS):"
echo "  simtlab parse          $cp s  ($wp s, $((mp / 1024)) MiB)"
echo "  simtlab analyze        $ca s  ($wa s, $((ma / 1024)) MiB)"
echo "  simtlab analyze --json $cj s  ($wj s, $((mj / 1024)) MiB, $json_mb MiB of JSON)"
paste -d' ' "$tmp/parse" "$tmp/analyze" | awk '{print $4 / $1}' | sort -n >"$tmp/ratios"
awk -v best="$(awk "BEGIN {print $ca / $cp}")" '{r[NR] = $1}
    END {printf "  analyze / parse (CPU)  per round %.2f / %.2f / %.2f (smallest / median / largest); best times %.2f\n",
                r[1], (NR % 2 ? r[(NR + 1) / 2] : (r[NR / 2] + r[NR / 2 + 1]) / 2), r[NR], best;
         printf "  target <= 2x (median per-round ratio): %s\n", (NR % 2 ? r[(NR + 1) / 2] : (r[NR / 2] + r[NR / 2 + 1]) / 2) <= 2 ? "PASS" : "FAIL"}' \
    "$tmp/ratios"
