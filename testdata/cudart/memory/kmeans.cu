// kmeans.cu — the assignment step of k-means clustering, after Rodinia's
// kmeans with its points left in their input layout (the KMN of Turner's
// thesis on replay and hazards): one thread per point computes the squared
// distance to every centroid (in constant memory) feature by feature and
// keeps the nearest; the host then moves each centroid to the mean of
// its points and launches again.
//
// Memory intensity: the points are an array of structures, FEATURES
// floats (128 bytes) each, so a warp's load of one feature reads 32
// lines (one per lane, 128 bytes apart: uncoalesced) and uses 4 bytes of
// each. nvcc loads a point's features once, before the loop over the
// centroids, as 32 loads in a row; the next 31 could use the lines the
// first one brought, but each warp of a core asks for 4 KB of lines at
// once, and the 16-24 warps of a core for more than a 48 KB L1 holds:
// when the lines are gone before a warp's next load reaches them, every
// lane misses again and its line comes from the L2 or the DRAM once per
// feature.
//
// Default size: 6144 points of 32 features (768 KB), 5 clusters, 2
// iterations (2 launches); argv[1] = k multiplies the points by k.
// Memberships are checked exactly after every iteration: the CPU computes
// the distances in the kernel's order with the unfused operations of
// divergent.h.
#include "../check.h"
#include "../divergent/divergent.h"

#include <vector>

#define BLOCK 256
#define FEATURES 32
#define CLUSTERS 5
#define ITERATIONS 2

__constant__ float c_centroids[CLUSTERS * FEATURES];

// The nearest centroid to point p (the first one of equal distance).
__host__ __device__ inline int nearest(const float *points, const float *centroids, int p)
{
    int best = 0;
    float best_dist = 0.0f;
    for (int c = 0; c < CLUSTERS; c++) {
        float dist = 0.0f;
        for (int f = 0; f < FEATURES; f++) {
            float d = fsub(points[(size_t)p * FEATURES + f], centroids[c * FEATURES + f]);
            dist = fadd(dist, fmul(d, d));
        }
        if (c == 0 || dist < best_dist) {
            best = c;
            best_dist = dist;
        }
    }
    return best;
}

__global__ void assign(const float *points, int *membership, int n)
{
    int p = blockIdx.x * blockDim.x + threadIdx.x;
    if (p < n)
        membership[p] = nearest(points, c_centroids, p);
}

// Each centroid moved to the mean of its points (kept where it is when it
// has none); the same on both sides, from the memberships given.
static void move_centroids(const std::vector<float> &points, const std::vector<int> &membership, int n,
                           std::vector<float> &centroids)
{
    std::vector<double> sum(CLUSTERS * FEATURES, 0.0);
    std::vector<int> count(CLUSTERS, 0);
    for (int p = 0; p < n; p++) {
        count[membership[p]]++;
        for (int f = 0; f < FEATURES; f++)
            sum[membership[p] * FEATURES + f] += points[(size_t)p * FEATURES + f];
    }
    for (int c = 0; c < CLUSTERS; c++)
        if (count[c])
            for (int f = 0; f < FEATURES; f++)
                centroids[c * FEATURES + f] = (float)(sum[c * FEATURES + f] / count[c]);
}

int main(int argc, char **argv)
{
    int scale = size_scale(argc, argv, 64);
    const int n = 6144 * scale;

    // points around CLUSTERS random centres, spread so that clusters overlap
    uint64_t rng = 0x63a45ull;
    std::vector<float> centres(CLUSTERS * FEATURES), points((size_t)n * FEATURES);
    for (auto &c : centres)
        c = fmul(8.0f, rng_unit(&rng));
    for (int p = 0; p < n; p++) {
        int c = (int)rng_below(&rng, CLUSTERS);
        for (int f = 0; f < FEATURES; f++)
            points[(size_t)p * FEATURES + f] = fadd(centres[c * FEATURES + f], fmul(6.0f, fsub(rng_unit(&rng), 0.5f)));
    }
    // the first points are the first centroids, as in Rodinia
    std::vector<float> centroids(points.begin(), points.begin() + CLUSTERS * FEATURES), want_centroids = centroids;

    float *d_points;
    int *d_membership;
    CK(cudaMalloc(&d_points, points.size() * sizeof(float)));
    CK(cudaMalloc(&d_membership, n * sizeof(int)));
    CK(cudaMemcpy(d_points, points.data(), points.size() * sizeof(float), cudaMemcpyHostToDevice));

    std::vector<int> membership(n), want(n);
    int wrong = 0, changed = 0;
    for (int it = 0; it < ITERATIONS; it++) {
        CK(cudaMemcpyToSymbol(c_centroids, centroids.data(), centroids.size() * sizeof(float)));
        assign<<<(n + BLOCK - 1) / BLOCK, BLOCK>>>(d_points, d_membership, n);
        CK(cudaGetLastError());
        CK(cudaMemcpy(membership.data(), d_membership, n * sizeof(int), cudaMemcpyDeviceToHost));
        std::vector<int> before = want;
        for (int p = 0; p < n; p++) {
            want[p] = nearest(points.data(), want_centroids.data(), p);
            changed += it > 0 && want[p] != before[p];
            if (membership[p] != want[p] && wrong++ < 5)
                fprintf(stderr, "iteration %d: point %d in cluster %d, expected %d\n", it, p, membership[p], want[p]);
        }
        move_centroids(points, membership, n, centroids);
        move_centroids(points, want, n, want_centroids);
    }
    EXPECT(wrong == 0);
    printf("kmeans: %d points of %d features, %d clusters, %d iterations, %d points moved\n", n, FEATURES,
           CLUSTERS, ITERATIONS, changed);
    return finish("kmeans");
}
