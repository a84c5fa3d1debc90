/* dram.c — one DRAM channel (dram.h): banks, timing constraints kept as
 * "earliest cycle the next command of this kind may issue", the data bus,
 * and the FIFO / FR-FCFS request scheduler.
 *
 * Requests live in one pool of entries linked by index; an entry is in
 * exactly one list at a time: free, waiting (per bank under FR-FCFS, one
 * list under FIFO), at its bank (bank->cur), with data on the bus
 * (inflight, in data order), or finished (replies). The pool grows only
 * when a push finds it full (with an unlimited queue); nothing is
 * allocated in tm_dram_cycle. */
#include "timing/dram.h"

#include "timing/bits.h"

#include <assert.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#define NIL (-1)

typedef struct dram_entry {
    tm_req req;
    uint32_t bank, row, col; /* bank: index among all banks of the channel (sub-rank * nbk + bank) */
    uint32_t bursts_left;    /* column commands still to issue */
    uint32_t bursts;         /* column commands in all */
    uint64_t t_push, t_done; /* arrival; end of the last data burst */
    bool is_write, own_act;  /* own_act: an ACT was issued for it (a row-buffer miss) */
    /* a request split over sub-ranks is one entry per sub-rank: the first is its lead, which
     * answers for all once every part has crossed the bus */
    int32_t lead;            /* the lead's index, or NIL for a lead */
    uint32_t parts_left;     /* lead: parts (itself included) whose data has not crossed yet */
    int32_t prev, next;
} dram_entry;

typedef struct dram_list {
    int32_t head, tail;
    uint32_t n;
} dram_list;

typedef struct dram_bank {
    bool active;             /* a row is open */
    uint32_t row;
    uint32_t group;
    int32_t cur;             /* the request being served, or NIL */
    uint64_t act_ok, rd_ok, wr_ok, pre_ok; /* earliest ACT / RD / WR / PRE */
    uint64_t hold_until;     /* row-buffer hint: until then only requests to the open row may come */
    dram_list waiting[2];    /* FR-FCFS: this bank's waiting requests, oldest first: [0] reads (all
                                requests without a separate write queue), [1] writes */
} dram_bank;

typedef struct dram_group {
    uint64_t col_ok, pre_ok; /* tCCDL after a column command; tRTPL after a RD */
} dram_group;

/* A sub-rank: chips with their own banks, command bus and data bus (the
 * whole channel when it is not sub-ranked). */
typedef struct dram_subrank {
    uint64_t act_ok, col_ok, rd_ok, wr_ok; /* tRRD, tCCD, tWTR, tRTW */
    uint64_t bus_free;       /* first cycle the data bus is free */
    uint64_t banks;          /* mask of its banks */
    dram_list fifo;          /* FIFO: its waiting requests, oldest first */
    uint32_t open;           /* banks with a row open */
    uint64_t open_since;     /* when open last became nonzero */
} dram_subrank;

struct tm_dram {
    uint32_t id;
    tm_dram_timing t;
    tm_dram_sched sched;
    tm_dram_options opt;
    uint32_t queue_cap;      /* 0: unlimited */
    uint32_t atom;           /* bytes per column command (of one sub-rank) */
    uint32_t nsr, nbk;       /* sub-ranks; banks per sub-rank */
    uint32_t nbanks;         /* nsr * nbk */
    uint32_t burst;          /* command cycles a burst holds the data bus */
    uint32_t bl, buswidth;   /* for the report */
    uint32_t tRCDWR, tRTW, tWTR, tWTP; /* derived as GPGPU-Sim does */

    dram_bank *bank;
    dram_group *group;
    uint64_t busy_mask;      /* banks serving a request */
    uint64_t waiting_mask[2]; /* FR-FCFS: banks with waiting requests, per queue */
    uint32_t prio;           /* round-robin start among banks */
    dram_subrank *sr;        /* [nsr] */
    uint64_t open_cycles;    /* sub-rank cycles with a row open, up to the last change */

    dram_entry *pool;
    uint32_t pool_cap;
    int32_t free_head;
    dram_list inflight;      /* last burst issued, data not yet across; t_done ascending */
    dram_list replies;       /* finished reads not yet taken */
    uint32_t n_waiting;      /* waiting requests, both queues */
    uint32_t n_wq;           /* of those, in the write queue */
    uint32_t joining;        /* leads whose data has crossed, waiting for their other parts */
    bool write_mode;         /* the write queue is being drained */

    uint64_t next_cycle;     /* the first cycle not yet run */
    tm_dram_trace_fn trace;
    void *trace_ctx;
    tm_dram_stats st;
};

typedef enum dram_cmd { CMD_NONE, CMD_ACT, CMD_PRE, CMD_RD, CMD_WR } dram_cmd;

static uint64_t max64(uint64_t a, uint64_t b) { return a > b ? a : b; }

/* a - b, or 0 when b > a. */
static uint64_t sub0(uint64_t a, uint64_t b) { return a > b ? a - b : 0; }

/* ---- index-linked lists --------------------------------------------- */

static dram_list list_empty(void) { return (dram_list){NIL, NIL, 0}; }

/* Append entry i at the tail of l. */
static void list_append(tm_dram *d, dram_list *l, int32_t i)
{
    d->pool[i].prev = l->tail;
    d->pool[i].next = NIL;
    if (l->tail != NIL)
        d->pool[l->tail].next = i;
    else
        l->head = i;
    l->tail = i;
    l->n++;
}

/* Unlink entry i from l. */
static void list_remove(tm_dram *d, dram_list *l, int32_t i)
{
    dram_entry *e = &d->pool[i];
    if (e->prev != NIL)
        d->pool[e->prev].next = e->next;
    else
        l->head = e->next;
    if (e->next != NIL)
        d->pool[e->next].prev = e->prev;
    else
        l->tail = e->prev;
    e->prev = e->next = NIL;
    l->n--;
}

/* ---- creation --------------------------------------------------------- */

/* Put entries [from, to) on the free list. */
static void pool_link_free(tm_dram *d, uint32_t from, uint32_t to)
{
    for (uint32_t i = to; i-- > from;) {
        d->pool[i].next = d->free_head;
        d->free_head = (int32_t)i;
    }
}

/* Double the pool; false when memory is short (nothing changed). */
static bool pool_grow(tm_dram *d)
{
    uint32_t cap = d->pool_cap * 2;
    if (cap <= d->pool_cap || cap > INT32_MAX)
        return false;
    dram_entry *p = realloc(d->pool, (size_t)cap * sizeof *p);
    if (!p)
        return false;
    d->pool = p;
    pool_link_free(d, d->pool_cap, cap);
    d->pool_cap = cap;
    return true;
}

/* The bank group of bank b (of all the channel's) under the current
 * indexing option; each sub-rank has groups of its own. */
static uint32_t group_of(const tm_dram *d, uint32_t b)
{
    uint32_t local = b % d->nbk;
    uint32_t g = d->opt.bankgrp_low_bits ? local % d->t.nbkgrp : local / (d->nbk / d->t.nbkgrp);
    return b / d->nbk * d->t.nbkgrp + g;
}

tm_dram *tm_dram_new(const tm_config *cfg, uint32_t channel_id, char *err, size_t errlen)
{
    const tm_dram_timing *t = &cfg->dram;
    if (t->nbk == 0 || t->nbk > 64) {
        snprintf(err, errlen, "-gpgpu_dram_timing_opt nbk=%u: between 1 and 64 banks are supported", t->nbk);
        return NULL;
    }
    if (t->nbkgrp == 0 || t->nbk % t->nbkgrp) {
        snprintf(err, errlen, "-gpgpu_dram_timing_opt: nbk=%u is not a multiple of nbkgrp=%u", t->nbk, t->nbkgrp);
        return NULL;
    }
    uint32_t bl = cfg->dram_burst_length, ratio = cfg->dram_data_command_freq_ratio;
    if (bl == 0 || ratio == 0 || bl % ratio) {
        snprintf(err, errlen,
                 "-gpgpu_dram_burst_length %u, -dram_data_command_freq_ratio %u: the burst length must be "
                 "a nonzero multiple of the ratio (a burst takes BL / ratio command cycles)", bl, ratio);
        return NULL;
    }
    if (cfg->dram_buswidth == 0 || cfg->chips_per_channel == 0) {
        snprintf(err, errlen, "-gpgpu_dram_buswidth %u, -gpgpu_n_mem_per_ctrlr %u: must not be zero",
                 cfg->dram_buswidth, cfg->chips_per_channel);
        return NULL;
    }
    if (cfg->dram_scheduler != TM_DRAM_FIFO && cfg->dram_scheduler != TM_DRAM_FRFCFS) {
        snprintf(err, errlen, "-gpgpu_dram_scheduler %d: 0 (FIFO) or 1 (FR-FCFS)", (int)cfg->dram_scheduler);
        return NULL;
    }
    uint32_t nsr = cfg->dram_subranks ? cfg->dram_subranks : 1;
    if (cfg->chips_per_channel % nsr || nsr & (nsr - 1) || (uint64_t)t->nbk * nsr > 64) {
        snprintf(err, errlen,
                 "-simtlab_dram_subranks %u: a power of two that divides -gpgpu_n_mem_per_ctrlr %u, with at most "
                 "64 banks in all (%u per sub-rank)", nsr, cfg->chips_per_channel, t->nbk);
        return NULL;
    }
    uint64_t atom = (uint64_t)bl * cfg->dram_buswidth * (cfg->chips_per_channel / nsr);
    if (atom > UINT32_MAX) {
        snprintf(err, errlen, "DRAM burst of %" PRIu64 " bytes is too large", atom);
        return NULL;
    }
    tm_dram *d = calloc(1, sizeof *d);
    if (!d) {
        snprintf(err, errlen, "out of memory for DRAM channel %u", channel_id);
        return NULL;
    }
    d->id = channel_id;
    d->t = *t;
    d->sched = cfg->dram_scheduler;
    d->queue_cap = cfg->frfcfs_queue;
    d->atom = (uint32_t)atom;
    d->nsr = nsr;
    d->nbk = t->nbk;
    d->nbanks = nsr * t->nbk;
    d->burst = bl / ratio;
    d->bl = bl;
    d->buswidth = cfg->dram_buswidth;
    d->tRCDWR = t->tRCD > t->tWL + 1 ? t->tRCD - (t->tWL + 1) : 0;
    d->tRTW = t->tCL + d->burst + 2 > t->tWL ? t->tCL + d->burst + 2 - t->tWL : 0;
    d->tWTR = t->tWL + d->burst + t->tCDLR;
    d->tWTP = t->tWL + d->burst + t->tWR;
    d->bank = calloc(d->nbanks, sizeof *d->bank);
    d->group = calloc((size_t)t->nbkgrp * nsr, sizeof *d->group);
    d->sr = calloc(nsr, sizeof *d->sr);
    d->pool_cap = ((d->queue_cap ? d->queue_cap : 64) + t->nbk + 16) * nsr;
    d->pool = calloc(d->pool_cap, sizeof *d->pool);
    if (!d->bank || !d->group || !d->sr || !d->pool) {
        tm_dram_free(d);
        snprintf(err, errlen, "out of memory for DRAM channel %u", channel_id);
        return NULL;
    }
    d->free_head = NIL;
    pool_link_free(d, 0, d->pool_cap);
    for (uint32_t b = 0; b < d->nbanks; b++) {
        d->bank[b].cur = NIL;
        d->bank[b].waiting[0] = d->bank[b].waiting[1] = list_empty();
        d->bank[b].group = group_of(d, b);
        d->sr[b / d->nbk].banks |= 1ull << b;
    }
    for (uint32_t k = 0; k < nsr; k++)
        d->sr[k].fifo = list_empty();
    d->inflight = d->replies = list_empty();
    return d;
}

void tm_dram_free(tm_dram *d)
{
    if (!d)
        return;
    free(d->pool);
    free(d->sr);
    free(d->group);
    free(d->bank);
    free(d);
}

void tm_dram_set_options(tm_dram *d, const tm_dram_options *o)
{
    d->opt = *o;
    for (uint32_t b = 0; b < d->nbanks; b++)
        d->bank[b].group = group_of(d, b);
}

/* ---- requests in and out ---------------------------------------------- */

static void advance(tm_dram *d, uint64_t now);

/* The queue a request goes to: the write queue for writes when there is
 * one (FR-FCFS), else the only one. */
static uint32_t queue_of(const tm_dram *d, bool is_write)
{
    return d->opt.write_queue && d->sched == TM_DRAM_FRFCFS && is_write;
}

bool tm_dram_can_accept(const tm_dram *d, bool is_write)
{
    /* room for a part on every sub-rank */
    if (queue_of(d, is_write))
        return d->n_wq + d->nsr <= d->opt.wq_size;
    return d->queue_cap == 0 || d->n_waiting - d->n_wq + d->nsr <= d->queue_cap;
}

/* The column commands request r needs on each sub-rank, into bursts[nsr]:
 * each atom-sized chunk of its data is one burst, on sub-rank (chunk
 * address / atom) % nsr, so consecutive chunks alternate between
 * sub-ranks. A request addressed by a mask of several sectors (LAMAR's
 * fetches, write-backs of the dirty sectors) holds the chunks of those
 * sectors of its 128-byte line (sectors 0 and 2 with 64-byte bursts: two
 * chunks, two bursts); any other request without sub-ranks takes
 * ceil(bytes / atom) bursts (GPGPU-Sim's count), with them the chunks
 * [addr, addr + bytes) overlaps. */
static void bursts_per_subrank(const tm_dram *d, const tm_req *r, uint32_t *bursts)
{
    uint32_t bytes = r->bytes ? r->bytes : 1;
    uint32_t mask = r->sectors & 0xfu;
    memset(bursts, 0, d->nsr * sizeof *bursts);
    bool by_mask = tm_popcount8((uint8_t)mask) > 1 && bytes == TM_SECTOR_BYTES * tm_popcount8((uint8_t)mask);
    if (d->nsr == 1 && !by_mask) {
        bursts[0] = (uint32_t)(((uint64_t)bytes + d->atom - 1) / d->atom);
        return;
    }
    uint64_t last = UINT64_MAX;
    if (by_mask || (mask && bytes == TM_SECTOR_BYTES)) {
        for (uint32_t i = 0; i < 4; i++) {
            uint64_t chunk = ((r->addr & ~(uint64_t)127) + TM_SECTOR_BYTES * i) / d->atom;
            if (mask >> i & 1 && chunk != last) {
                bursts[chunk % d->nsr]++;
                last = chunk;
            }
        }
        return;
    }
    for (uint64_t chunk = r->addr / d->atom; chunk * d->atom < r->addr + bytes; chunk++)
        bursts[chunk % d->nsr]++;
}

/* Queue entry i, a request or one sub-rank's part of it. */
static void enqueue(tm_dram *d, int32_t i)
{
    dram_entry *e = &d->pool[i];
    if (d->sched == TM_DRAM_FRFCFS) {
        uint32_t q = queue_of(d, e->is_write);
        list_append(d, &d->bank[e->bank].waiting[q], i);
        d->waiting_mask[q] |= 1ull << e->bank;
        d->n_wq += q;
    } else {
        list_append(d, &d->sr[e->bank / d->nbk].fifo, i);
    }
    d->n_waiting++;
}

bool tm_dram_push(tm_dram *d, const tm_req *r, uint32_t bank, uint32_t row, uint32_t col, uint64_t now)
{
    assert(bank < d->nbk);
    if (now > d->next_cycle) /* a request arriving after skipped cycles must not be served in them */
        advance(d, now);
    bool is_write = r->kind == TM_REQ_WRITE || r->kind == TM_REQ_WRITEBACK;
    if (!tm_dram_can_accept(d, is_write))
        return false;
    uint32_t bursts[64], parts = 0;
    bursts_per_subrank(d, r, bursts);
    for (uint32_t k = 0; k < d->nsr; k++)
        parts += bursts[k] > 0;
    assert(parts > 0); /* (every request has at least one byte) */
    uint32_t free_n = 0;
    for (int32_t f = d->free_head; f != NIL && free_n < parts; f = d->pool[f].next)
        free_n++;
    while (free_n < parts) { /* grows by at least as many entries as it had */
        uint32_t had = d->pool_cap;
        if (!pool_grow(d))
            return false;
        free_n += had;
    }
    int32_t lead = NIL;
    for (uint32_t k = 0; k < d->nsr; k++) {
        if (!bursts[k])
            continue;
        int32_t i = d->free_head;
        d->free_head = d->pool[i].next;
        d->pool[i] = (dram_entry){.req = *r, .bank = k * d->nbk + bank, .row = row, .col = col,
                                  .bursts = bursts[k], .bursts_left = bursts[k], .t_push = now,
                                  .is_write = is_write, .lead = lead, .parts_left = parts};
        if (lead == NIL)
            lead = i;
        enqueue(d, i);
    }
    d->st.n_req++;
    return true;
}

bool tm_dram_pop_reply(tm_dram *d, tm_req *out)
{
    int32_t i = d->replies.head;
    if (i == NIL)
        return false;
    list_remove(d, &d->replies, i);
    *out = d->pool[i].req;
    out->is_reply = 1;
    d->pool[i].next = d->free_head;
    d->free_head = i;
    return true;
}

uint32_t tm_dram_pending(const tm_dram *d)
{
    return d->n_waiting + (uint32_t)__builtin_popcountll(d->busy_mask) + d->inflight.n + d->joining +
           d->replies.n;
}

const tm_dram_stats *tm_dram_get_stats(const tm_dram *d) { return &d->st; }

uint32_t tm_dram_burst_bytes(const tm_dram *d) { return d->atom; }

uint32_t tm_dram_subranks(const tm_dram *d) { return d->nsr; }

uint64_t tm_dram_open_cycles(const tm_dram *d)
{
    uint64_t c = d->open_cycles;
    for (uint32_t k = 0; k < d->nsr; k++)
        if (d->sr[k].open)
            c += d->next_cycle - d->sr[k].open_since;
    return c;
}

/* ---- one cycle ---------------------------------------------------------- */

/* The first set bit of mask at or after bit `from`, cyclically; mask != 0. */
static uint32_t first_from(uint64_t mask, uint32_t from)
{
    uint64_t high = from < 64 ? mask & (~0ull << from) : 0;
    return (uint32_t)__builtin_ctzll(high ? high : mask);
}

/* Whether bank b's current request needs a row command (ACT or PRE) next
 * (bank_next_cmd's first two cases): the issue passes skip the banks of
 * the other kind without working out when their command could go. */
static bool needs_row(const tm_dram *d, uint32_t b)
{
    const dram_bank *k = &d->bank[b];
    return !k->active || k->row != d->pool[k->cur].row;
}

/* The command bank b needs next for its current request, and the earliest
 * cycle every timing constraint allows it. */
static inline __attribute__((always_inline)) dram_cmd bank_next_cmd(const tm_dram *d, uint32_t b, uint64_t *at)
{
    const dram_bank *k = &d->bank[b];
    const dram_entry *e = &d->pool[k->cur];
    const dram_group *g = &d->group[k->group];
    const dram_subrank *sr = &d->sr[b / d->nbk];
    if (!k->active) {
        *at = max64(k->act_ok, sr->act_ok);
        return CMD_ACT;
    }
    if (k->row != e->row) {
        *at = max64(k->pre_ok, g->pre_ok);
        return CMD_PRE;
    }
    uint64_t col = max64(sr->col_ok, g->col_ok);
    if (e->is_write) {
        *at = max64(max64(col, k->wr_ok), max64(sr->wr_ok, sub0(sr->bus_free, d->t.tWL)));
        return CMD_WR;
    }
    *at = max64(max64(col, k->rd_ok), max64(sr->rd_ok, sub0(sr->bus_free, d->t.tCL)));
    return CMD_RD;
}

void tm_dram_set_trace(tm_dram *d, tm_dram_trace_fn fn, void *ctx)
{
    d->trace = fn;
    d->trace_ctx = ctx;
}

/* Issue ACT or PRE for bank b at cycle now. */
static void issue_row(tm_dram *d, uint32_t b, dram_cmd c, uint64_t now)
{
    dram_bank *k = &d->bank[b];
    dram_subrank *sr = &d->sr[b / d->nbk];
    if (d->trace)
        d->trace(d->trace_ctx, now, c == CMD_ACT ? 'A' : 'P', b, c == CMD_ACT ? d->pool[k->cur].row : k->row,
                 d->pool[k->cur].req.tag);
    if (c == CMD_ACT) {
        dram_entry *e = &d->pool[k->cur];
        k->active = true;
        k->row = e->row;
        e->own_act = true;
        k->rd_ok = now + d->t.tRCD;
        k->wr_ok = now + d->tRCDWR;
        k->pre_ok = max64(k->pre_ok, now + d->t.tRAS);
        k->act_ok = now + d->t.tRC;
        sr->act_ok = now + d->t.tRRD;
        if (sr->open++ == 0)
            sr->open_since = now;
        d->st.n_act++;
    } else {
        k->active = false;
        k->act_ok = max64(k->act_ok, now + d->t.tRP);
        if (--sr->open == 0)
            d->open_cycles += now - sr->open_since;
        d->st.n_pre++;
    }
    d->prio = (b + 1) % d->nbanks;
}

/* Put entry i on the bus list, which stays in t_done order (the sub-ranks'
 * buses finish out of issue order). */
static void inflight_insert(tm_dram *d, int32_t i)
{
    int32_t after = d->inflight.tail;
    while (after != NIL && d->pool[after].t_done > d->pool[i].t_done)
        after = d->pool[after].prev;
    if (after == d->inflight.tail) {
        list_append(d, &d->inflight, i);
        return;
    }
    int32_t before = after == NIL ? d->inflight.head : d->pool[after].next;
    d->pool[i].prev = after;
    d->pool[i].next = before;
    d->pool[before].prev = i;
    if (after == NIL)
        d->inflight.head = i;
    else
        d->pool[after].next = i;
    d->inflight.n++;
}

/* Issue RD or WR (one burst) for bank b at cycle now; the request leaves
 * the bank for the bus with its last burst. */
static void issue_col(tm_dram *d, uint32_t b, dram_cmd c, uint64_t now)
{
    dram_bank *k = &d->bank[b];
    dram_group *g = &d->group[k->group];
    dram_subrank *sr = &d->sr[b / d->nbk];
    int32_t i = k->cur;
    dram_entry *e = &d->pool[i];
    if (d->trace)
        d->trace(d->trace_ctx, now, c == CMD_RD ? 'R' : 'W', b, e->row, e->req.tag);
    if (e->bursts_left == e->bursts) { /* its first column command: row-buffer statistics */
        d->st.access_num++;
        d->st.hits_num += !e->own_act;
        if (e->is_write) {
            d->st.write_num++;
            d->st.hits_write_num += !e->own_act;
        } else {
            d->st.read_num++;
            d->st.hits_read_num += !e->own_act;
        }
    }
    sr->col_ok = now + d->t.tCCD;
    g->col_ok = now + d->t.tCCDL;
    uint64_t start;
    if (c == CMD_RD) {
        sr->wr_ok = max64(sr->wr_ok, now + d->tRTW);
        k->pre_ok = max64(k->pre_ok, now + d->burst);
        g->pre_ok = max64(g->pre_ok, now + d->t.tRTPL);
        start = now + d->t.tCL;
        d->st.n_rd++;
    } else {
        sr->rd_ok = max64(sr->rd_ok, now + d->tWTR);
        k->pre_ok = max64(k->pre_ok, now + d->tWTP);
        start = now + d->t.tWL;
        if (e->req.kind == TM_REQ_WRITEBACK)
            d->st.n_wr_bk++;
        else
            d->st.n_write++;
    }
    sr->bus_free = start + d->burst;
    d->st.bwutil += d->burst;
    if (--e->bursts_left == 0) {
        e->t_done = max64(e->t_done, sr->bus_free); /* (a lead may have heard from parts already) */
        k->cur = NIL;
        d->busy_mask &= ~(1ull << b);
        inflight_insert(d, i);
        if (e->req.row_hint && d->opt.row_hold) { /* Narasiman's hint: keep the row for its follow-up */
            k->hold_until = now + d->opt.row_hold;
            d->st.holds++;
        }
    }
}

/* Move requests whose data has crossed the bus by cycle now out of the
 * bus: reads to the replies, writes back to the free list. */
static void retire(tm_dram *d, uint64_t now)
{
    int32_t i;
    while ((i = d->inflight.head) != NIL && d->pool[i].t_done <= now) {
        dram_entry *e = &d->pool[i];
        list_remove(d, &d->inflight, i);
        if (e->lead != NIL) { /* a part: its lead finishes with the last one */
            int32_t l = e->lead;
            e->next = d->free_head;
            d->free_head = i;
            dram_entry *le = &d->pool[l];
            le->t_done = max64(le->t_done, e->t_done);
            if (--le->parts_left)
                continue;
            d->joining--;
            i = l;
            e = le;
        } else if (--e->parts_left) {
            d->joining++;
            continue;
        }
        uint64_t lat = e->t_done - e->t_push;
        d->st.tot_latency += lat;
        d->st.max_latency = max64(d->st.max_latency, lat);
        if (e->is_write) {
            d->st.writes_done++;
            e->next = d->free_head;
            d->free_head = i;
        } else {
            d->st.reads_done++;
            list_append(d, &d->replies, i);
        }
    }
}

/* Give bank b the waiting request i (already unlinked from queue q). */
static void assign(tm_dram *d, uint32_t b, int32_t i, uint32_t q, uint64_t now)
{
    d->bank[b].cur = i;
    d->busy_mask |= 1ull << b;
    d->n_waiting--;
    d->n_wq -= q;
    uint64_t wait = now - d->pool[i].t_push;
    d->st.tot_mrq_latency += wait;
    d->st.tot_mrq_num++;
    d->st.max_mrq_latency = max64(d->st.max_mrq_latency, wait);
}

/* FR-FCFS choice for bank b from queue q: its oldest request to the open
 * row, else its oldest request. With QoS priority (tm_dram_options) the
 * classes (row hit, prioritized) are tried in the option's order, the
 * oldest request of the first class that has one. A bank holding its row
 * for a hinted request's follow-up (hold_until > now) takes only a
 * request to that row: NIL when it has none. */
static int32_t frfcfs_pick(const tm_dram *d, uint32_t b, uint32_t q, uint64_t now)
{
    const dram_bank *k = &d->bank[b];
    if (k->hold_until > now) {
        for (int32_t i = k->waiting[q].head; i != NIL; i = d->pool[i].next)
            if (d->pool[i].row == k->row && (!d->opt.priority || d->pool[i].req.prio))
                return i;
        for (int32_t i = k->waiting[q].head; d->opt.priority && i != NIL; i = d->pool[i].next)
            if (d->pool[i].row == k->row)
                return i;
        return NIL;
    }
    if (d->opt.priority) {
        /* class = 2 bits (hit, prio): FRFP tries 11, 10, 01, 00; FP-FR tries 11, 01, 10, 00 */
        static const uint8_t order[3][4] = {{0}, {3, 2, 1, 0}, {3, 1, 2, 0}};
        int32_t best[4] = {NIL, NIL, NIL, NIL};
        for (int32_t i = k->waiting[q].head; i != NIL; i = d->pool[i].next) {
            uint32_t c = (uint32_t)(k->active && d->pool[i].row == k->row) << 1 | (d->pool[i].req.prio != 0);
            if (best[c] == NIL)
                best[c] = i;
        }
        for (int j = 0; j < 4; j++)
            if (best[order[d->opt.priority][j]] != NIL)
                return best[order[d->opt.priority][j]];
    }
    if (k->active)
        for (int32_t i = k->waiting[q].head; i != NIL; i = d->pool[i].next)
            if (d->pool[i].row == k->row)
                return i;
    return k->waiting[q].head;
}

/* Whether the next scheduling drains the write queue (GPGPU-Sim's
 * WRITE_MODE): it starts when the writes waiting reach the high watermark
 * and ends when they fall below the low one; and (simtlab's addition, so
 * that writes below the high watermark never wait forever) the writes also
 * go while no read waits. */
static bool drains_writes(const tm_dram *d)
{
    if (!d->n_wq)
        return false;
    uint32_t reads = d->n_waiting - d->n_wq;
    if (d->write_mode)
        return d->n_wq >= d->opt.wq_low || !reads;
    return d->n_wq >= d->opt.wq_high || !reads;
}

/* Send at most one waiting request of the sub-rank with these banks to
 * its (free) bank. */
static void schedule_subrank(tm_dram *d, dram_subrank *sr, uint32_t q, uint64_t now)
{
    if (d->sched == TM_DRAM_FIFO) {
        int32_t i = sr->fifo.head;
        if (i != NIL && d->bank[d->pool[i].bank].cur == NIL) {
            list_remove(d, &sr->fifo, i);
            assign(d, d->pool[i].bank, i, 0, now);
        }
        return;
    }
    for (uint64_t ready = d->waiting_mask[q] & ~d->busy_mask & sr->banks; ready;) {
        uint32_t b = first_from(ready, d->prio);
        int32_t i = frfcfs_pick(d, b, q, now);
        if (i == NIL) { /* holding its row, and nothing for that row yet */
            ready &= ~(1ull << b);
            continue;
        }
        list_remove(d, &d->bank[b].waiting[q], i);
        if (d->bank[b].waiting[q].n == 0)
            d->waiting_mask[q] &= ~(1ull << b);
        if (d->bank[b].hold_until) { /* the follow-up came, or the hold ran out */
            if (d->bank[b].hold_until > now) {
                d->st.hold_hits++;
                d->st.hold_hit_wait += now + d->opt.row_hold - d->bank[b].hold_until;
            }
            d->st.hold_timeouts += d->bank[b].hold_until <= now;
            d->bank[b].hold_until = 0;
        }
        assign(d, b, i, q, now);
        d->prio = (d->prio + 1) % d->nbanks;
        return;
    }
}

/* Each sub-rank (each has its own scheduler) sends at most one waiting
 * request to its free bank. */
static void schedule(tm_dram *d, uint64_t now)
{
    if (d->sched == TM_DRAM_FRFCFS)
        d->write_mode = drains_writes(d);
    for (uint32_t k = 0; k < d->nsr; k++)
        schedule_subrank(d, &d->sr[k], d->write_mode, now);
}

/* Issue what the command bus(es) of the sub-rank with these banks allow
 * at cycle now: a column command first, then a row command if the bus is
 * still free (single bus) or on the row bus (dual). Banks are tried round
 * robin from prio. Returns whether anything issued. */
static bool issue_subrank(tm_dram *d, uint64_t banks, uint64_t now)
{
    bool col = false, row = false;
    uint64_t unvisited = d->busy_mask & banks;
    while (unvisited && !col) {
        uint32_t b = first_from(unvisited, d->prio);
        unvisited &= ~(1ull << b);
        if (needs_row(d, b))
            continue;
        uint64_t at;
        dram_cmd c = bank_next_cmd(d, b, &at);
        if (at <= now) {
            issue_col(d, b, c, now);
            col = true;
        }
    }
    if (col && !d->opt.dual_bus_interface)
        return true;
    unvisited = d->busy_mask & banks;
    while (unvisited && !row) {
        uint32_t b = first_from(unvisited, d->prio);
        unvisited &= ~(1ull << b);
        if (!needs_row(d, b))
            continue;
        uint64_t at;
        dram_cmd c = bank_next_cmd(d, b, &at);
        if (at <= now) {
            issue_row(d, b, c, now);
            row = true;
        }
    }
    return col || row;
}

/* Issue commands on every sub-rank (each has its own command bus: a
 * sub-ranked channel has the command bandwidth of nsr channels). */
static bool issue(tm_dram *d, uint64_t now)
{
    bool any = false;
    for (uint32_t k = 0; k < d->nsr; k++)
        any |= issue_subrank(d, d->sr[k].banks, now);
    return any;
}

/* Are requests not yet finished: waiting, at banks, or with data on the bus? */
static bool unfinished(const tm_dram *d) { return d->n_waiting || d->busy_mask || d->inflight.n || d->joining; }

/* Count the cycles from next_cycle up to (not including) upto as idle:
 * nothing could happen in them (no event), so nothing changed. */
static void account_idle(tm_dram *d, uint64_t upto)
{
    if (upto <= d->next_cycle)
        return;
    uint64_t gap = upto - d->next_cycle;
    d->st.n_cmd += gap;
    d->st.n_nop += gap;
    if (unfinished(d))
        d->st.n_activity += gap;
    d->st.ave_mrqs += (uint64_t)d->n_waiting * gap;
    d->next_cycle = upto;
}

/* Run cycle now (>= next_cycle); the cycles before it since the last one
 * run were idle. */
static void run_cycle(tm_dram *d, uint64_t now)
{
    account_idle(d, now);
    d->st.n_cmd++;
    retire(d, now);
    if (unfinished(d))
        d->st.n_activity++;
    schedule(d, now);
    d->st.max_mrqs = max64(d->st.max_mrqs, d->n_waiting);
    d->st.ave_mrqs += d->n_waiting;
    if (!issue(d, now))
        d->st.n_nop++;
    d->next_cycle = now + 1;
}

/* The first cycle from next_cycle on at which schedule() could give a
 * bank a request: next_cycle when it could now, the end of a row hold
 * when only held banks wait, UINT64_MAX when none can. */
static uint64_t assign_event(const tm_dram *d)
{
    if (d->sched == TM_DRAM_FIFO) {
        for (uint32_t k = 0; k < d->nsr; k++) {
            int32_t i = d->sr[k].fifo.head;
            if (i != NIL && d->bank[d->pool[i].bank].cur == NIL)
                return d->next_cycle;
        }
        return UINT64_MAX;
    }
    uint32_t q = drains_writes(d);
    if (q != d->write_mode)
        return d->next_cycle; /* the write mode flips: schedule() records it (drains_writes depends on it) */
    uint64_t ready = d->waiting_mask[q] & ~d->busy_mask, at = UINT64_MAX;
    if (!d->opt.row_hold)
        return ready ? d->next_cycle : UINT64_MAX;
    for (; ready; ready &= ready - 1) {
        uint32_t b = (uint32_t)__builtin_ctzll(ready);
        if (frfcfs_pick(d, b, q, d->next_cycle) != NIL)
            return d->next_cycle;
        at = d->bank[b].hold_until < at ? d->bank[b].hold_until : at;
    }
    return at;
}

uint64_t tm_dram_next_event(const tm_dram *d)
{
    uint64_t best = UINT64_MAX;
    if (d->inflight.head != NIL)
        best = max64(d->pool[d->inflight.head].t_done, d->next_cycle);
    uint64_t assign_at = assign_event(d);
    if (assign_at == d->next_cycle)
        return d->next_cycle;
    best = assign_at < best ? assign_at : best;
    for (uint64_t m = d->busy_mask; m; m &= m - 1) {
        uint64_t at;
        bank_next_cmd(d, (uint32_t)__builtin_ctzll(m), &at);
        at = max64(at, d->next_cycle);
        if (at < best)
            best = at;
    }
    return best;
}

/* Run every cycle before now at which something could happen, then count
 * the rest up to now as idle: the channel stands at the start of now. */
static void advance(tm_dram *d, uint64_t now)
{
    for (uint64_t t; (t = tm_dram_next_event(d)) < now;)
        run_cycle(d, t);
    account_idle(d, now);
}

void tm_dram_cycle(tm_dram *d, uint64_t now)
{
    if (now < d->next_cycle)
        return; /* already run */
    advance(d, now);
    run_cycle(d, now);
}

/* ---- report ------------------------------------------------------------- */

/* a / b, or 0 when b is 0 (GPGPU-Sim prints NaN there). */
static double ratio(uint64_t a, uint64_t b) { return b ? (double)a / (double)b : 0.0; }

void tm_dram_print_stats(const tm_dram *d, FILE *f)
{
    const tm_dram_stats *s = &d->st;
    const tm_dram_timing *t = &d->t;
    fprintf(f, "DRAM[%u]: %u bks, busW=%u BL=%u CL=%u, tRRD=%u tCCD=%u, tRCD=%u tRAS=%u tRP=%u tRC=%u\n",
            d->id, t->nbk, d->buswidth, d->bl, t->tCL, t->tRRD, t->tCCD, t->tRCD, t->tRAS, t->tRP, t->tRC);
    fprintf(f, "n_cmd = %" PRIu64 "\n", s->n_cmd);
    fprintf(f, "n_nop = %" PRIu64 "\n", s->n_nop);
    fprintf(f, "n_act = %" PRIu64 "\n", s->n_act);
    fprintf(f, "n_pre = %" PRIu64 "\n", s->n_pre);
    fprintf(f, "n_req = %" PRIu64 "\n", s->n_req);
    fprintf(f, "n_rd = %" PRIu64 "\n", s->n_rd);
    fprintf(f, "n_write = %" PRIu64 "\n", s->n_write);
    fprintf(f, "n_wr_bk = %" PRIu64 "\n", s->n_wr_bk);
    fprintf(f, "bw_util = %.6f\n", ratio(s->bwutil, s->n_cmd * d->nsr));
    fprintf(f, "n_activity = %" PRIu64 "\n", s->n_activity);
    fprintf(f, "dram_eff = %.6f\n", ratio(s->bwutil, s->n_activity * d->nsr));
    fprintf(f, "row_buffer_hits = %" PRIu64 "\n", s->hits_num);
    fprintf(f, "row_buffer_misses = %" PRIu64 "\n", s->access_num - s->hits_num);
    fprintf(f, "Row_Buffer_Locality = %.6f\n", ratio(s->hits_num, s->access_num));
    fprintf(f, "Row_Buffer_Locality_read = %.6f\n", ratio(s->hits_read_num, s->read_num));
    fprintf(f, "Row_Buffer_Locality_write = %.6f\n", ratio(s->hits_write_num, s->write_num));
    fprintf(f, "avg_mrq_latency = %.6f\n", ratio(s->tot_mrq_latency, s->tot_mrq_num));
    fprintf(f, "maxmrqlatency = %" PRIu64 "\n", s->max_mrq_latency);
    fprintf(f, "avg_dram_latency = %.6f\n", ratio(s->tot_latency, s->reads_done + s->writes_done));
    fprintf(f, "max_dram_latency = %" PRIu64 "\n", s->max_latency);
    fprintf(f, "mrqq_max = %" PRIu64 "\n", s->max_mrqs);
    fprintf(f, "mrqq_avg = %.6f\n", ratio(s->ave_mrqs, s->n_cmd));
    if (d->opt.row_hold) {
        fprintf(f, "row_holds = %" PRIu64 "\n", s->holds);
        fprintf(f, "row_hold_hits = %" PRIu64 "\n", s->hold_hits);
        fprintf(f, "row_hold_timeouts = %" PRIu64 "\n", s->hold_timeouts);
        fprintf(f, "row_hold_hit_wait = %.6f\n", ratio(s->hold_hit_wait, s->hold_hits));
    }
}
