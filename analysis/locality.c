/* locality.c — access sets and locality graphs (locality.h). */
#include "analysis/locality.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "ir/u64map.h"
#include "ir/util.h"

typedef struct ptx_addr_vec addr_vec;

/* Sort v[0..n) ascending: LSD radix sort, 8 bits a pass, over the bits in
 * which the values differ from the smallest; insertion sort for short
 * arrays (block sets arrive nearly sorted). */
static void sort_u64(uint64_t *v, uint64_t n)
{
    if (n < 64) {
        for (uint64_t i = 1; i < n; i++) {
            uint64_t x = v[i], j = i;
            for (; j > 0 && v[j - 1] > x; j--)
                v[j] = v[j - 1];
            v[j] = x;
        }
        return;
    }
    uint64_t lo = v[0], hi = v[0];
    for (uint64_t i = 1; i < n; i++) {
        lo = v[i] < lo ? v[i] : lo;
        hi = v[i] > hi ? v[i] : hi;
    }
    uint64_t *tmp = ptx_xmalloc(n * sizeof *tmp), *src = v, *dst = tmp;
    for (unsigned shift = 0; shift < 64 && ((hi - lo) >> shift); shift += 8) {
        uint64_t count[257] = {0};
        for (uint64_t i = 0; i < n; i++)
            count[(((src[i] - lo) >> shift) & 0xff) + 1]++;
        for (unsigned d = 0; d < 256; d++)
            count[d + 1] += count[d];
        for (uint64_t i = 0; i < n; i++)
            dst[count[((src[i] - lo) >> shift) & 0xff]++] = src[i];
        uint64_t *x = src;
        src = dst;
        dst = x;
    }
    if (src != v)
        memcpy(v, src, n * sizeof *v);
    free(tmp);
}

/* Sort and deduplicate v[0..n) in place; returns the distinct count. */
static uint64_t sort_unique(uint64_t *v, uint64_t n)
{
    sort_u64(v, n);
    uint64_t k = 0;
    for (uint64_t i = 0; i < n; i++)
        if (k == 0 || v[i] != v[k - 1])
            v[k++] = v[i];
    return k;
}

/* Sort and deduplicate one block's set: the part added since the last
 * time, merged into the part already sorted. */
static void compact(addr_vec *a)
{
    if (a->sorted == a->n)
        return;
    uint64_t old = a->sorted, add = sort_unique(a->v + old, a->n - old);
    if (old) {
        uint64_t *m = ptx_xmalloc((old + add) * sizeof *m), i = 0, j = 0, k = 0;
        const uint64_t *x = a->v, *y = a->v + old;
        while (i < old || j < add) {
            uint64_t v = j == add || (i < old && x[i] <= y[j]) ? x[i++] : y[j++];
            if (k == 0 || m[k - 1] != v)
                m[k++] = v;
        }
        memcpy(a->v, m, k * sizeof *m);
        free(m);
        add = k - old;
    }
    a->n = a->sorted = old + add;
}

static void push(addr_vec *a, uint64_t x)
{
    if (a->n && a->v[a->n - 1] == x)
        return;
    if (a->n == a->cap) {
        if (a->n >= 4 * a->sorted + 4096)
            compact(a); /* repeated addresses: deduplicate before growing */
        if (2 * a->n >= a->cap) {
            a->cap = a->cap ? a->cap * 2 : 16;
            a->v = ptx_xrealloc(a->v, a->cap * sizeof *a->v);
        }
    }
    a->v[a->n++] = x;
}

void ptx_access_sets_init(ptx_access_sets *s, uint32_t ntbs, uint32_t line)
{
    s->ntbs = ntbs;
    s->line = line;
    s->reads = ptx_xcalloc(ntbs ? ntbs : 1, sizeof *s->reads);
    s->writes = ptx_xcalloc(ntbs ? ntbs : 1, sizeof *s->writes);
}

void ptx_access_sets_add(ptx_access_sets *s, uint32_t tb, bool write, uint64_t addr, uint32_t elem_bytes,
                         uint32_t vec)
{
    if (tb >= s->ntbs)
        return;
    addr_vec *a = write ? &s->writes[tb] : &s->reads[tb];
    if (!s->line) {
        for (uint32_t k = 0; k < vec; k++)
            push(a, addr + (uint64_t)k * elem_bytes);
        return;
    }
    uint64_t m = ~(uint64_t)(s->line - 1), bytes = (uint64_t)elem_bytes * vec;
    uint64_t last = (addr + (bytes ? bytes - 1 : 0)) & m;
    for (uint64_t l = addr & m;; l += s->line) {
        push(a, l);
        if (l == last)
            break;
    }
}

void ptx_access_sets_finish(ptx_access_sets *s)
{
    for (uint32_t tb = 0; tb < s->ntbs; tb++) {
        compact(&s->reads[tb]);
        compact(&s->writes[tb]);
    }
}

void ptx_access_sets_free(ptx_access_sets *s)
{
    for (uint32_t tb = 0; tb < s->ntbs; tb++) {
        free(s->reads[tb].v);
        free(s->writes[tb].v);
    }
    free(s->reads);
    free(s->writes);
    memset(s, 0, sizeof *s);
}

static unsigned bits_for(uint64_t x)
{
    unsigned b = 0;
    while (b < 64 && (x >> b))
        b++;
    return b;
}

/* The sharing patterns: distinct lists of blocks that read one address,
 * each with the number of addresses it covers. */
typedef struct patterns {
    ptx_u64map index;     /* list hash (probed) -> pattern number */
    uint32_t *pool;       /* the lists' blocks */
    uint64_t npool, cap_pool;
    struct pattern { uint64_t start; uint32_t len; uint64_t count; } *v;
    uint64_t n, cap;
} patterns;

static void add_pattern(patterns *p, const uint32_t *tbs, uint32_t len)
{
    uint64_t h = 0xcbf29ce484222325ull;
    for (uint32_t i = 0; i < len; i++)
        h = (h ^ tbs[i]) * 0x100000001b3ull;
    for (;; h++) { /* probe past lists that merely share the hash */
        uint64_t *slot = ptx_u64map_slot(&p->index, h, UINT64_MAX);
        if (*slot == UINT64_MAX) {
            if (p->n == p->cap) {
                p->cap = p->cap ? 2 * p->cap : 64;
                p->v = ptx_xrealloc(p->v, p->cap * sizeof *p->v);
            }
            while (p->npool + len > p->cap_pool) {
                p->cap_pool = p->cap_pool ? 2 * p->cap_pool : 1024;
                p->pool = ptx_xrealloc(p->pool, p->cap_pool * sizeof *p->pool);
            }
            memcpy(p->pool + p->npool, tbs, len * sizeof *tbs);
            p->v[p->n] = (struct pattern){p->npool, len, 1};
            p->npool += len;
            *slot = p->n++;
            return;
        }
        struct pattern *q = &p->v[*slot];
        if (q->len == len && memcmp(p->pool + q->start, tbs, len * sizeof *tbs) == 0) {
            q->count++;
            return;
        }
    }
}

static int cmp_edge(const void *a, const void *b)
{
    const ptx_locality_edge *x = a, *y = b;
    if (x->i != y->i)
        return x->i < y->i ? -1 : 1;
    return x->j < y->j ? -1 : x->j > y->j;
}

/* Every (address, block) pair as one sortable key: the address relative to
 * the smallest in the high bits, the block in the low ones. */
static uint64_t *pair_keys(const addr_vec *sets, uint32_t ntbs, uint64_t total, unsigned *tb_bits,
                           uint64_t *lo)
{
    uint64_t min = UINT64_MAX, max = 0;
    for (uint32_t tb = 0; tb < ntbs; tb++)
        if (sets[tb].n) {
            min = sets[tb].v[0] < min ? sets[tb].v[0] : min;
            max = sets[tb].v[sets[tb].n - 1] > max ? sets[tb].v[sets[tb].n - 1] : max;
        }
    *tb_bits = bits_for(ntbs - 1u) ? bits_for(ntbs - 1u) : 1;
    *lo = min;
    if (bits_for(max - min) + *tb_bits > 64)
        return NULL;
    uint64_t *keys = ptx_xmalloc(total * sizeof *keys), k = 0;
    for (uint32_t tb = 0; tb < ntbs; tb++)
        for (uint64_t i = 0; i < sets[tb].n; i++)
            keys[k++] = ((sets[tb].v[i] - min) << *tb_bits) | tb;
    sort_u64(keys, total);
    return keys;
}

/* Group the sorted (address, block) keys by address into patterns. */
static void scan_addresses(const uint64_t *keys, uint64_t total, unsigned tb_bits, ptx_locality_graph *g,
                           patterns *p)
{
    uint32_t *tbs = ptx_xmalloc(((uint64_t)g->ntbs + 1) * sizeof *tbs);
    uint64_t tb_mask = tb_bits >= 64 ? ~0ull : (1ull << tb_bits) - 1;
    for (uint64_t i = 0; i < total;) {
        uint64_t addr = keys[i] >> tb_bits, j = i;
        uint32_t len = 0;
        while (j < total && keys[j] >> tb_bits == addr)
            tbs[len++] = (uint32_t)(keys[j++] & tb_mask);
        g->addresses++;
        if (len >= 2) {
            g->shared_addresses++;
            add_pattern(p, tbs, len);
        }
        i = j;
    }
    free(tbs);
}

/* The same grouping when packed keys do not fit 64 bits: a k-way merge
 * of the blocks' sorted sets by repeated minimum search (slow, rare). */
static void scan_addresses_slow(const addr_vec *sets, ptx_locality_graph *g, patterns *p)
{
    uint64_t *at = ptx_xcalloc(g->ntbs, sizeof *at);
    uint32_t *tbs = ptx_xmalloc(((uint64_t)g->ntbs + 1) * sizeof *tbs);
    for (;;) {
        uint64_t min = UINT64_MAX;
        bool any = false;
        for (uint32_t tb = 0; tb < g->ntbs; tb++)
            if (at[tb] < sets[tb].n && (!any || sets[tb].v[at[tb]] < min)) {
                min = sets[tb].v[at[tb]];
                any = true;
            }
        if (!any)
            break;
        uint32_t len = 0;
        for (uint32_t tb = 0; tb < g->ntbs; tb++)
            if (at[tb] < sets[tb].n && sets[tb].v[at[tb]] == min) {
                tbs[len++] = tb;
                at[tb]++;
            }
        g->addresses++;
        if (len >= 2) {
            g->shared_addresses++;
            add_pattern(p, tbs, len);
        }
    }
    free(at);
    free(tbs);
}

void ptx_locality_build(ptx_access_sets *s, bool write, ptx_locality_graph *g)
{
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    memset(g, 0, sizeof *g);
    g->ntbs = s->ntbs;
    addr_vec *sets = write ? s->writes : s->reads;
    for (uint32_t tb = 0; tb < s->ntbs; tb++) {
        compact(&sets[tb]);
        g->accesses += sets[tb].n;
    }
    patterns p = {0};
    unsigned tb_bits;
    uint64_t lo;
    if (g->accesses) {
        uint64_t *keys = pair_keys(sets, s->ntbs, g->accesses, &tb_bits, &lo);
        if (keys)
            scan_addresses(keys, g->accesses, tb_bits, g, &p);
        else
            scan_addresses_slow(sets, g, &p);
        free(keys);
    }
    ptx_u64map weights = {0};
    g->patterns = p.n;
    for (uint64_t k = 0; k < p.n; k++) {
        const uint32_t *v = p.pool + p.v[k].start;
        for (uint32_t a = 0; a < p.v[k].len; a++)
            for (uint32_t b = a + 1; b < p.v[k].len; b++)
                *ptx_u64map_slot(&weights, (uint64_t)v[a] << 32 | v[b], 0) += p.v[k].count;
    }
    g->nedges = weights.n;
    g->edges = ptx_xmalloc((g->nedges + 1) * sizeof *g->edges);
    uint64_t *pairs = ptx_xmalloc((g->nedges + 1) * sizeof *pairs), e = 0;
    for (uint64_t i = 0; i < weights.cap; i++)
        if (weights.used[i])
            pairs[e++] = weights.keys[i];
    sort_u64(pairs, g->nedges); /* (i << 32 | j) sorts as (i, j) */
    for (e = 0; e < g->nedges; e++) {
        uint64_t w = *ptx_u64map_get(&weights, pairs[e]);
        g->edges[e] = (ptx_locality_edge){(uint32_t)(pairs[e] >> 32), (uint32_t)pairs[e], w};
        g->total_weight += w;
    }
    free(pairs);
    ptx_u64map_free(&weights);
    ptx_u64map_free(&p.index);
    free(p.pool);
    free(p.v);
    clock_gettime(CLOCK_MONOTONIC, &t1);
    g->seconds = (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) * 1e-9;
}

void ptx_locality_graph_free(ptx_locality_graph *g)
{
    free(g->edges);
    memset(g, 0, sizeof *g);
}

void ptx_locality_stats_of(const ptx_locality_graph *g, ptx_locality_stats *st)
{
    memset(st, 0, sizeof *st);
    if (!g->ntbs)
        return;
    uint32_t *deg = ptx_xcalloc(g->ntbs, sizeof *deg);
    for (uint64_t e = 0; e < g->nedges; e++) {
        deg[g->edges[e].i]++;
        deg[g->edges[e].j]++;
        st->max_weight = g->edges[e].w > st->max_weight ? g->edges[e].w : st->max_weight;
    }
    st->min_degree = UINT32_MAX;
    for (uint32_t tb = 0; tb < g->ntbs; tb++) {
        st->shared_tbs += deg[tb] > 0;
        st->min_degree = deg[tb] < st->min_degree ? deg[tb] : st->min_degree;
        st->max_degree = deg[tb] > st->max_degree ? deg[tb] : st->max_degree;
    }
    st->mean_degree = 2.0 * (double)g->nedges / g->ntbs;
    st->spscore = 1.0 - 2.0 * (double)g->nedges / ((double)g->ntbs * g->ntbs);
    free(deg);
}

bool ptx_locality_compare(const ptx_locality_graph *a, const ptx_locality_graph *b, ptx_locality_diff *d)
{
    memset(d, 0, sizeof *d);
    bool first = true;
    uint64_t i = 0, j = 0;
    while (i < a->nedges || j < b->nedges) {
        int c = i == a->nedges ? 1 : j == b->nedges ? -1 : cmp_edge(&a->edges[i], &b->edges[j]);
        ptx_locality_edge x = c <= 0 ? a->edges[i] : (ptx_locality_edge){b->edges[j].i, b->edges[j].j, 0};
        ptx_locality_edge y = c >= 0 ? b->edges[j] : (ptx_locality_edge){a->edges[i].i, a->edges[i].j, 0};
        if (c < 0)
            d->only_a++;
        else if (c > 0)
            d->only_b++;
        else if (x.w != y.w)
            d->different++;
        if (first && (c != 0 || x.w != y.w)) {
            d->first_a = x;
            d->first_b = y;
            first = false;
        }
        i += c <= 0;
        j += c >= 0;
    }
    return first && a->ntbs == b->ntbs;
}
