/* test_emu_addr_forms.c — every address form of every instruction that
 * takes a memory operand, as a table of (instruction x state space x
 * address form).
 *
 * Each row is one kernel: it fills a 1 KiB object in its state space (a
 * .global, .shared or .local variable; the .const one has an initializer,
 * the .param one is a kernel parameter) with a known byte pattern, runs the
 * instruction with the address form under test naming byte OFF of the
 * object (byte 0 for a bare [var]), and writes the object and the
 * instruction's results to an output buffer. The expected bytes are
 * computed here from the pattern and what the PTX ISA says the instruction
 * does at that address. The register forms put the target minus the
 * written offset in a 64-, 32- or 16-bit register; several offsets make the
 * sum overflow the register, and the address is the sum wrapped to the
 * register's width (the hardware's rule, and what ptxas compiles:
 * [%r+2147483632] with %r = target - 2147483632 mod 2^32 names the
 * target).
 *
 * ld, st, atom and red are reported to a trace hook: the address reported
 * for the instruction under test must be the one reported for the plain
 * [reg] access to the same byte that writes the object out.
 *
 * Where ptxas is on PATH every kernel is assembled too (-arch=sm_90, sm_100
 * for 256-bit vectors): it must accept every row except those written
 * [reg-imm], which ptxas's grammar lacks (simtlab reads them as
 * [reg+-imm]). */
#include <inttypes.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "emu_test.h"

enum {
    OBJ = 1024,  /* bytes of the object */
    OFF = 64,    /* the byte register and [var+imm] forms name */
    RES = 1024,  /* results start here in the output buffer */
    RESMAX = 512 /* bytes of results at most */
};

/* Byte i of the pattern every object starts with (a Weyl sequence: bytes
 * 512 apart differ, so copies between halves of an object show). */
static uint8_t pattern(unsigned i) { return (uint8_t)((i * 2654435761u) >> 21); }

/* ---- state spaces ------------------------------------------------------ */

typedef struct space {
    const char *name;
    const char *suffix;    /* written on the instruction */
    const char *var;       /* the object */
    const char *base;      /* PTX putting the object's address, as the instruction takes it, in %rd1 */
    unsigned min_width;    /* narrowest register its addresses fit (and ptxas takes) */
    bool var_forms;        /* [var] names the same addresses as the registers */
} space;

enum { GLOBAL, SHARED, SHARED_CTA, SHARED_CLUSTER, MAPA, LOCAL, CONST, PARAM, GEN_GLOBAL, GEN_SHARED,
       GEN_LOCAL, NSPACES };

static const space spaces[NSPACES] = {
    [GLOBAL] = {"global", ".global", "gv", "mov.u64 %rd1, gv;", 64, true},
    [SHARED] = {"shared", ".shared", "sv", "mov.u64 %rd1, sv;", 16, true},
    [SHARED_CTA] = {"shared::cta", ".shared::cta", "sv", "mov.u64 %rd1, sv;", 16, true},
    /* a shared::cta address is a shared::cluster address of the CTA itself */
    [SHARED_CLUSTER] = {"shared::cluster", ".shared::cluster", "sv", "mov.u64 %rd1, sv;", 16, true},
    /* the address mapa gives for the CTA's own rank */
    [MAPA] = {"shared::cluster (mapa)", ".shared::cluster", "sv",
              "mov.u64 %rd1, sv;\nmapa.shared::cluster.u64 %rd1, %rd1, 0;", 32, false},
    [LOCAL] = {"local", ".local", "lv", "mov.u64 %rd1, lv;", 16, true},
    [CONST] = {"const", ".const", "cv", "mov.u64 %rd1, cv;", 16, true},
    [PARAM] = {"param", ".param", "pv", "mov.u64 %rd1, pv;", 16, true},
    [GEN_GLOBAL] = {"generic global", "", "gv", "mov.u64 %rd1, gv;\ncvta.global.u64 %rd1, %rd1;", 64, true},
    [GEN_SHARED] = {"generic shared", "", "sv", "mov.u64 %rd1, sv;\ncvta.shared.u64 %rd1, %rd1;", 64, true},
    [GEN_LOCAL] = {"generic local", "", "lv", "mov.u64 %rd1, lv;\ncvta.local.u64 %rd1, %rd1;", 64, true},
};

#define SP(x) (1u << (x))
#define ALL_SPACES (SP(NSPACES) - 1)
#define WRITABLE (ALL_SPACES & ~(SP(CONST) | SP(PARAM)))
#define ATOMIC (SP(GLOBAL) | SP(SHARED) | SP(SHARED_CTA) | SP(SHARED_CLUSTER) | SP(MAPA) | SP(GEN_GLOBAL) | SP(GEN_SHARED))
#define SHARED_ANY (SP(SHARED) | SP(SHARED_CTA) | SP(GEN_SHARED))
#define GLOBAL_ANY (SP(GLOBAL) | SP(GEN_GLOBAL))

/* ---- address forms ----------------------------------------------------- */

typedef struct form {
    const char *name;
    unsigned width;     /* the base register's bits; 0: a variable */
    uint64_t imm;       /* the offset the operand adds (two's complement) */
    const char *text;   /* the operand; @V@ is the variable */
    bool not_ptxas;     /* ptxas rejects the syntax */
} form;

static const form forms[] = {
    {"[reg]", 64, 0, "[%rd1]", false},
    {"[reg+imm]", 64, 16, "[%rd1+16]", false},
    {"[reg+-imm]", 64, (uint64_t)-16, "[%rd1+-16]", false},
    {"[reg-imm]", 64, (uint64_t)-16, "[%rd1-16]", true},
    {"[reg+imm] wrapping mod 2^64", 64, 1ull << 63, "[%rd1+9223372036854775808]", false},
    {"[reg32]", 32, 0, "[%r1]", false},
    {"[reg32+imm]", 32, 16, "[%r1+16]", false},
    {"[reg32+-imm]", 32, (uint64_t)-16, "[%r1+-16]", false},
    {"[reg32+imm] wrapping mod 2^32", 32, 2147483632, "[%r1+2147483632]", false},
    {"[reg32+imm] with imm past 2^32", 32, 4294967232, "[%r1+4294967232]", false},
    {"[reg16]", 16, 0, "[%h1]", false},
    {"[reg16+imm] wrapping mod 2^16", 16, 65520, "[%h1+65520]", false},
    {"[var]", 0, 0, "[@V@]", false},
    {"[var+imm]", 0, OFF, "[@V@+64]", false},
    {"[var+imm+imm]", 0, OFF, "[@V@+32+32]", false},
};
#define NFORMS (sizeof forms / sizeof *forms)

/* The object byte form f names (for lane 0). */
static unsigned target_of(const form *f) { return f->width ? OFF : (unsigned)f->imm; }

/* ---- instruction families ---------------------------------------------- */

/* What the kernel should leave: the object, bytes [skip_lo, skip_hi) of it
 * excepted (an mbarrier's own encoding), and nres bytes of results. */
typedef struct expect {
    uint8_t obj[OBJ];
    uint8_t res[RESMAX];
    unsigned nres, skip_lo, skip_hi;
} expect;

typedef struct family family;
/* Fill e for family fam when the form names object byte t (per_lane: lane
 * l's register names t + 16 l, unless the form is a variable). */
typedef void expect_fn(const family *fam, const form *f, unsigned t, expect *e);

struct family {
    const char *name;
    const char *target;   /* sm_90, or sm_100 for 256-bit vectors */
    unsigned spaces;      /* SP() bits */
    unsigned min_width;   /* narrowest base register it takes */
    unsigned threads;
    bool per_lane;        /* lane l's register holds the target + 16 l (ldmatrix rows) */
    bool traced;          /* reported to the trace hook (ld, st, atom, red) */
    unsigned size;        /* bytes it moves */
    const char *code;     /* @S@: the space suffix; @A@: the address; %rd40: the target
                             (plain); %rd29: the object; %rd30: the output buffer */
    expect_fn *expect;
};

/* ld/ldu/ld.global.nc: the results are the bytes at t. */
static void expect_load(const family *fam, const form *f, unsigned t, expect *e)
{
    (void)f;
    memcpy(e->res, e->obj + t, fam->size);
    e->nres = fam->size;
}

/* ld .v8.b32 with element 1 written `_`: that register keeps its 0. */
static void expect_load_sink(const family *fam, const form *f, unsigned t, expect *e)
{
    expect_load(fam, f, t, e);
    memset(e->res + 4, 0, 4);
}

/* The values st writes: byte k of the stored vector. */
static uint8_t stored(unsigned k) { return (uint8_t)(0xa0 + k * 3); }

/* st: the object holds the stored bytes at t. */
static void expect_store(const family *fam, const form *f, unsigned t, expect *e)
{
    (void)f;
    for (unsigned k = 0; k < fam->size; k++)
        e->obj[t + k] = stored(k);
}

/* st .v8.b32 with element 1 written `_`: those 4 bytes are not written. */
static void expect_store_sink(const family *fam, const form *f, unsigned t, expect *e)
{
    for (unsigned k = 0; k < fam->size; k++)
        if (k / 4 != 1)
            e->obj[t + k] = stored(k);
    (void)f;
}

static uint32_t word_at(const uint8_t *p)
{
    uint32_t v;
    memcpy(&v, p, 4);
    return v;
}

/* atom.add.u32 5: the old word comes back, the object holds old + 5. */
static void expect_atom_add(const family *fam, const form *f, unsigned t, expect *e)
{
    (void)fam; (void)f;
    uint32_t old = word_at(e->obj + t), nv = old + 5;
    memcpy(e->res, &old, 4);
    e->nres = 4;
    memcpy(e->obj + t, &nv, 4);
}

/* red.add.u32 5: the object holds old + 5. */
static void expect_red_add(const family *fam, const form *f, unsigned t, expect *e)
{
    (void)fam; (void)f;
    uint32_t nv = word_at(e->obj + t) + 5;
    memcpy(e->obj + t, &nv, 4);
}

/* atom.exch.b64 of 0x0102030405060708: the old bytes come back. */
static void expect_atom_exch(const family *fam, const form *f, unsigned t, expect *e)
{
    (void)fam; (void)f;
    uint64_t nv = 0x0102030405060708ull;
    memcpy(e->res, e->obj + t, 8);
    e->nres = 8;
    memcpy(e->obj + t, &nv, 8);
}

/* Nothing changes and nothing comes back (prefetch). */
static void expect_nothing(const family *fam, const form *f, unsigned t, expect *e)
{
    (void)fam; (void)f; (void)t; (void)e;
}

/* cp.async into the object at t from global bytes 512.. (the pattern):
 * fam->size bytes, of which the first `from` are copied and the rest are
 * zeros. */
static void copy_in(const family *fam, unsigned t, unsigned from, expect *e)
{
    for (unsigned k = 0; k < fam->size; k++)
        e->obj[t + k] = k < from ? pattern(512 + k) : 0;
}

static void expect_cp_dst(const family *fam, const form *f, unsigned t, expect *e)
{
    (void)f;
    copy_in(fam, t, fam->size, e);
}

/* cp.async ..., 16, 3: three bytes copied, thirteen zeros. */
static void expect_cp_dst_partial(const family *fam, const form *f, unsigned t, expect *e)
{
    (void)f;
    copy_in(fam, t, 3, e);
}

/* cp.async with ignore-src true: zeros. */
static void expect_cp_dst_ignored(const family *fam, const form *f, unsigned t, expect *e)
{
    (void)f;
    copy_in(fam, t, 0, e);
}

/* cp.async from the object at t into shared bytes 512..527 (the pattern
 * there), which the kernel returns. */
static void expect_cp_src(const family *fam, const form *f, unsigned t, expect *e)
{
    (void)f;
    for (unsigned k = 0; k < 16; k++)
        e->res[k] = k < fam->size ? e->obj[t + k] : pattern(512 + k);
    e->nres = 16;
}

/* mbarrier checks: the kernel returns 1 (the phase completed) and the
 * object's 8 bytes at t are the mbarrier's own. */
static void expect_mbarrier(const family *fam, const form *f, unsigned t, expect *e)
{
    (void)fam; (void)f;
    e->res[0] = 1;
    e->nres = 4;
    e->skip_lo = t;
    e->skip_hi = t + 8;
}

/* ldmatrix.x4 (fam->size 1: .trans): lane l gets in register i row l / 4,
 * columns 2 (l % 4) and the next, of matrix i, whose row r lane 8 i + r
 * names. */
static void expect_ldmatrix(const family *fam, const form *f, unsigned t, expect *e)
{
    bool trans = fam->size == 1;
    for (unsigned l = 0; l < 32; l++)
        for (unsigned i = 0; i < 4; i++) {
            uint16_t h[2];
            for (unsigned c = 0; c < 2; c++) {
                unsigned row = l / 4, col = 2 * (l % 4) + c;
                if (trans) { unsigned x = row; row = col; col = x; }
                unsigned lane = 8 * i + row, addr = t + (f->width ? 16 * lane : 0) + 2 * col;
                memcpy(&h[c], e->obj + addr, 2);
            }
            memcpy(e->res + 16 * l + 4 * i, h, 4);
        }
    e->nres = 512;
}

/* stmatrix.x4 (fam->size 1: .trans): lane l's register i holds the halves
 * 8 l + 2 i and the next, which are row l / 4, columns 2 (l % 4) and the
 * next, of matrix i (of its transpose with .trans), whose row r goes to
 * the address lane 8 i + r names. */
static void expect_stmatrix(const family *fam, const form *f, unsigned t, expect *e)
{
    (void)f;
    bool trans = fam->size == 1;
    for (unsigned l = 0; l < 32; l++)
        for (unsigned i = 0; i < 4; i++)
            for (unsigned c = 0; c < 2; c++) {
                uint16_t h = (uint16_t)(8 * l + 2 * i + c);
                unsigned row = l / 4, col = 2 * (l % 4) + c;
                if (trans) { unsigned x = row; row = col; col = x; }
                memcpy(e->obj + t + 16 * (8 * i + row) + 2 * col, &h, 2);
            }
}

/* wmma.load.c (f16, row-major, 16 x 16): the 512 bytes at t come back,
 * whatever the fragment layout. */
static void expect_wmma_load(const family *fam, const form *f, unsigned t, expect *e)
{
    (void)fam; (void)f;
    memcpy(e->res, e->obj + t, 512);
    e->nres = 512;
}

/* wmma.store.d of the matrix loaded from object bytes 512..1023. */
static void expect_wmma_store(const family *fam, const form *f, unsigned t, expect *e)
{
    (void)fam; (void)f;
    uint8_t m[512];
    memcpy(m, e->obj + 512, 512);
    memcpy(e->obj + t, m, 512);
}

/* The words the transaction checks return: the phase had not completed
 * before the last transactions, and had after them. */
static void phase_words(expect *e, unsigned at)
{
    memset(e->res + at, 0, 8);
    e->res[at + 4] = 1;
    if (e->nres < at + 8)
        e->nres = at + 8;
}

/* mbarrier.expect_tx/complete_tx/arrive.expect_tx on the object's bytes t:
 * 0 then 1, and the 8 bytes are the mbarrier's. */
static void expect_tx_phase(const family *fam, const form *f, unsigned t, expect *e)
{
    (void)fam; (void)f;
    phase_words(e, 0);
    e->skip_lo = t;
    e->skip_hi = t + 8;
}

/* An mbarrier at object byte MBAR counts the transactions of the access. */
enum { MBAR = 1000 };

/* st.async: the stored bytes at t; the mbarrier at MBAR completes. */
static void expect_st_async(const family *fam, const form *f, unsigned t, expect *e)
{
    expect_store(fam, f, t, e);
    phase_words(e, 0);
    e->skip_lo = MBAR;
    e->skip_hi = MBAR + 8;
}

/* red.async.add 5 (fam->size bytes): old + 5 at t; the mbarrier completes. */
static void expect_red_async(const family *fam, const form *f, unsigned t, expect *e)
{
    (void)f;
    uint64_t v = 0;
    memcpy(&v, e->obj + t, fam->size);
    v += 5;
    memcpy(e->obj + t, &v, fam->size);
    phase_words(e, 0);
    e->skip_lo = MBAR;
    e->skip_hi = MBAR + 8;
}

/* cp.async.bulk of 32 bytes into the object at t from pattern bytes 512..
 * (global or shared); its mbarrier (if any) at MBAR completes. */
static void expect_bulk_dst(const family *fam, const form *f, unsigned t, expect *e)
{
    (void)f;
    for (unsigned k = 0; k < 32; k++)
        e->obj[t + k] = pattern(512 + k);
    if (fam->size) { /* with an mbarrier */
        phase_words(e, 0);
        e->skip_lo = MBAR;
        e->skip_hi = MBAR + 8;
    }
}

/* cp.async.bulk .cp_mask 0x0ff0: bytes 4..11 of each 16 copied. */
static void expect_bulk_masked(const family *fam, const form *f, unsigned t, expect *e)
{
    (void)fam; (void)f;
    for (unsigned k = 0; k < 32; k++)
        if (k % 16 >= 4 && k % 16 < 12)
            e->obj[t + k] = pattern(512 + k);
}

/* cp.async.bulk from the object at t: the 32 bytes come back (then the
 * phase words when fam->size says there is an mbarrier). */
static void expect_bulk_src(const family *fam, const form *f, unsigned t, expect *e)
{
    (void)f;
    memcpy(e->res, e->obj + t, 32);
    e->nres = 32;
    if (fam->size)
        phase_words(e, 32);
}

/* cp.async.bulk within the object, from t to byte 512. */
static void expect_bulk_src_shared(const family *fam, const form *f, unsigned t, expect *e)
{
    (void)fam; (void)f;
    memmove(e->obj + 512, e->obj + t, 32);
    phase_words(e, 0);
    e->skip_lo = MBAR;
    e->skip_hi = MBAR + 8;
}

/* cp.async.bulk of global pattern bytes 768.. to object byte 512, whose
 * mbarrier the form names at t. */
static void expect_bulk_mbar(const family *fam, const form *f, unsigned t, expect *e)
{
    (void)fam; (void)f;
    for (unsigned k = 0; k < 32; k++)
        e->obj[512 + k] = pattern(768 + k);
    phase_words(e, 0);
    e->skip_lo = t;
    e->skip_hi = t + 8;
}

#define ST_U32 "mov.u32 %r10, 0xa9a6a3a0;\nst@S@.u32 @A@, %r10;"
#define ST_V4 "mov.u32 %r10, 0xa9a6a3a0;\nmov.u32 %r11, 0xb5b2afac;\nmov.u32 %r12, 0xc1bebbb8;\n" \
              "mov.u32 %r13, 0xcdcac7c4;\nst@S@.v4.u32 @A@, {%r10, %r11, %r12, %r13};"
#define ST_V8_REGS "mov.u32 %r10, 0xa9a6a3a0;\nmov.u32 %r11, 0xb5b2afac;\nmov.u32 %r12, 0xc1bebbb8;\n" \
                   "mov.u32 %r13, 0xcdcac7c4;\nmov.u32 %r14, 0xd9d6d3d0;\nmov.u32 %r15, 0xe5e2dfdc;\n" \
                   "mov.u32 %r16, 0xf1eeebe8;\nmov.u32 %r17, 0xfdfaf7f4;\n"
#define RES_V4 "st.global.v4.u32 [%rd30+1024], {%r10, %r11, %r12, %r13};"
#define RES_V8 RES_V4 "\nst.global.v4.u32 [%rd30+1040], {%r14, %r15, %r16, %r17};"
/* mbarrier helpers on the target through a plain register */
#define MB_INIT(n) "mbarrier.init@S@.b64 [%rd40], " #n ";\n"
#define MB_ARRIVE "mbarrier.arrive@S@.b64 %rd20, [%rd40];\n"
#define MB_DONE "mbarrier.test_wait@S@.b64 %p1, [%rd40], %rd20;\nselp.u32 %r10, 1, 0, %p1;\nst.global.u32 [%rd30+1024], %r10;"
#define MB_RES "selp.u32 %r10, 1, 0, %p1;\nst.global.u32 [%rd30+1024], %r10;"
/* transaction checks on an mbarrier through shared::cta addresses: %rd43
 * (the target) or %rd44 (object byte MBAR); %rd45: MBAR in the row's space */
#define TX_INIT(bar) "mbarrier.init.shared.b64 [" bar "], 1;\n"
#define TX_TEST(bar, r) "mbarrier.try_wait.parity.shared.b64 %p1, [" bar "], 0;\nselp.u32 " r ", 1, 0, %p1;\n"
#define TX_RES(at) "st.global.v2.u32 [%rd30+" at "], {%r20, %r21};"
#define TX_EXPECT(bytes) TX_INIT("%rd44") "mbarrier.arrive.expect_tx.shared.b64 %rd20, [%rd44], " bytes ";\n" \
                         TX_TEST("%rd44", "%r20")
#define CP_DST "mov.u64 %rd41, gv;\nadd.s64 %rd41, %rd41, 512;\n"
#define CP_SRC "mov.u32 %r41, sv;\nadd.u32 %r41, %r41, 512;\n"
#define CP_SRC_RES "\ncp.async.wait_all;\nld.shared.v4.u32 {%r10, %r11, %r12, %r13}, [%r41];\n" RES_V4

static const family families[] = {
    {"ld.u32", "sm_90", ALL_SPACES, 16, 1, false, true, 4, "ld@S@.u32 %r10, @A@;\nst.global.u32 [%rd30+1024], %r10;",
     expect_load},
    {"ld.v4.u32", "sm_90", ALL_SPACES, 16, 1, false, true, 16, "ld@S@.v4.u32 {%r10, %r11, %r12, %r13}, @A@;\n" RES_V4,
     expect_load},
    {"ld.v2.u64", "sm_90", ALL_SPACES, 16, 1, false, true, 16,
     "ld@S@.v2.u64 {%rd10, %rd11}, @A@;\nst.global.v2.u64 [%rd30+1024], {%rd10, %rd11};", expect_load},
    {"ld.v8.b32", "sm_100", GLOBAL_ANY, 64, 1, false, true, 32,
     "ld@S@.v8.b32 {%r10, %r11, %r12, %r13, %r14, %r15, %r16, %r17}, @A@;\n" RES_V8, expect_load},
    {"ld.v8.b32 with _", "sm_100", GLOBAL_ANY, 64, 1, false, true, 32,
     "mov.u32 %r11, 0;\nld@S@.v8.b32 {%r10, _, %r12, %r13, %r14, %r15, %r16, %r17}, @A@;\n" RES_V8, expect_load_sink},
    {"ld.v4.b64", "sm_100", GLOBAL_ANY, 64, 1, false, true, 32,
     "ld@S@.v4.b64 {%rd10, %rd11, %rd12, %rd13}, @A@;\nst.global.v2.u64 [%rd30+1024], {%rd10, %rd11};\n"
     "st.global.v2.u64 [%rd30+1040], {%rd12, %rd13};", expect_load},
    {"ld.global.nc.u32", "sm_90", SP(GLOBAL), 64, 1, false, true, 4,
     "ld.global.nc.u32 %r10, @A@;\nst.global.u32 [%rd30+1024], %r10;", expect_load},
    {"ldu.u32", "sm_90", GLOBAL_ANY, 64, 1, false, true, 4, "ldu@S@.u32 %r10, @A@;\nst.global.u32 [%rd30+1024], %r10;",
     expect_load},
    {"st.u32", "sm_90", WRITABLE, 16, 1, false, true, 4, ST_U32, expect_store},
    {"st.v4.u32", "sm_90", WRITABLE, 16, 1, false, true, 16, ST_V4, expect_store},
    {"st.v8.b32", "sm_100", GLOBAL_ANY, 64, 1, false, true, 32,
     ST_V8_REGS "st@S@.v8.b32 @A@, {%r10, %r11, %r12, %r13, %r14, %r15, %r16, %r17};", expect_store},
    {"st.v8.b32 with _", "sm_100", GLOBAL_ANY, 64, 1, false, true, 32,
     ST_V8_REGS "st@S@.v8.b32 @A@, {%r10, _, %r12, %r13, %r14, %r15, %r16, %r17};", expect_store_sink},
    {"st.v4.b64", "sm_100", GLOBAL_ANY, 64, 1, false, true, 32,
     ST_V8_REGS "mov.b64 %rd10, {%r10, %r11};\nmov.b64 %rd11, {%r12, %r13};\nmov.b64 %rd12, {%r14, %r15};\n"
     "mov.b64 %rd13, {%r16, %r17};\nst@S@.v4.b64 @A@, {%rd10, %rd11, %rd12, %rd13};", expect_store},
    {"atom.add.u32", "sm_90", ATOMIC, 16, 1, false, true, 4,
     "atom@S@.add.u32 %r10, @A@, 5;\nst.global.u32 [%rd30+1024], %r10;", expect_atom_add},
    {"atom.exch.b64", "sm_90", ATOMIC, 16, 1, false, true, 8,
     "mov.u64 %rd10, 0x0102030405060708;\natom@S@.exch.b64 %rd11, @A@, %rd10;\nst.global.u64 [%rd30+1024], %rd11;",
     expect_atom_exch},
    {"red.add.u32", "sm_90", ATOMIC, 16, 1, false, true, 4, "red@S@.add.u32 @A@, 5;", expect_red_add},
    {"prefetch.L1", "sm_90", SP(GLOBAL) | SP(LOCAL) | SP(GEN_GLOBAL) | SP(GEN_SHARED) | SP(GEN_LOCAL), 16, 1, false,
     false, 0, "prefetch@S@.L1 @A@;", expect_nothing},
    {"prefetch.L2::evict_last", "sm_90", SP(GLOBAL) | SP(GEN_GLOBAL), 64, 1, false, false, 0,
     "prefetch@S@.L2::evict_last @A@;", expect_nothing},
    {"prefetchu.L1", "sm_90", SP(GEN_GLOBAL) | SP(GEN_SHARED) | SP(GEN_LOCAL), 64, 1, false, false, 0,
     "prefetchu.L1 @A@;", expect_nothing},
    {"cp.async.ca 4 (destination)", "sm_90", SP(SHARED) | SP(SHARED_CTA), 16, 1, false, false, 4,
     CP_DST "cp.async.ca@S@.global @A@, [%rd41], 4;\ncp.async.wait_all;", expect_cp_dst},
    {"cp.async.ca 8 (destination)", "sm_90", SP(SHARED) | SP(SHARED_CTA), 16, 1, false, false, 8,
     CP_DST "cp.async.ca@S@.global @A@, [%rd41], 8;\ncp.async.commit_group;\ncp.async.wait_group 0;", expect_cp_dst},
    {"cp.async.ca 16 (destination)", "sm_90", SP(SHARED) | SP(SHARED_CTA), 16, 1, false, false, 16,
     CP_DST "cp.async.ca@S@.global @A@, [%rd41], 16;\ncp.async.wait_all;", expect_cp_dst},
    {"cp.async.cg 16 (destination)", "sm_90", SP(SHARED) | SP(SHARED_CTA), 16, 1, false, false, 16,
     CP_DST "cp.async.cg@S@.global.L2::128B @A@, [%rd41], 16;\ncp.async.wait_all;", expect_cp_dst},
    {"cp.async.cg 16 src-size 3 (destination)", "sm_90", SP(SHARED) | SP(SHARED_CTA), 16, 1, false, false, 16,
     CP_DST "mov.u32 %r9, 3;\ncp.async.cg@S@.global @A@, [%rd41], 16, %r9;\ncp.async.wait_all;", expect_cp_dst_partial},
    {"cp.async.ca 8 ignore-src true (destination)", "sm_90", SP(SHARED) | SP(SHARED_CTA), 16, 1, false, false, 8,
     CP_DST "setp.eq.u32 %p2, 0, 0;\ncp.async.ca@S@.global @A@, [%rd41], 8, %p2;\ncp.async.wait_all;",
     expect_cp_dst_ignored},
    {"cp.async.ca 8 ignore-src false (destination)", "sm_90", SP(SHARED) | SP(SHARED_CTA), 16, 1, false, false, 8,
     CP_DST "setp.ne.u32 %p2, 0, 0;\ncp.async.ca@S@.global @A@, [%rd41], 8, %p2;\ncp.async.wait_all;", expect_cp_dst},
    {"cp.async.ca 4 cache hint (destination)", "sm_90", SP(SHARED) | SP(SHARED_CTA), 16, 1, false, false, 4,
     CP_DST "mov.u64 %rd9, 0;\ncp.async.ca@S@.global.L2::cache_hint @A@, [%rd41], 4, %rd9;\ncp.async.wait_all;",
     expect_cp_dst},
    {"cp.async.ca 4 (source)", "sm_90", SP(GLOBAL), 64, 1, false, false, 4,
     CP_SRC "cp.async.ca.shared.global [%r41], @A@, 4;" CP_SRC_RES, expect_cp_src},
    {"cp.async.ca 8 (source)", "sm_90", SP(GLOBAL), 64, 1, false, false, 8,
     CP_SRC "cp.async.ca.shared::cta.global [%r41], @A@, 8;" CP_SRC_RES, expect_cp_src},
    {"cp.async.cg 16 (source)", "sm_90", SP(GLOBAL), 64, 1, false, false, 16,
     CP_SRC "cp.async.cg.shared.global [%r41], @A@, 16;" CP_SRC_RES, expect_cp_src},
    {"cp.async.cg 16 src-size 16 cache hint (source)", "sm_90", SP(GLOBAL), 64, 1, false, false, 16,
     CP_SRC "mov.u64 %rd9, 0;\ncp.async.cg.shared.global.L2::cache_hint [%r41], @A@, 16, 16, %rd9;" CP_SRC_RES,
     expect_cp_src},
    {"mbarrier.init", "sm_90", SHARED_ANY, 16, 1, false, false, 8, "mbarrier.init@S@.b64 @A@, 1;\n" MB_ARRIVE MB_DONE,
     expect_mbarrier},
    {"mbarrier.arrive", "sm_90", SHARED_ANY, 16, 1, false, false, 8,
     MB_INIT(1) "mbarrier.arrive@S@.b64 %rd20, @A@;\n" MB_DONE, expect_mbarrier},
    {"mbarrier.arrive_drop", "sm_90", SHARED_ANY, 16, 1, false, false, 8,
     MB_INIT(1) "mbarrier.arrive_drop@S@.b64 %rd20, @A@;\n" MB_DONE, expect_mbarrier},
    {"mbarrier.test_wait", "sm_90", SHARED_ANY, 16, 1, false, false, 8,
     MB_INIT(1) MB_ARRIVE "mbarrier.test_wait@S@.b64 %p1, @A@, %rd20;\n" MB_RES, expect_mbarrier},
    {"mbarrier.try_wait.parity", "sm_90", SHARED_ANY, 16, 1, false, false, 8,
     MB_INIT(1) MB_ARRIVE "mbarrier.try_wait.parity@S@.b64 %p1, @A@, 0;\n" MB_RES, expect_mbarrier},
    {"mbarrier.inval", "sm_90", SHARED_ANY, 16, 1, false, false, 8,
     MB_INIT(3) "mbarrier.inval@S@.b64 @A@;\n" MB_INIT(1) MB_ARRIVE MB_DONE, expect_mbarrier},
    /* the arrival it triggers takes the pending count from 2 to 1 */
    {"cp.async.mbarrier.arrive.noinc", "sm_90", SHARED_ANY, 16, 1, false, false, 8,
     MB_INIT(2) "cp.async.mbarrier.arrive.noinc@S@.b64 @A@;\n" MB_ARRIVE MB_DONE, expect_mbarrier},
    {"ldmatrix.x4", "sm_90", SHARED_ANY, 16, 32, true, false, 0,
     "ldmatrix.sync.aligned.m8n8.x4@S@.b16 {%r10, %r11, %r12, %r13}, @A@;\nmov.u32 %r20, %tid.x;\n"
     "mul.wide.u32 %rd20, %r20, 16;\nadd.s64 %rd21, %rd30, %rd20;\nst.global.v4.u32 [%rd21+1024], {%r10, %r11, %r12, %r13};",
     expect_ldmatrix},
    {"ldmatrix.x4.trans", "sm_90", SHARED_ANY, 16, 32, true, false, 1,
     "ldmatrix.sync.aligned.m8n8.x4.trans@S@.b16 {%r10, %r11, %r12, %r13}, @A@;\nmov.u32 %r20, %tid.x;\n"
     "mul.wide.u32 %rd20, %r20, 16;\nadd.s64 %rd21, %rd30, %rd20;\nst.global.v4.u32 [%rd21+1024], {%r10, %r11, %r12, %r13};",
     expect_ldmatrix},
    {"stmatrix.x4", "sm_90", SHARED_ANY, 16, 32, true, false, 0,
     "mov.u32 %r20, %tid.x;\nmul.lo.u32 %r21, %r20, 8;\nmad.lo.u32 %r10, %r21, 0x10001, 0x10000;\n"
     "add.u32 %r11, %r10, 0x20002;\nadd.u32 %r12, %r10, 0x40004;\nadd.u32 %r13, %r10, 0x60006;\n"
     "stmatrix.sync.aligned.m8n8.x4@S@.b16 @A@, {%r10, %r11, %r12, %r13};", expect_stmatrix},
    {"stmatrix.x4.trans", "sm_90", SHARED_ANY, 16, 32, true, false, 1,
     "mov.u32 %r20, %tid.x;\nmul.lo.u32 %r21, %r20, 8;\nmad.lo.u32 %r10, %r21, 0x10001, 0x10000;\n"
     "add.u32 %r11, %r10, 0x20002;\nadd.u32 %r12, %r10, 0x40004;\nadd.u32 %r13, %r10, 0x60006;\n"
     "stmatrix.sync.aligned.m8n8.x4.trans@S@.b16 @A@, {%r10, %r11, %r12, %r13};", expect_stmatrix},
    {"wmma.load.c", "sm_90", SHARED_ANY | GLOBAL_ANY, 32, 32, false, false, 0,
     "wmma.load.c.sync.aligned.row.m16n16k16@S@.f16 {%r10, %r11, %r12, %r13}, @A@;\nadd.s64 %rd21, %rd30, 1024;\n"
     "wmma.store.d.sync.aligned.row.m16n16k16.global.f16 [%rd21], {%r10, %r11, %r12, %r13};", expect_wmma_load},
    {"wmma.load.c with stride", "sm_90", SHARED_ANY | GLOBAL_ANY, 32, 32, false, false, 0,
     "mov.u32 %r9, 16;\nwmma.load.c.sync.aligned.row.m16n16k16@S@.f16 {%r10, %r11, %r12, %r13}, @A@, %r9;\n"
     "add.s64 %rd21, %rd30, 1024;\n"
     "wmma.store.d.sync.aligned.row.m16n16k16.global.f16 [%rd21], {%r10, %r11, %r12, %r13};", expect_wmma_load},
    {"wmma.store.d", "sm_90", SHARED_ANY | GLOBAL_ANY, 32, 32, false, false, 0,
     "add.s64 %rd21, %rd29, 512;\nwmma.load.c.sync.aligned.row.m16n16k16@S@.f16 {%r10, %r11, %r12, %r13}, [%rd21];\n"
     "wmma.store.d.sync.aligned.row.m16n16k16@S@.f16 @A@, {%r10, %r11, %r12, %r13};", expect_wmma_store},
    {"ld.u32 [a].unified", "sm_90", GLOBAL_ANY, 64, 1, false, true, 4,
     "ld@S@.u32 %r10, @A@.unified;\nst.global.u32 [%rd30+1024], %r10;", expect_load},
    {"mbarrier.expect_tx", "sm_90", SHARED_ANY | SP(SHARED_CLUSTER) | SP(MAPA), 16, 1, false, false, 8,
     TX_INIT("%rd43") "mbarrier.expect_tx@S@.b64 @A@, 16;\nmbarrier.arrive.shared.b64 %rd20, [%rd43];\n"
     TX_TEST("%rd43", "%r20") "mbarrier.complete_tx.shared.b64 [%rd43], 16;\n" TX_TEST("%rd43", "%r21") TX_RES("1024"),
     expect_tx_phase},
    {"mbarrier.complete_tx", "sm_90", SHARED_ANY | SP(SHARED_CLUSTER) | SP(MAPA), 16, 1, false, false, 8,
     TX_INIT("%rd43") "mbarrier.expect_tx.shared.b64 [%rd43], 16;\nmbarrier.arrive.shared.b64 %rd20, [%rd43];\n"
     TX_TEST("%rd43", "%r20") "mbarrier.complete_tx@S@.b64 @A@, 16;\n" TX_TEST("%rd43", "%r21") TX_RES("1024"),
     expect_tx_phase},
    {"mbarrier.arrive.expect_tx", "sm_90", SHARED_ANY, 16, 1, false, false, 8,
     TX_INIT("%rd43") "mbarrier.arrive.expect_tx@S@.b64 %rd20, @A@, 16;\n" TX_TEST("%rd43", "%r20")
     "mbarrier.complete_tx.shared.b64 [%rd43], 16;\n" TX_TEST("%rd43", "%r21") TX_RES("1024"), expect_tx_phase},
    {"mbarrier.arrive.expect_tx _", "sm_90", SP(SHARED_CLUSTER) | SP(MAPA), 16, 1, false, false, 8,
     TX_INIT("%rd43") "mbarrier.arrive.expect_tx.release.cluster@S@.b64 _, @A@, 16;\n" TX_TEST("%rd43", "%r20")
     "mbarrier.complete_tx.shared.b64 [%rd43], 16;\n" TX_TEST("%rd43", "%r21") TX_RES("1024"), expect_tx_phase},
    {"st.async.b32", "sm_90", SP(SHARED_CLUSTER) | SP(MAPA), 32, 1, false, true, 4,
     TX_EXPECT("4") "mov.u32 %r10, 0xa9a6a3a0;\nst.async@S@.mbarrier::complete_tx::bytes.b32 @A@, %r10, [%rd45];\n"
     TX_TEST("%rd44", "%r21") TX_RES("1024"), expect_st_async},
    {"st.async.v4.b32", "sm_90", SP(SHARED_CLUSTER) | SP(MAPA), 32, 1, false, true, 16,
     TX_EXPECT("16") "mov.u32 %r10, 0xa9a6a3a0;\nmov.u32 %r11, 0xb5b2afac;\nmov.u32 %r12, 0xc1bebbb8;\n"
     "mov.u32 %r13, 0xcdcac7c4;\nst.async@S@.mbarrier::complete_tx::bytes.v4.b32 @A@, {%r10, %r11, %r12, %r13}, [%rd45];\n"
     TX_TEST("%rd44", "%r21") TX_RES("1024"), expect_st_async},
    {"st.async.v2.b64", "sm_90", SP(SHARED_CLUSTER) | SP(MAPA), 32, 1, false, true, 16,
     TX_EXPECT("16") "mov.u64 %rd10, 0xb5b2afaca9a6a3a0;\nmov.u64 %rd11, 0xcdcac7c4c1bebbb8;\n"
     "st.async@S@.mbarrier::complete_tx::bytes.v2.b64 @A@, {%rd10, %rd11}, [%rd45];\n"
     TX_TEST("%rd44", "%r21") TX_RES("1024"), expect_st_async},
    {"red.async.add.u32", "sm_90", SP(SHARED_CLUSTER) | SP(MAPA), 32, 1, false, true, 4,
     TX_EXPECT("4") "mov.u32 %r9, 5;\n"
     "red.async.relaxed.cluster@S@.mbarrier::complete_tx::bytes.add.u32 @A@, %r9, [%rd45];\n"
     TX_TEST("%rd44", "%r21") TX_RES("1024"), expect_red_async},
    {"red.async.add.u64", "sm_90", SP(SHARED_CLUSTER) | SP(MAPA), 32, 1, false, true, 8,
     TX_EXPECT("8") "mov.u64 %rd9, 5;\n"
     "red.async.relaxed.cluster@S@.mbarrier::complete_tx::bytes.add.u64 @A@, %rd9, [%rd45];\n"
     TX_TEST("%rd44", "%r21") TX_RES("1024"), expect_red_async},
    /* size 1: the copy completes an mbarrier at MBAR */
    {"cp.async.bulk global to shared (destination)", "sm_90", SP(SHARED_CTA) | SP(SHARED_CLUSTER) | SP(MAPA), 32, 1,
     false, false, 1,
     TX_EXPECT("32") CP_DST "cp.async.bulk@S@.global.mbarrier::complete_tx::bytes @A@, [%rd41], 32, [%rd45];\n"
     TX_TEST("%rd44", "%r21") TX_RES("1024"), expect_bulk_dst},
    {"cp.async.bulk global to shared (source)", "sm_90", SP(GLOBAL), 64, 1, false, false, 1,
     TX_EXPECT("32") CP_SRC "cp.async.bulk.shared::cta.global.mbarrier::complete_tx::bytes [%r41], @A@, 32, [%rd44];\n"
     TX_TEST("%rd44", "%r21") TX_RES("1056") "\nld.shared.v4.u32 {%r10, %r11, %r12, %r13}, [%r41];\n" RES_V4
     "\nld.shared.v4.u32 {%r10, %r11, %r12, %r13}, [%r41+16];\nst.global.v4.u32 [%rd30+1040], {%r10, %r11, %r12, %r13};",
     expect_bulk_src},
    {"cp.async.bulk global to shared (mbarrier)", "sm_90", SP(SHARED_CTA) | SP(SHARED_CLUSTER) | SP(MAPA), 32, 1,
     false, false, 0,
     TX_INIT("%rd43") "mbarrier.arrive.expect_tx.shared.b64 %rd20, [%rd43], 32;\n" TX_TEST("%rd43", "%r20")
     "add.s64 %rd46, %rd29, 512;\nmov.u64 %rd47, gv;\nadd.s64 %rd47, %rd47, 768;\n"
     "cp.async.bulk@S@.global.mbarrier::complete_tx::bytes [%rd46], [%rd47], 32, @A@;\n"
     TX_TEST("%rd43", "%r21") TX_RES("1024"), expect_bulk_mbar},
    {"cp.async.bulk shared::cta to shared::cluster (destination)", "sm_90", SP(SHARED_CLUSTER) | SP(MAPA), 32, 1,
     false, false, 1,
     TX_EXPECT("32") CP_SRC "cp.async.bulk@S@.shared::cta.mbarrier::complete_tx::bytes @A@, [%r41], 32, [%rd45];\n"
     TX_TEST("%rd44", "%r21") TX_RES("1024"), expect_bulk_dst},
    {"cp.async.bulk shared::cta to shared::cluster (source)", "sm_90", SP(SHARED_CTA), 32, 1, false, false, 0,
     TX_EXPECT("32") CP_SRC "cp.async.bulk.shared::cluster@S@.mbarrier::complete_tx::bytes [%r41], @A@, 32, [%rd44];\n"
     TX_TEST("%rd44", "%r21") TX_RES("1024"), expect_bulk_src_shared},
    {"cp.async.bulk shared::cta to global (destination)", "sm_90", SP(GLOBAL), 64, 1, false, false, 0,
     CP_SRC "mov.u64 %rd9, 0;\ncp.async.bulk@S@.shared::cta.bulk_group.L2::cache_hint @A@, [%r41], 32, %rd9;\n"
     "cp.async.bulk.commit_group;\ncp.async.bulk.wait_group.read 0;", expect_bulk_dst},
    {"cp.async.bulk shared::cta to global .cp_mask (destination)", "sm_100", SP(GLOBAL), 64, 1, false, false, 0,
     CP_SRC "mov.u16 %h2, 0x0ff0;\ncp.async.bulk@S@.shared::cta.bulk_group.cp_mask @A@, [%r41], 32, %h2;\n"
     "cp.async.bulk.commit_group;\ncp.async.bulk.wait_group 0;", expect_bulk_masked},
    {"cp.async.bulk shared::cta to global (source)", "sm_90", SP(SHARED_CTA), 32, 1, false, false, 0,
     CP_DST "cp.async.bulk.global@S@.bulk_group [%rd41], @A@, 32;\ncp.async.bulk.commit_group;\n"
     "cp.async.bulk.wait_group 0;\nld.global.v4.u32 {%r10, %r11, %r12, %r13}, [%rd41];\n" RES_V4
     "\nld.global.v4.u32 {%r10, %r11, %r12, %r13}, [%rd41+16];\nst.global.v4.u32 [%rd30+1040], {%r10, %r11, %r12, %r13};",
     expect_bulk_src},
    {"cp.async.bulk.prefetch", "sm_90", SP(GLOBAL), 64, 1, false, false, 0,
     "cp.async.bulk.prefetch.L2@S@ @A@, 32;", expect_nothing},
    {"applypriority", "sm_90", GLOBAL_ANY, 64, 1, false, false, 0, "applypriority@S@.L2::evict_normal @A@, 128;",
     expect_nothing},
    {"discard", "sm_90", GLOBAL_ANY, 64, 1, false, false, 0, "discard@S@.L2 @A@, 128;", expect_nothing},
    {"createpolicy.range", "sm_90", GLOBAL_ANY, 64, 1, false, false, 4,
     "createpolicy.range@S@.L2::evict_last.L2::evict_unchanged.b64 %rd9, @A@, 64, 128;\n"
     "ld.global.L2::cache_hint.u32 %r10, [%rd40], %rd9;\nst.global.u32 [%rd30+1024], %r10;", expect_load},
};
#define NFAMILIES (sizeof families / sizeof *families)

/* ---- building a row's kernel ------------------------------------------- */

/* A growing string. */
typedef struct text {
    char *s;
    size_t n, cap;
} text;

static void put(text *t, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void put(text *t, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int k = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    assert_true(k >= 0);
    if (t->n + (size_t)k + 1 > t->cap) {
        t->cap = (t->n + (size_t)k + 1) * 2;
        t->s = realloc(t->s, t->cap);
        assert_non_null(t->s);
    }
    va_start(ap, fmt);
    vsnprintf(t->s + t->n, (size_t)k + 1, fmt, ap);
    va_end(ap);
    t->n += (size_t)k;
}

/* Append src with @S@, @A@ and @V@ replaced. */
static void put_subst(text *t, const char *src, const char *S, const char *A, const char *V)
{
    for (const char *p = src; *p;) {
        if (strncmp(p, "@S@", 3) == 0) {
            put(t, "%s", S);
            p += 3;
        } else if (strncmp(p, "@A@", 3) == 0) {
            put_subst(t, A, S, A, V);
            p += 3;
        } else if (strncmp(p, "@V@", 3) == 0) {
            put(t, "%s", V);
            p += 3;
        } else {
            put(t, "%c", *p++);
        }
    }
}

/* The line the next text appended to t starts. */
static unsigned next_line(const text *t)
{
    unsigned line = 1;
    for (size_t i = 0; i < t->n; i++)
        line += t->s[i] == '\n';
    return line;
}

/* The module's declarations for target `arch` (the .const object with its
 * pattern when const_init). */
static void build_header(text *t, const char *arch, bool const_init)
{
    put(t, ".version 9.0\n.target %s\n.address_size 64\n"
           ".global .align 32 .b8 gv[%d];\n.shared .align 32 .b8 sv[%d];\n.const .align 32 .b8 cv[%d]",
        arch, OBJ, OBJ, OBJ);
    if (const_init) {
        put(t, " = {");
        for (unsigned i = 0; i < OBJ; i++)
            put(t, "%s%u", i ? ", " : "", pattern(i));
        put(t, "}");
    }
    put(t, ";\n");
}

/* Kernel `name` of row (fam, sp, f) into t; *line is the PTX line of the
 * instruction under test, *dump_line that of the load writing the object
 * out. Without io, the kernel lacks the loops filling the objects and
 * writing one out (what ptxas assembles: they are plain loads and stores,
 * and take it most of its time). */
static void build_kernel(text *t, const char *name, const family *fam, const space *sp, const form *f, bool io,
                         unsigned *line, unsigned *dump_line)
{
    unsigned tgt = target_of(f);
    put(t, ".visible .entry %s(.param .u64 out, .param .u64 in, .param .align 32 .b8 pv[%d])\n{\n"
           ".reg .pred %%p<8>;\n.reg .b16 %%h<8>;\n.reg .b32 %%r<48>;\n.reg .b64 %%rd<48>;\n"
           ".local .align 32 .b8 lv[%d];\n"
           "ld.param.u64 %%rd30, [out];\nld.param.u64 %%rd31, [in];\n"
           "cvta.to.global.u64 %%rd30, %%rd30;\ncvta.to.global.u64 %%rd31, %%rd31;\n",
        name, OBJ, OBJ);
    if (io)
        put(t, "mov.u64 %%rd32, gv;\nmov.u64 %%rd33, sv;\nmov.u64 %%rd34, lv;\nmov.u32 %%r30, 0;\n"
           "FILL:\ncvt.u64.u32 %%rd35, %%r30;\nadd.s64 %%rd36, %%rd31, %%rd35;\nld.global.u32 %%r31, [%%rd36];\n"
           "add.s64 %%rd36, %%rd32, %%rd35;\nst.global.u32 [%%rd36], %%r31;\n"
           "add.s64 %%rd36, %%rd33, %%rd35;\nst.shared.u32 [%%rd36], %%r31;\n"
           "add.s64 %%rd36, %%rd34, %%rd35;\nst.local.u32 [%%rd36], %%r31;\n"
           "add.u32 %%r30, %%r30, 4;\nsetp.lt.u32 %%p7, %%r30, %d;\n@%%p7 bra FILL;\nbar.sync 0;\n",
            OBJ);
    /* %rd29: the object; %rd40 and %rd43: the target in the row's space and
     * in .shared; %rd44 and %rd45: byte MBAR in .shared and in the row's
     * space */
    put(t, "%s\nmov.u64 %%rd29, %%rd1;\nadd.s64 %%rd40, %%rd1, %u;\nmov.u64 %%rd43, sv;\nadd.s64 %%rd43, %%rd43, %u;\n"
           "mov.u64 %%rd44, sv;\nadd.s64 %%rd44, %%rd44, %d;\nadd.s64 %%rd45, %%rd1, %d;\n",
        sp->base, tgt, tgt, MBAR, MBAR);
    if (fam->per_lane)
        put(t, "mov.u32 %%r20, %%tid.x;\nmul.wide.u32 %%rd20, %%r20, 16;\nadd.s64 %%rd1, %%rd1, %%rd20;\n");
    /* the register holds the target minus the written offset, mod 2^64, and
     * its low bits in the narrow registers */
    put(t, "add.s64 %%rd1, %%rd1, %" PRId64 ";\ncvt.u32.u64 %%r1, %%rd1;\ncvt.u16.u64 %%h1, %%rd1;\n",
        (int64_t)((uint64_t)tgt - f->imm));
    *line = next_line(t);
    for (const char *c = fam->code; c < strstr(fam->code, "@A@"); c++)
        *line += *c == '\n';
    put_subst(t, fam->code, sp->suffix, f->text, sp->var);
    if (!io) {
        put(t, "\nret;\n}\n");
        return;
    }
    put(t, "\nbar.sync 0;\nmov.u32 %%r32, %%tid.x;\nsetp.ne.u32 %%p7, %%r32, 0;\n@%%p7 bra DONE;\n"
           "mov.u32 %%r30, 0;\nDUMP:\ncvt.u64.u32 %%rd35, %%r30;\nadd.s64 %%rd36, %%rd29, %%rd35;\n");
    *dump_line = next_line(t);
    put(t, "ld%s.u32 %%r31, [%%rd36];\nadd.s64 %%rd37, %%rd30, %%rd35;\nst.global.u32 [%%rd37], %%r31;\n"
           "add.u32 %%r30, %%r30, 4;\nsetp.lt.u32 %%p7, %%r30, %d;\n@%%p7 bra DUMP;\nDONE:\nret;\n}\n",
        sp->suffix, OBJ);
}

/* ---- the trace ------------------------------------------------------------ */

/* Lane 0's address at the instruction under test, and the addresses the
 * object's dump reports for its words (the load of the DUMP loop). */
typedef struct trace_log {
    const ptx_function *f;
    unsigned line, dump_line;
    bool seen;
    uint64_t addr;
    uint64_t dump[OBJ / 4];
    unsigned ndump;
} trace_log;

static void on_access(void *ctx, const sim_access *a)
{
    trace_log *log = ctx;
    unsigned line = log->f->instrs[a->pc].line;
    if (a->n == 0 || a->thread[0] != 0)
        return;
    if (line == log->line && !log->seen) {
        log->seen = true;
        log->addr = a->addr[0];
    } else if (line == log->dump_line && log->ndump < OBJ / 4) {
        log->dump[log->ndump++] = a->addr[0];
    }
}

/* ---- running the table --------------------------------------------------- */

/* Whether ptxas should accept the row: every form but [reg-imm], except
 * that prefetchu takes only generic addresses, which a shared or local
 * variable's name is not, and that [var].unified needs a variable declared
 * .unified (which ptxas takes only with --compile-only). */
static bool ptxas_should_accept(const family *fam, unsigned spi, const form *f)
{
    if (f->not_ptxas)
        return false;
    if (strstr(fam->name, ".unified"))
        return f->width != 0;
    return !(strncmp(fam->name, "prefetchu", 9) == 0 && !f->width && spi != GEN_GLOBAL);
}

/* Assemble t with ptxas (for arch) through file tmp: accepted? */
static bool ptxas_accepts(const char *ptxas, const char *tmp, const char *arch, const text *t)
{
    FILE *out = fopen(tmp, "w");
    assert_non_null(out);
    fwrite(t->s, 1, t->n, out);
    fclose(out);
    return ptx_test_run_ptxas(ptxas, arch, tmp, false, true) == 0;
}

/* Compare what the row's kernel left with e. */
static void check(const char *row, const uint8_t *out, const expect *e)
{
    for (unsigned i = 0; i < OBJ; i++)
        if ((i < e->skip_lo || i >= e->skip_hi) && out[i] != e->obj[i])
            fail_msg("%s: object byte %u is 0x%02x, want 0x%02x", row, i, out[i], e->obj[i]);
    for (unsigned i = 0; i < e->nres; i++)
        if (out[RES + i] != e->res[i])
            fail_msg("%s: result byte %u is 0x%02x, want 0x%02x", row, i, out[RES + i], e->res[i]);
}

/* A row of the table. */
typedef struct row {
    const family *fam;
    unsigned space;
    const form *f;
    char name[160];
} row;

/* Emulate row r and check what it leaves (and what it reports to the
 * trace hook). */
static void emulate_row(const row *r)
{
    const family *fam = r->fam;
    text t = {0};
    unsigned line, dump_line;
    build_header(&t, fam->target, r->space == CONST);
    build_kernel(&t, "k", fam, &spaces[r->space], r->f, true, &line, &dump_line);
    emu e;
    emu_open_module(&e, ptx_test_parse(t.s));
    uint8_t in[OBJ], pv[OBJ], out[RES + RESMAX];
    for (unsigned i = 0; i < OBJ; i++)
        in[i] = pv[i] = pattern(i);
    uint64_t din = emu_buf(&e, in, sizeof in), dout = emu_buf(&e, NULL, sizeof out);
    const void *args[] = {&dout, &din, pv};
    trace_log log = {.f = ptx_test_kernel(e.m), .line = line, .dump_line = dump_line};
    sim_launch_config cfg = emu_cfg(1, 1, fam->threads, 1);
    if (fam->traced) {
        cfg.trace = on_access;
        cfg.trace_ctx = &log;
    }
    if (emu_try(&e, "k", cfg, args) != 0)
        fail_msg("%s: %s\n%s", r->name, e.err, t.s);
    emu_read(&e, out, dout, sizeof out);
    expect x = {.skip_lo = OBJ, .skip_hi = OBJ};
    for (unsigned i = 0; i < OBJ; i++)
        x.obj[i] = pattern(i);
    fam->expect(fam, r->f, target_of(r->f), &x);
    check(r->name, out, &x);
    if (fam->traced) {
        unsigned w = target_of(r->f) / 4;
        if (!log.seen || log.ndump != OBJ / 4)
            fail_msg("%s: the trace misses the access (%d) or the dump (%u words)", r->name, log.seen, log.ndump);
        if (log.addr != log.dump[w])
            fail_msg("%s: the trace reports 0x%" PRIx64 ", the plain access to the same byte 0x%" PRIx64, r->name,
                     log.addr, log.dump[w]);
    }
    emu_close(&e);
    free(t.s);
}

/* Assemble the family's rows: those ptxas should accept together (one
 * module, one kernel each; one by one to name the culprit when it fails),
 * the others one by one ([reg-imm], a syntax error whatever the space, in
 * the first space only). */
static void assemble_rows(const char *ptxas, const char *tmp, const family *fam, const row *rows, unsigned n)
{
    text batch = {0};
    unsigned line, dump_line;
    build_header(&batch, fam->target, true);
    for (unsigned i = 0; i < n; i++) {
        text one = {0};
        build_header(&one, fam->target, rows[i].space == CONST);
        build_kernel(&one, "k", fam, &spaces[rows[i].space], rows[i].f, false, &line, &dump_line);
        if (!ptxas_should_accept(fam, rows[i].space, rows[i].f)) {
            if ((!rows[i].f->not_ptxas || rows[i].space == rows[0].space) &&
                ptxas_accepts(ptxas, tmp, fam->target, &one))
                fail_msg("%s: ptxas accepts it:\n%s", rows[i].name, one.s);
        } else {
            char name[32];
            snprintf(name, sizeof name, "k%u", i);
            build_kernel(&batch, name, fam, &spaces[rows[i].space], rows[i].f, false, &line, &dump_line);
        }
        free(one.s);
    }
    if (!ptxas_accepts(ptxas, tmp, fam->target, &batch))
        for (unsigned i = 0; i < n; i++) {
            text one = {0};
            build_header(&one, fam->target, rows[i].space == CONST);
            build_kernel(&one, "k", fam, &spaces[rows[i].space], rows[i].f, false, &line, &dump_line);
            if (ptxas_should_accept(fam, rows[i].space, rows[i].f) && !ptxas_accepts(ptxas, tmp, fam->target, &one)) {
                ptx_test_run_ptxas(ptxas, fam->target, tmp, false, false); /* its message */
                fail_msg("%s: ptxas rejects it:\n%s", rows[i].name, one.s);
            }
            free(one.s);
        }
    free(batch.s);
}

/* The rows of family fam: every space it takes, with every form that
 * fits (the narrow registers only where the addresses fit them, the
 * variable forms where the space's base is a variable's address, and not
 * for stmatrix, whose lanes would all store to that one address). */
static unsigned family_rows(const family *fam, row *rows)
{
    bool var_forms = strncmp(fam->name, "stmatrix", 8) != 0;
    unsigned n = 0;
    for (unsigned s = 0; s < NSPACES; s++) {
        if (!(fam->spaces & SP(s)))
            continue;
        unsigned need = spaces[s].min_width > fam->min_width ? spaces[s].min_width : fam->min_width;
        for (size_t k = 0; k < NFORMS; k++) {
            const form *f = &forms[k];
            if (f->width ? f->width < need : !spaces[s].var_forms || !var_forms)
                continue;
            rows[n] = (row){fam, s, f, ""};
            snprintf(rows[n].name, sizeof rows[n].name, "%s, %s, %s", fam->name, spaces[s].name, f->name);
            n++;
        }
    }
    return n;
}

/* Every row of the table, in the emulator and (if present) ptxas. */
static void test_address_forms(void **state)
{
    (void)state;
    char *ptxas = ptx_test_find_ptxas(), tmp[] = "/tmp/simtlab-addr-XXXXXX.ptx";
    if (ptxas) {
        int fd = mkstemps(tmp, 4);
        assert_true(fd >= 0);
        close(fd);
    } else {
        fprintf(stderr, "ptxas not found on PATH: the rows are not assembled\n");
    }
    static row rows[NSPACES * NFORMS];
    unsigned total = 0;
    for (size_t fi = 0; fi < NFAMILIES; fi++) {
        unsigned n = family_rows(&families[fi], rows);
        for (unsigned i = 0; i < n; i++)
            emulate_row(&rows[i]);
        if (ptxas)
            assemble_rows(ptxas, tmp, &families[fi], rows, n);
        total += n;
    }
    fprintf(stderr, "%u rows (instruction, state space, address form)%s\n", total,
            ptxas ? ", assembled by ptxas" : "");
    if (ptxas)
        unlink(tmp);
    free(ptxas);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_address_forms),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
