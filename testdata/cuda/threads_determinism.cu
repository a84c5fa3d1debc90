// threads_determinism.cu: kernels whose results depend on the order in
// which blocks reach their global atomics, device malloc and printf; the
// emulator must give the same results with any number of host threads
// (emulator/tests/test_emu_threads_determinism.c). Covers a float atomicAdd by
// every thread plus one atomicInc ticket per block, the "last block"
// reduction with __threadfence() (the CUDA samples' threadFenceReduction),
// printf of a ticket, in-kernel malloc, a chain of blocks each spinning on
// a volatile flag of the block before it, a cluster kernel, and a
// compute-bound kernel whose only atomic comes at its end (what several
// host threads still gain: `simtlab run ... --threads N`).
#include <cstdio>

// Every thread adds its value to *sum; thread 0 of each block takes a
// ticket and records which block got it.
__global__ void sum_and_ticket(const float *v, float *sum, unsigned *ticket, unsigned *order)
{
    unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    atomicAdd(sum, v[i]);
    if (threadIdx.x == 0)
        order[atomicInc(ticket, 0xffffffffu)] = blockIdx.x;
}

// The last block to finish adds up the partial sums of all blocks (blocks
// of 128 threads).
__global__ void last_block_sum(const float *v, float *partial, unsigned *count, float *total, unsigned *last)
{
    __shared__ float s[128];
    __shared__ bool am_last;
    unsigned t = threadIdx.x;
    s[t] = v[blockIdx.x * blockDim.x + t];
    __syncthreads();
    for (unsigned k = blockDim.x / 2; k > 0; k >>= 1) {
        if (t < k)
            s[t] += s[t + k];
        __syncthreads();
    }
    if (t == 0) {
        partial[blockIdx.x] = s[0];
        __threadfence();
        unsigned ticket = atomicInc(count, gridDim.x);
        am_last = ticket == gridDim.x - 1;
    }
    __syncthreads();
    if (am_last && t == 0) {
        float acc = 0.0f;
        for (unsigned b = 0; b < gridDim.x; b++)
            acc += ((volatile float *)partial)[b];
        *total = acc;
        *last = blockIdx.x;
        *count = 0;
    }
}

// Thread 0 of each block prints the ticket it takes.
__global__ void printf_ticket(unsigned *counter)
{
    if (threadIdx.x == 0)
        printf("block %u ticket %u\n", blockIdx.x, atomicAdd(counter, 1u));
}

// Thread 0 of each block allocates 16 * (1 + blockIdx.x % 7) bytes,
// writes them and records the address.
__global__ void malloc_per_block(unsigned long long *addr)
{
    if (threadIdx.x == 0) {
        unsigned n = 16u * (1u + blockIdx.x % 7u);
        char *p = (char *)malloc(n);
        if (p)
            for (unsigned k = 0; k < n; k++)
                p[k] = (char)blockIdx.x;
        addr[blockIdx.x] = (unsigned long long)p;
    }
}

// Block b waits until block b-1 has set its flag, then sets its own:
// the blocks pass a token along in block order.
__global__ void flag_chain(int *flags, unsigned *seen)
{
    if (threadIdx.x == 0) {
        volatile int *f = flags;
        if (blockIdx.x > 0)
            while (f[blockIdx.x - 1] == 0) {
            }
        seen[blockIdx.x] = blockIdx.x > 0 ? (unsigned)f[blockIdx.x - 1] : 0u;
        f[blockIdx.x] = (int)blockIdx.x + 1;
    }
}

// sum_and_ticket in clusters of two blocks (sm_90 and later; one-block
// clusters before).
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
#define CLUSTER_OF_TWO __cluster_dims__(2, 1, 1)
#else
#define CLUSTER_OF_TWO
#endif
__global__ void CLUSTER_OF_TWO cluster_sum_and_ticket(const float *v, float *sum, unsigned *ticket, unsigned *order)
{
    unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    atomicAdd(sum, v[i]);
    if (threadIdx.x == 0)
        order[atomicInc(ticket, 0xffffffffu)] = blockIdx.x;
}

// Each thread counts the Collatz steps of first + its index, then adds
// them to *total: all the work comes before the one atomic.
__global__ void collatz_then_add(unsigned first, unsigned long long *total)
{
    unsigned long long n = first + blockIdx.x * blockDim.x + threadIdx.x;
    unsigned steps = 0;
    while (n != 1) {
        n = (n & 1) ? 3 * n + 1 : n >> 1;
        steps++;
    }
    atomicAdd(total, (unsigned long long)steps);
}
