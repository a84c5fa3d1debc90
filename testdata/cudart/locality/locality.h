// locality.h — what the programs of the locality suite share with their
// CPU references: the size arguments, a fixed-seed generator for the
// inputs, and the comparison of float results with a double-precision
// reference under a tolerance for the order of accumulation.
#pragma once
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>

// argv[i] as an integer from lo to hi, def when there is no argv[i]; a
// usage message ("usage: prog <usage>") and exit status 2 when it is not
// one, or when there are more than max_args arguments.
static int arg_int(int argc, char **argv, int i, int def, int lo, int hi, int max_args, const char *usage)
{
    if (argc - 1 > max_args) {
        fprintf(stderr, "usage: %s %s\n", argv[0], usage);
        exit(2);
    }
    if (argc <= i)
        return def;
    char *end;
    long v = strtol(argv[i], &end, 10);
    if (end == argv[i] || *end || v < lo || v > hi) {
        fprintf(stderr, "usage: %s %s\n", argv[0], usage);
        exit(2);
    }
    return (int)v;
}

// xorshift64* (Vigna): the same inputs on every host.
struct Rng {
    uint64_t s;
    explicit Rng(uint64_t seed) : s(seed ? seed : 1) {}
    uint64_t next()
    {
        s ^= s >> 12;
        s ^= s << 25;
        s ^= s >> 27;
        return s * 0x2545F4914F6CDD1Dull;
    }
    // uniform in [0, 1), 24 random bits
    float unit() { return (float)(next() >> 40) * (1.0f / 16777216.0f); }
    // uniform in [lo, hi)
    float range(float lo, float hi) { return lo + (hi - lo) * unit(); }
};

// Float results against a double reference: result i is wrong when it is
// further from want than rel * mag + abs, mag being the sum of the
// magnitudes of the terms the result adds up (so cancellation does not
// make the bound too tight). The first wrong results are printed.
struct Check {
    const char *what;
    double rel, abs_tol;
    long wrong = 0;
    double max_err = 0;   // the largest |got - want| / (mag + 1e-30)
    Check(const char *what_, double rel_, double abs_ = 1e-6) : what(what_), rel(rel_), abs_tol(abs_) {}
    void operator()(long i, long j, float got, double want, double mag)
    {
        double err = std::fabs((double)got - want);
        double r = err / (mag + 1e-30);
        if (r > max_err || std::isnan(got))
            max_err = std::isnan(got) ? INFINITY : r;
        if (!(err <= rel * mag + abs_tol) && wrong++ < 5)
            fprintf(stderr, "%s[%ld][%ld] = %.9g, expected %.9g (magnitude %.6g)\n", what, i, j, got, want, mag);
    }
};
