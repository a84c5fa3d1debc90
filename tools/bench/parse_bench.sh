#!/usr/bin/env bash
# Parse benchmark: how fast `simtlab parse` reads a large PTX file, and how much memory it takes.
#
# Usage: tools/bench/parse_bench.sh [-s MB] [-t sm_90] [-f FILE] [-k] [-n RUNS] [-B BUILDDIR] [-x BIN]
#   -s MB      size of the generated PTX file in MiB (default 64; at least 50)
#   -t TARGET  which testdata/ptx/*.<TARGET>.O3.ptx files to build it from (default sm_90)
#   -f FILE    measure this PTX file instead of generating one (no size check)
#   -k         keep the generated file (its path is printed) instead of deleting it
#   -n RUNS    parse runs, the best wall time counts (default 3)
#   -B DIR     build directory of the release binary (default build-bench in the repository)
#   -x BIN     measure this simtlab binary instead of building one
#
# Steps: builds the release binary if needed (meson setup DIR --buildtype=release; ninja -C DIR),
# generates the file with tools/bench/gen_ptx.py into a temporary directory, reads it once so it
# is in the page cache, times `wc -l` on it (the I/O floor, best of RUNS), times
# `simtlab parse` (best of RUNS) and records its peak RSS with /usr/bin/time -f %M, then prints
# the figures and the issue's targets (>= 100 MiB/s, peak RSS <= 4x the file size) as PASS/FAIL.
# Exits 0 whatever the figures are (it is a measurement, not a test); non-zero only when
# something failed to run (build, generation, parse error, missing tools).
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(cd "$here/../.." && pwd)
size=64
target=sm_90
file=
keep=0
runs=3
builddir=$root/build-bench
bin=

die() { echo "parse_bench: $*" >&2; exit 2; }

while getopts "s:t:f:kn:B:x:h" opt; do
    case $opt in
        s) size=$OPTARG ;;
        t) target=$OPTARG ;;
        f) file=$OPTARG ;;
        k) keep=1 ;;
        n) runs=$OPTARG ;;
        B) builddir=$OPTARG ;;
        x) bin=$OPTARG ;;
        h) sed -n '2,20p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//'; exit 0 ;;
        *) die "bad option (see -h)" ;;
    esac
done
[[ $runs =~ ^[1-9][0-9]*$ ]] || die "-n wants a positive number"

# --- tools -----------------------------------------------------------------------------------
if [[ ! -x /usr/bin/time ]]; then
    die "/usr/bin/time (GNU time) is missing; it measures peak RSS. Install it: apt-get install time"
fi
if ! /usr/bin/time -f %M true >/dev/null 2>&1; then
    die "/usr/bin/time does not take -f %M (not GNU time?); install GNU time: apt-get install time"
fi
command -v python3 >/dev/null || die "python3 is missing (gen_ptx.py needs it)"
[[ -n ${EPOCHREALTIME:-} ]] || die "bash 5 or newer is needed (EPOCHREALTIME)"

# --- build -----------------------------------------------------------------------------------
if [[ -z $bin ]]; then
    if [[ ! -f $builddir/build.ninja ]]; then
        echo "parse_bench: configuring $builddir (release)" >&2
        meson setup "$builddir" "$root" --buildtype=release >/dev/null || die "meson setup failed"
    fi
    ninja -C "$builddir" tools/simtlab >/dev/null || die "build failed (ninja -C $builddir)"
    bin=$builddir/tools/simtlab
    buildtype=$(meson introspect "$builddir" --buildoptions 2>/dev/null |
        python3 -c 'import json,sys; o={x["name"]:x["value"] for x in json.load(sys.stdin)}; print(o.get("buildtype","?"), "c_args=" + " ".join(o.get("c_args") or []))' \
        2>/dev/null || echo "?")
else
    buildtype="given with -x"
fi
[[ -x $bin ]] || die "no binary at $bin"

# --- input -----------------------------------------------------------------------------------
tmp=$(mktemp -d -t parse_bench.XXXXXX)
cleanup() { if [[ $keep == 1 ]]; then rm -f "$tmp"/*.out "$tmp"/*.err "$tmp"/*.time; else rm -rf "$tmp"; fi; }
trap cleanup EXIT
if [[ -z $file ]]; then
    awk -v s="$size" 'BEGIN { exit !(s + 0 >= 50) }' || die "-s $size: the benchmark wants at least 50 MiB"
    file=$tmp/bench.$target.ptx
    python3 "$here/gen_ptx.py" -s "$size" -t "$target" -o "$file" || die "gen_ptx.py failed"
    [[ $keep == 1 ]] && echo "parse_bench: keeping $file" >&2
else
    [[ -r $file ]] || die "cannot read $file"
fi

# --- measure ---------------------------------------------------------------------------------
now() { echo "$EPOCHREALTIME"; }
elapsed() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.6f", b - a }'; }
min() { awk -v a="$1" -v b="$2" 'BEGIN { print (a == "" || b + 0 < a + 0) ? b : a }'; }

bytes=$(stat -c %s "$file")
cat "$file" >/dev/null   # warm-up read: the file is in the page cache from here on

wc_best=
for ((i = 0; i < runs; i++)); do
    t0=$(now); lines=$(wc -l <"$file"); t1=$(now)
    wc_best=$(min "$wc_best" "$(elapsed "$t0" "$t1")")
done

parse_best=
cpu_best=
rss_max=0
for ((i = 0; i < runs; i++)); do
    t0=$(now)
    if ! /usr/bin/time -f "%M %U %S" -o "$tmp/parse.time" "$bin" parse "$file" >"$tmp/parse.out" 2>"$tmp/parse.err"; then
        st=$(grep -v '^[0-9]' "$tmp/parse.time" 2>/dev/null | tr '\n' ' ' | sed 's/ *$//')
        echo "parse_bench: simtlab parse failed on $file (${st:-no status}):" >&2
        head -20 "$tmp/parse.err" >&2
        exit 1
    fi
    t1=$(now)
    parse_best=$(min "$parse_best" "$(elapsed "$t0" "$t1")")
    read -r rss_kb user_s sys_s < <(tail -1 "$tmp/parse.time")
    cpu_best=$(min "$cpu_best" "$(awk -v u="$user_s" -v s="$sys_s" 'BEGIN { printf "%.2f", u + s }')")
    ((rss_kb > rss_max)) && rss_max=$rss_kb
done
instrs=$(awk '/^ *total:/ { print $2 }' "$tmp/parse.out")
[[ -n $instrs ]] || { echo "parse_bench: no 'total:' line in the parse output" >&2; exit 1; }
if [[ -s $tmp/parse.err ]]; then
    echo "parse_bench: note: simtlab parse wrote $(wc -l <"$tmp/parse.err") diagnostic line(s), e.g.:" >&2
    head -3 "$tmp/parse.err" >&2
fi

cpu=$(awk -F': *' '/^model name/ { print $2; exit }' /proc/cpuinfo 2>/dev/null || true)
[[ -n $cpu ]] || cpu=$(uname -m)
fam=$(awk -F': *' '/^cpu family/ { f = $2 } /^model[ \t]*:/ { m = $2 } END { if (f != "") print "family " f ", model " m }' /proc/cpuinfo 2>/dev/null || true)
[[ -n $fam ]] && cpu="$cpu ($fam)"
load=$(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || echo "?")

awk -v bytes="$bytes" -v lines="$lines" -v instrs="$instrs" -v wc="$wc_best" -v parse="$parse_best" \
    -v rss="$rss_max" -v cpu_s="$cpu_best" -v runs="$runs" -v cpu="$cpu" -v nproc="$(nproc)" -v load="$load" -v bin="$bin" \
    -v bt="$buildtype" -v file="$file" '
BEGIN {
    mib = bytes / 1048576; rssmib = rss / 1024
    wcr = (wc > 0) ? mib / wc : 0; pr = (parse > 0) ? mib / parse : 0
    cpr = (cpu_s > 0) ? mib / cpu_s : 0; ratio = (wc > 0) ? parse / wc : 0
    printf "parse benchmark: %s\n", file
    printf "  machine          %s, %d cores (nproc), load average %s\n", cpu, nproc, load
    printf "  binary           %s (%s)\n", bin, bt
    printf "  file size        %.1f MiB (%d bytes)\n", mib, bytes
    printf "  lines            %d\n", lines
    printf "  instructions     %d\n", instrs
    printf "  wc -l            %.3f s  %8.1f MiB/s   (best of %d, page cache warm)\n", wc, wcr, runs
    printf "  simtlab parse    %.3f s  %8.1f MiB/s   (best of %d)\n", parse, pr, runs
    printf "  parse CPU time   %.2f s  %8.1f MiB/s   (user+sys, best of %d; wall above counts waits on a busy machine)\n", cpu_s, cpr, runs
    printf "  parse / wc -l    %.1fx\n", ratio
    printf "  peak RSS         %.1f MiB = %.2fx the file size\n", rssmib, rssmib / mib
    printf "  target: throughput >= 100 MiB/s    %s (%.1f MiB/s)\n", (pr >= 100 ? "PASS" : "FAIL"), pr
    printf "  target: peak RSS <= 4x file size   %s (%.2fx)\n", (rssmib <= 4 * mib ? "PASS" : "FAIL"), rssmib / mib
}'
exit 0
