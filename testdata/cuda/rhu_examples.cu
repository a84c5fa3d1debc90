// rhu_examples.cu — the source-level examples of Rhu's PhD thesis whose
// branches the thesis classifies (uniform / P-branch / D-branch), one kernel
// per figure, for the taint analysis tests (analysis/tests/test_taint.c).
//
// The listings in the thesis are excerpts ("..." elided); each kernel keeps
// the branch conditions exactly and fills the elided bodies with stores so
// that nvcc -O3 keeps a real branch (not a predicated instruction). Constants
// elided in the thesis (MAX_THREADS_PER_BLOCK, BLOCK_SIZE, HEIGHT, NUM) are
// given values here. Loops with constant bounds carry `#pragma unroll 1` so
// that their loop-end branch survives -O3 (nvcc would unroll them fully).
// In the BITONIC body (elided in the thesis) the compare-exchange uses
// min/max, so no data-dependent branch is added.

#define MAX_THREADS_PER_BLOCK 512
#define BLOCK_SIZE 16
#define HEIGHT 16
#define NUM 256

// Fig. 3.7(a), BFS: BR_B-E `tid<no_of_nodes && g_graph_mask[tid]` (P && D:
// nvcc emits two branches, P then D) and BR_C-D `!g_graph_visited[id]` (D).
extern "C" __global__ void fig3_7a_bfs(const int *g_graph_edges, const bool *g_graph_mask,
                                       bool *g_graph_visited, int *g_cost, int no_of_nodes)
{
    int tid = blockIdx.x * MAX_THREADS_PER_BLOCK + threadIdx.x;
    // Block A
    if (tid < no_of_nodes && g_graph_mask[tid]) { // BR_B-E
        // Block B
        int id = g_graph_edges[tid];
        g_cost[tid] = id;
        if (!g_graph_visited[id]) { // BR_C-D
            // Block C
            g_cost[id] = g_cost[tid] + 1;
            g_graph_visited[id] = true;
        }
        // Block D
        g_cost[tid + no_of_nodes] = 7;
    }
    // Block E
}

// Fig. 3.7(b), LUD: BR_B-C `threadIdx.x < BLOCK_SIZE` (P), interleavable.
// The loop bounds are constants (uniform loop branches).
extern "C" __global__ void fig3_7b_lud(float *m, int matrix_dim, int offset)
{
    int idx, array_offset;
    if (threadIdx.x < BLOCK_SIZE) { // BR_B-C
        // Block B
        idx = threadIdx.x;
        array_offset = offset * matrix_dim + offset;
        for (int i = 0; i < BLOCK_SIZE / 2; i++)
            m[array_offset + i * matrix_dim + idx] *= 2.0f;
    } else {
        // Block C
        idx = threadIdx.x - BLOCK_SIZE;
        array_offset = (offset + BLOCK_SIZE / 2) * matrix_dim + offset;
        for (int i = BLOCK_SIZE / 2; i < BLOCK_SIZE; i++)
            m[array_offset + i * matrix_dim + idx] += 1.0f;
    }
    // Block D
    m[idx] = (float)array_offset;
}

// Fig. 4.4, BACKP bpn_layerforward: line 9 `tx == 0` (P, divergent but
// compaction-ineffective); line 17 the loop-end branch (non-divergent).
// The loop body (elided in the thesis) is the reduction of the benchmark.
extern "C" __global__ void fig4_4_backp(const float *input_cuda, float *out, int hid)
{
    int by = blockIdx.y;
    int tx = threadIdx.x;
    int ty = threadIdx.y;
    int index_in = HEIGHT * by + ty + 1;
    __shared__ float input_node[HEIGHT];
    __shared__ float weight_matrix[HEIGHT][HEIGHT];

    if (tx == 0) // line 9
        input_node[ty] = input_cuda[index_in];
    __syncthreads();
    weight_matrix[ty][tx] = input_node[ty] * (float)hid;
    __syncthreads();
#pragma unroll 1
    for (int i = 1; i <= __log2f(HEIGHT); i++) { // line 15/17 loop
        int power_two = __powf(2, i);
        weight_matrix[ty][tx] += 1.0f / power_two;
        __syncthreads();
    }
    out[index_in * HEIGHT + tx] = weight_matrix[ty][tx];
}

// Fig. 4.11(a), BFS: line 7 `!g_graph_visited[id]` where id is loaded (D).
extern "C" __global__ void fig4_11a_bfs(const int *g_graph_edges, bool *g_graph_visited,
                                        int *g_cost)
{
    int tid = blockIdx.x * MAX_THREADS_PER_BLOCK + threadIdx.x;
    int id = g_graph_edges[tid];
    if (!g_graph_visited[id]) { // line 7
        g_graph_visited[id] = true;
        g_cost[id] = tid;
        g_cost[tid] = id;
    }
}

// Fig. 4.11(b), SORTNW: line 8 `(keyA > keyB) == dir` with dir = ddd, a P
// value, combined with shared-memory data s_key (D).
__device__ inline void Comparator(unsigned &keyA, unsigned &valA, unsigned &keyB, unsigned &valB,
                                  unsigned dir)
{
    if ((keyA > keyB) == dir) { // line 8
        unsigned t;
        t = keyA; keyA = keyB; keyB = t;
        t = valA; valA = valB; valB = t;
    }
}

extern "C" __global__ void fig4_11b_sortnw(unsigned *d_key, unsigned *d_val, unsigned size,
                                           unsigned dir)
{
    __shared__ unsigned s_key[2 * NUM], s_val[2 * NUM];
    s_key[threadIdx.x] = d_key[threadIdx.x];
    s_val[threadIdx.x] = d_val[threadIdx.x];
    __syncthreads();
    unsigned ddd = dir & ((threadIdx.x & (size / 2)) != 0); // line 3
    unsigned pos = 2 * threadIdx.x;
    Comparator(s_key[pos], s_val[pos], s_key[pos + 1], s_val[pos + 1], ddd);
    __syncthreads();
    d_key[threadIdx.x] = s_key[threadIdx.x];
    d_val[threadIdx.x] = s_val[threadIdx.x];
}

// Fig. 4.12(a), BITONIC: line 7 `ixj > tid` and line 8 `(tid & k) == 0`
// (both P); the loop branches (k, j from constants) are uniform.
extern "C" __global__ void fig4_12a_bitonic(int *values)
{
    __shared__ int shared[NUM];
    const unsigned int tid = threadIdx.x;
    shared[tid] = values[tid];
    __syncthreads();
#pragma unroll 1
    for (unsigned int k = 2; k <= NUM; k *= 2) {
#pragma unroll 1
        for (unsigned int j = k / 2; j > 0; j /= 2) {
            unsigned int ixj = tid ^ j;
            if (ixj > tid) { // line 7
                int a = shared[tid], b = shared[ixj];
                if ((tid & k) == 0) { // line 8
                    shared[tid] = min(a, b);
                    shared[ixj] = max(a, b);
                } else {
                    shared[tid] = max(a, b);
                    shared[ixj] = min(a, b);
                }
            }
            __syncthreads();
        }
    }
    values[tid] = shared[tid];
}

// Fig. 4.12(b), Mandelbrot: line 6 `(ix < imageW) && (iy < imageH)` (P:
// thread/CTA indices against scalar kernel parameters).
extern "C" __global__ void fig4_12b_mandelbrot(unsigned *dst, int imageW, int imageH, int blockX,
                                               int blockY)
{
    const int ix = blockDim.x * blockX + threadIdx.x;
    const int iy = blockDim.y * blockY + threadIdx.y;
    if ((ix < imageW) && (iy < imageH)) { // line 6
        int pixel = imageW * iy + ix;
        dst[pixel] = (unsigned)(ix * iy);
        dst[pixel + imageW * imageH] = (unsigned)(ix + iy);
    }
}

// Fig. 4.17, BACKP: line 9 `ty % power_two == 0` (P); the loop over i has a
// constant trip count (uniform).
extern "C" __global__ void fig4_17_backp(float *weight, int hid)
{
    __shared__ float weight_matrix[HEIGHT][HEIGHT];
    int tx = threadIdx.x;
    int ty = threadIdx.y;
    weight_matrix[ty][tx] = weight[ty * hid + tx];
    __syncthreads();
#pragma unroll 1
    for (int i = 1; i <= __log2f(HEIGHT); i++) {
        int power_two = __powf(2, i);
        if (ty % power_two == 0) // line 9
            weight_matrix[ty][tx] = weight_matrix[ty][tx] + weight_matrix[ty + power_two / 2][tx];
        __syncthreads();
    }
    weight[ty * hid + tx] = weight_matrix[ty][tx];
}
