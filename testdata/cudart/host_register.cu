// host_register.cu — zero copy on memory the program owns: a std::vector's
// heap buffer and a stack array are registered with cudaHostRegister, and
// kernels read, write and atomically add to them through the pointer
// cudaHostGetDevicePointer gives and through the host pointer itself (on a
// device with cudaDevAttrCanUseHostPointerForRegisteredMem the two are
// equal, cuda_runtime_api.h, cudaHostRegister). Results are checked against
// the same arithmetic done on the CPU. The error codes of misuse are those
// cuda_runtime_api.h documents for cudaHostRegister, cudaHostUnregister and
// cudaHostGetDevicePointer; after cudaHostUnregister a kernel access
// through the old pointer is an illegal address (where pageable memory is
// not reachable from the device, cudaDevAttrPageableMemoryAccess 0).
#include "check.h"
#include <vector>

__global__ void add(int *p, int n, int v)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        p[i] += v;
}

// Generic (not .global) accesses, as a pointer whose space the compiler
// cannot tell gets (nvcc proves these global, so they are written out).
__device__ void bump(int *p, int v)
{
    int x;
    asm volatile("ld.u32 %0, [%1];" : "=r"(x) : "l"(p));
    asm volatile("st.u32 [%0], %1;" ::"l"(p), "r"(x + v) : "memory");
}

__global__ void add_generic(int *p, int n, int v)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        bump(p + i, v);
}

__global__ void sum_into(const int *p, int n, unsigned long long *total)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        atomicAdd(total, (unsigned long long)p[i]);
}

__global__ void copy(const int *from, int *to, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        to[i] = from[i];
}

__global__ void poke(int *p) { p[threadIdx.x] = 7; }

// The heap buffer of a vector: kernels through both pointers, generic
// accesses and atomics, copies with cudaMemcpyDefault.
static void heap_vector()
{
    const int n = 3000;
    std::vector<int> v(n), want(n);
    for (int i = 0; i < n; i++)
        v[i] = want[i] = i * 7 - 1000;
    CK(cudaHostRegister(v.data(), n * sizeof(int), cudaHostRegisterDefault));
    int *d = nullptr;
    CK(cudaHostGetDevicePointer((void **)&d, v.data(), 0));
    EXPECT(d == v.data());
    int *inner = nullptr; // a pointer inside the range maps to the same place
    CK(cudaHostGetDevicePointer((void **)&inner, v.data() + 100, 0));
    EXPECT(inner == d + 100);
    add<<<(n + 255) / 256, 256>>>(d, n, 3);
    add<<<(n + 255) / 256, 256>>>(v.data(), n, 5);
    add_generic<<<(n + 127) / 128, 128>>>(v.data(), n, 11);
    CK(cudaDeviceSynchronize());
    long long sum = 0;
    for (int i = 0; i < n; i++) {
        want[i] += 3 + 5 + 11;
        sum += want[i];
    }
    EXPECT(v == want);

    unsigned long long *total; // atomics on the registered range itself
    CK(cudaMallocManaged(&total, sizeof *total));
    *total = 0;
    std::vector<unsigned long long> counter(4, 0);
    CK(cudaHostRegister(counter.data(), counter.size() * sizeof counter[0], cudaHostRegisterMapped));
    sum_into<<<(n + 255) / 256, 256>>>(v.data(), n, &counter[2]);
    sum_into<<<(n + 255) / 256, 256>>>(v.data(), n, total);
    CK(cudaDeviceSynchronize());
    EXPECT(counter[2] == (unsigned long long)sum && counter[1] == 0 && counter[3] == 0);
    EXPECT(*total == (unsigned long long)sum);
    CK(cudaHostUnregister(counter.data()));
    CK(cudaFree(total));

    cudaPointerAttributes a;
    CK(cudaPointerGetAttributes(&a, v.data() + 5));
    EXPECT(a.type == cudaMemoryTypeHost && a.hostPointer == v.data() + 5 && a.devicePointer == v.data() + 5);

    // cudaMemcpyDefault (unified addressing) between it and device memory
    int *dev;
    CK(cudaMalloc(&dev, n * sizeof(int)));
    CK(cudaMemcpy(dev, v.data(), n * sizeof(int), cudaMemcpyDefault));
    add<<<(n + 255) / 256, 256>>>(dev, n, -1);
    CK(cudaMemcpy(v.data(), dev, n * sizeof(int), cudaMemcpyDefault));
    for (int i = 0; i < n; i++)
        want[i] -= 1;
    EXPECT(v == want);
    CK(cudaFree(dev));
    CK(cudaHostUnregister(v.data()));
}

// A stack array with the documented flags, read back with the flags given.
static void stack_array()
{
    int s[256], want[256];
    for (int i = 0; i < 256; i++)
        s[i] = want[i] = 5 - i * i;
    const unsigned flags = cudaHostRegisterMapped | cudaHostRegisterPortable;
    CK(cudaHostRegister(s, sizeof s, flags));
    unsigned got = 0;
    CK(cudaHostGetFlags(&got, s));
    EXPECT(got == flags);
    int *d;
    CK(cudaHostGetDevicePointer((void **)&d, s, 0));
    EXPECT(d == s);
    add<<<2, 128>>>(d, 256, 40);
    add_generic<<<1, 256>>>(s, 256, 2);
    CK(cudaDeviceSynchronize());
    for (int i = 0; i < 256; i++)
        want[i] += 42;
    bool same = true;
    for (int i = 0; i < 256; i++)
        same = same && s[i] == want[i];
    EXPECT(same);
    CK(cudaHostUnregister(s));
}

// Misuse, with the codes cuda_runtime_api.h lists for each call.
static void misuse()
{
    std::vector<int> v(64);
    int other[16];
    // cudaHostRegister: cudaErrorInvalidValue (no memory, unknown flags) and
    // cudaErrorHostMemoryAlreadyRegistered ("part or all of the requested
    // memory range is already mapped")
    CK_IS(cudaHostRegister(nullptr, 64, 0), cudaErrorInvalidValue);
    CK_IS(cudaHostRegister(v.data(), 0, 0), cudaErrorInvalidValue);
    CK_IS(cudaHostRegister(v.data(), 64, 0x80), cudaErrorInvalidValue);
    CK(cudaHostRegister(v.data(), v.size() * sizeof(int), 0));
    CK_IS(cudaHostRegister(v.data(), v.size() * sizeof(int), 0), cudaErrorHostMemoryAlreadyRegistered);
    CK_IS(cudaHostRegister(v.data() + 8, 16, 0), cudaErrorHostMemoryAlreadyRegistered);
    int *pinned;
    CK(cudaMallocHost(&pinned, 64));
    // cudaMallocHost memory: an invalid value (CUDA 13.0 on an H100,
    // tools/gpu/README.md)
    CK_IS(cudaHostRegister(pinned, 64, 0), cudaErrorInvalidValue);
    // cudaHostUnregister: "The base address must be the same one specified
    // to cudaHostRegister()": memory nothing registered or allocated is
    // cudaErrorHostMemoryNotRegistered; a pointer inside a registered range
    // or to cudaMallocHost memory an invalid value (CUDA 13.0, as above)
    CK_IS(cudaHostUnregister(other), cudaErrorHostMemoryNotRegistered);
    CK_IS(cudaHostUnregister(v.data() + 1), cudaErrorInvalidValue);
    CK_IS(cudaHostUnregister(pinned), cudaErrorInvalidValue);
    // cudaHostGetDevicePointer: flags "must be set to 0 for now", and
    // memory neither allocated mapped nor registered has no device pointer
    void *d;
    CK_IS(cudaHostGetDevicePointer(&d, v.data(), 1), cudaErrorInvalidValue);
    CK_IS(cudaHostGetDevicePointer(&d, other, 0), cudaErrorInvalidValue);
    // registered memory is the program's: the allocators do not free it
    CK_IS(cudaFreeHost(v.data()), cudaErrorInvalidValue);
    CK_IS(cudaFree(v.data()), cudaErrorInvalidValue);
    cudaGetLastError();
    CK(cudaHostUnregister(v.data()));
    CK_IS(cudaHostUnregister(v.data()), cudaErrorHostMemoryNotRegistered);
    cudaGetLastError();
    CK(cudaFreeHost(pinned));
}

// After cudaHostUnregister the memory is the device's no more; the fault is
// sticky and cudaDeviceReset clears it.
static void after_unregister()
{
    int pageable = 1;
    CK(cudaDeviceGetAttribute(&pageable, cudaDevAttrPageableMemoryAccess, 0));
    if (pageable) // the device reaches all host memory: nothing faults
        return;
    std::vector<int> v(64, 1);
    CK(cudaHostRegister(v.data(), v.size() * sizeof(int), 0));
    CK(cudaHostUnregister(v.data()));
    poke<<<1, 32>>>(v.data());
    CK_IS(cudaDeviceSynchronize(), cudaErrorIllegalAddress);
    EXPECT(v[0] == 1);
    CK(cudaDeviceReset());
}

// Read-only registration (cudaDevAttrHostRegisterReadOnlySupported): kernels
// read it; a write is an illegal address, as on memory mapped read-only.
static void read_only()
{
    int ro = 0;
    CK(cudaDeviceGetAttribute(&ro, cudaDevAttrHostRegisterReadOnlySupported, 0));
    if (!ro)
        return;
    std::vector<int> table(100), out(100, 0);
    for (int i = 0; i < 100; i++)
        table[i] = 3 * i + 1;
    CK(cudaHostRegister(table.data(), table.size() * sizeof(int), cudaHostRegisterReadOnly));
    CK(cudaHostRegister(out.data(), out.size() * sizeof(int), cudaHostRegisterDefault));
    copy<<<1, 100>>>(table.data(), out.data(), 100);
    CK(cudaDeviceSynchronize());
    EXPECT(out == table);
    poke<<<1, 32>>>(table.data());
    CK_IS(cudaDeviceSynchronize(), cudaErrorIllegalAddress);
    EXPECT(table[0] == 1);
    CK(cudaDeviceReset());
}

int main()
{
    int same = 0, supported = 0;
    CK(cudaDeviceGetAttribute(&supported, cudaDevAttrHostRegisterSupported, 0));
    CK(cudaDeviceGetAttribute(&same, cudaDevAttrCanUseHostPointerForRegisteredMem, 0));
    if (!supported || !same) {
        printf("SKIP host_register: the device does not map registered memory at the host address\n");
        return 77;
    }
    heap_vector();
    stack_array();
    misuse();
    after_unregister();
    read_only();
    return finish("host_register");
}
