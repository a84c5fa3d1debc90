/* syntree_print.c — address trees as readable expressions.
 *
 * Each access prints as its instruction and line, the address expression
 * in PTX spelling (mul.wide.s32(%ctaid.x, 4)), its guard and whether it
 * is exact. PHIs print as φN and are defined once, under the first access
 * that uses them: a loop-carried register with its initial and update
 * trees, a join with the value along each incoming edge. */
#include "analysis/syntree.h"

#include <inttypes.h>
#include <stdlib.h>

#include "ir/util.h"

#define MAX_PRINT_DEPTH 16

static const char *const op_names[PTX_STOP_COUNT] = {
    "mov", "add", "sub", "mul.lo", "mul.hi", "mul.wide", "mad.lo", "mad.hi", "mad.wide", "div",
    "rem", "shl", "shr", "and", "or", "xor", "not", "neg", "abs", "min", "max", "cvt", "selp",
    "setp", "guard"};
static const char *const cmp_names[] = {"eq", "ne", "lt", "le", "gt", "ge"};

typedef struct printer {
    const ptx_syntrees *t;
    FILE *out;
    uint8_t *listed;      /* PHIs already defined */
    uint32_t *pending;    /* PHIs met while printing, to define next */
    uint32_t npending;
} printer;

static void expr(printer *p, uint32_t n, unsigned depth);

static void args(printer *p, const ptx_st_node *nd, unsigned depth)
{
    fputc('(', p->out);
    for (uint32_t k = 0; k < nd->nargs; k++) {
        if (k)
            fputs(", ", p->out);
        expr(p, p->t->argpool[nd->args + k], depth + 1);
    }
    fputc(')', p->out);
}

/* Line of the first instruction of block b (0 for an empty block). */
static uint32_t block_line(const ptx_syntrees *t, uint32_t b)
{
    const ptx_block *bk = &t->f->blocks[b];
    return bk->first < bk->end ? t->f->instrs[bk->first].line : 0;
}

static void expr(printer *p, uint32_t n, unsigned depth)
{
    const ptx_syntrees *t = p->t;
    n = ptx_st_resolve(t, n);
    const ptx_st_node *nd = &t->nodes[n];
    if (depth > MAX_PRINT_DEPTH) {
        fputs("...", p->out);
        return;
    }
    switch ((ptx_st_kind)nd->kind) {
    case PTX_ST_CONST:
        fprintf(p->out, "%" PRId64, nd->value);
        break;
    case PTX_ST_PARAM:
        fputs(ptx_symbol_name(t->m, t->f->params[nd->a]), p->out);
        if (nd->value)
            fprintf(p->out, "+%" PRId64, nd->value);
        break;
    case PTX_ST_SREG:
        fputs(ptx_sreg_name((ptx_sreg)nd->a), p->out);
        if (nd->b)
            fprintf(p->out, ".%s", ptx_component_name((ptx_component)nd->b));
        break;
    case PTX_ST_SYMBOL:
        fputs(ptx_symbol_name(t->m, nd->a), p->out);
        if (nd->value)
            fprintf(p->out, "+%" PRId64, nd->value);
        break;
    case PTX_ST_OP:
        if (nd->op == PTX_STOP_MOV) { /* a copy: show what it copies */
            expr(p, t->argpool[nd->args], depth);
            break;
        }
        if (nd->op == PTX_STOP_SETP)
            fprintf(p->out, "setp.%s.%s", cmp_names[nd->cmp], ptx_type_name((ptx_type)nd->type));
        else if (nd->op == PTX_STOP_CVT)
            fprintf(p->out, "cvt.%s.%s", ptx_type_name((ptx_type)nd->type), ptx_type_name((ptx_type)nd->type2));
        else if (nd->op == PTX_STOP_GUARD)
            fputs(nd->neg ? "guard!" : "guard", p->out);
        else
            fprintf(p->out, "%s.%s", op_names[nd->op], ptx_type_name((ptx_type)nd->type));
        args(p, nd, depth);
        break;
    case PTX_ST_PHI:
        fprintf(p->out, "φ%u", n);
        if (!p->listed[n]) {
            p->listed[n] = 1;
            p->pending[p->npending++] = n;
        }
        break;
    case PTX_ST_UNKNOWN:
        fprintf(p->out, "?(%s, line %u)", nd->reason, t->f->instrs[nd->pc].line);
        break;
    case PTX_ST_FORWARD:
        break;
    }
}

/* Define the PHIs met so far (and those their definitions meet). */
static void define_phis(printer *p)
{
    const ptx_syntrees *t = p->t;
    for (uint32_t i = 0; i < p->npending; i++) {
        uint32_t n = p->pending[i];
        const ptx_st_node *nd = &t->nodes[n];
        const ptx_reg *r = &t->f->regs[nd->a];
        fprintf(p->out, "    φ%u = %s", n, ptx_str(t->m, r->name));
        if (r->index != PTX_NONE)
            fprintf(p->out, "%u", r->index);
        fprintf(p->out, " entering the block at line %u:", block_line(t, nd->block));
        for (uint32_t k = 0; k < nd->nargs; k++) {
            uint32_t from = t->preds[t->pred_start[nd->block] + k];
            bool back = from != PTX_NONE && from >= nd->block;
            if (from == PTX_NONE)
                fputs("\n      at launch: ", p->out);
            else
                fprintf(p->out, "\n      %s block at line %u: ", back ? "update from the" : "from the",
                        block_line(t, from));
            expr(p, t->argpool[nd->args + k], 0);
        }
        fputc('\n', p->out);
    }
    p->npending = 0;
}

void ptx_syntrees_print(const ptx_syntrees *t, FILE *out)
{
    static const char *const kinds[] = {"read", "write", "atomic"};
    printer p = {.t = t, .out = out};
    p.listed = ptx_xcalloc(t->nnodes + 1, 1);
    p.pending = ptx_xmalloc((t->nnodes + 1) * sizeof *p.pending);
    fprintf(out, "kernel %s: %u global accesses; reads %s, writes %s\n", ptx_function_name(t->m, t->f),
            t->naccesses, t->reads_exact ? "exact" : "inexact", t->writes_exact ? "exact" : "inexact");
    if (t->inexact_reason)
        fprintf(out, "  inexact: %s (line %u)\n", t->inexact_reason, t->inexact_line);
    for (uint32_t i = 0; i < t->naccesses; i++) {
        const ptx_st_access *a = &t->accesses[i];
        fprintf(out, "  line %u: %s of %u x %u bytes%s at [", a->line, kinds[a->kind], a->vec,
                a->elem_bytes, a->space == PTX_SPACE_NONE ? " (generic)" : "");
        expr(&p, a->addr, 0);
        if (a->offset)
            fprintf(out, " + %" PRId64, a->offset);
        fputc(']', out);
        if (a->guard != PTX_NONE) {
            fputs(a->guard_neg ? " unless " : " if ", out);
            expr(&p, a->guard, 0);
        }
        fputs(a->exact ? "\n" : "  (inexact)\n", out);
        define_phis(&p);
    }
    free(p.listed);
    free(p.pending);
}
