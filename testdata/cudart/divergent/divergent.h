// divergent.h — what the programs of the divergent suite share with their
// CPU references: the size argument, a fixed-seed random generator, and
// float arithmetic that rounds the same way on the host and on the device.
//
// The generator is SplitMix64 (Steele, Lea and Flood, "Fast splittable
// pseudorandom number generators", OOPSLA 2014), so every run draws the
// same inputs on any host, and a thread on the device can draw the same
// stream as the CPU reference.
//
// nvcc contracts a * b + c into one fma on the device, and the host
// compiler does not (x86-64 without -mfma), so the same float expression
// can round differently on the two sides. Code shared by a kernel and its
// CPU reference computes with fmul/fadd/fsub/fdiv/fsqrt below instead: on
// the device these are the round-to-nearest intrinsics, which nvcc never
// contracts, on the host the plain IEEE single-precision operations; both
// give the correctly rounded result, so the two sides agree bit for bit.
#pragma once
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>

// The size factor argv[1] scales a program's default size by (1 without
// it); a usage message and exit status 2 unless it is an integer from 1
// to max_scale (each program's bound keeps its memory and CPU check sane).
inline int size_scale(int argc, char **argv, int max_scale)
{
    if (argc < 2)
        return 1;
    char *end;
    long n = strtol(argv[1], &end, 10);
    if (argc > 2 || end == argv[1] || *end || n < 1 || n > max_scale) {
        fprintf(stderr, "usage: %s [scale: 1 to %d, default 1]\n", argv[0], max_scale);
        exit(2);
    }
    return (int)n;
}

// splitmix64 step: the next 64 random bits of the stream at *state.
__host__ __device__ inline uint64_t rng_next(uint64_t *state)
{
    uint64_t z = (*state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

// A stream of its own for each (seed, index): index is usually a thread
// or row number, so threads draw independent streams in any order.
__host__ __device__ inline uint64_t rng_stream(uint64_t seed, uint64_t index)
{
    uint64_t s = seed ^ (index * 0xD1B54A32D192ED03ull);
    return rng_next(&s);
}

// A uniform integer in [0, n) (n > 0; the modulo bias is immaterial here).
__host__ __device__ inline uint32_t rng_below(uint64_t *state, uint32_t n)
{
    return (uint32_t)(rng_next(state) >> 32) % n;
}

// A uniform float in [0, 1) with 24 random bits (exact on both sides).
__host__ __device__ inline float rng_unit(uint64_t *state)
{
    return (float)(rng_next(state) >> 40) * (1.0f / 16777216.0f);
}

// Correctly rounded single-precision operations, never fused.
__host__ __device__ inline float fmul(float a, float b)
{
#ifdef __CUDA_ARCH__
    return __fmul_rn(a, b);
#else
    return a * b;
#endif
}

__host__ __device__ inline float fadd(float a, float b)
{
#ifdef __CUDA_ARCH__
    return __fadd_rn(a, b);
#else
    return a + b;
#endif
}

__host__ __device__ inline float fsub(float a, float b)
{
#ifdef __CUDA_ARCH__
    return __fsub_rn(a, b);
#else
    return a - b;
#endif
}

__host__ __device__ inline float fdiv(float a, float b)
{
#ifdef __CUDA_ARCH__
    return __fdiv_rn(a, b);
#else
    return a / b;
#endif
}

__host__ __device__ inline float fsqrt(float a)
{
#ifdef __CUDA_ARCH__
    return __fsqrt_rn(a);
#else
    return std::sqrt(a);
#endif
}
