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
#include "analysis/taint.h"
#include "ir/util.h"

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

/* The note of the branch at pc. */
static ptx_branch_note branch_note(const ptx_module *m, const ptx_function *f,
                                   const func_results *r, uint32_t pc)
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
        n.controls = ptx_xmalloc((count ? count : 1) * sizeof *n.controls);
        for (uint32_t k = 0; k < count; k++) {
            uint32_t dep = block_pc(f, r->cdep.deps[first + k]);
            if (dep != PTX_NONE)
                n.controls[n.ncontrols++] = dep;
        }
    }
    return n;
}

static void loop_notes(const ptx_function *f, const func_results *r, ptx_kernel_notes *k)
{
    k->nloops = r->loops.nloops;
    k->loops = ptx_xcalloc(k->nloops ? k->nloops : 1, sizeof *k->loops);
    for (uint32_t i = 0; i < k->nloops; i++) {
        const ptx_loop *l = &r->loops.loops[i];
        ptx_loop_note *n = &k->loops[i];
        n->header_pc = block_pc(f, l->header);
        n->header_line = pc_line(f, n->header_pc);
        n->depth = l->depth;
        n->irreducible = l->irreducible;
        n->nlatches = l->nlatches;
        n->latch_lines = ptx_xcalloc(l->nlatches ? l->nlatches : 1, sizeof *n->latch_lines);
        for (uint32_t j = 0; j < l->nlatches; j++) {
            const ptx_block *bk = &f->blocks[l->latches[j]];
            n->latch_lines[j] = bk->end > bk->first ? f->instrs[bk->end - 1].line : 0;
        }
    }
}

/* Write "%r12" (a vector component: "%v.y") for register r at dst (built by hand: this runs for every
 * register of every function, and printf is slow); returns its length. */
static size_t reg_name(const ptx_module *m, const ptx_function *f, uint32_t r, char *dst)
{
    const ptx_reg *g = &f->regs[r];
    const char *prefix = ptx_str(m, g->name);
    size_t n = strlen(prefix);
    char digits[12];
    size_t nd = 0;
    for (uint32_t v = g->index; g->index != PTX_NONE && (nd == 0 || v); v /= 10)
        digits[nd++] = (char)('0' + v % 10);
    bool lane = ptx_reg_vec(f, r) > 1; /* a vector register's component: "%v.y" */
    if (dst) {
        memcpy(dst, prefix, n);
        for (size_t i = 0; i < nd; i++)
            dst[n + i] = digits[nd - 1 - i];
        if (lane) {
            dst[n + nd] = '.';
            dst[n + nd + 1] = "xyzw"[g->lane & 3];
        }
        dst[n + nd + (lane ? 2 : 0)] = '\0';
    }
    return n + nd + (lane ? 2 : 0);
}

/* Registers with their accesses (in program order), skipping the carry
 * pseudo-register and registers never accessed; names and accesses live in
 * two pools of the kernel's notes. */
static void register_notes(const ptx_module *m, const ptx_function *f, const func_results *r,
                           ptx_kernel_notes *k)
{
    uint32_t *count = ptx_xcalloc(f->nregs + 1, sizeof *count);
    uint32_t total = 0;
    for (uint32_t i = 0; i < r->next.nacc; i++)
        if (r->next.acc[i].reg < f->nregs) {
            count[r->next.acc[i].reg]++;
            total++;
        }
    size_t names = 0;
    uint32_t used = 0;
    for (uint32_t reg = 0; reg < f->nregs; reg++)
        if (count[reg]) {
            names += reg_name(m, f, reg, NULL) + 1;
            used++;
        }
    k->regs = ptx_xcalloc(used ? used : 1, sizeof *k->regs);
    k->name_pool = ptx_xmalloc(names ? names : 1);
    k->access_pool = ptx_xmalloc((total ? total : 1) * sizeof *k->access_pool);
    uint32_t *slot = ptx_xcalloc(f->nregs + 1, sizeof *slot);
    size_t npos = 0;
    uint32_t apos = 0;
    for (uint32_t reg = 0; reg < f->nregs; reg++) {
        if (!count[reg])
            continue;
        slot[reg] = k->nregs;
        ptx_reg_note *n = &k->regs[k->nregs++];
        n->name = k->name_pool + npos;
        npos += reg_name(m, f, reg, n->name) + 1;
        n->type = f->regs[reg].type;
        n->accesses = k->access_pool + apos;
        apos += count[reg];
    }
    for (uint32_t i = 0; i < r->next.nacc; i++) {
        const ptx_access *a = &r->next.acc[i];
        if (a->reg >= f->nregs)
            continue;
        ptx_reg_note *n = &k->regs[slot[a->reg]];
        n->accesses[n->naccesses++] = (ptx_access_note){a->pc, f->instrs[a->pc].line,
                                                        a->is_write, a->next, a->idle};
    }
    free(count);
    free(slot);
}

static void kernel_notes(const ptx_module *m, const ptx_function *f, const func_results *r,
                         ptx_kernel_notes *k)
{
    k->name = ptx_strdup(ptx_function_name(m, f));
    k->is_entry = f->kind == PTX_FUNC_ENTRY;
    k->nblocks = f->exit_block;
    k->ninstrs = f->ninstrs;
    k->max_live = r->next.max_live;
    k->taint_flow_insensitive = r->taint.flow_insensitive;
    uint32_t cap = 0;
    for (uint32_t pc = 0; pc < f->ninstrs; pc++) {
        ptx_opcode op = (ptx_opcode)m->forms[f->instrs[pc].form].opcode;
        if (op != PTX_OP_BRA && op != PTX_OP_BRX_IDX)
            continue;
        PTX_GROW(k->branches, cap, k->nbranches + 1);
        k->branches[k->nbranches++] = branch_note(m, f, r, pc);
    }
    loop_notes(f, r, k);
    register_notes(m, f, r, k);
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
        kernel_notes(m, f, &r, &out->kernels[out->nkernels++]);
        free_all(&r);
    }
}
