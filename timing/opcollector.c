/* opcollector.c — collector units, register bank arbitration and the OC_EX
 * registers (see opcollector.h). */
#include "timing/opcollector.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void set_range(const tm_opcollector *oc, unsigned set, uint32_t sched, uint32_t *lo, uint32_t *hi);

/* The operand collector of cfg. */
tm_opcollector *tm_opcollector_new(const tm_config *cfg, uint32_t max_reads,
                                   uint32_t reads_per_collector, char *err, size_t errlen)
{
    if (cfg->reg_banks == 0) {
        snprintf(err, errlen, "-gpgpu_num_reg_banks is 0");
        return NULL;
    }
    uint32_t nsched = cfg->n_schedulers ? cfg->n_schedulers : 1;
    if (cfg->sub_core_model && cfg->reg_banks % nsched != 0) {
        snprintf(err, errlen, "-gpgpu_sub_core_model: %u register banks do not split among %u "
                 "schedulers", cfg->reg_banks, nsched);
        return NULL;
    }
    tm_opcollector *oc = calloc(1, sizeof *oc);
    if (!oc)
        goto oom;
    oc->reg_banks = cfg->reg_banks;
    oc->n_sched = nsched;
    oc->banks_per_sched = cfg->reg_banks / nsched;
    oc->use_warp_id = cfg->reg_bank_use_warp_id;
    oc->sub_core = cfg->sub_core_model && nsched > 1;
    oc->reads_per_collector = reads_per_collector;
    oc->max_reads = max_reads ? max_reads : 32;
    uint32_t among = oc->sub_core ? oc->banks_per_sched : oc->reg_banks;
    oc->bank_mask = among > 1 && !(among & (among - 1)) ? among - 1 : 0;
    for (unsigned k = 0; k <= TM_UNIT_KINDS; k++) {
        oc->set_first[k] = oc->ncu;
        oc->set_count[k] = k < TM_UNIT_KINDS ? cfg->oc_units[k] : cfg->oc_units_gen;
        oc->ncu += oc->set_count[k];
    }
    uint32_t nex = 0;
    for (unsigned k = 0; k < TM_UNIT_KINDS; k++) {
        oc->ex_first[k] = nex;
        oc->ex_cap[k] = cfg->oc_ex[k];
        nex += cfg->oc_ex[k];
    }
    oc->cu = calloc(oc->ncu ? oc->ncu : 1, sizeof *oc->cu);
    oc->active = calloc(oc->ncu ? oc->ncu : 1, sizeof *oc->active);
    oc->bank_store = malloc(((size_t)oc->ncu * oc->max_reads + 1) * sizeof *oc->bank_store);
    oc->bank_read = malloc(oc->reg_banks * sizeof *oc->bank_read);
    oc->bank_write = malloc(oc->reg_banks * sizeof *oc->bank_write);
    oc->ex = calloc(nex ? nex : 1, sizeof *oc->ex);
    if (!oc->cu || !oc->active || !oc->bank_store || !oc->bank_read || !oc->bank_write || !oc->ex) {
        tm_opcollector_free(oc);
        goto oom;
    }
    for (uint32_t b = 0; b < oc->reg_banks; b++)
        oc->bank_read[b] = oc->bank_write[b] = UINT64_MAX;
    for (uint32_t c = 0; c < oc->ncu; c++)
        oc->cu[c].bank = oc->bank_store + (size_t)c * oc->max_reads;
    if (oc->ncu <= 64) {
        if (!(oc->cand = calloc((size_t)TM_UNIT_KINDS * nsched, sizeof *oc->cand))) {
            tm_opcollector_free(oc);
            goto oom;
        }
        for (unsigned k = 0; k < TM_UNIT_KINDS; k++)
            for (uint32_t s = 0; s < nsched; s++)
                for (unsigned set = 0; set < 2; set++) {
                    uint32_t lo, hi;
                    set_range(oc, set ? TM_UNIT_KINDS : k, s, &lo, &hi);
                    for (uint32_t c = lo; c < hi; c++)
                        oc->cand[k * nsched + s] |= 1ull << c;
                }
    }
    return oc;
oom:
    snprintf(err, errlen, "out of memory for the operand collector");
    return NULL;
}

void tm_opcollector_free(tm_opcollector *oc)
{
    if (!oc)
        return;
    free(oc->cu);
    free(oc->active);
    free(oc->bank_store);
    free(oc->bank_read);
    free(oc->bank_write);
    free(oc->ex);
    free(oc->cand);
    free(oc);
}

/* GPGPU-Sim's register_bank() (a mask for a power of two of banks, and
 * no division for a scheduler's number: what every operand asks). */
static inline uint32_t bank_of(const tm_opcollector *oc, uint32_t reg, uint32_t warp, uint32_t sched)
{
    uint64_t b = (uint64_t)reg + (oc->use_warp_id ? warp : 0);
    if (!oc->sub_core)
        return oc->bank_mask ? (uint32_t)(b & oc->bank_mask) : (uint32_t)(b % oc->reg_banks);
    uint32_t s = sched < oc->n_sched ? sched : sched % oc->n_sched;
    uint32_t in = oc->bank_mask ? (uint32_t)(b & oc->bank_mask) : (uint32_t)(b % oc->banks_per_sched);
    return in + s * oc->banks_per_sched;
}

uint32_t tm_opcollector_bank(const tm_opcollector *oc, uint32_t reg, uint32_t warp, uint32_t sched)
{
    return bank_of(oc, reg, warp, sched);
}

/* The part [*lo, *hi) of collector set `set` that scheduler sched may use:
 * with the sub-core model a set of at least n_sched units is split evenly
 * among the schedulers; otherwise all of it. */
static void set_range(const tm_opcollector *oc, unsigned set, uint32_t sched, uint32_t *lo, uint32_t *hi)
{
    uint32_t first = oc->set_first[set], count = oc->set_count[set];
    if (oc->sub_core && count >= oc->n_sched) {
        uint32_t per = count / oc->n_sched;
        *lo = first + (sched % oc->n_sched) * per;
        *hi = *lo + per;
    } else {
        *lo = first;
        *hi = first + count;
    }
}

/* A free collector for kind from scheduler sched (its own set first, then
 * the generic set), or -1. */
static int find_free(const tm_opcollector *oc, tm_unit kind, uint32_t sched)
{
    if (sched >= oc->n_sched)
        sched %= oc->n_sched; /* (callers pass a scheduler's number: no division) */
    if (oc->cand) {
        uint64_t free_ones = oc->cand[kind * oc->n_sched + sched] & ~oc->busy;
        return free_ones ? __builtin_ctzll(free_ones) : -1;
    }
    const unsigned sets[2] = {kind, TM_UNIT_KINDS};
    for (unsigned s = 0; s < 2; s++) {
        uint32_t lo, hi;
        set_range(oc, sets[s], sched, &lo, &hi);
        for (uint32_t c = lo; c < hi; c++)
            if (!oc->cu[c].busy)
                return (int)c;
    }
    return -1;
}

bool tm_opcollector_can_issue_slow(const tm_opcollector *oc, tm_unit kind, uint32_t sched)
{
    return (unsigned)kind < TM_UNIT_KINDS && oc->ex_cap[kind] > 0 && find_free(oc, kind, sched) >= 0;
}

/* Allocate a collector for ic and queue its operand reads. */
int tm_opcollector_issue(tm_opcollector *oc, uint32_t warp, uint32_t sched,
                         const tm_inst_class *ic, uint64_t tag, uint64_t now)
{
    tm_unit kind = (tm_unit)ic->unit;
    if ((unsigned)kind >= TM_UNIT_KINDS || oc->ex_cap[kind] == 0 || ic->nread > oc->max_reads ||
        oc->set_count[kind] + oc->set_count[TM_UNIT_KINDS] == 0)
        return TM_OC_BAD;
    int c = find_free(oc, kind, sched);
    if (c < 0)
        return TM_OC_BUSY;
    tm_oc_cu *cu = &oc->cu[c];
    cu->busy = true;
    oc->busy |= oc->cand ? 1ull << c : 0;
    cu->kind = (uint8_t)kind;
    cu->warp = warp;
    cu->sched = sched;
    cu->tag = tag;
    cu->seq = oc->seq++;
    cu->npending = ic->nread;
    for (uint32_t k = 0; k < ic->nread; k++)
        cu->bank[k] = bank_of(oc, ic->read[k], warp, sched);
    cu->ready_at = ic->nread ? UINT64_MAX : now + 1; /* nothing to read: leaves next cycle */
    oc->active[oc->nactive++] = (uint32_t)c;
    return c;
}

/* Claim banks for writes of this cycle, in order, until one is taken. */
uint32_t tm_opcollector_writeback(tm_opcollector *oc, uint32_t warp, uint32_t sched,
                                  const uint32_t *regs, uint32_t n, uint64_t now)
{
    uint32_t k = 0;
    for (; k < n; k++) {
        uint32_t b = bank_of(oc, regs[k], warp, sched);
        if (oc->bank_write[b] == now || oc->bank_read[b] == now)
            break;
        oc->bank_write[b] = now;
    }
    oc->regfile_writes += k;
    return k;
}

/* Move collectors whose reads are done to their OC_EX register, oldest
 * first, while there is room; keeps `active` in age order. */
static void dispatch(tm_opcollector *oc, uint64_t now)
{
    uint32_t kept = 0;
    for (uint32_t i = 0; i < oc->nactive; i++) {
        uint32_t c = oc->active[i];
        tm_oc_cu *cu = &oc->cu[c];
        unsigned k = cu->kind;
        if (cu->npending == 0 && cu->ready_at <= now && oc->ex_n[k] < oc->ex_cap[k]) {
            uint32_t slot = oc->ex_head[k] + oc->ex_n[k];
            if (slot >= oc->ex_cap[k])
                slot -= oc->ex_cap[k];
            oc->ex[oc->ex_first[k] + slot] =
                (tm_oc_entry){.tag = cu->tag, .warp = cu->warp, .collector = c, .kind = cu->kind};
            oc->ex_n[k]++;
            cu->busy = false;
            oc->busy &= ~(1ull << (c & 63));
            continue;
        }
        oc->active[kept++] = c;
    }
    oc->nactive = kept;
}

/* Serve read requests: each bank not written this cycle serves one read,
 * collectors in age order, each taking its operands in order. */
static void read_banks(tm_opcollector *oc, uint64_t now)
{
    for (uint32_t i = 0; i < oc->nactive; i++) {
        tm_oc_cu *cu = &oc->cu[oc->active[i]];
        if (cu->npending == 0)
            continue;
        uint32_t granted = 0, kept = 0;
        bool conflict = false;
        for (uint32_t k = 0; k < cu->npending; k++) {
            uint32_t b = cu->bank[k];
            bool limited = oc->reads_per_collector && granted >= oc->reads_per_collector;
            if (!limited && (oc->bank_read[b] == now || oc->bank_write[b] == now))
                conflict = true;
            if (limited || oc->bank_read[b] == now || oc->bank_write[b] == now) {
                cu->bank[kept++] = b;
                continue;
            }
            oc->bank_read[b] = now;
            granted++;
        }
        cu->npending = kept;
        oc->regfile_reads += granted;
        if (kept == 0)
            cu->ready_at = now + 1;
        if (conflict)
            oc->bank_conflict_stalls++;
    }
}

/* One cycle of the operand collector. */
void tm_opcollector_cycle(tm_opcollector *oc, uint64_t now)
{
    dispatch(oc, now);
    read_banks(oc, now);
}

/* The next cycle with work for tm_opcollector_cycle. */
uint64_t tm_opcollector_next_event(const tm_opcollector *oc, uint64_t now)
{
    uint64_t next = UINT64_MAX;
    for (uint32_t i = 0; i < oc->nactive; i++) {
        const tm_oc_cu *cu = &oc->cu[oc->active[i]];
        uint64_t t = cu->npending ? now : (cu->ready_at > now ? cu->ready_at : now);
        if (t < next)
            next = t;
    }
    return next;
}
