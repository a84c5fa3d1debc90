/* test_emu_lean_forms.c — the two-source integer forms with handlers of
 * their own per operand kind and width (add, sub, mul.lo, and, or, xor,
 * shl, shr, setp at 32 and 64 bits, signed and unsigned, with a register
 * or an immediate second source; selp of three registers), run on a full
 * warp, a run of consecutive lanes, every other lane and a random subset
 * of lanes (the lanes left out branch around the instruction and must
 * keep their old value). Expected values come from the PTX ISA 9.0's
 * descriptions written out here in C: add, sub and mul.lo wrap modulo
 * 2^w; shl and shr take the amount as an unsigned 32-bit value, amounts
 * of w or more give 0 (shr.sN: the sign fill); shr.sN fills with the sign
 * bit; setp compares the values as signed or unsigned w-bit integers;
 * selp d, a, b, c gives a when c holds, else b. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "emulator/tests/emu_test.h"

enum { NTHREADS = 128, SENTINEL = 0x5a5a5a5a };

/* The kernel: thread i loads a[i], b[i] (64 bits; %x, %z their low 32),
 * skips `body` when skip[i] != 0, and stores %d (64-bit forms) or %y
 * zero-extended (32-bit forms) to out[i]. %d and %y start as SENTINEL. */
static char *lean_kernel(const char *body, bool narrow)
{
    static const char *const head =
        PTX_TEST_HEADER
        ".visible .entry k(.param .u64 pa, .param .u64 pb, .param .u64 ps, .param .u64 pd)\n"
        "{\n"
        ".reg .pred %%skip, %%q;\n.reg .b32 %%i, %%x, %%y, %%z;\n"
        ".reg .b64 %%a, %%b, %%d, %%s, %%off, %%p;\n"
        "mov.u32 %%i, %%tid.x;\nmul.wide.u32 %%off, %%i, 8;\n"
        "ld.param.u64 %%p, [pa];\nadd.s64 %%p, %%p, %%off;\nld.global.u64 %%a, [%%p];\n"
        "ld.param.u64 %%p, [pb];\nadd.s64 %%p, %%p, %%off;\nld.global.u64 %%b, [%%p];\n"
        "ld.param.u64 %%p, [ps];\nadd.s64 %%p, %%p, %%off;\nld.global.u64 %%s, [%%p];\n"
        "cvt.u32.u64 %%x, %%a;\ncvt.u32.u64 %%z, %%b;\n"
        "mov.b64 %%d, %u;\nmov.b32 %%y, %u;\n"
        "setp.ne.u64 %%skip, %%s, 0;\n@%%skip bra DONE;\n"
        "%s\n"
        "DONE:\n%s"
        "ld.param.u64 %%p, [pd];\nadd.s64 %%p, %%p, %%off;\nst.global.u64 [%%p], %%d;\n"
        "ret;\n}\n";
    const char *tail = narrow ? "cvt.u64.u32 %d, %y;\n" : "";
    size_t n = strlen(head) + strlen(body) + strlen(tail) + 32;
    char *text = malloc(n);
    assert_non_null(text);
    snprintf(text, n, head, (unsigned)SENTINEL, (unsigned)SENTINEL, body, tail);
    return text;
}

/* skip[i] for the four warps: none, lanes 16..31, the even lanes, a
 * random subset. */
static void lane_pattern(uint64_t *skip)
{
    uint64_t r = 0x9e3779b97f4a7c15ull;
    for (unsigned i = 0; i < NTHREADS; i++) {
        unsigned w = i / 32, l = i % 32;
        skip[i] = w == 0 ? 0 : w == 1 ? l >= 16 : w == 2 ? (l % 2 == 0) : (emu_rand(&r) & 1);
    }
}

/* Inputs: extremes, small values (shift amounts around the widths) and
 * random ones. */
static void inputs(uint64_t *a, uint64_t *b)
{
    static const uint64_t edge[] = {0, 1, 2, 31, 32, 33, 63, 64, 65, 0x7fffffff, 0x80000000, 0xffffffff,
                                    0x100000000ull, 0x7fffffffffffffffull, 0x8000000000000000ull, ~0ull};
    const unsigned ne = sizeof edge / sizeof *edge;
    uint64_t r = 0x0123456789abcdefull;
    for (unsigned i = 0; i < NTHREADS; i++) {
        a[i] = i < ne ? edge[i] : i % 3 == 0 ? emu_rand(&r) % 70 : emu_rand(&r);
        b[i] = i < 64 ? edge[(i / ne + i) % ne] : i % 2 ? emu_rand(&r) % 70 : emu_rand(&r);
        if (i % 5 == 4) /* more signs to compare and shift */
            a[i] |= 0x8000000080000000ull;
    }
}

/* The width-w value of v, unsigned and signed. */
static uint64_t mask_w(unsigned w) { return w == 64 ? ~0ull : (1ull << w) - 1; }
static int64_t signed_w(uint64_t v, unsigned w)
{
    v &= mask_w(w);
    if (w < 64 && (v >> (w - 1)) & 1)
        v |= ~mask_w(w);
    return (int64_t)v;
}

typedef enum { L_ADD, L_SUB, L_MUL, L_AND, L_OR, L_XOR, L_SHL, L_SHR, L_EQ, L_NE, L_LT, L_LE, L_GT, L_GE } lean_kind;

/* The ISA's result of `kind` at width w (sg: a signed type) for a, b,
 * as the w-bit value stored zero-extended (compares: 1 or 0). */
static uint64_t reference(lean_kind kind, unsigned w, bool sg, uint64_t a, uint64_t b)
{
    uint64_t m = mask_w(w), ua = a & m, ub = b & m;
    int64_t sa = signed_w(a, w), sb = signed_w(b, w);
    uint32_t n = (uint32_t)b;
    switch (kind) {
    case L_ADD: return (a + b) & m;
    case L_SUB: return (a - b) & m;
    case L_MUL: return (a * b) & m;
    case L_AND: return a & b & m;
    case L_OR: return (a | b) & m;
    case L_XOR: return (a ^ b) & m;
    case L_SHL: return n >= w ? 0 : (a << n) & m;
    case L_SHR:
        if (!sg)
            return n >= w ? 0 : ua >> n;
        if (n >= w)
            return sa < 0 ? m : 0;
        return (sa < 0 ? ~(~(uint64_t)sa >> n) : (uint64_t)sa >> n) & m; /* the sign fill */
    case L_EQ: return sg ? sa == sb : ua == ub;
    case L_NE: return sg ? sa != sb : ua != ub;
    case L_LT: return sg ? sa < sb : ua < ub;
    case L_LE: return sg ? sa <= sb : ua <= ub;
    case L_GT: return sg ? sa > sb : ua > ub;
    default: return sg ? sa >= sb : ua >= ub;
    }
}

/* Run `body` on the lanes of lane_pattern and check every thread: the
 * expected value for the lanes that ran it, SENTINEL for the others. */
static void check(const char *body, bool narrow, lean_kind kind, unsigned w, bool sg, bool imm, uint64_t immv)
{
    uint64_t a[NTHREADS], b[NTHREADS], skip[NTHREADS], out[NTHREADS];
    inputs(a, b);
    lane_pattern(skip);
    char *text = lean_kernel(body, narrow);
    emu e;
    emu_open_module(&e, ptx_test_parse(text));
    uint64_t da = emu_buf(&e, a, sizeof a), db = emu_buf(&e, b, sizeof b), ds = emu_buf(&e, skip, sizeof skip),
             dout = emu_buf(&e, NULL, sizeof out);
    const void *args[] = {&da, &db, &ds, &dout};
    emu_run(&e, "k", emu_cfg(1, 1, NTHREADS, 1), args);
    emu_read(&e, out, dout, sizeof out);
    emu_close(&e);
    for (unsigned i = 0; i < NTHREADS; i++) {
        uint64_t bv = imm ? immv : kind == L_SHL || kind == L_SHR ? (uint32_t)b[i] : b[i];
        uint64_t want = skip[i] ? SENTINEL : reference(kind, w, sg, a[i], bv);
        if (out[i] != want)
            fail_msg("%s\nthread %u (a 0x%llx, b 0x%llx): 0x%llx, expected 0x%llx", body, i,
                     (unsigned long long)a[i], (unsigned long long)bv, (unsigned long long)out[i],
                     (unsigned long long)want);
    }
    free(text);
}

typedef struct lean_op {
    const char *name;  /* the opcode with its modifiers, without the type */
    lean_kind kind;
    const char *types; /* the type letter of each width class tested: u, s or b */
} lean_op;

static const lean_op ops[] = {
    {"add", L_ADD, "us"}, {"sub", L_SUB, "us"}, {"mul.lo", L_MUL, "us"}, {"and", L_AND, "b"},
    {"or", L_OR, "b"}, {"xor", L_XOR, "b"}, {"shl", L_SHL, "b"}, {"shr", L_SHR, "us"},
    {"setp.eq", L_EQ, "usb"}, {"setp.ne", L_NE, "usb"}, {"setp.lt", L_LT, "us"}, {"setp.le", L_LE, "us"},
    {"setp.gt", L_GT, "us"}, {"setp.ge", L_GE, "us"},
};

/* The instruction (and for setp the selp that turns its predicate into
 * 1 or 0) with second source `second`. */
static void body_of(char *buf, size_t n, const lean_op *op, char ty, unsigned w, const char *second)
{
    const char *a = w == 64 ? "%a" : "%x", *d = w == 64 ? "%d" : "%y";
    if (op->kind >= L_EQ)
        snprintf(buf, n, "%s.%c%u %%q, %s, %s;\nselp.b%u %s, 1, 0, %%q;", op->name, ty, w, a, second, w, d);
    else
        snprintf(buf, n, "%s.%c%u %s, %s, %s;", op->name, ty, w, d, a, second);
}

/* Every operation, type and width with a register second source (a
 * 32-bit one for the shift amount, as the ISA requires). */
static void test_register_forms(void **state)
{
    (void)state;
    for (size_t k = 0; k < sizeof ops / sizeof *ops; k++)
        for (const char *ty = ops[k].types; *ty; ty++)
            for (unsigned w = 32; w <= 64; w += 32) {
                bool shift = ops[k].kind == L_SHL || ops[k].kind == L_SHR;
                char body[160];
                body_of(body, sizeof body, &ops[k], *ty, w, shift || w == 32 ? "%z" : "%b");
                check(body, w == 32, ops[k].kind, w, *ty == 's', false, 0);
            }
}

/* Every operation, type and width with immediate second sources: zero,
 * one, the sign bit, all ones, the width less one (shifts: amounts below
 * the width, as ptxas accepts them). */
static void test_immediate_forms(void **state)
{
    (void)state;
    for (size_t k = 0; k < sizeof ops / sizeof *ops; k++)
        for (const char *ty = ops[k].types; *ty; ty++)
            for (unsigned w = 32; w <= 64; w += 32) {
                bool shift = ops[k].kind == L_SHL || ops[k].kind == L_SHR;
                const uint64_t values[] = {0, 1, 5, w - 1, shift ? 17 : 1ull << (w - 1), shift ? 2 : mask_w(w)};
                for (size_t v = 0; v < sizeof values / sizeof *values; v++) {
                    char imm[32], body[160];
                    snprintf(imm, sizeof imm, "0x%llx", (unsigned long long)values[v]);
                    body_of(body, sizeof body, &ops[k], *ty, w, imm);
                    check(body, w == 32, ops[k].kind, w, *ty == 's', true, values[v]);
                }
            }
}

/* selp of three registers: the predicate from an unsigned compare of the
 * full 64-bit a and b. */
static void test_selp_registers(void **state)
{
    (void)state;
    uint64_t a[NTHREADS], b[NTHREADS], skip[NTHREADS], out[NTHREADS];
    inputs(a, b);
    lane_pattern(skip);
    for (unsigned w = 32; w <= 64; w += 32) {
        char *text = lean_kernel(w == 64 ? "setp.lt.u64 %q, %a, %b;\nselp.b64 %d, %a, %b, %q;"
                                         : "setp.lt.u64 %q, %a, %b;\nselp.b32 %y, %x, %z, %q;",
                                 w == 32);
        emu e;
        emu_open_module(&e, ptx_test_parse(text));
        uint64_t da = emu_buf(&e, a, sizeof a), db = emu_buf(&e, b, sizeof b),
                 ds = emu_buf(&e, skip, sizeof skip), dout = emu_buf(&e, NULL, sizeof out);
        const void *args[] = {&da, &db, &ds, &dout};
        emu_run(&e, "k", emu_cfg(1, 1, NTHREADS, 1), args);
        emu_read(&e, out, dout, sizeof out);
        emu_close(&e);
        free(text);
        for (unsigned i = 0; i < NTHREADS; i++) {
            uint64_t want = skip[i] ? SENTINEL : (a[i] < b[i] ? a[i] : b[i]) & mask_w(w);
            assert_int_equal(out[i], want);
        }
    }
}

/* ptxas accepts the kernels the tests above build (one of each shape). */
static void test_kernels_assemble(void **state)
{
    (void)state;
    const char *bodies[] = {"shl.b64 %d, %a, %z;", "shr.s32 %y, %x, 0x1f;", "add.u64 %d, %a, 0x8000000000000000;",
                            "setp.ge.s32 %q, %x, 0xffffffff;\nselp.b32 %y, 1, 0, %q;",
                            "setp.lt.u64 %q, %a, %b;\nselp.b64 %d, %a, %b, %q;"};
    for (size_t k = 0; k < sizeof bodies / sizeof *bodies; k++) {
        char *text = lean_kernel(bodies[k], strstr(bodies[k], "%y") != NULL);
        emu_test_assemble(text, "sm_90", true);
        free(text);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_register_forms),
        cmocka_unit_test(test_immediate_forms),
        cmocka_unit_test(test_selp_registers),
        cmocka_unit_test(test_kernels_assemble),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
