/* tb_groups.c — PAVER's thread-block groups from a locality graph
 * (tb_groups.h): Prim's maximum spanning tree order, and METIS's k-way
 * and recursive-bisection partitions. */
#include "timing/tb_groups.h"

#include <metis.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NONE UINT32_MAX

/* The graph as symmetric adjacency lists, and the work arrays the
 * orderings share (one stamp per use, so nothing is cleared between). */
typedef struct adjacency {
    uint32_t n;
    uint64_t *xadj;          /* n + 1 */
    uint32_t *adj;           /* 2 * edges */
    uint64_t *w;
    uint64_t *key;           /* Prim: best edge to the tree so far */
    uint32_t *member, *taken, stamp; /* member[v] == stamp: v is in the part ordered */
    uint32_t *local;         /* block -> its index in the part given to METIS */
} adjacency;

static void adjacency_free(adjacency *a)
{
    free(a->xadj);
    free(a->adj);
    free(a->w);
    free(a->key);
    free(a->member);
    free(a->taken);
    free(a->local);
}

/* Adjacency lists of g, each edge in both directions. False when memory is short. */
static bool adjacency_of(const ptx_locality_graph *g, adjacency *a)
{
    uint32_t n = g->ntbs;
    *a = (adjacency){.n = n};
    a->xadj = calloc((size_t)n + 1, sizeof *a->xadj);
    a->adj = malloc((size_t)(2 * g->nedges + 1) * sizeof *a->adj);
    a->w = malloc((size_t)(2 * g->nedges + 1) * sizeof *a->w);
    a->key = calloc((size_t)n + 1, sizeof *a->key);
    a->member = calloc((size_t)n + 1, sizeof *a->member);
    a->taken = calloc((size_t)n + 1, sizeof *a->taken);
    a->local = calloc((size_t)n + 1, sizeof *a->local);
    if (!a->xadj || !a->adj || !a->w || !a->key || !a->member || !a->taken || !a->local)
        return false;
    for (uint64_t e = 0; e < g->nedges; e++) {
        a->xadj[g->edges[e].i + 1]++;
        a->xadj[g->edges[e].j + 1]++;
    }
    for (uint32_t v = 0; v < n; v++)
        a->xadj[v + 1] += a->xadj[v];
    uint64_t *fill = calloc((size_t)n + 1, sizeof *fill);
    if (!fill)
        return false;
    for (uint64_t e = 0; e < g->nedges; e++) {
        const ptx_locality_edge *x = &g->edges[e];
        uint64_t p = a->xadj[x->i] + fill[x->i]++, q = a->xadj[x->j] + fill[x->j]++;
        a->adj[p] = x->j, a->w[p] = x->w;
        a->adj[q] = x->i, a->w[q] = x->w;
    }
    free(fill);
    return true;
}

/* ---- Prim's maximum spanning tree ------------------------------------- */

typedef struct heap_item { uint64_t key; uint32_t v; } heap_item;

/* Does a come out of the heap before b: the heavier edge, then the lower block. */
static bool before(heap_item a, heap_item b) { return a.key > b.key || (a.key == b.key && a.v < b.v); }

static void heap_push(heap_item *h, uint64_t *n, heap_item x)
{
    uint64_t i = (*n)++;
    for (; i && before(x, h[(i - 1) / 2]); i = (i - 1) / 2)
        h[i] = h[(i - 1) / 2];
    h[i] = x;
}

static heap_item heap_pop(heap_item *h, uint64_t *n)
{
    heap_item top = h[0], last = h[--*n];
    uint64_t i = 0;
    for (;;) {
        uint64_t c = 2 * i + 1;
        if (c >= *n)
            break;
        if (c + 1 < *n && before(h[c + 1], h[c]))
            c++;
        if (!before(h[c], last))
            break;
        h[i] = h[c];
        i = c;
    }
    h[i] = last;
    return top;
}

/* The blocks verts[0 .. n-1] (increasing) in the order Prim's maximum
 * spanning tree over their own edges adds them, into out. False when
 * memory is short. */
static bool prim_order(adjacency *a, const uint32_t *verts, uint32_t n, uint32_t *out)
{
    uint32_t stamp = ++a->stamp;
    uint64_t edges = 0;
    for (uint32_t k = 0; k < n; k++) {
        a->member[verts[k]] = stamp;
        a->key[verts[k]] = 0;
        edges += a->xadj[verts[k] + 1] - a->xadj[verts[k]];
    }
    heap_item *h = malloc((size_t)(edges + 1) * sizeof *h);
    if (!h)
        return false;
    uint64_t hn = 0;
    uint32_t cursor = 0;
    for (uint32_t k = 0; k < n; k++) {
        uint32_t v = NONE;
        while (hn && v == NONE) {
            heap_item t = heap_pop(h, &hn);
            if (a->taken[t.v] != stamp && t.key == a->key[t.v])
                v = t.v;
        }
        if (v == NONE) { /* nothing reaches the rest: the lowest block left */
            while (a->taken[verts[cursor]] == stamp)
                cursor++;
            v = verts[cursor];
        }
        a->taken[v] = stamp;
        out[k] = v;
        for (uint64_t e = a->xadj[v]; e < a->xadj[v + 1]; e++) {
            uint32_t u = a->adj[e];
            if (a->member[u] == stamp && a->taken[u] != stamp && a->w[e] > a->key[u]) {
                a->key[u] = a->w[e];
                heap_push(h, &hn, (heap_item){a->w[e], u});
            }
        }
    }
    free(h);
    return true;
}

/* ---- METIS ------------------------------------------------------------ */

/* Partition the blocks verts[0 .. n-1] into nparts parts with METIS
 * (recursive bisection for two parts, k-way otherwise): part[k] for
 * verts[k]. 0, or -1 with err. */
static int metis_parts(adjacency *a, const uint32_t *verts, uint32_t n, uint32_t nparts, idx_t *part, char *err,
                       size_t errlen)
{
    uint32_t stamp = ++a->stamp;
    uint64_t edges = 0;
    for (uint32_t k = 0; k < n; k++) {
        a->member[verts[k]] = stamp;
        a->local[verts[k]] = k;
        edges += a->xadj[verts[k] + 1] - a->xadj[verts[k]];
    }
    idx_t *xadj = malloc(((size_t)n + 1) * sizeof *xadj);
    idx_t *adj = malloc((size_t)(edges + 1) * sizeof *adj), *w = malloc((size_t)(edges + 1) * sizeof *w);
    if (!xadj || !adj || !w) {
        free(xadj), free(adj), free(w);
        snprintf(err, errlen, "out of memory for the partitioner's graph of %u blocks", n);
        return -1;
    }
    idx_t m = 0;
    for (uint32_t k = 0; k < n; k++) {
        xadj[k] = m;
        for (uint64_t e = a->xadj[verts[k]]; e < a->xadj[verts[k] + 1]; e++)
            if (a->member[a->adj[e]] == stamp) {
                adj[m] = (idx_t)a->local[a->adj[e]];
                w[m++] = a->w[e] > INT32_MAX ? INT32_MAX : (idx_t)a->w[e];
            }
    }
    xadj[n] = m;
    idx_t nv = (idx_t)n, ncon = 1, np = (idx_t)nparts, objval = 0, options[METIS_NOPTIONS];
    METIS_SetDefaultOptions(options);
    options[METIS_OPTION_SEED] = 1;
    options[METIS_OPTION_NUMBERING] = 0;
    int rc = nparts == 2 ? METIS_PartGraphRecursive(&nv, &ncon, xadj, adj, NULL, NULL, w, &np, NULL, NULL, options,
                                                     &objval, part)
                         : METIS_PartGraphKway(&nv, &ncon, xadj, adj, NULL, NULL, w, &np, NULL, NULL, options,
                                               &objval, part);
    free(xadj), free(adj), free(w);
    if (rc != METIS_OK) {
        snprintf(err, errlen, "METIS could not partition %u blocks into %u parts (%s)", n, nparts,
                 rc == METIS_ERROR_MEMORY ? "out of memory" : rc == METIS_ERROR_INPUT ? "input error" : "error");
        return -1;
    }
    return 0;
}

/* ---- the three groupings ---------------------------------------------- */

/* Room for n blocks in at most n groups. */
static bool groups_alloc(tm_tb_groups *gr, uint32_t n)
{
    *gr = (tm_tb_groups){.ntbs = n};
    gr->start = calloc((size_t)n + 2, sizeof *gr->start);
    gr->tb = malloc(((size_t)n + 1) * sizeof *gr->tb);
    return gr->start && gr->tb;
}

/* Close a group ending before block position end of gr->tb. */
static void group_end(tm_tb_groups *gr, uint32_t end) { gr->start[++gr->ngroups] = end; }

static int mst_groups(adjacency *a, uint32_t nsms, uint32_t per_sm, tm_tb_groups *gr)
{
    uint32_t n = a->n, *all = malloc(((size_t)n + 1) * sizeof *all);
    if (!all)
        return -1;
    for (uint32_t v = 0; v < n; v++)
        all[v] = v;
    bool ok = prim_order(a, all, n, gr->tb);
    free(all);
    if (!ok)
        return -1;
    uint32_t pos = 0;
    for (uint32_t s = 0; s < nsms && pos < n; s++) /* the first group of each SM: a full SM's worth */
        group_end(gr, pos = pos + per_sm < n ? pos + per_sm : n);
    while (pos < n) /* then one block at a time */
        group_end(gr, ++pos);
    return 0;
}

static int kway_groups(adjacency *a, uint32_t nsms, tm_tb_groups *gr, char *err, size_t errlen)
{
    uint32_t n = a->n, k = nsms < n ? nsms : n;
    idx_t *part = calloc((size_t)n + 1, sizeof *part);
    uint32_t *verts = malloc(((size_t)n + 1) * sizeof *verts), *count = calloc((size_t)k + 1, sizeof *count);
    int rc = -1;
    if (!part || !verts || !count) {
        snprintf(err, errlen, "out of memory for the groups of %u blocks", n);
        goto out;
    }
    for (uint32_t v = 0; v < n; v++)
        verts[v] = v;
    if (k == n) /* a block per SM */
        for (uint32_t v = 0; v < n; v++)
            part[v] = (idx_t)v;
    else if (k > 1 && metis_parts(a, verts, n, k, part, err, errlen) != 0)
        goto out;
    for (uint32_t v = 0; v < n; v++)
        count[part[v] + 1]++;
    for (uint32_t p = 0; p < k; p++)
        count[p + 1] += count[p];
    for (uint32_t v = 0; v < n; v++) /* the parts' blocks, increasing within each */
        verts[count[part[v]]++] = v;
    uint32_t pos = 0;
    for (uint32_t p = 0; p < k; p++) {
        uint32_t len = count[p] - pos;
        if (!len)
            continue; /* (METIS may leave a part empty) */
        if (!prim_order(a, verts + pos, len, gr->tb + pos)) {
            snprintf(err, errlen, "out of memory for the groups of %u blocks", n);
            goto out;
        }
        group_end(gr, pos += len);
    }
    rc = 0;
out:
    free(part), free(verts), free(count);
    return rc;
}

static int rb_groups(adjacency *a, uint32_t per_sm, tm_tb_groups *gr, char *err, size_t errlen)
{
    uint32_t n = a->n;
    /* the FIFO of parts to split: segments of gr->tb, each increasing */
    struct seg { uint32_t at, len; } *q = malloc(((size_t)2 * n + 1) * sizeof *q), *leaves = malloc(((size_t)n + 1) * sizeof *leaves);
    idx_t *part = malloc(((size_t)n + 1) * sizeof *part);
    uint32_t *tmp = malloc(((size_t)n + 1) * sizeof *tmp);
    uint32_t head = 0, tail = 0, nleaves = 0;
    int rc = -1;
    if (!q || !leaves || !part || !tmp) {
        snprintf(err, errlen, "out of memory for the groups of %u blocks", n);
        goto out;
    }
    for (uint32_t v = 0; v < n; v++)
        gr->tb[v] = v;
    if (n < per_sm || n == 1)
        leaves[nleaves++] = (struct seg){0, n};
    else
        q[tail++] = (struct seg){0, n};
    while (head < tail) {
        struct seg s = q[head++];
        uint32_t *v = gr->tb + s.at;
        if (metis_parts(a, v, s.len, 2, part, err, errlen) != 0)
            goto out;
        uint32_t left = 0;
        for (uint32_t k = 0; k < s.len; k++)
            left += part[k] == part[0];
        if (left == s.len) /* not split: halves of block numbers */
            for (uint32_t k = 0; k < s.len; k++)
                part[k] = k < s.len / 2 ? part[0] : !part[0];
        /* the half holding v[0], the lowest block, first; each stays increasing */
        uint32_t nl = 0, nr = 0;
        for (uint32_t k = 0; k < s.len; k++)
            if (part[k] == part[0])
                v[nl++] = v[k];
            else
                tmp[nr++] = v[k];
        memcpy(v + nl, tmp, (size_t)nr * sizeof *tmp);
        struct seg halves[2] = {{s.at, nl}, {s.at + nl, nr}};
        for (int h = 0; h < 2; h++) {
            if (halves[h].len < per_sm || halves[h].len == 1)
                leaves[nleaves++] = halves[h];
            else
                q[tail++] = halves[h];
        }
    }
    /* the leaves in the order found: move them into place */
    uint32_t *order = tmp, pos = 0;
    for (uint32_t l = 0; l < nleaves; l++)
        for (uint32_t k = 0; k < leaves[l].len; k++)
            order[pos++] = gr->tb[leaves[l].at + k];
    memcpy(gr->tb, order, (size_t)n * sizeof *order);
    pos = 0;
    for (uint32_t l = 0; l < nleaves; l++)
        group_end(gr, pos += leaves[l].len);
    rc = 0;
out:
    free(q), free(leaves), free(part), free(tmp);
    return rc;
}

int tm_tb_groups_make(tm_tb_partition how, const ptx_locality_graph *g, uint32_t nsms, uint32_t per_sm,
                      tm_tb_groups *out, char *err, size_t errlen)
{
    adjacency a;
    int rc = -1;
    per_sm = per_sm ? per_sm : 1;
    nsms = nsms ? nsms : 1;
    if (!adjacency_of(g, &a) || !groups_alloc(out, g->ntbs)) {
        snprintf(err, errlen, "out of memory for the groups of %u blocks", g->ntbs);
        goto out;
    }
    if (g->ntbs == 0)
        rc = 0;
    else if (how == TM_TB_PART_MST) {
        rc = mst_groups(&a, nsms, per_sm, out);
        if (rc)
            snprintf(err, errlen, "out of memory for the groups of %u blocks", g->ntbs);
    } else if (how == TM_TB_PART_KWAY)
        rc = kway_groups(&a, nsms, out, err, errlen);
    else
        rc = rb_groups(&a, per_sm, out, err, errlen);
out:
    adjacency_free(&a);
    if (rc)
        tm_tb_groups_free(out);
    return rc;
}

void tm_tb_groups_free(tm_tb_groups *gr)
{
    free(gr->start);
    free(gr->tb);
    *gr = (tm_tb_groups){0};
}

uint64_t tm_tb_groups_captured(const tm_tb_groups *gr, const ptx_locality_graph *g)
{
    uint32_t *group_of = malloc(((size_t)gr->ntbs + 1) * sizeof *group_of);
    if (!group_of)
        return 0;
    for (uint32_t k = 0; k < gr->ngroups; k++)
        for (uint32_t p = gr->start[k]; p < gr->start[k + 1]; p++)
            group_of[gr->tb[p]] = k;
    uint64_t sum = 0;
    for (uint64_t e = 0; e < g->nedges; e++)
        if (g->edges[e].i < gr->ntbs && g->edges[e].j < gr->ntbs && group_of[g->edges[e].i] == group_of[g->edges[e].j])
            sum += g->edges[e].w;
    free(group_of);
    return sum;
}
