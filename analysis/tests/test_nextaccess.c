/* test_nextaccess.c — next-access kinds, liveness and idle estimates checked
 * against an independent reference: an explicit search over the paths from
 * each access (instruction positions with a visited set, so loops terminate)
 * collecting which kinds of first access the paths meet; hand-written
 * kernels with known answers; every function of the O3 testdata files under
 * a size bound; a brute-force live count on small functions. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "analysis/defuse.h"
#include "analysis/nextaccess.h"
#include "analysis/nextaccess_internal.h"
#include "parser/parser.h"
#include "parser/tests/ptx_test.h"

/* Parse a kernel body after the usual register declarations. */
static ptx_module *parse_body(const char *body) { return ptx_test_parse_body("", body); }

/* ---- reference: path search ------------------------------------------- */

enum { SEEN_R = 1, SEEN_W = 2, SEEN_N = 4 };

typedef struct ref {
    const ptx_function *f;
    const ptx_defuse *du;
    uint32_t *visited;   /* per instruction: stamp */
    uint32_t *bvisited;  /* per block: stamp */
    uint32_t stamp;
    uint32_t *stack;     /* instruction indices to explore */
    uint32_t nstack;
} ref;

static bool lists(const uint32_t *v, uint32_t a, uint32_t b, uint32_t r)
{
    for (uint32_t k = a; k < b; k++)
        if (v[k] == r)
            return true;
    return false;
}
static bool rd_has(const ptx_defuse *du, uint32_t i, uint32_t r)
{
    return lists(du->reads, du->rstart[i], du->rstart[i + 1], r);
}
static bool wr_has(const ptx_defuse *du, uint32_t i, uint32_t r)
{
    return lists(du->writes, du->wstart[i], du->wstart[i + 1], r);
}

/* Enter block b: push its first instruction, or note the end of the
 * function, or walk through an empty block. */
static void enter_block(ref *x, uint32_t b, unsigned *seen)
{
    const ptx_function *f = x->f;
    if (b == f->exit_block) {
        *seen |= SEEN_N;
        return;
    }
    if (x->bvisited[b] == x->stamp)
        return;
    x->bvisited[b] = x->stamp;
    const ptx_block *bk = &f->blocks[b];
    if (bk->first < bk->end) {
        if (x->visited[bk->first] != x->stamp) {
            x->visited[bk->first] = x->stamp;
            x->stack[x->nstack++] = bk->first;
        }
        return;
    }
    for (uint32_t k = 0; k < bk->nsucc; k++)
        enter_block(x, f->succs[bk->succ + k], seen);
}

/* Push the positions following instruction i. */
static void push_after(ref *x, uint32_t i, unsigned *seen)
{
    const ptx_function *f = x->f;
    uint32_t b = f->instr_block[i];
    if (i + 1 < f->blocks[b].end) {
        if (x->visited[i + 1] != x->stamp) {
            x->visited[i + 1] = x->stamp;
            x->stack[x->nstack++] = i + 1;
        }
        return;
    }
    for (uint32_t k = 0; k < f->blocks[b].nsucc; k++)
        enter_block(x, f->succs[f->blocks[b].succ + k], seen);
}

/* Kinds of first access to r met by paths starting at the stacked positions. */
static unsigned explore(ref *x, uint32_t r, unsigned seen)
{
    while (x->nstack) {
        uint32_t j = x->stack[--x->nstack];
        if (rd_has(x->du, j, r))
            seen |= SEEN_R;
        else if (wr_has(x->du, j, r))
            seen |= SEEN_W;
        else
            push_after(x, j, &seen);
    }
    return seen;
}

static ptx_next_kind kind_from(unsigned seen)
{
    switch (seen) {
    case 0: case SEEN_N: return PTX_NEXT_NONE;
    case SEEN_R: return PTX_NEXT_READ;
    case SEEN_W: case SEEN_W | SEEN_N: return PTX_NEXT_WRITE;
    default: return PTX_NEXT_UNDETERMINED;
    }
}

/* Reference next kind of an access. */
static ptx_next_kind ref_next(ref *x, uint32_t pc, uint32_t r, bool is_write)
{
    if (!is_write && x->f->instrs[pc].guard == PTX_NONE && wr_has(x->du, pc, r))
        return PTX_NEXT_WRITE;
    x->stamp++;
    x->nstack = 0;
    unsigned seen = 0;
    push_after(x, pc, &seen);
    return kind_from(explore(x, r, seen));
}

/* Reference: is r live on entry to instruction i (some path reads it first)? */
static bool ref_live_at(ref *x, uint32_t i, uint32_t r)
{
    x->stamp++;
    x->nstack = 0;
    x->visited[i] = x->stamp;
    x->stack[x->nstack++] = i;
    return explore(x, r, 0) & SEEN_R;
}

/* Reference idle estimate of the write of r by instruction pc: the least
 * latency from the end of pc to the start of an instruction accessing r, or
 * to the function end, over instruction positions (Bellman-Ford on the
 * instruction graph, positions n = the end); capped at PTX_IDLE_MAX. lat
 * holds the default latency of every instruction. */
static uint32_t ref_idle(const ref *x, const uint32_t *lat, uint32_t pc, uint32_t r)
{
    const ptx_function *f = x->f;
    uint32_t n = f->ninstrs;
    uint64_t *dist = malloc((n + 1) * sizeof *dist);
    for (uint32_t j = 0; j <= n; j++)
        dist[j] = UINT64_MAX;
    /* start: the positions after pc */
    uint32_t b = f->instr_block[pc];
    uint32_t starts[64], ns = 0;
    if (pc + 1 < f->blocks[b].end)
        starts[ns++] = pc + 1;
    else
        for (uint32_t k = 0; k < f->blocks[b].nsucc; k++) {
            uint32_t s = f->succs[f->blocks[b].succ + k];
            while (s != f->exit_block && f->blocks[s].first == f->blocks[s].end &&
                   f->blocks[s].nsucc == 1)
                s = f->succs[f->blocks[s].succ]; /* through empty blocks */
            starts[ns++] = s == f->exit_block ? n : f->blocks[s].first;
        }
    for (uint32_t k = 0; k < ns; k++)
        dist[starts[k]] = 0;
    uint64_t best = PTX_IDLE_MAX;
    for (bool changed = true; changed;) {
        changed = false;
        for (uint32_t j = 0; j < n; j++) {
            if (dist[j] == UINT64_MAX || rd_has(x->du, j, r) || wr_has(x->du, j, r))
                continue; /* unreached, or the search ends here */
            uint32_t jb = f->instr_block[j];
            uint32_t next[64], nn = 0;
            if (j + 1 < f->blocks[jb].end)
                next[nn++] = j + 1;
            else
                for (uint32_t k = 0; k < f->blocks[jb].nsucc; k++) {
                    uint32_t s = f->succs[f->blocks[jb].succ + k];
                    next[nn++] = s == f->exit_block ? n : f->blocks[s].first;
                }
            for (uint32_t k = 0; k < nn; k++)
                if (dist[j] + lat[j] < dist[next[k]]) {
                    dist[next[k]] = dist[j] + lat[j];
                    changed = true;
                }
        }
    }
    for (uint32_t j = 0; j <= n; j++)
        if (dist[j] != UINT64_MAX && (j == n || rd_has(x->du, j, r) || wr_has(x->du, j, r)) &&
            dist[j] < best)
            best = dist[j];
    free(dist);
    return (uint32_t)best;
}

/* Compare the analysis of f with the reference; `brute` adds the liveness
 * and idle checks (cubic, small functions only). */
static void verify_mode(const ptx_module *m, const ptx_function *f, bool brute, bool dense,
                        const char *what)
{
    ptx_defuse du;
    ptx_defuse_build(m, f, &du);
    ptx_nextaccess na;
    na_analyze(m, f, &du, NULL, NULL, dense ? NA_DENSE : NA_SPARSE, &na);
    ref x = {f, &du, calloc(f->ninstrs + 1, 4), calloc(f->nblocks + 1, 4), 0,
             malloc((f->ninstrs + 1) * 4), 0};
    assert_int_equal(na.nacc, du.rstart[f->ninstrs] + du.wstart[f->ninstrs]);
    uint32_t *lat = malloc((f->ninstrs + 1) * sizeof *lat);
    for (uint32_t i = 0; i < f->ninstrs; i++)
        lat[i] = ptx_default_latency(m, &f->instrs[i], NULL);
    for (uint32_t a = 0; a < na.nacc; a++) {
        const ptx_access *ac = &na.acc[a];
        if (a > 0) {
            const ptx_access *p = &na.acc[a - 1];
            assert_true(p->pc < ac->pc || (p->pc == ac->pc && p->is_write <= ac->is_write));
        }
        if (!ac->is_write)
            assert_int_equal(ac->idle, 0);
        else if (brute && f->nblocks <= PTX_IDLE_SEARCH) {
            uint32_t want = ref_idle(&x, lat, ac->pc, ac->reg);
            if (ac->idle != want)
                fail_msg("%s %s: pc %u reg %u: idle %u, reference %u", what,
                         ptx_function_name(m, f), ac->pc, ac->reg, ac->idle, want);
        }
        ptx_next_kind want = ref_next(&x, ac->pc, ac->reg, ac->is_write);
        if (ac->next != want)
            fail_msg("%s %s: pc %u reg %u %s: next %s, reference %s", what,
                     ptx_function_name(m, f), ac->pc, ac->reg, ac->is_write ? "write" : "read",
                     ptx_next_kind_name((ptx_next_kind)ac->next), ptx_next_kind_name(want));
    }
    if (brute) {
        uint32_t max_live = 0;
        for (uint32_t i = 0; i < f->ninstrs; i++) {
            uint32_t live = 0;
            for (uint32_t r = 0; r < f->nregs; r++)
                live += ref_live_at(&x, i, r);
            if (na.live[i] != live)
                fail_msg("%s: pc %u: %u live, reference %u", what, i, na.live[i], live);
            if (live > max_live)
                max_live = live;
        }
        assert_int_equal(na.max_live, max_live);
    }
    free(lat);
    free(x.visited);
    free(x.bvisited);
    free(x.stack);
    ptx_nextaccess_free(&na);
    ptx_defuse_free(&du);
}

/* verify_mode with the sparse solver, then with the dense one. */
static void verify(const ptx_module *m, const ptx_function *f, bool brute, const char *what)
{
    verify_mode(m, f, brute, false, what);
    verify_mode(m, f, brute, true, what);
}

/* Analyse with the default latencies; the caller frees. */
static void analyze(const ptx_module *m, const ptx_function *f, ptx_defuse *du,
                    ptx_nextaccess *na)
{
    ptx_defuse_build(m, f, du);
    ptx_nextaccess_analyze(m, f, du, NULL, NULL, na);
}

/* The access (pc, reg, is_write); fails when absent. */
static const ptx_access *acc(const ptx_nextaccess *na, uint32_t pc, uint32_t r, bool w)
{
    for (uint32_t a = 0; a < na->nacc; a++)
        if (na->acc[a].pc == pc && na->acc[a].reg == r && na->acc[a].is_write == w)
            return &na->acc[a];
    fail_msg("no access pc %u reg %u %s", pc, r, w ? "write" : "read");
    return NULL;
}

#define NEXT(pc, r, w, k) assert_int_equal(acc(&na, pc, r, w)->next, PTX_NEXT_##k)
#define IDLE(pc, r, v) assert_int_equal(acc(&na, pc, r, true)->idle, v)
#define R(i) ptx_test_reg(m, f, "%r", i)
#define RD(i) ptx_test_reg(m, f, "%rd", i)
#define P(i) ptx_test_reg(m, f, "%p", i)
#define F(i) ptx_test_reg(m, f, "%f", i)

static void test_straight_line(void **state)
{
    (void)state;
    ptx_module *m = parse_body(
        "ld.param.u64 %rd1, [k_p0];\n"       /* 0: 30 */
        "mov.u32 %r1, %tid.x;\n"             /* 1: 4 */
        "ld.global.u32 %r2, [%rd1];\n"       /* 2: 400 */
        "sin.approx.f32 %f1, %f2;\n"         /* 3: 20 */
        "add.s32 %r3, %r1, %r2;\n"           /* 4: 4 */
        "ld.shared.u32 %r4, [%rd2];\n"       /* 5: 30 */
        "st.global.u32 [%rd1], %r3;\n"       /* 6: 400 */
        "ret;");                             /* 7: 1 */
    const ptx_function *f = ptx_test_kernel(m);
    ptx_defuse du;
    ptx_nextaccess na;
    analyze(m, f, &du, &na);
    NEXT(0, RD(1), true, READ);
    NEXT(2, RD(1), false, READ);
    NEXT(6, RD(1), false, NONE);
    NEXT(1, R(1), true, READ);
    NEXT(4, R(1), false, NONE);
    NEXT(3, F(2), false, NONE);
    NEXT(3, F(1), true, NONE);
    /* idle = latencies strictly between the write and the next access */
    IDLE(0, RD(1), 4);
    IDLE(1, R(1), 400 + 20);
    IDLE(2, R(2), 20);
    IDLE(4, R(3), 30);
    IDLE(3, F(1), 4 + 30 + 400 + 1);  /* no next access: to the end */
    IDLE(5, R(4), 400 + 1);
    /* live on entry to 3: rd1, r1, r2 and the never-written f2, rd2 */
    assert_int_equal(na.max_live, 5);
    ptx_nextaccess_free(&na);
    ptx_defuse_free(&du);
    verify(m, f, true, "straight");
    ptx_module_free(m);
}

static void test_idle_cross_block(void **state)
{
    (void)state;
    ptx_module *m = parse_body(
        "mov.u32 %r1, 5;\n"                  /* 0: 4 */
        "setp.eq.s32 %p1, %r2, 0;\n"         /* 1: 4 */
        "@%p1 bra $L1;\n"                    /* 2: 1 */
        "add.s32 %r3, %r3, 1;\n"             /* 3: 4 */
        "add.s32 %r1, %r1, 1;\n"             /* 4: 4 */
        "$L1:\n"
        "mul.lo.s32 %r4, %r4, 3;\n"          /* 5: 4 */
        "mul.lo.s32 %r4, %r4, 3;\n"          /* 6: 4 */
        "add.s32 %r5, %r1, 2;\n"             /* 7: 4 */
        "ret;");
    const ptx_function *f = ptx_test_kernel(m);
    ptx_defuse du;
    ptx_nextaccess na;
    analyze(m, f, &du, &na);
    IDLE(0, R(1), (4 + 1) + 4);      /* block tail, then min(head B1 = 4, head B2 = 8) */
    IDLE(4, R(1), 0 + 8);            /* end of B1, then B2's head before pc 7 */
    IDLE(7, R(5), 1);                /* dead: to the end */
    NEXT(0, R(1), true, READ);
    ptx_nextaccess_free(&na);
    ptx_defuse_free(&du);
    verify(m, f, true, "cross");
    ptx_module_free(m);
}

static void test_if_else(void **state)
{
    (void)state;
    ptx_module *m = parse_body(
        "setp.eq.s32 %p1, %r1, 0;\n"         /* 0 */
        "mov.u32 %r2, 1;\n"                  /* 1 */
        "@%p1 bra $ELSE;\n"                  /* 2 */
        "add.s32 %r3, %r2, 1;\n"             /* 3 */
        "bra $END;\n"                        /* 4 */
        "$ELSE:\nmov.u32 %r2, 7;\n"          /* 5 */
        "$END:\nst.global.u32 [%rd1], %r2;\n"/* 6 */
        "ret;");
    const ptx_function *f = ptx_test_kernel(m);
    ptx_defuse du;
    ptx_nextaccess na;
    analyze(m, f, &du, &na);
    NEXT(1, R(2), true, UNDETERMINED);
    NEXT(3, R(2), false, READ);
    NEXT(5, R(2), true, READ);
    NEXT(0, R(1), false, NONE);
    NEXT(0, P(1), true, READ);
    NEXT(2, P(1), false, NONE);
    NEXT(3, R(3), true, NONE);
    ptx_nextaccess_free(&na);
    ptx_defuse_free(&du);
    verify(m, f, true, "ifelse");
    ptx_module_free(m);
}

static void test_loop(void **state)
{
    (void)state;
    ptx_module *m = parse_body(
        "mov.u32 %r1, 10;\n"                 /* 0 */
        "mov.u32 %r2, 0;\n"                  /* 1 */
        "$LOOP:\nadd.s32 %r2, %r2, %r1;\n"   /* 2 */
        "setp.lt.s32 %p1, %r2, 100;\n"       /* 3 */
        "@%p1 bra $LOOP;\n"                  /* 4 */
        "st.global.u32 [%rd1], %r2;\n"       /* 5 */
        "ret;");
    const ptx_function *f = ptx_test_kernel(m);
    ptx_defuse du;
    ptx_nextaccess na;
    analyze(m, f, &du, &na);
    NEXT(0, R(1), true, READ);
    NEXT(2, R(1), false, UNDETERMINED);  /* next iteration reads, exit does not */
    NEXT(2, R(2), false, WRITE);         /* the same instruction overwrites it */
    NEXT(2, R(2), true, READ);
    NEXT(3, R(2), false, READ);
    NEXT(4, P(1), false, WRITE);         /* rewritten in the loop, dead after it */
    NEXT(3, P(1), true, READ);
    /* on entry to the loop body r1, r2 and rd1 are live; p1 is not */
    assert_int_equal(na.live[2], 3);
    ptx_nextaccess_free(&na);
    ptx_defuse_free(&du);
    verify(m, f, true, "loop");
    ptx_module_free(m);
}

static void test_overwritten_and_guarded(void **state)
{
    (void)state;
    ptx_module *m = parse_body(
        "mov.u32 %r1, 1;\n"                  /* 0 */
        "@%p1 bra $A;\n"                     /* 1 */
        "mov.u32 %r1, 2;\n"                  /* 2 */
        "bra $B;\n"                          /* 3 */
        "$A:\nmov.u32 %r1, 3;\n"             /* 4 */
        "$B:\nst.global.u32 [%rd1], %r1;\n"  /* 5 */
        "mov.u32 %r2, 1;\n"                  /* 6 */
        "@%p2 mov.u32 %r2, 2;\n"             /* 7 */
        "st.global.u32 [%rd1], %r2;\n"       /* 8 */
        "add.cc.u32 %r3, %r3, 1;\n"          /* 9 */
        "addc.u32 %r4, %r4, 0;\n"            /* 10 */
        "ret;");
    const ptx_function *f = ptx_test_kernel(m);
    const uint32_t cc = PTX_DEFUSE_CC(f);
    ptx_defuse du;
    ptx_nextaccess na;
    analyze(m, f, &du, &na);
    NEXT(0, R(1), true, WRITE);
    NEXT(1, P(1), false, NONE);
    NEXT(5, R(1), false, NONE);
    NEXT(6, R(2), true, READ);           /* the guarded write may keep it */
    NEXT(7, R(2), false, READ);
    NEXT(7, R(2), true, READ);
    NEXT(9, cc, true, READ);
    NEXT(10, cc, false, NONE);
    ptx_nextaccess_free(&na);
    ptx_defuse_free(&du);
    verify(m, f, true, "overwrite");
    ptx_module_free(m);
}

static void test_infinite_loop(void **state)
{
    (void)state;
    ptx_module *m = parse_body(
        "mov.u32 %r1, 1;\n"
        "$L:\nadd.s32 %r2, %r2, 1;\n"
        "bra $L;");
    const ptx_function *f = ptx_test_kernel(m);
    verify(m, f, true, "spin");
    ptx_module_free(m);
}

/* 400 branches to one join J, each skipping a block that reads %r3; J
 * leads either to a read of %r3 or to the end. In %r3's sparse graph J is a
 * merge point that 400 merge points (the branches) lead to: more than a
 * byte counts, and J's kinds change after the branches are first solved,
 * so every one of them must be solved again. The kinds must match the
 * reference, sparse and dense. */
static void test_many_exits(void **state)
{
    (void)state;
    enum { BRANCHES = 400 };
    size_t cap = 256 + BRANCHES * 96, len = 0;
    char *body = malloc(cap);
    assert_non_null(body);
    len += (size_t)snprintf(body + len, cap - len, "mov.u32 %%r3, 2;\n");
    for (int i = 0; i < BRANCHES; i++)
        len += (size_t)snprintf(body + len, cap - len,
                                "setp.eq.s32 %%p1, %%r2, %d;\n@%%p1 bra $J;\n"
                                "add.s32 %%r2, %%r3, %d;\n", i, i);
    snprintf(body + len, cap - len, "$J:\n@%%p2 bra $X;\nret;\n$X:\nadd.s32 %%r4, %%r3, 1;\nret;");
    ptx_module *m = parse_body(body);
    free(body);
    const ptx_function *f = ptx_test_kernel(m);
    verify(m, f, false, "many exits");
    ptx_module_free(m);
}

static void test_kind_names(void **state)
{
    (void)state;
    assert_string_equal(ptx_next_kind_name(PTX_NEXT_NONE), "none");
    assert_string_equal(ptx_next_kind_name(PTX_NEXT_READ), "read");
    assert_string_equal(ptx_next_kind_name(PTX_NEXT_WRITE), "write");
    assert_string_equal(ptx_next_kind_name(PTX_NEXT_UNDETERMINED), "undetermined");
}

/* xorshift64 step: the random kernels are the same on every run. */
static uint64_t next_rand(uint64_t *x)
{
    *x ^= *x << 13;
    *x ^= *x >> 7;
    *x ^= *x << 17;
    return *x;
}

/* Append to a fixed buffer. */
static void put(char *buf, size_t cap, size_t *len, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(buf + *len, cap - *len, fmt, ap);
    va_end(ap);
    assert_true(n >= 0 && (size_t)n < cap - *len);
    *len += (size_t)n;
}

/* Random control flow — irreducible loops, infinite loops, blocks that
 * never reach the end, empty blocks, guarded writes, long latencies —
 * over a few registers, against the reference. */
static void test_random_kernels(void **state)
{
    (void)state;
    uint64_t seed = 0x9E3779B97F4A7C15u;
    static char body[16384];
    for (unsigned iter = 0; iter < 1500; iter++) {
        size_t len = 0;
        unsigned nb = 2 + (unsigned)(next_rand(&seed) % 14);
        for (unsigned b = 0; b < nb; b++) {
            put(body, sizeof body, &len, "$L%u:\n", b);
            unsigned ni = (unsigned)(next_rand(&seed) % 4);
            for (unsigned i = 0; i < ni; i++) {
                unsigned a = 1 + (unsigned)(next_rand(&seed) % 4);
                unsigned c = 1 + (unsigned)(next_rand(&seed) % 4);
                unsigned p = 1 + (unsigned)(next_rand(&seed) % 2);
                switch (next_rand(&seed) % 6) {
                case 0: put(body, sizeof body, &len, "add.s32 %%r%u, %%r%u, %%r%u;\n", a, c, a); break;
                case 1: put(body, sizeof body, &len, "mov.u32 %%r%u, %u;\n", a, c); break;
                case 2: put(body, sizeof body, &len, "@%%p%u mov.u32 %%r%u, %%r%u;\n", p, a, c); break;
                case 3: put(body, sizeof body, &len, "setp.lt.s32 %%p%u, %%r%u, %%r%u;\n", p, a, c); break;
                case 4: put(body, sizeof body, &len, "st.global.u32 [%%rd1], %%r%u;\n", a); break;
                default: put(body, sizeof body, &len, "ld.global.u32 %%r%u, [%%rd1];\n", a); break;
                }
            }
            unsigned t = (unsigned)(next_rand(&seed) % nb);
            unsigned p = 1 + (unsigned)(next_rand(&seed) % 2);
            if (b == nb - 1) {
                put(body, sizeof body, &len, "@%%p%u bra $L%u;\nret;\n", p, t);
                continue;
            }
            switch (next_rand(&seed) % 5) {
            case 0: put(body, sizeof body, &len, "bra $L%u;\n", t); break;
            case 1: case 2: put(body, sizeof body, &len, "@%%p%u bra $L%u;\n", p, t); break;
            case 3: put(body, sizeof body, &len, "@%%p%u ret;\n", p); break;
            default: break; /* fall through */
            }
        }
        ptx_module *m = parse_body(body);
        char what[32];
        snprintf(what, sizeof what, "random %u", iter);
        verify(m, ptx_test_kernel(m), true, what);
        ptx_module_free(m);
    }
}

/* Counts over the testdata functions test_testdata verifies. */
typedef struct testdata_counts {
    unsigned nfuncs, nbrute;
} testdata_counts;

/* ptx_test_file_fn: verifies every function with a body and at most 3000
 * instructions; liveness by brute force when small. */
static void verify_file(const ptx_module *m, const char *name, void *counts)
{
    testdata_counts *c = counts;
    for (uint32_t i = 0; i < m->nfunctions; i++) {
        const ptx_function *f = &m->functions[i];
        if (!(f->flags & PTX_FUNCF_HAS_BODY) || f->ninstrs > 3000)
            continue;
        bool brute = (uint64_t)f->ninstrs * f->ninstrs * (f->nregs + 1) <= 20000000u;
        verify(m, f, brute, name);
        c->nfuncs++;
        c->nbrute += brute;
    }
}

/* Every function of every testdata/ptx/ *.O3.ptx: next kinds against the
 * reference (ninstrs <= 3000), liveness by brute force when small. */
static void test_testdata(void **state)
{
    (void)state;
    testdata_counts c = {0};
    unsigned nfiles = ptx_test_each_file("ptx", ".O3.ptx", verify_file, &c);
    assert_true(nfiles > 0);
    assert_true(c.nfuncs > 0);
    print_message("testdata: %u files, %u functions (%u with brute-force liveness)\n", nfiles,
                  c.nfuncs, c.nbrute);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_straight_line),
        cmocka_unit_test(test_idle_cross_block),
        cmocka_unit_test(test_if_else),
        cmocka_unit_test(test_loop),
        cmocka_unit_test(test_overwritten_and_guarded),
        cmocka_unit_test(test_infinite_loop),
        cmocka_unit_test(test_many_exits),
        cmocka_unit_test(test_kind_names),
        cmocka_unit_test(test_random_kernels),
        cmocka_unit_test(test_testdata),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
