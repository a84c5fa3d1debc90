/* test_miss_class.c — cold, capacity and conflict misses (Hill's three Cs,
 * timing/miss_class.h): a sequence worked by hand, a random sequence
 * against a plain reference in this file, and a real cache's statistics. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "timing/cache.h"
#include "timing/miss_class.h"

enum { HIT = TM_MISS_KINDS };

/* A fully associative LRU shadow of two lines. A and B miss cold; A
 * again misses in the real cache (say a direct-mapped one where A and B
 * collide) while the shadow holds both: conflict. C misses cold and
 * evicts B (LRU order A, B -> C, A); B misses: seen before, not in the
 * shadow: capacity (evicting A); C hits in the real cache: no class; A
 * misses: capacity. After a reset A is cold again. */
static void test_hand_sequence(void **state)
{
    (void)state;
    tm_miss_class *m = tm_miss_class_new(2);
    assert_non_null(m);
    const uint64_t A = 0x1000, B = 0x2000, C = 0x3000;
    assert_int_equal(tm_miss_class_access(m, A, true), TM_MISS_COLD);
    assert_int_equal(tm_miss_class_access(m, B, true), TM_MISS_COLD);
    assert_int_equal(tm_miss_class_access(m, A, true), TM_MISS_CONFLICT);
    assert_int_equal(tm_miss_class_access(m, C, true), TM_MISS_COLD);
    assert_int_equal(tm_miss_class_access(m, B, true), TM_MISS_CAPACITY);
    assert_int_equal(tm_miss_class_access(m, C, false), HIT);
    assert_int_equal(tm_miss_class_access(m, A, true), TM_MISS_CAPACITY);
    tm_miss_class_reset(m);
    assert_int_equal(tm_miss_class_access(m, A, true), TM_MISS_COLD);
    assert_int_equal(tm_miss_class_access(m, 0, true), TM_MISS_COLD); /* block 0 is a block too */
    assert_int_equal(tm_miss_class_access(m, 0, true), TM_MISS_CONFLICT);
    tm_miss_class_free(m);
}

/* The same classification the plain way: an array in LRU order and a
 * list of blocks seen, searched linearly. */
typedef struct reference {
    uint64_t lru[64], seen[4096];
    uint32_t n, lines, nseen;
} reference;

static int ref_access(reference *r, uint64_t block, bool missed)
{
    bool old = false;
    for (uint32_t k = 0; k < r->nseen && !old; k++)
        old = r->seen[k] == block;
    if (!old)
        r->seen[r->nseen++] = block;
    uint32_t at = r->n;
    for (uint32_t k = 0; k < r->n; k++)
        if (r->lru[k] == block)
            at = k;
    bool in = at < r->n;
    if (!in)
        at = r->n < r->lines ? r->n++ : r->lines - 1; /* (the last is the least recent) */
    memmove(r->lru + 1, r->lru, at * sizeof *r->lru);
    r->lru[0] = block;
    if (!missed)
        return HIT;
    return in ? TM_MISS_CONFLICT : old ? TM_MISS_CAPACITY : TM_MISS_COLD;
}

/* 50,000 accesses over 200 blocks (their hashes collide in the shadow's
 * small table, exercising its deletions) with random miss flags. */
static void test_against_reference(void **state)
{
    (void)state;
    for (uint32_t lines = 1; lines <= 40; lines += 13) {
        tm_miss_class *m = tm_miss_class_new(lines);
        reference r = {.lines = lines};
        uint64_t x = 12345;
        for (int i = 0; i < 50000; i++) {
            x = x * 6364136223846793005ull + 1442695040888963407ull;
            uint64_t block = (x >> 33) % 200 * 128;
            bool missed = (x >> 20) & 1;
            assert_int_equal(tm_miss_class_access(m, block, missed), ref_access(&r, block, missed));
        }
        tm_miss_class_free(m);
    }
}

/* A 2-set, 2-way cache of 128-byte lines (4 lines): blocks 0, 2, 4 (lines
 * 0, 256, 512) all go to set 0. Reading 0, 256, 512, 0: three cold misses,
 * then 0 was evicted from its 2-way set while a 4-line fully associative
 * cache still holds it: conflict. */
static void test_on_cache(void **state)
{
    (void)state;
    tm_cache_config cfg = {.present = true, .nsets = 2, .line_bytes = 128, .assoc = 2, .repl = TM_REPL_LRU,
                           .write = TM_WRITE_READ_ONLY, .alloc = TM_ALLOC_ON_FILL, .write_alloc = TM_WA_NONE,
                           .set_index = TM_INDEX_LINEAR, .mshr_kind = TM_MSHR_ASSOC, .mshr_entries = 16,
                           .mshr_max_merge = 4, .miss_queue = 32};
    char err[256];
    tm_cache *c = tm_cache_new(&cfg, "test", err, sizeof err);
    assert_non_null(c);
    assert_true(tm_cache_set_miss_classes(c));
    const uint64_t order[] = {0, 256, 512};
    uint64_t now = 1;
    for (int k = 0; k < 3; k++) { /* each read, then its fill: allocation on fill */
        tm_req r = {.addr = order[k], .bytes = 4, .kind = TM_REQ_READ, .space = TM_SPACE_GLOBAL, .tag = (uint32_t)k};
        assert_int_equal(tm_cache_access(c, &r, now++, NULL), TM_CACHE_MISS);
        tm_req reply = *tm_cache_miss_front(c);
        reply.is_reply = 1;
        tm_cache_miss_pop(c);
        assert_true(tm_cache_fill(c, &reply, now++));
        tm_req out;
        while (tm_cache_next_ready(c, now, &out))
            now++;
    }
    tm_req r0 = {.addr = 0, .bytes = 4, .kind = TM_REQ_READ, .space = TM_SPACE_GLOBAL, .tag = 9};
    assert_int_equal(tm_cache_access(c, &r0, now++, NULL), TM_CACHE_MISS);
    const tm_cache_stats *s = tm_cache_get_stats(c);
    assert_int_equal(s->miss_class[TM_MISS_COLD], 3);
    assert_int_equal(s->miss_class[TM_MISS_CONFLICT], 1);
    assert_int_equal(s->miss_class[TM_MISS_CAPACITY], 0);
    tm_cache_free(c);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_hand_sequence),
        cmocka_unit_test(test_against_reference),
        cmocka_unit_test(test_on_cache),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
