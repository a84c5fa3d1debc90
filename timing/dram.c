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

#include <assert.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#define NIL (-1)

typedef struct dram_entry {
    tm_req req;
    uint32_t bank, row, col;
    uint32_t bursts_left;    /* column commands still to issue */
    uint32_t bursts;         /* column commands in all */
    uint64_t t_push, t_done; /* arrival; end of the last data burst */
    bool is_write, own_act;  /* own_act: an ACT was issued for it (a row-buffer miss) */
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
    dram_list waiting[2];    /* FR-FCFS: this bank's waiting requests, oldest first: [0] reads (all
                                requests without a separate write queue), [1] writes */
} dram_bank;

typedef struct dram_group {
    uint64_t col_ok, pre_ok; /* tCCDL after a column command; tRTPL after a RD */
} dram_group;

struct tm_dram {
    uint32_t id;
    tm_dram_timing t;
    tm_dram_sched sched;
    tm_dram_options opt;
    uint32_t queue_cap;      /* 0: unlimited */
    uint32_t atom;           /* bytes per column command */
    uint32_t burst;          /* command cycles a burst holds the data bus */
    uint32_t bl, buswidth;   /* for the report */
    uint32_t tRCDWR, tRTW, tWTR, tWTP; /* derived as GPGPU-Sim does */

    dram_bank *bank;
    dram_group *group;
    uint64_t busy_mask;      /* banks serving a request */
    uint64_t waiting_mask[2]; /* FR-FCFS: banks with waiting requests, per queue */
    uint32_t prio;           /* round-robin start among banks */

    uint64_t act_ok, col_ok, rd_ok, wr_ok; /* channel-wide: tRRD, tCCD, tWTR, tRTW */
    uint64_t bus_free;       /* first cycle the data bus is free */

    dram_entry *pool;
    uint32_t pool_cap;
    int32_t free_head;
    dram_list fifo;          /* FIFO: all waiting requests, oldest first */
    dram_list inflight;      /* last burst issued, data not yet across; t_done ascending */
    dram_list replies;       /* finished reads not yet taken */
    uint32_t n_waiting;      /* waiting requests, both queues */
    uint32_t n_wq;           /* of those, in the write queue */
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

/* The bank group of bank b under the current indexing option. */
static uint32_t group_of(const tm_dram *d, uint32_t b)
{
    return d->opt.bankgrp_low_bits ? b % d->t.nbkgrp : b / (d->t.nbk / d->t.nbkgrp);
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
    uint64_t atom = (uint64_t)bl * cfg->dram_buswidth * cfg->chips_per_channel;
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
    d->burst = bl / ratio;
    d->bl = bl;
    d->buswidth = cfg->dram_buswidth;
    d->tRCDWR = t->tRCD > t->tWL + 1 ? t->tRCD - (t->tWL + 1) : 0;
    d->tRTW = t->tCL + d->burst + 2 > t->tWL ? t->tCL + d->burst + 2 - t->tWL : 0;
    d->tWTR = t->tWL + d->burst + t->tCDLR;
    d->tWTP = t->tWL + d->burst + t->tWR;
    d->bank = calloc(t->nbk, sizeof *d->bank);
    d->group = calloc(t->nbkgrp, sizeof *d->group);
    d->pool_cap = (d->queue_cap ? d->queue_cap : 64) + t->nbk + 16;
    d->pool = calloc(d->pool_cap, sizeof *d->pool);
    if (!d->bank || !d->group || !d->pool) {
        tm_dram_free(d);
        snprintf(err, errlen, "out of memory for DRAM channel %u", channel_id);
        return NULL;
    }
    d->free_head = NIL;
    pool_link_free(d, 0, d->pool_cap);
    for (uint32_t b = 0; b < t->nbk; b++) {
        d->bank[b].cur = NIL;
        d->bank[b].waiting[0] = d->bank[b].waiting[1] = list_empty();
        d->bank[b].group = group_of(d, b);
    }
    d->fifo = d->inflight = d->replies = list_empty();
    return d;
}

void tm_dram_free(tm_dram *d)
{
    if (!d)
        return;
    free(d->pool);
    free(d->group);
    free(d->bank);
    free(d);
}

void tm_dram_set_options(tm_dram *d, const tm_dram_options *o)
{
    d->opt = *o;
    for (uint32_t b = 0; b < d->t.nbk; b++)
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
    if (queue_of(d, is_write))
        return d->n_wq < d->opt.wq_size;
    return d->queue_cap == 0 || d->n_waiting - d->n_wq < d->queue_cap;
}

bool tm_dram_push(tm_dram *d, const tm_req *r, uint32_t bank, uint32_t row, uint32_t col, uint64_t now)
{
    assert(bank < d->t.nbk);
    if (now > d->next_cycle) /* a request arriving after skipped cycles must not be served in them */
        advance(d, now);
    bool is_write = r->kind == TM_REQ_WRITE || r->kind == TM_REQ_WRITEBACK;
    if (!tm_dram_can_accept(d, is_write) || (d->free_head == NIL && !pool_grow(d)))
        return false;
    int32_t i = d->free_head;
    d->free_head = d->pool[i].next;
    dram_entry *e = &d->pool[i];
    uint32_t bytes = r->bytes ? r->bytes : 1;
    *e = (dram_entry){.req = *r, .bank = bank, .row = row, .col = col,
                      .bursts = (uint32_t)(((uint64_t)bytes + d->atom - 1) / d->atom), .t_push = now,
                      .is_write = is_write};
    e->bursts_left = e->bursts;
    if (d->sched == TM_DRAM_FRFCFS) {
        uint32_t q = queue_of(d, is_write);
        list_append(d, &d->bank[bank].waiting[q], i);
        d->waiting_mask[q] |= 1ull << bank;
        d->n_wq += q;
    } else {
        list_append(d, &d->fifo, i);
    }
    d->n_waiting++;
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
    return d->n_waiting + (uint32_t)__builtin_popcountll(d->busy_mask) + d->inflight.n + d->replies.n;
}

const tm_dram_stats *tm_dram_get_stats(const tm_dram *d) { return &d->st; }

/* ---- one cycle ---------------------------------------------------------- */

/* The first set bit of mask at or after bit `from`, cyclically; mask != 0. */
static uint32_t first_from(uint64_t mask, uint32_t from)
{
    uint64_t high = from < 64 ? mask & (~0ull << from) : 0;
    return (uint32_t)__builtin_ctzll(high ? high : mask);
}

/* The command bank b needs next for its current request, and the earliest
 * cycle every timing constraint allows it. */
static dram_cmd bank_next_cmd(const tm_dram *d, uint32_t b, uint64_t *at)
{
    const dram_bank *k = &d->bank[b];
    const dram_entry *e = &d->pool[k->cur];
    const dram_group *g = &d->group[k->group];
    if (!k->active) {
        *at = max64(k->act_ok, d->act_ok);
        return CMD_ACT;
    }
    if (k->row != e->row) {
        *at = max64(k->pre_ok, g->pre_ok);
        return CMD_PRE;
    }
    uint64_t col = max64(d->col_ok, g->col_ok);
    if (e->is_write) {
        *at = max64(max64(col, k->wr_ok), max64(d->wr_ok, sub0(d->bus_free, d->t.tWL)));
        return CMD_WR;
    }
    *at = max64(max64(col, k->rd_ok), max64(d->rd_ok, sub0(d->bus_free, d->t.tCL)));
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
        d->act_ok = now + d->t.tRRD;
        d->st.n_act++;
    } else {
        k->active = false;
        k->act_ok = max64(k->act_ok, now + d->t.tRP);
        d->st.n_pre++;
    }
    d->prio = (b + 1) % d->t.nbk;
}

/* Issue RD or WR (one burst) for bank b at cycle now; the request leaves
 * the bank for the bus with its last burst. */
static void issue_col(tm_dram *d, uint32_t b, dram_cmd c, uint64_t now)
{
    dram_bank *k = &d->bank[b];
    dram_group *g = &d->group[k->group];
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
    d->col_ok = now + d->t.tCCD;
    g->col_ok = now + d->t.tCCDL;
    uint64_t start;
    if (c == CMD_RD) {
        d->wr_ok = max64(d->wr_ok, now + d->tRTW);
        k->pre_ok = max64(k->pre_ok, now + d->burst);
        g->pre_ok = max64(g->pre_ok, now + d->t.tRTPL);
        start = now + d->t.tCL;
        d->st.n_rd++;
    } else {
        d->rd_ok = max64(d->rd_ok, now + d->tWTR);
        k->pre_ok = max64(k->pre_ok, now + d->tWTP);
        start = now + d->t.tWL;
        if (e->req.kind == TM_REQ_WRITEBACK)
            d->st.n_wr_bk++;
        else
            d->st.n_write++;
    }
    d->bus_free = start + d->burst;
    d->st.bwutil += d->burst;
    if (--e->bursts_left == 0) {
        e->t_done = d->bus_free;
        k->cur = NIL;
        d->busy_mask &= ~(1ull << b);
        list_append(d, &d->inflight, i);
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
 * oldest request of the first class that has one. */
static int32_t frfcfs_pick(const tm_dram *d, uint32_t b, uint32_t q)
{
    const dram_bank *k = &d->bank[b];
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

/* Send at most one waiting request to its (free) bank. */
static void schedule(tm_dram *d, uint64_t now)
{
    if (d->sched == TM_DRAM_FIFO) {
        int32_t i = d->fifo.head;
        if (i != NIL && d->bank[d->pool[i].bank].cur == NIL) {
            list_remove(d, &d->fifo, i);
            assign(d, d->pool[i].bank, i, 0, now);
        }
        return;
    }
    d->write_mode = drains_writes(d);
    uint32_t q = d->write_mode;
    uint64_t ready = d->waiting_mask[q] & ~d->busy_mask;
    if (!ready)
        return;
    uint32_t b = first_from(ready, d->prio);
    int32_t i = frfcfs_pick(d, b, q);
    list_remove(d, &d->bank[b].waiting[q], i);
    if (d->bank[b].waiting[q].n == 0)
        d->waiting_mask[q] &= ~(1ull << b);
    assign(d, b, i, q, now);
    d->prio = (d->prio + 1) % d->t.nbk;
}

/* Issue what the command bus(es) allow at cycle now: a column command
 * first, then a row command if the bus is still free (single bus) or on
 * the row bus (dual). Banks are tried round robin from prio. Returns
 * whether anything issued. */
static bool issue(tm_dram *d, uint64_t now)
{
    bool col = false, row = false;
    uint64_t unvisited = d->busy_mask;
    while (unvisited && !col) {
        uint32_t b = first_from(unvisited, d->prio);
        unvisited &= ~(1ull << b);
        uint64_t at;
        dram_cmd c = bank_next_cmd(d, b, &at);
        if ((c == CMD_RD || c == CMD_WR) && at <= now) {
            issue_col(d, b, c, now);
            col = true;
        }
    }
    if (col && !d->opt.dual_bus_interface)
        return true;
    unvisited = d->busy_mask;
    while (unvisited && !row) {
        uint32_t b = first_from(unvisited, d->prio);
        unvisited &= ~(1ull << b);
        uint64_t at;
        dram_cmd c = bank_next_cmd(d, b, &at);
        if ((c == CMD_ACT || c == CMD_PRE) && at <= now) {
            issue_row(d, b, c, now);
            row = true;
        }
    }
    return col || row;
}

/* Requests not yet finished: waiting, at banks, or with data on the bus. */
static uint32_t unfinished(const tm_dram *d)
{
    return d->n_waiting + (uint32_t)__builtin_popcountll(d->busy_mask) + d->inflight.n;
}

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

uint64_t tm_dram_next_event(const tm_dram *d)
{
    uint64_t best = UINT64_MAX;
    if (d->inflight.head != NIL)
        best = max64(d->pool[d->inflight.head].t_done, d->next_cycle);
    bool assignable = d->sched == TM_DRAM_FIFO
                          ? d->fifo.head != NIL && d->bank[d->pool[d->fifo.head].bank].cur == NIL
                          : (d->waiting_mask[drains_writes(d)] & ~d->busy_mask) != 0;
    if (assignable)
        return d->next_cycle;
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
    fprintf(f, "bw_util = %.6f\n", ratio(s->bwutil, s->n_cmd));
    fprintf(f, "n_activity = %" PRIu64 "\n", s->n_activity);
    fprintf(f, "dram_eff = %.6f\n", ratio(s->bwutil, s->n_activity));
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
}
