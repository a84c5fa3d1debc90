/* ops_mma.c — warp matrix multiply-accumulate: wmma.load, wmma.store,
 * wmma.mma (PTX ISA 9.0, "Warp-Level Matrix Multiply-Accumulate"), and
 * mma.sync with ldmatrix, stmatrix and movmatrix (the same chapter,
 * "Matrix multiply-accumulate operation using mma instruction").
 *
 * The ISA leaves wmma fragment layouts to the implementation; programs
 * only load, multiply, store and apply element-wise operations to them.
 * The emulator's layout: a fragment's per-lane elements, lane by lane, are
 * the matrix in row-major order, repeated when the fragment has more
 * elements than the matrix (f16 a/b fragments hold every element twice).
 * mma.sync fragments have the layouts the ISA documents for each shape
 * (see mma_slot_elem), because programs build them with ldmatrix, shuffles
 * and plain register moves. Registers pack elements in their low bits
 * first (two f16, four s8).
 *
 * wmma.mma and mma.sync compute each element of D = A·B + C from the exact products,
 * summed in k order in the accumulator's precision (f32 for f16, bf16 and
 * tf32 inputs, f64, s32 with wrap-around or .satfinite clamping), then
 * rounded once to the accumulator type. Tensor cores' internal summation
 * order is not specified; results agree with them whenever the sums are
 * exact. Every lane of the warp must execute the instruction. */
#include <math.h>
#include <stdlib.h>

#include "emulator/ops.h"
#include "emulator/smallfloat.h"
#include "ir/util.h"

/* Element types of fragments. */
typedef enum { E_F16, E_BF16, E_TF32, E_F32, E_F64, E_S8, E_U8, E_S32 } etype;

static unsigned ebits(etype e)
{
    static const unsigned b[] = {16, 16, 32, 32, 64, 8, 8, 32};
    return b[e];
}

/* The fragment description kept in the instruction: shape, which matrix,
 * memory layout, element type, registers in the program's pool. */
typedef struct frag {
    uint8_t m, n, k;
    uint8_t which;  /* 0 a (m x k), 1 b (k x n), 2 c/d (m x n) */
    uint8_t col;    /* memory layout is column-major */
    uint8_t et;     /* etype */
    uint8_t nregs;
    uint8_t sync;   /* an mma.sync fragment: the ISA's documented layout */
    uint32_t regs;  /* first index in the pool */
} frag;

static void frag_dims(const frag *f, unsigned *rows, unsigned *cols)
{
    *rows = f->which == 1 ? f->k : f->m;
    *cols = f->which == 0 ? f->k : f->n;
}

/* Elements one register of fragment f holds. */
static unsigned per_reg(const frag *f)
{
    unsigned b = ebits((etype)f->et);
    return b >= 32 ? 1 : 32 / b;
}

/* The ISA's mma.sync layouts (m16n8kK with any element width, m8n8k4 f64):
 * with groupID g = lane / 4, t = lane % 4 and p elements per register,
 * A is made of 8 x 4p core matrices taken column by column, register j
 * holding row g (+8 for odd j in m16 shapes), columns (j / 2) * 4p + t * p
 * + e; B's register j holds rows j * 4p + t * p + e of column g; C and D
 * element q holds row g + 8 * (q / 2), column 2t + q % 2. */
static void mma_slot_elem(const frag *f, unsigned lane, unsigned i, unsigned *r, unsigned *c)
{
    unsigned p = per_reg(f), j = i / p, e = i % p, g = lane >> 2, t = lane & 3;
    if (f->which == 0) {
        unsigned rb = f->m == 16 ? j & 1 : 0, cb = f->m == 16 ? j >> 1 : j;
        *r = g + 8 * rb;
        *c = cb * 4 * p + t * p + e;
    } else if (f->which == 1) {
        *r = j * 4 * p + t * p + e;
        *c = g;
    } else {
        *r = g + 8 * (i >> 1);
        *c = 2 * t + (i & 1);
    }
}

/* Slot (lane, i) -> element (row, col); each lane has nregs * per_reg
 * slots. */
static void slot_elem(const frag *f, unsigned lane, unsigned i, unsigned *r, unsigned *c)
{
    if (f->sync) {
        mma_slot_elem(f, lane, i, r, c);
        return;
    }
    unsigned rows, cols, per = f->nregs * per_reg(f);
    frag_dims(f, &rows, &cols);
    unsigned e = (lane * per + i) % (rows * cols);
    *r = e / cols;
    *c = e % cols;
}

static unsigned slots(const frag *f) { return f->nregs * per_reg(f); }

/* Value bits of slot i of lane thread t. */
static uint64_t slot_get(const sim_cta *c, const uint32_t *pool, const frag *f, uint32_t t, unsigned i)
{
    unsigned b = ebits((etype)f->et);
    if (b >= 32)
        return c->rows[(size_t)pool[f->regs + i] * c->stride + t];
    unsigned per = 32 / b;
    uint64_t v = c->rows[(size_t)pool[f->regs + i / per] * c->stride + t];
    return (v >> (b * (i % per))) & ((1ull << b) - 1);
}

static void slot_put(sim_cta *c, const uint32_t *pool, const frag *f, uint32_t t, unsigned i, uint64_t v)
{
    unsigned b = ebits((etype)f->et);
    uint64_t *row;
    if (b >= 32) {
        row = &c->rows[(size_t)pool[f->regs + i] * c->stride + t];
        *row = b == 64 ? v : v & 0xffffffffull;
        return;
    }
    unsigned per = 32 / b, sh = b * (i % per);
    row = &c->rows[(size_t)pool[f->regs + i / per] * c->stride + t];
    *row = (*row & ~(((1ull << b) - 1) << sh)) | ((v & ((1ull << b) - 1)) << sh);
}

/* The numeric value of element bits. */
static double elem_value(etype e, uint64_t v)
{
    switch (e) {
    case E_F16: return sim_from_small_float(v, 5, 10);
    case E_BF16: return sim_from_small_float(v, 8, 7);
    case E_TF32: case E_F32: return f32_of(v);
    case E_F64: return f64_of(v);
    case E_S8: return (double)(int8_t)v;
    case E_U8: return (double)(uint8_t)v;
    default: return (double)(int32_t)(uint32_t)v;
    }
}

/* All lanes must take part (.sync.aligned); what names the instruction. */
static bool whole_warp(sim_cta *c, const sim_inst *in, const sim_group *g, const sim_lanes *L, sim_step *s,
                       const char *what)
{
    if (L->n == 32 && g->n == 32)
        return true;
    sim_fault(c, SIM_ERR_ILLEGAL, "%s needs all 32 lanes of the warp (%u are executing it), kernel %s, PTX line %u",
              what, L->n, c->kernel, in->line);
    s->event = SIM_EV_FAULT;
    return false;
}

/* whole_warp, then the warp's threads by lane into by_lane (ldmatrix,
 * stmatrix, movmatrix exchange data between lanes). */
static bool warp_by_lane(sim_cta *c, const sim_inst *in, const sim_group *g, const sim_lanes *L, sim_step *s,
                         const char *what, uint32_t by_lane[32])
{
    if (!whole_warp(c, in, g, L, s, what))
        return false;
    for (uint32_t i = 0; i < L->n; i++)
        by_lane[L->k[i]] = L->t[i];
    return true;
}

/* The address of element (r, col) in memory for thread t. */
static uint64_t elem_addr(const sim_cta *c, const sim_inst *in, const frag *f, uint32_t t, unsigned r,
                          unsigned col, uint64_t stride)
{
    uint64_t base = sim_address(c, in, t);
    uint64_t idx = f->col ? (uint64_t)col * stride + r : (uint64_t)r * stride + col;
    unsigned size = ebits((etype)f->et) / 8;
    return base + idx * (f->et == E_TF32 ? 4 : size);
}

/* The instruction's fragments, kept after it in the program's pool as
 * frag records (see decode_frag). */
static const frag *frag_of(const sim_cta *c, const sim_inst *in, unsigned k)
{
    return (const frag *)(const void *)&c->prog->frag_pool[in->target + k * (sizeof(frag) / 4)];
}

/* wmma.load (store false: each lane fetches its slots) and wmma.store
 * (each lane writes its slots; repeated elements agree). */
static void transfer(sim_cta *c, const sim_inst *in, const sim_group *g, const sim_lanes *L, sim_step *s,
                     const opnd *O, bool store)
{
    if (!whole_warp(c, in, g, L, s, store ? "wmma.store" : "wmma.load"))
        return;
    const frag *f = frag_of(c, in, 0);
    unsigned rows, cols, size = ebits((etype)f->et) / 8;
    frag_dims(f, &rows, &cols);
    EACH_LANE(t) {
        uint64_t stride = in->nsrc_used ? ptx_zext(SRC(0, t), 32) : (f->col ? rows : cols);
        for (unsigned i = 0; i < slots(f); i++) {
            unsigned r, col;
            slot_elem(f, L->k[i_], i, &r, &col);
            uint8_t *p = sim_mem(c, in, t, in->space, elem_addr(c, in, f, t, r, col, stride), size, store ? 2 : 1);
            if (!p) {
                s->event = SIM_EV_FAULT;
                return;
            }
            uint64_t v = 0;
            if (store) {
                v = slot_get(c, c->prog->frag_pool32, f, t, i);
                memcpy(p, &v, size);
            } else {
                memcpy(&v, p, size);
                slot_put(c, c->prog->frag_pool32, f, t, i, v);
            }
        }
    }
}

HANDLER(op_wmma_load)
{
    (void)D;
    transfer(c, in, g, L, s, O, false);
}

HANDLER(op_wmma_store)
{
    (void)D;
    transfer(c, in, g, L, s, O, true);
}

/* Gather fragment f of the warp into a dense row-major matrix of values. */
static void gather(const sim_cta *c, const sim_lanes *L, const frag *f, double *mat)
{
    unsigned rows, cols;
    frag_dims(f, &rows, &cols);
    for (uint32_t i = 0; i < L->n; i++)
        for (unsigned j = 0; j < slots(f); j++) {
            unsigned r, col;
            slot_elem(f, L->k[i], j, &r, &col);
            mat[r * cols + col] = elem_value((etype)f->et, slot_get(c, c->prog->frag_pool32, f, L->t[i], j));
        }
}

/* wmma.mma and mma.sync: D = A·B + C (in->sat: .satfinite for integers). */
HANDLER(op_wmma_mma)
{
    (void)O; (void)D;
    if (!whole_warp(c, in, g, L, s, frag_of(c, in, 0)->sync ? "mma" : "wmma.mma"))
        return;
    const frag *fd = frag_of(c, in, 0), *fa = frag_of(c, in, 1), *fb = frag_of(c, in, 2),
               *fc = frag_of(c, in, 3);
    unsigned m = fd->m, n = fd->n, k = fd->k;
    double *A = ptx_xmalloc(sizeof(double) * m * k), *B = ptx_xmalloc(sizeof(double) * k * n);
    double *C = ptx_xmalloc(sizeof(double) * m * n);
    gather(c, L, fa, A);
    gather(c, L, fb, B);
    gather(c, L, fc, C);
    uint64_t *out = ptx_xmalloc(sizeof(uint64_t) * m * n);
    for (unsigned r = 0; r < m; r++)
        for (unsigned col = 0; col < n; col++) {
            double acc = C[r * n + col];
            switch ((etype)fd->et) {
            case E_F64:
                for (unsigned j = 0; j < k; j++)
                    acc = fma(A[r * k + j], B[j * n + col], acc);
                out[r * n + col] = bits_f64(acc);
                break;
            case E_S32: {
                int64_t ia = (int64_t)acc;
                for (unsigned j = 0; j < k; j++)
                    ia += (int64_t)A[r * k + j] * (int64_t)B[j * n + col];
                if (in->sat)
                    ia = ia > INT32_MAX ? INT32_MAX : ia < INT32_MIN ? INT32_MIN : ia;
                out[r * n + col] = (uint32_t)ia;
                break;
            }
            default: { /* f32 sums of exact products, then the accumulator type */
                float fa32 = (float)acc;
                for (unsigned j = 0; j < k; j++)
                    fa32 = (float)(fa32 + A[r * k + j] * B[j * n + col]);
                out[r * n + col] = fd->et == E_F16 ? sim_to_small_float(fa32, 1, 5, 10)
                                                   : isnan(fa32) ? 0x7fffffffull : bits_f32(fa32);
                break;
            }
            }
        }
    EACH_LANE(t) {
        for (unsigned j = 0; j < slots(fd); j++) {
            unsigned r, col;
            slot_elem(fd, L->k[i_], j, &r, &col);
            slot_put(c, c->prog->frag_pool32, fd, t, j, out[r * n + col]);
        }
    }
    free(A);
    free(B);
    free(C);
    free(out);
}

/* ldmatrix.m8n8.b16: lanes 8i..8i+7 give the row addresses of matrix i
 * (16 bytes each); every lane receives in register i row lane / 4,
 * columns 2 (lane % 4) and the next, of matrix i, or of its transpose with
 * .trans (in->op). All rows are read before any register is written. */
HANDLER(op_ldmatrix)
{
    (void)O; (void)D;
    uint32_t by_lane[32];
    if (!warp_by_lane(c, in, g, L, s, "ldmatrix", by_lane))
        return;
    const frag *f = frag_of(c, in, 0);
    uint16_t e[4][8][8];
    for (unsigned mtx = 0; mtx < f->nregs; mtx++)
        for (unsigned r = 0; r < 8; r++) {
            uint32_t t = by_lane[mtx * 8 + r];
            uint8_t *p = sim_mem(c, in, t, in->space, sim_address(c, in, t), 16, 1);
            if (!p) {
                s->event = SIM_EV_FAULT;
                return;
            }
            for (unsigned col = 0; col < 8; col++)
                e[mtx][r][col] = (uint16_t)(p[2 * col] | p[2 * col + 1] << 8);
        }
    for (unsigned mtx = 0; mtx < f->nregs; mtx++)
        for (unsigned lane = 0; lane < 32; lane++) {
            unsigned row = lane >> 2, q = (lane & 3) * 2;
            uint32_t lo = in->op ? e[mtx][q][row] : e[mtx][row][q];
            uint32_t hi = in->op ? e[mtx][q + 1][row] : e[mtx][row][q + 1];
            c->rows[(size_t)c->prog->frag_pool32[f->regs + mtx] * c->stride + by_lane[lane]] = lo | hi << 16;
        }
}

/* stmatrix.m8n8.b16, ldmatrix's inverse: lanes 8i..8i+7 give the row
 * addresses of matrix i; every lane's register i holds row lane / 4,
 * columns 2 (lane % 4) and the next, of matrix i, or of its transpose with
 * .trans (in->op). */
HANDLER(op_stmatrix)
{
    (void)O; (void)D;
    uint32_t by_lane[32];
    if (!warp_by_lane(c, in, g, L, s, "stmatrix", by_lane))
        return;
    const frag *f = frag_of(c, in, 0);
    uint16_t e[4][8][8];
    for (unsigned mtx = 0; mtx < f->nregs; mtx++)
        for (unsigned lane = 0; lane < 32; lane++) {
            unsigned row = lane >> 2, q = (lane & 3) * 2;
            uint32_t v = (uint32_t)c->rows[(size_t)c->prog->frag_pool32[f->regs + mtx] * c->stride + by_lane[lane]];
            if (in->op) {
                e[mtx][q][row] = (uint16_t)v;
                e[mtx][q + 1][row] = (uint16_t)(v >> 16);
            } else {
                e[mtx][row][q] = (uint16_t)v;
                e[mtx][row][q + 1] = (uint16_t)(v >> 16);
            }
        }
    for (unsigned mtx = 0; mtx < f->nregs; mtx++)
        for (unsigned r = 0; r < 8; r++) {
            uint32_t t = by_lane[mtx * 8 + r];
            uint8_t *p = sim_mem(c, in, t, in->space, sim_address(c, in, t), 16, 2);
            if (!p) {
                s->event = SIM_EV_FAULT;
                return;
            }
            for (unsigned col = 0; col < 8; col++) {
                p[2 * col] = (uint8_t)e[mtx][r][col];
                p[2 * col + 1] = (uint8_t)(e[mtx][r][col] >> 8);
            }
        }
}

/* movmatrix.sync.aligned.m8n8.trans.b16 d, a: every lane's a holds row
 * lane / 4, columns 2 (lane % 4) and the next, of an 8x8 matrix of 16-bit
 * elements (the fragment layout of ldmatrix); d receives the same
 * fragment of its transpose, as ldmatrix .trans would load it. */
HANDLER(op_movmatrix)
{
    uint32_t by_lane[32];
    if (!warp_by_lane(c, in, g, L, s, "movmatrix", by_lane))
        return;
    uint16_t e[8][8];
    for (unsigned lane = 0; lane < 32; lane++) {
        uint64_t v = SRC(0, by_lane[lane]);
        e[lane >> 2][(lane & 3) * 2] = (uint16_t)v;
        e[lane >> 2][(lane & 3) * 2 + 1] = (uint16_t)(v >> 16);
    }
    for (unsigned lane = 0; lane < 32; lane++) {
        unsigned row = lane >> 2, q = (lane & 3) * 2;
        PUT(0, by_lane[lane], (uint32_t)e[q][row] | (uint32_t)e[q + 1][row] << 16);
    }
}

/* The element type a type modifier names, or -1. */
static int etype_of(uint8_t ty)
{
    switch (ty) {
    case PTX_TYPE_F16: return E_F16;
    case PTX_TYPE_BF16: return E_BF16;
    case PTX_TYPE_TF32: return E_TF32;
    case PTX_TYPE_F32: return E_F32;
    case PTX_TYPE_F64: return E_F64;
    case PTX_TYPE_S8: return E_S8;
    case PTX_TYPE_U8: return E_U8;
    case PTX_TYPE_S32: return E_S32;
    default: return -1;
    }
}

/* Parse "mMnNkK" of the form's shape modifier. */
static bool shape_of(const sim_decoder *d, frag *f)
{
    const char *t = ptx_modifier_text(sim_dec_mod(d, PTX_MODCAT_SHAPE));
    unsigned m, n, k;
    if (!t || sscanf(t, "m%un%uk%u", &m, &n, &k) != 3 || m > 64 || n > 64 || k > 64)
        return false;
    f->m = (uint8_t)m;
    f->n = (uint8_t)n;
    f->k = (uint8_t)k;
    return true;
}

/* Append fragment f (its registers from vector operand k) to the pool. */
static bool decode_frag(sim_decoder *d, unsigned k, frag *f)
{
    const ptx_operand *o = sim_dec_op(d, k);
    if (o->kind != PTX_OPD_VEC || o->count == 0 || o->count > 16)
        return false;
    sim_program *p = d->p;
    f->nregs = o->count;
    f->regs = p->nfrag_pool32;
    p->frag_pool32 = ptx_xrealloc(p->frag_pool32, (p->nfrag_pool32 + o->count + 1) * sizeof *p->frag_pool32);
    for (unsigned e = 0; e < o->count; e++) {
        const ptx_operand *r = &d->f->operands[o->id + e];
        if (r->kind != PTX_OPD_REG || d->f->regs[r->id].vec > 1)
            return false;
        p->frag_pool32[p->nfrag_pool32++] = r->id;
    }
    /* the slots must cover the matrix */
    unsigned rows, cols;
    frag_dims(f, &rows, &cols);
    if ((unsigned)32 * slots(f) < rows * cols || (f->sync && (unsigned)32 * slots(f) != rows * cols))
        return false;
    if (d->in->target == PTX_NONE)
        d->in->target = p->nfrag_pool;
    p->frag_pool = ptx_xrealloc(p->frag_pool, (p->nfrag_pool + sizeof(frag) / 4 + 1) * sizeof *p->frag_pool);
    memcpy(&p->frag_pool[p->nfrag_pool], f, sizeof *f);
    p->nfrag_pool += sizeof(frag) / 4;
    return true;
}

/* ldmatrix.sync.aligned.m8n8.{x1,x2,x4}{.trans}{.shared}.b16 {regs}, [addr]
 * and stmatrix.sync.aligned.m8n8.{x1,x2,x4}{.trans}{.shared}.b16 [addr], {regs} */
static sim_fn pick_ldmatrix(sim_decoder *d, bool store)
{
    const ptx_form *fm = d->form;
    unsigned num = ptx_form_has(d->m, fm, PTX_MOD_X1) ? 1 : ptx_form_has(d->m, fm, PTX_MOD_X2) ? 2
                 : ptx_form_has(d->m, fm, PTX_MOD_X4) ? 4 : 0;
    unsigned regs = store ? 1 : 0;
    if (sim_dec_mod(d, PTX_MODCAT_SHAPE) != PTX_MOD_M8N8 || d->in->type != PTX_TYPE_B16 || num == 0 ||
        sim_dec_nops(d) != 2 || sim_dec_op(d, regs)->kind != PTX_OPD_VEC || sim_dec_op(d, regs)->count != num)
        return NULL;
    frag f = {.m = 8, .n = 8, .which = 2, .et = E_F16};
    d->in->op = ptx_form_has(d->m, fm, PTX_MOD_TRANS);
    d->in->target = PTX_NONE;
    if (!decode_frag(d, regs, &f) || !sim_dec_addr(d, 1 - regs))
        return NULL;
    return store ? op_stmatrix : op_ldmatrix;
}

/* Whether mma.sync types d.a.b.c on shape f are ones whose layouts the
 * emulator knows: f16/bf16 m16n8k8/k16, tf32 m16n8k4/k8, s8/u8
 * m8n8k16 and m16n8k16/k32, f64 m8n8k4 and m16n8k4/k8; both layouts
 * .row.col. */
static bool mma_sync_known(const sim_decoder *d, const frag *f, int dt, int at, int bt, int ct)
{
    const ptx_form *fm = d->form;
    const uint16_t *tok = &d->m->form_tokens[fm->first_token];
    int nlay = 0;
    bool rowcol = true;
    for (unsigned i = 0; i < fm->ntokens; i++)
        if (tok[i] == PTX_MOD_ROW || tok[i] == PTX_MOD_COL)
            rowcol &= tok[i] == (nlay++ == 0 ? PTX_MOD_ROW : PTX_MOD_COL);
    if (!rowcol || nlay != 2)
        return false;
    bool m16n8 = f->m == 16 && f->n == 8, m8n8 = f->m == 8 && f->n == 8, sameab = at == bt || ((at == E_S8 || at == E_U8) && (bt == E_S8 || bt == E_U8));
    if (!sameab)
        return false;
    switch (at) {
    case E_F16: return m16n8 && (f->k == 8 || f->k == 16) && (dt == E_F16 || dt == E_F32) && (ct == E_F16 || ct == E_F32);
    case E_BF16: return m16n8 && (f->k == 8 || f->k == 16) && dt == E_F32 && ct == E_F32;
    case E_TF32: return m16n8 && (f->k == 4 || f->k == 8) && dt == E_F32 && ct == E_F32;
    case E_S8: case E_U8:
        return ((m16n8 && (f->k == 16 || f->k == 32)) || (m8n8 && f->k == 16)) && dt == E_S32 && ct == E_S32;
    case E_F64: return ((m8n8 && f->k == 4) || (m16n8 && (f->k == 4 || f->k == 8))) && dt == E_F64 && ct == E_F64;
    default: return false;
    }
}

sim_fn sim_pick_mma(sim_decoder *d)
{
    sim_inst *in = d->in;
    ptx_opcode op = (ptx_opcode)d->form->opcode;
    if (op == PTX_OP_LDMATRIX || op == PTX_OP_STMATRIX)
        return pick_ldmatrix(d, op == PTX_OP_STMATRIX);
    if (op == PTX_OP_MOVMATRIX)
        return sim_dec_mod(d, PTX_MODCAT_SHAPE) == PTX_MOD_M8N8 && ptx_form_has(d->m, d->form, PTX_MOD_TRANS) &&
                       in->type == PTX_TYPE_B16 && sim_dec_nops(d) == 2 && sim_dec_dst(d, 0, 0) && sim_dec_src(d, 1, 0)
                   ? op_movmatrix : NULL;
    if (op != PTX_OP_WMMA_LOAD && op != PTX_OP_WMMA_STORE && op != PTX_OP_WMMA_MMA && op != PTX_OP_MMA)
        return NULL;
    frag f = {.sync = op == PTX_OP_MMA};
    if (!shape_of(d, &f))
        return NULL;
    unsigned n = sim_dec_nops(d);
    in->target = PTX_NONE;
    if (op == PTX_OP_WMMA_LOAD || op == PTX_OP_WMMA_STORE) {
        ptx_modifier w = sim_dec_mod(d, PTX_MODCAT_MODE);
        f.which = w == PTX_MOD_A ? 0 : w == PTX_MOD_B ? 1 : 2;
        if (op == PTX_OP_WMMA_STORE && w != PTX_MOD_D)
            return NULL;
        if (op == PTX_OP_WMMA_LOAD && w != PTX_MOD_A && w != PTX_MOD_B && w != PTX_MOD_C)
            return NULL;
        f.col = sim_dec_mod(d, PTX_MODCAT_LAYOUT) == PTX_MOD_COL;
        int et = etype_of(in->type);
        if (et < 0 || n < 2 || n > 3)
            return NULL;
        f.et = (uint8_t)et;
        unsigned fk = op == PTX_OP_WMMA_LOAD ? 0 : 1, ak = op == PTX_OP_WMMA_LOAD ? 1 : 0;
        if (!decode_frag(d, fk, &f) || !sim_dec_addr(d, ak) || (n == 3 && !sim_dec_src(d, 2, 0)))
            return NULL;
        return op == PTX_OP_WMMA_LOAD ? op_wmma_load : op_wmma_store;
    }
    /* wmma.mma.sync.aligned.alayout.blayout.shape.dtype{.atype.btype}.ctype d, a, b, c
     * mma.sync.aligned.shape.row.col{.satfinite}.dtype.atype.btype.ctype d, a, b, c */
    const ptx_form *fm = d->form;
    int dt = etype_of(fm->type[0]), at, bt, ct;
    if (fm->ntypes == 2 && !f.sync) {
        at = bt = E_F16;
        ct = etype_of(fm->type[1]);
    } else if (fm->ntypes == 4) {
        at = etype_of(fm->type[1]);
        bt = etype_of(fm->type[2]);
        ct = etype_of(fm->type[3]);
    } else {
        return NULL;
    }
    if (dt < 0 || at < 0 || bt < 0 || ct < 0 || n != 4 || (f.sync && !mma_sync_known(d, &f, dt, at, bt, ct)))
        return NULL;
    in->sat = sim_dec_mod(d, PTX_MODCAT_SAT) == PTX_MOD_SATFINITE;
    frag fd = f, fa = f, fb = f, fc = f;
    fd.which = fc.which = 2;
    fa.which = 0;
    fb.which = 1;
    fd.et = (uint8_t)dt;
    fa.et = (uint8_t)at;
    fb.et = (uint8_t)bt;
    fc.et = (uint8_t)ct;
    if (!decode_frag(d, 0, &fd) || !decode_frag(d, 1, &fa) || !decode_frag(d, 2, &fb) ||
        !decode_frag(d, 3, &fc))
        return NULL;
    return op_wmma_mma;
}
