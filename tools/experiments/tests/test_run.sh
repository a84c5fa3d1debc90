#!/usr/bin/env bash
# test_run.sh SIMTLAB — tools/experiments/run.py on one small program of the
# divergent suite (backprop: two kernels) with two mechanisms (pdom, tbc) on
# the paper's preset:
#  - both runs PASS, and results.csv and results.md hold exactly the rows
#    (backprop, pdom) and (backprop, tbc);
#  - the numbers are the statistics simtlab printed, summed here with awk
#    from the runs' own logs (cycles and thread instructions: sums of
#    gpu_sim_cycle and gpu_sim_insn; warp instructions: the last running
#    total gpgpu_n_tot_w_icount), the speedup is the pdom cycles over the
#    tbc cycles and the baseline's own speedup is 1 (definitions);
#  - a run whose program does not print PASS is reported loudly with its
#    program, preset and mechanism, the program is kept in OUTDIR/failed/
#    and the script exits with status 1,
#    and a mechanism simtlab lacks is named as "not available yet".
# Skipped (exit status 77) without nvcc. In sanitizer builds
# SIMTLAB_TEST_PRELOAD names the runtimes the (uninstrumented) program
# needs first, as in the cudart tests.
set -euo pipefail

real_simtlab=$1
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../../.." && pwd)
nvcc=${NVCC:-$(command -v nvcc || true)}
if [ -z "$nvcc" ] && [ -n "${CUDA_HOME:-}" ] && [ -x "$CUDA_HOME/bin/nvcc" ]; then
    nvcc=$CUDA_HOME/bin/nvcc
fi
if [ -z "$nvcc" ]; then
    echo "SKIP: nvcc not found (set NVCC, PATH or CUDA_HOME): tools/experiments/run.py not tested"
    exit 77
fi

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail() {
    echo "FAIL: $*" >&2
    exit 1
}

# simtlab behind a wrapper: the sanitizer runtimes for the program, and
# (with FAKE_FAIL set) a tbc run whose program prints FAIL instead of PASS,
# and a simtlab that lacks dwf (its list of known mechanisms, which run.py
# reads from the error for an unknown one, leaves dwf out)
cat >"$work/simtlab" <<WRAPPER
#!/usr/bin/env bash
export LD_PRELOAD="\${SIMTLAB_TEST_PRELOAD:-}"
if [ -n "\${FAKE_FAIL:-}" ] && [[ " \$* " == *" -simtlab_simt=tbc "* ]]; then
    "$real_simtlab" "\$@" | sed 's/^PASS /FAIL /'
    exit "\${PIPESTATUS[0]}"
fi
if [ -n "\${FAKE_FAIL:-}" ] && [[ " \$* " == *" -simtlab_simt=no-such-mechanism "* ]]; then
    "$real_simtlab" "\$@" 2>"$work/known.err"
    rc=\$?
    sed -E 's/ dwf( |$)/\1/' "$work/known.err" >&2
    exit \$rc
fi
exec "$real_simtlab" "\$@"
WRAPPER
chmod +x "$work/simtlab"

out=$work/out
if ! python3 "$root/tools/experiments/run.py" fung2011 "$out" --programs backprop --mechanisms tbc --jobs 2 \
    --simtlab "$work/simtlab" --nvcc "$nvcc" >"$work/log" 2>&1; then
    cat "$work/log"
    fail "run.py failed"
fi
cat "$work/log"

# results.csv: a header and the two runs, both PASS
[ "$(wc -l <"$out/results.csv")" -eq 3 ] || fail "results.csv should have 3 lines:$(cat "$out/results.csv")"
for mech in pdom tbc; do
    row=$(grep "^backprop,FX5800,$mech,$mech,PASS," "$out/results.csv") || fail "no PASS row for $mech"
    log=$out/logs/backprop.FX5800.$mech.stderr
    want=$(awk -F' = ' '$1 == "gpu_sim_cycle" { c += $2 } $1 == "gpu_sim_insn" { i += $2 }
        $1 == "gpgpu_n_tot_w_icount" { w = $2 } $1 == "kernel_name" { k++ }
        END { printf "%d,%d,%d,%d", k, c, i, w }' "$log")
    got=$(echo "$row" | cut -d, -f6-9)
    [ "$got" = "$want" ] || fail "$mech: launches,cycles,thread,warp instructions $got, the log says $want"
    [ "$(echo "$want" | cut -d, -f1)" -eq 2 ] || fail "backprop launches two kernels, $mech ran $want"
    # DRAM bytes: the report's counter runs from the start, so the last kernel's value
    bytes=$(awk -F' = ' '$1 == "dram_bytes" { b = $2 } END { print b }' "$log")
    [ "$(echo "$row" | cut -d, -f14)" = "$bytes" ] || fail "$mech: dram_bytes $(echo "$row" | cut -d, -f14), the log says $bytes"
    # the markdown table's row, with its result
    grep -q "^| \`backprop\` | $mech | 2 | .* | PASS |\$" "$out/results.md" || fail "results.md lacks the $mech row"
done
[ "$(grep -c '^| `backprop` |' "$out/results.md")" -eq 2 ] || fail "results.md should have 2 program rows"
pdom_cycles=$(grep '^backprop,FX5800,pdom,' "$out/results.csv" | cut -d, -f7)
tbc_cycles=$(grep '^backprop,FX5800,tbc,' "$out/results.csv" | cut -d, -f7)
[ "$(grep '^backprop,FX5800,pdom,' "$out/results.csv" | cut -d, -f11)" = "1.0000" ] || fail "pdom's speedup is not 1"
want=$(awk -v p="$pdom_cycles" -v t="$tbc_cycles" 'BEGIN { printf "%.4f", p / t }')
[ "$(grep '^backprop,FX5800,tbc,' "$out/results.csv" | cut -d, -f11)" = "$want" ] || fail "tbc's speedup is not $want"
if ! grep -q "plots skipped" "$work/log"; then
    [ -s "$out/speedup-FX5800.png" ] && [ -s "$out/speedup-FX5800.svg" ] || fail "no plots and no word why"
fi

# a wrong result under a mechanism: reported loudly, exit status 1
set +e
FAKE_FAIL=1 python3 "$root/tools/experiments/run.py" fung2011 "$work/bad" --programs backprop --mechanisms tbc,dwf \
    --simtlab "$work/simtlab" --nvcc "$nvcc" >"$work/bad.log" 2>&1
rc=$?
set -e
cat "$work/bad.log"
[ $rc -eq 1 ] || fail "a FAIL under tbc should give exit status 1, not $rc"
grep -q "FAIL: program backprop, preset FX5800, mechanism tbc" "$work/bad.log" || fail "the FAIL is not reported"
grep -q "dwf .*not available yet: needs mechanism dwf" "$work/bad.log" || fail "dwf is not named as not available"
grep -q "^backprop,FX5800,tbc,tbc,FAIL," "$work/bad/results.csv" || fail "results.csv lacks the FAIL row"
[ -x "$work/bad/failed/backprop" ] || fail "the failed program is not kept to rerun"
echo "PASS experiments run.py"
