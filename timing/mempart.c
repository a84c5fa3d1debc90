/* mempart.c — a memory partition: L2 slices and a DRAM channel (mempart.h). */
#include "timing/mempart.h"

#include "timing/bits.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* GPGPU-Sim's ROP and L2-to-interconnect queue sizes: the ROP and DRAM
 * latency queues hold at least this many, and at least their latency in
 * L2 cycles (queue_cap), so that a stream of one request a cycle never
 * waits for room in a queue whose entries only wait out a latency. */
#define TM_ROP_QUEUE 64u
#define TM_L2_REPLY_QUEUE 64u
/* Requests split into sectors that one slice tracks at once. */
#define TM_SPLITS 64u
/* The most accesses one request becomes at a slice (the L1 line sizes
 * are checked against it in tm_mempart_init). */
#define TM_SPLIT_PIECES 32u
/* A sector request's tag: the split entry it belongs to. */
#define TM_SPLIT_TAG (1u << 30)

/* The L2 set index of an address: its bits within the partition. */
/* Entries of a queue each of whose entries waits `latency` L2 cycles. */
static uint32_t queue_cap(uint32_t latency) { return latency > TM_ROP_QUEUE ? latency : TM_ROP_QUEUE; }

static uint64_t partition_index(void *ctx, uint64_t addr) { return tm_addrdec_partition_addr(ctx, addr); }

bool tm_mempart_init(tm_mempart *mp, const tm_config *cfg, const tm_addrdec *dec, uint32_t channel, char *err,
                     size_t errlen)
{
    memset(mp, 0, sizeof *mp);
    mp->channel = channel;
    mp->cfg = cfg;
    mp->dec = dec;
    mp->nslices = cfg->n_sub_partition_per_mchannel ? cfg->n_sub_partition_per_mchannel : 1;
    mp->slices = calloc(mp->nslices, sizeof *mp->slices);
    mp->delay_cap = queue_cap(cfg->dram_latency);
    mp->delay = calloc(mp->delay_cap, sizeof *mp->delay);
    if (!mp->slices || !mp->delay) {
        snprintf(err, errlen, "out of memory for memory partition %u", channel);
        return false;
    }
    /* the widest request (an L1 line) must fit the split table and the ROP queue */
    const tm_cache_config *l1[3] = {&cfg->l1i, &cfg->l1d, &cfg->l1c};
    uint32_t piece = cfg->l2.sectored ? TM_SECTOR_BYTES : cfg->l2.line_bytes;
    for (int k = 0; cfg->l2.present && k < 3; k++)
        if (l1[k]->present && l1[k]->line_bytes / piece > TM_SPLIT_PIECES) {
            snprintf(err, errlen, "%u-byte L1 lines are more than %u accesses of the L2 (%u bytes each)",
                     l1[k]->line_bytes, TM_SPLIT_PIECES, piece);
            return false;
        }
    if (!(mp->dram = tm_dram_new(cfg, channel, err, errlen)))
        return false;
    tm_dram_set_options(mp->dram, &(tm_dram_options){.dual_bus_interface = cfg->dram_dual_bus,
                                                      .bankgrp_low_bits = cfg->dram_bankgroup_low_bits,
                                                      .write_queue = cfg->dram_write_queue,
                                                      .wq_size = cfg->dram_wq[0],
                                                      .wq_high = cfg->dram_wq[1],
                                                      .wq_low = cfg->dram_wq[2],
                                                      .priority = (uint8_t)cfg->dram_priority,
                                                      .row_hold = cfg->dram_row_hold});
    for (uint32_t k = 0; k < mp->nslices; k++) {
        tm_l2slice *s = &mp->slices[k];
        s->id = channel * mp->nslices + k;
        char name[32];
        snprintf(name, sizeof name, "L2_bank_%03u", s->id);
        s->rop_cap = queue_cap(cfg->l2_rop_latency);
        s->rop = calloc(s->rop_cap, sizeof *s->rop);
        s->splits = calloc(TM_SPLITS, sizeof *s->splits);
        if (!s->rop || !s->splits || !tm_queue_init(&s->replies, TM_L2_REPLY_QUEUE)) {
            snprintf(err, errlen, "out of memory for L2 slice %u", s->id);
            return false;
        }
        if (cfg->l2.present) {
            if (!(s->l2 = tm_cache_new(&cfg->l2, name, err, errlen)))
                return false;
            tm_cache_set_last_level(s->l2);
            if (cfg->lamar && !tm_cache_set_gdu(s->l2, (tm_gdu_kind)(cfg->lamar - 1), err, errlen))
                return false;
            tm_cache_set_index_address(s->l2, partition_index, (void *)dec);
            if (cfg->snooze != TM_SNOOZE_NONE &&
                !tm_cache_set_snooze(s->l2, cfg->snooze == TM_SNOOZE_BANK ? 0 : cfg->snooze_block, cfg->snooze_wake,
                                     err, errlen))
                return false;
            if (cfg->miss_classes && !tm_cache_set_miss_classes(s->l2)) {
                snprintf(err, errlen, "out of memory for %s's miss classification", name);
                return false;
            }
        }
    }
    return true;
}

void tm_mempart_free(tm_mempart *mp)
{
    for (uint32_t k = 0; mp->slices && k < mp->nslices; k++) {
        if (mp->slices[k].l2)
            tm_cache_free(mp->slices[k].l2);
        free(mp->slices[k].rop);
        free(mp->slices[k].splits);
        tm_queue_free(&mp->slices[k].replies);
    }
    free(mp->slices);
    free(mp->delay);
    if (mp->dram)
        tm_dram_free(mp->dram);
    memset(mp, 0, sizeof *mp);
}

/* The accesses request r makes at an L2 slice when it needs more than
 * one (0 otherwise), into out (at most TM_SPLIT_PIECES): a sectored L2
 * takes one 32-byte sector per access, other L2s one line, so a request
 * for several sectors (an instruction fetch, a constant-cache line) or
 * wider than an L2 line (a 256-byte instruction line over 64-byte L2
 * lines) becomes one access per sector or line it covers. */
static uint32_t split_pieces(const tm_mempart *mp, const tm_req *r, tm_req *out)
{
    const tm_cache_config *l2 = &mp->cfg->l2;
    if (!l2->present)
        return 0;
    uint64_t piece = l2->sectored ? TM_SECTOR_BYTES : l2->line_bytes, first = r->addr & ~(piece - 1);
    uint32_t n = 0;
    bool mask_sized = r->sectors && r->bytes == TM_SECTOR_BYTES * tm_popcount8(r->sectors);
    if (l2->sectored && (r->addr % 128 + r->bytes <= 128 || mask_sized)) { /* within a line: its sector mask
                                                                              (LAMAR's fetches of several
                                                                              sectors are addressed by one) */
        if (tm_popcount8(r->sectors) <= 1)
            return 0;
        for (uint32_t i = 0; i < 4; i++)
            if (r->sectors >> i & 1) {
                out[n] = *r;
                out[n].addr = (r->addr & ~(uint64_t)127) + TM_SECTOR_BYTES * i;
                out[n].sectors = (uint8_t)(1u << i);
                out[n++].bytes = TM_SECTOR_BYTES;
            }
        return n;
    }
    if (r->addr + r->bytes <= first + piece)
        return 0; /* one line of an L2 that is not sectored */
    for (uint64_t a = first; a < r->addr + r->bytes && n < TM_SPLIT_PIECES; a += piece, n++) {
        out[n] = *r;
        out[n].addr = a;
        out[n].bytes = (uint32_t)piece;
        out[n].sectors = l2->sectored ? (uint8_t)(1u << (a / TM_SECTOR_BYTES % 4)) : 0xf;
    }
    return n;
}

/* A free split entry of slice s, or -1. */
static int free_split(const tm_l2slice *s)
{
    for (uint32_t i = 0; i < TM_SPLITS; i++)
        if (!s->splits[i].remaining)
            return (int)i;
    return -1;
}

/* Does request r get an answer (a read or an atomic; writes and
 * write-backs answer nothing, so their pieces need no split entry)? */
static bool answered(const tm_req *r) { return r->kind == TM_REQ_READ || r->kind == TM_REQ_ATOMIC; }

bool tm_mempart_can_accept(const tm_mempart *mp, uint32_t k, const tm_req *r)
{
    const tm_l2slice *s = &mp->slices[k];
    tm_req pieces[TM_SPLIT_PIECES];
    uint32_t n = split_pieces(mp, r, pieces);
    if (!n)
        return s->rop_n < s->rop_cap;
    return s->rop_n + n <= s->rop_cap && (!answered(r) || free_split(s) >= 0);
}

void tm_mempart_push(tm_mempart *mp, uint32_t k, const tm_req *r, uint64_t now)
{
    tm_l2slice *s = &mp->slices[k];
    uint64_t due = now + mp->cfg->l2_rop_latency;
    tm_req pieces[TM_SPLIT_PIECES];
    uint32_t n = split_pieces(mp, r, pieces);
    if (!n) {
        s->rop[(s->rop_head + s->rop_n++) % s->rop_cap] = (tm_rop_entry){*r, due};
        return;
    }
    int e = answered(r) ? free_split(s) : -1;
    if (e >= 0)
        s->splits[e] = (tm_split){*r, n};
    for (uint32_t i = 0; i < n; i++) {
        if (e >= 0) /* (the pieces of a write stay untagged: nothing answers them) */
            pieces[i].tag = TM_SPLIT_TAG | (uint32_t)e;
        s->rop[(s->rop_head + s->rop_n++) % s->rop_cap] = (tm_rop_entry){pieces[i], due};
    }
}

/* Queue the answer to request r (a sector of a split request counts
 * towards its original, answered with the last one). */
static void reply(tm_l2slice *s, const tm_req *r)
{
    if (r->tag & TM_SPLIT_TAG) {
        tm_split *sp = &s->splits[r->tag & ~TM_SPLIT_TAG];
        if (--sp->remaining)
            return;
        tm_req a = sp->orig;
        a.is_reply = 1;
        tm_queue_push(&s->replies, &a);
        return;
    }
    tm_req a = *r;
    a.is_reply = 1;
    tm_queue_push(&s->replies, &a);
}

/* Send request r (a miss, a write, a write-back) to the DRAM channel. */
static bool to_dram(tm_mempart *mp, const tm_req *r)
{
    if (!tm_dram_can_accept(mp->dram, r->kind == TM_REQ_WRITE || r->kind == TM_REQ_WRITEBACK))
        return false;
    tm_dram_addr a;
    tm_addrdec_decode(mp->dec, r->addr, &a);
    return tm_dram_push(mp->dram, r, a.bank, a.row, a.col, mp->dram_now);
}

void tm_mempart_l2_cycle(tm_mempart *mp, uint64_t now)
{
    /* misses whose -dram_latency has passed go to the DRAM scheduler */
    while (mp->delay_n && mp->delay[mp->delay_head].due <= now && to_dram(mp, &mp->delay[mp->delay_head].r)) {
        mp->delay_head = (mp->delay_head + 1) % mp->delay_cap;
        mp->delay_n--;
    }
    for (uint32_t k = 0; k < mp->nslices; k++) {
        tm_l2slice *s = &mp->slices[k];
        tm_req r;
        /* answers that became ready (fills of earlier misses) */
        while (s->l2 && !tm_queue_full(&s->replies) && tm_cache_next_ready(s->l2, now, &r))
            reply(s, &r);
        /* the L2's misses and write-backs start towards DRAM */
        const tm_req *q;
        while (s->l2 && (q = tm_cache_miss_front(s->l2)) && mp->delay_n < mp->delay_cap) {
            mp->delay[(mp->delay_head + mp->delay_n++) % mp->delay_cap] =
                (tm_rop_entry){*q, now + mp->cfg->dram_latency};
            tm_cache_miss_pop(s->l2);
        }
        /* Snooze: accesses due within the wake-up time wake their units */
        for (uint32_t a = 0; s->l2 && mp->cfg->snooze && a < s->rop_n; a++) {
            const tm_rop_entry *e = &s->rop[(s->rop_head + a) % s->rop_cap];
            if (e->due > now + mp->cfg->snooze_wake)
                break;
            tm_cache_snooze_hint(s->l2, e->r.addr, now);
        }
        /* the ROP queue's head, once due, accesses the slice */
        if (!s->rop_n || s->rop[s->rop_head].due > now || tm_queue_full(&s->replies))
            continue;
        tm_req *head = &s->rop[s->rop_head].r;
        bool answers = answered(head);
        if (!s->l2) { /* no L2: straight to DRAM */
            if (!to_dram(mp, head))
                continue;
        } else {
            tm_cache_fail why;
            tm_cache_status st = tm_cache_access(s->l2, head, now, &why);
            if (st == TM_CACHE_BAD_REQUEST && !mp->error[0]) /* a model error: the GPU stops */
                snprintf(mp->error, sizeof mp->error, "%s", tm_cache_error(s->l2));
            if (st == TM_CACHE_RESERVATION_FAIL || st == TM_CACHE_BAD_REQUEST)
                continue; /* tried again next cycle */
            if (st == TM_CACHE_HIT && answers)
                reply(s, head);
        }
        s->rop_head = (s->rop_head + 1) % s->rop_cap;
        s->rop_n--;
    }
}

void tm_mempart_dram_cycle(tm_mempart *mp, uint64_t l2_now, uint64_t now)
{
    mp->dram_now = now + 1; /* pushes from now on land in the next DRAM cycle */
    tm_dram_cycle(mp->dram, now);
    tm_req r;
    while (tm_dram_pop_reply(mp->dram, &r)) {
        tm_dram_addr a;
        tm_addrdec_decode(mp->dec, r.addr, &a);
        tm_l2slice *s = &mp->slices[a.sub_partition % mp->nslices];
        if (s->l2) {
            tm_cache_fill(s->l2, &r, l2_now);
        } else if (answered(&r)) {
            reply(s, &r);
        }
    }
}

bool tm_mempart_idle(const tm_mempart *mp)
{
    if (tm_dram_pending(mp->dram) || mp->delay_n)
        return false;
    for (uint32_t k = 0; k < mp->nslices; k++) {
        const tm_l2slice *s = &mp->slices[k];
        if (s->rop_n || !tm_queue_empty(&s->replies) || (s->l2 && tm_cache_has_pending(s->l2)))
            return false;
    }
    return true;
}
