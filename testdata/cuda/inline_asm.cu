// inline_asm.cu: inline PTX.
// Covers asm with output/input/read-write operands of every constraint
// (h, r, l, f, d, n, "+r"), asm volatile with memory clobbers, asm blocks
// with their own `{ .reg ... }` scopes and predicates (setp/selp/@p),
// nested scopes that shadow names, labels and branches inside an asm scope
// (including a brx.idx jump table with .branchtargets), carry-chain
// arithmetic (add.cc/addc), prmt/bfe/bfi/lop3, and special registers.
#include <stdint.h>

__global__ void asm_operands(const int *in, int *out, long long *lout, float *fout,
                             double *dout, short *sout)
{
    int i = threadIdx.x;
    int a = in[i], b = in[i + 32];
    int r;
    asm("add.s32 %0, %1, %2;" : "=r"(r) : "r"(a), "r"(b));
    asm("mad.lo.s32 %0, %1, %2, %0;" : "+r"(r) : "r"(a), "n"(17));
    long long l;
    asm("mul.wide.s32 %0, %1, %2;" : "=l"(l) : "r"(a), "r"(b));
    float f;
    asm("cvt.rn.f32.s32 %0, %1;\n\t"
        "fma.rn.f32 %0, %0, %0, 0f3F800000;" : "=f"(f) : "r"(r));
    double d;
    asm("cvt.f64.f32 %0, %1;\n\tsqrt.rn.f64 %0, %0;" : "=d"(d) : "f"(f));
    short s;
    asm("cvt.u16.u32 %0, %1;\n\tadd.u16 %0, %0, 0x7fff;" : "=h"(s) : "r"(r));
    asm volatile("st.global.u32 [%0], %1;" ::"l"(out + 64 + i), "r"(a) : "memory");
    out[i] = r;
    lout[i] = l;
    fout[i] = f;
    dout[i] = d;
    sout[i] = s;
}

// asm with a private scope, local registers and predicates.
__device__ __forceinline__ unsigned clamp_add(unsigned a, unsigned b, unsigned lim)
{
    unsigned r;
    asm("{\n\t"
        ".reg .u32 t;\n\t"
        ".reg .pred p, q;\n\t"
        "add.u32 t, %1, %2;\n\t"
        "setp.lt.u32 p, t, %1;\n\t"          // overflow
        "setp.gt.or.u32 q, t, %3, p;\n\t"
        "selp.u32 %0, %3, t, q;\n\t"
        "@!q add.u32 %0, %0, 0;\n\t"
        "}"
        : "=r"(r)
        : "r"(a), "r"(b), "r"(lim));
    return r;
}

// Nested scopes re-declaring the same name, and labels inside a scope.
__device__ __forceinline__ int count_bits_loop(unsigned v)
{
    int n;
    asm("{\n\t"
        ".reg .u32 x, y;\n\t"
        ".reg .pred p;\n\t"
        "mov.u32 x, %1;\n\t"
        "mov.s32 %0, 0;\n"
        "LOOP:\n\t"
        "setp.eq.u32 p, x, 0;\n\t"
        "@p bra DONE;\n\t"
        "{\n\t"
        ".reg .u32 x;\n\t"           // inner scope: shadows the outer x
        "mov.u32 x, 1;\n\t"
        "add.s32 %0, %0, x;\n\t"
        "}\n\t"
        "sub.u32 y, x, 1;\n\t"
        "and.b32 x, x, y;\n\t"
        "bra LOOP;\n"
        "DONE:\n\t"
        "}"
        : "=r"(n)
        : "r"(v));
    return n;
}

__global__ void asm_scopes(const unsigned *in, unsigned *out)
{
    int i = threadIdx.x;
    unsigned v = in[i];
    out[i] = clamp_add(v, in[i + 1], 1000u) + count_bits_loop(v);
}

// Multi-word add with carry propagation and bit-field instructions.
__global__ void asm_carry_bits(const uint32_t *a, const uint32_t *b, uint32_t *sum,
                               uint32_t *bits)
{
    int i = threadIdx.x;
    const uint32_t *x = a + 4 * i, *y = b + 4 * i;
    uint32_t r0, r1, r2, r3;
    asm("add.cc.u32 %0, %4, %8;\n\t"
        "addc.cc.u32 %1, %5, %9;\n\t"
        "addc.cc.u32 %2, %6, %10;\n\t"
        "addc.u32 %3, %7, %11;"
        : "=r"(r0), "=r"(r1), "=r"(r2), "=r"(r3)
        : "r"(x[0]), "r"(x[1]), "r"(x[2]), "r"(x[3]), "r"(y[0]), "r"(y[1]), "r"(y[2]),
          "r"(y[3]));
    sum[4 * i] = r0;
    sum[4 * i + 1] = r1;
    sum[4 * i + 2] = r2;
    sum[4 * i + 3] = r3;
    uint32_t e, f, g, h;
    asm("bfe.u32 %0, %1, 4, 8;" : "=r"(e) : "r"(x[0]));
    asm("bfi.b32 %0, %1, %2, 8, 4;" : "=r"(f) : "r"(x[1]), "r"(y[1]));
    asm("prmt.b32 %0, %1, %2, 0x3210;" : "=r"(g) : "r"(x[2]), "r"(y[2]));
    asm("lop3.b32 %0, %1, %2, %3, 0x96;" : "=r"(h) : "r"(x[3]), "r"(y[3]), "r"(e));
    bits[i] = e ^ f ^ g ^ h;
}

// A jump table written in inline PTX (nvcc itself lowers switch to compare
// trees, so this is where brx.idx comes from in generated code).
__global__ void asm_jump_table(const unsigned *in, unsigned *out)
{
    int i = threadIdx.x;
    unsigned sel = in[i] & 3, r;
    asm("{\n\t"
        ".reg .u32 idx;\n\t"
        "mov.u32 idx, %1;\n"
        "JT: .branchtargets C0, C1, C2, C3;\n\t"
        "brx.idx idx, JT;\n"
        "C0:\n\tmov.u32 %0, 100;\n\tbra.uni END;\n"
        "C1:\n\tmov.u32 %0, 200;\n\tbra.uni END;\n"
        "C2:\n\tmov.u32 %0, 300;\n\tbra.uni END;\n"
        "C3:\n\tmov.u32 %0, 400;\n"
        "END:\n\t"
        "}"
        : "=r"(r)
        : "r"(sel));
    out[i] = r;
}
