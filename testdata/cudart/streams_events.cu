// streams_events.cu — work on several streams with pinned memory and async
// copies, cross-stream dependencies through events, host functions and
// callbacks in stream order, and event timing: a kernel doing more work
// must take longer on the device clock, and time must never run backwards.
#include "check.h"
#include <vector>

__global__ void work(float *x, int n, int rounds)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        for (int r = 0; r < rounds; r++)
            x[i] = x[i] * 0.5f + 1.0f;
}

__global__ void combine(const float *a, const float *b, float *c, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        c[i] = a[i] - b[i];
}

static std::vector<int> order;
static void CUDART_CB note(void *arg) { order.push_back((int)(size_t)arg); }
static void CUDART_CB callback(cudaStream_t, cudaError_t status, void *arg)
{
    order.push_back(status == cudaSuccess ? (int)(size_t)arg : -1);
}

// x after `rounds` steps of x = x / 2 + 1, computed like the kernel
static float steps(float x, int rounds)
{
    for (int r = 0; r < rounds; r++)
        x = x * 0.5f + 1.0f;
    return x;
}

int main()
{
    const int n = 4096;
    float *h;
    CK(cudaMallocHost(&h, 3 * n * sizeof(float)));
    float *d;
    CK(cudaMalloc(&d, 3 * n * sizeof(float)));
    for (int i = 0; i < n; i++)
        h[i] = h[n + i] = (float)(i % 64);
    cudaStream_t s1, s2;
    CK(cudaStreamCreateWithFlags(&s1, cudaStreamNonBlocking));
    int lo, hi;
    CK(cudaDeviceGetStreamPriorityRange(&lo, &hi));
    CK(cudaStreamCreateWithPriority(&s2, cudaStreamDefault, hi));
    int prio;
    CK(cudaStreamGetPriority(s2, &prio));
    EXPECT(prio == hi);
    unsigned flags;
    CK(cudaStreamGetFlags(s1, &flags));
    EXPECT(flags == cudaStreamNonBlocking);

    cudaEvent_t start, mid, end, done1, notime;
    CK(cudaEventCreate(&start));
    CK(cudaEventCreate(&mid));
    CK(cudaEventCreate(&end));
    CK(cudaEventCreate(&done1));
    CK(cudaEventCreateWithFlags(&notime, cudaEventDisableTiming));

    CK(cudaEventRecord(start, s1));
    CK(cudaMemcpyAsync(d, h, n * sizeof(float), cudaMemcpyHostToDevice, s1));
    work<<<n / 256, 256, 0, s1>>>(d, n, 2);
    CK(cudaEventRecord(mid, s1));
    CK(cudaLaunchHostFunc(s1, note, (void *)1));
    CK(cudaMemcpyAsync(d + n, h + n, n * sizeof(float), cudaMemcpyHostToDevice, s2));
    work<<<n / 256, 256, 0, s2>>>(d + n, n, 40);
    CK(cudaEventRecord(end, s2));
    CK(cudaEventRecord(done1, s1));
    CK(cudaStreamWaitEvent(s2, done1, 0));
    combine<<<n / 256, 256, 0, s2>>>(d + n, d, d + 2 * n, n);
    CK(cudaStreamAddCallback(s2, callback, (void *)2, 0));
    CK(cudaMemcpyAsync(h + 2 * n, d + 2 * n, n * sizeof(float), cudaMemcpyDeviceToHost, s2));
    CK(cudaEventRecord(notime, s2));
    CK(cudaStreamSynchronize(s2));
    CK(cudaEventSynchronize(end));
    CK(cudaStreamQuery(s1));
    CK(cudaEventQuery(end));

    for (int i = 0; i < n; i++) {
        float want = steps((float)(i % 64), 40) - steps((float)(i % 64), 2);
        if (h[2 * n + i] != want) {
            EXPECT(h[2 * n + i] == want);
            break;
        }
    }
    EXPECT(order.size() == 2 && order[0] == 1 && order[1] == 2);

    float short_ms, long_ms, total_ms;
    CK(cudaEventElapsedTime(&short_ms, start, mid));
    CK(cudaEventElapsedTime(&total_ms, start, end));
    CK(cudaEventElapsedTime(&long_ms, mid, end));
    EXPECT(short_ms > 0 && long_ms > short_ms && total_ms >= long_ms);
    float x;
    CK_IS(cudaEventElapsedTime(&x, start, notime), cudaErrorInvalidResourceHandle);
    cudaEvent_t never;
    CK(cudaEventCreate(&never));
    CK_IS(cudaEventElapsedTime(&x, start, never), cudaErrorInvalidResourceHandle);
    cudaGetLastError();

    for (cudaEvent_t e : {start, mid, end, done1, notime, never})
        CK(cudaEventDestroy(e));
    CK(cudaStreamDestroy(s1));
    CK(cudaStreamDestroy(s2));
    CK(cudaFree(d));
    CK(cudaFreeHost(h));
    return finish("streams_events");
}
