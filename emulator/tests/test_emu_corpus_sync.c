/* test_emu_corpus_sync.c — the corpus's atomics, cooperative groups and
 * templates on the emulator, against CPU references written here:
 *   atomics.cu: atomic_add_all, atomic_misc and atomic_scopes through a
 *     model of each atomic (one address each): with 1 and 2 threads every
 *     final value and every returned old value must come from some
 *     serialization per address (all are tried); with 32 and 256 threads
 *     the order-independent finals must match exactly (float sums exact
 *     in any order), exchanges end on a written value, CAS chains end
 *     where one can, and atomic_add_all's partial sums lie in their range;
 *     atomic_cas_loops (float multiply by powers of two, double max),
 *     histogram_shared (shared and global atomics), atomic_ref_orders
 *     (release/acquire flag, fetch_add and CAS on 4 cells, counter);
 *   coop_groups.cu: cg_block_tiles, cg_reduce_scan,
 *     cg_dynamic_and_coalesced; cg_grid_sync under a cooperative launch
 *     (every block reads what another wrote before grid.sync()), and
 *     without one, where its grid workspace (%envreg1/2) is null and it
 *     traps as on a GPU;
 *   templates.cu: axpy<int,float,double,long long,__half>, block_sum,
 *     transform<Square/Clamp>, precision_switch<true/false>.
 * Each runs as compiled for sm_75, sm_80, sm_90 (-O3) and sm_80 (-G); the
 * warp-free kernels also with independent thread scheduling at -O3. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "emulator/tests/emu_test.h"
#include "emulator/tests/corpus_test.h"

/* ---- an atomic per address ------------------------------------------------ */

enum { A_ADD, A_FADD32, A_FADD64, A_EXCH, A_MINS, A_MAXS, A_MINU, A_MAXU, A_INC, A_DEC, A_CAS, A_AND, A_OR, A_XOR };
/* how an old value enters the kernel's ret[]: unused, low 32 bits, (int)float, (int)double */
enum { R_NONE, R_INT, R_F32, R_F64 };
enum { MAXOPS = 24, MAXT = 256 };

typedef struct aop {
    const char *name;
    int kind, bits, ret;
    void *cell;    /* the host copy of its word: the initial value, then the final one */
    uint64_t init;
    uint64_t v[MAXT], c[MAXT]; /* thread t's operand (and CAS compare value) */
} aop;

static uint64_t fbits(float f) { uint32_t u; memcpy(&u, &f, 4); return u; }
static uint64_t dbits(double d) { uint64_t u; memcpy(&u, &d, 8); return u; }
static float bfloat(uint64_t u) { uint32_t w = (uint32_t)u; float f; memcpy(&f, &w, 4); return f; }
static double bdouble(uint64_t u) { double d; memcpy(&d, &u, 8); return d; }

/* cvt.rzi.s32.f64: truncation, saturating, NaN to 0. */
static int32_t cvt_s32(double x)
{
    if (isnan(x))
        return 0;
    double t = trunc(x);
    return t > 2147483647.0 ? INT32_MAX : t < -2147483648.0 ? INT32_MIN : (int32_t)t;
}

/* The word in an op's host cell. */
static uint64_t cell_get(const aop *o)
{
    uint32_t w;
    uint64_t d;
    if (o->bits == 32)
        return memcpy(&w, o->cell, 4), w;
    return memcpy(&d, o->cell, 8), d;
}

/* Append an op on cell with initial value init (stored into the cell). */
static aop *new_op(aop *ops, int *n, const char *name, int kind, int bits, int ret, void *cell, uint64_t init)
{
    aop *o = &ops[(*n)++];
    *o = (aop){.name = name, .kind = kind, .bits = bits, .ret = ret, .cell = cell,
               .init = bits == 32 ? (uint32_t)init : init};
    memcpy(cell, &o->init, bits / 8); /* little endian */
    return o;
}
#define OP(name, kind, bits, ret, cell, init, vexpr, cexpr)                                       \
    do {                                                                                          \
        aop *o_ = new_op(ops, &nops, name, kind, bits, ret, cell, init);                          \
        for (int t = 0; t < T; t++) {                                                             \
            o_->v[t] = (uint64_t)(vexpr) & (bits == 32 ? 0xffffffffull : ~0ull);                  \
            o_->c[t] = (uint64_t)(cexpr) & (bits == 32 ? 0xffffffffull : ~0ull);                  \
        }                                                                                         \
    } while (0)

/* The new value after thread t's atomic on old (PTX ISA atom semantics). */
static uint64_t aop_apply(const aop *o, uint64_t old, int t)
{
    uint64_t v = o->v[t], m = o->bits == 32 ? 0xffffffffull : ~0ull;
    int64_t so = o->bits == 32 ? (int32_t)old : (int64_t)old, sv = o->bits == 32 ? (int32_t)v : (int64_t)v;
    switch (o->kind) {
    case A_ADD: return (old + v) & m;
    case A_FADD32: return fbits(bfloat(old) + bfloat(v));
    case A_FADD64: return dbits(bdouble(old) + bdouble(v));
    case A_EXCH: return v;
    case A_MINS: return so < sv ? old : v;
    case A_MAXS: return so > sv ? old : v;
    case A_MINU: return old < v ? old : v;
    case A_MAXU: return old > v ? old : v;
    case A_INC: return old >= v ? 0 : old + 1;
    case A_DEC: return old == 0 || old > v ? v : old - 1;
    case A_CAS: return old == o->c[t] ? v : old;
    case A_AND: return old & v;
    case A_OR: return old | v;
    default: return old ^ v;
    }
}

/* What old value `old` adds to ret[]. */
static uint32_t aop_contrib(const aop *o, uint64_t old)
{
    switch (o->ret) {
    case R_INT: return (uint32_t)old;
    case R_F32: return (uint32_t)cvt_s32(bfloat(old));
    case R_F64: return (uint32_t)cvt_s32(bdouble(old));
    default: return 0;
    }
}

/* T (1 or 2) threads: some serialization per address must give every
 * final value read back into the cells and ret[0..T-1]. Tries them all. */
static void check_serial(const aop *ops, int nops, int T, const int32_t *ret, const char *where)
{
    uint32_t base[2] = {0, 0}, amb[MAXOPS][2][2];
    int namb = 0;
    for (int j = 0; j < nops; j++) {
        const aop *o = &ops[j];
        uint64_t got = cell_get(o), fin[2] = {0, 0};
        uint32_t con[2][2] = {{0, 0}, {0, 0}};
        bool ok[2] = {false, false};
        for (int ord = 0; ord < T; ord++) { /* ord 0: thread 0 first */
            uint64_t x = o->init, old[2] = {0, 0};
            for (int k = 0; k < T; k++) {
                int t = ord ? 1 - k : k;
                old[t] = x;
                x = aop_apply(o, x, t);
            }
            fin[ord] = x;
            ok[ord] = x == got;
            con[ord][0] = aop_contrib(o, old[0]);
            con[ord][1] = T == 2 ? aop_contrib(o, old[1]) : 0;
        }
        if (!ok[0] && !ok[1])
            fail_msg("%s: %s final %#llx, want %#llx%s%#llx (init %#llx)", where, o->name,
                     (unsigned long long)got, (unsigned long long)fin[0], T == 2 ? " or " : "",
                     T == 2 ? (unsigned long long)fin[1] : 0ull, (unsigned long long)o->init);
        int pick = ok[0] ? 0 : 1;
        base[0] += con[pick][0];
        base[1] += con[pick][1];
        if (ok[0] && ok[1] && (con[0][0] != con[1][0] || con[0][1] != con[1][1])) {
            for (int k = 0; k < 2; k++) /* the change when this op flips to order 1 */
                amb[namb][0][k] = con[1][k] - con[0][k], amb[namb][1][k] = con[0][k] - con[1][k];
            namb++;
        }
    }
    uint32_t s[2] = {base[0], base[1]}, state = 0;
    for (uint32_t i = 1;; i++) { /* Gray code over the ambiguous orders */
        if (s[0] == (uint32_t)ret[0] && (T < 2 || s[1] == (uint32_t)ret[1]))
            return;
        if (i >> namb)
            break;
        int k = __builtin_ctz(i);
        int back = (state >> k) & 1;
        s[0] += amb[k][back][0];
        s[1] += amb[k][back][1];
        state ^= 1u << k;
    }
    fail_msg("%s: ret = %d %d, no serialization gives that (thread order: %d %d)", where, ret[0],
             T == 2 ? ret[1] : 0, (int32_t)base[0], (int32_t)base[1]);
}

/* Many threads: order-independent finals (the fold in thread order; float
 * sums are exact by the inputs) must match; an exchange ends on one of the
 * written values; CAS is left to the caller. */
static void check_folds(const aop *ops, int nops, int T, const char *where)
{
    for (int j = 0; j < nops; j++) {
        const aop *o = &ops[j];
        uint64_t got = cell_get(o), x = o->init;
        if (o->kind == A_CAS)
            continue;
        if (o->kind == A_EXCH) {
            bool found = false;
            for (int t = 0; t < T; t++)
                found |= got == o->v[t];
            if (!found)
                fail_msg("%s: %s final %#llx was never written", where, o->name, (unsigned long long)got);
            continue;
        }
        for (int t = 0; t < T; t++)
            x = aop_apply(o, x, t);
        if (got != x)
            fail_msg("%s: %s final %#llx, want %#llx", where, o->name, (unsigned long long)got,
                     (unsigned long long)x);
    }
}

/* Initial values: edge cases or random ones. */
static uint64_t pick32(uint64_t *s)
{
    static const uint32_t edge[] = {0, 1, 2, 16, 17, 18, 255, 256, 0x7fffffff, 0x80000000, 0xfffffffe, 0xffffffff};
    uint64_t r = emu_rand(s);
    return r % 3 ? edge[(r >> 8) % 12] : (uint32_t)(r >> 16);
}
static uint64_t pick64(uint64_t *s)
{
    static const uint64_t edge[] = {0, 1, 2, 0xffffffff, 0x100000000ull, 0x7fffffffffffffffull,
                                    0x8000000000000000ull, ~0ull, 0xfffffffeffffffffull};
    uint64_t r = emu_rand(s);
    return r % 3 ? edge[(r >> 8) % 9] : emu_rand(s);
}
static float pickf(uint64_t *s) /* normal or zero: atom.add.f32 flushes subnormals */
{
    static const float edge[] = {0.0f, -0.0f, 1.5f, 16777216.0f, -16777216.0f, 3e9f, -3e9f, 1e30f, 0.1f, 2.5e9f};
    uint64_t r = emu_rand(s);
    return r % 3 ? edge[(r >> 8) % 10] : (float)((int)(r >> 20) % 20001 - 10000) * 0.25f;
}
static double pickd(uint64_t *s)
{
    static const double edge[] = {0.0, -0.0, 9007199254740992.0, -9007199254740992.0, 0.1, 3e9, -3e9, 1e300};
    uint64_t r = emu_rand(s);
    return r % 3 ? edge[(r >> 8) % 8] : (double)((int)(r >> 20) % 20001 - 10000) * 0.125;
}

/* ---- atomics.cu ------------------------------------------------------------ */

/* The atomics of atomic_add_all (small = float inits exact for many threads). */
static int ops_add_all(aop *ops, int T, uint64_t *s, bool small, int32_t *i32, uint32_t *u32, uint64_t *u64,
                       float *f32, double *f64)
{
    int nops = 0;
    float fi0 = small ? (float)((int)(emu_rand(s) % 2001) - 1000) * 0.5f : pickf(s);
    float fi1 = small ? (float)((int)(emu_rand(s) % 2001) - 1000) : pickf(s);
    double di0 = small ? (double)((int)(emu_rand(s) % 2001) - 1000) * 0.25 : pickd(s);
    double di1 = small ? (double)((int)(emu_rand(s) % 2001) - 1000) : pickd(s);
    OP("i32 add t", A_ADD, 32, R_INT, &i32[0], pick32(s), t, 0);
    OP("u32 add 1", A_ADD, 32, R_NONE, &u32[0], pick32(s), 1, 0);
    OP("u64 add t<<33", A_ADD, 64, R_NONE, &u64[0], pick64(s), (uint64_t)t << 33, 0);
    OP("f32 add t/2", A_FADD32, 32, R_NONE, &f32[0], fbits(fi0), fbits(0.5f * (float)t), 0);
    OP("f64 add t/4", A_FADD64, 64, R_NONE, &f64[0], dbits(di0), dbits(0.25 * t), 0);
    OP("u32+1 add 2", A_ADD, 32, R_INT, &u32[1], pick32(s), 2, 0);
    OP("f32+1 add 1", A_FADD32, 32, R_F32, &f32[1], fbits(fi1), fbits(1.0f), 0);
    OP("f64+1 add 1", A_FADD64, 64, R_F64, &f64[1], dbits(di1), dbits(1.0), 0);
    OP("u64+1 add 3", A_ADD, 64, R_INT, &u64[1], pick64(s), 3, 0);
    return nops;
}

/* The atomics of atomic_misc. */
static int ops_misc(aop *ops, int T, uint64_t *s, int32_t *i32, uint32_t *u32, uint64_t *u64, int64_t *s64,
                    float *f32)
{
    int nops = 0;
    static const uint32_t fedge[] = {0x7fc00000, 0xff800000, 0x4f800000, 0xcf000000, 0x80000000, 0x3fc00000};
    uint64_t r = emu_rand(s);
    OP("i32 sub t", A_ADD, 32, R_INT, &i32[0], pick32(s), -(uint32_t)t, 0);
    OP("u32 sub 3", A_ADD, 32, R_NONE, &u32[0], pick32(s), -3u, 0);
    OP("i32+1 exch t", A_EXCH, 32, R_INT, &i32[1], pick32(s), t, 0);
    OP("u64 exch t", A_EXCH, 64, R_INT, &u64[0], pick64(s), t, 0);
    OP("f32 exch t", A_EXCH, 32, R_F32, &f32[0], r % 2 ? fedge[(r >> 8) % 6] : fbits(pickf(s)), fbits((float)t), 0);
    OP("i32+2 min -t", A_MINS, 32, R_INT, &i32[2], pick32(s), -(uint32_t)t, 0);
    OP("i32+3 max t", A_MAXS, 32, R_INT, &i32[3], pick32(s), t, 0);
    OP("u32+1 min t", A_MINU, 32, R_INT, &u32[1], pick32(s), t, 0);
    OP("u32+2 max t", A_MAXU, 32, R_INT, &u32[2], pick32(s), t, 0);
    OP("u64+1 min t", A_MINU, 64, R_INT, &u64[1], pick64(s), t, 0);
    OP("u64+2 max t", A_MAXU, 64, R_INT, &u64[2], pick64(s), t, 0);
    OP("s64 min -t", A_MINS, 64, R_INT, &s64[0], pick64(s), -(uint64_t)t, 0);
    OP("s64+1 max t", A_MAXS, 64, R_INT, &s64[1], pick64(s), t, 0);
    OP("u32+3 inc 17", A_INC, 32, R_INT, &u32[3], pick32(s), 17, 0);
    OP("u32+4 dec 17", A_DEC, 32, R_INT, &u32[4], pick32(s), 17, 0);
    OP("i32+4 cas t->t+1", A_CAS, 32, R_INT, &i32[4], emu_rand(s) % 4, t + 1, t);
    OP("u64+3 cas t->~0", A_CAS, 64, R_INT, &u64[3], emu_rand(s) % 3, ~0ull, t);
    OP("i32+5 and", A_AND, 32, R_INT, &i32[5], pick32(s), ~(1u << (t & 31)), 0);
    OP("i32+6 or", A_OR, 32, R_INT, &i32[6], pick32(s), 1u << (t & 31), 0);
    OP("i32+7 xor t", A_XOR, 32, R_INT, &i32[7], pick32(s), t, 0);
    OP("u64+4 and", A_AND, 64, R_INT, &u64[4], pick64(s), ~(1ull << (t & 63)), 0);
    OP("u64+5 or", A_OR, 64, R_INT, &u64[5], pick64(s), 1ull << (t & 63), 0);
    OP("u64+6 xor t", A_XOR, 64, R_INT, &u64[6], pick64(s), t, 0);
    return nops;
}

/* The atomics of atomic_scopes. */
static int ops_scopes(aop *ops, int T, uint64_t *s, bool small, int32_t *i32, uint64_t *u64, float *f32,
                      double *f64)
{
    int nops = 0;
    OP("i32 add_block 1", A_ADD, 32, R_INT, &i32[0], pick32(s), 1, 0);
    OP("i32+1 add_system 1", A_ADD, 32, R_INT, &i32[1], pick32(s), 1, 0);
    OP("f32 add_block 1", A_FADD32, 32, R_NONE, f32, fbits(small ? (float)(emu_rand(s) % 1000) : pickf(s)), fbits(1.0f), 0);
    OP("f64 add_system 2", A_FADD64, 64, R_NONE, f64, dbits(small ? (double)(emu_rand(s) % 1000) : pickd(s)), dbits(2.0), 0);
    OP("i32+2 exch_block", A_EXCH, 32, R_INT, &i32[2], pick32(s), t, 0);
    OP("i32+3 exch_system", A_EXCH, 32, R_INT, &i32[3], pick32(s), t, 0);
    OP("i32+4 cas_block 0->t", A_CAS, 32, R_INT, &i32[4], emu_rand(s) % 3 ? 0 : pick32(s), t, 0);
    OP("u64 cas_system 0->t", A_CAS, 64, R_INT, u64, emu_rand(s) % 3 ? 0 : pick64(s), t, 0);
    OP("i32+5 min_block", A_MINS, 32, R_INT, &i32[5], pick32(s), t, 0);
    OP("i32+6 max_system", A_MAXS, 32, R_INT, &i32[6], pick32(s), t, 0);
    OP("i32+7 inc_block 9", A_INC, 32, R_INT, &i32[7], pick32(s) % 12, 9, 0);
    OP("i32+8 dec_system 9", A_DEC, 32, R_INT, &i32[8], pick32(s), 9, 0);
    OP("i32+9 and_block", A_AND, 32, R_INT, &i32[9], pick32(s), t, 0);
    OP("i32+10 or_system", A_OR, 32, R_INT, &i32[10], pick32(s), t, 0);
    OP("i32+11 xor_block", A_XOR, 32, R_INT, &i32[11], pick32(s), t, 0);
    OP("i32+12 sub_system", A_ADD, 32, R_INT, &i32[12], pick32(s), -(uint32_t)t, 0);
    return nops;
}

/* A device copy of a host array and, after the launch, the copy back. */
typedef struct hbuf { void *h; size_t n; uint64_t d; } hbuf;
static void bufs_in(emu *e, hbuf *b, int nb) { for (int i = 0; i < nb; i++) b[i].d = emu_buf(e, b[i].h, b[i].n); }
static void bufs_out(emu *e, hbuf *b, int nb) { for (int i = 0; i < nb; i++) emu_read(e, b[i].h, b[i].d, b[i].n); }

/* One launch of atomic_add_all, atomic_misc or atomic_scopes (kind 0..2)
 * with T threads, checked through the model. */
static void run_model(emu *e, int kind, int T, sim_launch_config cfg, uint64_t *s, const char *where)
{
    static const char *const names[] = {"_Z14atomic_add_allPiPjPyPfPdS_", "_Z11atomic_miscPiPjPyPxPfS_",
                                        "_Z13atomic_scopesPiPyPfPdS_"};
    aop *ops = calloc(MAXOPS, sizeof *ops);
    int32_t i32[16] = {0}, ret[MAXT] = {0};
    uint32_t u32[16] = {0};
    uint64_t u64[8] = {0};
    int64_t s64[2] = {0};
    float f32[2] = {0};
    double f64[2] = {0};
    int nops = kind == 0 ? ops_add_all(ops, T, s, T > 2, i32, u32, u64, f32, f64)
               : kind == 1 ? ops_misc(ops, T, s, i32, u32, u64, s64, f32)
                           : ops_scopes(ops, T, s, T > 2, i32, u64, f32, f64);
    hbuf b[7] = {{i32, sizeof i32, 0}, {u32, sizeof u32, 0}, {u64, sizeof u64, 0}, {s64, sizeof s64, 0},
                 {f32, sizeof f32, 0}, {f64, sizeof f64, 0}, {ret, sizeof ret, 0}};
    bufs_in(e, b, 7);
    const void *a0[] = {&b[0].d, &b[1].d, &b[2].d, &b[4].d, &b[5].d, &b[6].d};
    const void *a1[] = {&b[0].d, &b[1].d, &b[2].d, &b[3].d, &b[4].d, &b[6].d};
    const void *a2[] = {&b[0].d, &b[2].d, &b[4].d, &b[5].d, &b[6].d};
    cfg.block.x = (uint32_t)T;
    emu_run(e, names[kind], cfg, kind == 0 ? a0 : kind == 1 ? a1 : a2);
    bufs_out(e, b, 7);
    char w[160];
    snprintf(w, sizeof w, "%s %s T=%d", where, names[kind], T);
    if (T <= 2) {
        check_serial(ops, nops, T, ret, w);
    } else {
        check_folds(ops, nops, T, w);
        for (int j = 0; j < nops; j++) { /* where the CAS chains can end */
            const aop *o = &ops[j];
            uint64_t got = cell_get(o), init = o->init;
            bool ok = true;
            if (o->kind == A_CAS && kind == 1 && o->bits == 32) /* t -> t+1 from init */
                ok = init < (uint64_t)T ? got > init && got <= (uint64_t)T : got == init;
            else if (o->kind == A_CAS && kind == 1) /* t -> ~0: thread init always succeeds */
                ok = got == (init < (uint64_t)T ? ~0ull : init);
            else if (o->kind == A_CAS) /* 0 -> t: the first thread other than 0 wins */
                ok = init == 0 ? got >= 1 && got < (uint64_t)T : got == init;
            if (!ok)
                fail_msg("%s: %s final %#llx unreachable from %#llx", w, o->name, (unsigned long long)got,
                         (unsigned long long)init);
        }
        if (kind == 0) { /* sum of ret: the fixed-step olds are known, the partial sums of t bounded */
            uint32_t sum = 0, known = 0;
            for (int t = 0; t < T; t++)
                sum += (uint32_t)ret[t];
            for (int j = 1; j < nops; j++) {
                uint64_t x = ops[j].init;
                for (int t = 0; t < T; t++)
                    known += aop_contrib(&ops[j], x), x = aop_apply(&ops[j], x, t);
            }
            uint32_t part = sum - known - (uint32_t)T * (uint32_t)ops[0].init;
            uint64_t lo = 0, hi = 0;
            for (uint64_t p = 0; p < (uint64_t)T; p++)
                lo += p * (T - 1 - p), hi += p * p;
            if (part < lo || part > hi)
                fail_msg("%s: the old values of i32 add sum to init*T + %u, not in [%llu, %llu]", w, part,
                         (unsigned long long)lo, (unsigned long long)hi);
        }
    }
    free(ops);
}

/* atomic_cas_loops: float product by powers of two (exact in any order),
 * double maximum. */
static void run_cas_loops(emu *e, sim_launch_config cfg, uint64_t *s, double dinit, const char *where)
{
    enum { T = 128, G = 2 };
    float v[T], f = 1.5f;
    int ups = 0, downs = 0;
    double prod = 1.5, mx = dinit;
    for (int t = 0; t < T; t++) {
        uint64_t r = emu_rand(s);
        int ex = (int)(r % 3) - 1;
        ex = (ex > 0 && ups >= 60) || (ex < 0 && downs >= 60) ? 0 : ex;
        ups += ex > 0, downs += ex < 0;
        v[t] = ldexpf((r >> 8) % 2 ? -1.0f : 1.0f, ex);
        prod *= (double)v[t] * v[t]; /* each block once */
        mx = (double)v[t] > mx ? v[t] : mx;
    }
    uint64_t df = emu_buf(e, &f, 4), dd = emu_buf(e, &dinit, 8), dv = emu_buf(e, v, sizeof v);
    const void *args[] = {&df, &dd, &dv};
    cfg.grid.x = G, cfg.block.x = T;
    emu_run(e, "_Z16atomic_cas_loopsPfPdPKf", cfg, args);
    double dgot;
    emu_read(e, &f, df, 4);
    emu_read(e, &dgot, dd, 8);
    if (f != (float)prod || dbits(dgot) != dbits(mx))
        fail_msg("%s atomic_cas_loops: product %a max %a, want %a %a", where, (double)f, dgot, prod, mx);
}

/* histogram_shared over n random bytes on a grid of G blocks of B. */
static void run_histogram(emu *e, sim_launch_config cfg, uint64_t *s, uint64_t maxinit, const char *where)
{
    enum { N = 5000, G = 3, B = 96 };
    static uint8_t data[N];
    uint32_t hist[258], want[258];
    for (int i = 0; i < N; i++) {
        uint64_t r = emu_rand(s);
        data[i] = r % 4 == 0 ? 0 : r % 4 == 1 ? 255 : (uint8_t)(r >> 8);
    }
    for (int b = 0; b < 256; b++)
        hist[b] = want[b] = (uint32_t)(emu_rand(s) % 50);
    memcpy(&hist[256], &maxinit, 8);
    uint64_t total[G] = {0}, mx = maxinit;
    for (int i = 0; i < N; i++) {
        want[data[i]]++;
        total[(i / B) % G] += data[i];
    }
    for (int g = 0; g < G; g++)
        mx = total[g] > mx ? total[g] : mx;
    uint64_t dd = emu_buf(e, data, N), dh = emu_buf(e, hist, sizeof hist);
    int n = N;
    const void *args[] = {&dd, &dh, &n};
    cfg.grid.x = G, cfg.block.x = B;
    emu_run(e, "_Z16histogram_sharedPKhPji", cfg, args);
    emu_read(e, hist, dh, sizeof hist);
    for (int b = 0; b < 256; b++)
        if (hist[b] != want[b])
            fail_msg("%s histogram_shared: hist[%d] = %u, want %u", where, b, hist[b], want[b]);
    uint64_t got;
    memcpy(&got, &hist[256], 8);
    if (got != mx)
        fail_msg("%s histogram_shared: max total %llu, want %llu", where, (unsigned long long)got,
                 (unsigned long long)mx);
}

/* atomic_ref_orders on G blocks of B threads with the flag initially
 * `flag0`. Each cell data[j] gets +1 per thread (fetch_add(seen) then, if
 * nothing came between, the CAS), every thread's counter load sees at
 * least its own increment, and one sees all. */
static void run_ref_orders(emu *e, sim_launch_config cfg, uint64_t *s, int G, int B, int flag0, const char *where)
{
    int flag = flag0, data[101], out[192];
    int32_t init[4];
    uint64_t ctr = emu_rand(s) & ~0xffffffffull; /* low word counts from 0 */
    for (int j = 0; j < 101; j++)
        data[j] = j < 4 ? (init[j] = (int32_t)(emu_rand(s) % 100000)) : -1;
    uint64_t dfl = emu_buf(e, &flag, 4), dda = emu_buf(e, data, sizeof data), dc = emu_buf(e, &ctr, 8),
             dout = emu_buf(e, NULL, sizeof out);
    const void *args[] = {&dfl, &dda, &dc, &dout};
    cfg.grid.x = (uint32_t)G, cfg.block.x = (uint32_t)B;
    emu_run(e, "_Z17atomic_ref_ordersPiS_PyS_", cfg, args);
    emu_read(e, &flag, dfl, 4);
    emu_read(e, data, dda, sizeof data);
    emu_read(e, &ctr, dc, 8);
    emu_read(e, out, dout, sizeof out);
    int N = G * B, most = 0;
    bool bad = flag != 1 || data[100] != 42 || (uint32_t)ctr != (uint32_t)N;
    for (int j = 0; j < 4; j++)
        bad |= data[j] != init[j] + G * ((B - j + 3) / 4);
    for (int i = 0; i < N && !bad; i++) {
        /* out - 2 * init_j - counter base = (prev - init) + (expected - init) + count seen */
        int j = i % B % 4, n_j = G * ((B - j + 3) / 4), x = out[i] - 2 * init[j];
        int lo = N == 1 || flag0 ? 2 : 1 + (i == 0);
        bad |= x < lo || x > 2 * n_j - 1 + N;
        most = x > most ? x : most;
    }
    if (bad || most < N + (flag0 ? 1 : 0))
        fail_msg("%s atomic_ref_orders %dx%d flag %d: flag %d data[100] %d counter %u cells %d %d %d %d "
                 "(init %d %d %d %d) out[0] %d", where, G, B, flag0, flag, data[100], (uint32_t)ctr, data[0],
                 data[1], data[2], data[3], init[0], init[1], init[2], init[3], out[0]);
}

static void test_atomics(void **state)
{
    (void)state;
    uint64_t seed = 77;
    for (size_t a = 0; a < CORPUS_NARCHS; a++)
        for (int its = 0; its < 2; its++) {
            if (its && strstr(corpus_arch(a), ".G"))
                continue; /* independent scheduling at -O3 only */
            emu e;
            corpus_open(&e, "atomics", a);
            char where[64];
            snprintf(where, sizeof where, "%s its=%d", corpus_arch(a), its);
            sim_launch_config cfg = emu_cfg(1, 1, 1, 1);
            cfg.independent_scheduling = its;
            for (int kind = 0; kind < 3; kind++) {
                for (int k = 0; k < 6; k++)
                    run_model(&e, kind, 1, cfg, &seed, where);
                for (int k = 0; k < 16; k++)
                    run_model(&e, kind, 2, cfg, &seed, where);
                run_model(&e, kind, 32, cfg, &seed, where);
                run_model(&e, kind, MAXT, cfg, &seed, where);
            }
            run_cas_loops(&e, cfg, &seed, -1e300, where);
            run_cas_loops(&e, cfg, &seed, 2.5, where);
            run_cas_loops(&e, cfg, &seed, -0.0, where);
            run_histogram(&e, cfg, &seed, 1000, where);
            run_histogram(&e, cfg, &seed, 0xffffffff00000000ull, where);
            run_ref_orders(&e, cfg, &seed, 1, 1, 0, where);
            run_ref_orders(&e, cfg, &seed, 1, 4, 0, where);
            run_ref_orders(&e, cfg, &seed, 3, 64, 1, where);
            emu_close(&e);
        }
}

/* ---- coop_groups.cu ---------------------------------------------------------- */

static uint32_t popc32(uint32_t x) { uint32_t n = 0; for (; x; x &= x - 1) n++; return n; }

/* cg_block_tiles for thread rank t of a block (bx, by) whose in[] is v. */
static uint32_t block_tiles_ref(const int *v, int t, int bx, int by)
{
    int l = t & 31, w0 = t - l, o0 = t & ~7, q0 = t & ~3;
    uint32_t r = (uint32_t)v[w0] + (uint32_t)v[l < 31 ? t + 1 : t] + (uint32_t)v[w0 + (l ^ 2)];
    r += (uint32_t)v[t > o0 ? t - 1 : t] + (uint32_t)(l & 7) + (uint32_t)(l >> 3);
    bool any = false, all = true;
    uint32_t ballot = 0;
    for (int k = 0; k < 4; k++)
        any |= v[q0 + k] > 0, all &= v[q0 + k] > 0;
    for (int k = 0; k < 32; k++)
        ballot |= (uint32_t)(v[w0 + k] & 1) << k;
    r += (uint32_t)any + (uint32_t)all + ballot;
    return r + (uint32_t)(bx * by) + (uint32_t)(t / bx); /* size, group_index().x = 0, thread_index().y */
}

/* cg_dynamic_and_coalesced for thread t (warps of 32 consecutive ranks). */
static uint32_t dyn_coalesced_ref(const int *v, int t)
{
    int l = t & 31, w0 = t - l;
    uint32_t r = (uint32_t)(t % 16) + 16, odd = 0, same = 0;
    for (int k = 0; k < 32; k++) {
        odd |= (uint32_t)(v[w0 + k] & 1) << k;
        same += (v[w0 + k] & 3) == (v[t] & 3);
    }
    if (v[t] & 1) /* the active threads: the odd ones of the warp */
        r += popc32(odd & ((1u << l) - 1)) * 100 + popc32(odd) + (uint32_t)v[w0 + __builtin_ctz(odd)];
    return r + same;
}

static void test_coop_groups(void **state)
{
    (void)state;
    enum { T = 128 };
    int in[T], out[T], sum[T / 32], mx[T / 16], scan[T];
    unsigned x[T / 32];
    uint64_t seed = 5;
    for (int t = 0; t < T; t++) {
        uint64_t r = emu_rand(&seed);
        in[t] = t < 32 ? 2 * t + 1 : t < 48 ? -2 * t : (int)(r % 200001) - 100000; /* warp 0 all odd */
    }
    in[70] = 100000, in[71] = -100000;
    for (size_t a = 0; a < CORPUS_NARCHS; a++) {
        emu e;
        corpus_open(&e, "coop_groups", a);
        const char *arch = corpus_arch(a);
        uint64_t di = emu_buf(&e, in, sizeof in), d_o = emu_buf(&e, NULL, sizeof out);
        const void *args[] = {&di, &d_o};
        emu_run(&e, "_Z14cg_block_tilesPKiPi", emu_cfg(1, 1, 64, 2), args);
        emu_read(&e, out, d_o, sizeof out);
        for (int t = 0; t < T; t++)
            if ((uint32_t)out[t] != block_tiles_ref(in, t, 64, 2))
                fail_msg("%s cg_block_tiles: out[%d] = %d, want %d", arch, t, out[t], (int)block_tiles_ref(in, t, 64, 2));
        emu_run(&e, "_Z24cg_dynamic_and_coalescedPKiPi", emu_cfg(1, 1, T, 1), args);
        emu_read(&e, out, d_o, sizeof out);
        for (int t = 0; t < T; t++)
            if ((uint32_t)out[t] != dyn_coalesced_ref(in, t))
                fail_msg("%s cg_dynamic_and_coalesced: out[%d] = %d, want %d", arch, t, out[t],
                         (int)dyn_coalesced_ref(in, t));
        /* reductions (the float sum is exact: small integers) and the scan */
        uint64_t ds = emu_buf(&e, NULL, sizeof sum), dm = emu_buf(&e, NULL, sizeof mx),
                 dx = emu_buf(&e, NULL, sizeof x), dc = emu_buf(&e, NULL, sizeof scan);
        const void *rargs[] = {&di, &ds, &dm, &dx, &dc};
        emu_run(&e, "_Z14cg_reduce_scanPKiPiS1_PjS1_", emu_cfg(1, 1, T, 1), rargs);
        emu_read(&e, sum, ds, sizeof sum);
        emu_read(&e, mx, dm, sizeof mx);
        emu_read(&e, x, dx, sizeof x);
        emu_read(&e, scan, dc, sizeof scan);
        for (int w = 0; w < T / 32; w++) {
            uint32_t s = 0, xr = 0;
            for (int k = 0; k < 32; k++) {
                s += (uint32_t)in[32 * w + k], xr ^= (uint32_t)in[32 * w + k];
                if ((uint32_t)scan[32 * w + k] != s)
                    fail_msg("%s cg_reduce_scan: scan[%d] = %d, want %d", arch, 32 * w + k, scan[32 * w + k], (int)s);
            }
            if ((uint32_t)sum[w] != 2 * s || x[w] != xr)
                fail_msg("%s cg_reduce_scan warp %d: sum %d xor %#x, want %d %#x", arch, w, sum[w], x[w], (int)(2 * s), xr);
        }
        for (int h = 0; h < T / 16; h++) {
            int m = in[16 * h];
            for (int k = 1; k < 16; k++)
                m = in[16 * h + k] > m ? in[16 * h + k] : m;
            if (mx[h] != m)
                fail_msg("%s cg_reduce_scan: mx[%d] = %d, want %d", arch, h, mx[h], m);
        }
        /* grid.sync() without a cooperative launch: the grid workspace
         * (%envreg1/2) is null and the kernel traps, as on a GPU */
        for (int its = 0; its < 2; its++) {
            if (its && strstr(arch, ".G"))
                continue;
            int n = 200;
            uint64_t dd = emu_buf(&e, NULL, 256 * sizeof(int)), dg = emu_buf(&e, NULL, 256 * sizeof(int));
            const void *gargs[] = {&dd, &dg, &n};
            sim_launch_config cfg = emu_cfg(4, 1, 64, 1);
            cfg.independent_scheduling = its;
            assert_int_equal(emu_try(&e, "_Z12cg_grid_syncPiS_i", cfg, gargs), -1);
            if (!strstr(e.err, "trap executed by") || !strstr(e.err, "cg_grid_sync"))
                fail_msg("%s cg_grid_sync its=%d: %s", arch, its, e.err);
            assert_int_equal(e.stats.error, SIM_ERR_TRAP);
        }
        {
            int n = 200, got[256];
            uint64_t dd = emu_buf(&e, NULL, 256 * sizeof(int)), dg = emu_buf(&e, NULL, 256 * sizeof(int));
            const void *gargs[] = {&dd, &dg, &n};
            sim_launch_config cfg = emu_cfg(4, 1, 64, 1);
            cfg.cooperative = true;
            emu_run(&e, "_Z12cg_grid_syncPiS_i", cfg, gargs);
            emu_read(&e, got, dg, sizeof got);
            for (int i = 0; i < n; i++)
                if (got[i] != 2 * ((i + 1) % n) + 256)
                    fail_msg("%s cg_grid_sync cooperative: out[%d] = %d, want %d", arch, i, got[i],
                             2 * ((i + 1) % n) + 256);
        }
        emu_close(&e);
    }
}

/* ---- templates.cu ------------------------------------------------------------- */

/* The half nearest to x (x is the exact value; ties to even, overflow to inf). */
static uint16_t half_of(double x)
{
    uint16_t sign = signbit(x) ? 0x8000 : 0;
    if (isnan(x))
        return 0x7fff;
    x = fabs(x);
    if (x >= 65520.0)
        return sign | 0x7c00;
    if (x < 0x1p-14) /* subnormal: multiples of 2^-24 (1024 is the smallest normal) */
        return sign | (uint16_t)nearbyint(x * 0x1p24);
    int ex;
    frexp(x, &ex);
    double q = nearbyint(ldexp(x, 11 - ex)); /* 1024 .. 2048 */
    if (q == 2048.0)
        q = 1024.0, ex++;
    return ex + 14 >= 31 ? sign | 0x7c00 : (uint16_t)(sign | (ex + 14) << 10 | ((uint16_t)q - 1024));
}

/* The value of half h. */
static double half_val(uint16_t h)
{
    int ex = (h >> 10) & 31, m = h & 1023;
    double v = ex == 31 ? (m ? NAN : INFINITY) : ex ? ldexp(1024 + m, ex - 25) : ldexp(m, -24);
    return h & 0x8000 ? -v : v;
}

/* Equal, or both NaN. */
static bool same_f(float x, float y) { return (isnan(x) && isnan(y)) || fbits(x) == fbits(y); }
static bool same_d(double x, double y) { return (isnan(x) && isnan(y)) || dbits(x) == dbits(y); }

static void test_templates(void **state)
{
    (void)state;
    enum { N = 1000, B = 128, G = 8 };
    static int32_t xi[N], yi[N], oi[N];
    static int64_t xl[N], yl[N], ol[N];
    static float xf[N], yf[N], of[N];
    static double xd[N], yd[N], od[N];
    static uint16_t xh[N], yh[N], oh[N];
    static const float fedge[] = {0.0f, -0.0f, INFINITY, -INFINITY, NAN, 3e38f, -1e-30f, 1.0f, 0.1f, 1e20f};
    uint64_t seed = 99;
    for (int i = 0; i < N; i++) {
        uint64_t r = emu_rand(&seed), r2 = emu_rand(&seed);
        xi[i] = (int32_t)(uint32_t)r, yi[i] = (int32_t)(uint32_t)(r >> 32);
        xl[i] = (int64_t)r, yl[i] = (int64_t)r2;
        xf[i] = i < 10 ? fedge[i] : ldexpf((float)(r % 0x1000000) - 8388608.0f, (int)(r2 % 40) - 30);
        yf[i] = ldexpf((float)(r2 % 0x1000000) - 8388608.0f, (int)((r >> 40) % 40) - 30);
        xd[i] = i < 10 ? (double)fedge[i] : ldexp((double)(int64_t)(r >> 11) - 0x1p52, (int)(r2 % 60) - 60);
        yd[i] = ldexp((double)(int64_t)(r2 >> 11) - 0x1p52, (int)((r >> 40) % 60) - 60);
        xh[i] = half_of((double)((int)(r % 4095) - 2047) / 64.0); /* k/64: products and sums exact in double */
        yh[i] = half_of((double)((int)(r2 % 4095) - 2047) / 64.0);
    }
    xh[0] = 0x7bff, xh[1] = 0x0001, xh[2] = 0x0400, xh[3] = 0x7e00, xh[4] = 0xfc00, yh[5] = 0x8000;
    for (size_t a = 0; a < CORPUS_NARCHS; a++)
        for (int its = 0; its < 2; its++) {
            const char *arch = corpus_arch(a);
            bool g = strstr(arch, ".G") != NULL; /* -G: mul and add apart, -O3: fma.rn */
            if (its && g)
                continue;
            emu e;
            corpus_open(&e, "templates", a);
            sim_launch_config cfg = emu_cfg(G, 1, B, 1);
            cfg.independent_scheduling = its;
            int n = N - 3;
            /* axpy: y = a * x + y for i < n; the last 3 stay */
            int32_t ai = -7;
            int64_t al = 0x123456789ll;
            float af = 1.7f;
            double ad = -0.3;
            uint16_t ah[3] = {half_of(0.375), half_of(2.0), 0x7bff}; /* ..., 65504: overflows */
#define AXPY(K, A, X, Y, O)                                                                    \
    do {                                                                                       \
        uint64_t dx = emu_buf(&e, X, sizeof X), dy = emu_buf(&e, Y, sizeof Y);                 \
        const void *args[] = {&(A), &dx, &dy, &n};                                             \
        emu_run(&e, K, cfg, args);                                                             \
        emu_read(&e, O, dy, sizeof O);                                                         \
    } while (0)
            AXPY("_Z4axpyIiEvT_PKS0_PS0_i", ai, xi, yi, oi);
            AXPY("_Z4axpyIxEvT_PKS0_PS0_i", al, xl, yl, ol);
            AXPY("_Z4axpyIfEvT_PKS0_PS0_i", af, xf, yf, of);
            AXPY("_Z4axpyIdEvT_PKS0_PS0_i", ad, xd, yd, od);
            for (int i = 0; i < N; i++) {
                bool in = i < n;
                int32_t wi = in ? (int32_t)((uint32_t)ai * (uint32_t)xi[i] + (uint32_t)yi[i]) : yi[i];
                int64_t wl = in ? (int64_t)((uint64_t)al * (uint64_t)xl[i] + (uint64_t)yl[i]) : yl[i];
                volatile float pf = af * xf[i];
                volatile double pd = ad * xd[i];
                float wf = !in ? yf[i] : g ? pf + yf[i] : fmaf(af, xf[i], yf[i]);
                double wd = !in ? yd[i] : g ? pd + yd[i] : fma(ad, xd[i], yd[i]);
                if (oi[i] != wi || ol[i] != wl || !same_f(of[i], wf) || !same_d(od[i], wd))
                    fail_msg("%s its=%d axpy %d: %d %lld %a %a, want %d %lld %a %a", arch, its, i, oi[i],
                             (long long)ol[i], (double)of[i], od[i], wi, (long long)wl, (double)wf, wd);
            }
            for (int k = 0; k < 3; k++) { /* __half: mul.f16 then add.f16, each rounded */
                AXPY("_Z4axpyI6__halfEvT_PKS1_PS1_i", ah[k], xh, yh, oh);
                for (int i = 0; i < N; i++) {
                    uint16_t w = i < n ? half_of(half_val(half_of(half_val(ah[k]) * half_val(xh[i]))) + half_val(yh[i]))
                                       : yh[i];
                    bool nan = (w & 0x7c00) == 0x7c00 && (w & 0x3ff);
                    if (nan ? !((oh[i] & 0x7c00) == 0x7c00 && (oh[i] & 0x3ff)) : oh[i] != w)
                        fail_msg("%s its=%d axpy<half> %d: %#x * %#x + %#x = %#x, want %#x", arch, its, i,
                                 ah[k], xh[i], yh[i], oh[i], w);
                }
            }
#undef AXPY
            /* block_sum<128, 4, float> and <64, 2, unsigned>: the same tree */
            static float bf[3 * 4 * 128], bof[3];
            static uint32_t bu[3 * 2 * 64], bou[3];
            for (int i = 0; i < 3 * 4 * 128; i++)
                bf[i] = i % 97 == 0 ? -0.0f : xf[(i * 7) % N] * 1e-10f + yf[i % N];
            for (int i = 0; i < 3 * 2 * 64; i++)
                bu[i] = (uint32_t)xi[i % N];
            uint64_t d1 = emu_buf(&e, bf, sizeof bf), d2 = emu_buf(&e, NULL, sizeof bof),
                     d3 = emu_buf(&e, bu, sizeof bu), d4 = emu_buf(&e, NULL, sizeof bou);
            const void *s1[] = {&d1, &d2}, *s2[] = {&d3, &d4};
            cfg.grid.x = 3, cfg.block.x = 128;
            emu_run(&e, "_Z9block_sumILi128ELi4EfEvPKT1_PS0_", cfg, s1);
            cfg.block.x = 64;
            emu_run(&e, "_Z9block_sumILi64ELi2EjEvPKT1_PS0_", cfg, s2);
            emu_read(&e, bof, d2, sizeof bof);
            emu_read(&e, bou, d4, sizeof bou);
            for (int b = 0; b < 3; b++) {
                float sf[128];
                uint32_t su[64];
                for (int t = 0; t < 128; t++) {
                    sf[t] = 0.0f;
                    for (int k = 0; k < 4; k++)
                        sf[t] += bf[(b * 4 + k) * 128 + t];
                }
                for (int st = 64; st > 0; st /= 2)
                    for (int t = 0; t < st; t++)
                        sf[t] += sf[t + st];
                for (int t = 0; t < 64; t++)
                    su[t] = bu[(b * 2) * 64 + t] + bu[(b * 2 + 1) * 64 + t];
                for (int st = 32; st > 0; st /= 2)
                    for (int t = 0; t < st; t++)
                        su[t] += su[t + st];
                if (!same_f(bof[b], sf[0]) || bou[b] != su[0])
                    fail_msg("%s its=%d block_sum %d: %a %u, want %a %u", arch, its, b, (double)bof[b], bou[b],
                             (double)sf[0], su[0]);
            }
            /* transform<Square>, transform<Clamp> (max then min: NaN gives lo) */
            char square = 0;
            struct { float lo, hi; } clamp = {-1.5f, 2.25f};
            uint64_t dx = emu_buf(&e, xf, sizeof xf), dsq = emu_buf(&e, NULL, sizeof of), dcl = emu_buf(&e, NULL, sizeof of);
            const void *t1[] = {&square, &dx, &dsq, &n}, *t2[] = {&clamp, &dx, &dcl, &n};
            cfg = emu_cfg(G, 1, B, 1);
            cfg.independent_scheduling = its;
            emu_run(&e, "_Z9transformI6SquareEvT_PKfPfi", cfg, t1);
            emu_run(&e, "_Z9transformI5ClampEvT_PKfPfi", cfg, t2);
            static float osq[N], ocl[N];
            emu_read(&e, osq, dsq, sizeof osq);
            emu_read(&e, ocl, dcl, sizeof ocl);
            for (int i = 0; i < n; i++) {
                float sq = xf[i] * xf[i], cl = fminf(fmaxf(xf[i], clamp.lo), clamp.hi);
                if (!same_f(osq[i], sq) || !same_f(ocl[i], cl))
                    fail_msg("%s its=%d transform %d (%a): %a %a, want %a %a", arch, its, i, (double)xf[i],
                             (double)osq[i], (double)ocl[i], (double)sq, (double)cl);
            }
            /* precision_switch: double sum (exact products, one rounding each) and float sum */
            enum { P = 256 };
            static float pt[P], pf[P];
            uint64_t dpt = emu_buf(&e, NULL, sizeof pt), dpf = emu_buf(&e, NULL, sizeof pf);
            const void *p1[] = {&dx, &dpt}, *p2[] = {&dx, &dpf};
            emu_run(&e, "_Z16precision_switchILb1EEvPKfPf", emu_cfg(1, 1, P, 1), p1);
            emu_run(&e, "_Z16precision_switchILb0EEvPKfPf", emu_cfg(1, 1, P, 1), p2);
            emu_read(&e, pt, dpt, sizeof pt);
            emu_read(&e, pf, dpf, sizeof pf);
            for (int i = 0; i < P; i++) {
                double d = xf[i];
                float v = xf[i], wt = (float)(d + (d * 2.0 + (d * 3.0 + 1.0)));
                volatile float sq = v * v;
                float wf = g ? v + (2.0f + sq) : v + fmaf(v, v, 2.0f);
                if (!same_f(pt[i], wt) || !same_f(pf[i], wf))
                    fail_msg("%s its=%d precision_switch %d (%a): %a %a, want %a %a", arch, its, i, d,
                             (double)pt[i], (double)pf[i], (double)wt, (double)wf);
            }
            emu_close(&e);
        }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_atomics),
        cmocka_unit_test(test_coop_groups),
        cmocka_unit_test(test_templates),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
