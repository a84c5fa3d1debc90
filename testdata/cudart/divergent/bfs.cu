// bfs.cu — breadth-first search over a random directed graph, one level per
// pair of kernel launches: expand_frontier visits the edges of every node
// in the frontier and marks unvisited neighbours, advance_frontier turns
// the marks into the next frontier and raises a flag while it is not empty.
// The host relaunches both until the flag stays down, then checks every
// node's level against a queue-based CPU BFS (exact: levels are integers).
//
// Divergence: only the lanes whose node is in the frontier work
// (`if (frontier[v])`), each walks its own number of edges (degrees are
// drawn from a skewed distribution: most nodes have 1-4 edges, one in 16
// has up to 48), and a neighbour is marked only if not yet visited.
//
// Default size: 4096 nodes (16504 edges, depth 9: 10 rounds, 20
// launches); argv[1] = k multiplies the node count by k.
#include "../check.h"
#include "divergent.h"

#include <vector>

#define BLOCK 256

// Each frontier node offers level + 1 to its unvisited neighbours. Several
// nodes may mark the same neighbour in one level; they all write the same
// values, so the race is benign (as in the usual GPU BFS).
__global__ void expand_frontier(const int *row_start, const int *edges, const char *frontier,
                                const char *visited, char *marked, int *level, int n)
{
    int v = blockIdx.x * blockDim.x + threadIdx.x;
    if (v >= n || !frontier[v])
        return;
    int next = level[v] + 1;
    for (int e = row_start[v]; e < row_start[v + 1]; e++) {
        int w = edges[e];
        if (!visited[w]) {
            level[w] = next;
            marked[w] = 1;
        }
    }
}

// The marked nodes become the next frontier and are visited; the old
// frontier is cleared. *grew is set when any node was marked.
__global__ void advance_frontier(char *frontier, char *visited, char *marked, int *grew, int n)
{
    int v = blockIdx.x * blockDim.x + threadIdx.x;
    if (v >= n)
        return;
    frontier[v] = 0;
    if (marked[v]) {
        frontier[v] = 1;
        visited[v] = 1;
        marked[v] = 0;
        *grew = 1;
    }
}

int main(int argc, char **argv)
{
    int scale = size_scale(argc, argv, 1024);
    const int n = 4096 * scale;

    // Graph in CSR form: a skewed out-degree per node, random targets.
    uint64_t rng = 0xbf5ull;
    std::vector<int> row_start(n + 1), edges;
    for (int v = 0; v < n; v++) {
        row_start[v] = (int)edges.size();
        int degree = rng_below(&rng, 16) == 0 ? 8 + (int)rng_below(&rng, 41) : 1 + (int)rng_below(&rng, 4);
        for (int d = 0; d < degree; d++)
            edges.push_back((int)rng_below(&rng, n));
    }
    row_start[n] = (int)edges.size();
    const int m = (int)edges.size();
    const int source = 0;

    // CPU reference: levels by a FIFO queue, -1 for unreachable nodes.
    std::vector<int> want(n, -1), queue;
    want[source] = 0;
    queue.push_back(source);
    for (size_t head = 0; head < queue.size(); head++) {
        int v = queue[head];
        for (int e = row_start[v]; e < row_start[v + 1]; e++)
            if (want[edges[e]] < 0) {
                want[edges[e]] = want[v] + 1;
                queue.push_back(edges[e]);
            }
    }

    std::vector<char> frontier(n, 0), visited(n, 0);
    std::vector<int> level(n, -1);
    frontier[source] = visited[source] = 1;
    level[source] = 0;

    int *d_row_start, *d_edges, *d_level, *d_grew;
    char *d_frontier, *d_visited, *d_marked;
    CK(cudaMalloc(&d_row_start, (n + 1) * sizeof(int)));
    CK(cudaMalloc(&d_edges, m * sizeof(int)));
    CK(cudaMalloc(&d_level, n * sizeof(int)));
    CK(cudaMalloc(&d_grew, sizeof(int)));
    CK(cudaMalloc(&d_frontier, n));
    CK(cudaMalloc(&d_visited, n));
    CK(cudaMalloc(&d_marked, n));
    CK(cudaMemcpy(d_row_start, row_start.data(), (n + 1) * sizeof(int), cudaMemcpyHostToDevice));
    CK(cudaMemcpy(d_edges, edges.data(), m * sizeof(int), cudaMemcpyHostToDevice));
    CK(cudaMemcpy(d_level, level.data(), n * sizeof(int), cudaMemcpyHostToDevice));
    CK(cudaMemcpy(d_frontier, frontier.data(), n, cudaMemcpyHostToDevice));
    CK(cudaMemcpy(d_visited, visited.data(), n, cudaMemcpyHostToDevice));
    CK(cudaMemset(d_marked, 0, n));

    const int blocks = (n + BLOCK - 1) / BLOCK;
    int levels = 0, grew;
    do {
        grew = 0;
        CK(cudaMemcpy(d_grew, &grew, sizeof(int), cudaMemcpyHostToDevice));
        expand_frontier<<<blocks, BLOCK>>>(d_row_start, d_edges, d_frontier, d_visited, d_marked, d_level, n);
        CK(cudaGetLastError());
        advance_frontier<<<blocks, BLOCK>>>(d_frontier, d_visited, d_marked, d_grew, n);
        CK(cudaGetLastError());
        CK(cudaMemcpy(&grew, d_grew, sizeof(int), cudaMemcpyDeviceToHost));
        levels++;
    } while (grew && levels <= n);
    CK(cudaMemcpy(level.data(), d_level, n * sizeof(int), cudaMemcpyDeviceToHost));

    int wrong = 0, reached = 0, depth = 0;
    for (int v = 0; v < n; v++) {
        if (level[v] != want[v] && wrong++ < 5)
            fprintf(stderr, "node %d: level %d, expected %d\n", v, level[v], want[v]);
        reached += want[v] >= 0;
        depth = want[v] > depth ? want[v] : depth;
    }
    EXPECT(wrong == 0);
    // the loop runs once per level plus the final one that finds no new node
    EXPECT(levels == depth + 1);
    printf("bfs: %d nodes, %d edges, %d reached, depth %d, %d launches\n", n, m, reached, depth, 2 * levels);
    return finish("bfs");
}
