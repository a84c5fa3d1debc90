/* simt_emulated.c — the baseline divergence mechanisms: the emulator's
 * SIMT controls (emulator/simt.h) run in time. Slot s is static warp s of
 * the CTA (32 consecutive threads), so a CTA of n threads occupies
 * ceil(n / 32) slots; the emulator's warp state is the mechanism's state. */
#include "timing/simt.h"

/* The emulator's control behind the CTA's mechanism. */
static const sim_simt_ops *ops_of(const tm_cta *cta) { return cta->simt->data; }

static bool emulated_start(tm_cta *cta, char *err, size_t errlen)
{
    (void)err, (void)errlen;
    const sim_simt_ops *ops = ops_of(cta);
    for (uint32_t i = 0; i < cta->emu.nwarps; i++) {
        ops->start(&cta->emu, &cta->emu.warps[i]);
        cta->groups[i].ctx = NULL;
    }
    return true;
}

static sim_warp_status emulated_next(tm_cta *cta, uint32_t s, sim_group **g, sim_issue *is)
{
    *g = &cta->groups[s];
    return ops_of(cta)->next(&cta->emu, &cta->emu.warps[s], *g, is);
}

/* The CTA runs the kernel's own code (no call frame) and so does slot s
 * (its group was set up, at its fetch, for the warp without frames, and
 * frames change only at a commit): the context is already right, and the
 * warp itself is not touched (a host cache miss per issue otherwise). */
static void emulated_enter(tm_cta *cta, uint32_t s, sim_group *g)
{
    sim_warp *w = &cta->emu.warps[s];
    if (cta->emu.ctx_warp && cta->emu.ctx_frames == 0 && g->ctx == w && g->ctx_frames == 0)
        return;
    sim_enter_warp(&cta->emu, w, g);
}

static sim_warp_status emulated_commit(tm_cta *cta, uint32_t s, const sim_issue *is, const sim_step *st)
{
    return ops_of(cta)->commit(&cta->emu, &cta->emu.warps[s], is, st);
}

static bool emulated_release(tm_cta *cta) { return sim_barriers_release(&cta->emu, ops_of(cta)); }

static bool emulated_at_barrier(const tm_cta *cta, uint32_t s)
{
    const sim_simt_ops *ops = ops_of(cta);
    for (uint32_t id = 0; id < SIM_BARRIERS; id++)
        if (ops->waiting(&cta->emu, &cta->emu.warps[s], id))
            return true;
    return false;
}

static void emulated_deadlock(tm_cta *cta) { sim_barrier_deadlock(&cta->emu, ops_of(cta)); }

/* A mechanism that is the emulator's SIMT control `ops` in time. */
#define EMULATED(NAME, SUMMARY, OPS)                                                                         \
    {.name = NAME, .summary = SUMMARY, .data = &OPS, .start = emulated_start,          \
     .next = emulated_next, .enter = emulated_enter, .commit = emulated_commit, .release = emulated_release,                           \
     .at_barrier = emulated_at_barrier, .deadlock = emulated_deadlock}

const tm_simt_mechanism tm_simt_pdom =
    EMULATED("pdom", "per-warp reconvergence stack at immediate post-dominators", sim_simt_pdom);
/* The static likely-convergence points, where annotations did not give
 * them. */
static bool static_lpc(sim_program *p, char *err, size_t errlen)
{
    (void)err, (void)errlen;
    return sim_program_static_lpc(p) == 0;
}

const tm_simt_mechanism tm_simt_pdom_lpc = {
    .name = "pdom-lpc", .summary = "PDOM stacks with likely-convergence entries (Fung and Aamodt, HPCA 2011, Sec. 4)",
    .data = &sim_simt_pdom_lpc, .prepare = static_lpc, .start = emulated_start,
    .next = emulated_next, .enter = emulated_enter, .commit = emulated_commit, .release = emulated_release,
    .at_barrier = emulated_at_barrier, .deadlock = emulated_deadlock};
const tm_simt_mechanism tm_simt_its =
    EMULATED("its", "independent thread scheduling: a program counter per thread", sim_simt_its);
