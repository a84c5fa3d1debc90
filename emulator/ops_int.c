/* ops_int.c — integer and bit instructions (PTX ISA 9.0, "Integer
 * Arithmetic", "Logic and Shift" instructions).
 *
 * Values are handled in 64 bits: sources truncated (unsigned) or
 * sign-extended (signed) from the instruction's width w, results truncated
 * or sign-extended back from w. Where the low w bits of a result depend
 * only on the low w bits of the operands (add, sub, mul.lo, logic, shl)
 * one handler serves every width.
 *
 * The extension and division rules are shared with the analyzer
 * (ir/int_semantics.h). */
#include "emulator/ops.h"

/* Saturate a signed 64-bit value to 32 bits. */
static inline int64_t sat32(int64_t v) { return v > INT32_MAX ? INT32_MAX : v < INT32_MIN ? INT32_MIN : v; }

/* Carry flag row of the CTA. */
#define CC_ROW (c->fn->nregs + ROW_CC)

HANDLER(op_add)
{
    (void)g; (void)s;
    unsigned w = type_bits(in->type);
    bool sg = type_signed(in->type);
    if (w == 64) /* the common widths with a loop of their own */
        MAP_LANES(2, ARG(0) + ARG(1));
    else if (w == 32 && sg)
        MAP_LANES(2, (uint64_t)(int64_t)(int32_t)(uint32_t)(ARG(0) + ARG(1)));
    else if (w == 32)
        MAP_LANES(2, (uint32_t)(ARG(0) + ARG(1)));
    else
        EACH_LANE(t) PUT(0, t, ptx_ext(SRC(0, t) + SRC(1, t), w, sg));
}

HANDLER(op_sub)
{
    (void)g; (void)s;
    unsigned w = type_bits(in->type);
    bool sg = type_signed(in->type);
    EACH_LANE(t) PUT(0, t, ptx_ext(SRC(0, t) - SRC(1, t), w, sg));
}

/* add.sat.s32 / sub.sat.s32: clamp to the s32 range. */
HANDLER(op_add_sat)
{
    (void)g; (void)s;
    bool sub = in->op;
    EACH_LANE(t) {
        int64_t a = ptx_sext(SRC(0, t), 32), b = ptx_sext(SRC(1, t), 32);
        PUT(0, t, (uint64_t)sat32(sub ? a - b : a + b));
    }
}

/* add.cc, addc{.cc}, sub.cc, subc{.cc} (op: 0 add, 1 sub; op2: carry-in
 * used). The carry flag is the carry out of bit w of a w-bit addition.
 * Subtraction is done as NVIDIA GPUs do it, a + ~b + 1 (sub.cc) and
 * a + ~b + CF (subc), so after a subtraction CF = 1 means "no borrow":
 * sub.cc of 0x627adf75 - 0x864ccef5 leaves CF = 0, and an addc reading it
 * adds nothing, as recorded on NVIDIA hardware. The ISA's prose speaks of
 * a borrow; multi-word subtraction gives the same words either way, the
 * convention shows only when an add reads a flag a subtraction wrote. */
HANDLER(op_add_carry)
{
    (void)g; (void)s;
    unsigned w = type_bits(in->type);
    bool sub = in->op, cin = in->op2, cout = (in->flags & SIM_IF_CC) != 0;
    uint64_t *cc = sim_row(c, CC_ROW);
    EACH_LANE(t) {
        uint64_t a = ptx_zext(SRC(0, t), w), b = ptx_zext(SRC(1, t), w);
        uint64_t cf = cin ? cc[t] & 1 : sub; /* sub.cc: the + 1 of the two's complement */
        if (sub)
            b = ptx_zext(~b, w);
        unsigned __int128 r = (unsigned __int128)a + b + cf;
        PUT(0, t, ptx_ext((uint64_t)r, w, type_signed(in->type)));
        if (cout)
            cc[t] = (uint64_t)(r >> w) & 1; /* the carry out of bit w - 1 */
    }
}

/* The full 2w-bit product of a and b (signed or unsigned), as 128 bits. */
static inline unsigned __int128 wide_mul(uint64_t a, uint64_t b, unsigned w, bool sg)
{
    if (sg)
        return (unsigned __int128)((__int128)ptx_sext(a, w) * (__int128)ptx_sext(b, w));
    return (unsigned __int128)ptx_zext(a, w) * ptx_zext(b, w);
}

/* mul.lo and mad.lo without carry or saturation (op: 1 mad): the low w
 * bits of the product do not depend on signedness. */
HANDLER(op_mul_lo)
{
    (void)g; (void)s;
    unsigned w = type_bits(in->type);
    bool sg = type_signed(in->type);
    if (in->op) {
        EACH_LANE(t) PUT(0, t, ptx_ext(SRC(0, t) * SRC(1, t) + SRC(2, t), w, sg));
    } else {
        EACH_LANE(t) PUT(0, t, ptx_ext(SRC(0, t) * SRC(1, t), w, sg));
    }
}

/* mul.wide / mad.wide of 16- or 32-bit operands: the product fits 64 bits. */
HANDLER(op_mul_wide)
{
    (void)g; (void)s;
    unsigned w = type_bits(in->type);
    if (in->op && type_signed(in->type)) /* mad.wide */
        MAP_LANES(3, (uint64_t)(ptx_sext(ARG(0), w) * ptx_sext(ARG(1), w)) + ARG(2));
    else if (in->op)
        MAP_LANES(3, ptx_zext(ARG(0), w) * ptx_zext(ARG(1), w) + ARG(2));
    else if (type_signed(in->type))
        MAP_LANES(2, (uint64_t)(ptx_sext(ARG(0), w) * ptx_sext(ARG(1), w)));
    else
        MAP_LANES(2, ptx_zext(ARG(0), w) * ptx_zext(ARG(1), w));
}

/* The other mul/mad forms: .hi, saturation (mad.hi.sat.s32) and carries
 * (op: 1 mad; op2: madc's carry-in; SIM_IF_CC: carry-out), from the full
 * 2w-bit product. */
HANDLER(op_mul)
{
    (void)g; (void)s;
    unsigned w = type_bits(in->type);
    bool sg = type_signed(in->type), mad = in->op, hi = in->flags & SIM_IF_HI;
    bool cin = in->op2, cout = (in->flags & SIM_IF_CC) != 0;
    uint64_t *cc = (cin || cout) ? sim_row(c, CC_ROW) : NULL;
    EACH_LANE(t) {
        unsigned __int128 p = wide_mul(SRC(0, t), SRC(1, t), w, sg);
        uint64_t part = hi ? (uint64_t)(p >> w) : (uint64_t)p;
        if (!mad) {
            PUT(0, t, ptx_ext(part, w, sg));
            continue;
        }
        if (in->sat) { /* mad.hi.sat.s32: the 64-bit sum saturated */
            int64_t r = ptx_sext(part, 32) + ptx_sext(SRC(2, t), 32);
            PUT(0, t, (uint64_t)sat32(r));
            continue;
        }
        uint64_t cf = cin ? cc[t] & 1 : 0;
        unsigned __int128 r = (unsigned __int128)ptx_zext(part, w) + ptx_zext(SRC(2, t), w) + cf;
        PUT(0, t, ptx_ext((uint64_t)r, w, sg));
        if (cout)
            cc[t] = (uint64_t)(r >> w) & 1;
    }
}

/* mul24/mad24 .lo/.hi: 24-bit operands (low bits, signed or unsigned), the
 * 48-bit product; .lo its low 32 bits, .hi bits 47..16. mad24.hi.sat.s32
 * adds c to the signed bits 47..16 and clamps the sum to the s32 range. */
HANDLER(op_mul24)
{
    (void)g; (void)s;
    bool sg = type_signed(in->type), mad = in->op, hi = in->flags & SIM_IF_HI;
    EACH_LANE(t) {
        int64_t a = sg ? ptx_sext(SRC(0, t), 24) : (int64_t)ptx_zext(SRC(0, t), 24);
        int64_t b = sg ? ptx_sext(SRC(1, t), 24) : (int64_t)ptx_zext(SRC(1, t), 24);
        uint64_t p = (uint64_t)(a * b);
        uint64_t r = hi ? p >> 16 : p;
        if (in->sat)
            r = (uint64_t)sat32(ptx_sext(r, 32) + ptx_sext(SRC(2, t), 32));
        else if (mad)
            r += SRC(2, t);
        PUT(0, t, ptx_ext(r, 32, sg));
    }
}

/* sad: d = c + |a - b|. */
HANDLER(op_sad)
{
    (void)g; (void)s;
    unsigned w = type_bits(in->type);
    bool sg = type_signed(in->type);
    EACH_LANE(t) {
        uint64_t d;
        if (sg) {
            int64_t a = ptx_sext(SRC(0, t), w), b = ptx_sext(SRC(1, t), w);
            d = a > b ? (uint64_t)a - (uint64_t)b : (uint64_t)b - (uint64_t)a;
        } else {
            uint64_t a = ptx_zext(SRC(0, t), w), b = ptx_zext(SRC(1, t), w);
            d = a > b ? a - b : b - a;
        }
        PUT(0, t, ptx_ext(SRC(2, t) + d, w, sg));
    }
}

/* div / rem (op: 1 rem): ir/int_semantics.h has the rules. */
HANDLER(op_div)
{
    (void)g; (void)s;
    unsigned w = type_bits(in->type);
    bool sg = type_signed(in->type), rem = in->op;
    EACH_LANE(t) PUT(0, t, ptx_int_div(SRC(0, t), SRC(1, t), w, sg, rem));
}

/* abs / neg (op: 1 neg) on integers; the most negative value maps to
 * itself. */
HANDLER(op_abs_neg)
{
    (void)g; (void)s;
    unsigned w = type_bits(in->type);
    bool neg = in->op;
    EACH_LANE(t) {
        int64_t a = ptx_sext(SRC(0, t), w);
        uint64_t r = neg ? 0 - (uint64_t)a : a < 0 ? 0 - (uint64_t)a : (uint64_t)a;
        PUT(0, t, ptx_ext(r, w, true));
    }
}

/* min / max (op: 1 max) on integers. */
HANDLER(op_minmax)
{
    (void)g; (void)s;
    unsigned w = type_bits(in->type);
    bool sg = type_signed(in->type), max = in->op;
    EACH_LANE(t) {
        uint64_t r;
        if (sg) {
            int64_t a = ptx_sext(SRC(0, t), w), b = ptx_sext(SRC(1, t), w);
            r = (uint64_t)(max ? (a > b ? a : b) : (a < b ? a : b));
        } else {
            uint64_t a = ptx_zext(SRC(0, t), w), b = ptx_zext(SRC(1, t), w);
            r = max ? (a > b ? a : b) : (a < b ? a : b);
        }
        PUT(0, t, ptx_ext(r, w, sg));
    }
}

/* and / or / xor (op 0, 1, 2), not (3), cnot (4): bitwise on any width,
 * predicates included (results are truncated to the destination). */
HANDLER(op_logic)
{
    (void)g; (void)s;
    unsigned w = type_bits(in->type);
    switch (in->op) { /* a loop per operation */
    case 0: MAP_LANES(2, ptx_zext(ARG(0) & ARG(1), w)); break;
    case 1: MAP_LANES(2, ptx_zext(ARG(0) | ARG(1), w)); break;
    case 2: MAP_LANES(2, ptx_zext(ARG(0) ^ ARG(1), w)); break;
    case 3: MAP_LANES(1, ptx_zext(~ARG(0), w)); break;
    default: EACH_LANE(t) PUT(0, t, ptx_zext(SRC(0, t), w) == 0); break;
    }
}

/* shl / shr (op: 1 shr): shift amounts are unsigned 32-bit values and
 * amounts of the width or more give 0, or the sign fill for shr.sN. */
HANDLER(op_shift)
{
    (void)g; (void)s;
    unsigned w = type_bits(in->type);
    bool sg = type_signed(in->type), right = in->op;
    EACH_LANE(t) {
        uint64_t n = ptx_zext(SRC(1, t), 32), r;
        if (!right)
            r = n >= w ? 0 : SRC(0, t) << n;
        else if (sg)
            r = (uint64_t)(ptx_sext(SRC(0, t), w) >> (n >= w ? w - 1 : n));
        else
            r = n >= w ? 0 : ptx_zext(SRC(0, t), w) >> n;
        PUT(0, t, ptx_ext(r, w, sg));
    }
}

/* popc, clz, brev, bfind (op 0..3; bfind: op2 = .shiftamt). popc and clz
 * write a u32 whatever the source width. */
HANDLER(op_bits)
{
    (void)g; (void)s;
    unsigned w = type_bits(in->type);
    bool sg = type_signed(in->type);
    EACH_LANE(t) {
        uint64_t a = ptx_zext(SRC(0, t), w), r = 0;
        switch (in->op) {
        case 0: r = (uint64_t)__builtin_popcountll(a); break;
        case 1: r = a == 0 ? w : (uint64_t)__builtin_clzll(a) - (64 - w); break;
        case 2:
            for (unsigned i = 0; i < w; i++)
                r |= ((a >> i) & 1) << (w - 1 - i);
            break;
        default: {
            /* the most significant non-sign bit; 0xffffffff when none */
            uint64_t v = sg && (a >> (w - 1)) ? ptx_zext(~a, w) : a;
            if (v == 0)
                r = 0xffffffffu;
            else {
                unsigned pos = 63 - (unsigned)__builtin_clzll(v);
                r = in->op2 ? w - 1 - pos : pos;
            }
            break;
        }
        }
        PUT(0, t, in->op == 2 ? r : ptx_zext(r, 32));
    }
}

/* bfe: extract len bits at pos (each the low 8 bits of its operand),
 * zero- or sign-extended (the sign is the last extracted bit, or the
 * source's sign bit when the field starts past the end). */
HANDLER(op_bfe)
{
    (void)g; (void)s;
    unsigned w = type_bits(in->type);
    bool sg = type_signed(in->type);
    EACH_LANE(t) {
        uint64_t a = ptx_zext(SRC(0, t), w);
        unsigned pos = (unsigned)(SRC(1, t) & 0xff), len = (unsigned)(SRC(2, t) & 0xff);
        uint64_t r = 0;
        bool sbit = false;
        if (sg) {
            unsigned top = pos + len - 1;
            sbit = len == 0 ? false : (top >= w ? (a >> (w - 1)) & 1 : (a >> top) & 1);
        }
        for (unsigned i = 0; i < w; i++) {
            uint64_t bit = i < len && pos + i < w ? (a >> (pos + i)) & 1 : sbit;
            r |= bit << i;
        }
        PUT(0, t, ptx_ext(r, w, sg));
    }
}

/* bfi: insert the low len bits of a into b at pos. */
HANDLER(op_bfi)
{
    (void)g; (void)s;
    unsigned w = type_bits(in->type);
    EACH_LANE(t) {
        uint64_t a = SRC(0, t), r = ptx_zext(SRC(1, t), w);
        unsigned pos = (unsigned)(SRC(2, t) & 0xff), len = (unsigned)(SRC(3, t) & 0xff);
        for (unsigned i = 0; i < len && pos + i < w; i++)
            r = (r & ~(1ull << (pos + i))) | (((a >> i) & 1) << (pos + i));
        PUT(0, t, r);
    }
}

/* prmt.b32 (op: mode 0 default, 1 f4e, 2 b4e, 3 rc8, 4 ecl, 5 ecr, 6 rc16). */
HANDLER(op_prmt)
{
    (void)g; (void)s;
    EACH_LANE(t) {
        uint64_t a = ptx_zext(SRC(0, t), 32), b = ptx_zext(SRC(1, t), 32), sel = SRC(2, t);
        uint64_t x = b << 32 | a; /* bytes 0..7 */
        uint8_t byte[8];
        for (int i = 0; i < 8; i++)
            byte[i] = (uint8_t)(x >> (8 * i));
        unsigned ctl[4];
        unsigned s2 = (unsigned)(sel & 3);
        switch (in->op) {
        case 0:
            for (int i = 0; i < 4; i++)
                ctl[i] = (unsigned)(sel >> (4 * i)) & 0xf;
            break;
        case 1: for (int i = 0; i < 4; i++) ctl[i] = (s2 + (unsigned)i) & 7; break;
        case 2: for (int i = 0; i < 4; i++) ctl[i] = (s2 + 8 - (unsigned)i) & 7; break;
        case 3: for (int i = 0; i < 4; i++) ctl[i] = s2; break;
        case 4: {
            static const unsigned t4[4][4] = {{0, 1, 2, 3}, {1, 1, 2, 3}, {2, 2, 2, 3}, {3, 3, 3, 3}};
            for (int i = 0; i < 4; i++) ctl[i] = t4[s2][i];
            break;
        }
        case 5: {
            static const unsigned t5[4][4] = {{0, 0, 0, 0}, {0, 1, 1, 1}, {0, 1, 2, 2}, {0, 1, 2, 3}};
            for (int i = 0; i < 4; i++) ctl[i] = t5[s2][i];
            break;
        }
        default: {
            unsigned h = (unsigned)(sel & 1) * 2;
            ctl[0] = h; ctl[1] = h + 1; ctl[2] = h; ctl[3] = h + 1;
            break;
        }
        }
        uint64_t r = 0;
        for (int i = 0; i < 4; i++) {
            unsigned cl = ctl[i];
            uint8_t v = byte[cl & 7];
            if (in->op == 0 && (cl & 8)) /* replicate the sign bit of the byte */
                v = (v & 0x80) ? 0xff : 0;
            r |= (uint64_t)v << (8 * i);
        }
        PUT(0, t, r);
    }
}

/* lop3.b32 d, a, b, c, immLut: each result bit is bit (a<<2|b<<1|c)
 * of the lookup table. lop3.BoolOp.b32 d|p, a, b, c, immLut, q (op2: 1
 * .and, 2 .or) also writes p = (d != 0) BoolOp q. */
HANDLER(op_lop3)
{
    (void)g; (void)s;
    EACH_LANE(t) {
        uint64_t a = SRC(0, t), b = SRC(1, t), cc = SRC(2, t), lut = SRC(3, t), r = 0;
        for (int k = 0; k < 8; k++)
            if ((lut >> k) & 1) {
                uint64_t m = ((k & 4) ? a : ~a) & ((k & 2) ? b : ~b) & ((k & 1) ? cc : ~cc);
                r |= m;
            }
        r = ptx_zext(r, 32);
        PUT(0, t, r);
        if (in->op2) {
            bool q = SRC(4, t) != 0;
            PUT(1, t, in->op2 == 1 ? (r != 0 && q) : (r != 0 || q));
        }
    }
}

/* shf.l / shf.r (op: 1 right) .clamp / .wrap (op2: 1 wrap): funnel
 * shift of the 64-bit value b:a. */
HANDLER(op_shf)
{
    (void)g; (void)s;
    EACH_LANE(t) {
        uint64_t x = ptx_zext(SRC(1, t), 32) << 32 | ptx_zext(SRC(0, t), 32);
        uint64_t n = ptx_zext(SRC(2, t), 32);
        n = in->op2 ? n & 31 : (n > 32 ? 32 : n);
        uint64_t r = in->op ? x >> n : (x << n) >> 32;
        PUT(0, t, ptx_zext(r, 32));
    }
}

/* dp4a / dp2a (op: 1 dp2a; op2: dp2a .hi): dot products of bytes (or
 * halves with bytes) with the accumulator c; type = a's, type2 = b's. */
HANDLER(op_dp)
{
    (void)g; (void)s;
    bool sa = type_signed(in->type), sb = type_signed(in->type2);
    EACH_LANE(t) {
        uint64_t a = SRC(0, t), b = SRC(1, t);
        int64_t acc = (sa || sb) ? ptx_sext(SRC(2, t), 32) : (int64_t)ptx_zext(SRC(2, t), 32);
        if (!in->op) {
            for (int i = 0; i < 4; i++) {
                int64_t x = sa ? ptx_sext(a >> (8 * i), 8) : (int64_t)ptx_zext(a >> (8 * i), 8);
                int64_t y = sb ? ptx_sext(b >> (8 * i), 8) : (int64_t)ptx_zext(b >> (8 * i), 8);
                acc += x * y;
            }
        } else {
            unsigned base = in->op2 ? 2 : 0;
            for (int i = 0; i < 2; i++) {
                int64_t x = sa ? ptx_sext(a >> (16 * i), 16) : (int64_t)ptx_zext(a >> (16 * i), 16);
                int64_t y = sb ? ptx_sext(b >> (8 * (base + (unsigned)i)), 8)
                               : (int64_t)ptx_zext(b >> (8 * (base + (unsigned)i)), 8);
                acc += x * y;
            }
        }
        PUT(0, t, ptx_zext((uint64_t)acc, 32));
    }
}

/* fns.b32 d, mask, base, offset: the offset-th set bit of mask counting
 * from base (upward for a positive offset, downward for a negative one;
 * offset 0: base itself if set), 0xffffffff when there is none. */
HANDLER(op_fns)
{
    (void)g; (void)s;
    EACH_LANE(t) {
        uint32_t mask = (uint32_t)SRC(0, t);
        int32_t pos = (int32_t)(uint32_t)SRC(1, t), off = (int32_t)(uint32_t)SRC(2, t);
        uint32_t d = 0xffffffffu;
        if (off == 0) {
            if (pos >= 0 && pos < 32 && ((mask >> pos) & 1))
                d = (uint32_t)pos;
        } else {
            int64_t count = off > 0 ? (int64_t)off - 1 : -(int64_t)off - 1;
            int inc = off > 0 ? 1 : -1;
            for (; pos >= 0 && pos < 32; pos += inc)
                if ((mask >> pos) & 1) {
                    if (count == 0) {
                        d = (uint32_t)pos;
                        break;
                    }
                    count--;
                }
        }
        PUT(0, t, d);
    }
}

/* bmsk.clamp / bmsk.wrap (op: 1 wrap) .b32 d, a, b: a mask of b bits
 * starting at bit a, computed as the ISA's pseudo-code states: a1 = a & 31,
 * b1 = b & 31; zero when a1 + b1 reaches 32 or b1 is 0; with .clamp, a of
 * 32 or more gives 0 and b of 32 or more gives every bit from a1 up. */
HANDLER(op_bmsk)
{
    (void)g; (void)s;
    bool wrap = in->op;
    EACH_LANE(t) {
        uint32_t a = (uint32_t)SRC(0, t), b = (uint32_t)SRC(1, t);
        uint32_t a1 = a & 31, b1 = b & 31, sum = a1 + b1;
        uint32_t mask0 = ~0u << a1;
        bool pos_over = !wrap && a >= 32, width_over = !wrap && b >= 32;
        if (pos_over)
            mask0 = 0;
        uint32_t mask1;
        if (sum >= 32 || pos_over || width_over)
            mask1 = 0;
        else if (b1 == 0)
            mask1 = ~0u;
        else
            mask1 = ~0u << sum;
        PUT(0, t, mask0 & ~mask1);
    }
}

/* szext.clamp / szext.wrap (op: 1 wrap) .u32 / .s32 (op2: 1 s32) d, a, b:
 * the low b bits of a, zero- or sign-extended to 32 bits, computed as the
 * ISA's pseudo-code states: b1 = b & 31; with .clamp, b of 32 or more keeps
 * a whole; otherwise mask = ~0 << b1, and b1 = 0 (b = 32 with .wrap
 * included) gives 0; .s32 fills the mask with bit b1 - 1 of a. */
HANDLER(op_szext)
{
    (void)g; (void)s;
    bool wrap = in->op, sgn = in->op2;
    EACH_LANE(t) {
        uint32_t a = (uint32_t)SRC(0, t), b = (uint32_t)SRC(1, t);
        uint32_t b1 = b & 31;
        bool too_large = b >= 32 && !wrap;
        uint32_t mask = too_large ? 0 : ~0u << b1;
        bool sign_bit = b1 != 0 && !too_large && sgn && ((a >> ((b1 - 1) & 31)) & 1);
        uint32_t d = (a & ~mask) | (sign_bit ? mask : 0);
        PUT(0, t, sgn ? (uint64_t)(int64_t)(int32_t)d : d);
    }
}

/* The lean forms (ops.h, LEAN_WIDTHS) of add, sub, mul.lo, and, or, xor,
 * shl and shr: the same results as op_add, op_sub, op_mul_lo, op_logic
 * and op_shift at a fixed width and signedness. */
static inline uint64_t lean_add(uint64_t a, uint64_t b, unsigned w, bool sg) { return ptx_ext(a + b, w, sg); }
static inline uint64_t lean_sub(uint64_t a, uint64_t b, unsigned w, bool sg) { return ptx_ext(a - b, w, sg); }
static inline uint64_t lean_mul(uint64_t a, uint64_t b, unsigned w, bool sg) { return ptx_ext(a * b, w, sg); }
static inline uint64_t lean_and(uint64_t a, uint64_t b, unsigned w, bool sg) { return (void)sg, ptx_zext(a & b, w); }
static inline uint64_t lean_or(uint64_t a, uint64_t b, unsigned w, bool sg) { return (void)sg, ptx_zext(a | b, w); }
static inline uint64_t lean_xor(uint64_t a, uint64_t b, unsigned w, bool sg) { return (void)sg, ptx_zext(a ^ b, w); }
static inline uint64_t lean_shl(uint64_t a, uint64_t b, unsigned w, bool sg)
{
    uint64_t n = ptx_zext(b, 32);
    return n >= w ? 0 : ptx_ext(a << n, w, sg);
}
static inline uint64_t lean_shr(uint64_t a, uint64_t b, unsigned w, bool sg)
{
    uint64_t n = ptx_zext(b, 32);
    if (sg)
        return ptx_ext((uint64_t)(ptx_sext(a, w) >> (n >= w ? w - 1 : n)), w, sg);
    return n >= w ? 0 : ptx_zext(a, w) >> n;
}
LEAN_WIDTHS(add, lean_add)
LEAN_WIDTHS(sub, lean_sub)
LEAN_WIDTHS(mul, lean_mul)
LEAN_WIDTHS(and, lean_and)
LEAN_WIDTHS(or, lean_or)
LEAN_WIDTHS(xor, lean_xor)
LEAN_WIDTHS(shl, lean_shl)
LEAN_WIDTHS(shr, lean_shr)

/* The lean handler of `in` from table tab, else the general handler fn. */
static sim_fn lean_or_general(const sim_inst *in, const sim_fn tab[4][2], sim_fn fn)
{
    sim_fn f = lean_pick_width(in, in->type, tab);
    return f ? f : fn;
}

/* The width modifier of a form as SIM_IF_* flags. */
static uint8_t width_flags(const sim_decoder *d)
{
    ptx_modifier wm = sim_dec_mod(d, PTX_MODCAT_WIDTH);
    return wm == PTX_MOD_HI ? SIM_IF_HI : wm == PTX_MOD_WIDE ? SIM_IF_WIDE : 0;
}

/* Decode d = op(a, b[, c[, e]]) with n sources. */
static bool operands(sim_decoder *d, unsigned n)
{
    if (sim_dec_nops(d) != n + 1 || !sim_dec_dst(d, 0, 0))
        return false;
    for (unsigned k = 0; k < n; k++)
        if (!sim_dec_src(d, k + 1, k))
            return false;
    return true;
}

sim_fn sim_pick_int(sim_decoder *d)
{
    sim_inst *in = d->in;
    ptx_opcode op = (ptx_opcode)d->form->opcode;
    char cls = ptx_type_class((ptx_type)in->type);
    if (cls == 'f' || (in->type == PTX_TYPE_NONE && op != PTX_OP_PRMT && op != PTX_OP_LOP3))
        return NULL;
    bool cc = sim_dec_mod(d, PTX_MODCAT_CC) == PTX_MOD_CC;
    if (d->form->ntypes > 0 && ptx_type_bits((ptx_type)in->type) > 64)
        return NULL;
    switch (op) {
    case PTX_OP_ADD: case PTX_OP_SUB:
        if (!operands(d, 2))
            return NULL;
        in->op = op == PTX_OP_SUB;
        if (cc) {
            in->flags |= SIM_IF_CC;
            return op_add_carry;
        }
        if (in->sat)
            return in->type == PTX_TYPE_S32 ? op_add_sat : NULL;
        return in->op ? lean_or_general(in, sub_lean, op_sub) : lean_or_general(in, add_lean, op_add);
    case PTX_OP_ADD_CC: case PTX_OP_SUB_CC:
        if (!operands(d, 2))
            return NULL;
        in->op = op == PTX_OP_SUB_CC;
        in->flags |= SIM_IF_CC;
        return op_add_carry;
    case PTX_OP_ADDC: case PTX_OP_SUBC:
        if (!operands(d, 2))
            return NULL;
        in->op = op == PTX_OP_SUBC;
        in->op2 = 1;
        in->flags |= cc ? SIM_IF_CC : 0;
        return op_add_carry;
    case PTX_OP_MUL: case PTX_OP_MAD: case PTX_OP_MADC:
        if (!operands(d, op == PTX_OP_MUL ? 2 : 3))
            return NULL;
        in->op = op != PTX_OP_MUL;
        in->op2 = op == PTX_OP_MADC;
        in->flags |= width_flags(d) | (cc ? SIM_IF_CC : 0);
        if ((in->flags & SIM_IF_WIDE) && type_bits(in->type) > 32)
            return NULL;
        if (in->sat && !(in->type == PTX_TYPE_S32 && (in->flags & SIM_IF_HI)))
            return NULL;
        if (in->flags & SIM_IF_WIDE)
            return op_mul_wide;
        if (!(in->flags & (SIM_IF_HI | SIM_IF_CC)) && !in->op2 && !in->sat)
            return in->op ? op_mul_lo : lean_or_general(in, mul_lean, op_mul_lo);
        return op_mul;
    case PTX_OP_MUL24: case PTX_OP_MAD24:
        if (!operands(d, op == PTX_OP_MUL24 ? 2 : 3))
            return NULL;
        in->op = op == PTX_OP_MAD24;
        in->flags |= width_flags(d);
        if (in->sat && !(in->op && in->type == PTX_TYPE_S32 && (in->flags & SIM_IF_HI)))
            return NULL; /* .sat: mad24.hi.s32 only */
        return op_mul24;
    case PTX_OP_SAD:
        return operands(d, 3) ? op_sad : NULL;
    case PTX_OP_DIV: case PTX_OP_REM:
        if (!operands(d, 2))
            return NULL;
        in->op = op == PTX_OP_REM;
        return op_div;
    case PTX_OP_ABS: case PTX_OP_NEG:
        if (!operands(d, 1) || !type_signed(in->type))
            return NULL;
        in->op = op == PTX_OP_NEG;
        return op_abs_neg;
    case PTX_OP_MIN: case PTX_OP_MAX:
        if (!operands(d, 2) || sim_dec_mod(d, PTX_MODCAT_RELU) != PTX_MOD_NONE)
            return NULL;
        in->op = op == PTX_OP_MAX;
        return op_minmax;
    case PTX_OP_AND: case PTX_OP_OR: case PTX_OP_XOR:
        if (!operands(d, 2))
            return NULL;
        in->op = op == PTX_OP_AND ? 0 : op == PTX_OP_OR ? 1 : 2;
        return lean_or_general(in, in->op == 0 ? and_lean : in->op == 1 ? or_lean : xor_lean, op_logic);
    case PTX_OP_NOT: case PTX_OP_CNOT:
        if (!operands(d, 1))
            return NULL;
        in->op = op == PTX_OP_NOT ? 3 : 4;
        return op_logic;
    case PTX_OP_SHL: case PTX_OP_SHR:
        if (!operands(d, 2))
            return NULL;
        in->op = op == PTX_OP_SHR;
        return lean_or_general(in, in->op ? shr_lean : shl_lean, op_shift);
    case PTX_OP_POPC: case PTX_OP_CLZ: case PTX_OP_BREV: case PTX_OP_BFIND:
        if (!operands(d, 1))
            return NULL;
        in->op = op == PTX_OP_POPC ? 0 : op == PTX_OP_CLZ ? 1 : op == PTX_OP_BREV ? 2 : 3;
        in->op2 = ptx_form_has(d->m, d->form, PTX_MOD_SHIFTAMT);
        return op_bits;
    case PTX_OP_BFE:
        return operands(d, 3) ? op_bfe : NULL;
    case PTX_OP_BFI:
        return operands(d, 4) ? op_bfi : NULL;
    case PTX_OP_PRMT: {
        if (!operands(d, 3))
            return NULL;
        static const ptx_modifier modes[] = {PTX_MOD_NONE, PTX_MOD_F4E, PTX_MOD_B4E, PTX_MOD_RC8,
                                             PTX_MOD_ECL, PTX_MOD_ECR, PTX_MOD_RC16};
        ptx_modifier mm = sim_dec_mod(d, PTX_MODCAT_MODE);
        for (uint8_t i = 0; i < 7; i++)
            if (modes[i] == mm) {
                in->op = i;
                return op_prmt;
            }
        return NULL;
    }
    case PTX_OP_LOP3: {
        ptx_modifier bm = sim_dec_mod(d, PTX_MODCAT_OP);
        if (in->type != PTX_TYPE_B32)
            return NULL;
        if (bm == PTX_MOD_NONE)
            return operands(d, 4) ? op_lop3 : NULL;
        /* d|p, a, b, c, immLut, q */
        in->op2 = bm == PTX_MOD_AND ? 1 : bm == PTX_MOD_OR ? 2 : 0;
        if (!in->op2 || sim_dec_nops(d) != 6 || sim_dec_op(d, 0)->kind != PTX_OPD_PAIR || !sim_dec_dst(d, 0, 0))
            return NULL;
        for (unsigned k = 0; k < 5; k++)
            if (!sim_dec_src(d, k + 1, k))
                return NULL;
        return op_lop3;
    }
    case PTX_OP_SHF: {
        if (!operands(d, 3))
            return NULL;
        ptx_modifier mm = sim_dec_mod(d, PTX_MODCAT_MODE);
        in->op = mm == PTX_MOD_R;
        in->op2 = sim_dec_mod(d, PTX_MODCAT_CLAMP) == PTX_MOD_WRAP;
        return op_shf;
    }
    case PTX_OP_FNS:
        return operands(d, 3) ? op_fns : NULL;
    case PTX_OP_BMSK: {
        ptx_modifier mm = sim_dec_mod(d, PTX_MODCAT_CLAMP);
        if ((mm != PTX_MOD_CLAMP && mm != PTX_MOD_WRAP) || in->type != PTX_TYPE_B32 || !operands(d, 2))
            return NULL;
        in->op = mm == PTX_MOD_WRAP;
        return op_bmsk;
    }
    case PTX_OP_SZEXT: {
        ptx_modifier mm = sim_dec_mod(d, PTX_MODCAT_CLAMP);
        if ((mm != PTX_MOD_CLAMP && mm != PTX_MOD_WRAP) || (in->type != PTX_TYPE_U32 && in->type != PTX_TYPE_S32) ||
            !operands(d, 2))
            return NULL;
        in->op = mm == PTX_MOD_WRAP;
        in->op2 = in->type == PTX_TYPE_S32;
        return op_szext;
    }
    case PTX_OP_DP4A: case PTX_OP_DP2A:
        if (!operands(d, 3))
            return NULL;
        in->op = op == PTX_OP_DP2A;
        in->op2 = op == PTX_OP_DP2A && sim_dec_mod(d, PTX_MODCAT_WIDTH) == PTX_MOD_HI;
        return op_dp;
    default:
        return NULL;
    }
}
