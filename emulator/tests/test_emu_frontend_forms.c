/* test_emu_frontend_forms.c — the kernels of testdata/hand/frontend_forms.ptx
 * run on the emulator: WARP_SZ, modifiers in reordered positions, .reg
 * parameters and results (scalar and vector) with calls passing registers,
 * vector registers, immediates and .param slots, vector registers as whole
 * operands, and a register plus an immediate as a value.
 *
 * Then the same forms as nvcc 13 writes them (testdata/cuda/frontend_forms.cu:
 * cuda_fp16.h shuffles with WARP_SZ, CUB's vote.ballot.sync.b32).
 *
 * Expected values are computed here in C from the PTX ISA's definitions
 * and the CUDA and CUB documentation (cited at each check), never taken
 * from the emulator. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "emulator/tests/emu_test.h"

#define FILE_REL "hand/frontend_forms.ptx"

/* Random 32-bit words, with a few edge values first. */
static void fill_words(uint32_t *w, unsigned n, uint64_t seed)
{
    static const uint32_t edge[] = {0, 1, 0xffffffffu, 0x80000000u, 0x0000ffffu, 0xffff0000u, 4, 5};
    for (unsigned i = 0; i < n; i++)
        w[i] = i < sizeof edge / sizeof *edge ? edge[i] : (uint32_t)emu_rand(&seed);
}

/* WARP_SZ is the warp size, 32 (PTX ISA "Predefined Identifiers"), as an
 * operand, in constant expressions, an array size (lanes[WARP_SZ]: 128
 * bytes) and an initializer. */
static void test_warp_sz(void **state)
{
    (void)state;
    emu e;
    emu_open(&e, FILE_REL);
    enum { N = 32 };
    uint64_t out = emu_buf(&e, NULL, N * 20);
    const void *args[] = {&out};
    emu_run(&e, "warp_sz", emu_cfg(1, 1, N, 1), args);
    uint32_t got[N * 5];
    emu_read(&e, got, out, sizeof got);
    for (unsigned t = 0; t < N; t++) {
        assert_int_equal(got[t * 5 + 0], 32);
        assert_int_equal(got[t * 5 + 1], 31);
        assert_int_equal(got[t * 5 + 2], 128);
        assert_int_equal(got[t * 5 + 3], 32);
        assert_int_equal(got[t * 5 + 4], (t + 16) % 32); /* lanes[(lane + 16) % 32] = that lane */
    }
    emu_close(&e);
}

/* vote.ballot.sync.b32 (vote.sync.ballot), shfl.down in four modifier
 * orders, add.u32.cc (add.cc.u32). */
static void test_modifier_orders(void **state)
{
    (void)state;
    emu e;
    emu_open(&e, FILE_REL);
    enum { N = 32 };
    uint32_t in[N];
    fill_words(in, N, 0x5eed);
    uint64_t dout = emu_buf(&e, NULL, N * 12), din = emu_buf(&e, in, sizeof in);
    const void *args[] = {&dout, &din};
    emu_run(&e, "modifier_orders", emu_cfg(1, 1, N, 1), args);
    uint32_t got[N * 3];
    emu_read(&e, got, dout, sizeof got);
    /* vote.ballot: bit i of the result is lane i's predicate */
    uint32_t ballot = 0;
    for (unsigned i = 0; i < N; i++)
        ballot |= (in[i] & 1u) << i;
    /* shfl.down with c = 31 (clamp 31, no segments): lane j reads lane j + d
     * when j + d <= 31, else its own value */
    uint32_t v[N], nv[N];
    memcpy(v, in, sizeof v);
    for (unsigned d = 16; d >= 1; d /= 2) {
        for (unsigned j = 0; j < N; j++)
            nv[j] = v[j] + (j + d <= 31 ? v[j + d] : v[j]);
        memcpy(v, nv, sizeof v);
    }
    for (unsigned t = 0; t < N; t++) {
        assert_int_equal(got[t * 3 + 0], ballot);
        assert_int_equal(got[t * 3 + 1], v[t]);
        /* add.cc: carry out of in + 0xffffffff, read by addc 0 + 0 + CC.CF */
        assert_int_equal(got[t * 3 + 2], in[t] != 0);
    }
    emu_close(&e);
}

/* Calls to functions with .reg parameters and results: weigh(a, v) =
 * a + 2 v.x + 3 v.y, halves(a) = {hi(a), lo(a)} (mov.b64 into a .v2 .b32
 * register unpacks low element first, as mov's pack/unpack is defined),
 * mixed(x, s) = x.x - x.y + x.z x.w + s with s in a .param slot,
 * twice(a) = 2a. */
static void test_reg_params(void **state)
{
    (void)state;
    emu e;
    emu_open(&e, FILE_REL);
    enum { N = 64 };
    uint32_t in[N * 4];
    fill_words(in, N * 4, 0xca11);
    uint64_t dout = emu_buf(&e, NULL, N * 24), din = emu_buf(&e, in, sizeof in);
    const void *args[] = {&dout, &din};
    emu_run(&e, "reg_params", emu_cfg(1, 1, N, 1), args);
    uint32_t got[N * 6];
    emu_read(&e, got, dout, sizeof got);
    for (unsigned t = 0; t < N; t++) {
        const uint32_t *w = &in[t * 4];
        assert_int_equal(got[t * 6 + 0], (uint32_t)(w[0] + 2 * w[1] + 3 * w[2]));
        assert_int_equal(got[t * 6 + 1], (uint32_t)(7 + 2 * w[1] + 3 * w[2]));
        assert_int_equal(got[t * 6 + 2], w[3]); /* the u64 at +8 is w[2] | w[3] << 32 */
        assert_int_equal(got[t * 6 + 3], w[2]);
        assert_int_equal(got[t * 6 + 4], (uint32_t)(w[0] - w[1] + w[2] * w[3] + w[1]));
        assert_int_equal(got[t * 6 + 5], 42); /* twice(21): a lone immediate argument */
    }
    emu_close(&e);
}

/* Whole vector registers in ld/st/mov, mov between vectors, packing a
 * .v4 .b8 and a .v2 .b16 register into a .b32 (element 0 in the low bits)
 * and unpacking the other way. */
static void test_vector_registers(void **state)
{
    (void)state;
    emu e;
    emu_open(&e, FILE_REL);
    enum { N = 40 };
    uint32_t in[N * 4];
    fill_words(in, N * 4, 0x7ec);
    uint64_t dout = emu_buf(&e, NULL, N * 32), din = emu_buf(&e, in, sizeof in);
    const void *args[] = {&dout, &din};
    emu_run(&e, "vector_regs", emu_cfg(1, 1, N, 1), args);
    uint32_t got[N * 8];
    emu_read(&e, got, dout, sizeof got);
    for (unsigned t = 0; t < N; t++) {
        const uint32_t *w = &in[t * 4];
        const uint32_t *o = &got[t * 8];
        uint32_t rot[4] = {w[1], w[2], w[3], w[0]};
        for (unsigned k = 0; k < 4; k++)
            assert_int_equal(o[k], rot[k]);
        uint32_t bytes = (w[0] & 0xffu) | (w[1] & 0xffu) << 8 | (w[2] & 0xffu) << 16 | (w[3] & 0xffu) << 24;
        assert_int_equal(o[4], bytes);
        assert_int_equal(o[5], (w[0] >> 16) | (w[0] << 16));
        assert_int_equal(o[6], w[1]);
    }
    emu_close(&e);
}

/* r + imm is r plus the immediate in r's width: ptxas 13 compiles
 * st.global.u32 [a], r + 0x1ffffffff to the same machine code as
 * add.s32 of -1 then a store (and likewise for the u64, u16, setp and mul
 * operands here; checked by comparing the cubins' code sections). */
static void test_reg_plus_imm(void **state)
{
    (void)state;
    emu e;
    emu_open(&e, FILE_REL);
    enum { N = 48 };
    uint64_t in[N];
    uint32_t lo[N * 2];
    fill_words(lo, N * 2, 0x1a1);
    for (unsigned i = 0; i < N; i++)
        in[i] = (uint64_t)lo[2 * i] | (uint64_t)lo[2 * i + 1] << 32;
    in[0] = UINT64_MAX;
    in[1] = 0x00000000fffffffcull; /* in.lo + 5 wraps to 1 */
    uint64_t dout = emu_buf(&e, NULL, N * 32), din = emu_buf(&e, in, sizeof in);
    const void *args[] = {&dout, &din};
    emu_run(&e, "reg_plus_imm", emu_cfg(1, 1, N, 1), args);
    uint8_t got[N * 32];
    emu_read(&e, got, dout, sizeof got);
    for (unsigned t = 0; t < N; t++) {
        const uint8_t *o = &got[t * 32];
        uint64_t a;
        uint32_t b, d, f;
        uint16_t c;
        memcpy(&a, o, 8);
        memcpy(&b, o + 8, 4);
        memcpy(&c, o + 12, 2);
        memcpy(&d, o + 16, 4);
        memcpy(&f, o + 20, 4);
        uint32_t x = (uint32_t)in[t];
        assert_true(a == in[t] + 1);
        assert_int_equal(b, x - 1);
        assert_int_equal(c, (uint16_t)((uint16_t)in[t] + 3));
        assert_int_equal(d, (uint32_t)(x + 5) < 9);
        assert_int_equal(f, (uint32_t)((x + 1) * 4));
    }
    emu_close(&e);
}

/* IEEE binary16 bits of f, which must be 0 or a normal half exactly. */
static uint16_t half_bits(float f)
{
    if (f == 0)
        return 0;
    int e;
    float m = frexpf(f, &e); /* f = m 2^e, m in [0.5, 1) */
    float mant = (m * 2 - 1) * 1024;
    assert_true(f > 0 && mant == floorf(mant) && e - 1 + 15 > 0 && e - 1 + 15 < 31);
    return (uint16_t)((e - 1 + 15) << 10 | (unsigned)mant);
}

/* __shfl_down_sync / __shfl_xor_sync of __half, __shfl_sync of
 * __nv_bfloat16 and warpSize, as nvcc compiles cuda_fp16.h (CUDA
 * Programming Guide, warp shuffle functions: shfl_down reads lane + delta,
 * keeping its own value past the last lane; shfl_xor reads lane ^ mask). */
static void run_half_shuffles(const char *rel)
{
    emu e;
    emu_open(&e, rel);
    enum { N = 32 };
    uint16_t in[N], got[2 * N], bgot[N];
    for (unsigned t = 0; t < N; t++)
        in[t] = half_bits(0.5f * (float)t);
    uint64_t din = emu_buf(&e, in, sizeof in), dout = emu_buf(&e, NULL, sizeof got);
    uint64_t dbout = emu_buf(&e, NULL, sizeof bgot);
    const void *args[] = {&din, &dout, &dbout};
    emu_run(&e, "_Z13half_shufflesPK6__halfPS_P13__nv_bfloat16", emu_cfg(1, 1, N, 1), args);
    emu_read(&e, got, dout, sizeof got);
    emu_read(&e, bgot, dbout, sizeof bgot);
    for (unsigned t = 0; t < N; t++) {
        float down = 0.5f * (float)(t + 1 < N ? t + 1 : t), x = 0.5f * (float)(t ^ 3);
        assert_int_equal(got[t], half_bits(down + x)); /* exact: multiples of 0.5 below 32 */
        assert_int_equal(got[N + t], half_bits(32.0f));
        assert_int_equal(bgot[t], 0x4020); /* 2.5 = 0x40200000 as f32: bf16 is the high half */
    }
    emu_close(&e);
}

static void test_nvcc_half_shuffles(void **state)
{
    (void)state;
    run_half_shuffles("ptx/frontend_forms.sm_90.O3.ptx");
    run_half_shuffles("ptx/frontend_forms.sm_75.O3.ptx");
}

/* cub::MatchAny<4> (its inline PTX: vote.ballot.sync.b32): the mask of
 * lanes whose labels agree in the low 4 bits; cub::WarpReduce Sum: the
 * warp's sum in lane 0 (CUB documentation). */
static void run_cub_match_reduce(const char *rel)
{
    emu e;
    emu_open(&e, rel);
    enum { N = 32 };
    uint32_t label[N], got[N], sum = 0, want_sum = 0;
    fill_words(label, N, 0xc0b);
    uint64_t dl = emu_buf(&e, label, sizeof label), dout = emu_buf(&e, NULL, sizeof got);
    uint64_t ds = emu_buf(&e, NULL, 4);
    const void *args[] = {&dl, &dout, &ds};
    emu_run(&e, "_Z16cub_match_reducePKjPjS1_", emu_cfg(1, 1, N, 1), args);
    emu_read(&e, got, dout, sizeof got);
    emu_read(&e, &sum, ds, 4);
    for (unsigned t = 0; t < N; t++) {
        uint32_t mask = 0;
        for (unsigned j = 0; j < N; j++)
            mask |= (uint32_t)((label[j] & 15u) == (label[t] & 15u)) << j;
        assert_int_equal(got[t], mask);
        want_sum += label[t];
    }
    assert_int_equal(sum, want_sum);
    emu_close(&e);
}

static void test_nvcc_cub_match_reduce(void **state)
{
    (void)state;
    run_cub_match_reduce("ptx/frontend_forms.sm_90.O3.ptx");
    run_cub_match_reduce("ptx/frontend_forms.sm_75.O3.ptx");
    run_cub_match_reduce("ptx/frontend_forms.sm_80.G.ptx");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_warp_sz),
        cmocka_unit_test(test_modifier_orders),
        cmocka_unit_test(test_reg_params),
        cmocka_unit_test(test_vector_registers),
        cmocka_unit_test(test_reg_plus_imm),
        cmocka_unit_test(test_nvcc_half_shuffles),
        cmocka_unit_test(test_nvcc_cub_match_reduce),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
