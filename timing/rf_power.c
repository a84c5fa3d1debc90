/* rf_power.c — an SM's register file under Slumber or a WRF-like policy
 * (rf_power.h). */
#include "timing/rf_power.h"

#include <stdlib.h>
#include <string.h>

#include "analysis/defuse.h"
#include "analysis/regalloc.h"

/* Does ic write one of the physical registers [p0, p0 + n)? */
static bool writes_phys(const tm_rf_kernel *k, const tm_inst_class *ic, uint32_t p0, uint32_t n)
{
    for (uint32_t d = 0; d < ic->ndst; d++) {
        uint32_t reg = ic->dst[d];
        if (reg < k->nregs && k->phys[reg] != PTX_NO_PHYS && k->phys[reg] < p0 + n && k->phys[reg] + k->width[reg] > p0)
            return true;
    }
    return false;
}

/* The fewest cycles, at most `best`, from the issue of an instruction to
 * a write into physical registers [p0, p0 + n) on the paths that go on at
 * instruction q of block b, issued d cycles after it: a cycle for each
 * instruction issued on the way, plus the writer's latency. */
static uint32_t first_write(const tm_rf_kernel *k, const ptx_function *f, uint32_t b, uint32_t q, uint32_t d,
                            uint32_t p0, uint32_t n, uint32_t best, uint32_t depth)
{
    for (; q < f->blocks[b].end; q++, d++) {
        if (d + 1 >= best)
            return best; /* (a latency is at least 1) */
        if (writes_phys(k, &k->ic[q], p0, n))
            return d + k->ic[q].latency < best ? d + k->ic[q].latency : best;
    }
    for (uint32_t s = 0; depth < 2 * TM_SLUMBER_WAKE_OFF && s < f->blocks[b].nsucc; s++) {
        uint32_t t = f->succs[f->blocks[b].succ + s];
        if (t < f->nblocks && t != f->exit_block)
            best = first_write(k, f, t, f->blocks[t].first, d, p0, n, best, depth + 1);
    }
    return best;
}

/* dead_idle[a] for each read a whose value dies: the least idle period
 * of its physical registers before a later instruction writes them
 * (first_write from its issue; TM_SLUMBER_WAKE_OFF when no path writes
 * them sooner: gating them pays). A lower bound, so that the wake-up it
 * starts is never late. */
static bool predict_dead_idle(tm_rf_kernel *k, const ptx_function *f)
{
    k->dead_idle = malloc(((size_t)k->next.nacc + 1) * sizeof *k->dead_idle);
    if (!k->dead_idle)
        return false;
    for (uint32_t a = 0; a < k->next.nacc; a++) {
        const ptx_access *x = &k->next.acc[a];
        k->dead_idle[a] = TM_SLUMBER_WAKE_OFF;
        if (x->is_write || (x->next != PTX_NEXT_WRITE && x->next != PTX_NEXT_NONE) || x->pc >= k->ninstrs ||
            x->reg >= k->nregs || k->phys[x->reg] == PTX_NO_PHYS || !f->instr_block)
            continue;
        uint32_t b = f->instr_block[x->pc];
        k->dead_idle[a] = (uint8_t)first_write(k, f, b, x->pc + 1, 1, k->phys[x->reg], k->width[x->reg],
                                               TM_SLUMBER_WAKE_OFF, 0);
    }
    return true;
}

bool tm_rf_kernel_build(tm_rf_kernel *k, const ptx_module *m, const ptx_function *f, const tm_opclass_fn *opc)
{
    memset(k, 0, sizeof *k);
    ptx_defuse du;
    ptx_defuse_build(m, f, &du);
    ptx_regalloc ra;
    ptx_regalloc_function(m, f, &du, &ra);
    ptx_nextaccess_analyze(m, f, &du, NULL, NULL, &k->next);
    ptx_defuse_free(&du);
    k->ic = opc->ic;
    k->ninstrs = opc->ninstrs;
    k->nregs = ra.nregs;
    k->nphys = k->nphys_all = ra.nphys ? ra.nphys : 1;
    k->phys = ra.phys;
    k->width = ra.width;
    k->acc_start = calloc((size_t)k->ninstrs + 2, sizeof *k->acc_start);
    if (!k->acc_start)
        return false;
    for (uint32_t a = 0; a < k->next.nacc; a++)
        if (k->next.acc[a].pc < k->ninstrs)
            k->acc_start[k->next.acc[a].pc + 1]++;
    for (uint32_t pc = 0; pc < k->ninstrs; pc++)
        k->acc_start[pc + 1] += k->acc_start[pc];
    return predict_dead_idle(k, f);
}

bool tm_rf_kernel_add_callee(tm_rf_kernel *k, const ptx_module *m, const ptx_function *f, const tm_opclass_fn *opc)
{
    tm_rf_kernel *c = realloc(k->callees, (k->ncallees + 1) * sizeof *c);
    if (!c)
        return false;
    k->callees = c;
    return tm_rf_kernel_build(&k->callees[k->ncallees++], m, f, opc);
}

void tm_rf_kernel_free(tm_rf_kernel *k)
{
    for (uint32_t i = 0; i < k->ncallees; i++)
        tm_rf_kernel_free(&k->callees[i]);
    free(k->callees);
    free(k->phys);
    free(k->width);
    free(k->acc_start);
    free(k->dead_idle);
    ptx_nextaccess_free(&k->next);
    memset(k, 0, sizeof *k);
}

bool tm_rf_power_init(tm_rf_power *p, tm_rf_policy policy, tm_rf_rest rest, uint32_t nregs, uint32_t nslots,
                      uint32_t nbanks, uint32_t lat_hit, uint32_t lat_miss)
{
    *p = (tm_rf_power){.policy = policy, .rest = rest, .nregs = nregs, .nslots = nslots, .nbanks = nbanks ? nbanks : 1,
                       .lat_hit = lat_hit, .lat_miss = lat_miss};
    p->rf = tm_slumber_new(nregs);
    p->base = malloc(((size_t)nslots + 1) * sizeof *p->base);
    p->missed = calloc((size_t)nslots + 1, 1);
    p->last = calloc((size_t)nregs + nslots + p->nbanks + 1, sizeof *p->last);
    if (!p->rf || !p->base || !p->missed || !p->last)
        return false;
    for (uint32_t i = 0; i < nslots; i++)
        p->base[i] = UINT32_MAX;
    return true;
}

void tm_rf_power_free(tm_rf_power *p)
{
    tm_slumber_free(p->rf);
    free(p->base);
    free(p->missed);
    free(p->last);
    memset(p, 0, sizeof *p);
}

void tm_rf_power_kernel(tm_rf_power *p, const tm_rf_kernel *k) { p->k = k; }

void tm_rf_power_warp_start(tm_rf_power *p, uint32_t wi, uint32_t place, uint32_t W, uint32_t k, uint64_t now)
{
    (void)now;
    if (!p->k)
        return;
    uint64_t base = ((uint64_t)place * W + k) * p->k->nphys_all;
    p->base[wi] = base + p->k->nphys_all <= p->nregs ? (uint32_t)base : UINT32_MAX; /* (occupancy keeps it inside) */
    for (uint32_t j = 0; p->base[wi] != UINT32_MAX && j < p->k->nphys_all; j++)
        p->last[base + j] = 0; /* reuse distances are within a warp's life */
}

/* The tables of the function ic belongs to (the kernel or a callee),
 * with ic's pc in *pc; NULL for a function without tables. */
static const tm_rf_kernel *func_of(const tm_rf_power *p, const tm_inst_class *ic, uint32_t *pc)
{
    for (uint32_t i = 0; p->k && i <= p->k->ncallees; i++) {
        const tm_rf_kernel *f = i ? &p->k->callees[i - 1] : p->k;
        if (ic >= f->ic && ic < f->ic + f->ninstrs) {
            *pc = (uint32_t)(ic - f->ic);
            return f;
        }
    }
    return NULL;
}

/* The analyzer's entry for instruction pc's read (write: write) of reg, or NULL. */
static const ptx_access *access_of(const tm_rf_kernel *k, uint32_t pc, uint32_t reg, bool write)
{
    for (uint32_t a = k->acc_start[pc]; a < k->acc_start[pc + 1]; a++)
        if (k->next.acc[a].reg == reg && k->next.acc[a].is_write == write)
            return &k->next.acc[a];
    return NULL;
}

/* When reg's value dies with this access (next access a write, or
 * none): the predicted idle period before its registers are written
 * again (a read's; a write's: OFF's wake-up, gating); else 0. */
static uint32_t dead_after(const tm_rf_kernel *k, uint32_t pc, uint32_t reg, bool write)
{
    const ptx_access *a = access_of(k, pc, reg, write);
    if (!a || (a->next != PTX_NEXT_WRITE && a->next != PTX_NEXT_NONE))
        return 0;
    return write ? TM_SLUMBER_WAKE_OFF : k->dead_idle[a - k->next.acc];
}

/* Count an access to warp-register r of warp slot wi at cycle now (a
 * write, or a read): its reuse distance by the later access's kind, and
 * the cycle's use of the register, the warp, the bank and the file. */
static void record(tm_rf_power *p, uint32_t wi, uint32_t r, uint64_t now, bool write)
{
    uint64_t *reg = &p->last[r], *warp = &p->last[p->nregs + wi], *bank = &p->last[p->nregs + p->nslots + r % p->nbanks],
             *file = &p->last[p->nregs + p->nslots + p->nbanks];
    if (*reg) {
        uint64_t d = now + 1 - *reg;
        uint32_t k = d < 2 ? 0 : 63 - (uint32_t)__builtin_clzll(d);
        k = k < TM_RF_REUSE_BUCKETS ? k : TM_RF_REUSE_BUCKETS - 1;
        (write ? p->use.reuse_write : p->use.reuse_read)[k]++;
    }
    uint64_t *levels[4] = {reg, warp, bank, file};
    uint64_t *counts[4] = {&p->use.reg_cycles, &p->use.warp_cycles, &p->use.bank_cycles, &p->use.rf_cycles};
    for (int l = 0; l < 4; l++)
        if (*levels[l] != now + 1) {
            *levels[l] = now + 1;
            (*counts[l])++;
        }
}

/* Where live PTX register reg of function fn rests after an access
 * (Slumber: -simtlab_rf_rest; WRF: drowsy). */
static tm_rf_state live_rest(const tm_rf_power *p, const tm_rf_kernel *fn, uint32_t reg, tm_rf_next next)
{
    if (p->policy == TM_RFP_WRF || p->rest == TM_RF_REST_DEEP)
        return TM_RF_DS;
    uint32_t pc;
    bool same = next.buffered && func_of(p, next.buffered, &pc) == fn; /* (its registers are fn's) */
    for (uint32_t s = 0; same && s < next.buffered->nread; s++)
        if (next.buffered->read[s] == reg)
            return TM_RF_ON; /* (a): the instruction ready to issue reads it */
    return next.buffered || next.cached ? TM_RF_SS : TM_RF_DS; /* (b), (c) */
}

/* Rest warp-register r (of PTX register reg) after an access at now: when
 * its value is dead (dead_idle: the predicted cycles before its next
 * write, else 0), OFF if that pays, else for that idle period before a
 * write; when it is live, live_rest's state (ON: it stays ON). */
static void rest_after(tm_rf_power *p, const tm_rf_kernel *fn, uint32_t r, uint32_t reg, uint32_t dead_idle,
                       tm_rf_next next, uint64_t now)
{
    if (dead_idle && dead_idle < TM_SLUMBER_WAKE_OFF) {
        tm_slumber_rest(p->rf, r, now, dead_idle, true);
        return;
    }
    tm_rf_state st = dead_idle ? TM_RF_OFF : live_rest(p, fn, reg, next);
    if (st != TM_RF_ON)
        tm_slumber_park(p->rf, r, now, st);
}

/* The warp-registers of PTX register reg of function fn of warp slot
 * wi: [*first, *first + *n). */
static bool regs_of(const tm_rf_power *p, uint32_t wi, const tm_rf_kernel *fn, uint32_t reg, uint32_t *first,
                    uint32_t *n)
{
    if (p->base[wi] == UINT32_MAX || reg >= fn->nregs || fn->phys[reg] == PTX_NO_PHYS)
        return false;
    *first = p->base[wi] + fn->offset + fn->phys[reg];
    *n = fn->width[reg];
    return true;
}

/* Is warp-register r of warp slot wi a destination of ic too? (The
 * allocator gives a result the place of a source that dies with it.) */
static bool written_by(const tm_rf_power *p, uint32_t wi, const tm_rf_kernel *fn, const tm_inst_class *ic,
                       uint32_t r)
{
    for (uint32_t d = 0; d < ic->ndst; d++) {
        uint32_t r0, n;
        if (regs_of(p, wi, fn, ic->dst[d], &r0, &n) && r >= r0 && r < r0 + n)
            return true;
    }
    return false;
}

/* Access the warp-registers of PTX registers regs[0 .. nregs) of
 * function fn of warp slot wi at now: the cycle all of them are ON
 * (their wake-ups start). */
static uint64_t wake_all(tm_rf_power *p, uint32_t wi, const tm_rf_kernel *fn, const uint32_t *regs, uint32_t nregs,
                         uint64_t now)
{
    uint64_t ready = now;
    for (uint32_t s = 0; s < nregs; s++) {
        uint32_t r0, n;
        if (!regs_of(p, wi, fn, regs[s], &r0, &n))
            continue;
        for (uint32_t j = 0; j < n; j++) {
            uint64_t t = now + tm_slumber_access(p->rf, r0 + j, now);
            ready = t > ready ? t : ready;
        }
    }
    return ready;
}

uint64_t tm_rf_power_operands(tm_rf_power *p, uint32_t wi, const tm_inst_class *ic, uint64_t now)
{
    uint32_t pc;
    const tm_rf_kernel *fn = p->policy >= TM_RFP_SLUMBER ? func_of(p, ic, &pc) : NULL;
    return fn ? wake_all(p, wi, fn, ic->read, ic->nread, now) : now;
}

void tm_rf_power_lookahead(tm_rf_power *p, uint32_t wi, const tm_inst_class *ic, uint64_t now)
{
    (void)tm_rf_power_operands(p, wi, ic, now);
}

void tm_rf_power_issued(tm_rf_power *p, uint32_t wi, const tm_inst_class *ic, uint64_t now, tm_rf_next next)
{
    uint32_t pc;
    const tm_rf_kernel *fn = func_of(p, ic, &pc);
    if (!fn) {
        p->unmodelled_insts++;
        return;
    }
    for (uint32_t s = 0; s < ic->nread; s++) { /* read: rest until the next access */
        uint32_t r0, n;
        if (!regs_of(p, wi, fn, ic->read[s], &r0, &n))
            continue;
        for (uint32_t j = 0; j < n; j++)
            record(p, wi, r0 + j, now, false);
        if (p->policy < TM_RFP_SLUMBER)
            continue;
        uint32_t dead = p->policy == TM_RFP_SLUMBER ? dead_after(fn, pc, ic->read[s], false) : 0;
        for (uint32_t j = 0; j < n; j++)
            if (!written_by(p, wi, fn, ic, r0 + j)) /* (else it waits for the result, below) */
                rest_after(p, fn, r0 + j, ic->read[s], dead, next, now);
    }
    if (p->policy < TM_RFP_SLUMBER)
        return;
    uint32_t lat = (ic->flags & TM_IC_LOAD) ? (p->missed[wi] ? p->lat_miss : p->lat_hit) : ic->latency;
    bool overwrite = !(ic->flags & TM_IC_GUARDED); /* a guarded write may keep the old value */
    for (uint32_t d = 0; d < ic->ndst; d++) { /* a result on its way */
        uint32_t r0, n;
        if (!regs_of(p, wi, fn, ic->dst[d], &r0, &n))
            continue;
        for (uint32_t j = 0; j < n; j++) {
            if (p->policy == TM_RFP_WRF || tm_slumber_choose(lat, overwrite) == TM_RF_ON)
                (void)tm_slumber_access(p->rf, r0 + j, now); /* ON until the write (WRF: write-conservative) */
            else
                tm_slumber_rest(p->rf, r0 + j, now, lat, overwrite);
        }
    }
}

uint64_t tm_rf_power_write_ready(tm_rf_power *p, uint32_t wi, const tm_inst_class *ic, uint64_t now)
{
    uint32_t pc;
    const tm_rf_kernel *fn = p->policy >= TM_RFP_SLUMBER ? func_of(p, ic, &pc) : NULL;
    if (!fn)
        return now;
    uint64_t ready = wake_all(p, wi, fn, ic->dst, ic->ndst, now);
    if (ready > now) {
        p->late_writes++;
        p->write_wait_cycles += ready - now;
    }
    return ready;
}

void tm_rf_power_written(tm_rf_power *p, uint32_t wi, const tm_inst_class *ic, uint64_t now, tm_rf_next next)
{
    uint32_t pc;
    const tm_rf_kernel *fn = func_of(p, ic, &pc);
    if (!fn)
        return;
    for (uint32_t d = 0; d < ic->ndst; d++) {
        uint32_t r0, n;
        if (!regs_of(p, wi, fn, ic->dst[d], &r0, &n))
            continue;
        for (uint32_t j = 0; j < n; j++)
            record(p, wi, r0 + j, now, true);
        if (p->policy < TM_RFP_SLUMBER)
            continue;
        uint32_t dead = p->policy == TM_RFP_SLUMBER ? dead_after(fn, pc, ic->dst[d], true) : 0;
        for (uint32_t j = 0; j < n; j++) {
            (void)tm_slumber_access(p->rf, r0 + j, now); /* (ON by now: tm_rf_power_write_ready) */
            rest_after(p, fn, r0 + j, ic->dst[d], dead, next, now);
        }
    }
}

void tm_rf_power_load(tm_rf_power *p, uint32_t wi, bool missed) { p->missed[wi] = missed; }

void tm_rf_power_warp_done(tm_rf_power *p, uint32_t wi, uint64_t now)
{
    if (p->policy < TM_RFP_SLUMBER || !p->k || p->base[wi] == UINT32_MAX)
        return;
    for (uint32_t j = 0; j < p->k->nphys_all; j++) /* WRF leaves them drowsy; Slumber gates them */
        tm_slumber_park(p->rf, p->base[wi] + j, now, p->policy == TM_RFP_WRF ? TM_RF_DS : TM_RF_OFF);
    p->base[wi] = UINT32_MAX;
}

void tm_rf_power_cycles(tm_rf_power *p, uint64_t now, uint64_t out[TM_RF_STATES])
{
    if (p->policy < TM_RFP_SLUMBER) { /* every register ON */
        for (int s = 0; s < TM_RF_STATES; s++)
            out[s] = 0;
        out[TM_RF_ON] = (uint64_t)p->nregs * now;
        return;
    }
    tm_slumber_cycles(p->rf, now, out);
}
