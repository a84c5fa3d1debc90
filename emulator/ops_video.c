/* ops_video.c — the video instructions of PTX ISA 9.0 ("Video
 * Instructions"), as their pseudo-code defines them.
 *
 * Scalar: vadd, vsub, vabsdiff, vmin, vmax, vshl, vshr, vset and vmad.
 * Each source is a byte (.b0-.b3), half-word (.h0, .h1) or the word of its
 * register, sign- or zero-extended by its type; the operation's exact
 * result is optionally clamped (.sat) to the destination type's range at
 * the width of the destination selector, then optionally combined with c
 * by a secondary operation (.add, .min, .max; c extended by the
 * destination type) or merged into c at the destination selector; the low
 * 32 bits are written. vshl's result is the exact ta * 2^tb (the ISA gives
 * no width for it), so .sat clamps the true value. vmad follows its own
 * pseudo-code: a 128-bit product, negation of the product or of c (or
 * .po's + 1), the sign of the result from the types and negations, a
 * 64-bit result optionally shifted (.shr7, .shr15) and clamped to 32 bits.
 *
 * SIMD: vadd2/4, vsub2/4, vavrg2/4, vabsdiff2/4, vmin2/4, vmax2/4, vset2/4.
 * Element i of an operand is the half-word (byte) that digit i of its
 * selector names among the four half-words (eight bytes) of b:a (digits
 * are written element 1 (3) first: .h32 takes b's halves; defaults .h10
 * and .h32, .b3210 and .b7654); results are optionally clamped to the
 * element type's range; then either the elements the mask names replace
 * those of c (merge) or their full values are added to c (.add). */
#include "emulator/ops.h"

enum { V_ADD, V_SUB, V_ABSDIFF, V_MIN, V_MAX, V_SHL, V_SHR, V_SET, V_MAD, V_AVRG };
enum { SEC_NONE, SEC_ADD, SEC_MIN, SEC_MAX };

/* in->ntargets: the destination selector (scalar: a selector code, see
 * sel_code; SIMD: bit i set when element i is written) and the flags. */
#define VF_ASIGNED (1u << 8)
#define VF_BSIGNED (1u << 9)
#define VF_DSIGNED (1u << 10)
#define VF_WRAP (1u << 11)    /* vshl/vshr .wrap (else .clamp) */
#define VF_PNEG (1u << 12)    /* vmad: the product negated */
#define VF_CNEG (1u << 13)    /* vmad: c negated */
#define VF_PO (1u << 14)      /* vmad .po */
#define VF_SHR7 (1u << 15)
#define VF_SHR15 (1u << 16)
#define VF_SIMD4 (1u << 17)   /* byte elements (else half-words) */
#define VF_CMP_SHIFT 20       /* vset: compare (0 eq, 1 ne, 2 lt, 3 le, 4 gt, 5 ge) */

/* A scalar selector code: 0 the word, 1..4 bytes 0..3, 5..6 halves 0..1. */
static inline unsigned sel_code(ptx_component c)
{
    switch (c) {
    case PTX_COMP_B0: return 1;
    case PTX_COMP_B1: return 2;
    case PTX_COMP_B2: return 3;
    case PTX_COMP_B3: return 4;
    case PTX_COMP_H0: return 5;
    case PTX_COMP_H1: return 6;
    default: return 0;
    }
}

/* Bits of a scalar selector's part (32 for the word) and its position. */
static inline unsigned sel_bits(unsigned code) { return code == 0 ? 32 : code <= 4 ? 8 : 16; }
static inline unsigned sel_shift(unsigned code) { return code == 0 ? 0 : code <= 4 ? 8 * (code - 1) : 16 * (code - 5); }

/* partSelectSignExtend: the selected part of x, extended by its type. */
static inline int64_t part(uint64_t x, unsigned code, bool sg)
{
    uint64_t v = x >> sel_shift(code);
    unsigned w = sel_bits(code);
    return sg ? ptx_sext(v, w) : (int64_t)ptx_zext(v, w);
}

/* v clamped to the range of a w-bit signed or unsigned integer. */
static inline __int128 clamp_to(__int128 v, unsigned w, bool sg)
{
    __int128 lo = sg ? -((__int128)1 << (w - 1)) : 0, hi = sg ? ((__int128)1 << (w - 1)) - 1 : ((__int128)1 << w) - 1;
    return v < lo ? lo : v > hi ? hi : v;
}

/* The compare of vset / vset2 / vset4. */
static inline bool vcompare(unsigned cmp, int64_t a, int64_t b)
{
    switch (cmp) {
    case 0: return a == b;
    case 1: return a != b;
    case 2: return a < b;
    case 3: return a <= b;
    case 4: return a > b;
    default: return a >= b;
    }
}

/* The scalar primary operation on the extended operands. */
static inline __int128 scalar_op(unsigned op, unsigned fl, int64_t ta, int64_t tb)
{
    switch (op) {
    case V_ADD: return (__int128)ta + tb;
    case V_SUB: return (__int128)ta - tb;
    case V_ABSDIFF: return ta > tb ? (__int128)ta - tb : (__int128)tb - ta;
    case V_MIN: return ta < tb ? ta : tb;
    case V_MAX: return ta > tb ? ta : tb;
    case V_SET: return vcompare(fl >> VF_CMP_SHIFT & 7, ta, tb);
    case V_SHL: case V_SHR: {
        uint64_t n = (uint64_t)tb;
        n = (fl & VF_WRAP) ? n & 31 : n > 32 ? 32 : n;
        return op == V_SHL ? (__int128)ta * ((__int128)1 << n) : (__int128)(ta >> n);
    }
    default: return 0;
    }
}

/* vadd ... vmax, vshl, vshr, vset: d = merge or secondary(sat(op(ta, tb)), c). */
HANDLER(op_video_scalar)
{
    (void)g; (void)s;
    unsigned fl = in->ntargets, dsel = fl & 0xff, asel = in->target & 0xff, bsel = in->target >> 16 & 0xff;
    bool asg = fl & VF_ASIGNED, bsg = fl & VF_BSIGNED, dsg = fl & VF_DSIGNED;
    EACH_LANE(t) {
        int64_t ta = part(SRC(0, t), asel, asg), tb = part(SRC(1, t), bsel, bsg);
        __int128 tmp = scalar_op(in->op, fl, ta, tb);
        if (in->sat)
            tmp = clamp_to(tmp, dsel ? sel_bits(dsel) : 32, dsg);
        uint64_t r;
        if (in->op2 != SEC_NONE) {
            int64_t cv = dsg ? ptx_sext(SRC(2, t), 32) : (int64_t)ptx_zext(SRC(2, t), 32);
            __int128 v = in->op2 == SEC_ADD ? tmp + cv : in->op2 == SEC_MIN ? (tmp < cv ? tmp : cv)
                                                                             : (tmp > cv ? tmp : cv);
            r = (uint64_t)v;
        } else if (dsel) { /* optMerge: the part at the selector from tmp, the rest from c */
            uint64_t m = ptx_zext(~0ull, sel_bits(dsel)) << sel_shift(dsel);
            r = ((uint64_t)tmp << sel_shift(dsel) & m) | (SRC(2, t) & ~m);
        } else {
            r = (uint64_t)tmp;
        }
        PUT(0, t, ptx_zext(r, 32));
    }
}

/* vmad: the ISA's pseudo-code step by step. */
HANDLER(op_vmad)
{
    (void)g; (void)s;
    unsigned fl = in->ntargets, asel = in->target & 0xff, bsel = in->target >> 16 & 0xff;
    bool asg = fl & VF_ASIGNED, bsg = fl & VF_BSIGNED;
    bool signed_final = asg || bsg || (fl & (VF_PNEG | VF_CNEG));
    EACH_LANE(t) {
        int64_t ta = part(SRC(0, t), asel, asg), tb = part(SRC(1, t), bsel, bsg);
        uint64_t cv = ptx_zext(SRC(2, t), 32);
        unsigned __int128 tmp = (unsigned __int128)((__int128)ta * tb), lsb = 0;
        if (fl & VF_PO) {
            lsb = 1;
        } else if (fl & VF_PNEG) {
            tmp = ~tmp;
            lsb = 1;
        } else if (fl & VF_CNEG) {
            cv = ptx_zext(~cv, 32);
            lsb = 1;
        }
        unsigned __int128 c128 = signed_final ? (unsigned __int128)(__int128)ptx_sext(cv, 32) : cv;
        tmp = tmp + c128 + lsb;
        uint64_t result = (uint64_t)(tmp >> ((fl & VF_SHR7) ? 7 : (fl & VF_SHR15) ? 15 : 0));
        if (in->sat) {
            if (signed_final) {
                int64_t v = (int64_t)result;
                result = (uint64_t)(v > INT32_MAX ? INT32_MAX : v < INT32_MIN ? INT32_MIN : v);
            } else if (result > UINT32_MAX) {
                result = UINT32_MAX;
            }
        }
        PUT(0, t, ptx_zext(result, 32));
    }
}

/* The SIMD forms: elements of w bits (16 or 8), n of them. */
HANDLER(op_video_simd)
{
    (void)g; (void)s;
    unsigned fl = in->ntargets, mask = fl & 0xff, w = (fl & VF_SIMD4) ? 8 : 16, n = 32 / w;
    bool asg = fl & VF_ASIGNED, bsg = fl & VF_BSIGNED, dsg = fl & VF_DSIGNED;
    uint32_t asel = in->target & 0xffff, bsel = in->target >> 16;
    EACH_LANE(t) {
        uint64_t ab = ptx_zext(SRC(1, t), 32) << 32 | ptx_zext(SRC(0, t), 32), cv = ptx_zext(SRC(2, t), 32);
        uint64_t r = in->op2 == SEC_ADD ? cv : 0;
        for (unsigned i = 0; i < n; i++) {
            int64_t va = part(ab >> (w * ((asel >> (4 * i)) & 0xf)), w == 8 ? 1 : 5, asg);
            int64_t vb = part(ab >> (w * ((bsel >> (4 * i)) & 0xf)), w == 8 ? 1 : 5, bsg);
            int64_t ti;
            if (in->op == V_AVRG)
                ti = va + vb >= 0 ? (va + vb + 1) >> 1 : (va + vb) >> 1;
            else
                ti = (int64_t)scalar_op(in->op, fl, va, vb);
            if (in->sat)
                ti = (int64_t)clamp_to(ti, w, dsg);
            bool on = (mask >> i) & 1;
            if (in->op2 == SEC_ADD)
                r += on ? (uint64_t)ti : 0;
            else
                r |= ptx_zext(on ? (uint64_t)ti : cv >> (w * i), w) << (w * i);
        }
        PUT(0, t, ptx_zext(r, 32));
    }
}

/* Source operand k (1..3) into slot k-1 without its selector; *comp and
 * *digits get the selector. neg_ok: the operand may be negated (vmad),
 * *neg says whether it is. */
static bool video_src(sim_decoder *d, unsigned k, ptx_component *comp, uint64_t *digits, bool neg_ok, bool *neg)
{
    if (k >= sim_dec_nops(d))
        return false;
    ptx_operand o = *sim_dec_op(d, k);
    *comp = (ptx_component)o.comp;
    *digits = (uint64_t)o.value;
    bool negated = o.kind == PTX_OPD_REG && (o.flags & PTX_OPF_NEG);
    if (negated && !neg_ok)
        return false;
    if (neg)
        *neg = negated;
    if (o.kind == PTX_OPD_REG) {
        o.comp = PTX_COMP_NONE;
        o.value = 0;
        o.flags &= (uint8_t)~PTX_OPF_NEG;
    } else if (o.comp != PTX_COMP_NONE) {
        return false;
    }
    if (k > d->in->nsrc_used)
        d->in->nsrc_used = (uint8_t)k;
    return sim_dec_value(d, &o, &d->in->src[k - 1]);
}

/* The destination without its selector; *comp and *digits get it. */
static bool video_dst(sim_decoder *d, ptx_component *comp, uint64_t *digits)
{
    ptx_operand o = *sim_dec_op(d, 0);
    *comp = (ptx_component)o.comp;
    *digits = (uint64_t)o.value;
    if (o.flags & PTX_OPF_NEG)
        return false;
    o.comp = PTX_COMP_NONE;
    o.value = 0;
    return sim_dec_dst_operand(d, &o, 0);
}

/* Is ty .u32 or .s32? */
static bool video_type(uint8_t ty) { return ty == PTX_TYPE_U32 || ty == PTX_TYPE_S32; }

/* A scalar source selector: none, .b0-.b3, .h0, .h1 (into *code). */
static bool scalar_sel(ptx_component c, unsigned *code)
{
    *code = sel_code(c);
    return c == PTX_COMP_NONE || *code != 0;
}

/* A SIMD source selector of n digits (.hxy / .bxyzw) or the default
 * (digits `dflt`) into *sel (element i's digit in nibble i). */
static bool simd_sel(ptx_component c, uint64_t digits, unsigned n, uint32_t dflt, uint32_t *sel)
{
    if (c == PTX_COMP_NONE) {
        *sel = dflt;
        return true;
    }
    if (c != (n == 2 ? PTX_COMP_HSEL : PTX_COMP_BSEL) || PTX_VSEL_COUNT(digits) != n)
        return false;
    *sel = (uint32_t)(digits & 0xffff);
    return true;
}

/* A SIMD destination mask (.h0 .h1 .h10; .b0 ... .b3210: digits
 * descending, each an element) or the default (all) into *mask. */
static bool simd_mask(ptx_component c, uint64_t digits, unsigned n, unsigned *mask)
{
    switch (c) {
    case PTX_COMP_NONE: *mask = (1u << n) - 1; return true;
    case PTX_COMP_H0: *mask = 1; return n == 2;
    case PTX_COMP_H1: *mask = 2; return n == 2;
    case PTX_COMP_B0: case PTX_COMP_B1: case PTX_COMP_B2: case PTX_COMP_B3:
        *mask = 1u << (c - PTX_COMP_B0);
        return n == 4;
    case PTX_COMP_HSEL: case PTX_COMP_BSEL: {
        if (c != (n == 2 ? PTX_COMP_HSEL : PTX_COMP_BSEL))
            return false;
        unsigned cnt = PTX_VSEL_COUNT(digits), prev = n;
        *mask = 0;
        for (unsigned i = cnt; i-- > 0;) { /* written order: first digit highest */
            unsigned dg = PTX_VSEL_DIGIT(digits, i);
            if (dg >= prev)
                return false;
            *mask |= 1u << dg;
            prev = dg;
        }
        return true;
    }
    default: return false;
    }
}

/* The video opcode as V_* and whether it is SIMD (2 or 4 elements). */
static bool video_op(ptx_opcode op, unsigned *v, unsigned *lanes)
{
    static const struct { ptx_opcode op; uint8_t v, lanes; } table[] = {
        {PTX_OP_VADD, V_ADD, 1}, {PTX_OP_VSUB, V_SUB, 1}, {PTX_OP_VABSDIFF, V_ABSDIFF, 1},
        {PTX_OP_VMIN, V_MIN, 1}, {PTX_OP_VMAX, V_MAX, 1}, {PTX_OP_VSHL, V_SHL, 1},
        {PTX_OP_VSHR, V_SHR, 1}, {PTX_OP_VSET, V_SET, 1}, {PTX_OP_VMAD, V_MAD, 1},
        {PTX_OP_VADD2, V_ADD, 2}, {PTX_OP_VSUB2, V_SUB, 2}, {PTX_OP_VAVRG2, V_AVRG, 2},
        {PTX_OP_VABSDIFF2, V_ABSDIFF, 2}, {PTX_OP_VMIN2, V_MIN, 2}, {PTX_OP_VMAX2, V_MAX, 2},
        {PTX_OP_VSET2, V_SET, 2}, {PTX_OP_VADD4, V_ADD, 4}, {PTX_OP_VSUB4, V_SUB, 4},
        {PTX_OP_VAVRG4, V_AVRG, 4}, {PTX_OP_VABSDIFF4, V_ABSDIFF, 4}, {PTX_OP_VMIN4, V_MIN, 4},
        {PTX_OP_VMAX4, V_MAX, 4}, {PTX_OP_VSET4, V_SET, 4},
    };
    for (size_t i = 0; i < sizeof table / sizeof *table; i++)
        if (table[i].op == op) {
            *v = table[i].v;
            *lanes = table[i].lanes;
            return true;
        }
    return false;
}

/* vset's compare as 0..5, or -1. */
static int video_cmp(ptx_modifier m)
{
    static const ptx_modifier cmps[] = {PTX_MOD_EQ, PTX_MOD_NE, PTX_MOD_LT, PTX_MOD_LE, PTX_MOD_GT, PTX_MOD_GE};
    for (int i = 0; i < 6; i++)
        if (cmps[i] == m)
            return i;
    return -1;
}

sim_fn sim_pick_video(sim_decoder *d)
{
    sim_inst *in = d->in;
    const ptx_form *fm = d->form;
    unsigned v, lanes;
    if (!video_op((ptx_opcode)fm->opcode, &v, &lanes))
        return NULL;
    in->op = (uint8_t)v;
    /* types: vset* name a and b; the others d, a and b */
    bool set = v == V_SET;
    unsigned nt = set ? 2 : 3;
    if (fm->ntypes != nt)
        return NULL;
    for (unsigned k = 0; k < nt; k++)
        if (!video_type(fm->type[k]))
            return NULL;
    uint32_t fl = 0;
    if (!set && type_signed(fm->type[0]))
        fl |= VF_DSIGNED;
    if (type_signed(fm->type[set ? 0 : 1]))
        fl |= VF_ASIGNED;
    if (type_signed(fm->type[set ? 1 : 2]))
        fl |= VF_BSIGNED;
    if ((v == V_SHL || v == V_SHR) && (fl & VF_BSIGNED))
        return NULL; /* the shift amount is .u32 */
    if (set) {
        int cmp = video_cmp(sim_dec_mod(d, PTX_MODCAT_CMP));
        if (cmp < 0 || in->sat)
            return NULL;
        fl |= (uint32_t)cmp << VF_CMP_SHIFT;
    }
    if (v == V_SHL || v == V_SHR) {
        ptx_modifier mode = sim_dec_mod(d, PTX_MODCAT_CLAMP);
        if (mode != PTX_MOD_CLAMP && mode != PTX_MOD_WRAP)
            return NULL;
        fl |= mode == PTX_MOD_WRAP ? VF_WRAP : 0;
    }
    if (sim_dec_mod(d, PTX_MODCAT_SAT) == PTX_MOD_SATFINITE)
        return NULL;
    ptx_modifier sec = sim_dec_mod(d, PTX_MODCAT_OP);
    in->op2 = sec == PTX_MOD_NONE ? SEC_NONE : sec == PTX_MOD_ADD ? SEC_ADD : sec == PTX_MOD_MIN ? SEC_MIN
              : sec == PTX_MOD_MAX ? SEC_MAX : 0xff;
    if (in->op2 == 0xff || (v == V_MAD && in->op2 != SEC_NONE))
        return NULL;
    unsigned nops = sim_dec_nops(d);
    ptx_component dc, ac, bc, cc;
    uint64_t dd, ad, bd, cd;
    bool an = false, bn = false, cn = false, mad = v == V_MAD;
    if (nops < 3 || nops > 4 || !video_dst(d, &dc, &dd) || !video_src(d, 1, &ac, &ad, mad, &an) ||
        !video_src(d, 2, &bc, &bd, mad, &bn) || (nops == 4 && !video_src(d, 3, &cc, &cd, mad, &cn)))
        return NULL;
    if (nops == 4 && cc != PTX_COMP_NONE)
        return NULL;
    if (lanes > 1) { /* SIMD: d{.mask}, a{.asel}, b{.bsel}, c */
        unsigned mask;
        uint32_t asel, bsel;
        if (nops != 4 || (in->op2 != SEC_NONE && in->op2 != SEC_ADD) || (in->op2 == SEC_ADD && in->sat) ||
            !simd_mask(dc, dd, lanes, &mask) || !simd_sel(ac, ad, lanes, lanes == 2 ? 0x10 : 0x3210, &asel) ||
            !simd_sel(bc, bd, lanes, lanes == 2 ? 0x32 : 0x7654, &bsel))
            return NULL;
        in->target = asel | bsel << 16;
        in->ntargets = fl | mask | (lanes == 4 ? VF_SIMD4 : 0);
        return op_video_simd;
    }
    unsigned asel, bsel, dsel;
    if (!scalar_sel(ac, &asel) || !scalar_sel(bc, &bsel) || !scalar_sel(dc, &dsel))
        return NULL;
    in->target = asel | bsel << 16;
    if (mad) { /* d, {-}a{.asel}, {-}b{.bsel}, {-}c, or .po without negations */
        bool po = ptx_form_has(d->m, fm, PTX_MOD_PO), pneg = an != bn;
        bool shr7 = ptx_form_has(d->m, fm, PTX_MOD_SHR7), shr15 = ptx_form_has(d->m, fm, PTX_MOD_SHR15);
        if (nops != 4 || dsel || (pneg && cn) || (po && (an || bn || cn)) || (shr7 && shr15))
            return NULL;
        in->ntargets = fl | (pneg ? VF_PNEG : 0) | (cn ? VF_CNEG : 0) | (po ? VF_PO : 0) |
                       (shr7 ? VF_SHR7 : 0) | (shr15 ? VF_SHR15 : 0);
        return op_vmad;
    }
    /* d, a, b; d, a, b, c with a secondary operation; d.dsel, a, b, c */
    if ((nops == 4) != (in->op2 != SEC_NONE || dsel != 0) || (dsel && in->op2 != SEC_NONE))
        return NULL;
    in->ntargets = fl | dsel;
    return op_video_scalar;
}
