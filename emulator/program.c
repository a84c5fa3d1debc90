/* program.c — decoding a module for execution: variable layout and
 * initializers, kernel parameter layouts, per-instruction decoding and the
 * reconvergence points of branches. */
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/dom.h"
#include "analysis/loops.h"
#include "analysis/lpc.h"
#include "emulator/internal.h"
#include "emulator/smallfloat.h"
#include "ir/printer.h"
#include "ir/util.h"

/* Parameter layout of one kernel, computed on first use. */
typedef struct sim_kernel_cache {
    bool done;
    sim_param_info *params;
    uint32_t nparams, bytes;
} sim_kernel_cache;

/* Byte size of one element of symbol s (type bytes times vector width). */
static uint32_t elem_bytes(const ptx_symbol *s)
{
    uint32_t b = (ptx_type_bits((ptx_type)s->type) + 7) / 8;
    return (b ? b : 1) * (s->vec ? s->vec : 1);
}

/* Alignment of symbol s: its .align, else its element size. */
static uint64_t sym_align(const ptx_symbol *s)
{
    uint64_t a = s->align ? s->align : elem_bytes(s);
    return a ? a : 1;
}

static uint64_t align_up(uint64_t v, uint64_t a) { return (v + a - 1) / a * a; }

/* The generic address of symbol `sym` whose space address is v. */
static uint64_t generic_of(const ptx_symbol *s, uint64_t v)
{
    switch ((ptx_space)s->space) {
    case PTX_SPACE_SHARED: case PTX_SPACE_SHARED_CTA: case PTX_SPACE_SHARED_CLUSTER:
        return SIM_SHARED_WINDOW + v;
    case PTX_SPACE_LOCAL: return SIM_LOCAL_WINDOW + v;
    case PTX_SPACE_CONST: return SIM_CONST_WINDOW + v;
    case PTX_SPACE_PARAM: case PTX_SPACE_PARAM_ENTRY: return SIM_PARAM_WINDOW + v;
    default: return v;
    }
}

/* ---- initializers ------------------------------------------------------ */

/* Write initializer node `ix` of element size `eb` and element type `type`
 * at out[*pos], advancing *pos; lists recurse. False (and err) when it
 * does not fit `cap` bytes. */
static bool write_init(const sim_program *p, uint32_t ix, uint32_t eb, ptx_type type,
                       uint8_t *out, uint64_t cap, uint64_t *pos, char *err, size_t errlen)
{
    const ptx_init *in = &p->m->inits[ix];
    if (in->kind == PTX_INIT_LIST) {
        for (uint32_t k = 0; k < in->count; k++)
            if (!write_init(p, in->first + k, eb, type, out, cap, pos, err, errlen))
                return false;
        return true;
    }
    if (*pos + eb > cap) {
        sim_fail(err, errlen, "initializer larger than its variable");
        return false;
    }
    uint64_t v = 0;
    switch ((ptx_init_kind)in->kind) {
    case PTX_INIT_INT:
        v = (uint64_t)in->value;
        if (ptx_type_class(type) == 'f') { /* an integer written for a float element */
            if (eb == 4) { float f = (float)in->value; memcpy(&v, &f, 4); }
            else if (eb == 8) { double f = (double)in->value; memcpy(&v, &f, 8); }
        }
        break;
    case PTX_INIT_F32:
        v = (uint64_t)in->value;
        if (eb == 8) { /* a float literal for a double element */
            float f; uint32_t b = (uint32_t)v; memcpy(&f, &b, 4);
            double dd = f; memcpy(&v, &dd, 8);
        }
        break;
    case PTX_INIT_F64:
        v = (uint64_t)in->value;
        if (eb == 4) {
            double dd; memcpy(&dd, &v, 8);
            float f = (float)dd; uint32_t b; memcpy(&b, &f, 4); v = b;
        }
        break;
    case PTX_INIT_SYM: {
        const ptx_symbol *s = &p->m->symbols[in->id];
        uint64_t a = p->sym_value[in->id];
        v = ((in->flags & PTX_OPF_GENERIC) ? generic_of(s, a) : a) + (uint64_t)in->value;
        break;
    }
    default:
        sim_fail(err, errlen, "unsupported initializer");
        return false;
    }
    memcpy(out + *pos, &v, eb > 8 ? 8 : eb); /* little-endian: the low bytes */
    *pos += eb;
    return true;
}

/* Fill `out` (size bytes) from symbol s's initializer, if any. */
static int init_symbol(const sim_program *p, uint32_t sym, uint8_t *out, uint64_t size,
                       char *err, size_t errlen)
{
    const ptx_symbol *s = &p->m->symbols[sym];
    if (s->init == PTX_NONE || ptx_type_class((ptx_type)s->type) == 'o')
        return 0; /* texture, sampler and surface references: opaque, and their instructions are refused */
    uint64_t pos = 0;
    uint32_t eb = (ptx_type_bits((ptx_type)s->type) + 7) / 8;
    if (!write_init(p, s->init, eb ? eb : 1, (ptx_type)s->type, out, size, &pos, err, errlen))
        return sim_fail(err, errlen, "variable %s (line %u): initializer larger than the variable",
                    ptx_str(p->m, s->name), s->line);
    return 0;
}

/* ---- variable layout --------------------------------------------------- */

bool sim_frame_symbol(const sim_program *p, uint32_t sym)
{
    const ptx_symbol *s = &p->m->symbols[sym];
    if (s->func == PTX_NONE)
        return false;
    if (s->kind == PTX_SYM_LOCALPARAM)
        return true;
    if (s->kind == PTX_SYM_PARAM)
        return p->m->functions[s->func].kind == PTX_FUNC_FUNC;
    return s->kind == PTX_SYM_VAR && s->space == PTX_SPACE_LOCAL;
}

/* Give every variable its address in its own space: device allocations
 * for .global, offsets in the constant bank, the shared area (statics,
 * then the dynamic region all extern arrays share) and each function's
 * local frame. Then write the initializers (which may take the address of
 * any variable). */
static int layout_variables(sim_program *p, char *err, size_t errlen)
{
    const ptx_module *m = p->m;
    uint64_t shared = 0, cbank = 0, module_local = 0;
    uint64_t *frame = ptx_xcalloc(m->nfunctions + 1, sizeof *frame);
    /* pass 1: module-scope .local first, so function frames start after them */
    for (uint32_t i = 0; i < m->nsymbols; i++) {
        const ptx_symbol *s = &m->symbols[i];
        if (s->kind == PTX_SYM_VAR && s->space == PTX_SPACE_LOCAL && s->func == PTX_NONE) {
            module_local = align_up(module_local, sym_align(s));
            p->sym_value[i] = module_local;
            module_local += ptx_symbol_size(s);
        }
    }
    /* frames of 4 GiB or more saturate: any frame over 512 KiB fails to launch */
    p->module_local = (uint32_t)(module_local < UINT32_MAX - 15 ? align_up(module_local, 16) : UINT32_MAX);
    for (uint32_t i = 0; i < m->nsymbols; i++)
        if (m->symbols[i].kind == PTX_SYM_FUNC && m->symbols[i].func != PTX_NONE)
            p->sym_value[i] = SIM_CODE_WINDOW + 16ull * m->symbols[i].func;
    for (uint32_t i = 0; i < m->nsymbols; i++) {
        const ptx_symbol *s = &m->symbols[i];
        if (sim_frame_symbol(p, i)) { /* call slots and .func parameters: in the frame */
            frame[s->func] = align_up(frame[s->func], sym_align(s));
            p->sym_value[i] = frame[s->func];
            frame[s->func] += ptx_symbol_size(s);
            continue;
        }
        if (s->kind != PTX_SYM_VAR)
            continue;
        uint64_t size = ptx_symbol_size(s), a = sym_align(s);
        switch ((ptx_space)s->space) {
        case PTX_SPACE_GLOBAL: {
            if (s->flags & PTX_SYMF_EXTERN)
                return free(frame), sim_fail(err, errlen, "extern .global variable %s (line %u) "
                                         "is not defined in this module",
                                         ptx_str(m, s->name), s->line);
            uint64_t addr;
            void *host;
            if (s->flags & PTX_SYMF_MANAGED) { /* the host reaches it at the same address */
                if (sim_malloc_mapped(p->dev, size, ptx_str(m, s->name), &host, err, errlen) != 0)
                    return free(frame), -1;
                addr = (uint64_t)(uintptr_t)host;
            } else if (sim_malloc(p->dev, size, ptx_str(m, s->name), &addr, err, errlen) != 0) {
                return free(frame), -1;
            }
            p->sym_value[i] = addr;
            PTX_GROW(p->global_allocs, p->cap_global_allocs, (uint64_t)p->nglobal_allocs + 1);
            p->global_allocs[p->nglobal_allocs++] = addr;
            break;
        }
        case PTX_SPACE_CONST:
            cbank = align_up(cbank, a);
            p->sym_value[i] = cbank;
            cbank += size;
            break;
        case PTX_SPACE_SHARED: case PTX_SPACE_SHARED_CTA:
            if ((s->flags & PTX_SYMF_EXTERN) || size == 0)
                break; /* dynamic: placed below */
            shared = align_up(shared, a);
            p->sym_value[i] = shared;
            shared += size;
            break;
        case PTX_SPACE_LOCAL:
            if (s->func != PTX_NONE) {
                frame[s->func] = align_up(frame[s->func], a);
                p->sym_value[i] = frame[s->func];
                frame[s->func] += size;
            }
            break;
        default:
            break;
        }
    }
    shared = align_up(shared, 16);
    for (uint32_t i = 0; i < m->nsymbols; i++) {
        const ptx_symbol *s = &m->symbols[i];
        if (s->kind == PTX_SYM_VAR && (s->space == PTX_SPACE_SHARED || s->space == PTX_SPACE_SHARED_CTA) &&
            ((s->flags & PTX_SYMF_EXTERN) || ptx_symbol_size(s) == 0))
            p->sym_value[i] = shared;
    }
    if (shared > UINT32_MAX || cbank > UINT32_MAX)
        return free(frame), sim_fail(err, errlen, "shared or constant variables exceed 4 GiB");
    p->shared_static = (uint32_t)shared;
    p->const_bytes = (uint32_t)cbank;
    p->const_bank = ptx_xcalloc(cbank ? cbank : 1, 1);
    for (uint32_t fi = 0; fi < m->nfunctions; fi++)
        p->funcs[fi].local_bytes = (uint32_t)(frame[fi] < UINT32_MAX - 15 ? align_up(frame[fi], 16) : UINT32_MAX);
    free(frame);
    /* pass 2: initializers */
    for (uint32_t i = 0; i < m->nsymbols; i++) {
        const ptx_symbol *s = &m->symbols[i];
        if (s->kind != PTX_SYM_VAR || s->init == PTX_NONE)
            continue;
        uint64_t size = ptx_symbol_size(s);
        if (s->space == PTX_SPACE_GLOBAL) {
            sim_alloc *al = sim_find_alloc(p->dev, p->sym_value[i], size);
            if (al && init_symbol(p, i, al->data + (p->sym_value[i] - al->base), size, err, errlen))
                return -1;
        } else if (s->space == PTX_SPACE_CONST) {
            if (init_symbol(p, i, p->const_bank + p->sym_value[i], size, err, errlen))
                return -1;
        }
    }
    return 0;
}

/* ---- operands ---------------------------------------------------------- */

const ptx_operand *sim_dec_op(const sim_decoder *d, unsigned k)
{
    return ptx_instr_operand(d->f, d->pi, k);
}

/* Row of a special register operand (with its component), or PTX_NONE. */
static uint32_t sreg_row(const sim_decoder *d, const ptx_operand *o)
{
    uint32_t base = d->f->nregs, c = o->comp == PTX_COMP_Y ? 1 : o->comp == PTX_COMP_Z ? 2 : 0;
    switch ((ptx_sreg)o->id) {
    case PTX_SREG_TID: return base + ROW_TID_X + c;
    case PTX_SREG_NTID: return base + ROW_NTID_X + c;
    case PTX_SREG_CTAID: return base + ROW_CTAID_X + c;
    case PTX_SREG_NCTAID: return base + ROW_NCTAID_X + c;
    case PTX_SREG_LANEID: return base + ROW_LANEID;
    case PTX_SREG_WARPID: return base + ROW_WARPID;
    case PTX_SREG_NWARPID: return base + ROW_NWARPID;
    case PTX_SREG_SMID: return base + ROW_SMID;
    case PTX_SREG_NSMID: return base + ROW_NSMID;
    case PTX_SREG_GRIDID: return base + ROW_GRIDID;
    case PTX_SREG_LANEMASK_EQ: return base + ROW_LANEMASK_EQ;
    case PTX_SREG_LANEMASK_LE: return base + ROW_LANEMASK_LE;
    case PTX_SREG_LANEMASK_LT: return base + ROW_LANEMASK_LT;
    case PTX_SREG_LANEMASK_GE: return base + ROW_LANEMASK_GE;
    case PTX_SREG_LANEMASK_GT: return base + ROW_LANEMASK_GT;
    case PTX_SREG_DYNAMIC_SMEM_SIZE: return base + ROW_DYNAMIC_SMEM;
    case PTX_SREG_CLUSTERID: return base + ROW_CLUSTERID_X + c;
    case PTX_SREG_NCLUSTERID: return base + ROW_NCLUSTERID_X + c;
    case PTX_SREG_CLUSTER_CTAID: return base + ROW_CLUSTER_CTAID_X + c;
    case PTX_SREG_CLUSTER_NCTAID: return base + ROW_CLUSTER_NCTAID_X + c;
    case PTX_SREG_CLUSTER_CTARANK: return base + ROW_CLUSTER_CTARANK;
    case PTX_SREG_CLUSTER_NCTARANK: return base + ROW_CLUSTER_NCTARANK;
    case PTX_SREG_IS_EXPLICIT_CLUSTER: return base + ROW_IS_EXPLICIT_CLUSTER;
    case PTX_SREG_ENVREG1: return base + ROW_ENVREG1;
    case PTX_SREG_ENVREG2: return base + ROW_ENVREG2;
    case PTX_SREG_TOTAL_SMEM_SIZE: return base + ROW_TOTAL_SMEM;
    default: return PTX_NONE;
    }
}

/* A symbol's value as an operand into src: its address in its own space,
 * or its generic address with generic(sym). Frame symbols (a function's
 * .local variables, call slots, .func parameters) are offsets from the
 * running frame (imm 3) on the local stack; functions and textures cannot
 * be values yet. */
static bool sym_operand(const sim_decoder *d, uint32_t sym, int64_t off, bool generic, sim_src *src)
{
    const ptx_symbol *s = &d->m->symbols[sym];
    if (s->space == PTX_SPACE_TEX)
        return false;
    uint64_t a = d->p->sym_value[sym];
    if (sim_frame_symbol(d->p, sym)) {
        src->imm = 3;
        src->value = (generic ? SIM_LOCAL_WINDOW : 0) + a + (uint64_t)off;
        return true;
    }
    src->imm = 1;
    src->value = (generic ? generic_of(s, a) : a) + (uint64_t)off;
    return true;
}

/* r + imm into s: a scratch row of the function that sim_exec fills with
 * the sum (in the register's width) before the handler runs. */
static bool regimm_operand(const sim_decoder *d, const ptx_operand *o, sim_src *s)
{
    sim_program *p = d->p;
    sim_inst *in = d->in;
    unsigned bits = ptx_type_bits((ptx_type)d->f->regs[o->id].type);
    if (in->nregimm == 5 || bits == 0 || bits > 64)
        return false;
    if (in->nregimm == 0)
        in->regimm = p->nregimm;
    p->regimm = ptx_xrealloc(p->regimm, (p->nregimm + 1) * sizeof *p->regimm);
    uint32_t row = d->f->nregs + ROW_COUNT + in->nregimm++;
    p->regimm[p->nregimm++] = (sim_regimm){row, o->id, (uint64_t)o->value, (uint8_t)bits};
    s->row = row;
    return true;
}

/* The bits of float literal o as the instruction reads it. PTX keeps a
 * literal in double precision except the 0fXXXXXXXX form; an instruction
 * of another float width reads it converted (rounded to nearest) to its
 * own, the last float type of the form (cvt.f32.f64, set.u32.f32: the
 * source's). Other operand types take the literal's bits as written. */
static uint64_t float_literal_bits(const sim_decoder *d, const ptx_operand *o)
{
    unsigned bits = 0;
    for (unsigned i = 0; i < d->form->ntypes; i++)
        if (ptx_type_class((ptx_type)d->form->type[i]) == 'f')
            bits = ptx_type_bits((ptx_type)d->form->type[i]);
    uint64_t v = (uint64_t)o->value;
    if (o->kind == PTX_OPD_F64 && bits == 32) {
        double x;
        memcpy(&x, &v, 8);
        float f = (float)x;
        uint32_t b;
        memcpy(&b, &f, 4);
        return b;
    }
    if (o->kind == PTX_OPD_F32 && bits == 64) {
        uint32_t b = (uint32_t)v;
        float f;
        memcpy(&f, &b, 4);
        double x = f;
        memcpy(&v, &x, 8);
    }
    return v;
}

/* One scalar source operand into s, wherever s lives. */
bool sim_dec_value(const sim_decoder *d, const ptx_operand *o, sim_src *s)
{
    memset(s, 0, sizeof *s);
    switch ((ptx_operand_kind)o->kind) {
    case PTX_OPD_REG:
        if (o->comp != PTX_COMP_NONE)
            return false; /* byte/half selectors: not yet */
        s->row = o->id;
        s->neg = (o->flags & PTX_OPF_NOT) != 0;
        return true;
    case PTX_OPD_REG_IMM:
        return regimm_operand(d, o, s);
    case PTX_OPD_SREG:
        if (o->id == PTX_SREG_CLOCK || o->id == PTX_SREG_CLOCK64 || o->id == PTX_SREG_GLOBALTIMER ||
            o->id == PTX_SREG_GLOBALTIMER_LO) {
            s->imm = 2;
            return true;
        }
        if ((o->id >= PTX_SREG_ENVREG0 && o->id <= PTX_SREG_ENVREG31 && o->id != PTX_SREG_ENVREG1 &&
             o->id != PTX_SREG_ENVREG2) ||
            (o->id >= PTX_SREG_RESERVED_SMEM_OFFSET_BEGIN && o->id <= PTX_SREG_RESERVED_SMEM_OFFSET_1)) {
            s->imm = 1; /* driver-reserved: no reserved shared memory, empty environment */
            return true;
        }
        s->row = sreg_row(d, o);
        if (s->row != PTX_NONE) /* launches fill only the special rows some instruction reads */
            d->p->special_rows |= 1ull << (s->row - d->f->nregs);
        return s->row != PTX_NONE;
    case PTX_OPD_IMM:
        s->imm = 1;
        s->value = (uint64_t)o->value;
        return true;
    case PTX_OPD_F32: case PTX_OPD_F64:
        s->imm = 1;
        s->value = float_literal_bits(d, o);
        return true;
    case PTX_OPD_SYM:
        return sym_operand(d, o->id, o->value, (o->flags & PTX_OPF_GENERIC) != 0, s);
    default:
        return false;
    }
}

/* One scalar source operand into the instruction's source slot s. */
static bool scalar_src(const sim_decoder *d, const ptx_operand *o, sim_src *s)
{
    unsigned slot = (unsigned)(s - d->in->src);
    if (slot + 1 > d->in->nsrc_used)
        d->in->nsrc_used = (uint8_t)(slot + 1);
    return sim_dec_value(d, o, s);
}

bool sim_dec_src(sim_decoder *d, unsigned k, unsigned slot)
{
    if (k >= d->pi->noperands)
        return false;
    const ptx_operand *o = sim_dec_op(d, k);
    if (o->kind == PTX_OPD_VEC) {
        if (slot + o->count > SIM_MAX_SRC)
            return false;
        for (unsigned e = 0; e < o->count; e++)
            if (!scalar_src(d, &d->f->operands[o->id + e], &d->in->src[slot + e]))
                return false;
        return true;
    }
    return slot < SIM_MAX_SRC && scalar_src(d, o, &d->in->src[slot]);
}

/* One destination register into slot. */
static bool scalar_dst(sim_decoder *d, const ptx_operand *o, unsigned slot)
{
    if (slot >= SIM_MAX_DST)
        return false;
    if (slot + 1 > d->in->ndst_used)
        d->in->ndst_used = (uint8_t)(slot + 1);
    if (o->kind == PTX_OPD_SINK) {
        d->in->dst[slot] = PTX_NONE;
        d->in->dst_bits[slot] = 64;
        return true;
    }
    if (o->kind != PTX_OPD_REG || o->comp != PTX_COMP_NONE)
        return false;
    d->in->dst[slot] = o->id;
    unsigned bits = ptx_type_bits((ptx_type)d->f->regs[o->id].type);
    d->in->dst_bits[slot] = (uint8_t)(bits == 0 || bits > 64 ? 64 : bits);
    return true;
}

bool sim_dec_dst_operand(sim_decoder *d, const ptx_operand *o, unsigned slot)
{
    return scalar_dst(d, o, slot);
}

bool sim_dec_dst(sim_decoder *d, unsigned k, unsigned slot)
{
    if (k >= d->pi->noperands)
        return false;
    const ptx_operand *o = sim_dec_op(d, k);
    if (o->kind == PTX_OPD_VEC || o->kind == PTX_OPD_PAIR) {
        for (unsigned e = 0; e < o->count; e++)
            if (!scalar_dst(d, &d->f->operands[o->id + e], slot + e))
                return false;
        return true;
    }
    return scalar_dst(d, o, slot);
}

/* Memory operand o into a, in state space *space (which frame symbols and
 * a .func's parameters move to the local stack); generic: the operand's
 * symbols give generic addresses. The sum wraps at the base register's
 * width (sim_addr). */
static bool addr_operand(const sim_decoder *d, const ptx_operand *o, bool generic, sim_addr *a,
                         uint8_t *space)
{
    memset(a, 0, sizeof *a);
    a->mask = ~0ull;
    uint32_t sym = PTX_NONE;
    int64_t off = 0;
    if (o->kind == PTX_OPD_SYM) { /* a bare variable name as the address */
        sym = o->id;
        off = o->value;
    } else if (o->kind != PTX_OPD_ADDR) {
        return false;
    } else {
        a->offset = o->value;
        if (o->flags & PTX_OPF_ADDR_SYM) {
            sym = o->id;
        } else if (o->id == PTX_NONE) {
            a->base.imm = 1; /* [immediate] */
        } else {
            const ptx_reg *r = &d->f->regs[o->id];
            unsigned bits = ptx_type_bits((ptx_type)r->type);
            if (bits < 16)
                return false; /* predicate registers hold no address */
            a->base.row = o->id;
            if (bits < 64)
                a->mask = (1ull << bits) - 1;
        }
    }
    if (sym != PTX_NONE) {
        if (!sym_operand(d, sym, off, generic, &a->base))
            return false;
        if (a->base.imm == 3 && !generic)
            *space = PTX_SPACE_LOCAL; /* .param call slots live on the local stack */
    } else if (d->f->kind == PTX_FUNC_FUNC && (*space == PTX_SPACE_PARAM || *space == PTX_SPACE_PARAM_FUNC)) {
        *space = PTX_SPACE_LOCAL; /* a .func's parameters are in its frame */
    }
    return true;
}

bool sim_dec_addr(sim_decoder *d, unsigned k)
{
    return k < d->pi->noperands &&
           addr_operand(d, sim_dec_op(d, k), d->form->nspaces == 0, &d->in->addr, &d->in->space);
}

uint32_t sim_dec_addr_pooled(sim_decoder *d, unsigned k, uint8_t space)
{
    sim_addr a;
    uint8_t moved = space;
    if (k >= d->pi->noperands || !addr_operand(d, sim_dec_op(d, k), space == PTX_SPACE_NONE, &a, &moved) ||
        moved != space)
        return PTX_NONE;
    sim_program *p = d->p;
    p->addr_pool = ptx_xrealloc(p->addr_pool, (p->naddr_pool + 1) * sizeof *p->addr_pool);
    p->addr_pool[p->naddr_pool] = a;
    return p->naddr_pool++;
}

/* ---- instructions ------------------------------------------------------ */

void sim_op_unsupported(sim_cta *c, const sim_inst *in, const sim_group *g, const sim_lanes *L,
                        sim_step *s)
{
    (void)g;
    (void)L;
    sim_fault(c, SIM_ERR_UNSUPPORTED, "unsupported instruction '%s' at %s:%u", in->text ? in->text : "?",
              c->prog->m->source_name ? c->prog->m->source_name : "<ptx>", in->line);
    s->event = SIM_EV_FAULT;
}

/* The rounding selector of a form: 0 none, 1 rn, 2 rz, 3 rm, 4 rp, 5 rna,
 * SIM_RND_RS (6) rs; the integer rounding of cvt (.rni ...) maps to the
 * same values. */
static uint8_t rounding_of(ptx_modifier r)
{
    switch (r) {
    case PTX_MOD_RN: case PTX_MOD_RNI: return 1;
    case PTX_MOD_RZ: case PTX_MOD_RZI: return 2;
    case PTX_MOD_RM: case PTX_MOD_RMI: return 3;
    case PTX_MOD_RP: case PTX_MOD_RPI: return 4;
    case PTX_MOD_RNA: return 5;
    case PTX_MOD_RS: return SIM_RND_RS;
    default: return 0;
    }
}

/* The text of instruction pi (for unsupported-instruction messages). */
static char *instr_text(const ptx_module *m, const ptx_function *f, const ptx_instr *pi)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *out = open_memstream(&buf, &len);
    if (!out)
        return ptx_strdup(ptx_opcode_name((ptx_opcode)m->forms[pi->form].opcode));
    ptx_print_instr(m, f, pi, out);
    fclose(out);
    while (len && (buf[len - 1] == '\n' || buf[len - 1] == ' ' || buf[len - 1] == ';'))
        buf[--len] = 0;
    char *s = buf;
    while (*s == ' ' || *s == '\t')
        s++;
    char *r = ptx_strdup(s);
    free(buf);
    return r;
}

/* Decode instruction pc of function f into fn->code[pc]. */
static void decode_instr(sim_program *p, const ptx_function *f, uint32_t pc, sim_inst *in)
{
    const ptx_instr *pi = &f->instrs[pc];
    const ptx_form *form = &p->m->forms[pi->form];
    memset(in, 0, sizeof *in);
    in->line = pi->line;
    in->guard = pi->guard;
    in->guard_neg = pi->guard_neg;
    in->type = form->ntypes > 0 ? form->type[0] : PTX_TYPE_NONE;
    in->type2 = form->ntypes > 1 ? form->type[1] : PTX_TYPE_NONE;
    in->rnd = rounding_of((ptx_modifier)form->mod[PTX_MODCAT_ROUND]);
    in->ftz = form->mod[PTX_MODCAT_FTZ] == PTX_MOD_FTZ;
    in->sat = form->mod[PTX_MODCAT_SAT] != PTX_MOD_NONE;
    in->space = form->nspaces ? form->space[0] : PTX_SPACE_NONE;
    in->vec = form->vec ? form->vec : 1;
    in->sync_src = -1;
    for (unsigned k = 0; k < SIM_MAX_DST; k++)
        in->dst[k] = PTX_NONE;
    sim_decoder d = {p, p->m, f, pi, form, pc, in};
    sim_fn (*const pickers[])(sim_decoder *) = {sim_pick_int_x2, sim_pick_int, sim_pick_float, sim_pick_half, sim_pick_cmp,
                                                sim_pick_cvt, sim_pick_mem, sim_pick_async, sim_pick_mma, sim_pick_ctrl,
                                                sim_pick_warp, sim_pick_tex, sim_pick_cvt_narrow,
                                                sim_pick_cvt_half, sim_pick_video, sim_pick_simtlab};
    sim_fn fn = NULL;
    for (size_t k = 0; k < sizeof pickers / sizeof *pickers && !fn; k++) {
        sim_inst keep = *in;
        fn = pickers[k](&d);
        if (!fn)
            *in = keep; /* a picker that declined leaves nothing behind */
    }
    if (!fn) {
        fn = sim_op_unsupported;
        in->text = instr_text(p->m, f, pi);
    }
    in->fn = fn;
    if (in->guard != PTX_NONE || in->sync_src >= 0 || in->nregimm)
        in->flags |= SIM_IF_GENERAL;
    if (fn != sim_op_unsupported && sim_order_dependent(&d)) /* sim_exec's general path waits there */
        in->flags |= SIM_IF_ORDERED | SIM_IF_GENERAL;
}

/* Mark in `named` (per symbol) the shared variables function fi names,
 * and in `calls` (per function) the functions it calls directly. */
static void scan_function(const sim_program *p, uint32_t fi, uint8_t *named, uint8_t *calls)
{
    const ptx_module *m = p->m;
    const ptx_function *f = &m->functions[fi];
    for (uint32_t k = 0; k < f->noperands; k++) {
        const ptx_operand *o = &f->operands[k];
        bool sym = o->kind == PTX_OPD_SYM || (o->kind == PTX_OPD_ADDR && (o->flags & PTX_OPF_ADDR_SYM));
        if (!sym || o->id >= m->nsymbols)
            continue;
        const ptx_symbol *s = &m->symbols[o->id];
        if (s->kind == PTX_SYM_FUNC && s->func != PTX_NONE)
            calls[s->func] = 1;
        else if (s->kind == PTX_SYM_VAR && (s->space == PTX_SPACE_SHARED || s->space == PTX_SPACE_SHARED_CTA))
            named[o->id] = 1;
    }
}

/* A static shared variable of a kernel while its ranges are built. */
typedef struct shared_piece {
    uint32_t lo, end, align;
} shared_piece;

/* Qsort order of shared pieces: by their first offset. */
static int piece_order(const void *a, const void *b)
{
    const shared_piece *x = a, *y = b;
    return x->lo < y->lo ? -1 : x->lo > y->lo;
}

/* Fill a kernel's shared_ranges (the static variables it reaches, in
 * `named`, merged where only alignment padding separates them: the
 * module-wide layout puts other kernels' variables between the rest), its
 * dynamic region's base and the first range the inline path checks. */
static void kernel_shared_ranges(const sim_program *p, sim_func *fn, const uint8_t *named)
{
    const ptx_module *m = p->m;
    shared_piece *v = ptx_xmalloc((m->nsymbols + 1) * sizeof *v);
    uint32_t n = 0;
    for (uint32_t i = 0; i < m->nsymbols; i++) {
        const ptx_symbol *s = &m->symbols[i];
        uint64_t size = ptx_symbol_size(s);
        if (!named[i] || (s->flags & PTX_SYMF_EXTERN) || size == 0)
            continue;
        v[n++] = (shared_piece){.lo = (uint32_t)p->sym_value[i],
                                .end = (uint32_t)(p->sym_value[i] + size),
                                .align = (uint32_t)sym_align(s)};
    }
    qsort(v, n, sizeof *v, piece_order);
    sim_shared_range *r = ptx_xmalloc((n + 1) * sizeof *r);
    uint32_t merged = 0;
    for (uint32_t j = 0; j < n; j++) {
        /* the layout places a variable at its predecessor's end rounded up
         * to its alignment: a gap no larger is padding, not another's array */
        if (merged && v[j].lo <= align_up(r[merged - 1].end, v[j].align)) {
            if (v[j].end > r[merged - 1].end)
                r[merged - 1].end = v[j].end;
        } else {
            r[merged++] = (sim_shared_range){.lo = v[j].lo, .end = v[j].end};
        }
    }
    free(v);
    fn->shared_ranges = r;
    fn->nshared_ranges = merged;
    fn->shared_dynamic_base = fn->shared_dynamic ? p->shared_static : fn->shared_end;
    if (merged) {
        /* the dynamic region starts at the static end rounded up to 16 */
        fn->shared_fast_lo = r[0].lo;
        fn->shared_fast_size = r[0].end - r[0].lo;
        fn->shared_fast_dynamic = merged == 1 && align_up(r[0].end, 16) >= fn->shared_dynamic_base;
        if (fn->shared_fast_dynamic)
            fn->shared_fast_size = fn->shared_dynamic_base - r[0].lo;
    } else {
        fn->shared_fast_lo = fn->shared_dynamic_base;
        fn->shared_fast_dynamic = true;
    }
}

/* The shared memory each kernel uses: the variables it or any function it
 * reaches (calls, function addresses) names. */
static void kernel_shared(sim_program *p)
{
    const ptx_module *m = p->m;
    uint32_t nf = m->nfunctions;
    uint8_t *named = ptx_xcalloc(m->nsymbols + 1, 1), *reach = ptx_xcalloc(nf + 1, 1);
    uint8_t *calls = ptx_xcalloc(nf + 1, 1);
    uint32_t *stack = ptx_xmalloc((nf + 1) * sizeof *stack);
    for (uint32_t k = 0; k < nf; k++) {
        if (m->functions[k].kind != PTX_FUNC_ENTRY || !p->funcs[k].code)
            continue;
        memset(named, 0, m->nsymbols + 1);
        memset(reach, 0, nf + 1);
        uint32_t top = 0;
        stack[top++] = k;
        reach[k] = 1;
        while (top) {
            uint32_t fi = stack[--top];
            memset(calls, 0, nf + 1);
            scan_function(p, fi, named, calls);
            for (uint32_t g = 0; g < nf; g++)
                if (calls[g] && !reach[g]) {
                    reach[g] = 1;
                    stack[top++] = g;
                }
        }
        sim_func *fn = &p->funcs[k];
        for (uint32_t i = 0; i < m->nsymbols; i++) {
            if (!named[i])
                continue;
            const ptx_symbol *s = &m->symbols[i];
            uint64_t size = ptx_symbol_size(s);
            if ((s->flags & PTX_SYMF_EXTERN) || size == 0) {
                fn->shared_dynamic = true;
                continue;
            }
            fn->shared_used += (uint32_t)size;
            if (p->sym_value[i] + size > fn->shared_end)
                fn->shared_end = (uint32_t)(p->sym_value[i] + size);
        }
        kernel_shared_ranges(p, fn, named);
    }
    free(named);
    free(reach);
    free(calls);
    free(stack);
}

/* Reconvergence pcs: for the last instruction of each block, the first
 * instruction of the block's immediate post-dominator (ninstrs when that
 * is the exit or there is none). */
static void reconvergence(const ptx_function *f, uint32_t *rpc)
{
    ptx_domtree pdom;
    ptx_postdominators(f, &pdom);
    for (uint32_t i = 0; i < f->ninstrs; i++)
        rpc[i] = f->ninstrs;
    for (uint32_t b = 0; b < f->nblocks; b++) {
        const ptx_block *bk = &f->blocks[b];
        if (b == f->exit_block || bk->first == bk->end)
            continue;
        uint32_t ip = pdom.idom[b];
        rpc[bk->end - 1] = ip == PTX_NONE || ip == f->exit_block ? f->ninstrs : f->blocks[ip].first;
    }
    ptx_domtree_free(&pdom);
}

int sim_program_static_lpc(sim_program *p)
{
    for (uint32_t fi = 0; fi < p->m->nfunctions; fi++) {
        sim_func *fn = &p->funcs[fi];
        if (!fn->code || fn->lpc)
            continue; /* no body, or set already (annotations) */
        ptx_domtree dom, pdom;
        ptx_loops loops;
        ptx_dominators(fn->f, &dom);
        ptx_postdominators(fn->f, &pdom);
        ptx_loops_find(fn->f, &dom, &loops);
        fn->lpc = ptx_lpc_static(fn->f, &pdom, &loops);
        ptx_loops_free(&loops);
        ptx_domtree_free(&pdom);
        ptx_domtree_free(&dom);
    }
    return 0;
}

/* Whether modules a and b have the same functions with the same CFGs
 * (instruction counts and successor lists), so that a profile gathered
 * with one can be read against the other; else the first difference in
 * err. */
static bool same_cfgs(const ptx_module *a, const ptx_module *b, char *err, size_t errlen)
{
    if (a->nfunctions != b->nfunctions) {
        snprintf(err, errlen, "the profile is of another module (%u functions, the program has %u)",
                 a->nfunctions, b->nfunctions);
        return false;
    }
    for (uint32_t fi = 0; fi < a->nfunctions; fi++) {
        const ptx_function *fa = &a->functions[fi], *fb = &b->functions[fi];
        if (((fa->flags ^ fb->flags) & PTX_FUNCF_HAS_BODY) ||
            strcmp(ptx_function_name(a, fa), ptx_function_name(b, fb)) != 0 ||
            fa->ninstrs != fb->ninstrs || fa->nsuccs != fb->nsuccs ||
            (fa->nsuccs && memcmp(fa->succs, fb->succs, fa->nsuccs * sizeof *fa->succs) != 0)) {
            snprintf(err, errlen, "the profile is of another module: function %u (%s) differs from the "
                     "program's (%s)", fi, ptx_function_name(a, fa), ptx_function_name(b, fb));
            return false;
        }
    }
    return true;
}

/* Whether the profile saw function fi run: some instruction of it issued. */
static bool profile_saw(const sim_profile *prof, uint32_t fi)
{
    uint32_t n;
    const sim_instr_profile *ip = sim_profile_instrs(prof, fi, &n);
    for (uint32_t pc = 0; pc < n; pc++)
        if (ip[pc].warp_execs)
            return true;
    return false;
}

int sim_program_profile_lpc(sim_program *p, const sim_profile *prof, char *err, size_t errlen)
{
    if (!prof) {
        snprintf(err, errlen, "no profile for the likely-convergence points");
        return -1;
    }
    if (prof->prog->m != p->m && !same_cfgs(prof->prog->m, p->m, err, errlen))
        return -1; /* refused before anything changes */
    int branches = 0;
    for (uint32_t fi = 0; fi < p->m->nfunctions; fi++) {
        sim_func *fn = &p->funcs[fi];
        if (!fn->code || !profile_saw(prof, fi))
            continue; /* no body, or not run: keeps its table */
        uint32_t nedges;
        const uint64_t *edges = sim_profile_edges(prof, fi, &nedges);
        ptx_domtree pdom;
        ptx_postdominators(fn->f, &pdom);
        uint32_t *lpc = ptx_lpc_profile(fn->f, &pdom, edges);
        ptx_domtree_free(&pdom);
        for (uint32_t pc = 0; pc < fn->ninstrs; pc++)
            branches += lpc[pc] != PTX_NONE;
        free(fn->lpc);
        fn->lpc = lpc;
    }
    return branches;
}

/* Index of the .entry named `name`, or PTX_NONE. */
static uint32_t find_kernel(const sim_program *p, const char *name)
{
    for (uint32_t fi = 0; fi < p->m->nfunctions; fi++) {
        const ptx_function *f = &p->m->functions[fi];
        if (f->kind == PTX_FUNC_ENTRY && (f->flags & PTX_FUNCF_HAS_BODY) &&
            strcmp(ptx_function_name(p->m, f), name) == 0)
            return fi;
    }
    return PTX_NONE;
}

/* Lay out the parameters of entry fi (natural or declared alignment, in
 * order) and give their symbols their offsets. */
static void layout_params(sim_program *p, uint32_t fi)
{
    sim_kernel_cache *k = &p->kernels[fi];
    const ptx_function *f = &p->m->functions[fi];
    k->params = ptx_xcalloc(f->nparams + 1, sizeof *k->params);
    uint64_t off = 0;
    for (uint32_t i = 0; i < f->nparams; i++) {
        const ptx_symbol *s = &p->m->symbols[f->params[i]];
        uint64_t size = ptx_symbol_size(s), a = sym_align(s);
        off = align_up(off, a);
        p->sym_value[f->params[i]] = off;
        k->params[i] = (sim_param_info){ptx_str(p->m, s->name), s->type,
                                        (s->flags & PTX_SYMF_PTR) ||
                                            ptx_type_bits((ptx_type)s->type) == 64,
                                        (uint32_t)size, (uint32_t)a, (uint32_t)off};
        off += size;
    }
    k->nparams = f->nparams;
    k->bytes = (uint32_t)off;
    k->done = true;
}

sim_program *sim_program_new(sim_device *dev, const ptx_module *m, char *err, size_t errlen)
{
    sim_program *p = ptx_xcalloc(1, sizeof *p);
    p->dev = dev;
    p->m = m;
    p->funcs = ptx_xcalloc(m->nfunctions + 1, sizeof *p->funcs);
    p->sym_value = ptx_xcalloc(m->nsymbols + 1, sizeof *p->sym_value);
    p->kernels = ptx_xcalloc(m->nfunctions + 1, sizeof *p->kernels);
    if (m->address_size == 32) {
        sim_fail(err, errlen, "32-bit PTX (.address_size 32) is not supported by the emulator");
        sim_program_free(p);
        return NULL;
    }
    if (layout_variables(p, err, errlen) != 0) {
        sim_program_free(p);
        return NULL;
    }
    for (uint32_t fi = 0; fi < m->nfunctions; fi++)
        if (m->functions[fi].kind == PTX_FUNC_ENTRY)
            layout_params(p, fi);
    for (uint32_t fi = 0; fi < m->nfunctions; fi++) {
        const ptx_function *f = &m->functions[fi];
        sim_func *fn = &p->funcs[fi];
        fn->f = f;
        fn->index = fi;
        if (!(f->flags & PTX_FUNCF_HAS_BODY))
            continue;
        fn->ninstrs = f->ninstrs;
        fn->nregs = f->nregs;
        fn->code = ptx_xcalloc(f->ninstrs + 1, sizeof *fn->code);
        fn->rpc = ptx_xmalloc((f->ninstrs + 1) * sizeof *fn->rpc);
        for (uint32_t pc = 0; pc < f->ninstrs; pc++) {
            decode_instr(p, f, pc, &fn->code[pc]);
            if (fn->code[pc].nregimm > fn->nscratch)
                fn->nscratch = fn->code[pc].nregimm;
        }
        reconvergence(f, fn->rpc);
        sim_func_edges(fn);
        if (f->kind == PTX_FUNC_ENTRY)
            fn->zero_rows = sim_uninit_rows(m, f, &fn->nzero_rows);
    }
    kernel_shared(p);
    return p;
}

void sim_program_free(sim_program *p)
{
    if (!p)
        return;
    for (uint32_t fi = 0; fi < p->m->nfunctions; fi++) {
        sim_func *fn = &p->funcs[fi];
        for (uint32_t pc = 0; pc < fn->ninstrs; pc++)
            free((char *)fn->code[pc].text);
        free(fn->code);
        free(fn->rpc);
        free(fn->lpc);
        free(fn->branch_facts);
        free(fn->edge_taken);
        free(fn->edge_fall);
        free(fn->edge_exit);
        free(fn->zero_rows);
        free(fn->shared_ranges);
        free(p->kernels[fi].params);
    }
    for (uint32_t i = 0; i < p->nglobal_allocs; i++)
        sim_free(p->dev, p->global_allocs[i], NULL, 0);
    sim_forget_notes(p->dev, p);
    free(p->global_allocs);
    free(p->kernels);
    free(p->funcs);
    free(p->sym_value);
    free(p->const_bank);
    free(p->targets);
    free(p->call_syms);
    free(p->call_regs);
    free(p->regimm);
    free(p->frag_pool);
    free(p->frag_pool32);
    free(p->xsrc);
    free(p->addr_pool);
    free(p);
}

/* ---- kernel parameters ------------------------------------------------- */

const sim_param_info *sim_kernel_params(sim_program *p, const char *name, uint32_t *nparams,
                                        uint32_t *param_bytes, char *err, size_t errlen)
{
    uint32_t fi = find_kernel(p, name);
    if (fi == PTX_NONE) {
        sim_fail(err, errlen, "no kernel named '%s' in %s", name,
             p->m->source_name ? p->m->source_name : "the module");
        return NULL;
    }
    const sim_kernel_cache *k = &p->kernels[fi];
    *nparams = k->nparams;
    *param_bytes = k->bytes;
    return k->params;
}

/* The decoded function of kernel `name`, or NULL. */
const sim_func *sim_program_kernel(const sim_program *p, const char *name)
{
    uint32_t fi = find_kernel(p, name);
    return fi == PTX_NONE ? NULL : &p->funcs[fi];
}

/* ---- module variables and kernel attributes ----------------------------- */

int sim_program_symbol(sim_program *p, const char *name, sim_symbol_info *out, char *err,
                       size_t errlen)
{
    const ptx_module *m = p->m;
    for (uint32_t i = 0; i < m->nsymbols; i++) {
        const ptx_symbol *s = &m->symbols[i];
        if (s->kind != PTX_SYM_VAR || s->func != PTX_NONE || strcmp(ptx_str(m, s->name), name) != 0)
            continue;
        uint64_t size = ptx_symbol_size(s), v = p->sym_value[i];
        if (s->space == PTX_SPACE_CONST) {
            *out = (sim_symbol_info){SIM_CONST_WINDOW + v, p->const_bank + v, size, true, false};
            return 0;
        }
        if (s->space == PTX_SPACE_GLOBAL && !(s->flags & PTX_SYMF_EXTERN)) {
            *out = (sim_symbol_info){v, sim_host_pointer(p->dev, v, size), size, false,
                                     (s->flags & PTX_SYMF_MANAGED) != 0};
            return 0;
        }
    }
    return sim_fail(err, errlen, "no .global or .const variable named '%s' in %s", name,
                    m->source_name ? m->source_name : "the module");
}

int sim_kernel_attributes(sim_program *p, const char *name, sim_kernel_attrs *out, char *err,
                          size_t errlen)
{
    uint32_t nparams, bytes;
    if (!sim_kernel_params(p, name, &nparams, &bytes, err, errlen))
        return -1;
    const sim_func *fn = sim_program_kernel(p, name);
    const ptx_function *f = fn->f;
    const uint32_t *lim = f->reqntid[0] ? f->reqntid : f->maxntid;
    uint32_t max = 1024;
    if (lim[0])
        max = lim[0] * (lim[1] ? lim[1] : 1) * (lim[2] ? lim[2] : 1);
    unsigned target = 0;
    for (uint32_t i = 0; i < p->m->ntargets && !target; i++)
        sscanf(ptx_str(p->m, p->m->targets[i]), "sm_%u", &target);
    *out = (sim_kernel_attrs){.registers = fn->nregs, .shared_bytes = fn->shared_used,
                              .local_bytes = fn->local_bytes, .const_bytes = p->const_bytes,
                              .param_bytes = bytes, .max_threads = max < 1024 ? max : 1024,
                              .ptx_version = p->m->version_major * 10 + p->m->version_minor,
                              .target = target};
    return 0;
}
