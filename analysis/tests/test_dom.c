/* test_dom.c — dominator and post-dominator trees against a brute force.
 *
 * The reference is the classic iterative data-flow formulation over bitsets
 * (Dom(root) = {root}; Dom(v) = {v} ∪ ⋂ Dom(p) over reachable predecessors),
 * written here independently of the library. The immediate dominator is the
 * strict dominator with the largest dominator set. It is compared with
 * ptx_domtree_build on every function of the PTX test files (forward from
 * the entry and backward from the virtual exit), on thousands of random
 * graphs, and a 200,000-node graph is built to show the code scales. */
#include <dirent.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "analysis/dom.h"
#include "parser/parser.h"

/* ---- a test-owned graph ------------------------------------------------ */

typedef struct tgraph { uint32_t n, m; uint32_t *start, *adj; } tgraph;

/* CSR graph from an edge list (from[i] -> to[i]); reverse swaps them. */
static tgraph make_graph(uint32_t n, const uint32_t *from, const uint32_t *to, uint32_t m,
                         int reverse)
{
    tgraph g = {n, m, calloc((size_t)n + 2, sizeof(uint32_t)), malloc(((size_t)m + 1) * 4)};
    const uint32_t *s = reverse ? to : from, *d = reverse ? from : to;
    for (uint32_t i = 0; i < m; i++)
        g.start[s[i] + 2]++;
    for (uint32_t v = 0; v < n; v++)
        g.start[v + 2] += g.start[v + 1];
    for (uint32_t i = 0; i < m; i++)
        g.adj[g.start[s[i] + 1]++] = d[i];
    return g;
}

/* The library's view of a test graph (no ownership). */
static ptx_graph view(const tgraph *g)
{
    return (ptx_graph){g->n, g->start, g->adj, NULL};
}

static void free_graph(tgraph *g)
{
    free(g->start);
    free(g->adj);
}

/* ---- brute force --------------------------------------------------------- */

typedef struct brute { uint32_t n, words; uint64_t *dom; bool *reach; uint32_t *idom; } brute;

static bool bit(const brute *b, uint32_t v, uint32_t d)
{
    return (b->dom[(size_t)v * b->words + d / 64] >> (d % 64)) & 1;
}

/* Nodes reachable from root by a plain worklist. */
static void brute_reach(const tgraph *g, uint32_t root, bool *reach)
{
    uint32_t *work = malloc(((size_t)g->n + 1) * 4), nw = 0;
    reach[root] = true;
    work[nw++] = root;
    while (nw) {
        uint32_t v = work[--nw];
        for (uint32_t k = g->start[v]; k < g->start[v + 1]; k++)
            if (!reach[g->adj[k]]) {
                reach[g->adj[k]] = true;
                work[nw++] = g->adj[k];
            }
    }
    free(work);
}

/* Round-robin fixpoint of the data-flow equations in node-id order (pushes
 * each node's set into its successors' intersection). */
static void brute_sets(const tgraph *g, uint32_t root, brute *b)
{
    uint32_t W = b->words;
    uint64_t *tmp = malloc((size_t)W * 8);
    for (uint32_t v = 0; v < g->n; v++)
        for (uint32_t w = 0; w < W; w++)
            b->dom[(size_t)v * W + w] = v == root ? 0 : ~0ull;
    b->dom[(size_t)root * W + root / 64] |= 1ull << (root % 64);
    bool changed = true;
    while (changed) {
        changed = false;
        for (uint32_t v = 0; v < g->n; v++) {
            if (v == root || !b->reach[v])
                continue;
            for (uint32_t w = 0; w < W; w++)
                tmp[w] = ~0ull;
            /* predecessors: scan all edges (quadratic is fine for a reference) */
            for (uint32_t u = 0; u < g->n; u++) {
                if (!b->reach[u])
                    continue;
                for (uint32_t k = g->start[u]; k < g->start[u + 1]; k++)
                    if (g->adj[k] == v)
                        for (uint32_t w = 0; w < W; w++)
                            tmp[w] &= b->dom[(size_t)u * W + w];
            }
            tmp[v / 64] |= 1ull << (v % 64);
            if (memcmp(tmp, &b->dom[(size_t)v * W], (size_t)W * 8)) {
                memcpy(&b->dom[(size_t)v * W], tmp, (size_t)W * 8);
                changed = true;
            }
        }
    }
    free(tmp);
}

/* Popcount of v's dominator set. */
static uint32_t set_size(const brute *b, uint32_t v)
{
    uint32_t c = 0;
    for (uint32_t w = 0; w < b->words; w++)
        c += (uint32_t)__builtin_popcountll(b->dom[(size_t)v * b->words + w]);
    return c;
}

/* Full brute-force dominance of g from root. */
static brute brute_build(const tgraph *g, uint32_t root)
{
    brute b = {g->n, (g->n + 63) / 64 + 1, NULL, calloc((size_t)g->n + 1, 1), NULL};
    b.dom = calloc((size_t)g->n * b.words + 1, 8);
    b.idom = malloc(((size_t)g->n + 1) * 4);
    brute_reach(g, root, b.reach);
    brute_sets(g, root, &b);
    for (uint32_t v = 0; v < g->n; v++) {
        b.idom[v] = PTX_NONE;
        if (!b.reach[v] || v == root)
            continue;
        uint32_t want = set_size(&b, v) - 1;
        for (uint32_t d = 0; d < g->n; d++)
            if (d != v && bit(&b, v, d) && set_size(&b, d) == want)
                b.idom[v] = d;
    }
    return b;
}

static void brute_free(brute *b)
{
    free(b->dom);
    free(b->reach);
    free(b->idom);
}

/* ---- comparison ---------------------------------------------------------- */

/* Compare ptx_domtree_build with the brute force on g from root: reachability,
 * reverse postorder consistency, idom, and dominance of every pair. */
static void check_graph(const tgraph *g, uint32_t root, const char *what)
{
    ptx_graph pg = view(g);
    ptx_domtree t;
    ptx_domtree_build(&pg, root, &t);
    brute b = brute_build(g, root);
    uint32_t nreach = 0;
    for (uint32_t v = 0; v < g->n; v++) {
        nreach += b.reach[v];
        if (ptx_reachable(&t, v) != b.reach[v])
            fail_msg("%s: node %u reachable %d, want %d", what, v, ptx_reachable(&t, v), b.reach[v]);
        if (!b.reach[v]) {
            assert_int_equal(t.rpo_index[v], PTX_NONE);
            assert_int_equal(t.idom[v], PTX_NONE);
            continue;
        }
        assert_int_equal(t.rpo[t.rpo_index[v]], v);
        if (t.idom[v] != b.idom[v])
            fail_msg("%s: idom(%u) = %u, want %u", what, v, t.idom[v], b.idom[v]);
        if (v != root)
            assert_true(t.rpo_index[t.idom[v]] < t.rpo_index[v]);
    }
    assert_int_equal(t.nrpo, nreach);
    assert_int_equal(t.rpo[0], root);
    assert_int_equal(t.root, root);
    assert_int_equal(t.idom[root], PTX_NONE);
    for (uint32_t a = 0; a < g->n; a++)
        for (uint32_t v = 0; v < g->n; v++) {
            bool want = b.reach[v] && b.reach[a] && bit(&b, v, a);
            if (ptx_dominates(&t, a, v) != want)
                fail_msg("%s: dominates(%u, %u) = %d, want %d", what, a, v, !want, want);
        }
    brute_free(&b);
    ptx_domtree_free(&t);
}

/* ---- PTX files ----------------------------------------------------------- */

/* Edge list of f's CFG as a test graph (built from blocks[].succ directly). */
static tgraph cfg_of(const ptx_function *f, int reverse)
{
    uint32_t *from = malloc(((size_t)f->nsuccs + 1) * 4), *to = malloc(((size_t)f->nsuccs + 1) * 4);
    uint32_t m = 0;
    for (uint32_t v = 0; v < f->nblocks; v++)
        for (uint32_t k = 0; k < f->blocks[v].nsucc; k++) {
            from[m] = v;
            to[m++] = f->succs[f->blocks[v].succ + k];
        }
    tgraph g = make_graph(f->nblocks, from, to, m, reverse);
    free(from);
    free(to);
    return g;
}

/* ptx_cfg_graph gives the same edges as the blocks' lists. */
static void check_cfg_graph(const ptx_function *f, int reverse)
{
    ptx_graph g;
    ptx_cfg_graph(f, reverse, &g);
    assert_int_equal(g.n, f->nblocks);
    for (uint32_t v = 0; v < f->nblocks; v++) {
        const ptx_block *b = &f->blocks[v];
        uint32_t cnt = reverse ? b->npred : b->nsucc, first = reverse ? b->pred : b->succ;
        assert_int_equal(g.start[v + 1] - g.start[v], cnt);
        for (uint32_t k = 0; k < cnt; k++)
            assert_int_equal(g.adj[g.start[v] + k], (reverse ? f->preds : f->succs)[first + k]);
    }
    ptx_graph_free(&g);
}

/* Check one function: CFG views, dominators and post-dominators (the
 * library entry points agree with ptx_domtree_build on the brute force). */
static void check_function(const ptx_function *f, const char *name)
{
    if (f->nblocks == 0)
        return;
    check_cfg_graph(f, 0);
    check_cfg_graph(f, 1);
    if (f->nblocks > 3000)
        return; /* the quadratic reference would be slow; none in testdata */
    tgraph fw = cfg_of(f, 0), bw = cfg_of(f, 1);
    check_graph(&fw, 0, name);
    check_graph(&bw, f->exit_block, name);
    ptx_domtree d, p;
    ptx_dominators(f, &d);
    ptx_postdominators(f, &p);
    brute bd = brute_build(&fw, 0), bp = brute_build(&bw, f->exit_block);
    for (uint32_t v = 0; v < f->nblocks; v++) {
        assert_int_equal(d.idom[v], bd.idom[v]);
        assert_int_equal(p.idom[v], bp.idom[v]);
    }
    brute_free(&bd);
    brute_free(&bp);
    ptx_domtree_free(&d);
    ptx_domtree_free(&p);
    free_graph(&fw);
    free_graph(&bw);
}

/* Every function of one file, if it parses (binaries included). */
static uint32_t check_file(const char *path, bool must_load)
{
    ptx_diags diags = {0};
    ptx_module *m = ptx_load_file(path, 0, &diags);
    ptx_diags_free(&diags);
    if (!m && must_load)
        fail_msg("%s does not load", path);
    if (!m)
        return 0;
    for (uint32_t i = 0; i < m->nfunctions; i++)
        check_function(&m->functions[i], path);
    uint32_t n = m->nfunctions;
    ptx_module_free(m);
    return n;
}

/* Every regular file of testdata/<sub>, each of which must load when
 * must_load (PTX directories; testdata/bin also holds sources and
 * scripts); returns the functions checked. */
static uint32_t check_dir(const char *sub, bool must_load)
{
    const char *root = getenv("SIMTLAB_TESTDATA");
    assert_non_null(root);
    char dir[2048], path[4096];
    snprintf(dir, sizeof dir, "%s/%s", root, sub);
    DIR *d = opendir(dir);
    assert_non_null(d);
    uint32_t n = 0;
    struct dirent *e;
    while ((e = readdir(d))) {
        size_t len = strlen(e->d_name);
        if (e->d_name[0] == '.' || (len > 3 && !strcmp(e->d_name + len - 3, ".sh")) ||
            (len > 3 && !strcmp(e->d_name + len - 3, ".cu")))
            continue;
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        n += check_file(path, must_load);
    }
    closedir(d);
    return n;
}

static void test_ptx_files(void **state)
{
    (void)state;
    uint32_t n = check_dir("ptx", true);
    assert_true(n > 50);
    assert_true(check_dir("hand", true) > 0);
    assert_true(check_dir("bin", false) > 0);
}

/* ---- random graphs --------------------------------------------------------- */

/* xorshift64*: a seeded generator owned by the caller. */
static uint32_t rnd(uint64_t *s)
{
    *s ^= *s >> 12;
    *s ^= *s << 25;
    *s ^= *s >> 27;
    return (uint32_t)((*s * 0x2545F4914F6CDD1Dull) >> 32);
}

/* A random graph: n nodes, a density drawn per graph, sometimes an explicit
 * irreducible cycle (two entries into a 2-cycle) and self loops. */
static tgraph random_graph(uint64_t *s, uint32_t *from, uint32_t *to)
{
    uint32_t n = 1 + rnd(s) % 60, m = 0;
    uint32_t per = rnd(s) % 4; /* 0..3 edges per node on average */
    uint32_t ne = n * per + rnd(s) % (n + 1);
    for (uint32_t i = 0; i < ne && m < 4000; i++) {
        from[m] = rnd(s) % n;
        /* mostly forward edges so that long paths and joins appear */
        to[m] = rnd(s) % 3 ? (from[m] + 1 + rnd(s) % 5) % n : rnd(s) % n;
        m++;
    }
    if (n >= 4 && rnd(s) % 2) { /* 0 -> a, 0 -> b, a <-> b: irreducible */
        uint32_t a = 1 + rnd(s) % (n - 1), b = 1 + rnd(s) % (n - 1);
        uint32_t e[4][2] = {{0, a}, {0, b}, {a, b}, {b, a}};
        for (int k = 0; k < 4; k++, m++) {
            from[m] = e[k][0];
            to[m] = e[k][1];
        }
    }
    if (rnd(s) % 3 == 0) {
        from[m] = to[m] = rnd(s) % n;
        m++;
    }
    return make_graph(n, from, to, m, 0);
}

static void test_random_graphs(void **state)
{
    (void)state;
    uint64_t seed = 0x5eed1234abcdULL;
    uint32_t *from = malloc(5000 * 4), *to = malloc(5000 * 4);
    for (int i = 0; i < 4000; i++) {
        tgraph g = random_graph(&seed, from, to);
        char what[64];
        snprintf(what, sizeof what, "random graph %d (dom)", i);
        check_graph(&g, 0, what);
        /* post-dominators: the reverse graph from the last node as exit */
        uint32_t m = 0;
        for (uint32_t v = 0; v < g.n; v++)
            for (uint32_t k = g.start[v]; k < g.start[v + 1]; k++) {
                from[m] = v;
                to[m++] = g.adj[k];
            }
        tgraph r = make_graph(g.n, from, to, m, 1);
        snprintf(what, sizeof what, "random graph %d (postdom)", i);
        check_graph(&r, g.n - 1, what);
        /* and from a random root, which leaves other nodes unreachable */
        snprintf(what, sizeof what, "random graph %d (root)", i);
        check_graph(&g, rnd(&seed) % g.n, what);
        free_graph(&r);
        free_graph(&g);
    }
    free(from);
    free(to);
}

/* Hand-checked small cases: a single node, an unreachable node, a self loop,
 * and a node that never reaches the exit. */
static void test_small_cases(void **state)
{
    (void)state;
    /* 0 -> 1 -> 3, 0 -> 2 -> 3, 2 -> 2, 4 -> 3 (4 unreachable), 1 -> 5 -> 5 */
    uint32_t from[] = {0, 1, 0, 2, 2, 4, 1, 5}, to[] = {1, 3, 2, 3, 2, 3, 5, 5};
    tgraph g = make_graph(6, from, to, 8, 0);
    ptx_graph pg = view(&g);
    ptx_domtree t;
    ptx_domtree_build(&pg, 0, &t);
    uint32_t want[] = {PTX_NONE, 0, 0, 0, PTX_NONE, 1};
    for (uint32_t v = 0; v < 6; v++)
        assert_int_equal(t.idom[v], want[v]);
    assert_false(ptx_reachable(&t, 4));
    assert_false(ptx_dominates(&t, 4, 4));
    assert_false(ptx_dominates(&t, 0, 4));
    assert_true(ptx_dominates(&t, 3, 3));
    assert_true(ptx_dominates(&t, 1, 5));
    assert_false(ptx_dominates(&t, 1, 3));
    assert_int_equal(t.nrpo, 5);
    ptx_domtree_free(&t);
    /* post-dominators from 3: 5 never reaches it */
    tgraph r = make_graph(6, from, to, 8, 1);
    pg = view(&r);
    ptx_domtree_build(&pg, 3, &t);
    uint32_t pwant[] = {3, 3, 3, PTX_NONE, 3, PTX_NONE};
    for (uint32_t v = 0; v < 6; v++)
        assert_int_equal(t.idom[v], pwant[v]);
    assert_false(ptx_reachable(&t, 5));
    ptx_domtree_free(&t);
    /* one node, no edges */
    tgraph one = make_graph(1, from, to, 0, 0);
    pg = view(&one);
    ptx_domtree_build(&pg, 0, &t);
    assert_int_equal(t.nrpo, 1);
    assert_true(ptx_dominates(&t, 0, 0));
    ptx_domtree_free(&t);
    free_graph(&one);
    free_graph(&r);
    free_graph(&g);
}

/* A 200,000-node ladder of diamonds (fork k: 3k -> 3k+1, 3k+2 -> 3k+3) with
 * a back edge from the end to the start: idoms are known in closed form. */
static void test_large_ladder(void **state)
{
    (void)state;
    const uint32_t K = 66667, n = 3 * K + 1;
    uint32_t *from = malloc((size_t)5 * n * 4), *to = malloc((size_t)5 * n * 4), m = 0;
    for (uint32_t k = 0; k < K; k++) {
        uint32_t f = 3 * k;
        uint32_t e[4][2] = {{f, f + 1}, {f, f + 2}, {f + 1, f + 3}, {f + 2, f + 3}};
        for (int i = 0; i < 4; i++, m++) {
            from[m] = e[i][0];
            to[m] = e[i][1];
        }
    }
    from[m] = n - 1;
    to[m++] = 0;
    tgraph g = make_graph(n, from, to, m, 0), r = make_graph(n, from, to, m, 1);
    ptx_graph pg = view(&g), pr = view(&r);
    ptx_domtree t, p;
    ptx_domtree_build(&pg, 0, &t);
    ptx_domtree_build(&pr, n - 1, &p);
    assert_int_equal(t.nrpo, n);
    for (uint32_t v = 1; v < n; v++) {
        uint32_t fork = v % 3 == 0 ? v - 3 : v - v % 3;
        assert_int_equal(t.idom[v], fork);
        uint32_t join = v % 3 == 0 ? v + 3 : v - v % 3 + 3;
        if (v < n - 1)
            assert_int_equal(p.idom[v], join);
    }
    assert_int_equal(p.idom[0], 3);
    assert_true(ptx_dominates(&t, 0, n - 1));
    assert_true(ptx_dominates(&p, n - 1, 0));
    assert_false(ptx_dominates(&t, 1, n - 1));
    ptx_domtree_free(&t);
    ptx_domtree_free(&p);
    free_graph(&g);
    free_graph(&r);
    free(from);
    free(to);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_small_cases),
        cmocka_unit_test(test_random_graphs),
        cmocka_unit_test(test_ptx_files),
        cmocka_unit_test(test_large_ladder),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
