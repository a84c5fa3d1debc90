/* annotate.c — reconvergence points from an annotation file.
 *
 * A decoded program reconverges each branch at its immediate
 * post-dominator, computed when the program is made. A researcher may
 * instead give the analyzer's annotations (simtlab analyze --json,
 * possibly edited: a reconvergence point moved to study its effect); this
 * replaces the program's points with the file's, after checking that the
 * file describes this module: every kernel it names exists with the same
 * number of instructions, and every branch it lists is a branch. */
#include <string.h>

#include "analysis/analysis.h"
#include "emulator/internal.h"
#include "ir/util.h"

/* The decoded function named `name`, or NULL. */
static sim_func *function_named(sim_program *p, const char *name)
{
    for (uint32_t i = 0; i < p->m->nfunctions; i++)
        if (p->funcs[i].code && strcmp(ptx_function_name(p->m, p->funcs[i].f), name) == 0)
            return &p->funcs[i];
    return NULL;
}

int sim_program_use_annotations(sim_program *p, const ptx_annotations *a, char *err, size_t errlen)
{
    /* check everything first: a file that does not fit changes nothing */
    for (uint32_t k = 0; k < a->nkernels; k++) {
        const ptx_kernel_notes *kn = &a->kernels[k];
        const sim_func *fn = function_named(p, kn->name);
        if (!fn)
            return sim_fail(err, errlen, "annotations name function %s, which the module does not define", kn->name);
        if (fn->ninstrs != kn->ninstrs)
            return sim_fail(err, errlen, "annotations of %s describe %u instructions; the module's %s has %u "
                            "(annotations of another version of the PTX?)", kn->name, kn->ninstrs, kn->name,
                            fn->ninstrs);
        for (uint32_t b = 0; b < kn->nbranches; b++) {
            const ptx_branch_note *bn = &kn->branches[b];
            if (bn->pc >= fn->ninstrs || !(fn->code[bn->pc].flags & SIM_IF_BRANCH))
                return sim_fail(err, errlen, "annotations of %s: instruction %u (PTX line %u) is not a branch",
                                kn->name, bn->pc, bn->line);
            if (bn->ipdom_pc != PTX_NONE && bn->ipdom_pc >= fn->ninstrs)
                return sim_fail(err, errlen, "annotations of %s: the branch at PTX line %u reconverges at "
                                "instruction %u, past the function's %u", kn->name, bn->line, bn->ipdom_pc,
                                fn->ninstrs);
            if (bn->lpc_pc != PTX_NONE && bn->lpc_pc >= fn->ninstrs)
                return sim_fail(err, errlen, "annotations of %s: the branch at PTX line %u has its likely-"
                                "convergence point at instruction %u, past the function's %u", kn->name, bn->line,
                                bn->lpc_pc, fn->ninstrs);
        }
    }
    for (uint32_t k = 0; k < a->nkernels; k++) {
        const ptx_kernel_notes *kn = &a->kernels[k];
        sim_func *fn = function_named(p, kn->name);
        if (!fn->lpc)
            fn->lpc = ptx_xmalloc((fn->ninstrs + 1) * sizeof *fn->lpc);
        for (uint32_t i = 0; i <= fn->ninstrs; i++)
            fn->lpc[i] = PTX_NONE;
        for (uint32_t b = 0; b < kn->nbranches; b++) {
            const ptx_branch_note *bn = &kn->branches[b];
            fn->rpc[bn->pc] = bn->ipdom_pc == PTX_NONE ? fn->ninstrs : bn->ipdom_pc;
            fn->lpc[bn->pc] = bn->lpc_pc;
        }
    }
    return 0;
}
