// bfs2.cu — breadth-first search of a large random graph by the two-kernel
// level scheme of Rodinia's BFS (the BFS2 of Turner's thesis on replay
// and hazards): the first kernel visits the edges of every node in the
// frontier mask and marks the unvisited neighbours with their cost, the
// second turns the marks into the next frontier and raises a flag while
// it is not empty. Nodes are stored as Rodinia stores them, a
// (first edge, edge count) pair per node.
//
// Memory intensity: the graph (49,152 nodes, 282,180 edges: 1.5 MB of
// nodes and edges, plus 340 KB of masks and costs) is read at random.
// Each frontier node reads its own edge list (a lane each, so a line per
// lane) and then, per edge, the visited flag of a random node and
// possibly writes its cost and mark: scattered accesses to lines that
// miss. The sweeps over the masks are coalesced but stream through
// memory at every level.
//
// Default size: 49,152 nodes (degrees 1-8, one node in 16 up to 40),
// source node 0, depth 10: 22 launches; argv[1] = k multiplies the node
// count by k. Every node's cost is checked exactly against a queue-based
// BFS on the CPU.
#include "../check.h"
#include "../divergent/divergent.h"

#include <vector>

#define BLOCK 256

struct alignas(8) node {
    int first, count; // the node's edges: edges[first .. first + count)
};

// Each frontier node offers cost + 1 to its unvisited neighbours. Nodes of
// one level may mark the same neighbour; they write the same values.
__global__ void expand(const node *nodes, const int *edges, char *mask, char *updating, const char *visited,
                       int *cost, int n)
{
    int v = blockIdx.x * blockDim.x + threadIdx.x;
    if (v >= n || !mask[v])
        return;
    mask[v] = 0;
    node nd = nodes[v];
    int next = cost[v] + 1;
    for (int e = nd.first; e < nd.first + nd.count; e++) {
        int w = edges[e];
        if (!visited[w]) {
            cost[w] = next;
            updating[w] = 1;
        }
    }
}

// The marked nodes form the next frontier; *over is set when there is one.
__global__ void advance(char *mask, char *updating, char *visited, int *over, int n)
{
    int v = blockIdx.x * blockDim.x + threadIdx.x;
    if (v >= n || !updating[v])
        return;
    mask[v] = 1;
    visited[v] = 1;
    updating[v] = 0;
    *over = 1;
}

int main(int argc, char **argv)
{
    int scale = size_scale(argc, argv, 64);
    const int n = 49152 * scale;

    uint64_t rng = 0xbf52ull;
    std::vector<node> nodes(n);
    std::vector<int> edges;
    for (int v = 0; v < n; v++) {
        int degree = rng_below(&rng, 16) == 0 ? 9 + (int)rng_below(&rng, 32) : 1 + (int)rng_below(&rng, 8);
        nodes[v] = {(int)edges.size(), degree};
        for (int d = 0; d < degree; d++)
            edges.push_back((int)rng_below(&rng, n));
    }
    const int m = (int)edges.size();
    const int source = 0;

    // CPU reference: costs by a FIFO queue, -1 for unreachable nodes.
    std::vector<int> want(n, -1), queue;
    want[source] = 0;
    queue.push_back(source);
    for (size_t head = 0; head < queue.size(); head++) {
        int v = queue[head];
        for (int e = nodes[v].first; e < nodes[v].first + nodes[v].count; e++)
            if (want[edges[e]] < 0) {
                want[edges[e]] = want[v] + 1;
                queue.push_back(edges[e]);
            }
    }

    std::vector<char> mask(n, 0), visited(n, 0);
    std::vector<int> cost(n, -1);
    mask[source] = visited[source] = 1;
    cost[source] = 0;

    node *d_nodes;
    int *d_edges, *d_cost, *d_over;
    char *d_mask, *d_updating, *d_visited;
    CK(cudaMalloc(&d_nodes, n * sizeof(node)));
    CK(cudaMalloc(&d_edges, m * sizeof(int)));
    CK(cudaMalloc(&d_cost, n * sizeof(int)));
    CK(cudaMalloc(&d_over, sizeof(int)));
    CK(cudaMalloc(&d_mask, n));
    CK(cudaMalloc(&d_updating, n));
    CK(cudaMalloc(&d_visited, n));
    CK(cudaMemcpy(d_nodes, nodes.data(), n * sizeof(node), cudaMemcpyHostToDevice));
    CK(cudaMemcpy(d_edges, edges.data(), m * sizeof(int), cudaMemcpyHostToDevice));
    CK(cudaMemcpy(d_cost, cost.data(), n * sizeof(int), cudaMemcpyHostToDevice));
    CK(cudaMemcpy(d_mask, mask.data(), n, cudaMemcpyHostToDevice));
    CK(cudaMemcpy(d_visited, visited.data(), n, cudaMemcpyHostToDevice));
    CK(cudaMemset(d_updating, 0, n));

    const int blocks = (n + BLOCK - 1) / BLOCK;
    int levels = 0, over;
    do {
        over = 0;
        CK(cudaMemcpy(d_over, &over, sizeof(int), cudaMemcpyHostToDevice));
        expand<<<blocks, BLOCK>>>(d_nodes, d_edges, d_mask, d_updating, d_visited, d_cost, n);
        CK(cudaGetLastError());
        advance<<<blocks, BLOCK>>>(d_mask, d_updating, d_visited, d_over, n);
        CK(cudaGetLastError());
        CK(cudaMemcpy(&over, d_over, sizeof(int), cudaMemcpyDeviceToHost));
        levels++;
    } while (over && levels <= n);
    CK(cudaMemcpy(cost.data(), d_cost, n * sizeof(int), cudaMemcpyDeviceToHost));

    int wrong = 0, reached = 0, depth = 0;
    for (int v = 0; v < n; v++) {
        if (cost[v] != want[v] && wrong++ < 5)
            fprintf(stderr, "node %d: cost %d, expected %d\n", v, cost[v], want[v]);
        reached += want[v] >= 0;
        depth = want[v] > depth ? want[v] : depth;
    }
    EXPECT(wrong == 0);
    // one round per level, and a last one that finds no new node
    EXPECT(levels == depth + 1);
    printf("bfs2: %d nodes, %d edges, %d reached, depth %d, %d launches\n", n, m, reached, depth, 2 * levels);
    return finish("bfs2");
}
