/* ops.h — what the handler files (ops_*.c) share: the handler signature,
 * the loop over active lanes and width helpers. */
#ifndef SIMTLAB_EMU_OPS_H
#define SIMTLAB_EMU_OPS_H

#include <string.h>

#include "emulator/internal.h"
#include "ir/int_semantics.h"

/* A source operand resolved once per instruction: a register row (reg:
 * the value for thread t is p[t]) or a value shared by every thread (v);
 * x = 1 negates a predicate. No pointer into the struct itself, so the
 * compiler can keep it in registers across the lane loop. */
typedef struct opnd {
    const uint64_t *p;
    uint64_t v, x;
    bool reg;
} opnd;

/* Destination rows and the masks of their declared widths (a sink writes
 * to the CTA's scratch row). */
typedef struct dsts {
    uint64_t *p[SIM_MAX_DST];
    uint64_t m[SIM_MAX_DST];
} dsts;

/* The mask of a destination register declared `bits` wide (0: no
 * declared width). */
static inline uint64_t dst_mask(uint8_t bits) { return bits >= 64 || bits == 0 ? ~0ull : (1ull << bits) - 1; }

/* Resolve the instruction's sources and destinations for the running
 * code. */
static inline void resolve(sim_cta *c, const sim_inst *in, opnd *O, dsts *D)
{
    for (unsigned k = 0; k < in->nsrc_used; k++) {
        const sim_src *s = &in->src[k];
        opnd *o = &O[k];
        o->x = s->neg;
        o->reg = s->imm == 0;
        o->p = c->rows + (size_t)s->row * c->stride;
        o->v = s->imm == 1 ? s->value : s->imm == 2 ? sim_clock(c) : s->value + c->frame_sp;
    }
    for (unsigned k = 0; k < in->ndst_used; k++) {
        D->p[k] = in->dst[k] == PTX_NONE ? c->sink : c->rows + (size_t)in->dst[k] * c->stride;
        D->m[k] = dst_mask(in->dst_bits[k]);
    }
}

/* A handler: see sim_fn. The body also sees O (sources) and D
 * (destinations), resolved before it runs. */
#define HANDLER(name)                                                                        \
    static void name##_body(sim_cta *c, const sim_inst *in, const sim_group *g,               \
                            const sim_lanes *L, sim_step *s, const opnd *O, const dsts *D);  \
    static void name(sim_cta *c, const sim_inst *in, const sim_group *g, const sim_lanes *L,  \
                     sim_step *s)                                                            \
    {                                                                                        \
        opnd O[SIM_MAX_SRC];                                                                 \
        dsts D;                                                                              \
        resolve(c, in, O, &D);                                                               \
        name##_body(c, in, g, L, s, O, &D);                                                  \
    }                                                                                        \
    static inline void name##_body(sim_cta *c, const sim_inst *in, const sim_group *g,        \
                                   const sim_lanes *L, sim_step *s, const opnd *O,           \
                                   const dsts *D)

/* For each active lane that passes the guard: t = its thread index. */
#define EACH_LANE(t) for (uint32_t i_ = 0, t = 0; i_ < L->n && ((t = L->t[i_]), 1); i_++)

/* Source k / destination k of the current instruction for thread t. */
#define SRC(k, t) ((O[k].reg ? O[k].p[t] : O[k].v) ^ O[k].x)
#define PUT(k, t, v) (D->p[k][t] = (v) & D->m[k])

/* buf[i] = source o (without its negation) for lane i of L. */
static inline void lanes_gather(const sim_lanes *L, const opnd *o, uint64_t *buf)
{
    uint32_t n = L->n;
    if (!o->reg) {
        for (uint32_t i = 0; i < n; i++)
            buf[i] = o->v;
        return;
    }
    const uint64_t *p = o->p;
    for (uint32_t i = 0; i < n; i++)
        buf[i] = p[L->t[i]];
}

/* Run BODY over the active lanes as arrays: n_ lanes, source k (k < nsrc
 * <= 3) of lane i_ is ARG(k) = s_[k][i_] ^ x_[k], and BODY writes lane
 * i_'s result to out_[i_], masked by m_. On a contiguous run of threads
 * the arrays are the register rows themselves (immediates spread into a
 * buffer); otherwise values gathered from the lane list, and the results
 * are scattered back. So BODY's loop has no indirection and the compiler
 * (or BODY's own vector code) can vectorize it. */
#define LANE_ARRAYS(nsrc, BODY)                                                               \
    do {                                                                                      \
        uint64_t buf_[3][32], res_[32], x_[3] = {0};                                          \
        const uint64_t *s_[3] = {buf_[0], buf_[1], buf_[2]};                                  \
        const uint32_t n_ = L->n, t0_ = n_ ? L->t[0] : 0;                                     \
        const bool run_ = L->contig;                                                          \
        for (unsigned k_ = 0; k_ < (nsrc); k_++) {                                            \
            x_[k_] = O[k_].x;                                                                 \
            if (run_ && O[k_].reg)                                                            \
                s_[k_] = O[k_].p + t0_;                                                       \
            else                                                                              \
                lanes_gather(L, &O[k_], buf_[k_]);                                            \
        }                                                                                     \
        uint64_t *out_ = run_ ? D->p[0] + t0_ : res_;                                         \
        const uint64_t m_ = D->m[0];                                                          \
        BODY;                                                                                 \
        for (uint32_t i_ = 0; i_ < n_ && !run_; i_++)                                         \
            D->p[0][L->t[i_]] = res_[i_];                                                     \
    } while (0)

/* One loop of MAP_LANES: lane i_ writes d_[T], reading source k at index
 * IXk of s_[k] (T and IXk may use t_, which is T). */
#define MAP_LOOP_(EXPR, T, IX0, IX1, IX2)                                                     \
    for (uint32_t i_ = 0; i_ < L->n; i_++) {                                                  \
        const uint32_t t_ = (T);                                                              \
        const uint32_t ix_0 = (IX0), ix_1 = (IX1), ix_2 = (IX2);                              \
        (void)ix_0, (void)ix_1, (void)ix_2;                                                   \
        d_[t_] = (EXPR) & m_;                                                                 \
    }

/* Destination 0 = (EXPR) & its mask for every active lane, EXPR reading
 * source k as ARG(k): element ix_k of array s_[k], negated by x_[k].
 * - A register and an immediate (the common form): the register row read
 *   in place, the immediate through index 0 of its value, over a
 *   contiguous run (a loop the compiler vectorizes) or the lane list.
 * - Otherwise on a contiguous run, LANE_ARRAYS' arrays (ix_k = i_).
 * - Otherwise on scattered lanes (divergent code), one pass over the lane
 *   list reading each register row at the lane's thread and each
 *   immediate through index 0 (ix_k masked to 0 by im_[k]): no gather and
 *   scatter passes. */
#define MAP_LANES(nsrc, EXPR)                                                                 \
    do {                                                                                      \
        const bool imm1_ = (nsrc) == 2 && O[0].reg && !O[1].reg;                              \
        if (L->contig && !imm1_) {                                                            \
            LANE_ARRAYS(nsrc, for (uint32_t i_ = 0; i_ < n_; i_++) {                          \
                const uint32_t ix_0 = i_; const uint32_t ix_1 = i_; const uint32_t ix_2 = i_; \
                (void)ix_0; (void)ix_1; (void)ix_2;                                           \
                out_[i_] = (EXPR) & m_;                                                       \
            });                                                                               \
            break;                                                                            \
        }                                                                                     \
        const uint64_t *s_[3] = {NULL, NULL, NULL};                                           \
        uint64_t x_[3] = {0};                                                                 \
        uint32_t im_[3] = {0};                                                                \
        bool regs_ = true;                                                                    \
        for (unsigned k_ = 0; k_ < (nsrc); k_++) {                                            \
            x_[k_] = O[k_].x;                                                                 \
            s_[k_] = O[k_].reg ? O[k_].p : &O[k_].v;                                          \
            im_[k_] = O[k_].reg ? ~0u : 0;                                                    \
            regs_ &= O[k_].reg;                                                               \
        }                                                                                     \
        uint64_t *d_ = D->p[0];                                                               \
        const uint64_t m_ = D->m[0];                                                          \
        if (L->contig) { /* imm1_ */                                                          \
            s_[0] += L->t[0];                                                                 \
            d_ += L->t[0];                                                                    \
            MAP_LOOP_(EXPR, i_, t_, 0, 0)                                                     \
        } else if (imm1_) {                                                                   \
            MAP_LOOP_(EXPR, L->t[i_], t_, 0, 0)                                               \
        } else if (regs_) {                                                                   \
            MAP_LOOP_(EXPR, L->t[i_], t_, t_, t_)                                             \
        } else {                                                                              \
            MAP_LOOP_(EXPR, L->t[i_], t_ & im_[0], t_ & im_[1], t_ & im_[2])                  \
        }                                                                                     \
    } while (0)
#define ARG(k) (s_[k][ix_##k] ^ x_[k])

/* Unused handler arguments. */
#define UNUSED_ARGS ((void)c, (void)in, (void)g, (void)L, (void)s, (void)O, (void)D)

/* Width in bits of the instruction's first type (32 when it has none). */
static inline unsigned type_bits(uint8_t type)
{
    unsigned b = ptx_type_bits((ptx_type)type);
    return b ? b : 32;
}
static inline bool type_signed(uint8_t type) { return ptx_type_class((ptx_type)type) == 's'; }
static inline bool type_float(uint8_t type) { return ptx_type_class((ptx_type)type) == 'f'; }

/* Reinterpret bits as float/double and back. */
static inline float f32_of(uint64_t v)
{
    uint32_t b = (uint32_t)v;
    float f;
    memcpy(&f, &b, 4);
    return f;
}
static inline double f64_of(uint64_t v)
{
    double d;
    memcpy(&d, &v, 8);
    return d;
}
static inline uint64_t bits_f32(float f)
{
    uint32_t b;
    memcpy(&b, &f, 4);
    return b;
}
static inline uint64_t bits_f64(double d)
{
    uint64_t b;
    memcpy(&b, &d, 8);
    return b;
}

/* Lean handlers: the common two-source forms d = FN(a, b, W, SG) with a
 * register a, a register or immediate b, no negation and a real
 * destination, chosen at decode time (lean_pick) so that their loops need
 * no operand resolution or per-lane operand-kind tests: straight code
 * over a contiguous run (vectorizable) or over the lane list of
 * scattered lanes (divergent code). W and SG (width, signedness) are
 * constants, so FN folds to the one expression of that form. B_ reads
 * lane t's b: a register row or the immediate. */
#define LEAN_LOOP_(FN, W, SG, B_)                                                             \
    const uint64_t *A_ = sim_row(c, in->src[0].row);                                          \
    uint64_t *D_ = sim_row(c, in->dst[0]);                                                    \
    const uint64_t m_ = dst_mask(in->dst_bits[0]);                                            \
    const uint32_t n_ = L->n;                                                                 \
    if (L->contig) {                                                                          \
        const uint32_t t0_ = n_ ? L->t[0] : 0;                                                \
        for (uint32_t t_ = t0_; t_ < t0_ + n_; t_++)                                          \
            D_[t_] = FN(A_[t_], (B_), W, SG) & m_;                                            \
    } else {                                                                                  \
        for (uint32_t i_ = 0; i_ < n_; i_++) {                                                \
            const uint32_t t_ = L->t[i_];                                                     \
            D_[t_] = FN(A_[t_], (B_), W, SG) & m_;                                            \
        }                                                                                     \
    }

/* The register-register (name_rr) and register-immediate (name_ri) lean
 * handlers of FN at width W, signedness SG. */
#define LEAN_BINARY(name, FN, W, SG)                                                          \
    static void name##_rr(sim_cta *c, const sim_inst *in, const sim_group *g,                 \
                          const sim_lanes *L, sim_step *s)                                    \
    {                                                                                         \
        (void)g, (void)s;                                                                     \
        const uint64_t *B_ = sim_row(c, in->src[1].row);                                      \
        LEAN_LOOP_(FN, W, SG, B_[t_])                                                         \
    }                                                                                         \
    static void name##_ri(sim_cta *c, const sim_inst *in, const sim_group *g,                 \
                          const sim_lanes *L, sim_step *s)                                    \
    {                                                                                         \
        (void)g, (void)s;                                                                     \
        const uint64_t b_ = in->src[1].value;                                                 \
        LEAN_LOOP_(FN, W, SG, b_)                                                             \
    }

/* Lean handlers of FN for the four integer width classes (u64, s64, u32,
 * s32) and their table name##_lean for lean_pick_width. */
#define LEAN_WIDTHS(name, FN)                                                                 \
    LEAN_BINARY(name##_u64, FN, 64, false)                                                    \
    LEAN_BINARY(name##_s64, FN, 64, true)                                                     \
    LEAN_BINARY(name##_u32, FN, 32, false)                                                    \
    LEAN_BINARY(name##_s32, FN, 32, true)                                                     \
    static const sim_fn name##_lean[4][2] = {{name##_u64_rr, name##_u64_ri},                  \
                                             {name##_s64_rr, name##_s64_ri},                  \
                                             {name##_u32_rr, name##_u32_ri},                  \
                                             {name##_s32_rr, name##_s32_ri}};

/* The lean handler of a decoded two-source instruction: rr for a register
 * b, ri for an immediate one; NULL when the form is not lean (a sink or
 * second destination, an immediate a, a negated source, the clock). */
static inline sim_fn lean_pick(const sim_inst *in, sim_fn rr, sim_fn ri)
{
    if (in->nsrc_used != 2 || in->ndst_used != 1 || in->dst[0] == PTX_NONE || in->src[0].imm != 0 ||
        in->src[0].neg || in->src[1].neg)
        return NULL;
    return in->src[1].imm == 0 ? rr : in->src[1].imm == 1 ? ri : NULL;
}

/* The lean handler of table tab (see LEAN_WIDTHS) for type ty and the
 * instruction's operand kinds; NULL for other widths or forms. */
static inline sim_fn lean_pick_width(const sim_inst *in, uint8_t ty, const sim_fn tab[4][2])
{
    unsigned w = ptx_type_bits((ptx_type)ty);
    if ((w != 32 && w != 64) || type_float(ty))
        return NULL;
    unsigned k = (w == 32 ? 2u : 0u) + (type_signed(ty) ? 1u : 0u);
    return lean_pick(in, tab[k][0], tab[k][1]);
}

#endif
