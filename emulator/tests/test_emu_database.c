/* test_emu_database.c — the committed PTX of the database programs of
 * Narasiman's thesis (testdata/cudart/database: the full table scan and
 * the 31-ary index search, each variant, the extended ones with simtlab's
 * extensions of PTX), run without nvcc: the host side of each program is
 * done here in C, and the results are checked against a CPU scan and a
 * CPU binary search, as the programs themselves check them under simtlab
 * exec. Sizes are smaller than the programs' defaults (and the table's
 * rows not a multiple of the 1024 threads of a block), to keep the timing
 * model's run (the _timing test, emu_test.h) short. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "emulator/tests/emu_test.h"

#define THREADS 256 /* both kernels' blocks */

/* Open testdata/cudart/database/<variant>.sm_80.ptx with simtlab's
 * extensions accepted. */
static void open_variant(emu *e, const char *variant)
{
    char rel[256], path[4096];
    snprintf(rel, sizeof rel, "cudart/database/%s.sm_80.ptx", variant);
    ptx_test_path(path, sizeof path, rel);
    ptx_diags d = {0};
    ptx_parse_options opts = {.extensions = PTX_EXT_SIMTLAB};
    ptx_module *m = ptx_load_file_opts(path, 0, &opts, &d);
    if (!m)
        ptx_diags_print(&d, stderr);
    ptx_diags_free(&d);
    assert_non_null(m);
    emu_open_module(e, m);
}

/* splitmix64, as the programs draw their inputs (any generator would do). */
static uint64_t next_random(uint64_t *s)
{
    uint64_t z = (*s += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

static int by_value(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return x < y ? -1 : x > y;
}

/* table_scan(column, rows, max_value, out, count) on 2 blocks: the row
 * ids with value < max_value, as a set, are the CPU's. */
static void run_table_scan(const char *variant)
{
    enum { ROWS = 20000 };
    emu e;
    open_variant(&e, variant);
    int32_t *column = malloc(ROWS * sizeof *column);
    uint32_t *got = malloc(ROWS * sizeof *got), nwant = 0, count = 0;
    assert_non_null(column);
    assert_non_null(got);
    uint64_t s = 0x7AB1E5CAull;
    int32_t max_value = INT32_MIN + (int32_t)(0.3 * 4294967296.0); /* about 30 % of the rows */
    for (uint32_t k = 0; k < ROWS; k++) {
        column[k] = (int32_t)(uint32_t)(next_random(&s) >> 32);
        nwant += column[k] < max_value;
    }
    uint64_t d_column = emu_buf(&e, column, ROWS * sizeof *column), d_out = emu_buf(&e, NULL, ROWS * 4),
             d_count = emu_buf(&e, NULL, 4);
    uint32_t rows = ROWS;
    emu_run(&e, "_Z10table_scanPKijiPjS1_", emu_cfg(2, 1, THREADS, 1),
            (const void *[]){&d_column, &rows, &max_value, &d_out, &d_count});
    emu_read(&e, &count, d_count, 4);
    assert_int_equal(count, nwant);
    emu_read(&e, got, d_out, count * 4);
    qsort(got, count, 4, by_value);
    uint32_t i = 0;
    for (uint32_t k = 0; k < ROWS; k++)
        if (column[k] < max_value)
            assert_int_equal(got[i++], k);
    free(column);
    free(got);
    emu_close(&e);
}

static void test_table_scan(void **state)
{
    (void)state;
    run_table_scan("table_scan");
}

static void test_table_scan_ext(void **state)
{
    (void)state;
    run_table_scan("table_scan_ext");
}

/* The index tree of index_search.cu: 4 KB row nodes of 32 lines of 30
 * keys and 2 pads, breadth first, 961 row nodes below each. */
typedef struct tree {
    uint32_t *words, *pos;
    const uint32_t *keys;
    size_t next;
    unsigned levels;
} tree;

/* Fill line `line` of row node `node` (row level `level`) and what hangs
 * below it with the next keys in order, recording where each goes. */
static void fill(tree *t, size_t node, unsigned line, unsigned level)
{
    size_t at = node * 1024 + (size_t)line * 32;
    bool leaf = line != 0 && level + 1 == t->levels;
    for (unsigned c = 0; c <= 30; c++) {
        if (!leaf && line == 0)
            fill(t, node, 1 + c, level);
        else if (!leaf)
            fill(t, node * 961 + 1 + (size_t)(line - 1) * 31 + c, 0, level + 1);
        if (c < 30) {
            t->pos[t->next] = (uint32_t)(at + c);
            t->words[at + c] = t->keys[t->next++];
        }
    }
    t->words[at + 30] = t->words[at + 31] = 0xffffffffu;
}

/* index_search(tree, levels, queries, n, results) over a tree of `levels`
 * row levels on 2 blocks: each query's result is the word index of its key
 * (a CPU binary search finds it) or 0xffffffff. */
static void run_index_search(const char *variant, unsigned levels)
{
    enum { QUERIES = 512 };
    size_t nodes = levels == 1 ? 1 : 962, nkeys = nodes * 960;
    uint32_t *keys = malloc(nkeys * 4), queries[QUERIES], results[QUERIES];
    tree t = {calloc(nodes * 1024, 4), malloc(nkeys * 4), keys, 0, levels};
    assert_true(keys && t.words && t.pos);
    uint64_t s = 0x1DE5EA2Cull;
    uint32_t key = 0;
    for (size_t i = 0; i < nkeys; i++)
        keys[i] = key += 1 + (uint32_t)(next_random(&s) % 8);
    fill(&t, 0, 0, 0);
    assert_int_equal(t.next, nkeys);
    for (unsigned q = 0; q < QUERIES; q++)
        queries[q] = q % 2 ? keys[next_random(&s) % nkeys] : (uint32_t)(next_random(&s) % (key + 16));
    emu e;
    open_variant(&e, variant);
    memset(results, 0xff, sizeof results); /* not found */
    uint64_t d_tree = emu_buf(&e, t.words, nodes * 4096), d_queries = emu_buf(&e, queries, sizeof queries),
             d_results = emu_buf(&e, results, sizeof results);
    uint32_t nq = QUERIES;
    emu_run(&e, "_Z12index_searchPKjjS0_jPj", emu_cfg(2, 1, THREADS, 1),
            (const void *[]){&d_tree, &levels, &d_queries, &nq, &d_results});
    emu_read(&e, results, d_results, sizeof results);
    unsigned found = 0;
    for (unsigned q = 0; q < QUERIES; q++) {
        size_t lo = 0, hi = nkeys; /* the first key >= the query */
        while (lo < hi) {
            size_t mid = (lo + hi) / 2;
            if (keys[mid] < queries[q])
                lo = mid + 1;
            else
                hi = mid;
        }
        bool in = lo < nkeys && keys[lo] == queries[q];
        found += in;
        if (results[q] != (in ? t.pos[lo] : 0xffffffffu))
            fail_msg("%s, %u levels: query %u (key %u): %u, expected %u", variant, levels, q, queries[q],
                     results[q], in ? t.pos[lo] : 0xffffffffu);
    }
    assert_true(found >= QUERIES / 2);
    free(keys);
    free(t.words);
    free(t.pos);
    emu_close(&e);
}

/* Each variant over a one-level tree (960 keys) and a two-level one
 * (923,520 keys, 3.7 MiB). */
static void run_index_variant(const char *variant)
{
    run_index_search(variant, 1);
    run_index_search(variant, 2);
}

static void test_index_search(void **state)
{
    (void)state;
    run_index_variant("index_search");
}

static void test_index_search_tt(void **state)
{
    (void)state;
    run_index_variant("index_search_tt");
}

static void test_index_search_hint(void **state)
{
    (void)state;
    run_index_variant("index_search_hint");
}

static void test_index_search_tt_hint(void **state)
{
    (void)state;
    run_index_variant("index_search_tt_hint");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_table_scan),         cmocka_unit_test(test_table_scan_ext),
        cmocka_unit_test(test_index_search),       cmocka_unit_test(test_index_search_tt),
        cmocka_unit_test(test_index_search_hint),  cmocka_unit_test(test_index_search_tt_hint),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
