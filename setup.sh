#!/usr/bin/env bash
# Set up simtlab on a fresh Debian machine: install what is missing, build,
# and run the main jobs on bundled examples (parse, CFG, emulate, run a CUDA
# program, simulate on the timing model).
set -euo pipefail
cd "$(dirname "$0")"
tools/deps.sh
if [ ! -f build/build.ninja ]; then
    meson setup build --buildtype=release
fi
ninja -C build
example=testdata/bin/sample_exe
echo
echo "== simtlab extract $example"
build/tools/simtlab extract "$example"
echo
echo "== simtlab parse $example"
build/tools/simtlab parse "$example"
echo
echo "== simtlab cfg -k _Z9alternatePii $example"
build/tools/simtlab cfg -k _Z9alternatePii "$example"
echo
echo "== simtlab run -k _Z5saxpyifPKfPf $example (y = 2x + y on the emulator)"
build/tools/simtlab run "$example" -k _Z5saxpyifPKfPf --grid 1 --block 32 --arg s32:4 \
    --arg f32:2 --arg buf:f32:1,2,3,4 --arg buf:f32:10,20,30,40 --print 3:f32 --stats
echo
echo "== simtlab exec --stats -- testdata/bin/vector_add_exe (an unmodified CUDA program on the emulator)"
build/tools/simtlab exec --stats -- testdata/bin/vector_add_exe
echo
echo "== simtlab sim -k _Z5saxpyifPKfPf $example --config QV100 (the same launch on the timing model)"
build/tools/simtlab sim "$example" -k _Z5saxpyifPKfPf --grid 1 --block 32 --arg s32:4 \
    --arg f32:2 --arg buf:f32:1,2,3,4 --arg buf:f32:10,20,30,40 --print 3:f32 --config QV100 |
    grep -E '^(gpu_sim_cycle|gpu_sim_insn|gpu_ipc|gpgpu_n_tot_w_icount) |^[0-9.]+$'
