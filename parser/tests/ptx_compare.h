/* ptx_compare.h — structural comparison of two modules, for tests.
 *
 * Two modules are equal when they have the same header, the same
 * module-level declarations, and every function has the same signature,
 * registers, instructions (opcode, written modifiers, guard, operands by
 * name and value) and CFG. Names are compared as text, ids are not, so a
 * module and its printed-and-reparsed copy compare equal. */
#ifndef SIMTLAB_PTX_COMPARE_H
#define SIMTLAB_PTX_COMPARE_H

#include <stdio.h>
#include <string.h>

#include "ir/ir.h"

static void cmp_reg_name(const ptx_module *m, const ptx_function *f, uint32_t r, char *buf,
                         size_t n)
{
    const ptx_reg *g = &f->regs[r];
    char lane[4] = "";
    if (ptx_reg_vec(f, r) > 1) /* a component of a vector register */
        snprintf(lane, sizeof lane, ".%c", "xyzw"[g->lane & 3]);
    if (g->index == PTX_NONE)
        snprintf(buf, n, "%s%s", ptx_str(m, g->name), lane);
    else
        snprintf(buf, n, "%s%u%s", ptx_str(m, g->name), g->index, lane);
}

/* Compare two operands recursively; writes the first difference to why. */
static int cmp_operand(const ptx_module *a, const ptx_function *fa, const ptx_operand *x,
                       const ptx_module *b, const ptx_function *fb, const ptx_operand *y,
                       char *why, size_t n)
{
    if (x->kind != y->kind || x->flags != y->flags || x->comp != y->comp || x->count != y->count) {
        snprintf(why, n, "operand kind/flags/comp/count %u/%u/%u/%u vs %u/%u/%u/%u", x->kind,
                 x->flags, x->comp, x->count, y->kind, y->flags, y->comp, y->count);
        return 0;
    }
    char s1[256], s2[256];
    switch ((ptx_operand_kind)x->kind) {
    case PTX_OPD_REG:
    case PTX_OPD_REG_IMM:
        cmp_reg_name(a, fa, x->id, s1, sizeof s1);
        cmp_reg_name(b, fb, y->id, s2, sizeof s2);
        if (strcmp(s1, s2) != 0 || x->value != y->value) {
            snprintf(why, n, "register %.60s%+lld vs %.60s%+lld", s1, (long long)x->value, s2,
                     (long long)y->value);
            return 0;
        }
        return 1;
    case PTX_OPD_SREG:
    case PTX_OPD_IMM:
    case PTX_OPD_F32:
    case PTX_OPD_F64:
    case PTX_OPD_SINK:
        if ((x->kind == PTX_OPD_SREG && x->id != y->id) || x->value != y->value) {
            snprintf(why, n, "value %lld vs %lld", (long long)x->value, (long long)y->value);
            return 0;
        }
        return 1;
    case PTX_OPD_SYM:
        if (strcmp(ptx_symbol_name(a, x->id), ptx_symbol_name(b, y->id)) != 0 || x->value != y->value) {
            snprintf(why, n, "symbol %s vs %s", ptx_symbol_name(a, x->id), ptx_symbol_name(b, y->id));
            return 0;
        }
        return 1;
    case PTX_OPD_LABEL:
        if (strcmp(ptx_str(a, fa->labels[x->id].name), ptx_str(b, fb->labels[y->id].name)) != 0) {
            snprintf(why, n, "label differs");
            return 0;
        }
        return 1;
    case PTX_OPD_ADDR:
        if (x->value != y->value || (x->id == PTX_NONE) != (y->id == PTX_NONE)) {
            snprintf(why, n, "address offset/base differ");
            return 0;
        }
        if (x->id == PTX_NONE)
            return 1;
        if (x->flags & PTX_OPF_ADDR_SYM) {
            if (strcmp(ptx_symbol_name(a, x->id), ptx_symbol_name(b, y->id)) != 0) {
                snprintf(why, n, "address symbol differs");
                return 0;
            }
            return 1;
        }
        cmp_reg_name(a, fa, x->id, s1, sizeof s1);
        cmp_reg_name(b, fb, y->id, s2, sizeof s2);
        if (strcmp(s1, s2) != 0) {
            snprintf(why, n, "address register %.60s vs %.60s", s1, s2);
            return 0;
        }
        return 1;
    default:
        for (unsigned i = 0; i < x->count; i++)
            if (!cmp_operand(a, fa, &fa->operands[x->id + i], b, fb, &fb->operands[y->id + i], why, n))
                return 0;
        return 1;
    }
}

static int cmp_forms(const ptx_module *a, const ptx_form *x, const ptx_module *b, const ptx_form *y)
{
    if (x->opcode != y->opcode || x->ntokens != y->ntokens)
        return 0;
    for (unsigned i = 0; i < x->ntokens; i++)
        if (a->form_tokens[x->first_token + i] != b->form_tokens[y->first_token + i])
            return 0;
    return 1;
}

static int cmp_functions(const ptx_module *a, const ptx_function *fa, const ptx_module *b,
                         const ptx_function *fb, char *why, size_t n)
{
    if (strcmp(ptx_function_name(a, fa), ptx_function_name(b, fb)) != 0 || fa->kind != fb->kind ||
        fa->flags != fb->flags || fa->nparams != fb->nparams || fa->nrets != fb->nrets ||
        fa->ninstrs != fb->ninstrs || fa->nregs != fb->nregs || fa->nblocks != fb->nblocks) {
        snprintf(why, n, "function %s: signature or counts differ (instrs %u vs %u, regs %u vs %u, blocks %u vs %u)",
                 ptx_function_name(a, fa), fa->ninstrs, fb->ninstrs, fa->nregs, fb->nregs,
                 fa->nblocks, fb->nblocks);
        return 0;
    }
    for (uint32_t i = 0; i < fa->ninstrs; i++) {
        const ptx_instr *x = &fa->instrs[i], *y = &fb->instrs[i];
        char sub[200] = "";
        int ok = cmp_forms(a, &a->forms[x->form], b, &b->forms[y->form]) &&
                 x->noperands == y->noperands && x->guard_neg == y->guard_neg &&
                 (x->guard == PTX_NONE) == (y->guard == PTX_NONE);
        for (unsigned k = 0; ok && k < x->noperands; k++)
            ok = cmp_operand(a, fa, &fa->operands[x->operands + k], b, fb,
                             &fb->operands[y->operands + k], sub, sizeof sub);
        if (!ok) {
            snprintf(why, n, "function %s: instruction %u (line %u vs %u) differs: %s",
                     ptx_function_name(a, fa), i, x->line, y->line, sub);
            return 0;
        }
    }
    for (uint32_t i = 0; i < fa->nblocks; i++) {
        const ptx_block *x = &fa->blocks[i], *y = &fb->blocks[i];
        int ok = x->first == y->first && x->end == y->end && x->nsucc == y->nsucc && x->exits == y->exits;
        for (uint32_t k = 0; ok && k < x->nsucc; k++)
            ok = fa->succs[x->succ + k] == fb->succs[y->succ + k];
        if (!ok) {
            snprintf(why, n, "function %s: block %u differs", ptx_function_name(a, fa), i);
            return 0;
        }
    }
    return 1;
}

static int cmp_inits(const ptx_module *a, uint32_t i, const ptx_module *b, uint32_t j)
{
    if ((i == PTX_NONE) != (j == PTX_NONE))
        return 0;
    if (i == PTX_NONE)
        return 1;
    const ptx_init *x = &a->inits[i], *y = &b->inits[j];
    if (x->kind != y->kind || x->count != y->count || x->value != y->value || x->flags != y->flags)
        return 0;
    if (x->kind == PTX_INIT_SYM)
        return strcmp(ptx_symbol_name(a, x->id), ptx_symbol_name(b, y->id)) == 0;
    if (x->kind == PTX_INIT_NAME || x->kind == PTX_INIT_NAMED) {
        if (strcmp(ptx_str(a, x->id), ptx_str(b, y->id)) != 0)
            return 0;
        return x->kind == PTX_INIT_NAME || cmp_inits(a, x->first, b, y->first);
    }
    if (x->kind == PTX_INIT_LIST) {
        for (uint32_t k = 0; k < x->count; k++)
            if (!cmp_inits(a, x->first + k, b, y->first + k))
                return 0;
    }
    return 1;
}

/* 1 when a and b are structurally equal; else 0 with the reason in why. */
static int ptx_modules_equal(const ptx_module *a, const ptx_module *b, char *why, size_t n)
{
    if (a->version_major != b->version_major || a->version_minor != b->version_minor ||
        a->ntargets != b->ntargets || a->address_size != b->address_size ||
        a->nfunctions != b->nfunctions || a->ntops != b->ntops) {
        snprintf(why, n, "module header or counts differ (functions %u vs %u, tops %u vs %u)",
                 a->nfunctions, b->nfunctions, a->ntops, b->ntops);
        return 0;
    }
    for (uint32_t i = 0; i < a->ntops; i++) {
        const ptx_top *x = &a->tops[i], *y = &b->tops[i];
        if (x->kind != y->kind) {
            snprintf(why, n, "top-level statement %u differs in kind", i);
            return 0;
        }
        if (x->kind == PTX_TOP_VAR) {
            const ptx_symbol *s = &a->symbols[x->index], *t = &b->symbols[y->index];
            if (strcmp(ptx_symbol_name(a, x->index), ptx_symbol_name(b, y->index)) != 0 ||
                s->space != t->space || s->type != t->type || s->align != t->align ||
                s->flags != t->flags || s->ndims != t->ndims ||
                memcmp(s->dims, t->dims, sizeof s->dims) != 0 || !cmp_inits(a, s->init, b, t->init)) {
                snprintf(why, n, "variable %s differs", ptx_symbol_name(a, x->index));
                return 0;
            }
        }
    }
    for (uint32_t i = 0; i < a->nfunctions; i++)
        if (!cmp_functions(a, &a->functions[i], b, &b->functions[i], why, n))
            return 0;
    return 1;
}

#endif
