/* test_lpc_random.c — the static likely-convergence rule (lpc.h) on random
 * control flow, against a direct implementation of its definition.
 *
 * The reference below is the rule as lpc.h states it, computed the obvious
 * way: for every conditional branch in a reducible loop, two searches over
 * successor edges from each of its successors (one avoiding the IPDOM, one
 * also avoiding the loop header), then the latch choice. It was the
 * library's own implementation before the searches were shared between
 * branches; it costs the size of the loop per branch. The library's result
 * must equal it with each search strategy (lpc_internal.h): forward only,
 * backward only, and the automatic switch between them.
 *
 * The functions are random PTX kernels: blocks ending in conditional or
 * unconditional jumps anywhere (loops, nested and irreducible ones,
 * breaks and continues), guarded and plain returns, jumps to the next
 * block, fall-through, and infinite loops; some are large loops holding
 * many exits, the shape for which the strategies differ most. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "analysis/dom.h"
#include "analysis/loops.h"
#include "analysis/lpc.h"
#include "analysis/lpc_internal.h"
#include "parser/parser.h"
#include "parser/tests/ptx_test.h"

/* ---- the reference ------------------------------------------------------- */

/* Blocks reachable from s without entering avoid or avoid2 (s itself unless
 * it is avoid), inside the outermost loop `region`: mark[v] = stamp. */
static void ref_reach(const ptx_function *f, uint32_t s, uint32_t avoid, uint32_t avoid2,
                      const uint32_t *outer, uint32_t region, uint32_t *mark, uint32_t stamp,
                      uint32_t *stack)
{
    if (s == avoid || outer[s] != region)
        return;
    uint32_t top = 0;
    mark[s] = stamp;
    stack[top++] = s;
    while (top) {
        const ptx_block *bk = &f->blocks[stack[--top]];
        for (uint32_t k = 0; k < bk->nsucc; k++) {
            uint32_t w = f->succs[bk->succ + k];
            if (w != avoid && w != avoid2 && mark[w] != stamp && outer[w] == region) {
                mark[w] = stamp;
                stack[top++] = w;
            }
        }
    }
}

/* The static rule of lpc.h, branch by branch. */
static uint32_t *ref_lpc_static(const ptx_function *f, const ptx_domtree *pdom,
                                const ptx_loops *loops)
{
    uint32_t n = f->nblocks;
    uint32_t *out = malloc((f->ninstrs + 1) * sizeof *out);
    uint32_t *mark[4], *stack = malloc(n * sizeof *stack), *outer = malloc(n * sizeof *outer);
    for (int k = 0; k < 4; k++)
        mark[k] = calloc(n, sizeof *mark[k]);
    for (uint32_t i = 0; i < f->ninstrs; i++)
        out[i] = PTX_NONE;
    for (uint32_t b = 0; b < n; b++) {
        uint32_t l = b < loops->nblocks ? loops->block_loop[b] : PTX_NONE;
        while (l != PTX_NONE && loops->loops[l].parent != PTX_NONE)
            l = loops->loops[l].parent;
        outer[b] = l;
    }
    uint32_t stamp = 0;
    for (uint32_t b = 0; b < f->exit_block; b++) {
        const ptx_block *bk = &f->blocks[b];
        if (bk->first == bk->end || bk->nsucc != 2 || f->instrs[bk->end - 1].guard == PTX_NONE)
            continue;
        uint32_t br = bk->end - 1, l = loops->block_loop[b];
        while (l != PTX_NONE && loops->loops[l].irreducible)
            l = loops->loops[l].parent;
        if (l == PTX_NONE)
            continue;
        const ptx_loop *lp = &loops->loops[l];
        uint32_t ip = pdom->idom[b], s[2] = {f->succs[bk->succ], f->succs[bk->succ + 1]};
        stamp++;
        for (int k = 0; k < 2; k++) {
            ref_reach(f, s[k], ip, PTX_NONE, outer, outer[b], mark[k], stamp, stack);
            ref_reach(f, s[k], ip, lp->header, outer, outer[b], mark[2 + k], stamp, stack);
        }
        uint32_t best = PTX_NONE, best_dist = UINT32_MAX;
        bool best_iter = false;
        for (uint32_t k = 0; k < lp->nlatches; k++) {
            uint32_t c = lp->latches[k];
            if (c == ip || mark[0][c] != stamp || mark[1][c] != stamp)
                continue;
            uint32_t first = f->blocks[c].first;
            uint32_t dist = first > br ? first - br : first + f->ninstrs - br;
            bool same_iter = mark[2][c] == stamp && mark[3][c] == stamp;
            if (best == PTX_NONE || (same_iter && !best_iter) ||
                (same_iter == best_iter && dist < best_dist)) {
                best = c;
                best_dist = dist;
                best_iter = same_iter;
            }
        }
        if (best != PTX_NONE)
            out[br] = f->blocks[best].first < f->ninstrs ? f->blocks[best].first : PTX_NONE;
    }
    for (int k = 0; k < 4; k++)
        free(mark[k]);
    free(stack);
    free(outer);
    return out;
}

/* ---- random kernels -------------------------------------------------------- */

/* xorshift64*: a seeded generator owned by the caller. */
static uint32_t rnd(uint64_t *s)
{
    *s ^= *s >> 12;
    *s ^= *s << 25;
    *s ^= *s >> 27;
    return (uint32_t)((*s * 0x2545F4914F6CDD1Dull) >> 32);
}

/* Append formatted text to buf (cap bytes, len used). */
static void put(char *buf, size_t cap, size_t *len, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(buf + *len, cap - *len, fmt, ap);
    va_end(ap);
    assert_true(n >= 0 && (size_t)n < cap - *len);
    *len += (size_t)n;
}

/* A random kernel of n blocks B0..B(n-1); with `loop_of_exits`, blocks 1..n-2
 * form one loop (the last one jumps back to B1) and most of them leave it:
 * a break to B(n-1), a guarded ret, a continue to the latch, or a small
 * hammock; otherwise every block ends in a random way. */
static char *random_kernel(uint64_t *s, uint32_t n, bool loop_of_exits)
{
    size_t cap = 256 + (size_t)n * 96, len = 0;
    char *text = malloc(cap);
    assert_non_null(text);
    put(text, cap, &len, PTX_TEST_HEADER ".visible .entry k()\n{\n.reg .pred %%p<2>;\n"
                          ".reg .b32 %%r<2>;\n");
    for (uint32_t b = 0; b < n; b++) {
        put(text, cap, &len, "B%u:\nadd.s32 %%r1, %%r1, 1;\n", b);
        uint32_t r = rnd(s) % 100, t = rnd(s) % n;
        if (loop_of_exits && b > 0 && b + 1 < n) {
            if (b + 2 == n)
                put(text, cap, &len, "@%%p1 bra B1;\n"); /* the latch */
            else if (r < 30)
                put(text, cap, &len, "@%%p1 bra B%u;\n", n - 1);
            else if (r < 45)
                put(text, cap, &len, "@%%p1 ret;\n");
            else if (r < 60)
                put(text, cap, &len, "@%%p1 bra B%u;\n", n - 2);
            else if (r < 80 && b + 3 < n)
                put(text, cap, &len, "@%%p1 bra B%u;\n", b + 2 + rnd(s) % 2);
            else if (r < 85)
                put(text, cap, &len, "@%%p1 bra B%u;\n", 1 + rnd(s) % (n - 2));
            continue;
        }
        if (r < 45)
            put(text, cap, &len, "@%%p1 bra B%u;\n", t);
        else if (r < 60)
            put(text, cap, &len, "bra.uni B%u;\n", t);
        else if (r < 66)
            put(text, cap, &len, "@%%p1 ret;\n");
        else if (r < 70)
            put(text, cap, &len, "ret;\n");
        else if (r < 73 && b + 1 < n)
            put(text, cap, &len, "@%%p1 bra B%u;\n", b + 1); /* to its own fall-through */
        /* else: fall through */
    }
    put(text, cap, &len, "ret;\n}\n");
    return text;
}

/* Compare the library with the reference on one kernel; false (with a
 * message) on the first difference. */
static bool same_lpcs(const char *text, const char *what)
{
    ptx_module *m = ptx_test_parse(text);
    const ptx_function *f = &m->functions[0];
    ptx_domtree dom, pdom;
    ptx_loops loops;
    ptx_dominators(f, &dom);
    ptx_postdominators(f, &pdom);
    ptx_loops_find(f, &dom, &loops);
    uint32_t *want = ref_lpc_static(f, &pdom, &loops);
    static const char *const names[] = {"auto", "forward", "backward"};
    const lpc_mode modes[] = {LPC_AUTO, LPC_FORWARD, LPC_BACKWARD};
    bool ok = true;
    for (int k = 0; k < 3 && ok; k++) {
        uint32_t *got = k == 0 ? ptx_lpc_static(f, &pdom, &loops)
                               : ptx_lpc_static_mode(f, &pdom, &loops, modes[k]);
        for (uint32_t i = 0; i < f->ninstrs && ok; i++)
            if (got[i] != want[i]) {
                print_error("%s (%s): instruction %u: lpc %d, reference %d\n%s", what, names[k],
                            i, (int)got[i], (int)want[i], text);
                ok = false;
            }
        free(got);
    }
    free(want);
    ptx_loops_free(&loops);
    ptx_domtree_free(&dom);
    ptx_domtree_free(&pdom);
    ptx_module_free(m);
    return ok;
}

/* Small kernels of every shape. */
static void test_random_kernels(void **state)
{
    (void)state;
    uint64_t seed = 0x9E3779B97F4A7C15ull;
    char what[64];
    for (int i = 0; i < 4000; i++) {
        uint32_t n = 2 + rnd(&seed) % 30;
        char *text = random_kernel(&seed, n, false);
        snprintf(what, sizeof what, "random kernel %d", i);
        bool ok = same_lpcs(text, what);
        free(text);
        assert_true(ok);
    }
}

/* Loops holding many exits, where the searches are shared (backward) once
 * the forward ones grow costly; and larger random kernels. */
static void test_loops_of_exits(void **state)
{
    (void)state;
    uint64_t seed = 12345;
    char what[64];
    for (int i = 0; i < 600; i++) {
        uint32_t n = 6 + rnd(&seed) % 200;
        char *text = random_kernel(&seed, n, i % 3 != 0);
        snprintf(what, sizeof what, "loop kernel %d", i);
        bool ok = same_lpcs(text, what);
        free(text);
        assert_true(ok);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_random_kernels),
        cmocka_unit_test(test_loops_of_exits),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
