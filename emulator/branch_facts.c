/* branch_facts.c — the analyzer's facts about each branch that the
 * divergence mechanisms read at run time (sim_func.branch_facts): its
 * class (uniform, P: programmatic predicate, D: data-dependent; Rhu's
 * thesis Sec. 4.3, data flow only, as the thesis tracks it) and whether
 * its condition is the same in every thread of the CTA that executes it
 * (analysis/taint.h), with control dependence: a value merged where the
 * paths of a divergent branch join is not uniform, which data flow alone
 * misses (a -G build's flag set on both sides of a branch), and a
 * mechanism that skips synchronization on the strength of it must not be
 * told it is. */
#include "analysis/defuse.h"
#include "analysis/taint.h"
#include "emulator/internal.h"
#include "ir/util.h"

int sim_program_branch_facts(sim_program *p)
{
    for (uint32_t fi = 0; fi < p->m->nfunctions; fi++) {
        sim_func *fn = &p->funcs[fi];
        if (!fn->code || fn->branch_facts)
            continue; /* no body, or done */
        ptx_defuse du;
        ptx_taint_result flow, control;
        ptx_defuse_build(p->m, fn->f, &du);
        ptx_taint_analyze(p->m, fn->f, &du, &(ptx_taint_options){0}, &flow);
        ptx_taint_analyze(p->m, fn->f, &du, &(ptx_taint_options){.control_dependence = true}, &control);
        uint8_t *facts = ptx_xcalloc(fn->ninstrs + 1, 1);
        for (uint32_t pc = 0; pc < fn->ninstrs && pc < flow.ninstrs && pc < control.ninstrs; pc++)
            facts[pc] = (uint8_t)(flow.branch_class[pc] | (control.cta_uniform[pc] ? SIM_BRANCH_CTA_UNIFORM : 0));
        fn->branch_facts = facts;
        ptx_taint_free(&flow);
        ptx_taint_free(&control);
        ptx_defuse_free(&du);
    }
    return 0;
}
