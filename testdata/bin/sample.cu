// Test input for simtlab's fatbin/ELF container reader (parser/container.c).
// Two small kernels: one straight-line with a bounds guard, one with a
// data-dependent loop branch, so the embedded PTX is non-trivial.

__global__ void saxpy(int n, float a, const float *x, float *y)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        y[i] = a * x[i] + y[i];
}

__global__ void alternate(int *out, int n)
{
    int t = threadIdx.x;
    int acc = 0;
    for (int k = 0; k < n; ++k) {
        if ((t + k) & 1)
            acc += k;
        else
            acc -= t;
    }
    out[blockIdx.x * blockDim.x + t] = acc;
}

int main(void)
{
    saxpy<<<1, 32>>>(0, 1.0f, 0, 0);
    alternate<<<1, 32>>>(0, 0);
    return 0;
}
