#!/bin/sh
# Rebuilds the CUDA container samples used by parser/tests/test_container.c.
# Needs nvcc (CUDA 13); no GPU. Run from anywhere: outputs land next to this
# script. Expected PTX comes from `nvcc -ptx`, independently of the fatbin
# path; the test normalizes it the way fatbinary minifies stored PTX.
set -eu
cd "$(dirname "$0")"

NVCC=${NVCC:-nvcc}
GEN="-gencode arch=compute_80,code=compute_80 -gencode arch=compute_90,code=compute_90"
LZ4="-Xfatbin -compress-mode=speed"     # fatbinary's LZ4 mode (flag 0x2000)
NOCOMP="-Xfatbin -compress-mode=none"   # entries stored as plain text
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT

# Expected PTX, one file per translation unit and virtual architecture.
for src in sample sample_b; do
    for cc in 80 90; do
        $NVCC -ptx -arch=compute_$cc -o $src.compute_$cc.ptx $src.cu
    done
done

# Host executables (zstd default, LZ4, uncompressed), stripped to stay small.
$NVCC $GEN -cudart shared -o sample_exe sample.cu
$NVCC $GEN $LZ4 -cudart shared -o sample_exe_lz4 sample.cu
$NVCC $GEN $NOCOMP -cudart shared -o sample_exe_nocomp sample.cu

# Two objects linked together: two fatbins in one .nv_fatbin section.
$NVCC $GEN -c -o "$TMP/a.o" sample.cu
$NVCC $GEN -c -o "$TMP/b.o" sample_b.cu
$NVCC $GEN -cudart shared -o sample_multi_exe "$TMP/a.o" "$TMP/b.o"

# Shared object and relocatable objects (-rdc moves it to __nv_relfatbin).
$NVCC $GEN -shared -Xcompiler -fPIC -cudart shared -o sample.so sample.cu
$NVCC $GEN -c -o sample.o sample.cu
$NVCC $GEN -c -rdc=true -o sample_rdc.o sample.cu

# Raw fatbins: zstd (default), LZ4, uncompressed, and a mixed one holding an
# sm_90 cubin plus compute_90 PTX, all compressed, with an identifier.
$NVCC $GEN -fatbin -o sample.fatbin sample.cu
$NVCC $GEN $LZ4 -fatbin -o sample_lz4.fatbin sample.cu
$NVCC $GEN $NOCOMP -fatbin -o sample_nocomp.fatbin sample.cu
$NVCC -gencode arch=compute_90,code=sm_90 -gencode arch=compute_90,code=compute_90 \
    -Xfatbin -compress-all -Xfatbin -ident=sample.cu -fatbin -o sample_mixed.fatbin sample.cu

# A cubin: device ELF with SASS only, no PTX.
$NVCC -arch=sm_90 -cubin -o sample_sm90.cubin sample.cu

strip sample_exe sample_exe_lz4 sample_exe_nocomp sample_multi_exe sample.so

# A complete CUDA program for `simtlab exec` (setup.sh runs it): the first
# test program of testdata/cudart, PTX only, against the shared runtime.
$NVCC -gencode arch=compute_80,code=compute_80 -cudart shared -I../cudart -o vector_add_exe ../cudart/vector_add.cu
strip vector_add_exe
