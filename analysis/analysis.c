/* analysis.c — running every analysis on a module and keeping the results
 * as annotations (analysis.h). */
#include "analysis/analysis.h"

#include <stdlib.h>
#include <string.h>

#include "analysis/cdep.h"
#include "analysis/defuse.h"
#include "analysis/dom.h"
#include "analysis/loops.h"
#include "analysis/lpc.h"
#include "analysis/nextaccess.h"
#include "analysis/regalloc.h"
#include "analysis/taint.h"
#include "ir/util.h"

_Static_assert(PTX_IDLE_MAX <= UINT16_MAX, "idle estimates fit ptx_access_note.idle");

/* What one function's analyses produce, before it becomes notes. */
typedef struct func_results {
    ptx_domtree dom, pdom;
    ptx_cdep cdep;
    ptx_loops loops;
    ptx_defuse du;
    ptx_taint_result taint;
    ptx_nextaccess next;
    uint32_t *lpc;
} func_results;

static void run_all(const ptx_module *m, const ptx_function *f, const ptx_analysis_options *opt,
                    func_results *r)
{
    ptx_dominators(f, &r->dom);
    ptx_postdominators(f, &r->pdom);
    ptx_cdep_build(f, &r->pdom, &r->cdep);
    ptx_loops_find(f, &r->dom, &r->loops);
    ptx_defuse_build(m, f, &r->du);
    ptx_taint_options topt = {.control_dependence = opt && opt->control_dependence};
    ptx_taint_analyze(m, f, &r->du, &topt, &r->taint);
    r->lpc = ptx_lpc_static(f, &r->pdom, &r->loops);
    ptx_nextaccess_analyze(m, f, &r->du, ptx_default_latency, NULL, &r->next);
}

static void free_all(func_results *r)
{
    ptx_domtree_free(&r->dom);
    ptx_domtree_free(&r->pdom);
    ptx_cdep_free(&r->cdep);
    ptx_loops_free(&r->loops);
    ptx_defuse_free(&r->du);
    ptx_taint_free(&r->taint);
    ptx_nextaccess_free(&r->next);
    free(r->lpc);
}

/* First instruction of block b, or PTX_NONE for the virtual exit and for an
 * empty block at the end of the function (both mean "function end"). */
static uint32_t block_pc(const ptx_function *f, uint32_t b)
{
    if (b == PTX_NONE || b == f->exit_block || f->blocks[b].first >= f->ninstrs)
        return PTX_NONE;
    return f->blocks[b].first;
}

static uint32_t pc_line(const ptx_function *f, uint32_t pc)
{
    return pc == PTX_NONE ? 0 : f->instrs[pc].line;
}

/* The note of the branch at pc; its list of controlled blocks lives in a's
 * store. */
static ptx_branch_note branch_note(const ptx_module *m, const ptx_function *f,
                                   const func_results *r, uint32_t pc, ptx_annotations *a)
{
    const ptx_instr *in = &f->instrs[pc];
    const ptx_form *fm = &m->forms[in->form];
    uint32_t b = f->instr_block[pc];
    ptx_branch_note n = {.pc = pc, .line = in->line, .ipdom_pc = PTX_NONE, .lpc_pc = PTX_NONE};
    n.conditional = in->guard != PTX_NONE || fm->opcode == PTX_OP_BRX_IDX;
    n.uni = ptx_form_has(m, fm, PTX_MOD_UNI);
    n.reconverges = ptx_reachable(&r->pdom, b);
    uint32_t ipdom = n.reconverges ? r->pdom.idom[b] : PTX_NONE;
    n.ipdom_pc = block_pc(f, ipdom);
    n.ipdom_line = pc_line(f, n.ipdom_pc);
    n.lpc_pc = r->lpc[pc];
    n.lpc_line = pc_line(f, n.lpc_pc);
    n.cls = n.conditional ? r->taint.branch_class[pc] : PTX_BRANCH_UNIFORM;
    n.cta_uniform = n.conditional ? r->taint.cta_uniform[pc] : true;
    n.interleavable = n.conditional && n.reconverges;
    for (uint32_t k = 0; n.interleavable && k < f->blocks[b].nsucc; k++)
        if (f->succs[f->blocks[b].succ + k] == ipdom)
            n.interleavable = false;
    if (n.conditional) {
        uint32_t first = r->cdep.start[b], count = r->cdep.start[b + 1] - first;
        n.controls = ptx_annotations_alloc(a, count * sizeof *n.controls);
        for (uint32_t k = 0; k < count; k++) {
            uint32_t dep = block_pc(f, r->cdep.deps[first + k]);
            if (dep != PTX_NONE)
                n.controls[n.ncontrols++] = dep;
        }
    }
    return n;
}

static void loop_notes(const ptx_function *f, const func_results *r, ptx_annotations *a,
                       ptx_kernel_notes *k)
{
    k->nloops = r->loops.nloops;
    k->loops = ptx_annotations_alloc(a, k->nloops * sizeof *k->loops);
    for (uint32_t i = 0; i < k->nloops; i++) {
        const ptx_loop *l = &r->loops.loops[i];
        ptx_loop_note *n = &k->loops[i];
        n->header_pc = block_pc(f, l->header);
        n->header_line = pc_line(f, n->header_pc);
        n->depth = l->depth;
        n->irreducible = l->irreducible;
        n->nlatches = l->nlatches;
        n->latch_lines = ptx_annotations_alloc(a, l->nlatches * sizeof *n->latch_lines);
        for (uint32_t j = 0; j < l->nlatches; j++) {
            const ptx_block *bk = &f->blocks[l->latches[j]];
            n->latch_lines[j] = bk->end > bk->first ? f->instrs[bk->end - 1].line : 0;
        }
    }
}

/* Number of decimal digits of v. */
static size_t digits_of(uint32_t v)
{
    size_t n = 1;
    for (; v >= 10; v /= 10)
        n++;
    return n;
}

/* Length of register g's name when its prefix ("%r") has plen bytes: the
 * prefix, the index, and ".y" for a vector register's component (lane). */
static size_t reg_name_len(const ptx_reg *g, size_t plen, bool lane)
{
    return plen + (g->index == PTX_NONE ? 0 : digits_of(g->index)) + (lane ? 2 : 0);
}

/* Write "%r12" (a vector register's component: "%v.y") for register g at
 * dst (built by hand: this runs for every register of every function, and
 * printf is slow), prefix being the register's name ("%r") of length plen;
 * returns the length written. */
static size_t reg_name(const ptx_reg *g, const char *prefix, size_t plen, bool lane, char *dst)
{
    memcpy(dst, prefix, plen);
    size_t nd = g->index == PTX_NONE ? 0 : digits_of(g->index);
    for (size_t i = nd, v = g->index; i-- > 0; v /= 10)
        dst[plen + i] = (char)('0' + v % 10);
    size_t n = plen + nd;
    if (lane) {
        dst[n++] = '.';
        dst[n++] = "xyzw"[g->lane & 3];
    }
    dst[n] = '\0';
    return n;
}

/* Registers with their accesses (in program order), skipping the carry
 * pseudo-register and registers never accessed; names and accesses live in
 * two pools of the kernel's notes. */
static void register_notes(const ptx_module *m, const ptx_function *f, const func_results *r,
                           ptx_annotations *a, ptx_kernel_notes *k)
{
    /* accesses per register, then each register's slot among the notes */
    uint32_t *slot = ptx_xcalloc(f->nregs + 1, sizeof *slot);
    uint32_t total = 0;
    for (uint32_t i = 0; i < r->next.nacc; i++)
        if (r->next.acc[i].reg < f->nregs) {
            slot[r->next.acc[i].reg]++;
            total++;
        }
    size_t names = 0, plen = 0;
    uint32_t used = 0, prefix = PTX_NONE;
    for (uint32_t reg = 0; reg < f->nregs; reg++)
        if (slot[reg]) {
            const ptx_reg *g = &f->regs[reg];
            if (g->name != prefix) { /* registers come in runs of one prefix */
                prefix = g->name;
                plen = strlen(ptx_str(m, prefix));
            }
            names += reg_name_len(g, plen, ptx_reg_vec(f, reg) > 1) + 1;
            used++;
        }
    k->regs = ptx_annotations_alloc(a, used * sizeof *k->regs);
    /* every byte of the two pools is written below */
    k->name_pool = ptx_arena_alloc(&a->store, names ? names : 1);
    k->access_pool = ptx_arena_alloc(&a->store, (total ? total : 1) * sizeof *k->access_pool);
    size_t npos = 0;
    uint32_t apos = 0;
    const char *pstr = "";
    prefix = PTX_NONE;
    for (uint32_t reg = 0; reg < f->nregs; reg++) {
        if (!slot[reg])
            continue;
        const ptx_reg *g = &f->regs[reg];
        if (g->name != prefix) {
            prefix = g->name;
            pstr = ptx_str(m, prefix);
            plen = strlen(pstr);
        }
        ptx_reg_note *n = &k->regs[k->nregs];
        n->name = k->name_pool + npos;
        npos += reg_name(g, pstr, plen, ptx_reg_vec(f, reg) > 1, n->name) + 1;
        n->type = g->type;
        n->accesses = k->access_pool + apos;
        apos += slot[reg];
        slot[reg] = k->nregs++;
    }
    for (uint32_t i = 0; i < r->next.nacc; i++) {
        const ptx_access *ac = &r->next.acc[i];
        if (ac->reg >= f->nregs)
            continue;
        ptx_reg_note *n = &k->regs[slot[ac->reg]];
        n->accesses[n->naccesses++] = (ptx_access_note){.pc = ac->pc,
                                                        .line = f->instrs[ac->pc].line,
                                                        .idle = (uint16_t)ac->idle,
                                                        .is_write = ac->is_write,
                                                        .next = ac->next};
    }
    free(slot);
}

/* Is the instruction at pc a branch (bra, brx.idx)? */
static bool is_branch(const ptx_module *m, const ptx_function *f, uint32_t pc)
{
    ptx_opcode op = (ptx_opcode)m->forms[f->instrs[pc].form].opcode;
    return op == PTX_OP_BRA || op == PTX_OP_BRX_IDX;
}

static void kernel_notes(const ptx_module *m, const ptx_function *f, const func_results *r,
                         ptx_annotations *a, ptx_kernel_notes *k)
{
    const char *name = ptx_function_name(m, f);
    k->name = ptx_annotations_alloc(a, strlen(name) + 1);
    strcpy(k->name, name);
    k->is_entry = f->kind == PTX_FUNC_ENTRY;
    k->nblocks = f->exit_block;
    k->ninstrs = f->ninstrs;
    k->max_live = r->next.max_live;
    ptx_regalloc ra;
    ptx_regalloc_function(m, f, &r->du, &ra);
    k->phys_regs = ra.nphys;
    ptx_regalloc_free(&ra);
    k->taint_flow_insensitive = r->taint.flow_insensitive;
    /* a branch ends its block: look at the last instruction of each */
    uint32_t nbranches = 0;
    for (uint32_t b = 0; b < f->exit_block; b++)
        nbranches += f->blocks[b].end > f->blocks[b].first && is_branch(m, f, f->blocks[b].end - 1);
    k->branches = ptx_annotations_alloc(a, nbranches * sizeof *k->branches);
    for (uint32_t b = 0; b < f->exit_block; b++)
        if (f->blocks[b].end > f->blocks[b].first && is_branch(m, f, f->blocks[b].end - 1))
            k->branches[k->nbranches++] = branch_note(m, f, r, f->blocks[b].end - 1, a);
    loop_notes(f, r, a, k);
    register_notes(m, f, r, a, k);
}

void ptx_analyze_module(const ptx_module *m, const ptx_analysis_options *opt,
                        ptx_annotations *out)
{
    memset(out, 0, sizeof *out);
    out->file = ptx_strdup(m->source_name ? m->source_name : "");
    out->kernels = ptx_xcalloc(m->nfunctions ? m->nfunctions : 1, sizeof *out->kernels);
    for (uint32_t i = 0; i < m->nfunctions; i++) {
        const ptx_function *f = &m->functions[i];
        if (!(f->flags & PTX_FUNCF_HAS_BODY))
            continue;
        if (opt && opt->only && strcmp(ptx_function_name(m, f), opt->only) != 0)
            continue;
        func_results r = {0};
        run_all(m, f, opt, &r);
        kernel_notes(m, f, &r, out, &out->kernels[out->nkernels++]);
        free_all(&r);
    }
}
