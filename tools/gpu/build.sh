#!/bin/sh
# Build what tools/gpu/run.sh runs on a machine with an NVIDIA GPU, here
# (nvcc needs no GPU): hwbench, the launch timer, every self-checking program of
# testdata/cudart, the divergent, memory and locality suites and the database baselines, the way the cudart tests build
# them (PTX only, -cudart shared: the same binaries run on the GPU's driver
# and under simtlab exec), and a copy of the toolkit's libcudart.
#   tools/gpu/build.sh [OUTDIR]      (default build-gpu)
set -eu
cd "$(dirname "$0")/../.."
out=${1:-build-gpu}
nvcc=${NVCC:-nvcc}
command -v "$nvcc" >/dev/null || nvcc=/usr/local/cuda/bin/nvcc
mkdir -p "$out/bin" "$out/lib"
cp -L "$(dirname "$(command -v "$nvcc")")/../lib64/libcudart.so.13" "$out/lib/"

build() { # NAME ARCH SOURCES...
    name=$1 arch=$2
    shift 2
    "$nvcc" -cudart shared -O3 -gencode "arch=$arch,code=$arch" -Itestdata/cudart -o "$out/bin/$name" "$@"
}
build hwbench compute_90 tools/gpu/hwbench.cu
${CC:-cc} -shared -fPIC -O2 -o "$out/lib/launch_timer.so" tools/gpu/launch_timer.c -ldl
# spin_forever never ends on a GPU; sim_timing and sim_bad_config check
# the timing model only; multi_tu has two sources
for src in testdata/cudart/*.cu; do
    name=$(basename "$src" .cu)
    case $name in spin_forever | sim_timing | sim_bad_config | multi_tu_*) continue ;; esac
    arch=compute_80
    [ "$name" = launch_ex ] && arch=compute_90 # clusters, as its test builds it
    build "$name" $arch "$src"
done
build multi_tu compute_80 testdata/cudart/multi_tu_main.cu testdata/cudart/multi_tu_lib.cu
build thrust_cub_sm90 compute_90 testdata/cudart/thrust_cub.cu
for src in testdata/cudart/divergent/*.cu; do
    build "divergent_$(basename "$src" .cu)" compute_80 "$src"
done
for src in testdata/cudart/memory/*.cu; do
    build "memsuite_$(basename "$src" .cu)" compute_80 "$src"
done
for src in testdata/cudart/locality/*.cu; do
    build "locsuite_$(basename "$src" .cu)" compute_80 "$src"
done
# the database programs' baselines (the extended variants need simtlab)
for src in testdata/cudart/database/*.cu; do
    build "database_$(basename "$src" .cu)" compute_80 "$src"
done
