// tensor_cores.cu: warp matrix multiply-accumulate (mma.h wmma API).
// Covers wmma fragments for f16 inputs with f32 and f16 accumulators
// (m16n16k16, m32n8k16, row/col layouts), int8 (u8/s8 -> s32),
// bf16 and tf32 (m16n16k8) and f64 (m8n8k4) guarded by
// __CUDA_ARCH__ >= 800, i.e. wmma.load/wmma.mma/wmma.store with
// .sync.aligned shapes, plus fragment element-wise access; and
// mma.sync.m16n8k16 + ldmatrix written as inline PTX (sm_80+).
#include <mma.h>
#include <cuda_fp16.h>
#include <cuda_bf16.h>
using namespace nvcuda;

__global__ void wmma_f16_f32(const half *a, const half *b, const float *c, float *d, int ld)
{
    wmma::fragment<wmma::matrix_a, 16, 16, 16, half, wmma::row_major> fa;
    wmma::fragment<wmma::matrix_b, 16, 16, 16, half, wmma::col_major> fb;
    wmma::fragment<wmma::accumulator, 16, 16, 16, float> fc;
    int tile = blockIdx.x;
    wmma::load_matrix_sync(fa, a + tile * 16 * ld, ld);
    wmma::load_matrix_sync(fb, b + tile * 16, ld);
    wmma::load_matrix_sync(fc, c + tile * 16 * ld, ld, wmma::mem_row_major);
    wmma::mma_sync(fc, fa, fb, fc);
    for (int k = 0; k < fc.num_elements; k++)
        fc.x[k] = fc.x[k] * 0.5f + 1.0f; // element-wise epilogue
    wmma::store_matrix_sync(d + tile * 16 * ld, fc, ld, wmma::mem_col_major);
}

__global__ void wmma_f16_f16_m32n8k16(const half *a, const half *b, half *d)
{
    wmma::fragment<wmma::matrix_a, 32, 8, 16, half, wmma::col_major> fa;
    wmma::fragment<wmma::matrix_b, 32, 8, 16, half, wmma::row_major> fb;
    wmma::fragment<wmma::accumulator, 32, 8, 16, half> fc;
    wmma::fill_fragment(fc, __float2half(0.0f));
    for (int k = 0; k < 4; k++) {
        wmma::load_matrix_sync(fa, a + k * 16 * 32, 32);
        wmma::load_matrix_sync(fb, b + k * 16 * 8, 8);
        wmma::mma_sync(fc, fa, fb, fc);
    }
    wmma::store_matrix_sync(d, fc, 8, wmma::mem_row_major);
}

__global__ void wmma_int8(const signed char *a, const unsigned char *b, int *d)
{
    wmma::fragment<wmma::matrix_a, 16, 16, 16, signed char, wmma::row_major> fa;
    wmma::fragment<wmma::matrix_b, 16, 16, 16, signed char, wmma::col_major> fb;
    wmma::fragment<wmma::matrix_a, 16, 16, 16, unsigned char, wmma::row_major> ua;
    wmma::fragment<wmma::accumulator, 16, 16, 16, int> fc;
    wmma::fill_fragment(fc, 0);
    wmma::load_matrix_sync(fa, a, 16);
    wmma::load_matrix_sync(fb, a + 256, 16);
    wmma::mma_sync(fc, fa, fb, fc, true); // saturating
    wmma::load_matrix_sync(ua, b, 16);
    wmma::fragment<wmma::matrix_b, 16, 16, 16, unsigned char, wmma::col_major> ub;
    wmma::load_matrix_sync(ub, b + 256, 16);
    wmma::mma_sync(fc, ua, ub, fc);
    wmma::store_matrix_sync(d, fc, 16, wmma::mem_row_major);
}

__global__ void wmma_bf16_tf32_f64(const __nv_bfloat16 *a, const __nv_bfloat16 *b,
                                   const float *fa_, const float *fb_, const double *da,
                                   const double *db, float *d, double *dd)
{
#if __CUDA_ARCH__ >= 800
    // bf16 inputs, f32 accumulate
    wmma::fragment<wmma::matrix_a, 16, 16, 16, __nv_bfloat16, wmma::row_major> ba;
    wmma::fragment<wmma::matrix_b, 16, 16, 16, __nv_bfloat16, wmma::row_major> bb;
    wmma::fragment<wmma::accumulator, 16, 16, 16, float> acc;
    wmma::fill_fragment(acc, 0.0f);
    wmma::load_matrix_sync(ba, a, 16);
    wmma::load_matrix_sync(bb, b, 16);
    wmma::mma_sync(acc, ba, bb, acc);
    // tf32 inputs (m16n16k8), converted with __float_to_tf32
    wmma::fragment<wmma::matrix_a, 16, 16, 8, wmma::precision::tf32, wmma::row_major> ta;
    wmma::fragment<wmma::matrix_b, 16, 16, 8, wmma::precision::tf32, wmma::col_major> tb;
    wmma::load_matrix_sync(ta, fa_, 8);
    wmma::load_matrix_sync(tb, fb_, 8);
    for (int k = 0; k < ta.num_elements; k++)
        ta.x[k] = wmma::__float_to_tf32(ta.x[k]);
    for (int k = 0; k < tb.num_elements; k++)
        tb.x[k] = wmma::__float_to_tf32(tb.x[k]);
    wmma::fragment<wmma::accumulator, 16, 16, 8, float> acc8;
    wmma::load_matrix_sync(acc8, d + 256, 16, wmma::mem_row_major);
    wmma::mma_sync(acc8, ta, tb, acc8);
    wmma::store_matrix_sync(d, acc, 16, wmma::mem_row_major);
    wmma::store_matrix_sync(d + 256, acc8, 16, wmma::mem_col_major);
    // f64 (m8n8k4)
    wmma::fragment<wmma::matrix_a, 8, 8, 4, double, wmma::row_major> xa;
    wmma::fragment<wmma::matrix_b, 8, 8, 4, double, wmma::col_major> xb;
    wmma::fragment<wmma::accumulator, 8, 8, 4, double> xc;
    wmma::fill_fragment(xc, 0.0);
    wmma::load_matrix_sync(xa, da, 4);
    wmma::load_matrix_sync(xb, db, 4);
    wmma::mma_sync(xc, xa, xb, xc);
    wmma::store_matrix_sync(dd, xc, 8, wmma::mem_row_major);
#else
    d[threadIdx.x] = 0.0f; // no bf16/tf32/f64 tensor cores before sm_80
    dd[threadIdx.x] = 0.0;
#endif
}

// Warp-level mma.sync and ldmatrix written as inline PTX (what CUTLASS-style
// code emits): m16n8k16 f16 -> f32 with fragments loaded from shared memory.
__global__ void mma_sync_inline(const half *a, const half *b, float *d)
{
#if __CUDA_ARCH__ >= 800
    __shared__ __align__(16) half sa[16 * 16];
    __shared__ __align__(16) half sb[16 * 8];
    int lane = threadIdx.x & 31;
    for (int k = lane; k < 256; k += 32)
        sa[k] = a[k];
    for (int k = lane; k < 128; k += 32)
        sb[k] = b[k];
    __syncwarp();
    unsigned a0, a1, a2, a3, b0, b1;
    unsigned sa_addr = (unsigned)__cvta_generic_to_shared(&sa[(lane % 16) * 16 + (lane / 16) * 8]);
    unsigned sb_addr = (unsigned)__cvta_generic_to_shared(&sb[(lane % 16) * 8]);
    asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0, %1, %2, %3}, [%4];"
                 : "=r"(a0), "=r"(a1), "=r"(a2), "=r"(a3)
                 : "r"(sa_addr));
    asm volatile("ldmatrix.sync.aligned.m8n8.x2.trans.shared.b16 {%0, %1}, [%2];"
                 : "=r"(b0), "=r"(b1)
                 : "r"(sb_addr));
    float c0 = 0.f, c1 = 0.f, c2 = 0.f, c3 = 0.f;
    asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 "
                 "{%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9}, {%0, %1, %2, %3};"
                 : "+f"(c0), "+f"(c1), "+f"(c2), "+f"(c3)
                 : "r"(a0), "r"(a1), "r"(a2), "r"(a3), "r"(b0), "r"(b1));
    d[lane * 4 + 0] = c0;
    d[lane * 4 + 1] = c1;
    d[lane * 4 + 2] = c2;
    d[lane * 4 + 3] = c3;
#else
    d[threadIdx.x] = __half2float(a[threadIdx.x]) * __half2float(b[threadIdx.x]);
#endif
}
