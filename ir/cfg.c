/* cfg.c — basic blocks and edges of a function.
 *
 * A block starts at the first instruction, at every labelled position, and
 * after every branch, brx.idx, ret, exit and trap. Successors of a block, in
 * order: the branch target(s) (brx.idx: every entry of its .branchtargets
 * list), then the fall-through block when the terminator is guarded or is not
 * a branch. ret/exit/trap, and falling off the end of the function, lead to
 * the virtual exit block, which comes last and holds no instructions, so
 * post-dominance is always defined. Duplicate edges are merged. */
#include <stdlib.h>
#include <string.h>

#include "ir/ir.h"
#include "ir/module_impl.h"
#include "ir/util.h"

static bool is_terminator(ptx_opcode op)
{
    return op == PTX_OP_BRA || op == PTX_OP_BRX_IDX || op == PTX_OP_RET ||
           op == PTX_OP_EXIT || op == PTX_OP_TRAP;
}

/* Mark block leaders: entry, label targets, instructions after terminators.
 * Returns whether some label points just past the last instruction. */
static bool mark_leaders(const ptx_module *m, const ptx_function *f, uint8_t *leader)
{
    bool label_at_end = false;
    if (f->ninstrs)
        leader[0] = 1;
    for (uint32_t i = 0; i < f->nlabels; i++) {
        const ptx_label *l = &f->labels[i];
        if (l->kind != PTX_LABEL_CODE || !l->defined)
            continue;
        if (l->instr < f->ninstrs)
            leader[l->instr] = 1;
        else
            label_at_end = true;
    }
    for (uint32_t i = 0; i + 1 < f->ninstrs; i++)
        if (is_terminator((ptx_opcode)m->forms[f->instrs[i].form].opcode))
            leader[i + 1] = 1;
    return label_at_end;
}

/* Block holding the instruction a code label points at. */
static uint32_t label_block(const ptx_function *f, uint32_t label, uint32_t end_block)
{
    const ptx_label *l = &f->labels[label];
    return l->instr < f->ninstrs ? f->instr_block[l->instr] : end_block;
}

typedef struct edge_buf { uint32_t *v; uint32_t n, cap; } edge_buf;

/* Append successor s of the current block unless it is already listed. */
static void add_succ(edge_buf *e, uint32_t start, uint32_t s)
{
    for (uint32_t i = start; i < e->n; i++)
        if (e->v[i] == s)
            return;
    e->v = ptx_grow(e->v, &e->cap, (uint64_t)e->n + 1, sizeof *e->v);
    e->v[e->n++] = s;
}

/* Successors of block bi ending in instruction t (or empty). */
static void block_succs(const ptx_module *m, const ptx_function *f, uint32_t bi, edge_buf *e,
                        uint32_t start)
{
    const ptx_block *bk = &f->blocks[bi];
    uint32_t next = bi + 1; /* the exit block follows the last real block */
    if (bk->first == bk->end) {
        add_succ(e, start, next);
        return;
    }
    const ptx_instr *t = &f->instrs[bk->end - 1];
    ptx_opcode op = (ptx_opcode)m->forms[t->form].opcode;
    bool guarded = t->guard != PTX_NONE;
    uint32_t end_block = f->exit_block - 1;
    if (op == PTX_OP_BRA && t->noperands >= 1) {
        const ptx_operand *o = &f->operands[t->operands + t->noperands - 1];
        if (o->kind == PTX_OPD_LABEL)
            add_succ(e, start, label_block(f, o->id, end_block));
    } else if (op == PTX_OP_BRX_IDX && t->noperands >= 2) {
        const ptx_operand *o = &f->operands[t->operands + 1];
        const ptx_label *tbl = o->kind == PTX_OPD_LABEL ? &f->labels[o->id] : NULL;
        if (tbl && tbl->kind == PTX_LABEL_BRANCHTARGETS)
            for (uint32_t k = 0; k < tbl->count; k++)
                add_succ(e, start, label_block(f, f->label_lists[tbl->first + k], end_block));
    } else if (op == PTX_OP_RET || op == PTX_OP_EXIT || op == PTX_OP_TRAP) {
        add_succ(e, start, f->exit_block);
    } else {
        guarded = true; /* not a terminator: falls through */
    }
    if (guarded)
        add_succ(e, start, next);
}

void ptx_build_cfg(ptx_module *m, ptx_function *f)
{
    ptx_arena *arena = ptx_module_arena(m); /* a rebuilt CFG leaves the old one there */
    uint8_t *leader = ptx_xcalloc(f->ninstrs + 1, 1);
    bool label_at_end = mark_leaders(m, f, leader);
    uint32_t nreal = 0;
    for (uint32_t i = 0; i < f->ninstrs; i++)
        nreal += leader[i];
    bool end_block = label_at_end || f->ninstrs == 0;
    uint32_t n = nreal + (end_block ? 1 : 0) + 1; /* + virtual exit */
    f->blocks = ptx_arena_alloc(arena, n * sizeof *f->blocks);
    memset(f->blocks, 0, n * sizeof *f->blocks);
    f->instr_block = ptx_arena_alloc(arena, (f->ninstrs ? f->ninstrs : 1) * sizeof *f->instr_block);
    uint32_t bi = 0;
    for (uint32_t i = 0; i < f->ninstrs; i++) {
        if (leader[i]) {
            if (i > 0)
                f->blocks[bi - 1].end = i;
            f->blocks[bi++].first = i;
        }
        f->instr_block[i] = bi - 1;
    }
    if (bi > 0)
        f->blocks[bi - 1].end = f->ninstrs;
    if (end_block) {
        f->blocks[bi].first = f->blocks[bi].end = f->ninstrs;
        bi++;
    }
    f->blocks[bi].first = f->blocks[bi].end = f->ninstrs;
    f->exit_block = bi;
    f->nblocks = n;
    free(leader);

    edge_buf e = {0};
    for (uint32_t b = 0; b < f->exit_block; b++) {
        uint32_t start = e.n;
        block_succs(m, f, b, &e, start);
        f->blocks[b].succ = start;
        f->blocks[b].nsucc = e.n - start;
        for (uint32_t k = start; k < e.n; k++)
            if (e.v[k] == f->exit_block)
                f->blocks[b].exits = 1;
    }
    f->blocks[f->exit_block].succ = e.n;
    f->succs = ptx_arena_dup(arena, e.v, e.n * sizeof *e.v);
    f->nsuccs = e.n;
    free(e.v);

    /* predecessors: counting sort of the edges by target */
    uint32_t *count = ptx_xcalloc(n + 1, sizeof *count);
    for (uint32_t k = 0; k < e.n; k++)
        count[f->succs[k] + 1]++;
    for (uint32_t b = 0; b < n; b++)
        count[b + 1] += count[b];
    f->preds = ptx_arena_alloc(arena, (e.n ? e.n : 1) * sizeof *f->preds);
    f->npreds = e.n;
    for (uint32_t b = 0; b < n; b++) {
        f->blocks[b].pred = count[b];
        f->blocks[b].npred = count[b + 1] - count[b];
    }
    for (uint32_t b = 0; b < f->exit_block; b++)
        for (uint32_t k = 0; k < f->blocks[b].nsucc; k++) {
            uint32_t t = f->succs[f->blocks[b].succ + k];
            f->preds[count[t]++] = b;
        }
    free(count);
}
