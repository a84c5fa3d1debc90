/* test_emu_carry.c — the carry flag after subtraction.
 *
 * NVIDIA GPUs subtract as a + ~b + 1 (sub.cc) and a + ~b + CF (subc), and
 * leave in CF the carry out of that addition: 1 when no borrow occurred.
 * The expected values here come from that hardware definition, computed
 * in C on wider integers, and from one conformance vector recorded on an
 * NVIDIA GPU:
 *   add.cc.u32 x, 0xffffffff, 1; sub.cc.s32 d, 0x627ADF75, 0x864CCEF5;
 *   addc.u32 e, 0, 0;   gives e = 0.
 * Multi-word subtractions (64, 96 and 128 bits from 32-bit words, 128 bits
 * from 64-bit words) are checked against the CPU's own subtraction, and
 * their final flag (read with addc) against "no borrow" (A >= B); mixed
 * add/sub chains against the definition word by word; for .u32, .s32,
 * .u64 and .s64. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "emulator/tests/op_test.h"

enum { N = 2048 };

/* Inputs: for i < 729, every triple of nine edge words across the three
 * inputs (stride 1, 9, 81), so borrows start and stop at every word; then
 * random words, some of them edges. */
static void fill(uint32_t *v, unsigned n, unsigned stride, uint64_t seed)
{
    static const uint32_t edges[] = {0, 1, 2, 0x7fffffff, 0x80000000, 0xfffffffe, 0xffffffff, 0x627adf75, 0x864ccef5};
    for (unsigned i = 0; i < n; i++) {
        uint64_t r = emu_rand(&seed);
        v[i] = i < 729 ? edges[(i / stride) % 9] : (r & 7) == 0 ? edges[(r >> 8) % 9] : (uint32_t)r;
    }
}

/* The recorded vector, with each integer type on the subtraction. */
static void test_conformance_vector(void **state)
{
    (void)state;
    static const char *const types[] = {"u32", "s32"};
    for (int k = 0; k < 2; k++) {
        char body[512];
        snprintf(body, sizeof body,
                 ".reg .b32 %%x, %%y;\n"
                 "add.cc.u32 %%x, 0xffffffff, 1;\n"
                 "sub.cc.%s %%y, 0x627ADF75, 0x864CCEF5;\n"
                 "addc.u32 %%d, 0, 0;\n", types[k]);
        uint32_t a = 0, out = 7;
        op_run(body, &a, &a, &a, &out, 1);
        assert_int_equal(out, 0); /* recorded on NVIDIA hardware */
    }
    /* no borrow: CF = 1 */
    uint32_t a = 0, out = 7;
    op_run("sub.cc.u32 %a, 5, 3;\naddc.u32 %d, 0, 0;", &a, &a, &a, &out, 1);
    assert_int_equal(out, 1);
    /* equal operands: no borrow either */
    op_run("sub.cc.u32 %a, 5, 5;\naddc.u32 %d, 0, 0;", &a, &a, &a, &out, 1);
    assert_int_equal(out, 1);
    /* subc with CF = 0 (from a borrow) subtracts one more; with CF = 1 not */
    op_run("sub.cc.u32 %a, 0, 1;\nsubc.u32 %d, 10, 3;", &a, &a, &a, &out, 1);
    assert_int_equal(out, 6);
    op_run("sub.cc.u32 %a, 1, 0;\nsubc.u32 %d, 10, 3;", &a, &a, &a, &out, 1);
    assert_int_equal(out, 7);
    /* subc after an add's carry: a + ~b + 1 */
    op_run("add.cc.u32 %a, 0xffffffff, 1;\nsubc.u32 %d, 10, 3;", &a, &a, &a, &out, 1);
    assert_int_equal(out, 7);
    op_run("add.cc.u32 %a, 1, 1;\nsubc.u32 %d, 10, 3;", &a, &a, &a, &out, 1);
    assert_int_equal(out, 6);
}

/* An n-word (32-bit) subtraction A - B of the words in a/b/c (up to 3
 * words from the three inputs, then a 4th from a ^ b) followed by addc
 * reading the last flag: the kernel writes word `which` of the difference,
 * or (which == n) the flag. */
static void run_wide_sub(unsigned nwords, unsigned which, const char *type, const uint32_t *a,
                         const uint32_t *b, const uint32_t *c, uint32_t *out)
{
    /* A = words (a, b, c, a^c), B = words (c, a, b, b^c), least significant first */
    char body[2048];
    int len = snprintf(body, sizeof body,
                       ".reg .b32 %%a3, %%b3, %%x<4>;\n"
                       "xor.b32 %%a3, %%a, %%c;\nxor.b32 %%b3, %%b, %%c;\n");
    static const char *const aw[] = {"%a", "%b", "%c", "%a3"}, *const bw[] = {"%c", "%a", "%b", "%b3"};
    for (unsigned k = 0; k < nwords; k++) {
        const char *op = k == 0 ? "sub.cc" : "subc.cc"; /* the last sets the flag addc reads */
        len += snprintf(body + len, sizeof body - (size_t)len, "%s.%s %%x%u, %s, %s;\n", op, type, k, aw[k], bw[k]);
    }
    if (which < nwords)
        snprintf(body + len, sizeof body - (size_t)len, "mov.b32 %%d, %%x%u;\n", which);
    else
        snprintf(body + len, sizeof body - (size_t)len, "addc.u32 %%d, 0, 0;\n");
    op_run(body, a, b, c, out, N);
}

/* 64-, 96- and 128-bit subtraction from 32-bit words against the CPU. */
static void test_multiword_u32(void **state)
{
    (void)state;
    static uint32_t a[N], b[N], c[N], out[N];
    fill(a, N, 1, 1);
    fill(b, N, 9, 2);
    fill(c, N, 81, 3);
    static const char *const types[] = {"u32", "s32"};
    for (int ty = 0; ty < 2; ty++)
        for (unsigned nw = 2; nw <= 4; nw++)
            for (unsigned which = 0; which <= nw; which++) {
                run_wide_sub(nw, which, types[ty], a, b, c, out);
                for (unsigned i = 0; i < N; i++) {
                    uint32_t aw[4] = {a[i], b[i], c[i], a[i] ^ c[i]}, bw[4] = {c[i], a[i], b[i], b[i] ^ c[i]};
                    unsigned __int128 A = 0, B = 0;
                    for (unsigned k = nw; k-- > 0;) {
                        A = A << 32 | aw[k];
                        B = B << 32 | bw[k];
                    }
                    unsigned __int128 D = A - B; /* modulo 2^128; the low nw words are the result */
                    uint32_t want = which < nw ? (uint32_t)(D >> (32 * which)) : A >= B;
                    if (out[i] != want)
                        fail_msg("%u-word sub.%s, word %u, A %016llx%016llx B %016llx%016llx: got %08x, want %08x",
                                 nw, types[ty], which, (unsigned long long)(A >> 64), (unsigned long long)A,
                                 (unsigned long long)(B >> 64), (unsigned long long)B, out[i], want);
                }
            }
}

/* 128-bit subtraction from 64-bit words (.u64 and .s64) against the CPU,
 * and the final flag. */
static void test_multiword_u64(void **state)
{
    (void)state;
    static uint32_t a[N], b[N], c[N], out[N];
    fill(a, N, 1, 4);
    fill(b, N, 9, 5);
    fill(c, N, 81, 6);
    static const char *const types[] = {"u64", "s64"};
    for (int ty = 0; ty < 2; ty++)
        for (unsigned which = 0; which < 5; which++) {
            /* A = (hi: b:a ^ 0xffffffff00000000, lo: a:b), B = (hi: c:c, lo: c:a) */
            char body[1024];
            snprintf(body, sizeof body,
                     ".reg .b64 %%alo, %%ahi, %%blo, %%bhi, %%dlo, %%dhi;\n.reg .b32 %%w<4>, %%f;\n"
                     "mov.b64 %%alo, {%%b, %%a};\nmov.b64 %%ahi, {%%a, %%b};\n"
                     "xor.b64 %%ahi, %%ahi, 0xffffffff00000000;\n"
                     "mov.b64 %%blo, {%%a, %%c};\nmov.b64 %%bhi, {%%c, %%c};\n"
                     "sub.cc.%s %%dlo, %%alo, %%blo;\nsubc.cc.%s %%dhi, %%ahi, %%bhi;\naddc.u32 %%f, 0, 0;\n"
                     "mov.b64 {%%w0, %%w1}, %%dlo;\nmov.b64 {%%w2, %%w3}, %%dhi;\n"
                     "%s\n",
                     types[ty], types[ty],
                     which == 0 ? "mov.b32 %d, %w0;" : which == 1 ? "mov.b32 %d, %w1;"
                     : which == 2 ? "mov.b32 %d, %w2;" : which == 3 ? "mov.b32 %d, %w3;" : "mov.b32 %d, %f;");
            op_run(body, a, b, c, out, N);
            for (unsigned i = 0; i < N; i++) {
                uint64_t alo = (uint64_t)a[i] << 32 | b[i], ahi = ((uint64_t)b[i] << 32 | a[i]) ^ 0xffffffff00000000ull;
                uint64_t blo = (uint64_t)c[i] << 32 | a[i], bhi = (uint64_t)c[i] << 32 | c[i];
                unsigned __int128 A = (unsigned __int128)ahi << 64 | alo, B = (unsigned __int128)bhi << 64 | blo;
                unsigned __int128 D = A - B;
                uint32_t want = which < 4 ? (uint32_t)(D >> (32 * which)) : A >= B;
                if (out[i] != want)
                    fail_msg("128-bit sub.%s, word %u: got %08x, want %08x", types[ty], which, out[i], want);
            }
        }
}

/* One step of a chain as the hardware defines it: x + y + cin (y
 * complemented for a subtraction, cin the flag or, for sub.cc, 1), the
 * result's low w bits and the carry out. */
static uint64_t step(bool sub, bool use_cf, uint64_t x, uint64_t y, unsigned w, unsigned *cf)
{
    uint64_t mask = w == 64 ? ~0ull : (1ull << w) - 1;
    unsigned cin = use_cf ? *cf : sub ? 1 : 0;
    unsigned __int128 s = (unsigned __int128)(x & mask) + ((sub ? ~y : y) & mask) + cin;
    *cf = (unsigned)(s >> w) & 1;
    return (uint64_t)s & mask;
}

/* Mixed chains: add.cc then subc.cc then addc.cc then subc, and sub.cc
 * then addc.cc then subc.cc then addc; for every integer type. */
static void test_mixed_chains(void **state)
{
    (void)state;
    static uint32_t a[N], b[N], c[N], out[N];
    fill(a, N, 1, 7);
    fill(b, N, 9, 8);
    fill(c, N, 81, 9);
    static const char *const types[] = {"u32", "s32", "u64", "s64"};
    static const char *const chains[2][4] = {{"add.cc", "subc.cc", "addc.cc", "subc"},
                                             {"sub.cc", "addc.cc", "subc.cc", "addc"}};
    for (int ty = 0; ty < 4; ty++) {
        unsigned w = ty < 2 ? 32 : 64;
        for (int ch = 0; ch < 2; ch++)
            for (unsigned which = 0; which < 4; which++) {
                /* operands: (a, b), (b, c), (c, a), (a^b, c); 64-bit ones are a:b etc. */
                char body[2048];
                const char *r = w == 32 ? "b32" : "b64";
                int len = snprintf(body, sizeof body, ".reg .%s %%x<4>, %%y<4>, %%z<4>;\n", r);
                if (w == 32)
                    len += snprintf(body + len, sizeof body - (size_t)len,
                                    "mov.b32 %%x0, %%a;\nmov.b32 %%y0, %%b;\nmov.b32 %%x1, %%b;\nmov.b32 %%y1, %%c;\n"
                                    "mov.b32 %%x2, %%c;\nmov.b32 %%y2, %%a;\nxor.b32 %%x3, %%a, %%b;\nmov.b32 %%y3, %%c;\n");
                else
                    len += snprintf(body + len, sizeof body - (size_t)len,
                                    "mov.b64 %%x0, {%%a, %%b};\nmov.b64 %%y0, {%%b, %%c};\nmov.b64 %%x1, {%%b, %%c};\n"
                                    "mov.b64 %%y1, {%%c, %%a};\nmov.b64 %%x2, {%%c, %%a};\nmov.b64 %%y2, {%%a, %%b};\n"
                                    ".reg .b32 %%t;\nxor.b32 %%t, %%a, %%b;\nmov.b64 %%x3, {%%t, %%c};\n"
                                    "mov.b64 %%y3, {%%c, %%c};\n");
                for (unsigned k = 0; k < 4; k++)
                    len += snprintf(body + len, sizeof body - (size_t)len, "%s.%s %%z%u, %%x%u, %%y%u;\n",
                                    chains[ch][k], types[ty], k, k, k);
                if (w == 32)
                    snprintf(body + len, sizeof body - (size_t)len, "mov.b32 %%d, %%z%u;\n", which);
                else
                    snprintf(body + len, sizeof body - (size_t)len,
                             ".reg .b32 %%lo, %%hi;\nmov.b64 {%%lo, %%hi}, %%z%u;\nxor.b32 %%d, %%lo, %%hi;\n", which);
                op_run(body, a, b, c, out, N);
                for (unsigned i = 0; i < N; i++) {
                    uint64_t x[4], y[4];
                    if (w == 32) {
                        uint64_t xs[4] = {a[i], b[i], c[i], a[i] ^ b[i]}, ys[4] = {b[i], c[i], a[i], c[i]};
                        memcpy(x, xs, sizeof x);
                        memcpy(y, ys, sizeof y);
                    } else {
                        uint64_t xs[4] = {(uint64_t)b[i] << 32 | a[i], (uint64_t)c[i] << 32 | b[i],
                                          (uint64_t)a[i] << 32 | c[i], (uint64_t)c[i] << 32 | (a[i] ^ b[i])};
                        uint64_t ys[4] = {(uint64_t)c[i] << 32 | b[i], (uint64_t)a[i] << 32 | c[i],
                                          (uint64_t)b[i] << 32 | a[i], (uint64_t)c[i] << 32 | c[i]};
                        memcpy(x, xs, sizeof x);
                        memcpy(y, ys, sizeof y);
                    }
                    unsigned cf = 0;
                    uint64_t z[4];
                    for (unsigned k = 0; k < 4; k++) {
                        bool sub = chains[ch][k][0] == 's';
                        bool use_cf = k > 0; /* the first of each chain sets the flag */
                        z[k] = step(sub, use_cf, x[k], y[k], w, &cf);
                    }
                    uint32_t want = w == 32 ? (uint32_t)z[which] : (uint32_t)(z[which] ^ (z[which] >> 32));
                    if (out[i] != want)
                        fail_msg("chain %d .%s step %u, inputs %08x %08x %08x: got %08x, want %08x", ch, types[ty],
                                 which, a[i], b[i], c[i], out[i], want);
                }
            }
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_conformance_vector),
        cmocka_unit_test(test_multiword_u32),
        cmocka_unit_test(test_multiword_u64),
        cmocka_unit_test(test_mixed_chains),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
