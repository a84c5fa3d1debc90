/* test_locality_graph.c — locality graphs from access sets, against pairwise
 * intersection of the same sets (the thesis's definition, Algorithm 4),
 * and the hash map the builder counts pairs in. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "analysis/locality.h"
#include "ir/u64map.h"

static uint64_t rng(uint64_t *s)
{
    *s ^= *s << 13;
    *s ^= *s >> 7;
    *s ^= *s << 17;
    return *s;
}

/* Random accesses of ntbs blocks from a few bases spread over `span`
 * bytes; the same accesses go into sets and into plain lists per block. */
typedef struct sample {
    uint32_t ntbs;
    uint64_t **v;
    uint32_t *n;
} sample;

static void fill(ptx_access_sets *s, sample *x, uint32_t ntbs, uint64_t span, uint32_t line, uint64_t seed)
{
    ptx_access_sets_init(s, ntbs, line);
    x->ntbs = ntbs;
    x->v = calloc(ntbs, sizeof *x->v);
    x->n = calloc(ntbs, sizeof *x->n);
    uint64_t bases[3] = {0x7000000000ull, 0x7000000000ull + span / 2, 0x7000000000ull + span};
    for (uint32_t tb = 0; tb < ntbs; tb++) {
        uint32_t k = 20 + (uint32_t)(rng(&seed) % 60);
        x->v[tb] = malloc(4 * k * sizeof **x->v);
        for (uint32_t i = 0; i < k; i++) {
            uint64_t a = bases[rng(&seed) % 3] + 4 * (rng(&seed) % 300);
            uint32_t vec = rng(&seed) % 4 == 0 ? 4 : 1;
            ptx_access_sets_add(s, tb, false, a, 4, vec);
            ptx_access_sets_add(s, tb, true, a + 8, 4, 1); /* writes: a different graph */
            for (uint32_t e = 0; e < vec; e++) {
                uint64_t b = a + 4 * e;
                x->v[tb][x->n[tb]++] = line ? b & ~(uint64_t)(line - 1) : b;
            }
        }
    }
}

/* |set_i ∩ set_j| by comparing every element with every other. */
static uint64_t common(const sample *x, uint32_t i, uint32_t j)
{
    uint64_t w = 0;
    for (uint32_t a = 0; a < x->n[i]; a++) {
        bool dup = false;
        for (uint32_t p = 0; p < a && !dup; p++)
            dup = x->v[i][p] == x->v[i][a];
        if (dup)
            continue;
        for (uint32_t b = 0; b < x->n[j]; b++)
            if (x->v[j][b] == x->v[i][a]) {
                w++;
                break;
            }
    }
    return w;
}

static void check_against_pairs(uint32_t ntbs, uint64_t span, uint32_t line, uint64_t seed)
{
    ptx_access_sets s;
    sample x;
    fill(&s, &x, ntbs, span, line, seed);
    ptx_locality_graph g;
    ptx_locality_build(&s, false, &g);
    uint64_t e = 0, total = 0;
    for (uint32_t i = 0; i < ntbs; i++)
        for (uint32_t j = i + 1; j < ntbs; j++) {
            uint64_t w = common(&x, i, j);
            if (!w)
                continue;
            assert_true(e < g.nedges);
            assert_int_equal(g.edges[e].i, i);
            assert_int_equal(g.edges[e].j, j);
            assert_int_equal(g.edges[e].w, w);
            total += w;
            e++;
        }
    assert_int_equal(g.nedges, e);
    assert_int_equal(g.total_weight, total);
    ptx_locality_graph w;
    ptx_locality_build(&s, true, &w);
    ptx_locality_diff d;
    assert_true(ptx_locality_compare(&g, &g, &d));
    if (g.nedges)
        assert_false(ptx_locality_compare(&g, &w, &d)); /* shifted by 8 bytes: not the same sharing */
    ptx_locality_stats st;
    ptx_locality_stats_of(&g, &st);
    assert_true(st.spscore >= 0 && st.spscore <= 1);
    assert_true(st.max_degree <= ntbs - 1);
    ptx_locality_graph_free(&g);
    ptx_locality_graph_free(&w);
    ptx_access_sets_free(&s);
    for (uint32_t i = 0; i < ntbs; i++)
        free(x.v[i]);
    free(x.v);
    free(x.n);
}

/* Element addresses, cache lines, and addresses too far apart to pack
 * with the block number into one key (the slow merge path). */
static void test_graph_matches_pairwise(void **state)
{
    (void)state;
    check_against_pairs(40, 1 << 20, 0, 1);
    check_against_pairs(40, 1 << 20, 128, 2);
    check_against_pairs(7, 1 << 20, 32, 3);
    check_against_pairs(30, 1ull << 60, 0, 4);
    check_against_pairs(1, 1 << 10, 0, 5);
}

/* Many repeated accesses (compaction while adding) keep a block's set exact. */
static void test_repeated_accesses(void **state)
{
    (void)state;
    ptx_access_sets s;
    ptx_access_sets_init(&s, 2, 0);
    for (uint32_t r = 0; r < 50; r++)
        for (uint32_t i = 0; i < 3000; i++) {
            ptx_access_sets_add(&s, 0, false, 4096 + 4 * (uint64_t)((i * 7919u) % 3000), 4, 1);
            ptx_access_sets_add(&s, 1, false, 4096 + 4 * (uint64_t)(1500 + i), 4, 1);
        }
    ptx_locality_graph g;
    ptx_locality_build(&s, false, &g);
    assert_int_equal(g.nedges, 1);
    assert_int_equal(g.edges[0].w, 1500); /* elements 1500..2999 */
    assert_int_equal(g.addresses, 4500);
    ptx_locality_graph_free(&g);
    ptx_access_sets_free(&s);
}

static void test_u64map(void **state)
{
    (void)state;
    ptx_u64map m = {0};
    for (uint64_t k = 0; k < 100000; k++)
        *ptx_u64map_slot(&m, k * 0x10001ull, 0) += k;
    for (uint64_t k = 0; k < 100000; k += 3)
        *ptx_u64map_slot(&m, k * 0x10001ull, 0) += 1;
    assert_int_equal(m.n, 100000);
    for (uint64_t k = 0; k < 100000; k++) {
        const uint64_t *v = ptx_u64map_get(&m, k * 0x10001ull);
        assert_non_null(v);
        assert_int_equal(*v, k + (k % 3 == 0));
    }
    assert_null(ptx_u64map_get(&m, 7));
    ptx_u64map_free(&m);
    assert_null(ptx_u64map_get(&m, 0));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_graph_matches_pairwise),
        cmocka_unit_test(test_repeated_accesses),
        cmocka_unit_test(test_u64map),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
