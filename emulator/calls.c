/* calls.c — passing a call's arguments into the callee and its results
 * back. Each side of an argument or result is a .param slot on the
 * per-thread local stacks (the caller's call slot, the callee's .param
 * parameter) or registers (a .reg parameter; the caller's registers and
 * immediates). The value travels as the bytes of the callee's parameter,
 * element k of a vector at k times the element size, so every pairing
 * (slot to slot, registers to a .reg parameter, a register into a .param
 * parameter, ...) is the same copy. */
#include <string.h>

#include "emulator/internal.h"

/* The largest parameter passed through a buffer: 16 bytes a register
 * vector, and .param arrays up to this size. */
enum { MAX_BYTES = 4096 };

/* The registers and stack of one side of a call for one warp. */
typedef struct side {
    uint64_t *rows;
    uint8_t *taint;    /* dynamic taint of rows, or NULL */
    uint32_t stride;
    bool by_lane;      /* rows indexed by lane (a call frame), else by thread */
    uint32_t sp;       /* frame offset on the local stacks */
} side;

/* Row index of lane k of warp w on side s. */
static size_t at(const side *s, const sim_warp *w, uint32_t r, uint32_t k)
{
    return (size_t)r * s->stride + (s->by_lane ? k : w->t[k]);
}

/* The caller of the innermost w->nframes frames: the function below, or
 * the kernel. */
static side caller_of(const sim_cta *c, const sim_warp *w, uint32_t nframes)
{
    if (nframes == 0)
        return (side){c->kernel_rows, c->kernel_taint, c->nthreads, false, c->prog->module_local};
    const sim_frame *f = &w->frames[nframes - 1];
    return (side){f->rows, f->taint, 32, true, f->sp};
}

/* Bytes of one element of parameter symbol p (a .reg parameter's
 * component; a .param parameter is one element of its whole size). */
static uint32_t elem_bytes(const ptx_symbol *p)
{
    if (p->reg == PTX_NONE)
        return (uint32_t)ptx_symbol_size(p);
    uint32_t b = (ptx_type_bits((ptx_type)p->type) + 7) / 8;
    return b ? b : 1;
}

/* Bytes of parameter p (all components of a .reg vector). */
static uint32_t param_bytes(const ptx_symbol *p)
{
    return p->reg == PTX_NONE ? (uint32_t)ptx_symbol_size(p) : elem_bytes(p) * p->vec;
}

/* Read parameter p of the frame side s for lane k into buf (size bytes). */
static uint8_t get_param(const sim_cta *c, const sim_warp *w, const side *s, const ptx_symbol *p,
                         uint32_t sym, uint32_t k, uint8_t *buf, uint32_t size)
{
    uint8_t taint = 0;
    if (p->reg == PTX_NONE) {
        size_t base = (size_t)w->t[k] * c->local_bytes + s->sp + c->prog->sym_value[sym];
        memcpy(buf, c->local + base, size);
        if (c->local_taint)
            taint = c->local_taint[base];
        return taint;
    }
    uint32_t es = elem_bytes(p);
    for (uint32_t j = 0; j < p->vec; j++) {
        uint64_t v = s->rows[at(s, w, p->reg + j, k)];
        memcpy(buf + j * es, &v, es < 8 ? es : 8);
        if (s->taint && s->taint[at(s, w, p->reg + j, k)] > taint)
            taint = s->taint[at(s, w, p->reg + j, k)];
    }
    return taint;
}

/* Write buf (size bytes) into parameter p on side s for lane k. */
static void put_param(sim_cta *c, const sim_warp *w, const side *s, const ptx_symbol *p, uint32_t sym,
                      uint32_t k, const uint8_t *buf, uint32_t size, uint8_t taint)
{
    if (p->reg == PTX_NONE) {
        size_t base = (size_t)w->t[k] * c->local_bytes + s->sp + c->prog->sym_value[sym];
        memcpy(c->local + base, buf, size);
        if (c->local_taint)
            memset(c->local_taint + base, taint, size);
        return;
    }
    uint32_t es = elem_bytes(p);
    unsigned bits = ptx_type_bits((ptx_type)p->type);
    for (uint32_t j = 0; j < p->vec; j++) {
        uint64_t v = 0;
        memcpy(&v, buf + j * es, es < 8 ? es : 8);
        if (p->type == PTX_TYPE_PRED)
            v = v != 0;
        else if (bits < 64)
            v &= (1ull << bits) - 1;
        s->rows[at(s, w, p->reg + j, k)] = v;
        if (s->taint)
            s->taint[at(s, w, p->reg + j, k)] = taint;
    }
}

/* The caller's value of argument position idx (slot or registers) for
 * lane k into buf, size bytes (the callee parameter's). */
static uint8_t get_arg(const sim_cta *c, const sim_warp *w, const side *s, uint32_t idx, uint32_t k,
                       uint8_t *buf, uint32_t size)
{
    const sim_program *p = c->prog;
    uint32_t sym = p->call_syms[idx];
    memset(buf, 0, size);
    if (sym != PTX_NONE) {
        const ptx_symbol *a = &p->m->symbols[sym];
        uint32_t n = (uint32_t)ptx_symbol_size(a);
        size_t base = (size_t)w->t[k] * c->local_bytes + s->sp + p->sym_value[sym];
        memcpy(buf, c->local + base, n < size ? n : size);
        return c->local_taint ? c->local_taint[base] : 0;
    }
    const sim_call_regs *cr = &p->call_regs[idx];
    uint32_t es = cr->n ? size / cr->n : 0;
    uint8_t taint = 0;
    for (uint32_t j = 0; j < cr->n; j++) {
        const sim_src *src = &p->xsrc[cr->first + j];
        uint64_t v = src->imm == 0 ? s->rows[at(s, w, src->row, k)]
                   : src->imm == 3 ? src->value + s->sp : src->value;
        memcpy(buf + j * es, &v, es < 8 ? es : 8);
        if (src->imm == 0 && s->taint && s->taint[at(s, w, src->row, k)] > taint)
            taint = s->taint[at(s, w, src->row, k)];
    }
    return taint;
}

/* Write a result (size bytes in buf) to the caller's position idx for
 * lane k: its call slot, or its destination registers. */
static void put_result(sim_cta *c, const sim_warp *w, const side *s, uint32_t idx, uint32_t k,
                       const uint8_t *buf, uint32_t size, uint8_t taint)
{
    const sim_program *p = c->prog;
    uint32_t sym = p->call_syms[idx];
    if (sym != PTX_NONE) {
        uint32_t n = (uint32_t)ptx_symbol_size(&p->m->symbols[sym]);
        size_t base = (size_t)w->t[k] * c->local_bytes + s->sp + p->sym_value[sym];
        memcpy(c->local + base, buf, n < size ? n : size);
        if (c->local_taint)
            memset(c->local_taint + base, taint, n < size ? n : size);
        return;
    }
    const sim_call_regs *cr = &p->call_regs[idx];
    uint32_t es = cr->n ? size / cr->n : 0;
    for (uint32_t j = 0; j < cr->n; j++) {
        const sim_src *dst = &p->xsrc[cr->first + j];
        if (dst->row == PTX_NONE)
            continue; /* _ */
        uint64_t v = 0;
        memcpy(&v, buf + j * es, es < 8 ? es : 8);
        s->rows[at(s, w, dst->row, k)] = dst->value == 64 ? v : v & ((1ull << dst->value) - 1);
        if (s->taint)
            s->taint[at(s, w, dst->row, k)] = taint;
    }
}

bool sim_call_args(sim_cta *c, const sim_warp *w, const sim_inst *in, const sim_frame *f, uint32_t lanes)
{
    const sim_program *p = c->prog;
    const ptx_function *cf = f->fn->f;
    side caller = caller_of(c, w, w->nframes), callee = {f->rows, f->taint, 32, true, f->sp};
    uint8_t buf[MAX_BYTES];
    for (uint32_t i = 0; i < cf->nparams + cf->nrets; i++) {
        const ptx_symbol *ps = &p->m->symbols[i < cf->nparams ? cf->params[i] : cf->rets[i - cf->nparams]];
        if (param_bytes(ps) > MAX_BYTES) {
            sim_fault(c, SIM_ERR_UNSUPPORTED, "parameter %s of %s has %u bytes (calls pass at most %u), "
                      "kernel %s, PTX line %u", ptx_str(p->m, ps->name), ptx_function_name(p->m, cf),
                      param_bytes(ps), (unsigned)MAX_BYTES, c->kernel, in->line);
            return false;
        }
    }
    for (uint32_t i = 0; i < in->nsrc; i++) {
        uint32_t par = cf->params[i], idx = in->ntargets + in->ndst + i;
        const ptx_symbol *ps = &p->m->symbols[par];
        uint32_t size = param_bytes(ps);
        for (uint32_t m = lanes; m; m &= m - 1) {
            uint32_t k = (uint32_t)__builtin_ctz(m);
            uint8_t taint = get_arg(c, w, &caller, idx, k, buf, size);
            put_param(c, w, &callee, ps, par, k, buf, size, taint);
        }
    }
    return true;
}

void sim_call_results(sim_cta *c, const sim_warp *w, const sim_inst *in, const sim_frame *f, uint32_t lanes)
{
    const sim_program *p = c->prog;
    const ptx_function *cf = f->fn->f;
    side caller = caller_of(c, w, w->nframes), callee = {f->rows, f->taint, 32, true, f->sp};
    uint8_t buf[MAX_BYTES];
    for (uint32_t i = 0; i < in->ndst; i++) {
        uint32_t ret = cf->rets[i], idx = in->ntargets + i;
        const ptx_symbol *rs = &p->m->symbols[ret];
        uint32_t size = param_bytes(rs); /* at most MAX_BYTES: sim_call_args checked */
        for (uint32_t m = lanes; m; m &= m - 1) {
            uint32_t k = (uint32_t)__builtin_ctz(m);
            uint8_t taint = get_param(c, w, &callee, rs, ret, k, buf, size);
            put_result(c, w, &caller, idx, k, buf, size, taint);
        }
    }
}
