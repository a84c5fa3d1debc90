// raytrace.cu — a Whitted-style ray tracer for a small scene: spheres
// (some of them mirrors) over a checkered ground plane, one point light,
// hard shadows and up to MAX_BOUNCES reflections; one thread per pixel.
//
// Divergence: whether the primary ray hits the sky, the plane or a sphere
// (and which), the sphere test's early miss (no real root), the shadow ray's
// loop over the spheres that stops at the first occluder, lit and
// shadowed points, and the reflection loop, whose trip count per pixel is
// the number of mirrors the ray meets in a row.
// Default size: 128 x 96 pixels, 7 spheres (argv[1] = n scales both sides
// by n). The tracer is one __host__ __device__ function computing with
// divergent.h's unfused, correctly rounded operations (and floorf, exact
// on both sides), so the CPU reference gives the same bits: every pixel's
// colour, first object hit and bounce count are checked exactly.
#include "../check.h"
#include "divergent.h"

#include <vector>

#define BLOCK_X 16
#define BLOCK_Y 8
#define SPHERES 7
#define MAX_BOUNCES 3

struct vec {
    float x, y, z;
};

// 3-vector arithmetic on divergent.h's unfused operations.
__host__ __device__ inline vec vadd(vec a, vec b) { return {fadd(a.x, b.x), fadd(a.y, b.y), fadd(a.z, b.z)}; }
__host__ __device__ inline vec vsub(vec a, vec b) { return {fsub(a.x, b.x), fsub(a.y, b.y), fsub(a.z, b.z)}; }
__host__ __device__ inline vec vscale(vec a, float s) { return {fmul(a.x, s), fmul(a.y, s), fmul(a.z, s)}; }
__host__ __device__ inline vec vmul(vec a, vec b) { return {fmul(a.x, b.x), fmul(a.y, b.y), fmul(a.z, b.z)}; }
__host__ __device__ inline float vdot(vec a, vec b)
{
    return fadd(fadd(fmul(a.x, b.x), fmul(a.y, b.y)), fmul(a.z, b.z));
}
__host__ __device__ inline vec vnormalize(vec a) { return vscale(a, fdiv(1.0f, fsqrt(vdot(a, a)))); }

struct sphere {
    vec centre;
    float r2;      // squared radius
    vec colour;
    float mirror;  // the part of the light reflected (0: matte)
};

struct scene {
    sphere s[SPHERES];
    vec light;
};

// The nearest positive distance along the unit ray (o, d) at which it
// meets sphere s, or -1 when it misses.
__host__ __device__ inline float hit_sphere(const sphere &s, vec o, vec d)
{
    const float eps = 1e-3f;
    vec oc = vsub(o, s.centre);
    float b = vdot(oc, d), c = fsub(vdot(oc, oc), s.r2);
    float disc = fsub(fmul(b, b), c);
    if (disc < 0)
        return -1;
    float root = fsqrt(disc), t = fsub(-b, root);
    if (t < eps)
        t = fadd(-b, root); // the ray starts inside the sphere
    return t < eps ? -1 : t;
}

// Whether anything lies between point p and the light (dist away along
// the unit vector l): the first occluder ends the search.
__host__ __device__ inline bool shadowed(const scene &sc, vec p, vec l, float dist)
{
    for (int k = 0; k < SPHERES; k++) {
        float t = hit_sphere(sc.s[k], p, l);
        if (t > 0 && t < dist)
            return true;
    }
    return false;
}

struct pixel {
    unsigned rgb; // 8 bits a channel
    int object;   // first object hit: -1 sky, 0 plane, k + 1 sphere k
    int bounces;
};

// Trace the primary ray through pixel (px, py) of a width x height image.
__host__ __device__ inline pixel trace(const scene &sc, int px, int py, int width, int height)
{
    const float ambient = 0.1f, eps = 1e-3f;
    float pitch = fdiv(2.0f, (float)height);
    vec o = {0.0f, 1.6f, -3.5f};
    vec d = vnormalize({fmul(fadd(fsub((float)px, fmul(0.5f, (float)width)), 0.5f), pitch),
                        fsub(fmul(fsub(fsub(fmul(0.5f, (float)height), (float)py), 0.5f), pitch), 0.4f), 1.5f});
    vec colour = {0, 0, 0}, weight = {1, 1, 1};
    pixel out = {0, -1, 0};
    for (int bounce = 0; bounce <= MAX_BOUNCES; bounce++) {
        // the nearest object
        float best = 1e30f;
        int object = -1;
        if (d.y < 0) { // the plane y = 0
            float t = fdiv(-o.y, d.y);
            if (t > eps) {
                best = t;
                object = 0;
            }
        }
        for (int k = 0; k < SPHERES; k++) {
            float t = hit_sphere(sc.s[k], o, d);
            if (t > 0 && t < best) {
                best = t;
                object = k + 1;
            }
        }
        if (bounce == 0)
            out.object = object;
        if (object < 0) { // the sky: brighter towards the zenith
            float up = fmul(0.5f, fadd(d.y, 1.0f));
            colour = vadd(colour, vmul(weight, {fmul(0.5f, up), fmul(0.7f, up), 1.0f}));
            break;
        }
        vec p = vadd(o, vscale(d, best)), n, base;
        float mirror;
        if (object == 0) {
            n = {0, 1, 0};
            bool dark = ((int)floorf(p.x) + (int)floorf(p.z)) & 1;
            base = dark ? vec{0.2f, 0.2f, 0.2f} : vec{0.9f, 0.9f, 0.8f};
            mirror = 0.0f;
        } else {
            const sphere &s = sc.s[object - 1];
            n = vnormalize(vsub(p, s.centre));
            base = s.colour;
            mirror = s.mirror;
        }
        vec to_light = vsub(sc.light, p);
        float dist = fsqrt(vdot(to_light, to_light));
        vec l = vscale(to_light, fdiv(1.0f, dist));
        float diffuse = vdot(n, l), light = ambient;
        vec start = vadd(p, vscale(n, eps));
        if (diffuse > 0 && !shadowed(sc, start, l, dist))
            light = fadd(light, fmul(diffuse, fsub(1.0f, ambient)));
        colour = vadd(colour, vmul(weight, vscale(base, fmul(light, fsub(1.0f, mirror)))));
        if (mirror == 0.0f)
            break;
        weight = vscale(vmul(weight, base), mirror);
        d = vsub(d, vscale(n, fmul(2.0f, vdot(d, n)))); // reflected
        o = start;
        out.bounces++;
    }
    unsigned rgb = 0;
    float channel[3] = {colour.x, colour.y, colour.z};
    for (int c = 0; c < 3; c++) {
        float v = channel[c] < 1.0f ? channel[c] : 1.0f;
        rgb = rgb << 8 | (unsigned)(int)fmul(v, 255.0f);
    }
    out.rgb = rgb;
    return out;
}

// One thread per pixel of the image, row-major.
__global__ void render(scene sc, int width, int height, pixel *image)
{
    int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x < width && y < height)
        image[y * width + x] = trace(sc, x, y, width, height);
}

int main(int argc, char **argv)
{
    int scale = size_scale(argc, argv, 1024);
    const int width = 128 * scale, height = 96 * scale;
    // a staggered row of spheres on the plane, one floating, mirrors among
    // them and a large mirror behind that reflects the others
    scene sc;
    uint64_t rng = 0x7A4CE5ull;
    for (int k = 0; k < SPHERES; k++) {
        float r = k == SPHERES - 1 ? 1.5f : 0.4f + 0.1f * (float)rng_below(&rng, 4);
        float x = k == SPHERES - 1 ? 0.5f : -2.0f + 0.75f * (float)k;
        float z = k == SPHERES - 1 ? 3.0f : (k % 2 ? 0.7f : -0.3f) + 0.3f * (float)rng_below(&rng, 3);
        sc.s[k].centre = {x, r + (k == 3 ? 0.5f : 0.0f), z};
        sc.s[k].r2 = r * r;
        sc.s[k].colour = {0.3f + 0.1f * (float)rng_below(&rng, 7), 0.3f + 0.1f * (float)rng_below(&rng, 7),
                          0.3f + 0.1f * (float)rng_below(&rng, 7)};
        sc.s[k].mirror = k % 3 == 0 ? 0.7f : (k == 4 ? 0.3f : 0.0f);
    }
    sc.light = {-3.0f, 5.0f, -2.0f};

    pixel *d_image;
    CK(cudaMalloc(&d_image, (size_t)width * height * sizeof(pixel)));
    dim3 block(BLOCK_X, BLOCK_Y), grid((width + BLOCK_X - 1) / BLOCK_X, (height + BLOCK_Y - 1) / BLOCK_Y);
    render<<<grid, block>>>(sc, width, height, d_image);
    CK(cudaGetLastError());
    std::vector<pixel> image((size_t)width * height);
    CK(cudaMemcpy(image.data(), d_image, image.size() * sizeof(pixel), cudaMemcpyDeviceToHost));

    int wrong = 0, objects[SPHERES + 2] = {0}, bounces[MAX_BOUNCES + 2] = {0};
    for (int y = 0; y < height; y++)
        for (int x = 0; x < width; x++) {
            pixel got = image[(size_t)y * width + x], want = trace(sc, x, y, width, height);
            if ((got.rgb != want.rgb || got.object != want.object || got.bounces != want.bounces) && wrong++ < 5)
                fprintf(stderr, "pixel (%d, %d): %06x object %d bounces %d; expected %06x, %d, %d\n", x, y, got.rgb,
                        got.object, got.bounces, want.rgb, want.object, want.bounces);
            objects[want.object + 1]++;
            bounces[want.bounces]++;
        }
    EXPECT(wrong == 0);
    printf("raytrace: %d x %d pixels; sky %d, plane %d, spheres", width, height, objects[0], objects[1]);
    for (int k = 0; k < SPHERES; k++)
        printf(" %d", objects[k + 2]);
    printf("; reflections");
    for (int b = 0; b <= MAX_BOUNCES; b++)
        printf(" %d", bounces[b]);
    printf("\n");
    CK(cudaFree(d_image));
    return finish("raytrace");
}
