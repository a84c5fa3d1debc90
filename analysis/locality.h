/* locality.h — thread-block locality graphs (Tripathy, Ch. 3.2.2 and
 * Algorithm 4).
 *
 * Vertices are the thread blocks of one launch, numbered linearly
 * (ctaid.x + ctaid.y*nctaid.x + ctaid.z*nctaid.x*nctaid.y); the weight of
 * edge (i, j) is the number of distinct addresses that both block i and
 * block j read. An address is an element's byte address (a vector access
 * of n elements gives n addresses), or, with a line size, the line it lies
 * in (every line an access overlaps). Access sets come from the static
 * address trees (syntree.h) or from the emulator's trace of the same
 * launch (the profiled graph); the graph is built through an index from
 * address to the blocks that read it, never by intersecting blocks'
 * address sets pairwise: addresses read by the same set of blocks are
 * counted together, so the work is the distinct sharing patterns times
 * their pairs. */
#ifndef SIMTLAB_LOCALITY_H
#define SIMTLAB_LOCALITY_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

/* Per thread block: the distinct addresses (or lines) it reads, and those
 * it writes. Adding is safe from several threads as long as each block is
 * added to by one thread at a time. */
typedef struct ptx_access_sets {
    uint32_t ntbs;
    uint32_t line;          /* 0: element addresses; else the line size in bytes (a power of two) */
    struct ptx_addr_vec { uint64_t *v; uint64_t n, cap, sorted; } *reads, *writes;
} ptx_access_sets;

void ptx_access_sets_init(ptx_access_sets *s, uint32_t ntbs, uint32_t line);
/* Record vec elements of elem_bytes from addr, read (write false) or written. */
void ptx_access_sets_add(ptx_access_sets *s, uint32_t tb, bool write, uint64_t addr, uint32_t elem_bytes,
                         uint32_t vec);
/* Sort and deduplicate every block's sets (done by the graph builder too). */
void ptx_access_sets_finish(ptx_access_sets *s);
void ptx_access_sets_free(ptx_access_sets *s);

typedef struct ptx_locality_edge {
    uint32_t i, j;   /* i < j */
    uint64_t w;
} ptx_locality_edge;

typedef struct ptx_locality_graph {
    uint32_t ntbs;
    ptx_locality_edge *edges;   /* sorted by (i, j) */
    uint64_t nedges;
    uint64_t total_weight;      /* sum of edge weights */
    uint64_t addresses;         /* distinct addresses read by any block */
    uint64_t shared_addresses;  /* read by two blocks or more */
    uint64_t accesses;          /* sum over blocks of their distinct addresses */
    uint64_t patterns;          /* distinct sets of blocks sharing an address */
    double seconds;             /* time to build the graph */
} ptx_locality_graph;

/* The graph of s's reads (write true: of its writes). */
void ptx_locality_build(ptx_access_sets *s, bool write, ptx_locality_graph *g);
void ptx_locality_graph_free(ptx_locality_graph *g);

/* Summary statistics of a graph. */
typedef struct ptx_locality_stats {
    double spscore;          /* 1 - nonzero entries / entries of the ntbs x ntbs adjacency matrix */
    uint32_t shared_tbs;     /* blocks with at least one neighbour */
    uint32_t min_degree, max_degree;
    double mean_degree;
    uint64_t max_weight;
} ptx_locality_stats;

void ptx_locality_stats_of(const ptx_locality_graph *g, ptx_locality_stats *st);

/* Compare two graphs edge by edge: edges in one only or with different
 * weights. Returns true when they are identical. */
typedef struct ptx_locality_diff {
    uint64_t only_a, only_b, different;
    ptx_locality_edge first_a, first_b; /* the first difference (weights 0 where absent) */
} ptx_locality_diff;

bool ptx_locality_compare(const ptx_locality_graph *a, const ptx_locality_graph *b, ptx_locality_diff *d);

/* ---- reports (locality_report.c) ---- */

/* One launch's graphs, as `simtlab locality` reports them. */
typedef struct ptx_locality_report {
    const char *kernel;
    uint32_t grid[3], block[3];
    uint32_t line;                   /* 0: element addresses; else the line size */
    bool reads_exact, writes_exact;  /* what the static analysis claims */
    const char *inexact_reason;      /* why not, or NULL */
    uint32_t inexact_line;
    const ptx_locality_graph *static_reads, *static_writes;
    const ptx_locality_graph *profiled_reads, *profiled_writes; /* NULL: the launch did not run */
    double static_seconds, profiled_seconds;
} ptx_locality_report;

/* A readable summary: blocks, edges, total weight, SpScore, degrees, the
 * `top` heaviest pairs, and static against profiled. */
void ptx_locality_write_text(const ptx_locality_report *r, unsigned top, FILE *out);
/* JSON of schema "simtlab-locality/1" (README.md). */
void ptx_locality_write_json(const ptx_locality_report *r, FILE *out);
/* The adjacency matrix as a picture: PNG when path ends in .png, else SVG.
 * Large graphs are shown at most 1024 (PNG) or 256 (SVG) cells a side, a
 * cell summing the weights of the blocks it covers. Returns 0, or -1 with
 * err. */
int ptx_locality_write_heatmap(const ptx_locality_graph *g, const char *title, const char *path, char *err,
                               size_t errlen);

#endif
