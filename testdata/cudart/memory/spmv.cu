// spmv.cu — sparse matrix-vector product y = A x with A in CSR form, by the
// two classic kernels: one thread per row (scalar) and one warp per row
// (vector: the lanes take every 32nd nonzero of the row, then add their
// partial sums by a shuffle tree).
//
// The matrix has skewed row lengths (most rows 2-16 nonzeros, one in 32
// rows 64-256, as in web and citation graphs) and uniformly random
// columns over a vector of 1M floats.
//
// Memory intensity: every nonzero gathers x[col] from a random place in a
// 4 MB vector (a cache line per lane: memory divergence, and a miss in
// both levels almost always). The scalar kernel also reads the row's
// column indices and values with one row per lane, 32 rows apart: 32
// lines per load again, reused by the lane's next nonzeros only if the
// L1 keeps them that long. The vector kernel reads them coalesced, but
// has one row per warp, so its long rows keep a warp busy while the
// short ones leave most lanes idle.
//
// Default size: 8192 rows, 1M columns, about 110,000 nonzeros (0.9 MB
// of CSR arrays, 4 MB of x); argv[1] = k multiplies the rows by k. Both
// results are checked exactly: the CPU adds in each kernel's order with
// the unfused operations of divergent.h.
#include "../check.h"
#include "../divergent/divergent.h"

#include <vector>

#define BLOCK 128

// One thread per row: the row's products added in order.
__global__ void spmv_scalar(const int *row_start, const int *cols, const float *vals, const float *x, float *y,
                            int rows)
{
    int r = blockIdx.x * blockDim.x + threadIdx.x;
    if (r >= rows)
        return;
    float sum = 0.0f;
    for (int j = row_start[r]; j < row_start[r + 1]; j++)
        sum = fadd(sum, fmul(vals[j], x[cols[j]]));
    y[r] = sum;
}

// One warp per row: lane l adds the products l, l + 32, ...; the shuffle
// tree then adds lane l + off into lane l for off = 16, 8, 4, 2, 1.
__global__ void spmv_vector(const int *row_start, const int *cols, const float *vals, const float *x, float *y,
                            int rows)
{
    int r = (blockIdx.x * blockDim.x + threadIdx.x) / 32, lane = threadIdx.x % 32;
    if (r >= rows)
        return; // whole warps: rows is a multiple of BLOCK / 32 here
    float sum = 0.0f;
    for (int j = row_start[r] + lane; j < row_start[r + 1]; j += 32)
        sum = fadd(sum, fmul(vals[j], x[cols[j]]));
    for (int off = 16; off > 0; off /= 2)
        sum = fadd(sum, __shfl_down_sync(0xffffffffu, sum, off));
    if (lane == 0)
        y[r] = sum;
}

int main(int argc, char **argv)
{
    int scale = size_scale(argc, argv, 64);
    const int rows = 8192 * scale, cols_n = 1 << 20;

    uint64_t rng = 0x5b3full;
    std::vector<int> row_start(rows + 1), cols;
    std::vector<float> vals;
    for (int r = 0; r < rows; r++) {
        row_start[r] = (int)cols.size();
        int len = rng_below(&rng, 32) == 0 ? 64 + (int)rng_below(&rng, 193) : 2 + (int)rng_below(&rng, 15);
        for (int k = 0; k < len; k++) {
            cols.push_back((int)rng_below(&rng, cols_n));
            vals.push_back(fsub(rng_unit(&rng), 0.5f));
        }
    }
    row_start[rows] = (int)cols.size();
    const int nnz = (int)cols.size();
    std::vector<float> x(cols_n);
    for (auto &v : x)
        v = fadd(rng_unit(&rng), 0.25f);

    // CPU references in each kernel's order of additions
    std::vector<float> want_scalar(rows), want_vector(rows);
    for (int r = 0; r < rows; r++) {
        float sum = 0.0f, part[32] = {0};
        for (int j = row_start[r]; j < row_start[r + 1]; j++) {
            float p = fmul(vals[j], x[cols[j]]);
            sum = fadd(sum, p);
            part[(j - row_start[r]) % 32] = fadd(part[(j - row_start[r]) % 32], p);
        }
        want_scalar[r] = sum;
        for (int off = 16; off > 0; off /= 2)
            for (int l = 0; l < off; l++)
                part[l] = fadd(part[l], part[l + off]);
        want_vector[r] = part[0];
    }

    int *d_row_start, *d_cols;
    float *d_vals, *d_x, *d_y;
    CK(cudaMalloc(&d_row_start, (rows + 1) * sizeof(int)));
    CK(cudaMalloc(&d_cols, nnz * sizeof(int)));
    CK(cudaMalloc(&d_vals, nnz * sizeof(float)));
    CK(cudaMalloc(&d_x, cols_n * sizeof(float)));
    CK(cudaMalloc(&d_y, rows * sizeof(float)));
    CK(cudaMemcpy(d_row_start, row_start.data(), (rows + 1) * sizeof(int), cudaMemcpyHostToDevice));
    CK(cudaMemcpy(d_cols, cols.data(), nnz * sizeof(int), cudaMemcpyHostToDevice));
    CK(cudaMemcpy(d_vals, vals.data(), nnz * sizeof(float), cudaMemcpyHostToDevice));
    CK(cudaMemcpy(d_x, x.data(), cols_n * sizeof(float), cudaMemcpyHostToDevice));

    std::vector<float> y(rows);
    for (int form = 0; form < 2; form++) {
        CK(cudaMemset(d_y, 0, rows * sizeof(float)));
        if (form == 0)
            spmv_scalar<<<(rows + BLOCK - 1) / BLOCK, BLOCK>>>(d_row_start, d_cols, d_vals, d_x, d_y, rows);
        else
            spmv_vector<<<rows / (BLOCK / 32), BLOCK>>>(d_row_start, d_cols, d_vals, d_x, d_y, rows);
        CK(cudaGetLastError());
        CK(cudaMemcpy(y.data(), d_y, rows * sizeof(float), cudaMemcpyDeviceToHost));
        const std::vector<float> &want = form == 0 ? want_scalar : want_vector;
        int wrong = 0;
        for (int r = 0; r < rows; r++)
            if (y[r] != want[r] && wrong++ < 5)
                fprintf(stderr, "%s: y[%d] = %.9g, expected %.9g\n", form ? "vector" : "scalar", r, y[r], want[r]);
        EXPECT(wrong == 0);
    }
    printf("spmv: %d rows, %d columns, %d nonzeros, scalar and vector kernels\n", rows, cols_n, nnz);
    return finish("spmv");
}
