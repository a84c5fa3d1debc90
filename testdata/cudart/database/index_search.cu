// index_search.cu — the index search of Narasiman's PhD thesis (Sec. 6.2.3
// and Appendix 1.2): look up keys in a 31-ary search tree laid out for
// DRAM row buffers, one warp per query.
//
// The tree (Kim et al.'s layout, the thesis's Fig. 6.2): a node is a
// 128-byte cache line of 30 sorted 32-bit keys and 2 pad words
// 0xffffffff (no key is greater than a pad), with 31 children; 32 lines
// make a 4 KB row-buffer node: its root line, then the root's 31 children.
// Each of those lines has 31 row nodes as children, so a row node has 961;
// row nodes are stored breadth first from the root's (node r's children
// are r * 961 + 1 ... r * 961 + 961), the lines of a row node breadth
// first too, so the traversal needs no pointers. A tree of L row levels
// holds 960 * (1 + 961 + ... + 961^(L-1)) keys (31^(2L) - 1), each once,
// in search-tree order; the thesis searches 3 levels, the default here is
// 2 (923,520 keys, 3.7 MiB).
//
// A warp reads a line with one coalesced load, counts the keys below the
// query with __ballot_sync and __popc, and goes to the child line of that
// count (a row-buffer hit: the same row node), whose count gives the child
// row node (a row conflict); a lane whose key equals the query writes the
// key's word index in the tree. Variants:
//   default           ballot and popc, as the appendix;
//   -DSIMTLAB_TT      the child line's address from simtlab.tree_traverse
//                     (Sec. 7.2.1), and the next row node's number too;
//   -DSIMTLAB_HINT    the first load of each row node ("open the row")
//                     with simtlab's .rowhint (Sec. 7.2);
//   both macros       both.
// The extended variants use simtlab's extensions of PTX: build them for a
// virtual architecture only (-gencode arch=compute_80,code=compute_80) and
// run them under simtlab exec --ptx-ext simtlab.
//
// Usage: index_search [levels [queries [blocks]]], default 2 row levels,
// 4096 queries, 4 blocks of 256 threads (the appendix's 1024 threads; warp
// w takes queries w, w + W, ... for the W warps of the grid). Half
// the queries are keys of the tree, half random values; each result (the
// key's position, or not found) is checked against a CPU binary search
// of the sorted keys.
#include "../check.h"
#include "../divergent/divergent.h"

#include <algorithm>
#include <vector>

#define THREADS 256
#define LINE 32            // words of a line
#define KEYS 30            // keys of a line
#define ROW 1024           // words of a row node: 32 lines
#define FANOUT 961         // row nodes below a row node: 31 * 31
#define PAD 0xffffffffu
#define NOT_FOUND 0xffffffffu

#if defined(SIMTLAB_TT) && defined(SIMTLAB_HINT)
#define VARIANT "index_search_tt_hint"
#elif defined(SIMTLAB_TT)
#define VARIANT "index_search_tt"
#elif defined(SIMTLAB_HINT)
#define VARIANT "index_search_hint"
#else
#define VARIANT "index_search"
#endif

// The load that opens a row node's DRAM row: with the hint that the next
// load of this warp will hit the same row.
__device__ inline unsigned open_row(const unsigned *p)
{
#ifdef SIMTLAB_HINT
    unsigned v;
    asm("ld.global.rowhint.u32 %0, [%1];" : "=r"(v) : "l"(p));
    return v;
#else
    return *p;
#endif
}

// The lanes of the warp whose key > value: their number in *count, and
// base + that number * LINE, the child line they choose.
__device__ inline unsigned child_line(unsigned base, unsigned key, unsigned value, unsigned *count)
{
#ifdef SIMTLAB_TT
    unsigned d;
    asm volatile("{\n\t.reg .pred p;\n\tsetp.gt.u32 p, %3, %4;\n\t"
                 "simtlab.tree_traverse.u32 %0, %2, p, 32;\n\t"
                 "simtlab.tree_traverse.u32 %1, 0, p, 1;\n\t}"
                 : "=r"(d), "=r"(*count)
                 : "r"(base), "r"(key), "r"(value));
    return d;
#else
    *count = __popc(__ballot_sync(0xffffffffu, key > value));
    return base + (*count << 5);
#endif
}

// base + the number of lanes of the warp whose key > value: the child row
// node they choose.
__device__ inline unsigned child_node(unsigned base, unsigned key, unsigned value)
{
#ifdef SIMTLAB_TT
    unsigned d;
    asm volatile("{\n\t.reg .pred p;\n\tsetp.gt.u32 p, %2, %3;\n\t"
                 "simtlab.tree_traverse.u32 %0, %1, p, 1;\n\t}"
                 : "=r"(d)
                 : "r"(base), "r"(key), "r"(value));
    return d;
#else
    return base + __popc(__ballot_sync(0xffffffffu, key > value));
#endif
}

__global__ void __launch_bounds__(THREADS) index_search(const unsigned *tree, unsigned levels,
                                                        const unsigned *queries, unsigned nqueries,
                                                        unsigned *results)
{
    unsigned lane = threadIdx.x % 32;
    unsigned warps = gridDim.x * (THREADS / 32);
    for (unsigned q = (blockIdx.x * THREADS + threadIdx.x) / 32; q < nqueries; q += warps) {
        unsigned key = queries[q], node = 0;
        for (unsigned level = 0; level < levels; level++) {
            unsigned at = node * ROW + lane;
            unsigned count, value = open_row(tree + at); // open the row
            unsigned next = child_line(at + LINE, key, value, &count);
            unsigned value2 = tree[next];                  // a row buffer hit
            if (key == value)
                results[q] = at;
            if (key == value2)
                results[q] = next;
            node = child_node(node * FANOUT + 1 + count * 31, key, value2);
        }
    }
}

// The tree of `levels` row levels over keys (sorted, as many as it holds),
// and pos[i], the word index of keys[i] in it.
struct tree_builder {
    std::vector<unsigned> words;
    std::vector<unsigned> pos;
    const std::vector<unsigned> *keys;
    size_t next = 0;
    unsigned levels;

    // Fill the line `line` of row node `node` (row level `level`) and what
    // hangs below it with the next keys, in order.
    void fill(size_t node, unsigned line, unsigned level)
    {
        size_t at = node * ROW + (size_t)line * LINE;
        bool leaf = line != 0 && level + 1 == levels;
        for (unsigned c = 0; c <= KEYS; c++) {
            if (!leaf) { // child c: a line of this row node, or a row node below
                if (line == 0)
                    fill(node, 1 + c, level);
                else
                    fill(node * FANOUT + 1 + (size_t)(line - 1) * 31 + c, 0, level + 1);
            }
            if (c < KEYS) {
                pos[next] = (unsigned)(at + c);
                words[at + c] = (*keys)[next++];
            }
        }
        words[at + KEYS] = words[at + KEYS + 1] = PAD;
    }
};

// A whole number from 1 to max from s, else exit 2.
static unsigned arg(const char *s, unsigned max, const char *what)
{
    char *end;
    unsigned long v = strtoul(s, &end, 10);
    if (end == s || *end || v < 1 || v > max) {
        fprintf(stderr, "usage: index_search [levels [queries [blocks]]]: bad %s '%s' (1 to %u)\n", what, s, max);
        exit(2);
    }
    return (unsigned)v;
}

int main(int argc, char **argv)
{
    unsigned levels = argc > 1 ? arg(argv[1], 3, "levels") : 2;
    unsigned nqueries = argc > 2 ? arg(argv[2], 1u << 24, "queries") : 4096;
    unsigned blocks = argc > 3 ? arg(argv[3], 65535, "blocks") : 4;
    size_t nodes = 0, power = 1;
    for (unsigned l = 0; l < levels; l++, power *= FANOUT)
        nodes += power;
    size_t nkeys = nodes * 32 * KEYS;
    // sorted distinct keys with gaps of 1 to 8 (fewer for 3 levels), all
    // well below the pad
    std::vector<unsigned> keys(nkeys);
    uint64_t rng = 0x1DE5EA2C4ull;
    unsigned key = 0, gap = (unsigned)std::min<size_t>(8, (PAD - 32) / nkeys);
    for (size_t i = 0; i < nkeys; i++)
        keys[i] = key += 1 + rng_below(&rng, gap);
    tree_builder b;
    b.words.assign(nodes * ROW, 0);
    b.pos.assign(nkeys, 0);
    b.keys = &keys;
    b.levels = levels;
    b.fill(0, 0, 0);
    std::vector<unsigned> queries(nqueries);
    for (unsigned q = 0; q < nqueries; q++)
        queries[q] = q % 2 ? keys[rng_below(&rng, (uint32_t)nkeys)] : rng_below(&rng, key + 16);

    unsigned *d_tree, *d_queries, *d_results;
    CK(cudaMalloc(&d_tree, b.words.size() * sizeof(unsigned)));
    CK(cudaMalloc(&d_queries, nqueries * sizeof(unsigned)));
    CK(cudaMalloc(&d_results, nqueries * sizeof(unsigned)));
    CK(cudaMemcpy(d_tree, b.words.data(), b.words.size() * sizeof(unsigned), cudaMemcpyHostToDevice));
    CK(cudaMemcpy(d_queries, queries.data(), nqueries * sizeof(unsigned), cudaMemcpyHostToDevice));
    CK(cudaMemset(d_results, 0xff, nqueries * sizeof(unsigned))); // NOT_FOUND
    index_search<<<blocks, THREADS>>>(d_tree, levels, d_queries, nqueries, d_results);
    CK(cudaGetLastError());
    std::vector<unsigned> results(nqueries);
    CK(cudaMemcpy(results.data(), d_results, nqueries * sizeof(unsigned), cudaMemcpyDeviceToHost));

    // CPU reference: binary search of the sorted keys
    unsigned found = 0, wrong = 0;
    for (unsigned q = 0; q < nqueries; q++) {
        auto it = std::lower_bound(keys.begin(), keys.end(), queries[q]);
        bool in = it != keys.end() && *it == queries[q];
        unsigned want = in ? b.pos[it - keys.begin()] : NOT_FOUND;
        found += in;
        if (results[q] != want && wrong++ < 5)
            fprintf(stderr, "query %u (key %u): result %u, expected %u\n", q, queries[q], results[q], want);
    }
    EXPECT(wrong == 0);
    printf("%s: %u row levels, %zu keys (%zu KiB), %u queries (%u found), %u blocks of %u threads\n", VARIANT,
           levels, nkeys, b.words.size() * sizeof(unsigned) / 1024, nqueries, found, blocks, THREADS);
    CK(cudaFree(d_tree));
    CK(cudaFree(d_queries));
    CK(cudaFree(d_results));
    return finish(VARIANT);
}
