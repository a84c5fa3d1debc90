/* test_cache.c — the cache unit (timing/cache.h). Every expected outcome
 * is worked out by hand from the configuration the test sets (the
 * derivation is in the comment beside it) and from GPGPU-Sim's rules as
 * gpu-cache.cc states them: LRU evicts the way with the oldest last
 * access, FIFO the oldest allocation; an MSHR entry merges up to
 * mshr_max_merge requests to its sector (sectored) or line; a data-cache
 * read miss needs two free miss-queue slots, a read-only one one; the
 * set-index functions are GPGPU-Sim's cache_config::hash_function and
 * hashing.cc's ipoly_hash_function, evaluated by hand on chosen bits. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "timing/cache.h"

/* A 2-set, 2-way cache of 128-byte whole lines, LRU, linear index,
 * read-only, allocate on miss; 4 MSHRs merging 4; a miss queue of 8. */
static tm_cache_config tiny(void)
{
    return (tm_cache_config){.present = true, .nsets = 2, .line_bytes = 128, .assoc = 2,
                             .repl = TM_REPL_LRU, .write = TM_WRITE_READ_ONLY, .alloc = TM_ALLOC_ON_MISS,
                             .write_alloc = TM_WA_NONE, .set_index = TM_INDEX_LINEAR,
                             .mshr_kind = TM_MSHR_ASSOC, .mshr_entries = 4, .mshr_max_merge = 4,
                             .miss_queue = 8};
}

static tm_cache *make(const tm_cache_config *cfg)
{
    char err[256] = "";
    tm_cache *c = tm_cache_new(cfg, "test", err, sizeof err);
    if (!c)
        fail_msg("tm_cache_new: %s", err);
    return c;
}

static tm_req req(tm_req_kind kind, uint64_t addr, uint32_t bytes, uint32_t tag)
{
    return (tm_req){.addr = addr, .bytes = bytes, .kind = (uint8_t)kind, .space = TM_SPACE_GLOBAL, .tag = tag};
}

static tm_cache_status rd(tm_cache *c, uint64_t addr, uint64_t now)
{
    tm_req r = req(TM_REQ_READ, addr, 4, (uint32_t)addr);
    return tm_cache_access(c, &r, now, NULL);
}

static tm_cache_status wr(tm_cache *c, uint64_t addr, uint32_t bytes, tm_req_space space, uint64_t now)
{
    tm_req r = req(TM_REQ_WRITE, addr, bytes, 1000 + (uint32_t)addr);
    r.space = (uint8_t)space;
    return tm_cache_access(c, &r, now, NULL);
}

/* The next level answers the oldest miss-queue request (a read) now. */
static void answer_front(tm_cache *c, uint64_t now)
{
    const tm_req *m = tm_cache_miss_front(c);
    assert_non_null(m);
    assert_int_equal(m->kind, TM_REQ_READ);
    tm_req reply = *m;
    reply.is_reply = 1;
    tm_cache_miss_pop(c);
    assert_true(tm_cache_fill(c, &reply, now));
}

/* Drain every ready request, checking their tags in order. */
static void expect_ready(tm_cache *c, uint64_t now, const uint32_t *tags, int n)
{
    tm_req out;
    for (int i = 0; i < n; i++) {
        assert_true(tm_cache_next_ready(c, now, &out));
        assert_int_equal(out.tag, tags[i]);
    }
    assert_false(tm_cache_next_ready(c, now, &out));
}

/* Hits and misses on 2 sets x 2 ways: line = addr / 128, set = line & 1.
 * Lines A=0, B=2, C=4 share set 0, D=1 is set 1. Each miss is filled
 * before the next access; accesses at cycles 1..9.
 *   LRU : A miss, B miss, A hit (A now newer than B), C miss (evicts B,
 *         last used at 2), A hit, B miss (evicts C, last used 4 < A's 5),
 *         C miss (evicts A, 5 < B's 6), D miss (set 1), B hit.
 *   FIFO: A miss, B miss, A hit, C miss (evicts A, allocated at 1),
 *         A miss (evicts B, allocated at 2), B miss (evicts C, 4),
 *         C miss (evicts A, 5), D miss, B hit.
 * The two differ at cycle 5: LRU kept A because it was used at 3. */
static void run_sequence(tm_repl repl, const tm_cache_status *expect)
{
    tm_cache_config cfg = tiny();
    cfg.repl = repl;
    tm_cache *c = make(&cfg);
    const uint64_t A = 0, B = 2 * 128, C = 4 * 128, D = 1 * 128;
    const uint64_t seq[9] = {A, B, A, C, A, B, C, D, B};
    for (int i = 0; i < 9; i++) {
        uint64_t now = (uint64_t)i + 1;
        tm_cache_status st = rd(c, seq[i] + 8, now);
        assert_int_equal(st, expect[i]);
        if (st == TM_CACHE_MISS) {
            answer_front(c, now);
            tm_req out;
            assert_true(tm_cache_next_ready(c, now, &out));
            assert_int_equal(out.tag, (uint32_t)(seq[i] + 8));
        }
    }
    tm_cache_free(c);
}

static void test_lru_sequence(void **state)
{
    (void)state;
    const tm_cache_status H = TM_CACHE_HIT, M = TM_CACHE_MISS;
    const tm_cache_status expect[9] = {M, M, H, M, H, M, M, M, H};
    run_sequence(TM_REPL_LRU, expect);
}

static void test_fifo_sequence(void **state)
{
    (void)state;
    const tm_cache_status H = TM_CACHE_HIT, M = TM_CACHE_MISS;
    const tm_cache_status expect[9] = {M, M, H, M, M, M, M, M, H};
    run_sequence(TM_REPL_FIFO, expect);
}

/* The statistics of the LRU sequence: 3 hits, 6 misses, all GLOBAL_ACC_R. */
static void test_sequence_counts(void **state)
{
    (void)state;
    tm_cache_config cfg = tiny();
    tm_cache *c = make(&cfg);
    const uint64_t seq[9] = {0, 256, 0, 512, 0, 256, 512, 128, 256};
    for (int i = 0; i < 9; i++)
        if (rd(c, seq[i], (uint64_t)i + 1) == TM_CACHE_MISS) {
            answer_front(c, (uint64_t)i + 1);
            tm_req out;
            assert_true(tm_cache_next_ready(c, (uint64_t)i + 1, &out));
        }
    const tm_cache_stats *s = tm_cache_get_stats(c);
    assert_int_equal(s->count[TM_ACC_GLOBAL_R][TM_CACHE_HIT], 3);
    assert_int_equal(s->count[TM_ACC_GLOBAL_R][TM_CACHE_MISS], 6);
    tm_cache_totals t = tm_cache_stats_totals(s);
    assert_int_equal(t.accesses, 9);
    assert_int_equal(t.misses, 6);
    assert_int_equal(t.pending_hits, 0);
    tm_cache_free(c);
}

/* LRU ties (two lines allocated in the same cycle): GPGPU-Sim's probe
 * takes the last invalid way for a miss (A, then B, go to ways 1 and 0
 * of set 0) and, among equally old lines, the first way: C evicts B
 * (way 0), so A still hits and B misses. */
static void test_lru_tie(void **state)
{
    (void)state;
    tm_cache_config cfg = tiny();
    tm_cache *c = make(&cfg);
    assert_int_equal(rd(c, 0x000, 1), TM_CACHE_MISS); /* A: line 0, set 0 */
    assert_int_equal(rd(c, 0x100, 1), TM_CACHE_MISS); /* B: line 2, set 0 */
    answer_front(c, 2);
    answer_front(c, 2);
    tm_req out;
    assert_true(tm_cache_next_ready(c, 2, &out));
    assert_true(tm_cache_next_ready(c, 2, &out));
    assert_int_equal(rd(c, 0x200, 3), TM_CACHE_MISS); /* C: line 4, set 0 */
    answer_front(c, 4);
    assert_true(tm_cache_next_ready(c, 4, &out));
    assert_int_equal(rd(c, 0x000, 5), TM_CACHE_HIT);
    assert_int_equal(rd(c, 0x100, 6), TM_CACHE_MISS);
    tm_cache_free(c);
}

static uint32_t index_of(tm_set_index fn, uint32_t nsets, uint64_t addr)
{
    tm_cache_config cfg = tiny();
    cfg.set_index = fn;
    cfg.nsets = nsets;
    tm_cache *c = make(&cfg);
    uint32_t s = tm_cache_set_index(c, addr);
    tm_cache_free(c);
    return s;
}

/* Set indices worked by hand (128-byte lines, so the line offset is 7 bits). */
static void test_set_index_functions(void **state)
{
    (void)state;
    /* linear, 4 sets: 0x1380 >> 7 = 39, 39 & 3 = 3 */
    assert_int_equal(index_of(TM_INDEX_LINEAR, 4, 0x1380), 3);
    /* XOR, 4 sets: linear 3; higher bits 0x1380 >> 9 = 9, 9 & 3 = 1; 3 ^ 1 = 2 */
    assert_int_equal(index_of(TM_INDEX_XOR, 4, 0x1380), 2);
    /* Fermi hash, 32 sets, 0x2A080 (bits 19..0: bit 17, 15, 13, 7):
     * lower = bits 11..7 = 1; upper = bits 15,14,13 -> 0b101 = 5, bit 17 -> 8,
     * bit 19 -> 0: 13; 1 ^ 13 = 12 (64 sets: bit 12 is 0, still 12) */
    assert_int_equal(index_of(TM_INDEX_FERMI_HASH, 32, 0x2A080), 12);
    assert_int_equal(index_of(TM_INDEX_FERMI_HASH, 64, 0x2A080), 12);
    /* Fermi hash, 0x81080 (bits 19, 12, 7): lower 1, upper: bit 19 -> 16;
     * 1 ^ 16 = 17; 64 sets add bit 12 as bit 5: 17 | 32 = 49 */
    assert_int_equal(index_of(TM_INDEX_FERMI_HASH, 32, 0x81080), 17);
    assert_int_equal(index_of(TM_INDEX_FERMI_HASH, 64, 0x81080), 49);
    /* IPOLY, 16 sets: a = addr >> 11. a = bit 0 (0x800), b = 0: a[0] is in
     * the equations of index bits 0 and 1 -> 0b0011 = 3 */
    assert_int_equal(index_of(TM_INDEX_IPOLY, 16, 0x800), 3);
    /* a = bit 3 (0x4000): a[3] appears in bits 0, 1 and 3 -> 0b1011 = 11 */
    assert_int_equal(index_of(TM_INDEX_IPOLY, 16, 0x4000), 11);
    /* IPOLY, 32 sets: a = addr >> 12. a = bit 0 (0x1000), b = 0: a[0] in
     * bits 0 and 2 -> 5; with b = 3 (0x1180): bit 0 = 1^1 = 0, bit 1 = 0^1 = 1,
     * bit 2 = 1 -> 6 */
    assert_int_equal(index_of(TM_INDEX_IPOLY, 32, 0x1000), 5);
    assert_int_equal(index_of(TM_INDEX_IPOLY, 32, 0x1180), 6);
    /* IPOLY, 64 sets: a = addr >> 13. a = bit 5 (0x40000): a[5] in bits 0,
     * 1 and 5 -> 0b100011 = 35 */
    assert_int_equal(index_of(TM_INDEX_IPOLY, 64, 0x40000), 35);
}

/* Each function is defined bit by bit: every index bit is the XOR of
 * chosen address bits (IPOLY's equations, the Fermi hash's folded bits,
 * XOR's two fields), so the index of a ^ b is the XOR of their indices.
 * Checked over many addresses with many bits set, for every function and
 * set count the creation accepts; with the single-bit values worked by
 * hand above this fixes every index. */
static void test_set_index_is_bitwise_xor(void **state)
{
    (void)state;
    const struct { tm_set_index fn; uint32_t nsets; } fns[] = {
        {TM_INDEX_LINEAR, 4}, {TM_INDEX_XOR, 64}, {TM_INDEX_FERMI_HASH, 32}, {TM_INDEX_FERMI_HASH, 64},
        {TM_INDEX_IPOLY, 16}, {TM_INDEX_IPOLY, 32}, {TM_INDEX_IPOLY, 64}};
    for (size_t f = 0; f < sizeof fns / sizeof *fns; f++) {
        tm_cache_config cfg = tiny();
        cfg.set_index = fns[f].fn;
        cfg.nsets = fns[f].nsets;
        tm_cache *c = make(&cfg);
        uint64_t x = 0x9E3779B97F4A7C15ull + f;
        for (int k = 0; k < 2000; k++) {
            x ^= x << 13, x ^= x >> 7, x ^= x << 17;
            uint64_t a = x, b = x * 0xD6E8FEB86659FD93ull;
            uint32_t ia = tm_cache_set_index(c, a), ib = tm_cache_set_index(c, b);
            assert_true(ia < fns[f].nsets);
            assert_int_equal(tm_cache_set_index(c, a ^ b), ia ^ ib);
        }
        tm_cache_free(c);
    }
    /* one address with many bits, IPOLY 16 sets (a = addr >> 11, b = bits
     * 10..7): 0x5A80 has a = 0b1011 (bits 0, 1, 3), b = 0b0101. Bit 0:
     * a0 ^ a3 ^ b0 = 1 ^ 1 ^ 1 = 1; bit 1: a0 ^ a1 ^ a3 ^ b1 = 1 ^ 1 ^ 1 ^ 0 = 1;
     * bit 2: a1 ^ b2 = 1 ^ 1 = 0; bit 3: a3 = 1 (its other terms are 0) -> 0b1011 */
    assert_int_equal(index_of(TM_INDEX_IPOLY, 16, 0x5A80), 11);
}

/* The hash decides which accesses conflict: with Fermi's hash and 32 sets
 * of 1 way, 0x0 and 0x1000 (linear index 0 and 0 of the next 4 KiB)
 * differ only in bit 12, which the 32-set hash ignores: the second evicts
 * the first. 0x0 and 0x2000 differ in bit 13, which the hash folds into
 * index bit 0 (upper = 1): different sets, both stay. */
static void test_hash_conflicts(void **state)
{
    (void)state;
    tm_cache_config cfg = tiny();
    cfg.nsets = 32;
    cfg.assoc = 1;
    cfg.set_index = TM_INDEX_FERMI_HASH;
    tm_cache *c = make(&cfg);
    assert_int_equal(tm_cache_set_index(c, 0x2000), 1);
    uint64_t now = 1;
    const uint64_t addrs[3] = {0x0, 0x2000, 0x1000};
    for (int i = 0; i < 3; i++, now++) {
        assert_int_equal(rd(c, addrs[i], now), TM_CACHE_MISS);
        answer_front(c, now);
        tm_req out;
        assert_true(tm_cache_next_ready(c, now, &out));
    }
    assert_int_equal(rd(c, 0x2000, now++), TM_CACHE_HIT);  /* its own set */
    assert_int_equal(rd(c, 0x0, now++), TM_CACHE_MISS);    /* 0x1000 took set 0 */
    tm_cache_free(c);
}

/* A sectored cache (1 set, 2 ways, 4 sectors of 32 bytes): the first read
 * of a line is a MISS for its sector, a read of another sector of the
 * present line a SECTOR_MISS asking for that sector only, a read of the
 * same pending sector a pending hit that sends nothing. */
static void test_sector_and_line_misses(void **state)
{
    (void)state;
    tm_cache_config cfg = tiny();
    cfg.sectored = true;
    cfg.nsets = 1;
    tm_cache *c = make(&cfg);
    assert_int_equal(rd(c, 0x104, 1), TM_CACHE_MISS);
    const tm_req *m = tm_cache_miss_front(c);
    assert_int_equal(m->addr, 0x100); /* sector 0 of line 0x100 */
    assert_int_equal(m->bytes, 32);
    assert_int_equal(m->sectors, 0x1);
    answer_front(c, 2);
    tm_req out;
    assert_true(tm_cache_next_ready(c, 2, &out));
    assert_int_equal(rd(c, 0x148, 3), TM_CACHE_SECTOR_MISS); /* 0x148: sector 2 */
    m = tm_cache_miss_front(c);
    assert_int_equal(m->addr, 0x140);
    assert_int_equal(m->bytes, 32);
    assert_int_equal(m->sectors, 0x4);
    assert_int_equal(rd(c, 0x11C, 4), TM_CACHE_HIT);          /* sector 0 is here */
    assert_int_equal(rd(c, 0x150, 5), TM_CACHE_HIT_RESERVED); /* sector 2 is on its way */
    tm_cache_miss_pop(c);
    assert_null(tm_cache_miss_front(c)); /* the pending hit sent nothing */
    tm_req reply = req(TM_REQ_READ, 0x140, 32, 0);
    reply.sectors = 0x4;
    assert_true(tm_cache_fill(c, &reply, 6));
    const uint32_t tags[2] = {0x148, 0x150};
    expect_ready(c, 6, tags, 2);
    assert_int_equal(rd(c, 0x15C, 7), TM_CACHE_HIT);
    /* counted as GPGPU-Sim does: the pending hit also as an MSHR_HIT */
    const tm_cache_stats *s = tm_cache_get_stats(c);
    assert_int_equal(s->count[TM_ACC_GLOBAL_R][TM_CACHE_MISS], 1);
    assert_int_equal(s->count[TM_ACC_GLOBAL_R][TM_CACHE_SECTOR_MISS], 1);
    assert_int_equal(s->count[TM_ACC_GLOBAL_R][TM_CACHE_HIT], 2);
    assert_int_equal(s->count[TM_ACC_GLOBAL_R][TM_CACHE_HIT_RESERVED], 1);
    assert_int_equal(s->count[TM_ACC_GLOBAL_R][TM_CACHE_MSHR_HIT], 1);
    tm_cache_totals t = tm_cache_stats_totals(s);
    assert_int_equal(t.accesses, 5); /* HIT 2 + HIT_RESERVED 1 + MISS 1 + SECTOR_MISS 1 */
    assert_int_equal(t.misses, 2);   /* MISS + SECTOR_MISS */
    assert_int_equal(t.pending_hits, 1);
    tm_cache_free(c);
}

/* A whole-line cache asks the next level for the whole line. */
static void test_line_request(void **state)
{
    (void)state;
    tm_cache_config cfg = tiny();
    tm_cache *c = make(&cfg);
    assert_int_equal(rd(c, 0x1E4, 1), TM_CACHE_MISS);
    const tm_req *m = tm_cache_miss_front(c);
    assert_int_equal(m->addr, 0x180);
    assert_int_equal(m->bytes, 128);
    assert_int_equal(m->sectors, 0xF);
    assert_int_equal(m->kind, TM_REQ_READ);
    tm_cache_free(c);
}

/* Two loads to a missing line: one request to the next level; after one
 * fill both come out, in the order they arrived, tags intact. */
static void test_mshr_merge(void **state)
{
    (void)state;
    tm_cache_config cfg = tiny();
    tm_cache *c = make(&cfg);
    tm_req a = req(TM_REQ_READ, 0x200, 4, 71), b = req(TM_REQ_READ, 0x240, 4, 72);
    a.warp = 3;
    b.warp = 5;
    assert_int_equal(tm_cache_access(c, &a, 1, NULL), TM_CACHE_MISS);
    assert_int_equal(tm_cache_access(c, &b, 2, NULL), TM_CACHE_HIT_RESERVED);
    assert_non_null(tm_cache_miss_front(c));
    tm_req sent = *tm_cache_miss_front(c);
    tm_cache_miss_pop(c);
    assert_null(tm_cache_miss_front(c)); /* one request only */
    assert_true(tm_cache_has_pending(c));
    tm_req out;
    assert_false(tm_cache_next_ready(c, 3, &out)); /* nothing before the fill */
    assert_int_equal(tm_cache_next_event(c, 3), UINT64_MAX);
    sent.is_reply = 1;
    assert_true(tm_cache_fill(c, &sent, 10));
    assert_int_equal(tm_cache_next_event(c, 10), 10);
    assert_true(tm_cache_next_ready(c, 10, &out));
    assert_int_equal(out.tag, 71);
    assert_int_equal(out.warp, 3);
    assert_int_equal(out.addr, 0x200);
    assert_true(tm_cache_next_ready(c, 10, &out));
    assert_int_equal(out.tag, 72);
    assert_int_equal(out.warp, 5);
    assert_false(tm_cache_next_ready(c, 10, &out));
    assert_false(tm_cache_has_pending(c));
    tm_cache_free(c);
}

/* data_port_width 32: a 32-byte request takes the port for a cycle, so
 * two merged 32-byte loads leave at cycles 10 and 11; a 64-byte one
 * after them holds the port for cycles 12 and 13. */
static void test_data_port_width(void **state)
{
    (void)state;
    tm_cache_config cfg = tiny();
    cfg.data_port_width = 32;
    tm_cache *c = make(&cfg);
    tm_req r[3] = {req(TM_REQ_READ, 0x0, 32, 1), req(TM_REQ_READ, 0x20, 32, 2), req(TM_REQ_READ, 0x40, 64, 3)};
    tm_req r4 = req(TM_REQ_READ, 0x0, 4, 4);
    assert_int_equal(tm_cache_access(c, &r[0], 1, NULL), TM_CACHE_MISS);
    assert_int_equal(tm_cache_access(c, &r[1], 1, NULL), TM_CACHE_HIT_RESERVED);
    assert_int_equal(tm_cache_access(c, &r[2], 1, NULL), TM_CACHE_HIT_RESERVED);
    assert_int_equal(tm_cache_access(c, &r4, 1, NULL), TM_CACHE_HIT_RESERVED);
    answer_front(c, 10);
    tm_req out;
    assert_true(tm_cache_next_ready(c, 10, &out));
    assert_int_equal(out.tag, 1);
    assert_false(tm_cache_next_ready(c, 10, &out));
    assert_int_equal(tm_cache_next_event(c, 10), 11);
    assert_true(tm_cache_next_ready(c, 11, &out));
    assert_int_equal(out.tag, 2);
    assert_true(tm_cache_next_ready(c, 12, &out));
    assert_int_equal(out.tag, 3);
    assert_false(tm_cache_next_ready(c, 13, &out)); /* 64 bytes: cycles 12 and 13 */
    assert_int_equal(tm_cache_next_event(c, 13), 14);
    assert_true(tm_cache_next_ready(c, 14, &out));
    assert_int_equal(out.tag, 4);
    tm_cache_free(c);
}

/* One MSHR entry: a miss to a second line fails (MSHR_ENRTY_FAIL) and
 * changes nothing — no request queued, no way reserved — so the same
 * access succeeds once the first miss is done. */
static void test_mshr_full(void **state)
{
    (void)state;
    tm_cache_config cfg = tiny();
    cfg.mshr_entries = 1;
    tm_cache *c = make(&cfg);
    tm_cache_fail why = TM_CACHE_FAIL_REASONS;
    assert_int_equal(rd(c, 0x000, 1), TM_CACHE_MISS);
    tm_req b = req(TM_REQ_READ, 0x100, 4, 9); /* line 2: set 0 as well */
    assert_int_equal(tm_cache_access(c, &b, 2, &why), TM_CACHE_RESERVATION_FAIL);
    assert_int_equal(why, TM_CACHE_FAIL_MSHR_ENTRY);
    tm_cache_miss_pop(c);
    assert_null(tm_cache_miss_front(c)); /* the failed access queued nothing */
    tm_req reply = req(TM_REQ_READ, 0x000, 128, 0);
    assert_true(tm_cache_fill(c, &reply, 5));
    tm_req out;
    assert_true(tm_cache_next_ready(c, 5, &out));
    /* set 0 has 2 ways: had the failed access reserved one, line 0 and
     * line 2 would still both fit; check line 0 is still a hit and the
     * retried access misses and is sent */
    assert_int_equal(rd(c, 0x000, 6), TM_CACHE_HIT);
    assert_int_equal(tm_cache_access(c, &b, 7, &why), TM_CACHE_MISS);
    assert_int_equal(tm_cache_miss_front(c)->addr, 0x100);
    const tm_cache_stats *s = tm_cache_get_stats(c);
    assert_int_equal(s->count[TM_ACC_GLOBAL_R][TM_CACHE_RESERVATION_FAIL], 1);
    assert_int_equal(s->fail[TM_ACC_GLOBAL_R][TM_CACHE_FAIL_MSHR_ENTRY], 1);
    /* had the failed access reserved a way for line 2, the retry would
     * have found it reserved and counted a pending hit */
    assert_int_equal(s->count[TM_ACC_GLOBAL_R][TM_CACHE_HIT_RESERVED], 0);
    assert_int_equal(s->count[TM_ACC_GLOBAL_R][TM_CACHE_MISS], 2);
    tm_cache_free(c);
}

/* mshr_max_merge 2: the first miss and one merge fill the entry; a third
 * request to the line fails with MSHR_MERGE_ENRTY_FAIL, each time it is
 * asked while nothing changes (every refusal counted), and hits once the
 * fill has come. */
static void test_mshr_merge_limit(void **state)
{
    (void)state;
    tm_cache_config cfg = tiny();
    cfg.mshr_max_merge = 2;
    tm_cache *c = make(&cfg);
    tm_cache_fail why;
    assert_int_equal(rd(c, 0x80, 1), TM_CACHE_MISS);
    assert_int_equal(rd(c, 0x84, 2), TM_CACHE_HIT_RESERVED);
    tm_req third = req(TM_REQ_READ, 0x88, 4, 3);
    for (uint64_t t = 3; t < 6; t++) {
        why = TM_CACHE_FAIL_REASONS;
        assert_int_equal(tm_cache_access(c, &third, t, &why), TM_CACHE_RESERVATION_FAIL);
        assert_int_equal(why, TM_CACHE_FAIL_MSHR_MERGE);
    }
    const tm_cache_stats *s = tm_cache_get_stats(c);
    assert_int_equal(s->count[TM_ACC_GLOBAL_R][TM_CACHE_RESERVATION_FAIL], 3);
    assert_int_equal(s->fail[TM_ACC_GLOBAL_R][TM_CACHE_FAIL_MSHR_MERGE], 3);
    answer_front(c, 6);
    const uint32_t tags[2] = {0x80, 0x84}; /* the failed one is not among them */
    expect_ready(c, 6, tags, 2);
    assert_int_equal(tm_cache_access(c, &third, 7, &why), TM_CACHE_HIT);
    tm_cache_free(c);
}

/* tm_cache_refuses_again and tm_cache_count_refusals: with the miss
 * queue full (2 of 2, write-through data cache: a miss needs 2 slots),
 * a miss is refused for MISS_QUEUE; the same request is refused again
 * (another address, size or kind is not), until the queue moves. Counting
 * 4 refusals gives the counters 5 real retries of a twin cache give. */
static void test_refused_again(void **state)
{
    (void)state;
    tm_cache_config cfg = tiny();
    cfg.miss_queue = 2;
    cfg.write = TM_WRITE_THROUGH;
    tm_cache *c = make(&cfg), *twin = make(&cfg);
    tm_req r = req(TM_REQ_READ, 0x100, 4, 0), other = req(TM_REQ_READ, 0x180, 4, 0),
           wider = req(TM_REQ_READ, 0x100, 8, 0), write = req(TM_REQ_WRITE, 0x100, 4, 0);
    tm_cache_fail why;
    assert_false(tm_cache_refuses_again(c, &r)); /* nothing refused yet */
    for (tm_cache *x = c; x; x = x == c ? twin : NULL) {
        assert_int_equal(rd(x, 0x000, 1), TM_CACHE_MISS);
        assert_int_equal(tm_cache_access(x, &r, 2, &why), TM_CACHE_RESERVATION_FAIL);
    }
    assert_true(tm_cache_refuses_again(c, &r));
    assert_false(tm_cache_refuses_again(c, &other));
    assert_false(tm_cache_refuses_again(c, &wider));
    assert_false(tm_cache_refuses_again(c, &write));
    tm_cache_count_refusals(c, 4);
    for (uint64_t t = 3; t < 7; t++)
        assert_int_equal(tm_cache_access(twin, &r, t, &why), TM_CACHE_RESERVATION_FAIL);
    const tm_cache_stats *s = tm_cache_get_stats(c), *ts = tm_cache_get_stats(twin);
    assert_int_equal(s->count[TM_ACC_GLOBAL_R][TM_CACHE_RESERVATION_FAIL], 5);
    assert_int_equal(s->fail[TM_ACC_GLOBAL_R][TM_CACHE_FAIL_MISS_QUEUE], 5);
    assert_memory_equal(s, ts, sizeof *s);
    tm_cache_miss_pop(c); /* the next level takes the first miss: the cache changed */
    assert_false(tm_cache_refuses_again(c, &r));
    assert_int_equal(tm_cache_access(c, &r, 7, &why), TM_CACHE_MISS);
    tm_cache_free(c);
    tm_cache_free(twin);
}

/* tm_cache_mru_read_hit against the whole access: two caches (sectored
 * and not) see the same 4,000 pseudo-random one-byte reads over 6 lines,
 * three in four on the line of the one before, misses answered two
 * cycles later; one tries the MRU hit first and makes
 * the access only when it says no, the other always makes the access.
 * The statuses of what each access path saw, and every counter, agree;
 * the MRU hit takes most of the hits, and none of the misses. */
static void test_mru_read_hit(void **state)
{
    (void)state;
    for (int sectored = 0; sectored < 2; sectored++) {
        tm_cache_config cfg = tiny();
        cfg.sectored = sectored;
        tm_cache *fast = make(&cfg), *full = make(&cfg);
        uint64_t seed = 7, line = 0;
        uint32_t taken = 0, hits = 0;
        for (uint64_t now = 1; now <= 4000; now++) {
            seed = seed * 6364136223846793005ull + 1442695040888963407ull;
            if ((seed >> 60) < 4) /* a quarter of the reads go to another line, as fetches do */
                line = (seed >> 40) % 6;
            uint64_t addr = line * 128 + (seed >> 33) % 128;
            tm_req r = {.addr = addr, .bytes = 1, .kind = TM_REQ_READ, .space = TM_SPACE_INST, .tag = (uint32_t)now};
            tm_cache_status want = tm_cache_access(full, &r, now, NULL), got = TM_CACHE_HIT;
            if (tm_cache_mru_read_hit(fast, addr, TM_ACC_INST_R, now))
                taken++;
            else
                got = tm_cache_access(fast, &r, now, NULL);
            if (want == TM_CACHE_HIT)
                hits++;
            assert_int_equal(got, want);
            for (tm_cache *c = fast; c; c = c == fast ? full : NULL) { /* misses answered, ready ones taken */
                const tm_req *m = tm_cache_miss_front(c);
                if (m && m->t_made + 2 <= now) {
                    tm_req reply = *m;
                    reply.is_reply = 1;
                    tm_cache_miss_pop(c);
                    assert_true(tm_cache_fill(c, &reply, now));
                }
                tm_req out;
                while (tm_cache_next_ready(c, now, &out))
                    ;
            }
        }
        assert_memory_equal(tm_cache_get_stats(fast), tm_cache_get_stats(full), sizeof(tm_cache_stats));
        assert_true(taken > hits / 2);
        assert_true(taken <= hits);
        tm_cache_free(fast);
        tm_cache_free(full);
    }
}

/* Miss-queue room: a read-only cache needs one free slot per miss, a
 * data cache two (the read and a possible write-back: rd_miss_base's
 * miss_queue_full(1)). With a queue of 2: read-only takes two misses and
 * fails the third; a write-through data cache takes one and fails the
 * second (1 queued + 1 >= 2). */
static void test_miss_queue_full(void **state)
{
    (void)state;
    tm_cache_config cfg = tiny();
    cfg.miss_queue = 2;
    tm_cache_fail why;
    tm_cache *ro = make(&cfg);
    assert_int_equal(rd(ro, 0x000, 1), TM_CACHE_MISS);
    assert_int_equal(rd(ro, 0x080, 1), TM_CACHE_MISS);
    tm_req r = req(TM_REQ_READ, 0x100, 4, 0);
    assert_int_equal(tm_cache_access(ro, &r, 1, &why), TM_CACHE_RESERVATION_FAIL);
    assert_int_equal(why, TM_CACHE_FAIL_MISS_QUEUE);
    tm_cache_free(ro);

    cfg.write = TM_WRITE_THROUGH;
    tm_cache *dc = make(&cfg);
    assert_int_equal(rd(dc, 0x000, 1), TM_CACHE_MISS);
    assert_int_equal(tm_cache_access(dc, &r, 1, &why), TM_CACHE_RESERVATION_FAIL);
    assert_int_equal(why, TM_CACHE_FAIL_MISS_QUEUE);
    tm_cache_miss_pop(dc); /* the next level takes the first: room again */
    assert_int_equal(tm_cache_access(dc, &r, 2, &why), TM_CACHE_MISS);
    assert_int_equal(tm_cache_get_stats(dc)->fail[TM_ACC_GLOBAL_R][TM_CACHE_FAIL_MISS_QUEUE], 1);
    tm_cache_free(dc);
}

/* 1 set x 1 way. Allocating on miss, the pending miss reserves the only
 * way: a miss to another line fails (LINE_ALLOC_FAIL). Allocating on fill
 * or streaming, nothing is reserved: the second miss is sent, and lines
 * arrive in the tag array when filled (the later fill evicts the earlier). */
static void test_allocation_policies(void **state)
{
    (void)state;
    tm_cache_config cfg = tiny();
    cfg.nsets = 1;
    cfg.assoc = 1;
    cfg.write = TM_WRITE_THROUGH;
    tm_cache_fail why;
    tm_cache *on_miss = make(&cfg);
    assert_int_equal(rd(on_miss, 0x000, 1), TM_CACHE_MISS);
    tm_req b = req(TM_REQ_READ, 0x080, 4, 2);
    assert_int_equal(tm_cache_access(on_miss, &b, 2, &why), TM_CACHE_RESERVATION_FAIL);
    assert_int_equal(why, TM_CACHE_FAIL_LINE_ALLOC);
    tm_cache_free(on_miss);

    for (int k = 0; k < 2; k++) {
        cfg.alloc = k ? TM_ALLOC_STREAMING : TM_ALLOC_ON_FILL;
        tm_cache *c = make(&cfg);
        assert_int_equal(rd(c, 0x000, 1), TM_CACHE_MISS);
        assert_int_equal(tm_cache_access(c, &b, 2, &why), TM_CACHE_MISS);
        /* a second read of line 0 before its fill merges (returned as a
         * pending hit) but counts as a MISS plus an MSHR_HIT: with nothing
         * reserved the probe says MISS, as in GPGPU-Sim */
        assert_int_equal(rd(c, 0x010, 3), TM_CACHE_HIT_RESERVED);
        const tm_cache_stats *s = tm_cache_get_stats(c);
        assert_int_equal(s->count[TM_ACC_GLOBAL_R][TM_CACHE_MISS], 3);
        assert_int_equal(s->count[TM_ACC_GLOBAL_R][TM_CACHE_MSHR_HIT], 1);
        assert_int_equal(s->count[TM_ACC_GLOBAL_R][TM_CACHE_HIT_RESERVED], 0);
        answer_front(c, 10); /* line 0 arrives: allocated now */
        tm_req out;
        assert_true(tm_cache_next_ready(c, 10, &out));
        assert_true(tm_cache_next_ready(c, 10, &out));
        assert_int_equal(rd(c, 0x000, 11), TM_CACHE_HIT);
        answer_front(c, 12); /* line 1 arrives and takes the only way */
        assert_true(tm_cache_next_ready(c, 12, &out));
        assert_int_equal(rd(c, 0x080, 13), TM_CACHE_HIT);
        assert_int_equal(rd(c, 0x000, 14), TM_CACHE_MISS);
        tm_cache_free(c);
    }
}

/* Write-back, allocate on miss, lazy fetch on read, sectored, 1 set x 1
 * way (QV100's L2 policies "L:B:m:L"): whole-sector writes allocate
 * MODIFIED sectors without fetching; a partial write leaves its sector
 * unreadable, so reading it fetches it (SECTOR_MISS) and it stays dirty;
 * the eviction sends one write-back carrying the dirty sectors. */
static void test_write_back_lazy(void **state)
{
    (void)state;
    tm_cache_config cfg = tiny();
    cfg.sectored = true;
    cfg.nsets = 1;
    cfg.assoc = 1;
    cfg.write = TM_WRITE_BACK;
    cfg.write_alloc = TM_WA_LAZY_FETCH_ON_READ;
    tm_cache *c = make(&cfg);
    assert_int_equal(wr(c, 0x200, 32, TM_SPACE_GLOBAL, 1), TM_CACHE_MISS);        /* sector 0, whole */
    assert_int_equal(wr(c, 0x260, 32, TM_SPACE_GLOBAL, 2), TM_CACHE_SECTOR_MISS); /* sector 3, whole */
    assert_null(tm_cache_miss_front(c)); /* write-back: nothing goes on */
    assert_int_equal(rd(c, 0x210, 3), TM_CACHE_HIT);
    assert_int_equal(wr(c, 0x224, 4, TM_SPACE_GLOBAL, 4), TM_CACHE_SECTOR_MISS);  /* sector 1, partial */
    assert_int_equal(rd(c, 0x220, 5), TM_CACHE_SECTOR_MISS); /* unreadable: fetch it */
    const tm_req *m = tm_cache_miss_front(c);
    assert_int_equal(m->addr, 0x220);
    assert_int_equal(m->sectors, 0x2);
    answer_front(c, 6);
    tm_req out;
    assert_true(tm_cache_next_ready(c, 6, &out));
    assert_int_equal(rd(c, 0x228, 7), TM_CACHE_HIT);
    /* line 0x300 evicts 0x200: the read (sector 0 of 0x300) goes first,
     * then the write-back of sectors 0, 1 and 3 (3 x 32 bytes) */
    assert_int_equal(rd(c, 0x300, 8), TM_CACHE_MISS);
    m = tm_cache_miss_front(c);
    assert_int_equal(m->kind, TM_REQ_READ);
    assert_int_equal(m->addr, 0x300);
    tm_req read = *m;
    tm_cache_miss_pop(c);
    m = tm_cache_miss_front(c);
    assert_non_null(m);
    assert_int_equal(m->kind, TM_REQ_WRITEBACK);
    assert_int_equal(m->addr, 0x200);
    assert_int_equal(m->sectors, 0xB);
    assert_int_equal(m->bytes, 96);
    tm_cache_miss_pop(c);
    assert_null(tm_cache_miss_front(c));
    assert_true(tm_cache_fill(c, &read, 9));
    assert_true(tm_cache_next_ready(c, 9, &out));
    /* the clean line 0x300 leaves without a write-back */
    assert_int_equal(rd(c, 0x200, 10), TM_CACHE_MISS);
    tm_cache_miss_pop(c);
    assert_null(tm_cache_miss_front(c));
    tm_cache_free(c);
}

/* QV100's L1D policies (sectored, "T:m:L": write-through, allocate on
 * miss, lazy fetch on read): a write miss goes on AND allocates its
 * sector MODIFIED; a whole-sector write is then readable, a partial one
 * is fetched when read; evicting the modified line sends no write-back
 * (the data went on already). */
static void test_write_through_lazy(void **state)
{
    (void)state;
    tm_cache_config cfg = tiny();
    cfg.sectored = true;
    cfg.nsets = 1;
    cfg.assoc = 1;
    cfg.write = TM_WRITE_THROUGH;
    cfg.write_alloc = TM_WA_LAZY_FETCH_ON_READ;
    tm_cache *c = make(&cfg);
    tm_req out;
    assert_int_equal(wr(c, 0x100, 32, TM_SPACE_GLOBAL, 1), TM_CACHE_MISS);
    assert_int_equal(tm_cache_miss_front(c)->kind, TM_REQ_WRITE);
    tm_cache_miss_pop(c);
    assert_null(tm_cache_miss_front(c)); /* no fetch */
    assert_int_equal(rd(c, 0x110, 2), TM_CACHE_HIT);
    assert_int_equal(wr(c, 0x124, 4, TM_SPACE_GLOBAL, 3), TM_CACHE_SECTOR_MISS);
    assert_int_equal(tm_cache_miss_front(c)->kind, TM_REQ_WRITE);
    tm_cache_miss_pop(c);
    assert_int_equal(rd(c, 0x120, 4), TM_CACHE_SECTOR_MISS); /* sector 1 partly written: fetch */
    assert_int_equal(tm_cache_miss_front(c)->addr, 0x120);
    answer_front(c, 5);
    assert_true(tm_cache_next_ready(c, 5, &out));
    assert_int_equal(rd(c, 0x120, 6), TM_CACHE_HIT);
    assert_int_equal(rd(c, 0x200, 7), TM_CACHE_MISS); /* evicts the modified line */
    assert_int_equal(tm_cache_miss_front(c)->kind, TM_REQ_READ);
    tm_cache_miss_pop(c);
    assert_null(tm_cache_miss_front(c)); /* no write-back under write-through */
    tm_cache_free(c);
}

/* Write-back with a full miss queue: the miss that would evict a dirty
 * line needs room for the read and the write-back; a write hit needs none. */
static void test_write_back_hit_needs_no_queue(void **state)
{
    (void)state;
    tm_cache_config cfg = tiny();
    cfg.write = TM_WRITE_BACK;
    cfg.write_alloc = TM_WA_LAZY_FETCH_ON_READ;
    cfg.miss_queue = 2; /* a read miss needs two free slots (read_access) */
    tm_cache *c = make(&cfg);
    /* whole-line write: allocated MODIFIED, nothing sent */
    assert_int_equal(wr(c, 0x000, 128, TM_SPACE_GLOBAL, 1), TM_CACHE_MISS);
    assert_int_equal(wr(c, 0x010, 4, TM_SPACE_GLOBAL, 2), TM_CACHE_HIT);
    assert_null(tm_cache_miss_front(c));
    tm_cache_free(c);
}

/* Write-through, no write-allocate: a write miss goes on untouched and
 * allocates nothing; a write hit goes on and the line stays. */
static void test_write_through(void **state)
{
    (void)state;
    tm_cache_config cfg = tiny();
    cfg.write = TM_WRITE_THROUGH;
    cfg.miss_queue = 3;
    tm_cache *c = make(&cfg);
    tm_req w = req(TM_REQ_WRITE, 0x104, 8, 55);
    assert_int_equal(tm_cache_access(c, &w, 1, NULL), TM_CACHE_MISS);
    const tm_req *m = tm_cache_miss_front(c);
    assert_int_equal(m->kind, TM_REQ_WRITE);
    assert_int_equal(m->addr, 0x104);
    assert_int_equal(m->bytes, 8);
    assert_int_equal(m->tag, 55);
    tm_cache_miss_pop(c);
    assert_int_equal(rd(c, 0x100, 2), TM_CACHE_MISS); /* the write allocated nothing */
    answer_front(c, 3);
    tm_req out;
    assert_true(tm_cache_next_ready(c, 3, &out));
    assert_int_equal(tm_cache_access(c, &w, 4, NULL), TM_CACHE_HIT);
    assert_int_equal(tm_cache_miss_front(c)->tag, 55);
    assert_int_equal(rd(c, 0x100, 5), TM_CACHE_HIT);
    /* fill the queue (3 slots): 2 more writes, then a write fails */
    assert_int_equal(tm_cache_access(c, &w, 6, NULL), TM_CACHE_HIT);
    assert_int_equal(tm_cache_access(c, &w, 7, NULL), TM_CACHE_HIT);
    tm_cache_fail why;
    assert_int_equal(tm_cache_access(c, &w, 8, &why), TM_CACHE_RESERVATION_FAIL);
    assert_int_equal(why, TM_CACHE_FAIL_MISS_QUEUE);
    const tm_cache_stats *s = tm_cache_get_stats(c);
    assert_int_equal(s->count[TM_ACC_GLOBAL_W][TM_CACHE_MISS], 1);
    assert_int_equal(s->count[TM_ACC_GLOBAL_W][TM_CACHE_HIT], 3);
    assert_int_equal(s->count[TM_ACC_GLOBAL_W][TM_CACHE_RESERVATION_FAIL], 1);
    tm_cache_free(c);
}

/* Write-evict: a write hit goes on and invalidates the line. Policy L:
 * a global write evicts, a local write stays (write-back) and is
 * written back when the line is evicted. */
static void test_write_evict_and_local(void **state)
{
    (void)state;
    tm_cache_config cfg = tiny();
    cfg.nsets = 1;
    cfg.assoc = 1;
    cfg.write = TM_WRITE_EVICT;
    tm_cache *c = make(&cfg);
    tm_req out;
    assert_int_equal(rd(c, 0x100, 1), TM_CACHE_MISS);
    answer_front(c, 2);
    assert_true(tm_cache_next_ready(c, 2, &out));
    assert_int_equal(wr(c, 0x100, 4, TM_SPACE_GLOBAL, 3), TM_CACHE_HIT);
    assert_int_equal(tm_cache_miss_front(c)->kind, TM_REQ_WRITE);
    tm_cache_miss_pop(c);
    assert_int_equal(rd(c, 0x100, 4), TM_CACHE_MISS); /* invalidated */
    tm_cache_free(c);

    cfg.write = TM_WRITE_LOCAL_WB_GLOBAL_WT;
    c = make(&cfg);
    assert_int_equal(rd(c, 0x100, 1), TM_CACHE_MISS);
    answer_front(c, 2);
    assert_true(tm_cache_next_ready(c, 2, &out));
    assert_int_equal(wr(c, 0x100, 4, TM_SPACE_LOCAL, 3), TM_CACHE_HIT);
    assert_null(tm_cache_miss_front(c));             /* local: kept here */
    assert_int_equal(rd(c, 0x100, 4), TM_CACHE_HIT);
    assert_int_equal(rd(c, 0x180, 5), TM_CACHE_MISS); /* evicts the dirty line */
    assert_int_equal(tm_cache_miss_front(c)->kind, TM_REQ_READ);
    tm_cache_miss_pop(c);
    const tm_req *m = tm_cache_miss_front(c);
    assert_int_equal(m->kind, TM_REQ_WRITEBACK);
    assert_int_equal(m->addr, 0x100);
    assert_int_equal(m->bytes, 128);
    assert_int_equal(m->sectors, 0xF);
    tm_cache_miss_pop(c);
    tm_req reply = req(TM_REQ_READ, 0x180, 128, 0);
    assert_true(tm_cache_fill(c, &reply, 6));
    assert_true(tm_cache_next_ready(c, 6, &out));
    assert_int_equal(wr(c, 0x180, 4, TM_SPACE_GLOBAL, 7), TM_CACHE_HIT); /* global: evicts */
    assert_int_equal(tm_cache_miss_front(c)->kind, TM_REQ_WRITE);
    assert_int_equal(rd(c, 0x180, 8), TM_CACHE_MISS);
    tm_cache_free(c);
}

/* A write-back cache that allocates on fill (GPGPU-Sim's Volta L1D is
 * L:L:s, streaming with local write-back): a fill that evicts a dirty line
 * sends the line's write-back to the next level, even when the configured
 * miss queue is full (hardware must write dirty data somewhere; GPGPU-Sim
 * drops it, which loses a DRAM write). One set, one way: */
static void test_fill_evicts_dirty_line(void **state)
{
    (void)state;
    tm_cache_config cfg = tiny();
    cfg.nsets = 1;
    cfg.assoc = 1;
    cfg.write = TM_WRITE_LOCAL_WB_GLOBAL_WT;
    cfg.alloc = TM_ALLOC_STREAMING;
    cfg.miss_queue = 2; /* a read miss needs two free slots (read_access) */
    tm_cache *c = make(&cfg);
    tm_req out;
    assert_int_equal(rd(c, 0x100, 1), TM_CACHE_MISS);
    answer_front(c, 2);                                       /* 0x100 allocated by its fill */
    assert_true(tm_cache_next_ready(c, 2, &out));
    assert_int_equal(wr(c, 0x100, 4, TM_SPACE_LOCAL, 3), TM_CACHE_HIT); /* local: dirty, kept */
    assert_null(tm_cache_miss_front(c));
    assert_int_equal(rd(c, 0x180, 4), TM_CACHE_MISS);         /* no victim taken yet */
    assert_int_equal(tm_cache_miss_front(c)->kind, TM_REQ_READ);
    tm_req r = *tm_cache_miss_front(c);
    tm_cache_miss_pop(c);
    assert_int_equal(rd(c, 0x200, 5), TM_CACHE_MISS);
    assert_int_equal(wr(c, 0x300, 4, TM_SPACE_GLOBAL, 5), TM_CACHE_MISS); /* the queue is full: 2 of 2 */
    r.is_reply = 1;
    assert_true(tm_cache_fill(c, &r, 6));                     /* 0x180's fill evicts 0x100 */
    tm_cache_miss_pop(c);                                     /* (0x200's read) */
    tm_cache_miss_pop(c);                                     /* (0x300's write) */
    const tm_req *wb = tm_cache_miss_front(c);
    assert_non_null(wb);
    assert_int_equal(wb->kind, TM_REQ_WRITEBACK);
    assert_int_equal(wb->addr, 0x100);
    assert_int_equal(wb->bytes, 128);
    tm_cache_miss_pop(c);
    assert_null(tm_cache_miss_front(c));
    assert_int_equal(rd(c, 0x180, 7), TM_CACHE_HIT);
    tm_cache_free(c);
}

/* Write-allocate W: the write goes on and the line is fetched; the fetch
 * is the cache's own (never handed out) and leaves the line valid. */
static void test_write_allocate_naive(void **state)
{
    (void)state;
    tm_cache_config cfg = tiny();
    cfg.write = TM_WRITE_THROUGH;
    cfg.write_alloc = TM_WA_WRITE;
    tm_cache *c = make(&cfg);
    assert_int_equal(wr(c, 0x304, 4, TM_SPACE_GLOBAL, 1), TM_CACHE_MISS);
    assert_int_equal(tm_cache_miss_front(c)->kind, TM_REQ_WRITE);
    tm_cache_miss_pop(c);
    const tm_req *m = tm_cache_miss_front(c);
    assert_int_equal(m->kind, TM_REQ_READ);
    assert_int_equal(m->addr, 0x300);
    answer_front(c, 2);
    tm_req out;
    assert_false(tm_cache_next_ready(c, 2, &out));
    assert_false(tm_cache_has_pending(c));
    assert_int_equal(rd(c, 0x300, 3), TM_CACHE_HIT);
    tm_cache_free(c);
}

/* Fetch on write F with write-back: a whole-line write is kept MODIFIED
 * with no fetch; a partial one fetches the line, which arrives MODIFIED
 * (its eviction sends a write-back). */
static void test_fetch_on_write(void **state)
{
    (void)state;
    tm_cache_config cfg = tiny();
    cfg.nsets = 1;
    cfg.assoc = 1;
    cfg.write = TM_WRITE_BACK;
    cfg.write_alloc = TM_WA_FETCH_ON_WRITE;
    tm_cache *c = make(&cfg);
    assert_int_equal(wr(c, 0x000, 128, TM_SPACE_GLOBAL, 1), TM_CACHE_MISS);
    assert_null(tm_cache_miss_front(c));
    assert_int_equal(rd(c, 0x000, 2), TM_CACHE_HIT);
    /* a partial write to line 0x80 evicts line 0 (dirty): fetch, then write-back */
    assert_int_equal(wr(c, 0x084, 4, TM_SPACE_GLOBAL, 3), TM_CACHE_MISS);
    const tm_req *m = tm_cache_miss_front(c);
    assert_int_equal(m->kind, TM_REQ_READ);
    assert_int_equal(m->addr, 0x080);
    tm_req fetch = *m;
    tm_cache_miss_pop(c);
    assert_int_equal(tm_cache_miss_front(c)->kind, TM_REQ_WRITEBACK);
    assert_int_equal(tm_cache_miss_front(c)->addr, 0x000);
    tm_cache_miss_pop(c);
    assert_true(tm_cache_fill(c, &fetch, 4));
    tm_req out;
    assert_false(tm_cache_next_ready(c, 4, &out)); /* the fetch was the cache's own */
    assert_int_equal(rd(c, 0x080, 5), TM_CACHE_HIT);
    assert_int_equal(rd(c, 0x100, 6), TM_CACHE_MISS); /* evicts 0x80, now dirty */
    tm_cache_miss_pop(c);
    assert_int_equal(tm_cache_miss_front(c)->kind, TM_REQ_WRITEBACK);
    assert_int_equal(tm_cache_miss_front(c)->addr, 0x080);
    tm_cache_free(c);
}

/* Atomics bypass a first-level cache: queued untouched, no statistics,
 * the tag array unchanged, and the reply is not a fill. A last-level
 * cache performs them: a hit leaves the line dirty (write-back on
 * eviction). */
static void test_atomics(void **state)
{
    (void)state;
    tm_cache_config cfg = tiny();
    cfg.write = TM_WRITE_THROUGH;
    cfg.sectored = true; /* a sectored L1 takes one sector per access, atomics aside */
    tm_cache *l1 = make(&cfg);
    tm_req a = req(TM_REQ_ATOMIC, 0x40, 4, 77);
    assert_int_equal(tm_cache_access(l1, &a, 1, NULL), TM_CACHE_BYPASS);
    const tm_req *m = tm_cache_miss_front(l1);
    assert_int_equal(m->kind, TM_REQ_ATOMIC);
    assert_int_equal(m->tag, 77);
    assert_int_equal(m->bytes, 4);
    tm_req reply = *m;
    tm_cache_miss_pop(l1);
    reply.is_reply = 1;
    assert_false(tm_cache_fill(l1, &reply, 2));
    assert_int_equal(tm_cache_stats_totals(tm_cache_get_stats(l1)).accesses, 0);
    assert_int_equal(rd(l1, 0x40, 3), TM_CACHE_MISS); /* nothing was allocated */
    /* a warp's atomics on a whole 128-byte segment bypass whatever the geometry */
    tm_req wide = req(TM_REQ_ATOMIC, 0x80, 128, 79);
    assert_int_equal(tm_cache_access(l1, &wide, 4, NULL), TM_CACHE_BYPASS);
    tm_cache_free(l1);

    cfg.sectored = false;
    cfg.nsets = 1;
    cfg.assoc = 1;
    cfg.write = TM_WRITE_BACK;
    cfg.write_alloc = TM_WA_LAZY_FETCH_ON_READ;
    tm_cache *l2 = make(&cfg);
    tm_cache_set_last_level(l2);
    tm_req out, b = req(TM_REQ_ATOMIC, 0x1C0, 4, 78);
    assert_int_equal(rd(l2, 0x00, 1), TM_CACHE_MISS);
    answer_front(l2, 2);
    assert_true(tm_cache_next_ready(l2, 2, &out));
    assert_int_equal(tm_cache_access(l2, &b, 3, NULL), TM_CACHE_MISS); /* line 0x00 is evicted clean */
    assert_int_equal(tm_cache_miss_front(l2)->kind, TM_REQ_READ);      /* the next level gets a read */
    assert_int_equal(tm_cache_miss_front(l2)->addr, 0x180);
    answer_front(l2, 4);
    assert_true(tm_cache_next_ready(l2, 4, &out));
    assert_int_equal(out.tag, 78);
    assert_int_equal(out.kind, TM_REQ_ATOMIC);
    assert_null(tm_cache_miss_front(l2));
    /* the atomic's line arrived dirty: evicting it sends a write-back */
    assert_int_equal(rd(l2, 0x100, 5), TM_CACHE_MISS);
    tm_cache_miss_pop(l2);
    assert_int_equal(tm_cache_miss_front(l2)->kind, TM_REQ_WRITEBACK);
    assert_int_equal(tm_cache_miss_front(l2)->addr, 0x180);
    assert_int_equal(tm_cache_get_stats(l2)->count[TM_ACC_GLOBAL_R][TM_CACHE_MISS], 3);
    tm_cache_free(l2);
}

/* MSHR kind S on a whole-line cache: the next level answers the line in
 * sectors; the entry is ready only when all four have come back. */
static void test_sector_replies(void **state)
{
    (void)state;
    tm_cache_config cfg = tiny();
    cfg.mshr_kind = TM_MSHR_SECTOR_ASSOC;
    tm_cache *c = make(&cfg);
    assert_int_equal(rd(c, 0x204, 1), TM_CACHE_MISS);
    tm_cache_miss_pop(c);
    tm_req out, part = req(TM_REQ_READ, 0x200, 64, 0);
    part.sectors = 0x3;
    assert_true(tm_cache_fill(c, &part, 2));
    assert_false(tm_cache_next_ready(c, 2, &out));
    assert_int_equal(rd(c, 0x208, 3), TM_CACHE_HIT_RESERVED); /* still reserved */
    part.addr = 0x240;
    part.sectors = 0xC;
    assert_true(tm_cache_fill(c, &part, 4));
    const uint32_t tags[2] = {0x204, 0x208};
    expect_ready(c, 4, tags, 2);
    assert_int_equal(rd(c, 0x200, 5), TM_CACHE_HIT);
    tm_cache_free(c);
}

/* Many misses in flight, filled in a scrambled order: every request comes
 * out exactly once and the MSHRs empty (exercises the entry table's
 * insertions and removals against a plain count kept by the test). */
static void test_many_misses(void **state)
{
    (void)state;
    tm_cache_config cfg = tiny();
    cfg.nsets = 64;
    cfg.assoc = 8;
    cfg.mshr_entries = 64;
    cfg.mshr_max_merge = 2;
    cfg.miss_queue = 128;
    tm_cache *c = make(&cfg);
    tm_req sent[64];
    for (uint32_t i = 0; i < 64; i++) {
        tm_req a = req(TM_REQ_READ, (uint64_t)i * 4096 + 128 * (i % 7), 4, 2 * i);
        tm_req b = a;
        b.tag = 2 * i + 1;
        assert_int_equal(tm_cache_access(c, &a, 1, NULL), TM_CACHE_MISS);
        assert_int_equal(tm_cache_access(c, &b, 1, NULL), TM_CACHE_HIT_RESERVED);
    }
    for (uint32_t i = 0; i < 64; i++) {
        sent[i] = *tm_cache_miss_front(c);
        tm_cache_miss_pop(c);
    }
    int seen[128] = {0};
    for (uint32_t k = 0; k < 64; k++) {
        uint32_t i = (k * 37) % 64; /* 37 is odd: a permutation of 0..63 */
        assert_true(tm_cache_fill(c, &sent[i], 10 + k));
        assert_false(tm_cache_fill(c, &sent[i], 10 + k)); /* already filled */
        tm_req out;
        while (tm_cache_next_ready(c, 1000 + 10 * k, &out))
            seen[out.tag]++;
    }
    for (int t = 0; t < 128; t++)
        assert_int_equal(seen[t], 1);
    assert_false(tm_cache_has_pending(c));
    tm_cache_free(c);
}

/* Invalidation (kernel boundary) empties the cache. */
static void test_invalidate(void **state)
{
    (void)state;
    tm_cache_config cfg = tiny();
    tm_cache *c = make(&cfg);
    assert_int_equal(rd(c, 0x80, 1), TM_CACHE_MISS);
    answer_front(c, 2);
    tm_req out;
    assert_true(tm_cache_next_ready(c, 2, &out));
    assert_int_equal(rd(c, 0x80, 3), TM_CACHE_HIT);
    tm_cache_invalidate(c);
    assert_int_equal(rd(c, 0x80, 4), TM_CACHE_MISS);
    tm_cache_free(c);
}

/* Requests that break the contract are refused, change nothing and are
 * not counted. */
static void test_bad_requests(void **state)
{
    (void)state;
    tm_cache_config cfg = tiny();
    tm_cache *ro = make(&cfg);
    assert_int_equal(wr(ro, 0x0, 4, TM_SPACE_GLOBAL, 1), TM_CACHE_BAD_REQUEST);
    assert_non_null(strstr(tm_cache_error(ro), "read-only"));
    tm_req across = req(TM_REQ_READ, 0x7C, 8, 0); /* bytes 0x7C..0x83: two lines */
    assert_int_equal(tm_cache_access(ro, &across, 1, NULL), TM_CACHE_BAD_REQUEST);
    assert_non_null(strstr(tm_cache_error(ro), "line"));
    tm_cache_free(ro);
    cfg.sectored = true;
    tm_cache *sc = make(&cfg);
    tm_req two = req(TM_REQ_READ, 0x0, 64, 0);
    assert_int_equal(tm_cache_access(sc, &two, 1, NULL), TM_CACHE_BAD_REQUEST);
    assert_non_null(strstr(tm_cache_error(sc), "sector"));
    assert_null(tm_cache_miss_front(sc));
    assert_int_equal(tm_cache_stats_totals(tm_cache_get_stats(sc)).accesses, 0);
    tm_cache_free(sc);
}

/* Configurations that cannot be modelled are refused with a reason. */
static void test_bad_configs(void **state)
{
    (void)state;
    char err[256];
    tm_cache_config cfg = tiny();
    cfg.set_index = TM_INDEX_FERMI_HASH; /* 2 sets */
    assert_null(tm_cache_new(&cfg, "L1D", err, sizeof err));
    assert_non_null(strstr(err, "32 or 64"));
    assert_non_null(strstr(err, "L1D"));
    cfg = tiny();
    cfg.nsets = 3;
    assert_null(tm_cache_new(&cfg, "x", err, sizeof err));
    cfg = tiny();
    cfg.sectored = true;
    cfg.line_bytes = 64;
    assert_null(tm_cache_new(&cfg, "x", err, sizeof err));
    cfg = tiny();
    cfg.mshr_kind = TM_MSHR_TEX_FIFO;
    assert_null(tm_cache_new(&cfg, "x", err, sizeof err));
}

/* The statistics text, in GPGPU-Sim's format (gpu-sim.cc and
 * gpu-cache.cc's print functions). Scenario, on the sectored cache of
 * test_sector_and_line_misses with a miss queue of 3 and write-through:
 *   read 0x104  MISS (queue 1 of 3)       (GLOBAL_ACC_R MISS 1)
 *   read 0x108  pending hit (1 + 1 < 3): HIT_RESERVED and MSHR_HIT
 *   write 0x300 no write-allocate: MISS, goes on (queue 2 of 3)
 *   read 0x148  sector miss needing 2 free slots, 1 free:
 *               RESERVATION_FAIL, MISS_QUEUE_FULL
 * Totals: accesses = 1 + 1 + 1 = 3 (HIT_RESERVED, 2 MISS), misses 2,
 * rate 2/3 = 0.6667, pending hits 1, reservation fails 1. */
static void test_statistics_text(void **state)
{
    (void)state;
    tm_cache_config cfg = tiny();
    cfg.sectored = true;
    cfg.nsets = 1;
    cfg.write = TM_WRITE_THROUGH;
    cfg.miss_queue = 3;
    tm_cache *c = make(&cfg);
    assert_int_equal(rd(c, 0x104, 1), TM_CACHE_MISS);
    assert_int_equal(rd(c, 0x108, 2), TM_CACHE_HIT_RESERVED);
    assert_int_equal(wr(c, 0x300, 4, TM_SPACE_GLOBAL, 3), TM_CACHE_MISS);
    assert_int_equal(rd(c, 0x148, 4), TM_CACHE_RESERVATION_FAIL);

    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    tm_cache_print_totals(f, tm_cache_get_stats(c), "L1D", "\t");
    fclose(f);
    assert_string_equal(buf, "\tL1D_total_cache_accesses = 3\n"
                             "\tL1D_total_cache_misses = 2\n"
                             "\tL1D_total_cache_miss_rate = 0.6667\n"
                             "\tL1D_total_cache_pending_hits = 1\n"
                             "\tL1D_total_cache_reservation_fails = 1\n");
    free(buf);

    /* an L2 prints without the tab, and no miss rate without accesses */
    tm_cache_stats none;
    memset(&none, 0, sizeof none);
    f = open_memstream(&buf, &len);
    tm_cache_print_totals(f, &none, "L2", "");
    fclose(f);
    assert_string_equal(buf, "L2_total_cache_accesses = 0\n"
                             "L2_total_cache_misses = 0\n"
                             "L2_total_cache_pending_hits = 0\n"
                             "L2_total_cache_reservation_fails = 0\n");
    free(buf);

    /* breakdown: every type x status, GPGPU-Sim's names in its order,
     * then TOTAL_ACCESS for the types accessed */
    static const char *const types[] = {"GLOBAL_ACC_R", "LOCAL_ACC_R", "CONST_ACC_R", "TEXTURE_ACC_R",
                                        "GLOBAL_ACC_W", "LOCAL_ACC_W", "L1_WRBK_ACC", "L2_WRBK_ACC",
                                        "INST_ACC_R", "L1_WR_ALLOC_R", "L2_WR_ALLOC_R"};
    static const char *const statuses[] = {"HIT", "HIT_RESERVED", "MISS", "RESERVATION_FAIL",
                                           "SECTOR_MISS", "MSHR_HIT"};
    /* hand counts: GLOBAL_ACC_R HIT_RESERVED 1, MISS 1, RESERVATION_FAIL 1,
     * MSHR_HIT 1; GLOBAL_ACC_W MISS 1 */
    unsigned long long want[11][6] = {{0}};
    want[0][1] = 1;
    want[0][2] = 1;
    want[0][3] = 1;
    want[0][5] = 1;
    want[4][2] = 1;
    char expect[8192] = "";
    size_t at = 0;
    for (int t = 0; t < 11; t++)
        for (int k = 0; k < 6; k++)
            at += (size_t)snprintf(expect + at, sizeof expect - at, "\tTotal_core_cache_stats_breakdown[%s][%s] = %llu\n",
                                   types[t], statuses[k], want[t][k]);
    /* TOTAL_ACCESS leaves out RESERVATION_FAIL and MSHR_HIT: R 2, W 1 */
    at += (size_t)snprintf(expect + at, sizeof expect - at,
                           "\tTotal_core_cache_stats_breakdown[GLOBAL_ACC_R][TOTAL_ACCESS] = 2\n"
                           "\tTotal_core_cache_stats_breakdown[GLOBAL_ACC_W][TOTAL_ACCESS] = 1\n");
    f = open_memstream(&buf, &len);
    tm_cache_print_breakdown(f, tm_cache_get_stats(c), "Total_core_cache_stats_breakdown");
    fclose(f);
    assert_string_equal(buf, expect);
    free(buf);

    f = open_memstream(&buf, &len);
    tm_cache_print_fail_breakdown(f, tm_cache_get_stats(c), "Total_core_cache_fail_stats_breakdown");
    fclose(f);
    assert_string_equal(buf, "\tTotal_core_cache_fail_stats_breakdown[GLOBAL_ACC_R][MISS_QUEUE_FULL] = 1\n");
    free(buf);

    /* sums over caches add up */
    tm_cache_stats sum;
    memset(&sum, 0, sizeof sum);
    tm_cache_stats_add(&sum, tm_cache_get_stats(c));
    tm_cache_stats_add(&sum, tm_cache_get_stats(c));
    assert_int_equal(tm_cache_stats_totals(&sum).accesses, 6);
    assert_int_equal(sum.fail[TM_ACC_GLOBAL_R][TM_CACHE_FAIL_MISS_QUEUE], 2);
    tm_cache_free(c);
}

/* The L2's set index can come from another address (the partition
 * address); the tag stays the full address, so two addresses sharing an
 * index address but not a line still miss each other. */
static uint64_t drop_bit_7(void *ctx, uint64_t addr)
{
    (void)ctx;
    return (addr & 0x7F) | ((addr >> 8) << 7);
}

static void test_index_address(void **state)
{
    (void)state;
    tm_cache_config cfg = tiny(); /* 2 sets: index = bit 7 of the index address */
    tm_cache *c = make(&cfg);
    assert_int_equal(tm_cache_set_index(c, 0x100), 0); /* bit 7 of 0x100 is 0 */
    tm_cache_set_index_address(c, drop_bit_7, NULL);
    assert_int_equal(tm_cache_set_index(c, 0x100), 1); /* bit 8 moved to 7 */
    assert_int_equal(rd(c, 0x100, 1), TM_CACHE_MISS);
    answer_front(c, 2);
    tm_req out;
    assert_true(tm_cache_next_ready(c, 2, &out));
    assert_int_equal(rd(c, 0x180, 3), TM_CACHE_MISS); /* same set 1, other line */
    assert_int_equal(rd(c, 0x100, 4), TM_CACHE_HIT);
    tm_cache_free(c);
}

/* Priority-based allocation (Rhu's thesis, Sec. 6.2) on a write-back data
 * cache of one set of 2 ways: prioritized reads of A and B fill both ways;
 * a deprioritized read of C finds no vacant way and no deprioritized line,
 * so it bypasses: it still takes an MSHR and comes back ready, but its data
 * fills no line (C misses again; A and B hit). After A's line is
 * invalidated (a vacancy) a deprioritized read of D allocates it; a
 * deprioritized read of E may then replace D (allocated deprioritized) but
 * not B: B and E hit, D misses. */
static void test_priority_allocation(void **state)
{
    (void)state;
    tm_cache_config cfg = tiny();
    cfg.nsets = 1;
    cfg.write = TM_WRITE_BACK;
    tm_cache *c = make(&cfg);
    char err[160];
    assert_true(tm_cache_set_pca(c, err, sizeof err));
    uint64_t now = 1;
    const uint64_t A = 0x000, B = 0x080, C = 0x100, D = 0x180, E = 0x200;
    /* prioritized: A, B */
    for (int i = 0; i < 2; i++) {
        tm_req r = req(TM_REQ_READ, i ? B : A, 4, (uint32_t)i);
        r.prio = 1;
        assert_int_equal(tm_cache_access(c, &r, now++, NULL), TM_CACHE_MISS);
        answer_front(c, now++);
        tm_req out;
        assert_true(tm_cache_next_ready(c, now, &out));
    }
    tm_req rc = req(TM_REQ_READ, C, 4, 7);
    assert_int_equal(tm_cache_access(c, &rc, now++, NULL), TM_CACHE_MISS);
    assert_int_equal(tm_cache_mshrs_in_use(c), 1);
    answer_front(c, now++);
    uint32_t seven = 7;
    expect_ready(c, now, &seven, 1);
    assert_int_equal(tm_cache_get_stats(c)->pca_bypasses, 1);
    assert_int_equal(tm_cache_peek(c, &rc), TM_CACHE_MISS);
    assert_int_equal(rd(c, A, now++), TM_CACHE_HIT);
    assert_int_equal(rd(c, B, now++), TM_CACHE_HIT);
    /* a vacancy: D allocates it; E replaces D, not B */
    tm_cache_invalidate(c);
    tm_req rb = req(TM_REQ_READ, B, 4, 8);
    rb.prio = 1;
    assert_int_equal(tm_cache_access(c, &rb, now++, NULL), TM_CACHE_MISS);
    answer_front(c, now++);
    uint32_t eight = 8;
    expect_ready(c, now, &eight, 1);
    tm_req rd_ = req(TM_REQ_READ, D, 4, 9), re = req(TM_REQ_READ, E, 4, 10);
    assert_int_equal(tm_cache_access(c, &rd_, now++, NULL), TM_CACHE_MISS);
    answer_front(c, now++);
    uint32_t nine = 9, ten = 10;
    expect_ready(c, now, &nine, 1);
    assert_int_equal(tm_cache_access(c, &re, now++, NULL), TM_CACHE_MISS);
    answer_front(c, now++);
    expect_ready(c, now, &ten, 1);
    assert_int_equal(tm_cache_get_stats(c)->pca_bypasses, 1);
    assert_int_equal(tm_cache_peek(c, &rb), TM_CACHE_HIT);
    assert_int_equal(tm_cache_peek(c, &re), TM_CACHE_HIT);
    assert_int_equal(tm_cache_peek(c, &rd_), TM_CACHE_MISS);
    tm_cache_free(c);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_priority_allocation),
        cmocka_unit_test(test_lru_sequence),
        cmocka_unit_test(test_fifo_sequence),
        cmocka_unit_test(test_sequence_counts),
        cmocka_unit_test(test_lru_tie),
        cmocka_unit_test(test_set_index_functions),
        cmocka_unit_test(test_set_index_is_bitwise_xor),
        cmocka_unit_test(test_hash_conflicts),
        cmocka_unit_test(test_sector_and_line_misses),
        cmocka_unit_test(test_line_request),
        cmocka_unit_test(test_mshr_merge),
        cmocka_unit_test(test_data_port_width),
        cmocka_unit_test(test_mshr_full),
        cmocka_unit_test(test_mshr_merge_limit),
        cmocka_unit_test(test_refused_again),
        cmocka_unit_test(test_mru_read_hit),
        cmocka_unit_test(test_miss_queue_full),
        cmocka_unit_test(test_allocation_policies),
        cmocka_unit_test(test_write_back_lazy),
        cmocka_unit_test(test_write_back_hit_needs_no_queue),
        cmocka_unit_test(test_write_through_lazy),
        cmocka_unit_test(test_write_through),
        cmocka_unit_test(test_write_evict_and_local),
        cmocka_unit_test(test_fill_evicts_dirty_line),
        cmocka_unit_test(test_write_allocate_naive),
        cmocka_unit_test(test_fetch_on_write),
        cmocka_unit_test(test_atomics),
        cmocka_unit_test(test_sector_replies),
        cmocka_unit_test(test_many_misses),
        cmocka_unit_test(test_invalidate),
        cmocka_unit_test(test_bad_requests),
        cmocka_unit_test(test_bad_configs),
        cmocka_unit_test(test_statistics_text),
        cmocka_unit_test(test_index_address),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
