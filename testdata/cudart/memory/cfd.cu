// cfd.cu — explicit time steps of a finite-volume update on an unstructured
// mesh, after Rodinia's CFD solver (the CFD of Turner's thesis on replay
// and hazards): every cell reads its own five conserved variables and those
// of its four neighbours through a neighbour index array, adds a flux
// per face weighted by the face normal, and writes its updated variables
// into the other buffer. The variables are stored as Rodinia stores them,
// one array per variable (variables[v * cells + i]), faces likewise
// (neighbours[f * cells + i], normals[(2f + d) * cells + i]).
//
// The mesh is a W x H grid of cells (periodic left and right, the top and
// bottom faces on the far field), numbered in random order in groups of 4
// cells along a row, as a mesh generator leaves a mesh: neighbours are
// near in space but not in memory. The flux is simplified (no pressure
// or speed of sound) but keeps the access pattern: per face 5 gathered
// variables, and 2 more products from the momenta.
//
// Memory intensity: a warp's 32 cells (one line of each variable) are 8
// groups from 8 random places of the mesh. Three in four left and right
// neighbours are in the cell's own group, the fourth in a random other
// group; upper and lower neighbours are all in 8 random other groups. So
// each gathered variable of a face touches 8 lines besides the warp's
// own, and a cell gathers 20 (4 faces x 5 variables). Variables of the two
// buffers (2 x 640 KB), neighbours (512 KB) and normals (1 MB) stream
// or scatter through the caches at every step.
//
// Default size: 256 x 128 cells, 2 steps (2 launches); argv[1] = k
// multiplies the rows by k. The variables after the last step are checked
// exactly: the CPU computes every step in the kernel's order with the
// unfused operations of divergent.h.
#include "../check.h"
#include "../divergent/divergent.h"

#include <algorithm>
#include <cmath>
#include <vector>

#define BLOCK 128
#define NVAR 5 // density, momentum x, y, z, energy
#define NFACE 4
#define STEPS 2
#define GROUP 4 // cells numbered together

struct far_field {
    float v[NVAR];
};

// The new variables of cell i (of cells) from old: the flux through each
// face is w (d_neighbour - d_self) per variable, w = |nx| + |ny|, and the
// momenta x and y also take nx and ny times the neighbour's energy.
__host__ __device__ inline void update(const float *old, float *out, const int *nb, const float *normals,
                                       far_field ff, float dt, int cells, int i)
{
    float self[NVAR], flux[NVAR];
    for (int v = 0; v < NVAR; v++) {
        self[v] = old[v * cells + i];
        flux[v] = 0.0f;
    }
    for (int f = 0; f < NFACE; f++) {
        int j = nb[f * cells + i];
        float nx = normals[(2 * f) * cells + i], ny = normals[(2 * f + 1) * cells + i];
        float w = fadd(fabsf(nx), fabsf(ny));
        float other[NVAR];
        for (int v = 0; v < NVAR; v++)
            other[v] = j >= 0 ? old[v * cells + j] : ff.v[v];
        for (int v = 0; v < NVAR; v++)
            flux[v] = fadd(flux[v], fmul(w, fsub(other[v], self[v])));
        flux[1] = fadd(flux[1], fmul(nx, other[4]));
        flux[2] = fadd(flux[2], fmul(ny, other[4]));
    }
    for (int v = 0; v < NVAR; v++)
        out[v * cells + i] = fadd(self[v], fmul(dt, flux[v]));
}

__global__ void step(const float *old, float *out, const int *nb, const float *normals, far_field ff, float dt,
                     int cells)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < cells)
        update(old, out, nb, normals, ff, dt, cells, i);
}

int main(int argc, char **argv)
{
    int scale = size_scale(argc, argv, 16);
    const int width = 256, height = 128 * scale, cells = width * height;
    const float dt = 0.0625f;
    const far_field ff = {{1.0f, 0.5f, 0.0f, 0.0f, 2.5f}};

    // number the grid's groups of GROUP cells in random order
    uint64_t rng = 0xcfdull;
    const int groups = cells / GROUP;
    std::vector<int> perm(groups);
    for (int g = 0; g < groups; g++)
        perm[g] = g;
    for (int g = groups - 1; g > 0; g--)
        std::swap(perm[g], perm[rng_below(&rng, g + 1)]);
    auto id = [&](int x, int y) { int c = y * width + x; return perm[c / GROUP] * GROUP + c % GROUP; };

    // faces: left, right (periodic), up, down (-1 on the far field);
    // normals perturbed around the grid's, as a mesh's faces are
    std::vector<int> nb((size_t)NFACE * cells);
    std::vector<float> normals((size_t)2 * NFACE * cells);
    const int dx[NFACE] = {-1, 1, 0, 0}, dy[NFACE] = {0, 0, -1, 1};
    for (int y = 0; y < height; y++)
        for (int x = 0; x < width; x++) {
            int i = id(x, y);
            for (int f = 0; f < NFACE; f++) {
                int xx = (x + dx[f] + width) % width, yy = y + dy[f];
                nb[(size_t)f * cells + i] = yy < 0 || yy >= height ? -1 : id(xx, yy);
                normals[(size_t)(2 * f) * cells + i] = fadd((float)dx[f], fmul(0.25f, fsub(rng_unit(&rng), 0.5f)));
                normals[(size_t)(2 * f + 1) * cells + i] = fadd((float)dy[f], fmul(0.25f, fsub(rng_unit(&rng), 0.5f)));
            }
        }
    std::vector<float> vars((size_t)NVAR * cells);
    for (int i = 0; i < cells; i++)
        for (int v = 0; v < NVAR; v++)
            vars[(size_t)v * cells + i] = fadd(ff.v[v], fmul(0.5f, fsub(rng_unit(&rng), 0.5f)));

    // CPU reference
    std::vector<float> a = vars, b((size_t)NVAR * cells);
    for (int s = 0; s < STEPS; s++) {
        for (int i = 0; i < cells; i++)
            update(a.data(), b.data(), nb.data(), normals.data(), ff, dt, cells, i);
        std::swap(a, b);
    }

    float *d_vars[2], *d_normals;
    int *d_nb;
    for (int k = 0; k < 2; k++)
        CK(cudaMalloc(&d_vars[k], (size_t)NVAR * cells * sizeof(float)));
    CK(cudaMalloc(&d_nb, nb.size() * sizeof(int)));
    CK(cudaMalloc(&d_normals, normals.size() * sizeof(float)));
    CK(cudaMemcpy(d_vars[0], vars.data(), vars.size() * sizeof(float), cudaMemcpyHostToDevice));
    CK(cudaMemcpy(d_nb, nb.data(), nb.size() * sizeof(int), cudaMemcpyHostToDevice));
    CK(cudaMemcpy(d_normals, normals.data(), normals.size() * sizeof(float), cudaMemcpyHostToDevice));
    for (int s = 0; s < STEPS; s++) {
        step<<<(cells + BLOCK - 1) / BLOCK, BLOCK>>>(d_vars[s % 2], d_vars[(s + 1) % 2], d_nb, d_normals, ff, dt,
                                                     cells);
        CK(cudaGetLastError());
    }
    std::vector<float> got((size_t)NVAR * cells);
    CK(cudaMemcpy(got.data(), d_vars[STEPS % 2], got.size() * sizeof(float), cudaMemcpyDeviceToHost));

    int wrong = 0;
    for (size_t k = 0; k < got.size(); k++)
        if (got[k] != a[k] && wrong++ < 5)
            fprintf(stderr, "variable %zu of cell %zu: %.9g, expected %.9g\n", k / cells, k % cells, got[k], a[k]);
    EXPECT(wrong == 0);
    printf("cfd: %d x %d cells, %d steps\n", width, height, STEPS);
    return finish("cfd");
}
