// device_window.cu — global memory as a GPU's driver maps it.
//
// * Pinned host memory and device allocations never overlap, and a kernel
//   writing just past the end of device buffers leaves a pinned buffer
//   unchanged.
// * cudaMalloc/cudaFree in a loop moving far more bytes than the device
//   has succeed (freed ranges are reused). With SIMTLAB_GLOBAL_WINDOW set
//   (a window of a few MiB) the loop moves 64 times the window, and
//   filling the window ends in cudaErrorMemoryAllocation, which is not
//   sticky: after freeing, allocations succeed again.
// * Rodinia SRAD v2's pattern: a kernel reads the word 512 bytes before the
//   first cudaMalloc buffer (row -1 of the image) and overwrites it. On a
//   GPU that address lies in the 2 MiB page the driver mapped for the
//   buffer and the program works: a second launch reads what the first
//   wrote. Under memory checking (compute-sanitizer; simtlab exec
//   --memcheck, which sets SIMTLAB_MEMCHECK=1) the read is an illegal
//   address (700).
#include "check.h"
#include <cstdint>
#include <cstring>

__global__ void write_past(unsigned char *p, size_t size, int bytes)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < bytes)
        p[size + i] = 0xab;
}

// Thread 0: out[k] = the word 512 bytes before img; that word += 1.
__global__ void read_row_minus_one(float *img, float *out, int k)
{
    if (threadIdx.x == 0) {
        float north = img[-128];
        img[-128] = north + 1.0f;
        out[k] = north;
    }
}

// Do [a, a + n) and [b, b + m) overlap?
static bool overlap(const void *a, size_t n, const void *b, size_t m)
{
    uintptr_t x = (uintptr_t)a, y = (uintptr_t)b;
    return x < y + m && y < x + n;
}

static void pinned_apart_from_device(bool memcheck)
{
    const size_t pin_bytes = 1 << 20;
    unsigned char *pin;
    CK(cudaMallocHost((void **)&pin, pin_bytes));
    memset(pin, 0, pin_bytes);
    unsigned char *dev[8];
    size_t sizes[8];
    for (int i = 0; i < 8; i++) {
        sizes[i] = 1000 + (size_t)i * 70000;
        CK(cudaMalloc((void **)&dev[i], sizes[i]));
        EXPECT(!overlap(dev[i], sizes[i], pin, pin_bytes));
        if (!memcheck) // 4 KiB past the end: inside the buffer's page on a GPU
            write_past<<<16, 256>>>(dev[i], sizes[i], 4096);
    }
    CK(cudaDeviceSynchronize());
    for (size_t i = 0; i < pin_bytes; i++)
        if (pin[i] != 0) {
            EXPECT(pin[i] == 0);
            break;
        }
    for (int i = 0; i < 8; i++)
        CK(cudaFree(dev[i]));
    CK(cudaFreeHost(pin));
}

static void reuse_and_full_window()
{
    const char *w = getenv("SIMTLAB_GLOBAL_WINDOW");
    size_t window = w ? strtoull(w, nullptr, 0) : 0;
    const size_t chunk = window ? 4 << 20 : (size_t)1 << 30;
    size_t rounds = window ? 64 * window / chunk : 64; // 64 GiB without a small window
    for (size_t i = 0; i < rounds; i++) {
        void *p;
        CK(cudaMalloc(&p, chunk));
        CK(cudaFree(p));
    }
    if (!window)
        return;
    void *held[64];
    int n = 0;
    cudaError_t e = cudaSuccess;
    while (n < 64 && (e = cudaMalloc(&held[n], chunk)) == cudaSuccess)
        n++;
    EXPECT(e == cudaErrorMemoryAllocation);
    EXPECT(n >= 1 && (size_t)n * chunk <= window);
    EXPECT(cudaGetLastError() == cudaErrorMemoryAllocation);
    CK(cudaGetLastError()); // not sticky
    for (int i = 0; i < n; i++)
        CK(cudaFree(held[i]));
    CK(cudaMalloc(&held[0], chunk));
    CK(cudaFree(held[0]));
}

static void srad_row_minus_one(bool memcheck)
{
    CK(cudaDeviceReset());
    float *img, *out;
    CK(cudaMalloc((void **)&img, 512 * 512 * sizeof(float)));
    CK(cudaMalloc((void **)&out, 2 * sizeof(float)));
    read_row_minus_one<<<1, 32>>>(img, out, 0);
    read_row_minus_one<<<1, 32>>>(img, out, 1);
    cudaError_t e = cudaDeviceSynchronize();
    if (memcheck) {
        EXPECT(e == cudaErrorIllegalAddress);
        CK(cudaDeviceReset());
        return;
    }
    CK(e);
    float h[2];
    CK(cudaMemcpy(h, out, sizeof h, cudaMemcpyDeviceToHost));
    EXPECT(h[1] == h[0] + 1.0f);
    CK(cudaFree(img));
    CK(cudaFree(out));
}

int main()
{
    const char *mc = getenv("SIMTLAB_MEMCHECK");
    bool memcheck = mc && strcmp(mc, "0") != 0;
    pinned_apart_from_device(memcheck);
    reuse_and_full_window();
    srad_row_minus_one(memcheck);
    return finish("device_window");
}
