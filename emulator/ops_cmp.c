/* ops_cmp.c — comparison and selection: setp, set, selp, slct, testp,
 * copysign (PTX ISA 9.0, "Comparison and Selection Instructions").
 *
 * Integer compares use the type's signedness (.lo .ls .hi .hs are the
 * unsigned spellings); float compares are ordered (false when either
 * operand is NaN) except the unordered .equ .neu .ltu .leu .gtu .geu (true
 * when either is NaN), .num (neither NaN) and .nan (either NaN). With
 * .ftz, f32 subnormal operands compare as zero. */
#include <math.h>

#include "emulator/ops.h"

enum { C_EQ, C_NE, C_LT, C_LE, C_GT, C_GE, C_EQU, C_NEU, C_LTU, C_LEU, C_GTU, C_GEU, C_NUM, C_NAN };
enum { B_NONE, B_AND, B_OR, B_XOR };

/* How the compared values are read: decided once per instruction. */
typedef enum { CM_F32, CM_F64, CM_SIGNED, CM_UNSIGNED } cmp_mode;

static cmp_mode cmp_mode_of(const sim_inst *in, unsigned *w)
{
    uint8_t ty = in->type2 ? in->type2 : in->type;
    *w = type_bits(ty);
    if (type_float(ty))
        return ty == PTX_TYPE_F32 ? CM_F32 : CM_F64;
    return type_signed(ty) ? CM_SIGNED : CM_UNSIGNED;
}

/* Ordered/unordered float compare of a and b by op. */
static inline bool fcompare(uint8_t op, double a, double b)
{
    bool un = isnan(a) || isnan(b);
    switch (op) {
    case C_EQ: return !un && a == b;
    case C_NE: return !un && a != b;
    case C_LT: return !un && a < b;
    case C_LE: return !un && a <= b;
    case C_GT: return !un && a > b;
    case C_GE: return !un && a >= b;
    case C_EQU: return un || a == b;
    case C_NEU: return un || a != b;
    case C_LTU: return un || a < b;
    case C_LEU: return un || a <= b;
    case C_GTU: return un || a > b;
    case C_GEU: return un || a >= b;
    case C_NUM: return !un;
    default: return un;
    }
}

/* Compare source 0 and source 1 of thread t. */
static inline bool compare(const sim_inst *in, const opnd *O, uint32_t t, cmp_mode mode, unsigned w)
{
    uint64_t x = SRC(0, t), y = SRC(1, t);
    switch (mode) {
    case CM_F32: {
        float fa = f32_of(x), fb = f32_of(y);
        if (in->ftz) {
            if (fpclassify(fa) == FP_SUBNORMAL) fa = copysignf(0.0f, fa);
            if (fpclassify(fb) == FP_SUBNORMAL) fb = copysignf(0.0f, fb);
        }
        return fcompare(in->op, fa, fb);
    }
    case CM_F64:
        return fcompare(in->op, f64_of(x), f64_of(y));
    case CM_SIGNED: {
        int64_t a = ptx_sext(x, w), b = ptx_sext(y, w);
        switch (in->op) {
        case C_EQ: return a == b;
        case C_NE: return a != b;
        case C_LT: return a < b;
        case C_LE: return a <= b;
        case C_GT: return a > b;
        default: return a >= b;
        }
    }
    default: {
        uint64_t a = ptx_zext(x, w), b = ptx_zext(y, w);
        switch (in->op) {
        case C_EQ: return a == b;
        case C_NE: return a != b;
        case C_LT: return a < b;
        case C_LE: return a <= b;
        case C_GT: return a > b;
        default: return a >= b;
        }
    }
    }
}

/* Combine a compare result with predicate c (source 2) by op2. */
static inline bool combine(const sim_inst *in, const opnd *O, uint32_t t, bool r)
{
    switch (in->op2) {
    case B_AND: return r && SRC(2, t);
    case B_OR: return r || SRC(2, t);
    case B_XOR: return r != (SRC(2, t) != 0);
    default: return r;
    }
}

/* One loop per comparison for setp's common forms (one destination, no
 * combining predicate): operands read by READ(k, t), compared by OP. */
#define SETP_OPS(READ, NE)                                                                   \
    switch (in->op) {                                                                        \
    case C_EQ: MAP_LANES(2, (uint64_t)(READ(0) == READ(1))); break;                       \
    case C_NE: MAP_LANES(2, (uint64_t)NE(READ(0), READ(1))); break;                       \
    case C_LT: MAP_LANES(2, (uint64_t)(READ(0) < READ(1))); break;                        \
    case C_LE: MAP_LANES(2, (uint64_t)(READ(0) <= READ(1))); break;                       \
    case C_GT: MAP_LANES(2, (uint64_t)(READ(0) > READ(1))); break;                        \
    default: MAP_LANES(2, (uint64_t)(READ(0) >= READ(1))); break;                         \
    }
#define READ_S(k) ptx_sext(ARG(k), w)
#define READ_U(k) ptx_zext(ARG(k), w)
#define READ_F(k) f32_of(ARG(k))
#define NE_INT(a, b) ((a) != (b))
#define NE_ORDERED(a, b) ((a) < (b) || (a) > (b)) /* false when either is NaN */

/* The common setp forms; false when in is not one of them. */
static bool setp_fast(const sim_inst *in, const sim_lanes *L, const opnd *O, const dsts *D, cmp_mode mode,
                      unsigned w)
{
    if (in->op2 != B_NONE || in->ndst > 1 || in->op > C_GE || mode == CM_F64 || (mode == CM_F32 && in->ftz))
        return false;
    if (mode == CM_SIGNED)
        SETP_OPS(READ_S, NE_INT)
    else if (mode == CM_UNSIGNED)
        SETP_OPS(READ_U, NE_INT)
    else
        SETP_OPS(READ_F, NE_ORDERED)
    return true;
}

/* setp: p = cmp op c, q = !cmp op c. */
HANDLER(op_setp)
{
    (void)g; (void)s;
    unsigned w;
    cmp_mode mode = cmp_mode_of(in, &w);
    if (setp_fast(in, L, O, D, mode, w))
        return;
    EACH_LANE(t) {
        bool r = compare(in, O, t, mode, w);
        PUT(0, t, combine(in, O, t, r));
        if (in->ndst > 1)
            PUT(1, t, combine(in, O, t, !r));
    }
}

/* set: d = 1.0f or all ones (integer) when the combined compare holds. */
HANDLER(op_set)
{
    (void)g; (void)s;
    uint64_t yes = in->type == PTX_TYPE_F32 ? 0x3f800000ull : ~0ull;
    unsigned w;
    cmp_mode mode = cmp_mode_of(in, &w);
    EACH_LANE(t) PUT(0, t, combine(in, O, t, compare(in, O, t, mode, w)) ? yes : 0);
}

/* selp: d = c ? a : b. */
HANDLER(op_selp)
{
    (void)g; (void)s;
    EACH_LANE(t) PUT(0, t, SRC(2, t) ? SRC(0, t) : SRC(1, t));
}

/* slct: d = c >= 0 ? a : b, c being s32 or f32 (type2). */
HANDLER(op_slct)
{
    (void)g; (void)s;
    EACH_LANE(t) {
        uint64_t cv = SRC(2, t);
        bool ge;
        if (in->type2 == PTX_TYPE_F32) {
            float f = f32_of(cv);
            if (in->ftz && fpclassify(f) == FP_SUBNORMAL)
                f = 0.0f;
            ge = f >= 0.0f; /* -0 >= 0 holds; NaN does not */
        } else {
            ge = ptx_sext(cv, 32) >= 0;
        }
        PUT(0, t, ge ? SRC(0, t) : SRC(1, t));
    }
}

enum { T_FINITE, T_INFINITE, T_NUMBER, T_NOTANUMBER, T_NORMAL, T_SUBNORMAL };

/* testp.op: classify the f32/f64 operand. */
HANDLER(op_testp)
{
    (void)g; (void)s;
    EACH_LANE(t) {
        double x = in->type == PTX_TYPE_F32 ? (double)f32_of(SRC(0, t)) : f64_of(SRC(0, t));
        int cls = in->type == PTX_TYPE_F32 ? fpclassify(f32_of(SRC(0, t))) : fpclassify(x);
        bool r;
        switch (in->op) {
        case T_FINITE: r = isfinite(x); break;
        case T_INFINITE: r = isinf(x); break;
        case T_NUMBER: r = !isnan(x); break;
        case T_NOTANUMBER: r = isnan(x); break;
        case T_NORMAL: r = cls == FP_NORMAL; break;
        default: r = cls == FP_SUBNORMAL; break;
        }
        PUT(0, t, r);
    }
}

/* copysign: b with the sign of a. */
HANDLER(op_copysign)
{
    (void)g; (void)s;
    uint64_t sign = in->type == PTX_TYPE_F32 ? 0x80000000ull : 0x8000000000000000ull;
    EACH_LANE(t) PUT(0, t, (SRC(1, t) & ~sign) | (SRC(0, t) & sign));
}

/* The lean forms (ops.h, LEAN_WIDTHS) of integer setp without a
 * combining predicate or a second destination: the same results as
 * setp_fast at a fixed width and signedness. */
#define LEAN_CMP(name, OP)                                                                   \
    static inline uint64_t lean_##name(uint64_t a, uint64_t b, unsigned w, bool sg)          \
    {                                                                                        \
        return sg ? (uint64_t)(ptx_sext(a, w) OP ptx_sext(b, w)) : (uint64_t)(ptx_zext(a, w) OP ptx_zext(b, w));     \
    }                                                                                        \
    LEAN_WIDTHS(setp_##name, lean_##name)
LEAN_CMP(eq, ==)
LEAN_CMP(ne, !=)
LEAN_CMP(lt, <)
LEAN_CMP(le, <=)
LEAN_CMP(gt, >)
LEAN_CMP(ge, >=)

/* The lean setp handler of in, or NULL. */
static sim_fn setp_lean(const sim_inst *in)
{
    static const sim_fn(*const tab[])[2] = {setp_eq_lean, setp_ne_lean, setp_lt_lean,
                                             setp_le_lean, setp_gt_lean, setp_ge_lean};
    if (in->op2 != B_NONE || in->ndst != 1 || in->op > C_GE)
        return NULL;
    return lean_pick_width(in, in->type2, tab[in->op]);
}

/* p ? a : b without a branch (the predicate of divergent code is often
 * unpredictable). */
static inline uint64_t select_bits(uint64_t p, uint64_t a, uint64_t b)
{
    uint64_t k = 0 - (uint64_t)(p != 0);
    return (a & k) | (b & ~k);
}

/* selp with register sources a, b and an unnegated register predicate c:
 * op_selp without operand resolution (see LEAN_BINARY). */
static void op_selp_lean(sim_cta *c, const sim_inst *in, const sim_group *g, const sim_lanes *L, sim_step *s)
{
    (void)g, (void)s;
    const uint64_t *A = sim_row(c, in->src[0].row), *B = sim_row(c, in->src[1].row);
    const uint64_t *P = sim_row(c, in->src[2].row);
    uint64_t *D = sim_row(c, in->dst[0]);
    const uint64_t m = dst_mask(in->dst_bits[0]);
    if (L->contig) {
        const uint32_t t0 = L->n ? L->t[0] : 0;
        for (uint32_t t = t0; t < t0 + L->n; t++)
            D[t] = select_bits(P[t], A[t], B[t]) & m;
        return;
    }
    for (uint32_t i = 0; i < L->n; i++) {
        const uint32_t t = L->t[i];
        D[t] = select_bits(P[t], A[t], B[t]) & m;
    }
}

/* Whether selp `in` has the form op_selp_lean runs. */
static bool selp_is_lean(const sim_inst *in)
{
    if (in->dst[0] == PTX_NONE)
        return false;
    for (unsigned k = 0; k < 3; k++)
        if (in->src[k].imm != 0 || in->src[k].neg)
            return false;
    return true;
}

/* The compare selector of a form (CMP, or .lo/.hi in WIDTH). */
static int cmp_of(const sim_decoder *d)
{
    switch (sim_dec_mod(d, PTX_MODCAT_CMP)) {
    case PTX_MOD_EQ: return C_EQ;
    case PTX_MOD_NE: return C_NE;
    case PTX_MOD_LT: return C_LT;
    case PTX_MOD_LE: case PTX_MOD_LS: return C_LE;
    case PTX_MOD_GT: return C_GT;
    case PTX_MOD_GE: case PTX_MOD_HS: return C_GE;
    case PTX_MOD_EQU: return C_EQU;
    case PTX_MOD_NEU: return C_NEU;
    case PTX_MOD_LTU: return C_LTU;
    case PTX_MOD_LEU: return C_LEU;
    case PTX_MOD_GTU: return C_GTU;
    case PTX_MOD_GEU: return C_GEU;
    case PTX_MOD_NUM: return C_NUM;
    case PTX_MOD_NAN: return C_NAN;
    default: break;
    }
    ptx_modifier w = sim_dec_mod(d, PTX_MODCAT_WIDTH);
    return w == PTX_MOD_LO ? C_LT : w == PTX_MOD_HI ? C_GT : -1;
}

sim_fn sim_pick_cmp(sim_decoder *d)
{
    sim_inst *in = d->in;
    ptx_opcode op = (ptx_opcode)d->form->opcode;
    unsigned n = sim_dec_nops(d);
    switch (op) {
    case PTX_OP_SETP: case PTX_OP_SET: {
        if (op == PTX_OP_SETP) { /* setp.cmp.type: the compared type is the only one */
            in->type2 = in->type;
            if (in->type == PTX_TYPE_F16 || in->type == PTX_TYPE_F16X2 || in->type == PTX_TYPE_BF16 ||
                in->type == PTX_TYPE_BF16X2)
                return NULL;
        } else if (!type_float(in->type) && type_bits(in->type) != 32) {
            return NULL;
        }
        if (type_bits(in->type2) > 64 || ptx_type_class((ptx_type)in->type2) == 'p')
            return NULL;
        int cmp = cmp_of(d);
        if (cmp < 0)
            return NULL;
        bool unsigned_spelling = sim_dec_mod(d, PTX_MODCAT_CMP) == PTX_MOD_LS ||
                                 sim_dec_mod(d, PTX_MODCAT_CMP) == PTX_MOD_HS ||
                                 sim_dec_mod(d, PTX_MODCAT_WIDTH) != PTX_MOD_NONE;
        if (unsigned_spelling && type_signed(in->type2))
            return NULL;
        in->op = (uint8_t)cmp;
        ptx_modifier b = sim_dec_mod(d, PTX_MODCAT_OP);
        in->op2 = b == PTX_MOD_AND ? B_AND : b == PTX_MOD_OR ? B_OR : b == PTX_MOD_XOR ? B_XOR : B_NONE;
        if (n != (in->op2 ? 4u : 3u) || !sim_dec_dst(d, 0, 0) || !sim_dec_src(d, 1, 0) ||
            !sim_dec_src(d, 2, 1) || (in->op2 && !sim_dec_src(d, 3, 2)))
            return NULL;
        const ptx_operand *o = sim_dec_op(d, 0);
        in->ndst = o->kind == PTX_OPD_PAIR ? 2 : 1;
        if (op == PTX_OP_SET && in->ndst != 1)
            return NULL;
        if (type_float(in->type2) && in->type2 != PTX_TYPE_F32)
            in->ftz = 0;
        if (op == PTX_OP_SET)
            return op_set;
        sim_fn lean = type_float(in->type2) ? NULL : setp_lean(in);
        return lean ? lean : op_setp;
    }
    case PTX_OP_SELP:
        if (n != 4 || type_bits(in->type) > 64 || !sim_dec_dst(d, 0, 0) || !sim_dec_src(d, 1, 0) ||
            !sim_dec_src(d, 2, 1) || !sim_dec_src(d, 3, 2))
            return NULL;
        return selp_is_lean(in) ? op_selp_lean : op_selp;
    case PTX_OP_SLCT:
        if (n != 4 || type_bits(in->type) > 64 || !sim_dec_dst(d, 0, 0) || !sim_dec_src(d, 1, 0) ||
            !sim_dec_src(d, 2, 1) || !sim_dec_src(d, 3, 2))
            return NULL;
        return op_slct;
    case PTX_OP_TESTP: {
        static const ptx_modifier modes[] = {PTX_MOD_FINITE, PTX_MOD_INFINITE, PTX_MOD_NUMBER,
                                             PTX_MOD_NOTANUMBER, PTX_MOD_NORMAL, PTX_MOD_SUBNORMAL};
        ptx_modifier mm = sim_dec_mod(d, PTX_MODCAT_MODE);
        if (n != 2 || !sim_dec_dst(d, 0, 0) || !sim_dec_src(d, 1, 0) ||
            (in->type != PTX_TYPE_F32 && in->type != PTX_TYPE_F64))
            return NULL;
        for (uint8_t i = 0; i < 6; i++)
            if (modes[i] == mm) {
                in->op = i;
                return op_testp;
            }
        return NULL;
    }
    case PTX_OP_COPYSIGN:
        if (n != 3 || (in->type != PTX_TYPE_F32 && in->type != PTX_TYPE_F64) ||
            !sim_dec_dst(d, 0, 0) || !sim_dec_src(d, 1, 0) || !sim_dec_src(d, 2, 1))
            return NULL;
        return op_copysign;
    default:
        return NULL;
    }
}
