/* test_emu_video.c — the video instructions, bit-exact against the PTX
 * ISA 9.0 pseudo-code, written out again here:
 *
 * Scalar (vadd vsub vabsdiff vmin vmax vshl vshr vset): ta/tb =
 * partSelectSignExtend(a/b, type, sel); the primary operation on those
 * (exact integers); optSaturate by the destination type at the width of
 * the destination selector (S8/U8 for .b0-.b3, S16/U16 for .h0/.h1, S32/U32
 * otherwise); then optSecOp (.add, .min, .max with c extended by the
 * destination type; vset's c unsigned) or optMerge (the ISA's table of
 * masks) and the low 32 bits. vshl's ta << tb is taken as the exact value
 * (the ISA gives it no width).
 *
 * vmad: its pseudo-code line by line (128-bit product, ~ for negation with
 * lsb = 1, .po, sext32/zext of c, the 64-bit result, .shr7/.shr15, CLAMP).
 *
 * SIMD (vadd2 ... vset4): elements chosen by .hxy / .bxyzw among the
 * half-words / bytes of {b, a} (digits for the highest element first),
 * extended by the operand's type, the operation (vavrg rounding half away
 * from zero as its pseudo-code), CLAMP to S16/U16 or S8/U8 with .sat, then
 * the mask's elements replace c's (merge) or are added to c (.add).
 *
 * Every form is run with edge values in every byte (0, 1, 0x7f, 0x80, 0xff
 * ...) and random words; each secondary operation, merge selector, mask,
 * source selector, type combination and .sat appear. A few results are
 * also worked out by hand. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "emulator/tests/op_test.h"
#include "ir/printer.h"

enum { N = 512 };

/* ---- inputs ------------------------------------------------------------ */

static uint32_t in_a[N], in_b[N], in_c[N], in_s[N], out[N];

/* Every pair of sixteen edge words (edge values in each byte and half)
 * for a and b, then random words; c mixes edges and random words; in_s
 * holds shift amounts (0..40 in every byte, or random words). */
static void make_inputs(void)
{
    static const uint32_t edges[] = {0,          1,          0x7f,       0x80,       0xff,       0x7fff,
                                     0x8000,     0xffff,     0x7fffffff, 0x80000000, 0xffffffff, 0x80ff7f01,
                                     0x017f80ff, 0xfffe0002, 0x00018000, 0x7f7f8080};
    uint64_t seed = 2024;
    for (unsigned i = 0; i < N; i++) {
        uint64_t r = emu_rand(&seed);
        in_a[i] = i < 256 ? edges[i % 16] : (uint32_t)r;
        in_b[i] = i < 256 ? edges[i / 16] : (uint32_t)(r >> 32);
        in_c[i] = i % 3 == 0 ? edges[(i * 7) % 16] : (uint32_t)emu_rand(&seed);
        in_s[i] = i % 2 ? (i % 41) * 0x01010101u : (uint32_t)emu_rand(&seed);
    }
}

/* ---- scalar reference -------------------------------------------------- */

/* partSelectSignExtend: "" (the word), "b0".."b3", "h0", "h1". */
static int64_t select_part(uint32_t x, const char *sel, bool sg)
{
    if (!sel[0])
        return sg ? (int64_t)(int32_t)x : (int64_t)x;
    unsigned k = (unsigned)(sel[1] - '0');
    if (sel[0] == 'b') {
        uint8_t v = (uint8_t)(x >> (8 * k));
        return sg ? (int64_t)(int8_t)v : (int64_t)v;
    }
    uint16_t v = (uint16_t)(x >> (16 * k));
    return sg ? (int64_t)(int16_t)v : (int64_t)v;
}

static __int128 clamp128(__int128 v, __int128 lo, __int128 hi) { return v < lo ? lo : v > hi ? hi : v; }

/* optSaturate for dsel ("" for none). */
static __int128 opt_saturate(__int128 tmp, bool sat, bool sign, const char *dsel)
{
    if (!sat)
        return tmp;
    if (dsel[0] == 'b')
        return sign ? clamp128(tmp, INT8_MIN, INT8_MAX) : clamp128(tmp, 0, UINT8_MAX);
    if (dsel[0] == 'h')
        return sign ? clamp128(tmp, INT16_MIN, INT16_MAX) : clamp128(tmp, 0, UINT16_MAX);
    return sign ? clamp128(tmp, INT32_MIN, INT32_MAX) : clamp128(tmp, 0, UINT32_MAX);
}

/* optMerge, the ISA's table. */
static uint32_t opt_merge(const char *dsel, uint32_t tmp, uint32_t c)
{
    if (!strcmp(dsel, "h0")) return (tmp & 0xffff) | (0xffff0000u & c);
    if (!strcmp(dsel, "h1")) return ((tmp & 0xffff) << 16) | (0x0000ffffu & c);
    if (!strcmp(dsel, "b0")) return (tmp & 0xff) | (0xffffff00u & c);
    if (!strcmp(dsel, "b1")) return ((tmp & 0xff) << 8) | (0xffff00ffu & c);
    if (!strcmp(dsel, "b2")) return ((tmp & 0xff) << 16) | (0xff00ffffu & c);
    if (!strcmp(dsel, "b3")) return ((tmp & 0xff) << 24) | (0x00ffffffu & c);
    return tmp;
}

typedef struct scalar_form {
    const char *op;     /* vadd vsub vabsdiff vmin vmax vshl vshr vset */
    bool dsg, asg, bsg; /* .s32 (else .u32); vset has no dtype */
    const char *asel, *bsel, *dsel; /* "" or b0..b3/h0/h1 */
    const char *sec;    /* "", "add", "min", "max" */
    bool sat;
    const char *mode;   /* vshl/vshr: "clamp" or "wrap"; vset: the compare */
} scalar_form;

static bool vcmp(const char *cmp, int64_t a, int64_t b)
{
    if (!strcmp(cmp, "eq")) return a == b;
    if (!strcmp(cmp, "ne")) return a != b;
    if (!strcmp(cmp, "lt")) return a < b;
    if (!strcmp(cmp, "le")) return a <= b;
    if (!strcmp(cmp, "gt")) return a > b;
    return a >= b;
}

static uint32_t scalar_ref(const scalar_form *f, uint32_t a, uint32_t b, uint32_t c)
{
    bool set = !strcmp(f->op, "vset"), shift = f->op[1] == 's' && f->op[2] == 'h';
    int64_t ta = select_part(a, f->asel, f->asg), tb = select_part(b, f->bsel, shift ? false : f->bsg);
    __int128 tmp;
    if (!strcmp(f->op, "vadd")) tmp = (__int128)ta + tb;
    else if (!strcmp(f->op, "vsub")) tmp = (__int128)ta - tb;
    else if (!strcmp(f->op, "vabsdiff")) tmp = ta > tb ? (__int128)ta - tb : (__int128)tb - ta;
    else if (!strcmp(f->op, "vmin")) tmp = ta < tb ? ta : tb;
    else if (!strcmp(f->op, "vmax")) tmp = ta > tb ? ta : tb;
    else if (set) tmp = vcmp(f->mode, ta, tb) ? 1 : 0;
    else {
        int64_t n = tb;
        if (!strcmp(f->mode, "clamp") && n > 32) n = 32;
        if (!strcmp(f->mode, "wrap")) n &= 0x1f;
        __int128 p = 1;
        for (int64_t i = 0; i < n; i++)
            p *= 2;
        if (!strcmp(f->op, "vshl"))
            tmp = (__int128)ta * p;
        else /* an exact quotient rounded toward minus infinity: the arithmetic shift */
            tmp = ta >= 0 ? ta / p : -((-(__int128)ta + p - 1) / p);
    }
    bool dsg = set ? false : f->dsg;
    tmp = opt_saturate(tmp, f->sat, dsg, f->dsel);
    int64_t cv = dsg ? (int64_t)(int32_t)c : (int64_t)c;
    __int128 d = tmp;
    if (!strcmp(f->sec, "add")) d = tmp + cv;
    else if (!strcmp(f->sec, "min")) d = tmp < cv ? tmp : cv;
    else if (!strcmp(f->sec, "max")) d = tmp > cv ? tmp : cv;
    else if (f->dsel[0]) d = opt_merge(f->dsel, (uint32_t)tmp, c);
    return (uint32_t)d;
}

static void scalar_text(const scalar_form *f, char *buf, size_t n)
{
    bool set = !strcmp(f->op, "vset"), shift = f->op[1] == 's' && f->op[2] == 'h';
    char types[64];
    if (set)
        snprintf(types, sizeof types, ".%s.%s.%s", f->asg ? "s32" : "u32", f->bsg ? "s32" : "u32", f->mode);
    else
        snprintf(types, sizeof types, ".%s.%s.%s%s%s%s", f->dsg ? "s32" : "u32", f->asg ? "s32" : "u32",
                 shift ? "u32" : f->bsg ? "s32" : "u32", f->sat ? ".sat" : "", shift ? "." : "", shift ? f->mode : "");
    bool four = f->sec[0] || f->dsel[0];
    snprintf(buf, n, "%s%s%s%s %%d%s%s, %%a%s%s, %s%s%s%s;", f->op, types, f->sec[0] ? "." : "", f->sec,
             f->dsel[0] ? "." : "", f->dsel, f->asel[0] ? "." : "", f->asel, shift ? "%s" : "%b",
             f->bsel[0] ? "." : "", f->bsel, four ? ", %c" : "");
}

static void run_scalar(const scalar_form *f)
{
    char body[256];
    scalar_text(f, body, sizeof body);
    bool shift = f->op[1] == 's' && f->op[2] == 'h';
    /* the shift amount comes from %s: declare and load it from b's slot */
    char full[512];
    if (shift)
        snprintf(full, sizeof full, ".reg .b32 %%s;\nmov.b32 %%s, %%b;\n%s", body);
    else
        snprintf(full, sizeof full, "%s", body);
    const uint32_t *b = shift ? in_s : in_b;
    op_run(full, in_a, b, in_c, out, N);
    for (unsigned i = 0; i < N; i++) {
        uint32_t want = scalar_ref(f, in_a[i], b[i], in_c[i]);
        if (out[i] != want)
            fail_msg("%s\na %08x b %08x c %08x: got %08x, want %08x", body, in_a[i], b[i], in_c[i], out[i], want);
    }
}

static const char *const SELS[] = {"", "b0", "b1", "b2", "b3", "h0", "h1"};
/* the ways a scalar result leaves: plain, secondary ops, merges */
static const char *const TAILS[][2] = {{"", ""},   {"add", ""}, {"min", ""}, {"max", ""}, {"", "b0"},
                                       {"", "b1"}, {"", "b2"},  {"", "b3"},  {"", "h0"},  {"", "h1"}};

static void test_scalar(void **state)
{
    (void)state;
    make_inputs();
    static const char *const ops[] = {"vadd", "vsub", "vabsdiff", "vmin", "vmax"};
    unsigned rot = 0, forms = 0;
    for (size_t o = 0; o < 5; o++)
        for (unsigned ty = 0; ty < 8; ty++)
            for (size_t t = 0; t < 10; t++)
                for (int sat = 0; sat < 2; sat++, rot++) {
                    scalar_form f = {ops[o], ty & 1, ty >> 1 & 1, ty >> 2 & 1, SELS[rot % 7], SELS[(rot / 7) % 7],
                                     TAILS[t][1], TAILS[t][0], sat, ""};
                    run_scalar(&f);
                    forms++;
                }
    print_message("%u scalar forms\n", forms);
}

static void test_shift(void **state)
{
    (void)state;
    make_inputs();
    static const char *const ops[] = {"vshl", "vshr"}, *const modes[] = {"clamp", "wrap"};
    unsigned rot = 3;
    for (size_t o = 0; o < 2; o++)
        for (unsigned ty = 0; ty < 4; ty++)
            for (size_t m = 0; m < 2; m++)
                for (size_t t = 0; t < 10; t++)
                    for (int sat = 0; sat < 2; sat++, rot++) {
                        scalar_form f = {ops[o], ty & 1, ty >> 1 & 1, false, SELS[rot % 7], SELS[(rot / 5) % 7],
                                         TAILS[t][1], TAILS[t][0], sat, modes[m]};
                        run_scalar(&f);
                    }
}

static void test_vset(void **state)
{
    (void)state;
    make_inputs();
    static const char *const cmps[] = {"eq", "ne", "lt", "le", "gt", "ge"};
    unsigned rot = 1;
    for (unsigned ty = 0; ty < 4; ty++)
        for (size_t k = 0; k < 6; k++)
            for (size_t t = 0; t < 10; t++, rot++) {
                scalar_form f = {"vset", false, ty & 1, ty >> 1 & 1, SELS[rot % 7], SELS[(rot / 3) % 7],
                                 TAILS[t][1], TAILS[t][0], false, cmps[k]};
                run_scalar(&f);
            }
}

/* ---- vmad -------------------------------------------------------------- */

typedef struct vmad_form {
    bool dsg, asg, bsg;
    const char *asel, *bsel;
    bool na, nb, nc, po, sat;
    int scale; /* 0, 7, 15 */
} vmad_form;

static uint32_t vmad_ref(const vmad_form *f, uint32_t a, uint32_t b, uint32_t c)
{
    int64_t ta = select_part(a, f->asel, f->asg), tb = select_part(b, f->bsel, f->bsg);
    bool signed_final = f->asg || f->bsg || (f->na ^ f->nb) || f->nc;
    unsigned __int128 tmp = (unsigned __int128)((__int128)ta * (__int128)tb);
    unsigned __int128 lsb = 0;
    if (f->po) {
        lsb = 1;
    } else if (f->na ^ f->nb) {
        tmp = ~tmp;
        lsb = 1;
    } else if (f->nc) {
        c = ~c;
        lsb = 1;
    }
    unsigned __int128 c128 = signed_final ? (unsigned __int128)(__int128)(int32_t)c : (unsigned __int128)c;
    tmp = tmp + c128 + lsb;
    uint64_t result = f->scale == 7 ? (uint64_t)(tmp >> 7) : f->scale == 15 ? (uint64_t)(tmp >> 15) : (uint64_t)tmp;
    if (f->sat) {
        if (signed_final) {
            int64_t r = (int64_t)result;
            result = (uint64_t)(r > INT32_MAX ? INT32_MAX : r < INT32_MIN ? INT32_MIN : r);
        } else {
            result = result > UINT32_MAX ? UINT32_MAX : result;
        }
    }
    return (uint32_t)result;
}

static void test_vmad(void **state)
{
    (void)state;
    make_inputs();
    /* negation patterns: none, -a, -b, -c, -a -b, .po */
    static const bool negs[6][4] = {{0, 0, 0, 0}, {1, 0, 0, 0}, {0, 1, 0, 0}, {0, 0, 1, 0}, {1, 1, 0, 0}, {0, 0, 0, 1}};
    static const int scales[] = {0, 7, 15};
    unsigned rot = 0;
    for (unsigned ty = 0; ty < 8; ty++)
        for (int n = 0; n < 6; n++)
            for (int sc = 0; sc < 3; sc++)
                for (int sat = 0; sat < 2; sat++, rot++) {
                    vmad_form f = {ty & 1, ty >> 1 & 1, ty >> 2 & 1, SELS[rot % 7], SELS[(rot / 7) % 7],
                                   negs[n][0], negs[n][1], negs[n][2], negs[n][3], sat, scales[sc]};
                    char body[256];
                    snprintf(body, sizeof body, "vmad.%s.%s.%s%s%s%s%s %%d, %s%%a%s%s, %s%%b%s%s, %s%%c;",
                             f.dsg ? "s32" : "u32", f.asg ? "s32" : "u32", f.bsg ? "s32" : "u32", f.po ? ".po" : "",
                             f.sat ? ".sat" : "", f.scale == 7 ? ".shr7" : f.scale == 15 ? ".shr15" : "",
                             "", f.na ? "-" : "", f.asel[0] ? "." : "", f.asel, f.nb ? "-" : "", f.bsel[0] ? "." : "",
                             f.bsel, f.nc ? "-" : "");
                    op_run(body, in_a, in_b, in_c, out, N);
                    for (unsigned i = 0; i < N; i++) {
                        uint32_t want = vmad_ref(&f, in_a[i], in_b[i], in_c[i]);
                        if (out[i] != want)
                            fail_msg("%s\na %08x b %08x c %08x: got %08x, want %08x", body, in_a[i], in_b[i], in_c[i],
                                     out[i], want);
                    }
                }
}

/* ---- SIMD -------------------------------------------------------------- */

typedef struct simd_form {
    const char *op;      /* vadd2 ... vset4 */
    unsigned n;          /* 2 or 4 elements */
    bool dsg, asg, bsg;
    const char *asel, *bsel, *mask; /* without the dot; "" for the default */
    bool add, sat;
    const char *cmp;     /* vset2/vset4 */
} simd_form;

/* Element e of the selected vector: digit (from the right) e of sel, or
 * of the default, names a half-word / byte of {b, a}. */
static int64_t simd_elem(uint32_t a, uint32_t b, const char *sel, const char *dflt, unsigned n, unsigned e, bool sg)
{
    const char *digits = (sel[0] ? sel : dflt) + 1;
    unsigned src = (unsigned)(digits[strlen(digits) - 1 - e] - '0');
    uint64_t pool = (uint64_t)b << 32 | a;
    if (n == 2) {
        uint16_t v = (uint16_t)(pool >> (16 * src));
        return sg ? (int64_t)(int16_t)v : (int64_t)v;
    }
    uint8_t v = (uint8_t)(pool >> (8 * src));
    return sg ? (int64_t)(int8_t)v : (int64_t)v;
}

/* extractMaskBits: the elements a mask names (all by default). */
static bool mask_has(const char *mask, unsigned n, unsigned e)
{
    if (!mask[0])
        return true;
    (void)n;
    return strchr(mask + 1, (char)('0' + e)) != NULL;
}

static uint32_t simd_ref(const simd_form *f, uint32_t a, uint32_t b, uint32_t c)
{
    unsigned w = 32 / f->n;
    const char *ad = f->n == 2 ? "h10" : "b3210", *bd = f->n == 2 ? "h32" : "b7654";
    int64_t t[4];
    for (unsigned i = 0; i < f->n; i++) {
        int64_t va = simd_elem(a, b, f->asel, ad, f->n, i, f->asg), vb = simd_elem(a, b, f->bsel, bd, f->n, i, f->bsg);
        const char *op = f->op;
        if (!strncmp(op, "vadd", 4)) t[i] = va + vb;
        else if (!strncmp(op, "vsub", 4)) t[i] = va - vb;
        else if (!strncmp(op, "vavrg", 5)) { /* (s + 1) >> 1, or s >> 1 (toward minus infinity) below 0 */
            int64_t sum = va + vb;
            t[i] = sum >= 0 ? (sum + 1) / 2 : sum % 2 ? (sum - 1) / 2 : sum / 2;
        }
        else if (!strncmp(op, "vabsdiff", 8)) t[i] = va > vb ? va - vb : vb - va;
        else if (!strncmp(op, "vmin", 4)) t[i] = va < vb ? va : vb;
        else if (!strncmp(op, "vmax", 4)) t[i] = va > vb ? va : vb;
        else t[i] = vcmp(f->cmp, va, vb);
        if (f->sat) {
            if (f->dsg)
                t[i] = w == 16 ? (t[i] > INT16_MAX ? INT16_MAX : t[i] < INT16_MIN ? INT16_MIN : t[i])
                               : (t[i] > INT8_MAX ? INT8_MAX : t[i] < INT8_MIN ? INT8_MIN : t[i]);
            else
                t[i] = w == 16 ? (t[i] > UINT16_MAX ? UINT16_MAX : t[i] < 0 ? 0 : t[i])
                               : (t[i] > UINT8_MAX ? UINT8_MAX : t[i] < 0 ? 0 : t[i]);
        }
    }
    uint32_t d;
    if (f->add) {
        d = c;
        for (unsigned i = 0; i < f->n; i++)
            d += mask_has(f->mask, f->n, i) ? (uint32_t)t[i] : 0;
    } else {
        d = 0;
        uint32_t m = w == 16 ? 0xffff : 0xff;
        for (unsigned i = 0; i < f->n; i++)
            d |= ((mask_has(f->mask, f->n, i) ? (uint32_t)t[i] : c >> (w * i)) & m) << (w * i);
    }
    return d;
}

static void run_simd(const simd_form *f)
{
    bool set = !strncmp(f->op, "vset", 4);
    char body[256], types[64];
    if (set)
        snprintf(types, sizeof types, ".%s.%s.%s", f->asg ? "s32" : "u32", f->bsg ? "s32" : "u32", f->cmp);
    else
        snprintf(types, sizeof types, ".%s.%s.%s%s", f->dsg ? "s32" : "u32", f->asg ? "s32" : "u32",
                 f->bsg ? "s32" : "u32", f->sat ? ".sat" : "");
    snprintf(body, sizeof body, "%s%s%s %%d%s%s, %%a%s%s, %%b%s%s, %%c;", f->op, types, f->add ? ".add" : "",
             f->mask[0] ? "." : "", f->mask, f->asel[0] ? "." : "", f->asel, f->bsel[0] ? "." : "", f->bsel);
    op_run(body, in_a, in_b, in_c, out, N);
    for (unsigned i = 0; i < N; i++) {
        uint32_t want = simd_ref(f, in_a[i], in_b[i], in_c[i]);
        if (out[i] != want)
            fail_msg("%s\na %08x b %08x c %08x: got %08x, want %08x", body, in_a[i], in_b[i], in_c[i], out[i], want);
    }
}

static const char *const HSELS[] = {"", "h10", "h32", "h01", "h23", "h00", "h11", "h22", "h33", "h03", "h30",
                                    "h12", "h21", "h02", "h20", "h13", "h31"};
static const char *const HMASKS[] = {"", "h0", "h1", "h10"};
static const char *const BMASKS[] = {"",    "b0",   "b1",   "b10",  "b2",   "b20",  "b21",  "b210",
                                     "b3",  "b30",  "b31",  "b310", "b32",  "b320", "b321", "b3210"};

/* A byte selector from a rotation counter: the defaults, every byte in
 * every position over the forms, and repeated bytes. */
static void bsel_of(unsigned r, char *buf)
{
    if (r % 9 == 0) {
        buf[0] = 0;
        return;
    }
    buf[0] = 'b';
    for (int k = 0; k < 4; k++)
        buf[1 + k] = (char)('0' + (r * 5 + (unsigned)k * (r % 3 == 0 ? 0 : 3)) % 8);
    buf[5] = 0;
}

static void test_simd2(void **state)
{
    (void)state;
    make_inputs();
    static const char *const ops[] = {"vadd2", "vsub2", "vavrg2", "vabsdiff2", "vmin2", "vmax2"};
    unsigned rot = 0;
    for (size_t o = 0; o < 6; o++)
        for (unsigned ty = 0; ty < 8; ty++)
            for (unsigned m = 0; m < 4; m++)
                for (unsigned v = 0; v < 3; v++, rot++) { /* merge, merge .sat, .add */
                    simd_form f = {ops[o], 2, ty & 1, ty >> 1 & 1, ty >> 2 & 1, HSELS[rot % 17],
                                   HSELS[(rot * 7 + 3) % 17], HMASKS[m], v == 2, v == 1, ""};
                    run_simd(&f);
                }
    static const char *const cmps[] = {"eq", "ne", "lt", "le", "gt", "ge"};
    for (unsigned ty = 0; ty < 4; ty++)
        for (size_t k = 0; k < 6; k++)
            for (unsigned v = 0; v < 2; v++, rot++) {
                simd_form f = {"vset2", 2, false, ty & 1, ty >> 1 & 1, HSELS[rot % 17], HSELS[(rot * 5 + 1) % 17],
                               HMASKS[rot % 4], v == 1, false, cmps[k]};
                run_simd(&f);
            }
}

static void test_simd4(void **state)
{
    (void)state;
    make_inputs();
    static const char *const ops[] = {"vadd4", "vsub4", "vavrg4", "vabsdiff4", "vmin4", "vmax4"};
    unsigned rot = 0;
    char as[8], bs[8];
    for (size_t o = 0; o < 6; o++)
        for (unsigned ty = 0; ty < 8; ty++)
            for (unsigned m = 0; m < 16; m++, rot++) {
                unsigned v = rot % 3; /* merge, merge .sat, .add */
                bsel_of(rot, as);
                bsel_of(rot * 7 + 2, bs);
                simd_form f = {ops[o], 4, ty & 1, ty >> 1 & 1, ty >> 2 & 1, as, bs, BMASKS[m], v == 2, v == 1, ""};
                run_simd(&f);
            }
    static const char *const cmps[] = {"eq", "ne", "lt", "le", "gt", "ge"};
    for (unsigned ty = 0; ty < 4; ty++)
        for (size_t k = 0; k < 6; k++)
            for (unsigned v = 0; v < 2; v++, rot++) {
                bsel_of(rot, as);
                bsel_of(rot * 3 + 1, bs);
                simd_form f = {"vset4", 4, false, ty & 1, ty >> 1 & 1, as, bs, BMASKS[rot % 16], v == 1, false, cmps[k]};
                run_simd(&f);
            }
}

/* ---- by hand ------------------------------------------------------------ */

static void test_known_values(void **state)
{
    (void)state;
    static const struct { const char *body; uint32_t a, b, c, want; } cases[] = {
        /* sum of absolute differences of the bytes: 3 + 1 + 1 + 3, plus c */
        {"vabsdiff4.u32.u32.u32.add %d, %a, %b, %c;", 0x01020304, 0x04030201, 100, 108},
        /* signed averages: (-3 + 0) >> 1 = -2; (3 + 0 + 1) >> 1 = 2 */
        {"vavrg2.s32.s32.s32 %d, %a, %b, %c;", 0x0003fffd, 0, 0, 0x0002fffe},
        /* 200 + 100 saturated to a byte, merged into byte 1 of c */
        {"vadd.u32.u32.u32.sat %d.b1, %a, %b, %c;", 200, 100, 0x11223344, 0x1122ff44},
        /* a signed half-word: -1 - 1 */
        {"vsub.s32.s32.s32 %d, %a.h1, %b;", 0xffff0000, 1, 0, 0xfffffffe},
        /* (5 < 7) + 10 */
        {"vset.u32.u32.lt.add %d, %a, %b, %c;", 5, 7, 10, 11},
        /* .clamp: a shift by 40 shifts by 32, leaving 0 in 32 bits; .sat clamps the true 2^32 */
        {"vshl.u32.u32.u32.clamp %d, %a, %b;", 1, 40, 0, 0},
        {"vshl.u32.u32.u32.sat.clamp %d, %a, %b;", 1, 40, 0, 0xffffffff},
        /* .wrap: 35 shifts by 3; the signed byte 0x80 is -128, >> 3 is -16 */
        {"vshr.s32.s32.u32.wrap %d, %a.b0, %b;", 0x80, 35, 0, 0xfffffff0},
        /* 3 * 4 + 5 and -(3 * 4) + 5 */
        {"vmad.u32.u32.u32 %d, %a, %b, %c;", 3, 4, 5, 17},
        {"vmad.s32.u32.u32 %d, -%a, %b, %c;", 3, 4, 5, 0xfffffff9},
        /* 2^15 * 2^15 >> 15 */
        {"vmad.u32.u32.u32.shr15 %d, %a, %b, %c;", 0x8000, 0x8000, 0, 0x8000},
        /* .po: 2 * 3 + 4 + 1 */
        {"vmad.u32.u32.u32.po %d, %a, %b, %c;", 2, 3, 4, 11},
        /* a.h32 takes b's halves (7, 9), b.h10 a's (2, 3) */
        {"vadd2.u32.u32.u32 %d, %a.h32, %b.h10, %c;", 0x00020003, 0x00070009, 0, 0x0009000c},
        /* per-byte maxima (4, 3, 3, 4 from the top), bytes 2 and 0 kept, 3 and 1 from c */
        {"vmax4.u32.u32.u32 %d.b20, %a, %b, %c;", 0x01020304, 0x04030201, 0xaabbccdd, 0xaa03cc04},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        uint32_t o;
        op_run(cases[i].body, &cases[i].a, &cases[i].b, &cases[i].c, &o, 1);
        if (o != cases[i].want)
            fail_msg("%s (a %08x b %08x c %08x): got %08x, want %08x", cases[i].body, cases[i].a, cases[i].b,
                     cases[i].c, o, cases[i].want);
    }
}

/* The SIMD selectors and masks parse, print back as written, and forms
 * the ISA does not have (a two-digit byte selector, .sat with .add, a
 * mask out of order, negated operands outside vmad, both negations of
 * vmad) are refused when reached: the launch stops with "unsupported
 * instruction" and its line, never a result. */
static void test_selectors_and_refusals(void **state)
{
    (void)state;
    static const char *const good[] = {
        "vsub2.s32.s32.s32.sat %d.h0, %a.h10, %b.h32, %c;",
        "vmin2.s32.u32.u32.add %d.h10, %a.h00, %b.h22, %c;",
        "vsub4.s32.s32.s32.sat %d.b0, %a.b3210, %b.b7654, %c;",
        "vmax4.u32.u32.u32 %d.b321, %a.b7531, %b.b0246, %c;",
    };
    for (size_t i = 0; i < sizeof good / sizeof *good; i++) {
        char *text = op_kernel_text(good[i]);
        ptx_module *m = ptx_test_parse(text);
        char *buf = NULL;
        size_t len = 0;
        FILE *f = open_memstream(&buf, &len);
        assert_non_null(f);
        ptx_print_module(m, f);
        fclose(f);
        /* the operands as written, after the printer's tab */
        const char *ops = strchr(good[i], ' ') + 1;
        if (!strstr(buf, ops))
            fail_msg("printing lost the selectors of '%s':\n%s", good[i], buf);
        free(buf);
        ptx_module_free(m);
        free(text);
    }
    static const char *const bad[] = {
        "vadd4.u32.u32.u32 %d, %a.b10, %b, %c;",         /* byte selectors have four digits */
        "vadd2.s32.s32.s32.sat.add %d, %a, %b, %c;",     /* .sat with .add */
        "vadd4.u32.u32.u32 %d.b01, %a, %b, %c;",         /* a mask's digits descend */
        "vadd.s32.s32.s32 %d, -%a, %b;",                 /* negation is vmad's only */
        "vmad.s32.s32.s32 %d, -%a, %b, -%c;",            /* the product or c, not both */
        "vmad.s32.s32.s32.po %d, -%a, %b, %c;",          /* .po without negations */
        "vadd.s32.s32.s32.add %d.b1, %a, %b, %c;",       /* a merge or a secondary op */
    };
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        char *text = op_kernel_text(bad[i]);
        emu e;
        emu_open_module(&e, ptx_test_parse(text));
        uint32_t z = 0;
        uint64_t buf = emu_buf(&e, &z, 4);
        uint32_t n = 1;
        const void *args[] = {&buf, &buf, &buf, &buf, &n};
        if (emu_try(&e, "k", emu_cfg(1, 1, 1, 1), args) == 0)
            fail_msg("'%s' ran", bad[i]);
        if (!strstr(e.err, "unsupported instruction"))
            fail_msg("'%s': %s", bad[i], e.err);
        emu_close(&e);
        free(text);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_scalar),   cmocka_unit_test(test_shift), cmocka_unit_test(test_vset),
        cmocka_unit_test(test_vmad),     cmocka_unit_test(test_simd2), cmocka_unit_test(test_simd4),
        cmocka_unit_test(test_known_values), cmocka_unit_test(test_selectors_and_refusals),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
