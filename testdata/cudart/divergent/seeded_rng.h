// seeded_rng.h — the fixed-seed input generator of the divergent programs:
// SplitMix64 (Steele, Lea and Flood, "Fast splittable pseudorandom number
// generators", OOPSLA 2014), so every run draws the same inputs on any host.
#pragma once
#include <cstdint>

struct SeededRng {
    uint64_t state;

    explicit SeededRng(uint64_t seed) : state(seed) {}

    // The next 64 random bits.
    uint64_t next()
    {
        uint64_t z = (state += 0x9e3779b97f4a7c15ull);
        z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
        z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
        return z ^ (z >> 31);
    }

    // A uniform integer in [0, n) (n > 0; the modulo bias is irrelevant here).
    unsigned below(unsigned n) { return (unsigned)(next() % n); }

    // A uniform float in [0, 1) with 24 random bits.
    float unit() { return (float)(next() >> 40) * (1.0f / 16777216.0f); }
};
