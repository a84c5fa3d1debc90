#!/bin/sh
# make_fatbin_seeds.sh — regenerate seeds/fatbin/ (the seed inputs of
# fuzz_fatbin) from fatbin_seed.cu with nvcc: raw fatbins with PTX stored
# plain, zstd-compressed (every --compress-mode but speed) and
# LZ4-compressed (--compress-mode=speed), with SASS only and with SASS plus
# PTX; a relocatable host object (.nv_fatbin section), one built with -rdc
# (__nv_relfatbin) and a cubin (device ELF). Compiled in a temporary
# directory from a relative file name, so that no machine path gets in.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
out=$here/seeds/fatbin
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT INT TERM
cp "$here/fatbin_seed.cu" "$work/k.cu"
cd "$work"
ptx="-gencode arch=compute_80,code=compute_80"
nvcc -fatbin $ptx --compress-mode=none k.cu -o ptx_plain.fatbin
nvcc -fatbin $ptx --compress-mode=default k.cu -o ptx_zstd.fatbin
nvcc -fatbin $ptx --compress-mode=size k.cu -o ptx_zstd_size.fatbin
nvcc -fatbin $ptx --compress-mode=speed k.cu -o ptx_lz4.fatbin
nvcc -fatbin -gencode arch=compute_80,code=sm_80 --compress-mode=none k.cu -o sass_only.fatbin
nvcc -fatbin -gencode arch=compute_80,code=sm_80 -gencode arch=compute_90,code=compute_90 k.cu \
    -o sass_and_ptx.fatbin
nvcc -c $ptx -frandom-seed=1 k.cu -o host_object.o
nvcc -c -rdc=true $ptx -frandom-seed=1 k.cu -o host_object_rdc.o
nvcc -cubin -arch=sm_80 k.cu -o device.cubin
mkdir -p "$out"
cp ./*.fatbin device.cubin "$out/"
for o in ./*.o; do # named .elf, as the repository ignores *.o
    cp "$o" "$out/$(basename "$o" .o).elf"
done
echo "make_fatbin_seeds: $(ls "$out" | wc -l) seeds in $out"
