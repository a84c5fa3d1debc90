#!/bin/sh
# make_runtime_seeds.sh — regenerate seeds/runtime/, the seed programs of
# fuzz_runtime (the byte encoding is fuzz_runtime.c's: an opcode byte,
# then the bytes its arguments are drawn from). Each seed is a sequence a
# GPU runs without error, so that the fuzzer starts from calls that
# succeed and the replay test checks their results.
set -eu
out=$(cd "$(dirname "$0")" && pwd)/seeds/runtime
mkdir -p "$out"
# cudaMalloc 4096; cudaMemset 0x11 over it; cudaMemcpy 256 bytes host to
# device; fill<<<2, 16>>>(p, 32, 0x12345678); cudaFree
printf '\000\004\014''\005\000\000\000\000\004\014\021\021\021\021\000''\006\000\001\000\001\000\000\000\000\000\000\000\000''\013\025\005\005\365\005\005\001\000\000\000\000\000\040\000\170\126\064\022''\004\001\000\000' \
    > "$out/malloc_memset_copy_launch_free"
# cudaMallocPitch 100 x 8; cudaMemcpy2D of 8 rows of 64 bytes, pitch 128,
# into it and back; cudaMemset2D of the same rows
printf '\003\001\144\000\010\001''\010\000\000\000\000\000\100\000\100\001\010\000\000''\010\000\000\000\000\000\100\000\100\001\010\000\001' \
    > "$out/pitch_2d"
# a stream and two events; cudaMallocHost 1024; cudaMemsetAsync on the
# stream; events recorded around it; elapsed time; cudaDeviceSetLimit of
# the heap to 1 MiB and read back
printf '\012\000''\012\002\000''\012\012\000''\002\001\004\012''\005\000\000\000\000\004\012\042\042\042\042\001\004''\012\004\040''\012\014\040''\012\045''\011\002\000\000\000\020' \
    > "$out/streams_events_managed_limit"
echo "make_runtime_seeds: $(ls "$out" | wc -l) seeds in $out"
