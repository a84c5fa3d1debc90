// pchase.cu — many independent pointer chases: every thread follows its own
// walk of STEPS links through a linked list of nodes (next index and a
// weight, 8 bytes each) whose order is one random cycle over all of them
// (Sattolo's shuffle), summing the weights and the positions it passes,
// as linked-structure traversals (hash chains, adjacency lists, trees
// laid out by allocation order) do.
//
// Memory intensity: every step is a load whose address is the previous
// load's result, so a warp can have only one load in flight and waits out
// the whole miss latency at every step; the 32 lanes of a warp are at 32
// unrelated nodes (one cache line each: memory divergence), and the 8 MB
// list has no locality for the caches to catch. A step is a handful of
// instructions, so the cores have little but loads to issue.
//
// Default size: 1M nodes (8 MB), 8192 walks of 24 steps; argv[1] = k
// multiplies the number of walks by k. Results are integers, checked
// exactly against the same walks on the CPU.
#include "../check.h"
#include "../divergent/divergent.h"

#include <vector>

#define BLOCK 128
#define STEPS 24

struct alignas(8) node {
    uint32_t next, weight; // one 8-byte load
};

struct walk {
    uint32_t end, sum;
};

// The walk from start: STEPS links, summing weights and mixing in positions.
__host__ __device__ inline walk chase(const node *list, uint32_t start)
{
    uint32_t at = start, sum = 0;
    for (int s = 0; s < STEPS; s++) {
        node x = list[at];
        sum = sum * 31u + (x.weight ^ at);
        at = x.next;
    }
    return {at, sum};
}

__global__ void pchase(const node *list, const uint32_t *starts, walk *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = chase(list, starts[i]);
}

int main(int argc, char **argv)
{
    int scale = size_scale(argc, argv, 64);
    const uint32_t nodes = 1u << 20;
    const int n = 8192 * scale; // walks

    // One cycle through every node (Sattolo's shuffle of 0..nodes-1 gives
    // a cyclic permutation): node order[i] links to order[i + 1].
    uint64_t rng = 0x9c4a5eull;
    std::vector<uint32_t> order(nodes);
    for (uint32_t i = 0; i < nodes; i++)
        order[i] = i;
    for (uint32_t i = nodes - 1; i > 0; i--) {
        uint32_t j = rng_below(&rng, i); // j < i: Sattolo, not Fisher-Yates
        uint32_t t = order[i];
        order[i] = order[j];
        order[j] = t;
    }
    std::vector<node> list(nodes);
    for (uint32_t i = 0; i < nodes; i++) {
        list[order[i]].next = order[(i + 1) % nodes];
        list[order[i]].weight = (uint32_t)rng_next(&rng);
    }
    std::vector<uint32_t> starts(n);
    for (auto &s : starts)
        s = rng_below(&rng, nodes);

    node *d_list;
    uint32_t *d_starts;
    walk *d_out;
    CK(cudaMalloc(&d_list, nodes * sizeof(node)));
    CK(cudaMalloc(&d_starts, n * sizeof(uint32_t)));
    CK(cudaMalloc(&d_out, n * sizeof(walk)));
    CK(cudaMemcpy(d_list, list.data(), nodes * sizeof(node), cudaMemcpyHostToDevice));
    CK(cudaMemcpy(d_starts, starts.data(), n * sizeof(uint32_t), cudaMemcpyHostToDevice));
    CK(cudaMemset(d_out, 0, n * sizeof(walk)));
    pchase<<<(n + BLOCK - 1) / BLOCK, BLOCK>>>(d_list, d_starts, d_out, n);
    CK(cudaGetLastError());
    std::vector<walk> out(n);
    CK(cudaMemcpy(out.data(), d_out, n * sizeof(walk), cudaMemcpyDeviceToHost));

    int wrong = 0;
    for (int i = 0; i < n; i++) {
        walk want = chase(list.data(), starts[i]);
        if ((out[i].end != want.end || out[i].sum != want.sum) && wrong++ < 5)
            fprintf(stderr, "walk %d: end %u sum %u, expected %u %u\n", i, out[i].end, out[i].sum, want.end, want.sum);
    }
    EXPECT(wrong == 0);
    // the end of a walk is STEPS links further along the cycle
    std::vector<uint32_t> position(nodes);
    for (uint32_t i = 0; i < nodes; i++)
        position[order[i]] = i;
    int off = 0;
    for (int i = 0; i < n; i++)
        off += position[out[i].end] != (position[starts[i]] + STEPS) % nodes;
    EXPECT(off == 0);
    printf("pchase: %d walks of %d steps through %u nodes\n", n, STEPS, nodes);
    return finish("pchase");
}
