// control_flow.cu: control flow shapes.
// Covers a dense switch (jump table: brx.idx where nvcc emits it), a sparse
// switch (compare chains / binary search), nested loops with break and
// continue, a data-dependent while loop, irreducible control flow made with
// goto into the middle of a loop, early returns under divergence, a ternary
// chain (selp), short-circuit && / ||, and a do-while with a divergent exit.

__global__ void switch_dense(const int *in, int *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    int v = in[i], r;
    switch (v) {
    case 0: r = v * 3 + 1; break;
    case 1: r = v ^ 0x55; break;
    case 2: r = in[(i + 1) % n] - 7; break;
    case 3: r = v << 4; break;
    case 4: r = ~v; break;
    case 5: r = v * v; break;
    case 6: r = in[(i + 2) % n] + 11; break;
    case 7: r = v / 3 + 100; break;
    case 8: r = v % 5 + 200; break;
    case 9: r = -v; break;
    case 10: r = v | 0x1000; break;
    case 11: r = in[0] * 13; break;
    case 12: r = v + 12345; break;
    case 13: r = __popc(v) + 9; break;
    case 14: r = v & 0xff00; break;
    case 15: r = in[(i + 3) % n] ^ v; break;
    default: r = 0;
    }
    out[i] = r;
}

__global__ void switch_sparse(const int *in, int *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    int v = in[i], r = 0;
    switch (v) {
    case -1000000: r = 1; break;
    case -7: r = v * 2; break;
    case 3: r = in[(i + 1) % n]; // fallthrough
    case 100: r += 4; break;
    case 4096: r = v >> 3; break;
    case 65537: r = v - 1; break;
    case 0x7fffffff: r = -1; break;
    default: r = v + 1; break;
    }
    out[i] = r;
}

__global__ void loops_break_continue(const int *in, int *out, int n, int m)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    int acc = 0;
    for (int a = 0; a < m; a++) {
        int v = in[(i + a) % n];
        if (v < 0)
            continue;
        if (v == 12345)
            break;
        for (int b = 0; b < v && b < 64; b++) {
            if ((b ^ v) & 1)
                continue;
            acc += b;
            if (acc > 100000)
                goto done;
        }
    }
    {
        unsigned x = (unsigned)in[i];
        while (x > 1) // Collatz: data-dependent trip count
            x = (x & 1) ? 3 * x + 1 : x / 2, acc++;
    }
done:
    out[i] = acc;
}

// Irreducible CFG: the loop {L1, L2} can be entered at L1 or at L2.
__global__ void irreducible_goto(const int *in, int *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    int v = in[i];
    int k = 0;
    if (v & 1)
        goto L2;
L1:
    v = v * 3 + 1;
    k++;
    if (k > 50)
        goto out_;
L2:
    v = v >> 1;
    k += 2;
    if (v > 1 && k < 100)
        goto L1;
out_:
    out[i] = v + k;
}

// A second irreducible shape: two loops jumping into each other.
__global__ void irreducible_two_entries(const int *in, int *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    int a = in[i], b = in[(i + 1) % n], c = 0;
    if (a > b)
        goto B;
A:
    a += 3;
    c++;
    if (a < b)
        goto A;
    if (c > 20)
        goto E;
B:
    b += 5;
    c += 2;
    if (b < a + 10 && c < 40)
        goto A;
    if ((b & 7) == 0 && c < 60)
        goto B;
E:
    out[i] = a ^ b ^ c;
}

__global__ void divergent_returns(const float *in, float *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    float v = in[i];
    if (v < 0.0f) {
        out[i] = -v;
        return;
    }
    if (v > 100.0f && (i & 1))
        return;
    float r = v > 50.0f ? v * 2.0f : v > 25.0f ? v + 1.0f : v > 10.0f ? v - 1.0f : 0.0f;
    if ((r > 3.0f && i % 3 == 0) || (r < 1.0f && i % 5 == 0))
        r = sqrtf(r);
    int k = 0;
    do {
        r *= 0.5f;
        k++;
    } while (r > 1.0f);
    out[i] = r + k;
}
