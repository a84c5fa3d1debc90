// functions.cu: device function calls.
// Covers __noinline__ device functions (real `call` with .param passing of
// scalars, structs by value, pointers and returned structs), recursion
// (factorial, fibonacci, recursive tree walk with a local stack frame),
// indirect calls through function pointers (.callprototype + call via
// register), virtual functions (vtables as .global initialized data), and
// large local arrays indexed dynamically (local memory: .local, ld.local,
// st.local, __local_depot / %SP / %SPL).

struct Vec3 {
    float x, y, z;
};

struct Big {
    int a[6];
    double d;
};

__device__ __noinline__ float dot3(Vec3 a, Vec3 b)
{
    return a.x * b.x + a.y * b.y + a.z * b.z;
}

__device__ __noinline__ Vec3 cross3(const Vec3 &a, const Vec3 &b)
{
    Vec3 r = {a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x};
    return r;
}

__device__ __noinline__ Big make_big(int s)
{
    Big b;
    for (int k = 0; k < 6; k++)
        b.a[k] = s * k;
    b.d = s * 0.125;
    return b;
}

__device__ __noinline__ void no_result(int *p, int v)
{
    if (v > 0)
        atomicAdd(p, v);
}

__global__ void noinline_calls(const float *in, float *out, int *cnt, double *dout)
{
    int i = threadIdx.x;
    Vec3 a = {in[3 * i], in[3 * i + 1], in[3 * i + 2]};
    Vec3 b = {in[3 * i + 2], in[3 * i], in[3 * i + 1]};
    Vec3 c = cross3(a, b);
    out[i] = dot3(c, a) + dot3(a, b);
    Big g = make_big(i);
    dout[i] = g.d + g.a[i % 6];
    no_result(cnt, i);
}

__device__ __noinline__ unsigned long long factorial(unsigned n)
{
    return n <= 1 ? 1ull : n * factorial(n - 1);
}

__device__ __noinline__ int fib(int n)
{
    if (n < 2)
        return n;
    return fib(n - 1) + fib(n - 2);
}

// Mutual recursion.
__device__ __noinline__ bool is_odd(unsigned n);
__device__ __noinline__ bool is_even(unsigned n)
{
    return n == 0 ? true : is_odd(n - 1);
}
__device__ __noinline__ bool is_odd(unsigned n)
{
    return n == 0 ? false : is_even(n - 1);
}

// Recursion with a local array in each frame.
__device__ __noinline__ int tree_sum(const int *tree, int node, int n, int depth)
{
    int scratch[8];
    if (node >= n)
        return 0;
    for (int k = 0; k < 8; k++)
        scratch[k] = tree[(node + k) % n] * depth;
    int l = tree_sum(tree, 2 * node + 1, n, depth + 1);
    int r = tree_sum(tree, 2 * node + 2, n, depth + 1);
    return tree[node] + l + r + scratch[(node + depth) & 7];
}

__global__ void recursion(const int *tree, int n, unsigned long long *fact, int *fibs,
                          int *sums, int *parity)
{
    int i = threadIdx.x;
    fact[i] = factorial(i % 21);
    fibs[i] = fib(i % 16);
    sums[i] = tree_sum(tree, i % n, n, 0);
    parity[i] = is_even(i);
}

typedef float (*binop_t)(float, float);

__device__ __noinline__ float op_add(float a, float b) { return a + b; }
__device__ __noinline__ float op_mul(float a, float b) { return a * b; }
__device__ __noinline__ float op_max(float a, float b) { return fmaxf(a, b); }
__device__ __noinline__ float op_hyp(float a, float b) { return sqrtf(a * a + b * b); }

__device__ binop_t op_table[4] = {op_add, op_mul, op_max, op_hyp};

__global__ void indirect_calls(const float *a, const float *b, const int *sel, float *out)
{
    int i = threadIdx.x;
    binop_t f = op_table[sel[i] & 3];
    out[i] = f(a[i], b[i]);
    binop_t g = (i & 1) ? op_add : op_hyp;
    out[i] += g(out[i], 1.0f);
}

struct Shape {
    __device__ virtual float area() const = 0;
    __device__ virtual int sides() const { return 0; }
};
struct Square : Shape {
    float s;
    __device__ Square(float s_) : s(s_) {}
    __device__ float area() const override { return s * s; }
    __device__ int sides() const override { return 4; }
};
struct Circle : Shape {
    float r;
    __device__ Circle(float r_) : r(r_) {}
    __device__ float area() const override { return 3.14159265f * r * r; }
};

__device__ __noinline__ float describe(const Shape *s)
{
    return s->area() + s->sides();
}

__global__ void virtual_calls(const float *in, float *out)
{
    int i = threadIdx.x;
    Square sq(in[i]);
    Circle ci(in[i] + 1.0f);
    const Shape *s = (i & 1) ? (const Shape *)&sq : (const Shape *)&ci;
    out[i] = describe(s);
}

// A local array too large for registers, indexed by data: forces local memory.
__global__ void local_spill(const int *idx, const float *in, float *out, int n)
{
    float buf[256];
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    for (int k = 0; k < 256; k++)
        buf[k] = in[(i + k) % n] * k;
    float acc = 0.0f;
    for (int k = 0; k < 64; k++) {
        int j = idx[(i * 64 + k) % n] & 255;
        buf[j] += acc;
        acc += buf[(j * 7 + k) & 255];
    }
    out[i] = acc;
}
