// treesearch.cu — index lookups: many queries walk a binary search tree
// stored in arrays (key, left child, right child), each finding the
// largest key not above its query (the floor; an exact match ends the
// walk at once) and the value stored with it.
//
// The tree is built on the host by inserting distinct keys: most in random
// order, the rest in ascending runs of close keys, which hang chains off
// the random part (as an index does when keys arrive in bursts of
// increasing values). So the depth of a walk ranges from a few nodes to
// several dozen.
//
// Divergence: one thread per query, and each walk has its own length
// (loop trip counts from 1 to the tree's height), its own left/right
// decisions at every level and an early exit on an exact match.
// Default size: 4096 keys, 16384 queries, half of them keys of the tree
// (argv[1] = n scales both by n). Results are checked exactly against
// the same walk on the CPU, and the floors also against a binary search
// of the sorted keys.
#include "../check.h"
#include "divergent.h"

#include <algorithm>
#include <vector>

#define BLOCK 128

struct tree {
    const int *key, *left, *right, *value; // node 0 is the root; -1: no child
};

struct answer {
    int floor, value, depth; // floor -1 when every key exceeds the query
};

// The walk from the root for query q.
__host__ __device__ inline answer lookup(const tree &t, int q)
{
    answer a = {-1, -1, 0};
    int node = 0;
    while (node >= 0) {
        int k = t.key[node];
        a.depth++;
        if (k == q) {
            a.floor = k;
            a.value = t.value[node];
            break;
        }
        if (k < q) {
            a.floor = k; // the best so far; larger keys lie to the right
            a.value = t.value[node];
            node = t.right[node];
        } else {
            node = t.left[node];
        }
    }
    return a;
}

// One walk a query: out[i] answers queries[i].
__global__ void search(tree t, const int *queries, int n, answer *out)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = lookup(t, queries[i]);
}

int main(int argc, char **argv)
{
    int scale = size_scale(argc, argv, 1024);
    const int nkeys = 4096 * scale, nqueries = 16384 * scale, range = 1 << 24;
    uint64_t rng = 0x7EE5EA4C4ull;

    // distinct keys: most a random sample of [0, range) in random order,
    // the last eighth in ascending runs of 4 to 64 close keys (each run
    // falls between two keys of the random part and becomes a chain)
    std::vector<int> keys;
    std::vector<char> used(range, 0);
    int random_part = nkeys - nkeys / 8;
    while ((int)keys.size() < nkeys) {
        int k = (int)rng_below(&rng, range - 256);
        int run = (int)keys.size() < random_part ? 1 : 4 + (int)rng_below(&rng, 61);
        for (int j = 0; j < run && (int)keys.size() < nkeys; j++, k += 1 + (int)rng_below(&rng, 3))
            if (!used[k]) {
                used[k] = 1;
                keys.push_back(k);
            }
    }
    std::vector<int> key, left, right, value;
    for (int k : keys) {
        int node = (int)key.size();
        key.push_back(k);
        left.push_back(-1);
        right.push_back(-1);
        value.push_back(k ^ 0x5A5A5A);
        for (int at = 0; node > 0;) { // find the leaf to hang it from
            int &child = k < key[at] ? left[at] : right[at];
            if (child < 0) {
                child = node;
                break;
            }
            at = child;
        }
    }
    std::vector<int> queries(nqueries);
    for (int i = 0; i < nqueries; i++)
        queries[i] = i % 2 ? keys[rng_below(&rng, nkeys)] : (int)rng_below(&rng, range);

    int *d_cols[4], *d_queries;
    answer *d_out;
    std::vector<int> *cols[4] = {&key, &left, &right, &value};
    for (int c = 0; c < 4; c++) {
        CK(cudaMalloc(&d_cols[c], nkeys * sizeof(int)));
        CK(cudaMemcpy(d_cols[c], cols[c]->data(), nkeys * sizeof(int), cudaMemcpyHostToDevice));
    }
    CK(cudaMalloc(&d_queries, nqueries * sizeof(int)));
    CK(cudaMalloc(&d_out, nqueries * sizeof(answer)));
    CK(cudaMemcpy(d_queries, queries.data(), nqueries * sizeof(int), cudaMemcpyHostToDevice));
    tree t = {d_cols[0], d_cols[1], d_cols[2], d_cols[3]};
    search<<<(nqueries + BLOCK - 1) / BLOCK, BLOCK>>>(t, d_queries, nqueries, d_out);
    CK(cudaGetLastError());
    std::vector<answer> got(nqueries);
    CK(cudaMemcpy(got.data(), d_out, nqueries * sizeof(answer), cudaMemcpyDeviceToHost));

    tree h = {key.data(), left.data(), right.data(), value.data()};
    std::vector<int> sorted(keys);
    std::sort(sorted.begin(), sorted.end());
    int wrong = 0, deepest = 0;
    long depth_sum = 0;
    for (int i = 0; i < nqueries; i++) {
        answer want = lookup(h, queries[i]);
        // the floor by binary search, independently of the tree
        auto above = std::upper_bound(sorted.begin(), sorted.end(), queries[i]);
        int floor = above == sorted.begin() ? -1 : *(above - 1);
        EXPECT(want.floor == floor);
        if ((got[i].floor != want.floor || got[i].value != want.value || got[i].depth != want.depth) &&
            wrong++ < 5)
            fprintf(stderr, "query %d (%d): floor %d value %d depth %d; expected %d, %d, %d\n", i, queries[i],
                    got[i].floor, got[i].value, got[i].depth, want.floor, want.value, want.depth);
        deepest = std::max(deepest, want.depth);
        depth_sum += want.depth;
    }
    EXPECT(wrong == 0);
    printf("treesearch: %d keys, %d queries, depth %.1f on average, %d at most\n", nkeys, nqueries,
           (double)depth_sum / nqueries, deepest);
    for (int c = 0; c < 4; c++)
        CK(cudaFree(d_cols[c]));
    CK(cudaFree(d_queries));
    CK(cudaFree(d_out));
    return finish("treesearch");
}
