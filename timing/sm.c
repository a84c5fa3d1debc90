/* sm.c — one SM of the timing model (sm.h).
 *
 * Stage order within a core cycle: writeback, LD/ST unit, issue, operand
 * collection and dispatch, fetch. An instruction issued at cycle t has its
 * operands read at t + 1 when its register banks are free (writebacks
 * take a bank first: a result written back at cycle w blocks reads of its
 * bank at w) and enters its functional unit at t + 2. The unit is given
 * L - 2 cycles of an instruction's latency L (at least 1), so in a chain
 * of dependent instructions, where each issues in the cycle its
 * producer's result is written back and therefore reads its operand one
 * cycle later, each instruction costs exactly L cycles (latencies below 3
 * cost 3). Loads write their results back through the register banks
 * too. A warp's next instruction is fetched in the cycle the previous one
 * issues and decoded the next cycle, so a warp with independent
 * instructions issues every cycle. Each scheduler fetches for one of its
 * warps per cycle (Volta's per-sub-core L0 instruction caches; one L1
 * instruction cache access each, a refused one included), round robin
 * from the warp after the one it last accessed the cache for (GPGPU-Sim's
 * m_last_warp_fetched), or in the fetch groups' priority order.
 *
 * Memory instructions: the emulator's access log (sim_step.mem) of the
 * issue is cut into rounds (the i-th access of every lane), each round
 * coalesced (coalescer.c) into sector requests for the L1 data cache
 * (global and local memory), the constant cache (constant bank and kernel
 * parameters: one access per distinct line) or, for shared memory, into
 * the cycles its bank conflicts cost (smem_banks.c). The LD/ST unit sends
 * one request per cycle; a load completes when its last request is
 * answered (an L1 hit after -gpgpu_l1_latency), a shared access
 * -gpgpu_smem_latency after its last bank cycle. Stores and reductions
 * complete when sent (they hold no register); atomics go to the L2 and
 * complete with its reply. Under -simtlab_mem_pipeline stall,
 * stall-retain or replay the LD/ST unit is Turner's memory stage instead
 * ("Turner's memory stage" below). */
#include "timing/sm.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "timing/bits.h"
#include "timing/coalescer.h"
#include "timing/gpu.h"
#include "timing/hazard.h"
#include "timing/smem_banks.h"

/* The tag bit of a request sent past the L1 caches: its reply completes
 * its instruction directly instead of filling a cache. */
#define TM_TAG_DIRECT (1u << 31)
/* Completion-heap tags of results waiting for their registers to wake
 * (-simtlab_rf_power slumber/wrf): TM_EV_WRITE | memory instruction tag,
 * or TM_EV_WRITE | TM_EV_ALU | functional-unit tag. */
#define TM_EV_WRITE (1u << 31)
#define TM_EV_ALU (1u << 30)
/* Memory instructions in flight an SM tracks, per warp slot on average
 * (the table is shared: one warp may have more). */
#define TM_MEM_PER_WARP 8u

/* ---- the completion heap ------------------------------------------------ */

static bool event_push(tm_sm *sm, uint64_t cycle, uint64_t tag)
{
    if (sm->nevents == sm->cap_events) {
        uint32_t cap = sm->cap_events ? 2 * sm->cap_events : 64;
        tm_event *e = realloc(sm->events, cap * sizeof *e);
        if (!e) {
            tm_gpu_sm_fail(sm->gpu, sm->id, SIM_ERR_OUT_OF_MEMORY, "SM %u: out of memory for its completion events",
                           sm->id);
            return false;
        }
        sm->events = e;
        sm->cap_events = cap;
    }
    uint32_t i = sm->nevents++;
    while (i && sm->events[(i - 1) / 2].cycle > cycle) {
        sm->events[i] = sm->events[(i - 1) / 2];
        i = (i - 1) / 2;
    }
    sm->events[i] = (tm_event){cycle, tag};
    return true;
}

static void event_pop(tm_sm *sm)
{
    tm_event last = sm->events[--sm->nevents];
    uint32_t i = 0;
    for (;;) {
        uint32_t c = 2 * i + 1;
        if (c >= sm->nevents)
            break;
        if (c + 1 < sm->nevents && sm->events[c + 1].cycle < sm->events[c].cycle)
            c++;
        if (sm->events[c].cycle >= last.cycle)
            break;
        sm->events[i] = sm->events[c];
        i = c;
    }
    if (sm->nevents)
        sm->events[i] = last;
}

/* n zeroed elements of `size` bytes (a multiple of align) at an address
 * aligned to align, for structures laid out by host cache line; NULL when
 * memory is short. */
static void *zalloc_aligned(size_t align, size_t n, size_t size)
{
    void *p = aligned_alloc(align, n * size);
    if (p)
        memset(p, 0, n * size);
    return p;
}

/* ---- set-up ------------------------------------------------------------- */

bool tm_sm_init(tm_sm *sm, struct tm_gpu *gpu, uint32_t id, const tm_config *cfg, uint32_t max_regs,
                uint32_t max_reads, uint32_t max_latency, char *err, size_t errlen)
{
    memset(sm, 0, sizeof *sm);
    sm->id = id;
    sm->cfg = cfg;
    sm->gpu = gpu;
    sm->nstatic = cfg->max_threads_per_core / cfg->warp_size;
    sm->nwarps = sm->nstatic * (gpu->mech && gpu->mech->paths ? gpu->mech->paths : 1);
    uint32_t nsched = cfg->n_schedulers ? cfg->n_schedulers : 1;
    sm->nsched = nsched;
    sm->per_sched = (sm->nwarps + nsched - 1) / nsched;
    sm->warps = zalloc_aligned(_Alignof(tm_warp), sm->nwarps, sizeof *sm->warps); /* (a warp's hot fields: one line) */
    sm->live = calloc((size_t)sm->per_sched * nsched, sizeof *sm->live);
    sm->resident = calloc(nsched, sizeof *sm->resident);
    sm->idle = calloc(nsched, sizeof *sm->idle);
    sm->scan = calloc(nsched, sizeof *sm->scan);
    if (sm->per_sched > 64) {
        snprintf(err, errlen, "%u warps per scheduler: at most 64 are supported", sm->per_sched);
        return false;
    }
    sm->sched = calloc(nsched, sizeof *sm->sched);
    sm->ctas = zalloc_aligned(_Alignof(tm_cta), cfg->max_ctas_per_core, sizeof *sm->ctas);
    sm->cta_used = calloc(cfg->max_ctas_per_core, sizeof *sm->cta_used);
    sm->nmem = sm->nstatic * TM_MEM_PER_WARP; /* (the LD/ST unit's queue: the paths of a warp share it) */
    sm->mem = calloc(sm->nmem, sizeof *sm->mem);
    sm->mem_fifo = calloc(sm->nmem, sizeof *sm->mem_fifo);
    sm->mem_free = calloc((sm->nmem + 63) / 64, sizeof *sm->mem_free);
    for (uint32_t i = 0; sm->mem_free && i < sm->nmem; i++)
        sm->mem_free[i / 64] |= 1ull << (i % 64);
    if (!sm->warps || !sm->live || !sm->resident || !sm->idle || !sm->scan || !sm->sched || !sm->ctas || !sm->cta_used || !sm->mem || !sm->mem_fifo ||
        !sm->mem_free ||
        !tm_queue_init(&sm->out, 64)) {
        snprintf(err, errlen, "out of memory for SM %u", id);
        return false;
    }
    for (uint32_t s = 0; s < nsched; s++) {
        if (!tm_warp_sched_init(&sm->sched[s], cfg->scheduler, sm->per_sched,
                                cfg->scheduler == TM_SCHED_FETCH_GROUPS ? cfg->fetch_group_warps : cfg->two_level_active,
                                cfg->fetch_group_timeout)) {
            snprintf(err, errlen, "out of memory for SM %u's schedulers", id);
            return false;
        }
        tm_warp_sched_set_cta_priority(&sm->sched[s], cfg->cta_priority);
    }
    sm->mem_split = cfg->dws_memory && gpu->mech && gpu->mech->mem_split && gpu->mech->paths == 2;
    if (sm->mem_split && !(sm->lane_reqs = calloc((size_t)sm->nmem * 32, sizeof *sm->lane_reqs))) {
        snprintf(err, errlen, "out of memory for SM %u's lane arrivals", id);
        return false;
    }
    if (!(sm->sb = tm_scoreboard_new(sm->nwarps, max_regs))) {
        snprintf(err, errlen, "out of memory for SM %u's scoreboard", id);
        return false;
    }
    if (!(sm->oc = tm_opcollector_new(cfg, max_reads, 1, err, errlen)) ||
        !(sm->fu = tm_fu_new(cfg, max_latency, err, errlen)))
        return false;
    sm->fu_max = tm_fu_max_completions(sm->fu);
    sm->fu_next = UINT64_MAX;
    sm->fu_done = calloc(sm->fu_max + 1, sizeof *sm->fu_done);
    if (!sm->fu_done) {
        snprintf(err, errlen, "out of memory for SM %u", id);
        return false;
    }
    char name[32];
    snprintf(name, sizeof name, "L1I_%03u", id);
    if (cfg->l1i.present && !(sm->l1i = tm_cache_new(&cfg->l1i, name, err, errlen)))
        return false;
    snprintf(name, sizeof name, "L1D_%03u", id);
    if (cfg->l1d.present && !(sm->l1d = tm_cache_new(&cfg->l1d, name, err, errlen)))
        return false;
    if (sm->l1d && cfg->lamar && !tm_cache_set_gdu(sm->l1d, (tm_gdu_kind)(cfg->lamar - 1), err, errlen))
        return false;
    if (sm->l1d && cfg->pca_tokens && !tm_cache_set_pca(sm->l1d, err, errlen))
        return false;
    if (sm->l1d && cfg->snooze != TM_SNOOZE_NONE &&
        !tm_cache_set_snooze(sm->l1d, cfg->snooze == TM_SNOOZE_BANK ? 0 : cfg->snooze_block, cfg->snooze_wake, err,
                             errlen))
        return false;
    sm->snooze = sm->l1d && cfg->snooze != TM_SNOOZE_NONE;
    if (sm->l1d && cfg->miss_classes && !tm_cache_set_miss_classes(sm->l1d)) {
        snprintf(err, errlen, "out of memory for %s's miss classification", name);
        return false;
    }
    snprintf(name, sizeof name, "L1C_%03u", id);
    if (cfg->l1c.present && !(sm->l1c = tm_cache_new(&cfg->l1c, name, err, errlen)))
        return false;
    /* the MSHR tracker's latencies: an L1 hit, and (the minimum of) a miss
     * answered by the L2, the clocks taken as equal */
    uint32_t hit = cfg->l1_latency, miss = cfg->l1_latency + 2 * cfg->icnt_latency + cfg->l2_rop_latency;
    if (cfg->rf_power != TM_RFP_NONE &&
        !tm_rf_power_init(&sm->rfp, (tm_rf_policy)cfg->rf_power, (tm_rf_rest)cfg->rf_rest, cfg->registers_per_core / 32,
                          sm->nwarps, cfg->reg_banks, hit, miss)) {
        snprintf(err, errlen, "out of memory for SM %u's register-file power states", id);
        return false;
    }
    return true;
}

void tm_sm_free(tm_sm *sm)
{
    tm_rf_power_free(&sm->rfp);
    uint32_t nsched = sm->cfg && sm->cfg->n_schedulers ? sm->cfg->n_schedulers : 1;
    for (uint32_t s = 0; sm->sched && s < nsched; s++)
        tm_warp_sched_free(&sm->sched[s]);
    for (uint32_t i = 0; sm->mem && i < sm->nmem; i++)
        free(sm->mem[i].heap);
    free(sm->simt_state);
    if (sm->l1i)
        tm_cache_free(sm->l1i);
    if (sm->l1d)
        tm_cache_free(sm->l1d);
    if (sm->l1c)
        tm_cache_free(sm->l1c);
    if (sm->oc)
        tm_opcollector_free(sm->oc);
    if (sm->fu)
        tm_fu_free(sm->fu);
    if (sm->sb)
        tm_scoreboard_free(sm->sb);
    free(sm->fu_done);
    free(sm->warps);
    free(sm->live);
    free(sm->resident);
    free(sm->idle);
    free(sm->scan);
    free(sm->sched);
    free(sm->ctas);
    free(sm->cta_used);
    free(sm->mem);
    free(sm->mem_fifo);
    free(sm->mem_free);
    free(sm->lane_reqs);
    free(sm->events);
    tm_queue_free(&sm->out);
    memset(sm, 0, sizeof *sm);
}

bool tm_sm_size_registers(tm_sm *sm, uint32_t nregs)
{
    if (sm->sb && sm->sb->nregs >= nregs)
        return true;
    tm_scoreboard *sb = tm_scoreboard_new(sm->nwarps, nregs);
    if (!sb)
        return false;
    if (sm->sb)
        tm_scoreboard_free(sm->sb);
    sm->sb = sb;
    return true;
}

/* ---- CTAs --------------------------------------------------------------- */

uint32_t tm_sm_room(const tm_sm *sm, uint32_t upto)
{
    const tm_gpu *gpu = sm->gpu;
    uint32_t room = sm->ncta_used < gpu->occ.ctas ? gpu->occ.ctas - sm->ncta_used : 0;
    room = room < upto ? room : upto;
    uint32_t free_slots = 0, need = (gpu->cta_threads + 31) / 32 * room;
    for (uint32_t i = 0; i < sm->nstatic && free_slots < need; i++) /* (a path's twin is free with it) */
        free_slots += sm->warps[i].cta == NULL;
    uint32_t per = (gpu->cta_threads + 31) / 32;
    return per && free_slots / per < room ? free_slots / per : room;
}

/* The scheduler's liveness row (by local slot). */
static bool *live_row(tm_sm *sm, uint32_t sched) { return sm->live + (size_t)sched * sm->per_sched; }

/* ---- skipping work ---------------------------------------------------------
 * A scheduler's issue scan gives the same answer as in its last cycle
 * while none of its warps changed and its order did not (it issued
 * nothing and no warp came or went): then the cycle counts as the last
 * idle one did. The scan of a scheduler that issued, or whose warp was
 * held only by a busy unit or a memory barrier (these free up without a
 * warp changing), runs again the next cycle. Everything that can unblock
 * a warp touches it: a fetch or an I-cache fill, a register release
 * (writeback, a memory instruction's completion), a barrier's release, a
 * warp starting or leaving; and a decoded instruction becomes issuable
 * at its ib_ready (recheck_at). Likewise the fetch stage looks only at
 * the warps whose buffer may have emptied (want_fetch): a warp enters
 * the set when it issues, is released from a barrier or starts, and
 * leaves it when the fetch stage finds it needs nothing. */

/* Bit j of *mask set to `on`. */
static inline void put_bit(uint64_t *mask, uint32_t j, bool on) { *mask = (*mask & ~(1ull << j)) | (uint64_t)on << j; }

/* mirror() after a change of only ib_valid and at_barrier: two masks
 * instead of six, on the two paths every warp instruction takes (a fetch
 * that hit sets ib_valid; an issue clears it and may park the warp at a
 * barrier; done, fetching, mech_wait and replay change elsewhere, each
 * with a mirror()). */
static inline void mirror_holds(tm_sm *sm, uint32_t wi)
{
    const tm_warp *w = &sm->warps[wi];
    struct tm_sched_scan *sc = &sm->scan[w->sched];
    uint32_t j = wi / sm->nsched;
    put_bit(&sc->at_barrier, j, w->at_barrier);
    put_bit(&sc->holds, j, w->ib_valid && !w->done && !w->at_barrier);
}

/* Copy warp wi's done, at_barrier, ib_valid, fetching, mech_wait and
 * squashed instructions into its scheduler's masks (struct
 * tm_sched_scan); after every change of one. */
static inline void mirror(tm_sm *sm, uint32_t wi)
{
    mirror_holds(sm, wi);
    const tm_warp *w = &sm->warps[wi];
    struct tm_sched_scan *sc = &sm->scan[w->sched];
    uint32_t j = wi / sm->nsched;
    put_bit(&sc->done, j, w->done);
    put_bit(&sc->fetching, j, w->fetching);
    put_bit(&sc->mech_wait, j, w->mech_wait);
    put_bit(&sc->replay, j, w->nreplay != 0);
}

/* Warp wi's scoreboard answer may have changed (a register of its was
 * released, or it buffers a new instruction). */
static void sb_forget(tm_sm *sm, uint32_t wi)
{
    sm->scan[sm->warps[wi].sched].sb_wait &= ~(1ull << (wi / sm->nsched));
}

static void touch(tm_sm *sm, uint32_t wi);

/* Under dual-path execution, the slot of the other path of slot wi's warp. */
static uint32_t twin(const tm_sm *sm, uint32_t wi) { return wi < sm->nstatic ? wi + sm->nstatic : wi - sm->nstatic; }

/* Registers of slot wi were written back: it is asked again, and so are
 * the slots that may have waited for them when one was shadowed (the
 * other path under dual-path execution, every slot of the CTA under a
 * regrouping mechanism). */
static void sb_released(tm_sm *sm, uint32_t wi, bool shadowed)
{
    sb_forget(sm, wi);
    touch(sm, wi);
    if (!shadowed)
        return;
    if (sm->nwarps > sm->nstatic) {
        sb_forget(sm, twin(sm, wi));
        touch(sm, twin(sm, wi));
    }
    const tm_cta *cta = sm->warps[wi].cta;
    for (uint32_t k = 0; sm->gpu->mech->regroups && cta && k < cta->nslots; k++) {
        sb_forget(sm, cta->sm_slot[k]);
        touch(sm, cta->sm_slot[k]);
    }
}

/* Does ic, buffered by slot wi, have a hazard: a pending write of its own
 * slot, or a shadowed one of the other path (dual-path execution) or of a
 * slot of its domain (a regrouping mechanism)? */
static bool sb_hazard(const tm_sm *sm, uint32_t wi, const tm_inst_class *ic)
{
    if (tm_scoreboard_check(sm->sb, wi, ic))
        return true;
    if (sm->nwarps > sm->nstatic)
        return tm_scoreboard_shadowed(sm->sb, twin(sm, wi), ic);
    const tm_simt_mechanism *mech = sm->gpu->mech;
    if (!mech->regroups)
        return false;
    const tm_cta *cta = sm->warps[wi].cta;
    uint32_t all = cta->nslots >= 32 ? ~0u : (1u << cta->nslots) - 1;
    for (uint32_t m = mech->domain ? mech->domain(cta, sm->warps[wi].cta_slot) : all; m; m &= m - 1)
        if (tm_scoreboard_shadowed(sm->sb, cta->sm_slot[__builtin_ctz(m)], ic))
            return true;
    return false;
}

/* Warp wi waits for other warps (a barrier, the mechanism) or no longer
 * does: its scheduler's two-level active set makes room for others. */
static void park(tm_sm *sm, uint32_t wi, bool parked)
{
    uint32_t s = sm->warps[wi].sched;
    tm_warp_sched_park(&sm->sched[s], wi / sm->nsched, parked, live_row(sm, s));
}

/* Warp wi changed: its scheduler scans again. */
static void touch(tm_sm *sm, uint32_t wi) { sm->scan[sm->warps[wi].sched].dirty = true; }

/* Warp wi's instruction buffer may need filling. */
static void want_fetch(tm_sm *sm, uint32_t wi)
{
    sm->scan[sm->warps[wi].sched].want_fetch |= 1ull << (wi / sm->nsched);
}

/* Rhu's priority tokens (Ch. 6; -simtlab_pca_tokens N): the N oldest
 * unfinished warps of scheduler s hold them; a token passes on when its
 * warp finishes. Called whenever a warp of s starts or finishes. */
static void assign_tokens(tm_sm *sm, uint32_t s)
{
    uint32_t n = sm->cfg->pca_tokens;
    if (!n)
        return;
    for (uint32_t i = s; i < sm->nwarps; i += sm->nsched)
        sm->warps[i].token = false;
    for (uint32_t k = 0; k < n; k++) { /* the next oldest without one */
        tm_warp *best = NULL;
        for (uint32_t i = s; i < sm->nwarps; i += sm->nsched) {
            tm_warp *w = &sm->warps[i];
            if (w->cta && !w->done && !w->token && (!best || w->age < best->age))
                best = w;
        }
        if (!best)
            break;
        best->token = true;
    }
}

/* Slot wi leaves its scheduler (its warp finished or its CTA ended). */
static void unschedule(tm_sm *sm, uint32_t wi)
{
    uint32_t s = sm->warps[wi].sched, j = wi / sm->nsched;
    live_row(sm, s)[j] = false;
    sm->nresident -= (sm->resident[s] >> j) & 1;
    sm->resident[s] &= ~(1ull << j);
    tm_warp_sched_finish(&sm->sched[s], j, live_row(sm, s));
    sm->scan[s].dirty = true;
    assign_tokens(sm, s);
}

bool tm_sm_start_cta(tm_sm *sm, uint64_t id, char *err, size_t errlen)
{
    tm_gpu *gpu = sm->gpu;
    tm_sm_wake(sm, gpu->core_cycle - 1); /* (the cycle being run) */
    uint32_t p = 0;
    while (sm->cta_used[p])
        p++;
    tm_cta *cta = &sm->ctas[p];
    if (!cta->allocated && !tm_cta_init(cta, gpu->grid, gpu->mech, err, errlen))
        return false;
    cta->cfg = sm->cfg;
    cta->sm_state = &sm->simt_state;
    cta->emu.smid = sm->id; /* %smid, %nsmid */
    cta->emu.nsmid = gpu->nsms;
    if (!tm_cta_begin(cta, gpu->grid, id, err, errlen))
        return false;
    sm->cta_used[p] = true;
    sm->ncta_used++;
    sm->stats.ctas++;
    uint32_t nsched = sm->cfg->n_schedulers ? sm->cfg->n_schedulers : 1;
    uint32_t base = cta->nslots / (gpu->mech->paths ? gpu->mech->paths : 1); /* its static warps */
    for (uint32_t k = 0, i = 0; k < cta->nslots; i++) {
        if (k >= base) /* a right path: its left path's twin */
            i = cta->sm_slot[k - base] + sm->nstatic;
        tm_warp *w = &sm->warps[i];
        if (w->cta)
            continue;
        sm->ordered_held -= w->ib_ordered; /* (a faulted block's warp may leave one) */
        cta->sm_slot[k] = (uint16_t)i;
        *w = (tm_warp){.cta = cta, .cta_slot = k++, .sched = i % nsched,
                       .age = ++sm->age_stamp};
        tm_scoreboard_clear_warp(sm->sb, i);
        sb_forget(sm, i);
        if (sm->rfp.policy && k <= base) /* (k counts the slot just taken) */
            tm_rf_power_warp_start(&sm->rfp, i, p, base, k - 1, gpu->core_cycle - 1);
        tm_warp_sched_start(&sm->sched[w->sched], i / nsched, w->age);
        tm_warp_sched_set_cta(&sm->sched[w->sched], i / nsched, id);
        live_row(sm, w->sched)[i / nsched] = true;
        sm->resident[w->sched] |= 1ull << (i / nsched);
        sm->nresident++;
        touch(sm, i);
        mirror(sm, i);
        want_fetch(sm, i);
    }
    for (uint32_t s = 0; s < nsched; s++)
        assign_tokens(sm, s);
    return true;
}

/* If every warp of the CTA is done and its memory and ALU results drained, the CTA ends
 * and its slots and place are free. */
static void maybe_end_cta(tm_sm *sm, tm_cta *cta)
{
    for (uint32_t k = 0; k < cta->nslots; k++) {
        const tm_warp *w = &sm->warps[cta->sm_slot[k]];
        if (!w->done || w->pending_mem || w->alu_busy)
            return; /* (an ALU result still to come would release the registers of the slot's next warp) */
    }
    for (uint32_t k = 0; k < cta->nslots; k++) {
        unschedule(sm, cta->sm_slot[k]);
        sm->warps[cta->sm_slot[k]].cta = NULL;
    }
    if (cta->emu.max_stack_depth > sm->max_stack_depth)
        sm->max_stack_depth = cta->emu.max_stack_depth;
    tm_simt_counts *k = &sm->stats.simt;
    k->syncs += cta->counts.syncs;
    for (int c = 0; c < 3; c++)
        k->divergent[c] += cta->counts.divergent[c];
    k->nw_static += cta->counts.nw_static;
    k->nw_compacted += cta->counts.nw_compacted;
    k->nw_ideal += cta->counts.nw_ideal;
    k->bypassed += cta->counts.bypassed;
    k->predictions += cta->counts.predictions;
    k->predictions_correct += cta->counts.predictions_correct;
    k->capt_misses += cta->counts.capt_misses;
    k->paths_sum += cta->counts.paths_sum;
    k->path_issues += cta->counts.path_issues;
    k->dws_memory_splits += cta->counts.dws_memory_splits;
    tm_cta_end(cta, sm->gpu->grid);
    sm->cta_used[cta - sm->ctas] = false;
    sm->ncta_used--;
    if (sm->snooze && !sm->ncta_used && !tm_tb_sched_left(&sm->gpu->tbs)) /* Snooze's (5): the SM is done */
        tm_cache_snooze_off(sm->l1d, sm->gpu->core_cycle);
}

/* The CTA faulted: stop the kernel with its message. */
static void cta_fault(tm_sm *sm, tm_cta *cta)
{
    tm_gpu_sm_fail(sm->gpu, sm->id, cta->emu.fault_kind, "%s", cta->emu.fault);
}

/* ---- memory instructions ------------------------------------------------ */

/* A free pending-memory entry, or -1. */
static int mem_alloc(tm_sm *sm)
{
    for (uint32_t k = 0; k < (sm->nmem + 63) / 64; k++)
        if (sm->mem_free[k])
            return (int)(k * 64 + (uint32_t)__builtin_ctzll(sm->mem_free[k]));
    return -1;
}

/* Append request r to m's list (false when memory is short). */
static bool mem_add(tm_mem_inst *m, const tm_req *r)
{
    if (m->nreqs == m->cap) { /* into the heap buffer, grown as needed */
        uint32_t cap = 2 * m->cap > 64 ? 2 * m->cap : 64;
        if (cap > m->heap_cap) {
            tm_req *q = realloc(m->heap, cap * sizeof *q);
            if (!q)
                return false;
            m->heap = q;
            m->heap_cap = cap;
        }
        if (m->reqs == m->small)
            memcpy(m->heap, m->small, m->nreqs * sizeof *m->heap);
        m->reqs = m->heap;
        m->cap = m->heap_cap;
    }
    m->reqs[m->nreqs++] = *r;
    return true;
}

/* -simtlab_rf_power: what warp w's next instruction is when one of its
 * registers goes to rest at a write-back (Slumber's cases, Sec. 6.3.3):
 * the instruction it holds, else whether its fetch is not waiting for the
 * L1I (a fetch still to come is taken to hit). */
static tm_rf_next rf_next_of(const tm_warp *w)
{
    return (tm_rf_next){.buffered = w->ib_valid ? w->ic : NULL, .cached = w->ib_valid || !w->fetching};
}

/* The same just after warp wi issued pc of function fn: nothing is
 * buffered; is the line of pc + 1 in the L1I? */
static tm_rf_next rf_next_after_issue(tm_sm *sm, uint32_t wi, uint32_t fn, uint32_t pc)
{
    if (!sm->l1i)
        return (tm_rf_next){.cached = true};
    uint32_t line = sm->cfg->l1i.line_bytes;
    uint64_t addr = TM_CODE_BASE + ((uint64_t)fn << TM_FUNC_CODE_SHIFT) + (uint64_t)(pc + 1) * TM_INST_BYTES;
    tm_req r = {.addr = addr & ~(uint64_t)(line - 1), .bytes = line, .sectors = 0xf, .kind = TM_REQ_READ,
                .space = TM_SPACE_INST, .sm = (uint16_t)sm->id, .warp = (uint16_t)wi};
    return (tm_rf_next){.cached = tm_cache_peek(sm->l1i, &r) == TM_CACHE_HIT};
}

/* Memory instruction m finished: its warp's registers are written (or,
 * under -simtlab_rf_power, once they are awake: `woken` when it is the
 * completion that waited for them). */
static void mem_complete(tm_sm *sm, uint32_t tag, uint64_t now, bool woken)
{
    tm_mem_inst *m = &sm->mem[tag];
    tm_warp *w = &sm->warps[m->warp];
    if (m->ic->ndst && sm->rfp.policy && !woken) { /* the MSHR tracker learns from the load's latency */
        tm_rf_power_load(&sm->rfp, m->warp, now - m->issued > sm->rfp.lat_hit + sm->rfp.lat_hit / 2);
        uint64_t at = tm_rf_power_write_ready(&sm->rfp, m->warp, m->ic, now);
        if (at > now) {
            event_push(sm, at, TM_EV_WRITE | tag);
            return;
        }
    }
    if (m->ic->ndst) {
        sb_released(sm, m->warp, tm_scoreboard_release_inst(sm->sb, m->warp, m->ic));
        tm_opcollector_writeback(sm->oc, m->warp, w->sched, m->ic->dst, m->ic->ndst, now);
        if (sm->rfp.policy)
            tm_rf_power_written(&sm->rfp, m->warp, m->ic, now, rf_next_of(w));
    }
    if (m->ic->space == TM_MEM_GLOBAL || m->ic->space == TM_MEM_LOCAL || m->ic->space == TM_MEM_GENERIC) {
        sm->stats.load_latency_sum += now - m->issued;
        sm->stats.loads++;
    }
    m->busy = false;
    sm->mem_free[tag / 64] |= 1ull << (tag % 64);
    w->pending_mem--;
    if (m->ic->flags & TM_IC_LONGOP)
        tm_warp_sched_long_done(&sm->sched[w->sched], m->warp / sm->nsched);
    touch(sm, m->warp);
    sm->last_progress = now;
    if (w->done && w->cta)
        maybe_end_cta(sm, w->cta);
}

/* Under -simtlab_dws_memory, memory instruction m (pending entry tag, a
 * load) is tracked lane by lane: each lane waits for the requests that
 * carry its data (the coalescer's lanes). mask: the issue's lanes; a
 * shared-memory load answers all its lanes at once. */
static void track_lanes(tm_sm *sm, uint32_t tag, uint32_t mask)
{
    tm_mem_inst *m = &sm->mem[tag];
    if (!(m->ic->flags & TM_IC_LOAD) || (m->ic->flags & TM_IC_ATOMIC) || !m->ic->ndst)
        return;
    uint16_t *count = &sm->lane_reqs[(size_t)tag * 32];
    memset(count, 0, 32 * sizeof *count);
    m->track = true;
    m->waiting = m->busy_cycles ? mask : 0;
    for (uint32_t i = 0; i < m->nreqs; i++) {
        m->waiting |= m->reqs[i].lanes;
        for (uint32_t b = m->reqs[i].lanes; b; b &= b - 1)
            count[__builtin_ctz(b)]++;
    }
}

/* A request carrying the data of `lanes` of tracked load `tag` was
 * answered: lanes with none left have their data. A slot that waits on
 * the load may now subdivide (the issue scan asks its scoreboard again). */
static void lanes_arrived(tm_sm *sm, uint32_t tag, uint32_t lanes)
{
    tm_mem_inst *m = &sm->mem[tag];
    uint16_t *count = &sm->lane_reqs[(size_t)tag * 32];
    uint32_t before = m->waiting;
    for (uint32_t b = lanes & m->waiting; b; b &= b - 1) {
        uint32_t l = (uint32_t)__builtin_ctz(b);
        if (count[l] && --count[l] == 0)
            m->waiting &= ~(1u << l);
    }
    if (m->waiting == before)
        return;
    sb_forget(sm, m->warp);
    touch(sm, m->warp);
    sb_forget(sm, twin(sm, m->warp));
    touch(sm, twin(sm, m->warp));
}

/* One answered request of memory instruction `tag`, carrying the data of
 * `lanes`. */
static void mem_answer(tm_sm *sm, uint32_t tag, uint32_t lanes, uint64_t now)
{
    tm_mem_inst *m = &sm->mem[tag];
    if (m->track)
        lanes_arrived(sm, tag, lanes);
    if (m->outstanding)
        m->outstanding--;
    if (!m->outstanding && m->all_sent)
        mem_complete(sm, tag, now, false);
}

/* The global address the memory system sees for an access by lane `lane`
 * of warp slot wi in space sp at addr. */
static uint64_t global_address(const tm_sm *sm, uint32_t wi, uint32_t lane, uint8_t sp, uint64_t addr)
{
    const tm_config *cfg = sm->cfg;
    switch (sp) {
    case PTX_SPACE_LOCAL: {
        /* the hardware thread: the SM, its warp slot, the lane */
        uint64_t hw = (uint64_t)sm->id * cfg->max_threads_per_core + (uint64_t)wi * cfg->warp_size + lane;
        uint64_t all = (uint64_t)sm->gpu->nsms * cfg->max_threads_per_core;
        return TM_LOCAL_BASE + ((addr >> 2) * all + hw) * 4 + (addr & 3);
    }
    case PTX_SPACE_CONST:
        return TM_CONST_BASE + addr;
    case PTX_SPACE_PARAM:
        return TM_PARAM_BASE + addr;
    default:
        return addr;
    }
}

/* Turn the access log of an issue into m's shared-memory cycles and
 * requests: round r holds every lane's r-th access. lane_thread[k] is the
 * CTA thread of lane k (the log names threads); it is not read when the
 * emulator made the log lane by lane for every lane (sim_step.mem_by_lane
 * with nlanes entries). */
static bool mem_requests(tm_sm *sm, tm_mem_inst *m, uint32_t wi, const uint32_t *lane_thread, uint32_t nlanes,
                         const sim_step *st)
{
    uint8_t round_of[1024], lane_of_entry[1024]; /* entries 0..n-1 are set below */
    uint32_t rounds = 0;
    uint8_t lane_of_thread[1024]; /* CTAs have at most 1024 threads */
    uint32_t n = st->nmem < 1024 ? st->nmem : 1024; /* more than 1024 accesses: the rest is not timed */
    /* the usual log, entry i lane i's one access, read in one pass */
    uint64_t each_addr[32];
    uint32_t each_bytes = 0, same = 0;
    uint8_t each_space = 0, each_kind = 0;
    if (st->mem_by_lane && n == nlanes && n) { /* the emulator's common log: lane i's entry i, one space, kind
                                                  and size (the loop below, without its checks) */
        each_space = st->mem[0].space;
        each_kind = st->mem[0].kind;
        each_bytes = st->mem[0].size;
        bool translated = each_space != PTX_SPACE_SHARED && each_space != PTX_SPACE_GLOBAL;
        for (; same < n; same++)
            each_addr[same] = translated ? global_address(sm, wi, same, each_space, st->mem[same].addr)
                                         : st->mem[same].addr;
    }
    for (; n == nlanes && same < n && st->mem[same].thread == lane_thread[same]; same++) {
        const sim_mem_access *a = &st->mem[same];
        each_addr[same] = a->space == PTX_SPACE_SHARED ? a->addr : global_address(sm, wi, same, a->space, a->addr);
        each_bytes = a->size > each_bytes ? a->size : each_bytes;
        each_space = a->space;
        each_kind = a->kind;
    }
    bool one_each = n == nlanes && same == n;
    for (uint32_t k = same; one_each && k < 32; k++)
        each_addr[k] = 0; /* (lanes without an access, as in the other rounds) */
    rounds = one_each && n;
    uint32_t seen[32] = {0};
    for (uint32_t k = 0; !one_each && k < nlanes; k++)
        lane_of_thread[lane_thread[k] & 1023] = (uint8_t)k;
    for (uint32_t i = 0; !one_each && i < n; i++) {
        uint32_t lane = lane_of_thread[st->mem[i].thread & 1023];
        lane_of_entry[i] = (uint8_t)lane;
        round_of[i] = (uint8_t)(seen[lane] < 255 ? seen[lane] : 255);
        seen[lane]++;
        if (round_of[i] + 1u > rounds)
            rounds = round_of[i] + 1u;
    }
    const tm_config *cfg = sm->cfg;
    tm_coalesce_params cp = {.warp_size = 32, .warp_parts = cfg->shmem_warp_parts, .per_sector = true};
    tm_smem_params spp = {.warp_size = 32, .n_banks = cfg->shmem_banks, .warp_parts = cfg->shmem_warp_parts,
                          .limited_broadcast = cfg->shmem_limited_broadcast};
    for (uint32_t r = 0; r < rounds; r++) {
        uint64_t rest_addr[32];
        uint64_t *addr = one_each ? each_addr : memset(rest_addr, 0, sizeof rest_addr);
        uint32_t active = one_each ? (uint32_t)((1ull << n) - 1) : 0, bytes = one_each ? each_bytes : 0;
        uint8_t space = one_each ? each_space : 0, kind = one_each ? each_kind : 0;
        for (uint32_t i = 0; !one_each && i < n; i++) {
            if (round_of[i] != r)
                continue;
            const sim_mem_access *a = &st->mem[i];
            uint32_t lane = lane_of_entry[i];
            if (active >> lane & 1)
                continue;
            active |= 1u << lane;
            addr[lane] = a->space == PTX_SPACE_SHARED ? a->addr : global_address(sm, wi, lane, a->space, a->addr);
            bytes = a->size > bytes ? a->size : bytes;
            space = a->space;
            kind = a->kind;
        }
        char err[160];
        if (space == PTX_SPACE_SHARED) {
            uint32_t cycles = 1;
            if (tm_smem_cycles(&spp, active, addr, bytes <= 16 ? bytes : 16, &cycles, err, sizeof err) == 0) {
                m->busy_cycles += cycles;
                sm->stats.shmem_bank_conflicts += cycles - 1;
            }
            continue;
        }
        tm_req proto = {.sm = (uint16_t)sm->id, .warp = (uint16_t)wi, .prio = sm->warps[wi].token,
                        .row_hint = m->ic && (m->ic->flags & TM_IC_ROW_HINT)};
        tm_warp_access wa = {.active = active, .addr = addr, .bytes = bytes,
                             .kind = kind == 1 ? TM_REQ_READ : kind == 2 ? TM_REQ_WRITE : TM_REQ_ATOMIC,
                             .space = space == PTX_SPACE_LOCAL ? TM_SPACE_LOCAL : TM_SPACE_GLOBAL};
        tm_req out[TM_COALESCE_MAX_REQS];
        uint32_t nout = 0;
        if (space == PTX_SPACE_CONST || space == PTX_SPACE_PARAM) {
            wa.space = TM_SPACE_GLOBAL;
            if (tm_const_accesses(&wa, 32, cfg->l1c.present ? cfg->l1c.line_bytes : 64, &proto, out,
                                  TM_COALESCE_MAX_REQS, &nout, err, sizeof err) != 0)
                continue;
            for (uint32_t k = 0; k < nout; k++)
                out[k].space = TM_SPACE_CONST;
        } else {
            /* an access larger than the coalescer takes is timed as its first part */
            if (wa.bytes > TM_COALESCE_MAX_LANE_BYTES || (wa.bytes & (wa.bytes - 1)))
                wa.bytes = wa.bytes > 16 ? 16 : wa.bytes >= 8 ? 8 : wa.bytes >= 4 ? 4 : wa.bytes >= 2 ? 2 : 1;
            if (tm_coalesce(&cp, &wa, &proto, out, TM_COALESCE_MAX_REQS, &nout, err, sizeof err) != 0)
                continue;
        }
        for (uint32_t k = 0; k < nout; k++)
            if (!mem_add(m, &out[k]))
                return false;
    }
    sm->stats.mem_requests += m->nreqs;
    return true;
}

/* Where request r of instruction ic goes first. */
enum { ROUTE_L1D, ROUTE_L1C, ROUTE_DIRECT };
static int route_of(const tm_sm *sm, const tm_inst_class *ic, const tm_req *r)
{
    if (r->space == TM_SPACE_CONST)
        return sm->l1c ? ROUTE_L1C : ROUTE_DIRECT;
    if (r->kind == TM_REQ_ATOMIC || !sm->l1d || (sm->cfg->gmem_skip_l1d && r->space == TM_SPACE_GLOBAL) ||
        (r->kind == TM_REQ_READ && (ic->flags & TM_IC_BYPASS_L1)))
        return ROUTE_DIRECT;
    return ROUTE_L1D;
}

/* What sending a request came to. */
enum { SEND_OK, SEND_REFUSED, SEND_FAILED };

/* Snooze: the AGU made memory instruction m's requests at cycle now (the
 * thesis's AGU->L1 queue); the L1D units they will read or write start
 * waking. */
static void snooze_hints(tm_sm *sm, const tm_mem_inst *m, uint64_t now)
{
    for (uint32_t k = 0; k < m->nreqs; k++)
        if (route_of(sm, m->ic, &m->reqs[k]) == ROUTE_L1D)
            tm_cache_snooze_hint(sm->l1d, m->reqs[k].addr, now);
}

/* Snooze: the LD/ST unit's next wake + 1 requests, from the head of its
 * queue on, keep their units awake (the gating logic sees them waiting in
 * the queue). */
static void snooze_lookahead(tm_sm *sm, uint64_t now)
{
    uint32_t left = sm->cfg->snooze_wake + 1;
    for (uint32_t q = 0; q < sm->mem_n && left; q++) {
        const tm_mem_inst *m = &sm->mem[sm->mem_fifo[(sm->mem_head + q) % sm->nmem]];
        for (uint32_t k = m->sent; k < m->nreqs && left; k++, left--)
            if (route_of(sm, m->ic, &m->reqs[k]) == ROUTE_L1D)
                tm_cache_snooze_hint(sm->l1d, m->reqs[k].addr, now);
    }
}

/* Send memory instruction tag's next request (reqs[sent]) to its L1 or
 * past the L1s, at cycle now. SEND_REFUSED changes nothing but the
 * cache's statistics; under Turner's memory stage *hz then says which
 * hazard it met (MSHR, COMQ, RSV in his order). *missed: the request
 * needs an MSHR (a miss sent on). SEND_FAILED: the model stopped. */
static int send_next(tm_sm *sm, uint32_t tag, uint64_t now, tm_hazard *hz, bool *missed)
{
    tm_mem_inst *m = &sm->mem[tag];
    tm_req r = m->reqs[m->sent];
    r.tag = tag;
    r.t_made = now;
    bool answered = r.kind != TM_REQ_WRITE; /* writes hold nothing */
    int route = route_of(sm, m->ic, &r);
    if (route == ROUTE_DIRECT) {
        r.tag |= TM_TAG_DIRECT;
        if (!tm_queue_push(&sm->out, &r)) {
            *hz = TM_HAZARD_COMQ;
            return SEND_REFUSED;
        }
        m->outstanding += answered;
    } else {
        tm_cache *c = route == ROUTE_L1C ? sm->l1c : sm->l1d;
        tm_cache_fail why;
        tm_cache_status s = tm_cache_access(c, &r, now, &why);
        sm->cache_output |= route == ROUTE_L1C ? TM_SM_L1C : TM_SM_L1D;
        if (s == TM_CACHE_RESERVATION_FAIL) {
            if (sm->cfg->mem_pipeline != TM_MEMPIPE_QUEUE) {
                uint32_t fails = r.kind == TM_REQ_READ ? tm_cache_read_fails(c, &r) : 0;
                *hz = tm_hazard_of_fails(fails ? fails : 1u << why);
            }
            return SEND_REFUSED;
        }
        if (s == TM_CACHE_BAD_REQUEST) {
            tm_gpu_sm_fail(sm->gpu, sm->id, SIM_ERR_CONFIG, "SM %u: %s", sm->id, tm_cache_error(c));
            return SEND_FAILED;
        }
        *missed |= s == TM_CACHE_MISS || s == TM_CACHE_SECTOR_MISS;
        if (answered) { /* a hit after the L1's latency; the rest out of tm_cache_next_ready or a reply */
            m->outstanding++;
            if (s == TM_CACHE_HIT) /* (the tag's high word: the lanes it answers) */
                event_push(sm, now + sm->cfg->l1_latency, tag | (uint64_t)r.lanes << 32);
        }
    }
    m->sent++;
    return SEND_OK;
}

/* Memory instruction tag, at the head of the LD/ST unit, has made every
 * access: it leaves the unit (and completes if nothing is outstanding). */
static void leave_ldst(tm_sm *sm, uint32_t tag, uint64_t now)
{
    tm_mem_inst *m = &sm->mem[tag];
    m->all_sent = true;
    if (m->l1d_upstream) {
        m->l1d_upstream = false;
        sm->l1d_loads_upstream--;
    }
    sm->mem_head = (sm->mem_head + 1) % sm->nmem;
    sm->mem_n--;
    if (!m->outstanding)
        mem_complete(sm, tag, now, false);
}

static void turner_pass(tm_sm *sm, uint64_t now);

/* The LD/ST unit's cycle: the instruction at the head of its queue
 * spends a shared-memory bank cycle or sends one request; under Turner's
 * memory stage it makes one pass (turner_pass). */
static void ldst_cycle(tm_sm *sm, uint64_t now)
{
    if (!sm->mem_n)
        return;
    if (sm->snooze)
        snooze_lookahead(sm, now);
    if (sm->cfg->mem_pipeline != TM_MEMPIPE_QUEUE) {
        turner_pass(sm, now);
        return;
    }
    uint32_t tag = sm->mem_fifo[sm->mem_head];
    tm_mem_inst *m = &sm->mem[tag];
    if (m->busy_cycles) {
        if (--m->busy_cycles == 0 && m->nreqs == 0) { /* shared memory only: its data after the latency */
            m->outstanding++;
            event_push(sm, now + sm->cfg->smem_latency, tag);
        }
        if (m->busy_cycles)
            return;
    } else if (m->sent < m->nreqs) {
        tm_hazard hz;
        bool missed = false;
        if (send_next(sm, tag, now, &hz, &missed) != SEND_OK || m->sent < m->nreqs)
            return;
    }
    leave_ldst(sm, tag, now); /* everything sent */
}

/* Replies that became ready in the caches, completions due, and the
 * caches' misses towards the interconnect. Caches without output are
 * left alone ("skipping work"). */
static void alu_written(tm_sm *sm, uint32_t tag, uint64_t now);

static void memory_cycle(tm_sm *sm, uint64_t now)
{
    tm_req r;
    uint8_t out = sm->cache_output;
    while ((out & TM_SM_L1D) && tm_cache_next_ready(sm->l1d, now, &r))
        mem_answer(sm, r.tag, r.lanes, now);
    while ((out & TM_SM_L1C) && tm_cache_next_ready(sm->l1c, now, &r))
        mem_answer(sm, r.tag, r.lanes, now);
    while ((out & TM_SM_L1I) && tm_cache_next_ready(sm->l1i, now, &r)) {
        tm_warp *w = &sm->warps[r.warp];
        if (w->fetching) {
            w->fetching = false;
            w->ib_valid = true;
            w->ib_ready = now + 1;
            touch(sm, r.warp);
            mirror(sm, r.warp);
        }
    }
    while (sm->nevents && sm->events[0].cycle <= now) {
        uint64_t tag = sm->events[0].tag;
        event_pop(sm);
        if (!(tag & TM_EV_WRITE))
            mem_answer(sm, (uint32_t)tag, (uint32_t)(tag >> 32), now);
        else if (tag & TM_EV_ALU)
            alu_written(sm, (uint32_t)(tag & ~(uint64_t)(TM_EV_WRITE | TM_EV_ALU)), now);
        else
            mem_complete(sm, (uint32_t)(tag & ~(uint64_t)TM_EV_WRITE), now, true);
    }
    tm_cache *caches[3] = {sm->l1i, sm->l1c, sm->l1d};
    static const uint8_t bits[3] = {TM_SM_L1I, TM_SM_L1C, TM_SM_L1D};
    for (int k = 0; k < 3; k++) {
        if (!(out & bits[k]))
            continue;
        const tm_req *q;
        while (!tm_queue_full(&sm->out) && (q = tm_cache_miss_front(caches[k]))) {
            tm_queue_push(&sm->out, q);
            tm_cache_miss_pop(caches[k]);
        }
        if (!tm_cache_has_output(caches[k]))
            sm->cache_output &= (uint8_t)~bits[k];
    }
}

void tm_sm_reply(tm_sm *sm, const tm_req *r, uint64_t now)
{
    tm_sm_wake(sm, now);
    if (now >= r->t_made) {
        sm->stats.fetch_latency_sum += now - r->t_made;
        sm->stats.fetches++;
    }
    if (r->tag & TM_TAG_DIRECT) {
        mem_answer(sm, r->tag & ~TM_TAG_DIRECT, r->lanes, now);
        return;
    }
    tm_cache *c = r->space == TM_SPACE_INST ? sm->l1i : r->space == TM_SPACE_CONST ? sm->l1c : sm->l1d;
    sm->cache_output |= r->space == TM_SPACE_INST ? TM_SM_L1I : r->space == TM_SPACE_CONST ? TM_SM_L1C : TM_SM_L1D;
    if (c && !tm_cache_fill(c, r, now))
        tm_gpu_sm_fail(sm->gpu, sm->id, SIM_ERR_CONFIG, "SM %u: a reply for 0x%llx that no miss of %s waits for", sm->id,
                    (unsigned long long)r->addr, r->space == TM_SPACE_INST ? "L1I" : "L1D");
}

/* ---- Turner's memory stage and hazard avoidance ---------------------------
 * Under -simtlab_mem_pipeline stall, stall-retain or replay the LD/ST unit
 * is a memory stage holding one instruction (dispatch hands it the next
 * only when it is empty, so a blocked instruction keeps the next ones in
 * the operand collector: Turner's stall propagation, Fig. 1.4). Each cycle
 * the instruction makes one pass: one access group (the requests of one
 * 128-byte line, or one shared-memory bank cycle). A pass that leaves
 * groups over met DIV (BANK); a group the L1 refused met MSHR, COMQ or
 * RSV (timing/hazard.h). Stalling keeps the instruction in the stage for
 * the next pass; replay squashes it, and its warp issues it again for the
 * groups left (the oldest squashed instruction first, before the warp's
 * next instruction; Sec. 5.2.4). Retaining warp buffers (stall-retain,
 * replay) keep each memory instruction until its last pass, and a warp's
 * next instruction issues only while it is fewer than -simtlab_warp_buffer
 * first issues after the oldest one retained (the fill pointer may not
 * pass the issue tail pointer). Instructions run in the emulator at their
 * first issue, as always: a replay only times what is left. */

static bool retains(const tm_sm *sm)
{
    return sm->cfg->mem_pipeline == TM_MEMPIPE_STALL_RETAIN || sm->cfg->mem_pipeline == TM_MEMPIPE_REPLAY;
}

/* Warp wi's buffer is full up to its oldest retained instruction. */
static bool buffer_full(const tm_sm *sm, const tm_warp *w)
{
    return w->nret && w->seq - sm->mem[w->ret[0]].seq >= sm->cfg->warp_buffer;
}

/* Memory instruction tag made its last pass: its warp's buffer lets it go. */
static void release_retained(tm_sm *sm, uint32_t tag)
{
    tm_warp *w = &sm->warps[sm->mem[tag].warp];
    uint32_t k = 0;
    while (k < w->nret && w->ret[k] != tag)
        k++;
    if (k == w->nret)
        return;
    memmove(&w->ret[k], &w->ret[k + 1], (w->nret - k - 1) * sizeof w->ret[0]);
    w->nret--;
    touch(sm, sm->mem[tag].warp);
    want_fetch(sm, sm->mem[tag].warp); /* (a warp that finished waits for its buffer to empty) */
}

/* The oldest squashed instruction warp w retains (w->nreplay > 0). */
static uint32_t oldest_replay(const tm_sm *sm, const tm_warp *w)
{
    for (uint32_t k = 0; k < w->nret; k++)
        if (sm->mem[w->ret[k]].replay)
            return w->ret[k];
    return w->ret[0]; /* (not reached) */
}

/* Is ic a load whose next pass may need an MSHR of an L1 (a global,
 * local, texture or constant load the L1 caches), and which L1? Before its
 * first issue the space comes from the instruction (space: its
 * tm_mem_space, or the previewed access's ptx_space when `ptx`). */
static bool mshr_load(const tm_sm *sm, const tm_inst_class *ic, int space, bool ptx, bool *l1c)
{
    if (!(ic->flags & TM_IC_LOAD) || (ic->flags & TM_IC_ATOMIC))
        return false;
    bool cnst = ptx ? space == PTX_SPACE_CONST || space == PTX_SPACE_PARAM
                    : space == TM_MEM_CONST || space == TM_MEM_PARAM;
    bool global = ptx ? space == PTX_SPACE_GLOBAL : space == TM_MEM_GLOBAL || space == TM_MEM_GENERIC || space == TM_MEM_TEX;
    bool local = ptx ? space == PTX_SPACE_LOCAL : space == TM_MEM_LOCAL;
    *l1c = cnst;
    if (cnst)
        return sm->l1c != NULL;
    if (!global && !local)
        return false;
    return sm->l1d && !(ic->flags & TM_IC_BYPASS_L1) && !(sm->cfg->gmem_skip_l1d && global);
}

/* The prediction for a load's coming pass (Turner, Sec. 6.1): 1 a miss, 0
 * a hit, -1 none (no predictor, or not a load that takes MSHRs). r: its
 * next request when known (a replay; before a first issue the oracle
 * looks up the line its first active lane previews), fn/pc the load. */
static int predict(tm_sm *sm, uint32_t fn, uint32_t pc, tm_hazard last, const tm_req *r, bool l1c)
{
    tm_hazard_predictor p = sm->cfg->hazard_predictor;
    bool counter = p == TM_PREDICT_COUNTER &&
                   tm_hazard_table_predicts_miss(&sm->gpu->hazard_table, tm_hazard_table_index(fn, pc));
    bool oracle = false;
    if (p == TM_PREDICT_ORACLE && r) {
        tm_cache_status s = tm_cache_peek(l1c ? sm->l1c : sm->l1d, r);
        oracle = s == TM_CACHE_MISS || s == TM_CACHE_SECTOR_MISS || s == TM_CACHE_RESERVATION_FAIL;
    }
    return tm_hazard_predict_miss(p, last, counter, oracle);
}

/* The prediction for warp wi's buffered instruction, before its first
 * issue (-1: none); *l1c its L1. */
static int predict_first(tm_sm *sm, uint32_t wi, bool *l1c)
{
    tm_warp *w = &sm->warps[wi];
    const tm_inst_class *ic = w->ic;
    if (sm->cfg->hazard_predictor == TM_PREDICT_NONE || !mshr_load(sm, ic, ic->space, false, l1c))
        return -1;
    tm_req r = {.kind = TM_REQ_READ}, *known = NULL;
    if (sm->cfg->hazard_predictor == TM_PREDICT_ORACLE) {
        uint8_t space;
        uint64_t addr;
        uint32_t lane;
        sm->gpu->mech->enter(w->cta, w->cta_slot, w->group);
        if (sim_preview_access(&w->cta->emu, w->ib.pc, w->group, &space, &addr, &lane)) {
            if (!mshr_load(sm, ic, space, true, l1c))
                return -1; /* (a generic load of shared memory) */
            r.addr = global_address(sm, wi, lane, space, addr);
            known = &r;
        }
    }
    return predict(sm, w->ib_fn, w->ib.pc, TM_HAZARD_NONE, known, *l1c);
}

/* Is m's next pass a load's access of an L1 (one that may take an MSHR),
 * and of which (*l1c)? */
static bool l1_load_pass(const tm_sm *sm, const tm_mem_inst *m, bool *l1c)
{
    if (m->sent >= m->nreqs || m->busy_cycles || !(m->ic->flags & TM_IC_LOAD) || (m->ic->flags & TM_IC_ATOMIC))
        return false;
    int route = route_of(sm, m->ic, &m->reqs[m->sent]);
    *l1c = route == ROUTE_L1C;
    return route != ROUTE_DIRECT;
}

/* The prediction for squashed instruction m's next pass (-1: none). */
static int predict_replay(tm_sm *sm, const tm_mem_inst *m, bool *l1c)
{
    if (sm->cfg->hazard_predictor == TM_PREDICT_NONE || !l1_load_pass(sm, m, l1c))
        return -1;
    return predict(sm, m->fn, m->pc, (tm_hazard)m->last_hazard, &m->reqs[m->sent], *l1c);
}

/* Does the tracker hold back a load predicted `pred` for an L1 (l1c)? */
static bool restricted(const tm_sm *sm, int pred, bool l1c)
{
    if (pred != 1)
        return false;
    const tm_cache *c = l1c ? sm->l1c : sm->l1d;
    uint32_t mshrs = l1c ? sm->cfg->l1c.mshr_entries : sm->cfg->l1d.mshr_entries;
    return !tm_hazard_may_issue(sm->cfg->hazard_tracker, mshrs, tm_cache_mshrs_in_use(c), sm->credits_held[l1c]);
}

/* m issues with prediction pred: remembered for its pass, and a predicted
 * miss takes a credit under the credit tracker. */
static void note_prediction(tm_sm *sm, tm_mem_inst *m, int pred, bool l1c)
{
    m->predicted = (int8_t)pred;
    if (pred == 1 && sm->cfg->hazard_tracker == TM_TRACK_CREDIT) {
        m->credit = true;
        m->credit_l1c = l1c;
        sm->credits_held[l1c]++;
    }
}

/* After a pass of m that met hz (missed: a request of its group missed):
 * the prediction's outcome, the credit back to the store (an MSHR taken
 * now counts as in use), the counter table's update. */
static void pass_done(tm_sm *sm, tm_mem_inst *m, tm_hazard hz, bool missed, bool mshr_pass)
{
    missed |= tm_hazard_is_miss(hz);
    if (m->predicted >= 0 && mshr_pass)
        sm->stats.predictions[m->predicted][missed]++;
    m->predicted = -1;
    if (m->credit) {
        sm->credits_held[m->credit_l1c]--;
        m->credit = false;
    }
    if (mshr_pass && sm->cfg->hazard_predictor == TM_PREDICT_COUNTER)
        sm->table_update = (__typeof__(sm->table_update)){true, missed, tm_hazard_table_index(m->fn, m->pc)};
    m->last_hazard = (uint8_t)hz;
    if (hz != TM_HAZARD_NONE)
        sm->stats.hazards[hz]++;
}

/* One pass of the instruction in the memory stage (see above). */
static void turner_pass(tm_sm *sm, uint64_t now)
{
    uint32_t tag = sm->mem_fifo[sm->mem_head];
    tm_mem_inst *m = &sm->mem[tag];
    tm_hazard hz = TM_HAZARD_NONE;
    bool missed = false, mshr_pass = false, banks = m->busy_cycles != 0;
    if (banks) {
        if (--m->busy_cycles == 0 && m->nreqs == 0) { /* shared memory only: its data after the latency */
            m->outstanding++;
            event_push(sm, now + sm->cfg->smem_latency, tag);
        }
    } else if (m->sent < m->nreqs) {
        bool l1c;
        mshr_pass = l1_load_pass(sm, m, &l1c);
        uint64_t line = m->reqs[m->sent].addr >> 7;
        while (m->sent < m->nreqs && m->reqs[m->sent].addr >> 7 == line) {
            int res = send_next(sm, tag, now, &hz, &missed);
            if (res == SEND_FAILED)
                return;
            if (res == SEND_REFUSED)
                break;
        }
    }
    if (hz == TM_HAZARD_NONE && (m->busy_cycles || m->sent < m->nreqs))
        hz = banks && m->busy_cycles ? TM_HAZARD_BANK : TM_HAZARD_DIV;
    pass_done(sm, m, hz, missed, mshr_pass);
    if (hz == TM_HAZARD_NONE) {
        release_retained(sm, tag);
        leave_ldst(sm, tag, now);
        return;
    }
    if (sm->cfg->mem_pipeline != TM_MEMPIPE_REPLAY)
        return; /* stalling: it stays for the next pass */
    sm->mem_head = (sm->mem_head + 1) % sm->nmem; /* squashed: its warp issues it again */
    sm->mem_n--;
    m->replay = true;
    sm->warps[m->warp].nreplay++;
    mirror(sm, m->warp);
    touch(sm, m->warp);
}

/* Why warp wi cannot issue its oldest squashed instruction again now
 * (TM_STALLS: it can). */
static tm_stall replay_blocked(tm_sm *sm, uint32_t wi)
{
    tm_warp *w = &sm->warps[wi];
    if (!tm_opcollector_can_issue(sm->oc, TM_UNIT_MEM, w->sched))
        return TM_STALL_UNIT;
    bool l1c = false;
    if (restricted(sm, predict_replay(sm, &sm->mem[oldest_replay(sm, w)], &l1c), l1c))
        return TM_STALL_RESTRICT;
    return TM_STALLS;
}

/* Issue warp wi's oldest squashed instruction again: through the operand
 * collector (its address operands are read again) to the memory stage. */
static bool replay_issue(tm_sm *sm, uint32_t wi, uint64_t now)
{
    tm_warp *w = &sm->warps[wi];
    uint32_t tag = oldest_replay(sm, w);
    tm_mem_inst *m = &sm->mem[tag];
    if (tm_opcollector_issue(sm->oc, wi, w->sched, m->ic, tag, now) < 0)
        return false;
    sm->oc_held++;
    bool l1c = false;
    int pred = predict_replay(sm, m, &l1c);
    note_prediction(sm, m, pred, l1c);
    m->replay = false;
    w->nreplay--;
    mirror(sm, wi);
    sm->stats.replays++;
    sm->stats.distro[TM_DISTRO_W1 + (m->lanes ? m->lanes - 1 : 0)]++;
    tm_gpu_line_stats(sm->gpu, sm->id, m->fn, m->pc)->replays++;
    if (sm->gpu->on_issue) {
        tm_issue_event e = {.cycle = now, .sm = sm->id, .slot = wi, .cta = w->cta->id, .cta_slot = w->cta_slot,
                            .fn = m->fn, .pc = m->pc, .replay = true};
        sm->gpu->on_issue(sm->gpu->on_issue_arg, &e);
    }
    w->last_commit = now;
    sm->last_progress = now;
    return true;
}

/* ---- writeback ------------------------------------------------------------ */

/* The result of ALU instruction `tag` (functional-unit tag: warp slot
 * and ALU slot) is written at now. */
static void alu_written(tm_sm *sm, uint32_t tag, uint64_t now)
{
    uint32_t wi = tag / TM_ALU_PER_WARP, k = tag % TM_ALU_PER_WARP;
    tm_warp *w = &sm->warps[wi];
    const tm_inst_class *ic = w->alu[k];
    if (ic->ndst) {
        sb_released(sm, wi, tm_scoreboard_release_inst(sm->sb, wi, ic));
        tm_opcollector_writeback(sm->oc, wi, w->sched, ic->dst, ic->ndst, now);
        if (sm->rfp.policy)
            tm_rf_power_written(&sm->rfp, wi, ic, now, rf_next_of(w));
    }
    w->alu_busy &= (uint8_t)~(1u << k);
    if (w->done && !w->alu_busy && w->cta)
        maybe_end_cta(sm, w->cta);
    sm->last_progress = now;
}

static void writeback(tm_sm *sm, uint64_t now)
{
    if (now < sm->fu_next)
        return; /* nothing completes yet ("skipping work") */
    uint32_t n = tm_fu_cycle(sm->fu, now, sm->fu_done, sm->fu_max);
    sm->fu_next = tm_fu_next_event(sm->fu);
    for (uint32_t i = 0; i < n; i++) {
        uint32_t tag = (uint32_t)sm->fu_done[i].tag;
        const tm_warp *w = &sm->warps[tag / TM_ALU_PER_WARP];
        uint64_t at = w->alu[tag % TM_ALU_PER_WARP]->ndst && sm->rfp.policy >= TM_RFP_SLUMBER
                          ? tm_rf_power_write_ready(&sm->rfp, tag / TM_ALU_PER_WARP, w->alu[tag % TM_ALU_PER_WARP], now)
                          : now;
        if (at > now) /* a destination is waking: the result waits for it */
            event_push(sm, at, TM_EV_WRITE | TM_EV_ALU | tag);
        else
            alu_written(sm, tag, now);
    }
}

/* ---- dispatch ------------------------------------------------------------- */

/* Instructions whose operands are read go to their functional unit or to
 * the LD/ST unit's queue. */
static void dispatch(tm_sm *sm, uint64_t now)
{
    sm->mem_waits = false;
    if (!sm->oc_held)
        return; /* an empty collector does nothing ("skipping work") */
    tm_opcollector_cycle(sm->oc, now);
    for (int k = 0; k < TM_UNIT_KINDS; k++) {
        tm_oc_entry e;
        while (tm_opcollector_ready(sm->oc, (tm_unit)k, &e)) {
            if (k == TM_UNIT_MEM) {
                if (sm->cfg->mem_pipeline != TM_MEMPIPE_QUEUE && sm->mem_n) {
                    sm->mem_waits = true;
                    break; /* Turner's memory stage holds one instruction: it waits in OC_EX */
                }
                sm->mem_fifo[(sm->mem_head + sm->mem_n) % sm->nmem] = (uint32_t)e.tag;
                sm->mem_n++;
            } else {
                const tm_inst_class *ic = sm->warps[e.tag / TM_ALU_PER_WARP].alu[e.tag % TM_ALU_PER_WARP];
                uint32_t lat = ic->latency > 3 ? ic->latency - 2 : 1;
                if (tm_fu_issue(sm->fu, (tm_unit)k, lat, ic->initiation, e.tag, now) < 0)
                    break; /* the unit is busy: it stays in OC_EX */
                if (now + lat < sm->fu_next)
                    sm->fu_next = now + lat;
            }
            tm_opcollector_pop(sm->oc, (tm_unit)k);
            sm->oc_held--;
        }
    }
}

/* ---- issue -------------------------------------------------------------- */

/* Why warp w cannot issue its buffered instruction now (TM_STALLS: it can). */
static tm_stall blocked(tm_sm *sm, uint32_t wi, uint64_t now)
{
    tm_warp *w = &sm->warps[wi];
    if (w->nreplay) /* only its oldest squashed instruction is offered (Turner, Sec. 5.2.4) */
        return replay_blocked(sm, wi);
    if (w->done)
        return TM_STALL_DONE;
    if (w->at_barrier)
        return TM_STALL_BARRIER;
    if (!w->ib_valid || w->ib_ready > now)
        return TM_STALL_FETCH;
    if (sm->scan[w->sched].sb_wait >> (wi / sm->nsched) & 1) /* nothing released since it was refused; */
        return TM_STALL_SCOREBOARD; /* (and no memory barrier waited then: pending_mem has not grown since) */
    const tm_inst_class *ic = w->ic;
    if ((ic->flags & TM_IC_MEMBAR) && w->pending_mem)
        return TM_STALL_MEMBAR;
    if (retains(sm) && buffer_full(sm, w))
        return TM_STALL_FETCH; /* the fill pointer waits behind a retained instruction */
    if ((ic->flags & TM_IC_BARRIER) && w->nret && sm->cfg->mem_pipeline == TM_MEMPIPE_REPLAY)
        return TM_STALL_MEMBAR; /* (a warp at a barrier could not replay) */
    if (sb_hazard(sm, wi, ic)) {
        sm->scan[w->sched].sb_wait |= 1ull << (wi / sm->nsched);
        return TM_STALL_SCOREBOARD;
    }
    if (!tm_opcollector_can_issue(sm->oc, (tm_unit)ic->unit, w->sched))
        return TM_STALL_UNIT;
    if (ic->unit == TM_UNIT_MEM && sm->mem_n + 1 >= sm->nmem)
        return TM_STALL_UNIT;
    bool l1c = false;
    if (sm->cfg->hazard_predictor != TM_PREDICT_NONE && restricted(sm, predict_first(sm, wi, &l1c), l1c))
        return TM_STALL_RESTRICT;
    if (sm->rfp.policy >= TM_RFP_SLUMBER && (w->rf_ready = tm_rf_power_operands(&sm->rfp, wi, ic, now)) > now)
        return TM_STALL_RF; /* a source is waking (its wake-up started) */
    return TM_STALLS;
}

/* A free in-flight ALU entry of warp wi, or -1. */
static int alu_alloc(tm_sm *sm, uint32_t wi)
{
    uint32_t busy = sm->warps[wi].alu_busy;
    if (busy == (1u << TM_ALU_PER_WARP) - 1)
        return -1;
    return (int)(wi * TM_ALU_PER_WARP + (uint32_t)__builtin_ctz(~busy));
}

/* The slots the mechanism flagged have their pending writes shadowed:
 * under dual-path execution both paths of each flagged warp (its paths
 * diverged or reconverged), under a regrouping mechanism each flagged
 * slot. */
static void apply_shadow(tm_sm *sm, tm_cta *cta)
{
    for (uint32_t m = cta->shadow; m; m &= m - 1) {
        uint32_t k = (uint32_t)__builtin_ctz(m);
        tm_scoreboard_shadow(sm->sb, cta->sm_slot[k]);
        if (sm->nwarps > sm->nstatic)
            tm_scoreboard_shadow(sm->sb, cta->sm_slot[k + cta->nslots / 2]);
    }
    cta->shadow = 0;
}

/* Issue warp wi's buffered instruction: run it, hand the outcome to the
 * mechanism, reserve its registers and send it to the collectors. False
 * when it could not (no in-flight entry). second: the second instruction
 * of a dual issue (counted as such, not as a cycle of the issue
 * distribution). */
static bool issue(tm_sm *sm, uint32_t wi, uint64_t now, bool second)
{
    tm_warp *w = &sm->warps[wi];
    tm_cta *cta = w->cta;
    const tm_inst_class *ic = w->ic;
    bool is_mem = ic->unit == TM_UNIT_MEM;
    int slot = is_mem ? mem_alloc(sm) : alu_alloc(sm, wi);
    if (slot < 0)
        return false;
    sim_group *g = w->group; /* what the mechanism gave at fetch (its answer holds until a commit) */
    sim_issue is = w->ib;
    bool l1c = false;
    int pred = is_mem ? predict_first(sm, wi, &l1c) : -1; /* (before it runs: what blocked() saw) */
    sm->gpu->mech->enter(cta, w->cta_slot, g);
    sim_step st;
    cta->emu.clock = now;
    sim_exec(&cta->emu, is.pc, g, &st);
    uint32_t lane_thread[32]; /* inside a call the group's entries are lanes of the warp */
    if (is_mem && !(st.mem_by_lane && st.nmem == g->n)) /* (for mem_requests, taken before the commit; it
                                                            reads lane i's entry i without them) */
        for (uint32_t k = 0; k < g->n; k++)
            lane_thread[k] = sim_thread(&cta->emu, g->t[k]);
    if (st.event == SIM_EV_FAULT) {
        cta_fault(sm, cta);
        return false;
    }
    uint32_t lanes = tm_popcount32(is.mask);
    sm->stats.warp_insts++;
    sm->stats.thread_insts += lanes;
    if (second)
        sm->stats.dual_issues++;
    else
        sm->stats.distro[TM_DISTRO_W1 + (lanes ? lanes - 1 : 0)]++;
    tm_inst_stats *prof = tm_gpu_line_stats(sm->gpu, sm->id, w->ib_fn, is.pc);
    prof->issues++;
    prof->lanes += lanes;
    if (st.event == SIM_EV_BRANCH && (st.taken & is.mask) && (st.taken & is.mask) != is.mask) {
        sm->stats.divergent_branches++;
        prof->divergent++;
        /* both paths hold instructions of their own (neither starts at the
         * reconvergence point): dual-path execution could interleave them
         * (Rhu's thesis, Sec. 3.3) */
        uint32_t rpc = cta->emu.fn->rpc[is.pc];
        sm->stats.divergent_interleavable += !st.indirect && st.target != rpc && is.pc + 1 != rpc;
    }
    sim_warp_status after = sm->gpu->mech->commit(cta, w->cta_slot, &is, &st);
    if (after == SIM_WARP_FAULT) {
        cta_fault(sm, cta);
        return false;
    }
    if (sm->gpu->on_issue) {
        tm_issue_event e = {.cycle = now, .sm = sm->id, .slot = wi, .cta = cta->id, .cta_slot = w->cta_slot,
                            .fn = w->ib_fn, .pc = is.pc, .mask = is.mask};
        sm->gpu->on_issue(sm->gpu->on_issue_arg, &e);
    }
    if (sm->rfp.policy)
        tm_rf_power_issued(&sm->rfp, wi, ic, now, rf_next_after_issue(sm, wi, w->ib_fn, is.pc));
    w->ib_valid = false;
    sm->ordered_held -= w->ib_ordered;
    w->ib_ordered = false;
    want_fetch(sm, wi);
    w->last_commit = now;
    sm->last_progress = now;
    /* someone arrived, or threads exited (a barrier expecting every live
     * thread may now be complete): the barriers are checked this cycle */
    if (st.event == SIM_EV_BARRIER || st.event == SIM_EV_EXIT)
        cta->barrier_arrived = sm->barrier_arrived = true;
    /* the whole warp waits (PDOM); under ITS other lanes may go on, and the
     * mechanism leaves the waiting ones out of its next issues */
    if (after == SIM_WARP_WAITING && sm->gpu->mech->at_barrier(cta, w->cta_slot)) {
        w->at_barrier = true;
        park(sm, wi, true);
    }
    mirror_holds(sm, wi);
    if (ic->ndst)
        tm_scoreboard_reserve(sm->sb, wi, ic);
    /* a regrouping or divergence the commit made comes after this
     * instruction: its writes are among the ones that become shadowed */
    apply_shadow(sm, cta);
    if (is_mem) {
        tm_mem_inst *m = &sm->mem[slot];
        tm_req *heap = m->heap;
        uint32_t heap_cap = m->heap_cap;
        *m = (tm_mem_inst){.busy = true, .warp = wi, .ic = ic, .cap = TM_MEM_SMALL_REQS, .issued = now,
                           .heap = heap, .heap_cap = heap_cap, .fn = w->ib_fn, .pc = is.pc, .lanes = lanes,
                           .seq = w->seq, .predicted = -1};
        m->reqs = m->small;
        sm->mem_free[slot / 64] &= ~(1ull << (slot % 64));
        if (!mem_requests(sm, m, wi, lane_thread, g->n, &st)) {
            tm_gpu_sm_fail(sm->gpu, sm->id, SIM_ERR_OUT_OF_MEMORY, "out of memory for the requests of SM %u", sm->id);
            return false;
        }
        if (sm->snooze)
            snooze_hints(sm, m, now);
        if (sm->mem_split)
            track_lanes(sm, (uint32_t)slot, is.mask);
        prof->mem_requests += m->nreqs;
        prof->smem_cycles += m->busy_cycles;
        if (!m->busy_cycles && !m->nreqs) /* nothing touched memory (every lane predicated off) */
            m->busy_cycles = 1;
        w->pending_mem++;
        sm->stats.mem_insts++;
        note_prediction(sm, m, pred, l1c);
        if (m->nreqs && (ic->flags & TM_IC_LOAD) && !(ic->flags & TM_IC_ATOMIC) &&
            route_of(sm, ic, &m->reqs[0]) == ROUTE_L1D) {
            m->l1d_upstream = true;
            sm->l1d_loads_upstream++;
        }
        if (retains(sm))
            w->ret[w->nret++] = (uint16_t)slot;
    } else {
        sm->stats.alu_insts++;
        w->alu[slot % TM_ALU_PER_WARP] = ic;
        w->alu_busy |= (uint8_t)(1u << (slot % TM_ALU_PER_WARP));
    }
    if (tm_opcollector_issue(sm->oc, wi, w->sched, ic, (uint64_t)slot, now) < 0) {
        tm_gpu_sm_fail(sm->gpu, sm->id, SIM_ERR_CONFIG, "SM %u: the operand collector refused an instruction it had room for", sm->id);
        return false;
    }
    sm->oc_held++;
    w->seq++;
    return true;
}

/* ---- subdivision on memory divergence -------------------------------------
 * (-simtlab_dws_memory with a mechanism that has mem_split: dynamic warp
 * subdivision, Meng et al., ISCA 2010.) A slot whose buffered instruction
 * the scoreboard refuses, where every register holding it is the
 * destination of a load in flight from one slot (its own, or its other
 * path's: a shadowed write) whose lanes still owed data are all lanes of
 * the instruction while some of its lanes have theirs, offers the
 * mechanism to split its path into the lanes that may run ahead and those
 * that wait. If it does, the lanes that wait run from the load's slot
 * (the mechanism's choice), whose own scoreboard holds the destinations;
 * those are kept from shadowing until they are written (no other slot
 * waits for them: the lanes that run ahead have their data, and no other
 * lanes are owed any by the load), while the rest of both slots' pending
 * writes become shadowed as at any split; the refused instruction is
 * dropped and both slots fetch again. */

/* The memory instruction in flight from slot wi that writes register reg
 * (at most one: a second write of it would have waited), or NULL. */
static tm_mem_inst *mem_writer(tm_sm *sm, uint32_t wi, uint32_t reg)
{
    for (uint32_t k = 0; k < (sm->nmem + 63) / 64; k++)
        for (uint64_t b = ~sm->mem_free[k]; b; b &= b - 1) {
            uint32_t tag = k * 64 + (uint32_t)__builtin_ctzll(b);
            if (tag >= sm->nmem)
                break;
            tm_mem_inst *m = &sm->mem[tag];
            for (uint32_t d = 0; m->warp == wi && d < m->ic->ndst; d++)
                if (m->ic->dst[d] == reg)
                    return m;
        }
    return NULL;
}

/* Slot wi's buffered instruction was refused by the scoreboard: split its
 * path if the loads it waits for have answered some of its lanes (see
 * above). True when the mechanism split it (the instruction is dropped). */
static bool mem_subdivide(tm_sm *sm, uint32_t wi)
{
    tm_warp *w = &sm->warps[wi];
    const tm_inst_class *ic = w->ic;
    uint32_t other = twin(sm, wi), from = UINT32_MAX, waiting = 0, n = 0;
    const tm_mem_inst *loads[16];
    for (uint32_t j = 0; j < ic->nsrc + ic->ndst; j++) {
        uint32_t reg = j < ic->nsrc ? ic->src[j] : ic->dst[j - ic->nsrc];
        bool own = tm_scoreboard_pending(sm->sb, wi, reg), shadowed = tm_scoreboard_shadowed_reg(sm->sb, other, reg);
        if (reg >= sm->sb->nregs || (own && shadowed))
            return false;
        if (!own && !shadowed)
            continue;
        uint32_t x = own ? wi : other;
        const tm_mem_inst *m = mem_writer(sm, x, reg);
        if (!m || !m->track || (from != UINT32_MAX && x != from) || (m->waiting & ~w->ib.mask) || n == 16)
            return false; /* another writer, the two slots' loads, or lanes outside the path still owed data */
        from = x;
        waiting |= m->waiting;
        loads[n++] = m;
    }
    uint32_t ready = w->ib.mask & ~waiting;
    if (from == UINT32_MAX || !ready || !(w->ib.mask & waiting) ||
        !sm->gpu->mech->mem_split(w->cta, w->cta_slot, sm->warps[from].cta_slot, ready))
        return false;
    for (uint32_t i = 0; i < n; i++)
        for (uint32_t d = 0; d < loads[i]->ic->ndst; d++)
            tm_scoreboard_keep(sm->sb, from, loads[i]->ic->dst[d]);
    apply_shadow(sm, w->cta); /* (the mechanism flagged the warp: its split) */
    w->ib_valid = false;
    sm->ordered_held -= w->ib_ordered;
    w->ib_ordered = false;
    mirror(sm, wi);
    for (uint32_t k = 0; k < 2; k++) {
        uint32_t s = k ? other : wi;
        sb_forget(sm, s);
        touch(sm, s);
        want_fetch(sm, s);
    }
    return true;
}

/* What scheduler s counts for a cycle in which it issues nothing, given
 * the best stall reason of its warps and the warp behind it. */
static struct tm_idle_count idle_count(tm_sm *sm, tm_stall best, uint32_t best_wi, bool scoreboard,
                                       bool ready_but_stalled)
{
    struct tm_idle_count c = {(uint8_t)best, (uint8_t)(ready_but_stalled ? TM_DISTRO_STALL
                                                       : scoreboard       ? TM_DISTRO_SCOREBOARD
                                                                          : TM_DISTRO_IDLE), NULL};
    if (best_wi != UINT32_MAX && /* charged to the instruction it holds (ib_valid: holds, mirror()) */
        (sm->scan[best_wi % sm->nsched].holds >> (best_wi / sm->nsched) & 1))
        c.charged = tm_gpu_line_stats(sm->gpu, sm->id, sm->warps[best_wi].ib_fn, sm->warps[best_wi].ib.pc);
    return c;
}

/* Count one such cycle. */
static void count_idle(tm_sm *sm, const struct tm_idle_count *c, uint64_t k)
{
    sm->stats.stall[c->stall] += k;
    sm->stats.distro[c->distro] += k;
    if (c->charged)
        c->charged->stall_cycles += k;
}

static bool fetch(tm_sm *sm, uint32_t wi, uint64_t now);

/* Dual issue (-gpgpu_max_insn_issue_per_warp 2; Turner: "if the first
 * instruction in a warp instruction stream entry can be issued, the second
 * instruction is also issued if possible"): after warp wi issued `first`
 * (at first_pc of function first_fn) in cycle now, the instruction after
 * it, fetched and decoded with it (the mechanism's next issue of the
 * warp, at first_pc + 1 in the same function: a control instruction or a
 * divergence ends the pair), issues in the same cycle when nothing holds
 * it and, with -gpgpu_dual_issue_diff_exec_units, it goes to another unit.
 * Otherwise, or when it is an ordered instruction (tm_sm_holds_ordered),
 * it stays buffered (ready next cycle, as a fetch in this cycle would have
 * made it). The fetch counts an instruction-cache access of its
 * own. */
static bool issue_second(tm_sm *sm, uint32_t wi, const tm_inst_class *first, uint32_t first_fn, uint32_t first_pc,
                         uint64_t now)
{
    tm_warp *w = &sm->warps[wi];
    if ((first->flags & (TM_IC_BRANCH | TM_IC_CALL | TM_IC_RET | TM_IC_EXIT | TM_IC_BARRIER)) || w->done ||
        w->at_barrier || w->ib_valid || w->fetching || w->mech_wait)
        return false;
    if (!fetch(sm, wi, now) || !w->ib_valid || w->ib_fn != first_fn || w->ib.pc != first_pc + 1)
        return false;
    w->ib_ready = now;
    if ((sm->cfg->dual_issue_diff_units && w->ic->unit == first->unit) || w->ib_ordered)
        return false; /* (an ordered instruction issues only the cycle after it is buffered: gpu.c) */
    if (blocked(sm, wi, now) != TM_STALLS || !issue(sm, wi, now, true))
        return false;
    uint32_t s = w->sched;
    if (w->ic->flags & TM_IC_LONGOP)
        tm_warp_sched_long_wait(&sm->sched[s], wi / sm->nsched, live_row(sm, s));
    return true;
}

/* Slumber's look-ahead (Sec. 6.3.3): the first four warps of scheduler
 * s's order holding an instruction (the one issuing and the three after
 * it) wake the registers it reads. */
static void rf_lookahead(tm_sm *sm, uint32_t s, const uint32_t *order, uint32_t n, uint64_t now)
{
    const struct tm_sched_scan *sc = &sm->scan[s];
    for (uint32_t k = 0, seen = 0; k < n && seen < 4; k++)
        if (sc->holds >> order[k] & 1) {
            uint32_t wi = order[k] * sm->nsched + s;
            if (sm->warps[wi].ib_valid)
                tm_rf_power_lookahead(&sm->rfp, wi, sm->warps[wi].ic, now);
            seen++;
        }
}

/* Each scheduler issues at most one instruction (two with dual issue),
 * trying its warps in its policy's order. */
static void issue_stage(tm_sm *sm, uint64_t now)
{
    uint32_t nsched = sm->nsched;
    bool any_unit = false; /* a ready instruction found no collector (Turner's blocked cycles) */
    for (uint32_t s = 0; s < nsched && !tm_gpu_sm_failed(sm->gpu, sm->id); s++) {
        struct tm_sched_scan *sc = &sm->scan[s];
        if (!sc->dirty && now < sc->recheck_at) { /* as last cycle ("skipping work") */
            count_idle(sm, &sm->idle[s], 1);
            continue;
        }
        uint32_t n;
        tm_warp_sched_at(&sm->sched[s], now);
        const uint32_t *order = tm_warp_sched_order_live(&sm->sched[s], live_row(sm, s), sm->resident[s], &n);
        tm_stall best = TM_STALL_IDLE;
        uint32_t best_wi = UINT32_MAX; /* the warp that stalled for `best` */
        bool issued = false, scoreboard = false, ready_but_stalled = false, unit = false;
        uint64_t recheck = UINT64_MAX, in_order = sm->sched[s].order_mask;
        if (!(in_order & ((sc->holds & ~sc->sb_wait) | sc->replay))) {
            /* no warp needs blocked(): the loop below would give the least
             * stall reason of the masks, charged to the first warp in order
             * with it */
            uint64_t waits = in_order & ~sc->holds & ~sc->done & ~sc->at_barrier,
                     fetch = waits & ~sc->mech_wait, simt = waits & sc->mech_wait,
                     sbw = in_order & sc->holds & sc->sb_wait, bar = in_order & ~sc->holds & ~sc->done & sc->at_barrier,
                     done = in_order & ~sc->holds & sc->done;
            best = fetch ? TM_STALL_FETCH : sbw ? TM_STALL_SCOREBOARD : bar ? TM_STALL_BARRIER : simt ? TM_STALL_SIMT
                   : done ? TM_STALL_DONE : TM_STALL_IDLE;
            uint64_t m = fetch ? fetch : sbw ? sbw : bar ? bar : simt ? simt : done;
            for (uint32_t k = 0; k < n && best_wi == UINT32_MAX; k++)
                if (m >> order[k] & 1)
                    best_wi = order[k] * nsched + s;
            scoreboard = sbw != 0;
            n = 0; /* (the loop has nothing to do) */
        }
        for (uint32_t k = 0; k < n && !issued; k++) {
            uint32_t wi = order[k] * nsched + s;
            uint64_t bit = 1ull << order[k];
            tm_stall why;
            if (sc->replay & bit)
                why = blocked(sm, wi, now); /* (its squashed instruction) */
            else if (!(sc->holds & bit)) /* blocked()'s answer from the masks */
                why = sc->done & bit         ? TM_STALL_DONE
                      : sc->at_barrier & bit ? TM_STALL_BARRIER
                      : sc->mech_wait & bit  ? TM_STALL_SIMT
                                             : TM_STALL_FETCH;
            else if (sc->sb_wait & bit)
                why = TM_STALL_SCOREBOARD;
            else if ((why = blocked(sm, wi, now)) == TM_STALL_FETCH && sm->warps[wi].ib_ready > now &&
                     sm->warps[wi].ib_ready < recheck)
                recheck = sm->warps[wi].ib_ready; /* decoded then (a full warp buffer waits for a touch) */
            else if (why == TM_STALL_SCOREBOARD && sm->mem_split && mem_subdivide(sm, wi))
                why = TM_STALL_FETCH; /* its path split on memory divergence: its slots fetch again */
            else if (why == TM_STALL_RF && sm->warps[wi].rf_ready < recheck)
                recheck = sm->warps[wi].rf_ready; /* its sources are ON then */
            if (why == TM_STALLS) {
                bool replay = (sc->replay & bit) != 0;
                tm_warp *w = &sm->warps[wi];
                const tm_inst_class *ic = w->ic;
                uint32_t fn = w->ib_fn, pc = w->ib.pc;
                if (replay ? replay_issue(sm, wi, now) : issue(sm, wi, now, false)) {
                    tm_warp_sched_issued(&sm->sched[s], order[k]);
                    issued = true;
                    if (!replay && ic->flags & TM_IC_LONGOP)
                        tm_warp_sched_long_wait(&sm->sched[s], order[k], live_row(sm, s));
                    if (!replay && sm->cfg->max_issue_per_warp > 1 && !tm_gpu_sm_failed(sm->gpu, sm->id))
                        issue_second(sm, wi, ic, fn, pc, now);
                } else {
                    ready_but_stalled = unit = true;
                    best = TM_STALL_UNIT;
                    best_wi = wi;
                }
                continue;
            }
            scoreboard |= why == TM_STALL_SCOREBOARD;
            ready_but_stalled |= why == TM_STALL_UNIT || why == TM_STALL_MEMBAR || why == TM_STALL_RESTRICT;
            unit |= why == TM_STALL_UNIT;
            if (best == TM_STALL_IDLE || why < best) {
                best = why;
                best_wi = wi;
            }
        }
        if (sm->rfp.policy >= TM_RFP_SLUMBER)
            rf_lookahead(sm, s, order, n, now);
        sc->dirty = issued || ready_but_stalled;
        sc->recheck_at = recheck;
        if (issued) {
            sm->idle_ok = false;
            continue;
        }
        sm->idle[s] = idle_count(sm, best, best_wi, scoreboard, ready_but_stalled);
        count_idle(sm, &sm->idle[s], 1);
        any_unit |= unit;
        if (ready_but_stalled)
            sm->idle_ok = false; /* a unit may free up by itself: no skipping */
    }
    sm->stats.oc_blocked += any_unit && sm->mem_waits;
}

/* ---- fetch -------------------------------------------------------------- */

/* Fetch for warp wi: the mechanism's next issue, through the I-cache.
 * False when the I-cache refused the access this cycle (nothing is
 * buffered then). */
static bool fetch(tm_sm *sm, uint32_t wi, uint64_t now)
{
    tm_warp *w = &sm->warps[wi];
    tm_cta *cta = w->cta;
    sim_group *g;
    sim_issue is;
    sim_warp_status st = sm->gpu->mech->next(cta, w->cta_slot, &g, &is);
    bool shadowed = cta->shadow != 0;
    apply_shadow(sm, cta); /* (a reconvergence the mechanism found on the way) */
    if (st != SIM_WARP_READY || w->mech_wait || shadowed) /* (otherwise only once the I-cache takes it) */
        touch(sm, wi);
    if (st == SIM_WARP_DONE) {
        if (w->nret && sm->cfg->mem_pipeline == TM_MEMPIPE_REPLAY)
            return true; /* finished once its buffer is empty (it may still replay) */
        w->done = true;
        if (sm->rfp.policy)
            tm_rf_power_warp_done(&sm->rfp, wi, now);
        mirror(sm, wi);
        unschedule(sm, wi);
        maybe_end_cta(sm, cta);
        return true;
    }
    if (st == SIM_WARP_FAULT) { /* the mechanism stopped the CTA (cta->emu.fault says why) */
        cta_fault(sm, cta);
        return true;
    }
    if (st != SIM_WARP_READY) { /* waiting: asked again later */
        if (!w->mech_wait) {
            w->mech_wait = true;
            park(sm, wi, true);
            mirror(sm, wi);
        }
        return true;
    }
    if (w->mech_wait) {
        w->mech_wait = false;
        park(sm, wi, false);
        mirror(sm, wi);
    }
    bool in_kernel = cta->emu.fn == cta->emu.kernel_fn;
    const tm_opclass_fn *fc = in_kernel && cta->kernel_opc ? cta->kernel_opc
                                                          : tm_gpu_opclass(sm->gpu, sm->id, cta->emu.fn->index);
    if (in_kernel)
        cta->kernel_opc = fc;
    if (!fc) {
        touch(sm, wi);
        return true;
    }
    tm_cache_status s = TM_CACHE_HIT;
    if (sm->l1i) {
        uint64_t addr = TM_CODE_BASE + ((uint64_t)cta->emu.fn->index << TM_FUNC_CODE_SHIFT) +
                        (uint64_t)is.pc * TM_INST_BYTES;
        uint32_t line = sm->cfg->l1i.line_bytes;
        addr &= ~(uint64_t)(line - 1); /* (a fetch reads its line) */
        if (!tm_cache_mru_read_hit(sm->l1i, addr, TM_ACC_INST_R, now)) { /* (the usual hit, without the request) */
            tm_req r = {.addr = addr, .bytes = line, .sectors = 0xf, .kind = TM_REQ_READ,
                        .space = TM_SPACE_INST, .sm = (uint16_t)sm->id, .warp = (uint16_t)wi, .tag = wi,
                        .t_made = now};
            tm_cache_fail why;
            s = tm_cache_access(sm->l1i, &r, now, &why);
        }
        sm->cache_output |= TM_SM_L1I;
        if (s == TM_CACHE_RESERVATION_FAIL)
            return false; /* nothing buffered: the warp asks again (its scheduler's scan is as it was) */
    }
    touch(sm, wi);
    w->ib = is;
    sb_forget(sm, wi);
    w->ib_ordered = (cta->emu.fn->code[is.pc].flags & SIM_IF_ORDERED) != 0;
    sm->ordered_held += w->ib_ordered;
    w->ib_fn = cta->emu.fn->index;
    w->group = g;
    w->ic = &fc->ic[is.pc];
    if (s != TM_CACHE_HIT) {
        w->fetching = true;
        mirror(sm, wi);
        return true;
    }
    w->ib_valid = true;
    w->ib_ready = now + 1;
    mirror_holds(sm, wi);
    return true;
}

/* Scheduler s's fetch for its local slot j, if it wants one: true when
 * that ends the scheduler's fetch this cycle (one I-cache access a cycle:
 * a refused one ends it too, as GPGPU-Sim's fetch breaks after any
 * access; a warp that is waiting made none). */
static bool fetch_slot(tm_sm *sm, uint32_t s, uint32_t j, uint64_t now)
{
    struct tm_sched_scan *sc = &sm->scan[s];
    if ((sc->done | sc->holds | sc->fetching | sc->at_barrier) >> j & 1) { /* (holds: ib_valid) */
        sc->want_fetch &= ~(1ull << j); /* wants nothing ("skipping work") */
        return false;
    }
    uint32_t wi = j * sm->nsched + s;
    tm_warp *w = &sm->warps[wi];
    bool got = !fetch(sm, wi, now) || w->ib_valid || w->fetching || w->done;
    if (got)
        sc->fetch_next = (j + 1) % sm->per_sched;
    return got;
}

/* Each scheduler fetches for one of its warps with an empty buffer: round
 * robin from the slot after the one it fetched for last (GPGPU-Sim's
 * fetch); under fetch groups, in the scheduler's priority order, as
 * Narasiman's two-level scheduler is the fetch stage's (PhD thesis, Sec.
 * 4.3: with one instruction a warp buffered, the issue stage could not
 * prefer a group the fetch stage does not). */
static void fetch_stage(tm_sm *sm, uint64_t now)
{
    for (uint32_t s = 0; s < sm->nsched; s++) {
        struct tm_sched_scan *sc = &sm->scan[s];
        uint64_t m = sm->resident[s] & sc->want_fetch;
        if (!m)
            continue;
        if (sm->cfg->scheduler == TM_SCHED_FETCH_GROUPS) {
            uint32_t n;
            tm_warp_sched_at(&sm->sched[s], now);
            const uint32_t *order = tm_warp_sched_order_live(&sm->sched[s], live_row(sm, s), sm->resident[s], &n);
            for (uint32_t k = 0; k < n; k++)
                if (m >> order[k] & 1 && fetch_slot(sm, s, order[k], now))
                    break;
            continue;
        }
        /* the resident warps in round-robin order from rr: the bits at and
         * above rr, then those below */
        uint32_t rr = sc->fetch_next;
        uint64_t parts[2] = {m >> rr << rr, m & ((1ull << rr) - 1)};
        bool got = false;
        for (int half = 0; half < 2 && !got; half++)
            for (uint64_t b = parts[half]; b && !got; b &= b - 1)
                got = fetch_slot(sm, s, (uint32_t)__builtin_ctzll(b), now);
    }
}

/* Barriers whose arrivals are complete release their warps. */
static void barriers(tm_sm *sm, uint64_t now)
{
    if (!sm->barrier_arrived)
        return;
    sm->barrier_arrived = false;
    for (uint32_t p = 0; p < sm->cfg->max_ctas_per_core; p++) {
        tm_cta *cta = &sm->ctas[p];
        if (!sm->cta_used[p] || !cta->barrier_arrived)
            continue;
        cta->barrier_arrived = false;
        if (!sm->gpu->mech->release(cta))
            continue;
        for (uint32_t i = 0; i < sm->nwarps; i++) {
            if (sm->warps[i].cta != cta || !sm->warps[i].at_barrier ||
                sm->gpu->mech->at_barrier(cta, sm->warps[i].cta_slot))
                continue;
            sm->warps[i].at_barrier = false;
            park(sm, i, false);
            touch(sm, i);
            mirror(sm, i);
            want_fetch(sm, i);
        }
        sm->last_progress = now;
    }
}

/* The L1 that will refuse the request of the LD/ST unit's head again
 * next cycle, as it refused it this cycle, or NULL: the unit may do
 * something else then. Until the L1 changes (a reply fills it, or its
 * misses move on to the out queue) that retry changes nothing but the
 * L1's refusal counters. */
static tm_cache *ldst_refused(const tm_sm *sm)
{
    if (sm->cfg->mem_pipeline != TM_MEMPIPE_QUEUE || sm->snooze)
        return NULL;
    uint32_t tag = sm->mem_fifo[sm->mem_head];
    const tm_mem_inst *m = &sm->mem[tag];
    if (m->busy_cycles || m->sent >= m->nreqs)
        return NULL;
    const tm_req *r = &m->reqs[m->sent];
    int route = route_of(sm, m->ic, r);
    tm_cache *c = route == ROUTE_L1C ? sm->l1c : route == ROUTE_L1D ? sm->l1d : NULL;
    return c && tm_cache_refuses_again(c, r) ? c : NULL;
}

/* Can the SM skip cycles after `now` (nothing it holds changes before
 * an outside reply or an event)? The first cycle something may happen
 * goes to *wake (UINT64_MAX: only a reply, or the network taking a request
 * of the out queue). *refused: the L1 refusing the LD/ST unit's head each
 * skipped cycle, or NULL. */
static bool can_sleep(tm_sm *sm, uint64_t now, uint64_t *wake, tm_cache **refused)
{
    uint64_t w = UINT64_MAX, next = now + 1;
    for (uint32_t s = 0; s < sm->nsched; s++) {
        const struct tm_sched_scan *sc = &sm->scan[s];
        /* issue_stage counts a scheduler's cycle as its last idle one, as
         * a skipped cycle does (tm_sm_wake), only while its warps are as
         * they were and its recheck cycle has not come; then none of them
         * can issue (a warp that may issue soon keeps it dirty or sets the
         * recheck cycle: a unit, the decode, a register waking) */
        if (sc->dirty || sc->recheck_at <= next)
            return false;
        w = sc->recheck_at < w ? sc->recheck_at : w;
        uint64_t may_act = sm->resident[s] & ~sc->at_barrier & ~sc->fetching; /* (resident: not done) */
        if (may_act & ~sc->holds)
            return false; /* a warp may fetch next cycle */
    }
    if (sm->mem_n && !(*refused = ldst_refused(sm)))
        return false;
    bool out_full = tm_queue_full(&sm->out); /* (the GPU takes from it, and wakes the SM) */
    for (int k = 0; k < TM_UNIT_KINDS; k++) { /* waiting in OC_EX for a unit to accept it */
        tm_oc_entry e;
        if (tm_opcollector_ready(sm->oc, (tm_unit)k, &e))
            return false;
    }
    if (sm->nevents && sm->events[0].cycle < w)
        w = sm->events[0].cycle;
    uint64_t t = tm_fu_next_event(sm->fu);
    w = t < w ? t : w;
    t = tm_opcollector_next_event(sm->oc, next);
    w = t < w ? t : w;
    tm_cache *caches[3] = {sm->l1i, sm->l1d, sm->l1c};
    for (int k = 0; k < 3; k++) {
        if (!caches[k])
            continue;
        if (tm_cache_miss_front(caches[k]) && !out_full)
            return false; /* it moves to the out queue */
        t = tm_cache_next_event(caches[k], next);
        w = t < w ? t : w;
    }
    *wake = w;
    return w > next;
}

void tm_sm_wake(tm_sm *sm, uint64_t now)
{
    if (!sm->sleep_until)
        return;
    uint64_t k = now - sm->sleep_from; /* cycles sleep_from .. now - 1 */
    if (sm->ncta_used) {
        sm->stats.active_cycles += k;
        sm->stats.resident_warp_cycles += k * sm->nresident;
    }
    for (uint32_t s = 0; s < sm->nsched; s++) /* (no scheduler was dirty: can_sleep; what woke it touches the warps it changes) */
        count_idle(sm, &sm->idle[s], k);
    sm->stats.mshr_idle_opportunity += sm->sleep_mshr_idle ? k : 0;
    if (sm->sleep_refused) { /* each skipped cycle's retry (send_next) */
        tm_cache_count_refusals(sm->sleep_refused, k);
        sm->cache_output |= sm->sleep_refused == sm->l1c ? TM_SM_L1C : TM_SM_L1D;
        sm->sleep_refused = NULL;
    }
    sm->sleep_until = 0;
}

void tm_sm_cycle(tm_sm *sm, uint64_t now)
{
    if (sm->sleep_until)
        tm_sm_wake(sm, now);
    sm->idle_ok = true;
    if (sm->ncta_used) {
        sm->stats.active_cycles++;
        sm->stats.resident_warp_cycles += sm->nresident;
    }
    writeback(sm, now);
    memory_cycle(sm, now);
    ldst_cycle(sm, now);
    issue_stage(sm, now);
    barriers(sm, now);
    dispatch(sm, now);
    fetch_stage(sm, now);
    bool mshr_idle = sm->l1d_loads_upstream && tm_cache_mshrs_in_use(sm->l1d) < sm->cfg->l1d.mshr_entries;
    sm->stats.mshr_idle_opportunity += mshr_idle;
    uint64_t wake;
    tm_cache *refused = NULL;
    if (sm->cfg->sm_sleep && sm->idle_ok && sm->ncta_used && can_sleep(sm, now, &wake, &refused)) {
        sm->sleep_until = wake;
        sm->sleep_from = now + 1;
        sm->sleep_mshr_idle = mshr_idle;
        sm->sleep_refused = refused;
    }
}

bool tm_sm_holds_ordered(const tm_sm *sm) { return sm->ordered_held != 0; }

bool tm_sm_idle(const tm_sm *sm)
{
    return !sm->ncta_used && !sm->nevents && !sm->mem_n && tm_queue_empty(&sm->out) && !tm_fu_in_flight(sm->fu);
}

void tm_sm_kernel_done(tm_sm *sm)
{
    free(sm->simt_state); /* (a mechanism's table learns per kernel) */
    sm->simt_state = NULL;
    if (sm->l1d)
        tm_cache_invalidate(sm->l1d);
    if (sm->l1c)
        tm_cache_invalidate(sm->l1c);
    if (sm->l1i)
        tm_cache_invalidate(sm->l1i);
    for (uint32_t p = 0; p < sm->cfg->max_ctas_per_core; p++)
        if (sm->ctas[p].allocated)
            tm_cta_free(&sm->ctas[p], sm->gpu->grid);
}
