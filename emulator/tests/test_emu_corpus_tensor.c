/* test_emu_corpus_tensor.c — tensor-core instructions on the emulator
 * against CPU references written here: tensor_cores.cu's wmma kernels (f16
 * with f32 and f16 accumulators, int8, bf16, tf32, f64; inputs small
 * enough that every sum is exact) and its ldmatrix + mma.sync kernel on
 * sm_75, sm_80, sm_90 (-O3) and sm_80 (-G); and every mma.sync form the
 * emulator knows, from hand-written PTX that loads each lane's fragment
 * registers as the PTX ISA's fragment tables place the matrix elements. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "emulator/tests/emu_test.h"
#include "emulator/tests/corpus_test.h"

/* ---- tensor_cores.cu (wmma) ------------------------------------------------- */

/* f16 bits of a small integer or half-integer (exact). */
static uint16_t h16(double v)
{
    if (v == 0)
        return 0;
    uint16_t sign = v < 0 ? 0x8000 : 0;
    double a = fabs(v);
    int e = 0;
    while (a >= 2.0) { a /= 2; e++; }
    while (a < 1.0) { a *= 2; e--; }
    return sign | (uint16_t)((e + 15) << 10) | (uint16_t)((a - 1.0) * 1024.0);
}
static double h16v(uint16_t h)
{
    if (!(h & 0x7fff))
        return 0.0;
    double m = 1.0 + (h & 0x3ff) / 1024.0;
    double v = ldexp(m, ((h >> 10) & 31) - 15);
    return (h & 0x8000) ? -v : v;
}

static void test_wmma(void **state)
{
    (void)state;
    enum { LD = 32 };
    static uint16_t ha[2 * 16 * LD], hb[2 * 16 * LD];
    static float fc[2 * 16 * LD], fd[2 * 16 * LD];
    for (int i = 0; i < 2 * 16 * LD; i++) {
        ha[i] = h16((double)(i % 7 - 3));
        hb[i] = h16((double)(i % 5 - 2) * 0.5);
        fc[i] = (float)(i % 9);
    }
    for (size_t a = 0; a < CORPUS_NARCHS; a++) {
        emu e;
        corpus_open(&e, "tensor_cores", a);
        /* f16 x f16 + f32 (m16n16k16), epilogue x*0.5+1, stored column-major */
        uint64_t da = emu_buf(&e, ha, sizeof ha), db = emu_buf(&e, hb, sizeof hb),
                 dc = emu_buf(&e, fc, sizeof fc), dd = emu_buf(&e, NULL, sizeof fd);
        int ld = LD;
        const void *g1[] = {&da, &db, &dc, &dd, &ld};
        emu_run(&e, "_Z12wmma_f16_f32PK6__halfS1_PKfPfi", emu_cfg(2, 1, 32, 1), g1);
        emu_read(&e, fd, dd, sizeof fd);
        for (int tile = 0; tile < 2; tile++)
            for (int r = 0; r < 16; r++)
                for (int n = 0; n < 16; n++) {
                    double acc = fc[(tile * 16 + r) * LD + n];
                    for (int k = 0; k < 16; k++)
                        acc += h16v(ha[(tile * 16 + r) * LD + k]) * h16v(hb[tile * 16 + n * LD + k]);
                    float want = (float)acc * 0.5f + 1.0f;
                    float got = fd[tile * 16 * LD + n * LD + r];
                    if (got != want)
                        fail_msg("%s wmma_f16_f32 tile %d (%d,%d): %g, want %g", corpus_arch(a), tile, r, n,
                                 (double)got, (double)want);
                }
        /* f16 accumulator, m32n8k16, four k steps */
        static uint16_t a2[4 * 16 * 32], b2[4 * 16 * 8], d2[32 * 8];
        for (int i = 0; i < 4 * 16 * 32; i++)
            a2[i] = h16((double)(i % 5 - 2));
        for (int i = 0; i < 4 * 16 * 8; i++)
            b2[i] = h16((double)(i % 3 - 1));
        uint64_t da2 = emu_buf(&e, a2, sizeof a2), db2 = emu_buf(&e, b2, sizeof b2),
                 dd2 = emu_buf(&e, NULL, sizeof d2);
        const void *g2[] = {&da2, &db2, &dd2};
        emu_run(&e, "_Z21wmma_f16_f16_m32n8k16PK6__halfS1_PS_", emu_cfg(1, 1, 32, 1), g2);
        emu_read(&e, d2, dd2, sizeof d2);
        for (int r = 0; r < 32; r++)
            for (int n = 0; n < 8; n++) {
                double acc = 0;
                for (int ks = 0; ks < 4; ks++)
                    for (int k = 0; k < 16; k++)
                        acc += h16v(a2[ks * 512 + k * 32 + r]) * h16v(b2[ks * 128 + k * 8 + n]);
                if (h16v(d2[r * 8 + n]) != acc)
                    fail_msg("%s wmma m32n8k16 (%d,%d): %g, want %g", corpus_arch(a), r, n, h16v(d2[r * 8 + n]), acc);
            }
        /* int8: signed (saturating) then unsigned into one s32 accumulator */
        static int8_t sa[512];
        static uint8_t ub[512];
        static int32_t d3[256];
        for (int i = 0; i < 512; i++) {
            sa[i] = (int8_t)((i * 7) % 11 - 5);
            ub[i] = (uint8_t)((i * 5) % 13);
        }
        uint64_t dsa = emu_buf(&e, sa, sizeof sa), dub = emu_buf(&e, ub, sizeof ub), dd3 = emu_buf(&e, NULL, sizeof d3);
        const void *g3[] = {&dsa, &dub, &dd3};
        emu_run(&e, "_Z9wmma_int8PKaPKhPi", emu_cfg(1, 1, 32, 1), g3);
        emu_read(&e, d3, dd3, sizeof d3);
        for (int r = 0; r < 16; r++)
            for (int n = 0; n < 16; n++) {
                int32_t acc = 0;
                for (int k = 0; k < 16; k++)
                    acc += sa[r * 16 + k] * sa[256 + n * 16 + k] + ub[r * 16 + k] * ub[256 + n * 16 + k];
                assert_int_equal(d3[r * 16 + n], acc);
            }
        /* bf16 (m16n16k16), tf32 (m16n16k8), f64 (m8n8k4) on sm_80+ */
        static uint16_t ba[256], bb[256];
        static float ta[128], tb[128], out4[512];
        static double xa[32], xb[32], xd[64];
        for (int i = 0; i < 256; i++) {
            ba[i] = (uint16_t)(h16v(0) == 0 ? 0 : 0); /* set below */
            float v = (float)(i % 5 - 2), w = (float)(i % 3);
            uint32_t vb, wb;
            memcpy(&vb, &v, 4);
            memcpy(&wb, &w, 4);
            ba[i] = (uint16_t)(vb >> 16); /* small integers are exact in bf16 */
            bb[i] = (uint16_t)(wb >> 16);
        }
        for (int i = 0; i < 128; i++) {
            ta[i] = (float)(i % 7) * 0.25f;
            tb[i] = (float)(i % 4 - 1);
        }
        for (int i = 0; i < 512; i++)
            out4[i] = (float)(i % 3);
        for (int i = 0; i < 32; i++) {
            xa[i] = i * 0.5;
            xb[i] = 3 - i;
        }
        uint64_t d_ba = emu_buf(&e, ba, sizeof ba), d_bb = emu_buf(&e, bb, sizeof bb),
                 d_ta = emu_buf(&e, ta, sizeof ta), d_tb = emu_buf(&e, tb, sizeof tb),
                 d_xa = emu_buf(&e, xa, sizeof xa), d_xb = emu_buf(&e, xb, sizeof xb),
                 d_o4 = emu_buf(&e, out4, sizeof out4), d_xd = emu_buf(&e, NULL, sizeof xd);
        const void *g4[] = {&d_ba, &d_bb, &d_ta, &d_tb, &d_xa, &d_xb, &d_o4, &d_xd};
        emu_run(&e, "_Z18wmma_bf16_tf32_f64PK13__nv_bfloat16S1_PKfS3_PKdS5_PfPd", emu_cfg(1, 1, 32, 1), g4);
        float got4[512];
        emu_read(&e, got4, d_o4, sizeof got4);
        emu_read(&e, xd, d_xd, sizeof xd);
        if (strstr(corpus_arch(a), "sm_75")) { /* no such tensor cores: zeros */
            for (int t = 0; t < 32; t++)
                assert_true(got4[t] == 0.0f && xd[t] == 0.0);
        } else {
            for (int r = 0; r < 16; r++)
                for (int n = 0; n < 16; n++) {
                    double acc = 0, acc8 = out4[256 + r * 16 + n];
                    for (int k = 0; k < 16; k++) {
                        float av, bv;
                        uint32_t x = (uint32_t)ba[r * 16 + k] << 16, y = (uint32_t)bb[k * 16 + n] << 16;
                        memcpy(&av, &x, 4);
                        memcpy(&bv, &y, 4);
                        acc += (double)av * bv;
                    }
                    for (int k = 0; k < 8; k++)
                        acc8 += (double)ta[r * 8 + k] * tb[n * 8 + k];
                    if (got4[r * 16 + n] != (float)acc)
                        fail_msg("%s bf16 (%d,%d): %g, want %g", corpus_arch(a), r, n, (double)got4[r * 16 + n], acc);
                    if (got4[256 + n * 16 + r] != (float)acc8)
                        fail_msg("%s tf32 (%d,%d): %g, want %g", corpus_arch(a), r, n,
                                 (double)got4[256 + n * 16 + r], acc8);
                }
            for (int r = 0; r < 8; r++)
                for (int n = 0; n < 8; n++) {
                    double acc = 0;
                    for (int k = 0; k < 4; k++)
                        acc += xa[r * 4 + k] * xb[n * 4 + k];
                    if (xd[r * 8 + n] != acc)
                        fail_msg("%s f64 (%d,%d): %g, want %g", corpus_arch(a), r, n, xd[r * 8 + n], acc);
                }
        }
        emu_close(&e);
    }
}

/* mma_sync_inline: ldmatrix.x4 (A, 16x16 row-major in shared memory),
 * ldmatrix.x2.trans (B, 16x8 row-major) and mma.m16n8k16 f16 -> f32; lane
 * l writes c0..c3, element q at row l/4 + 8 (q/2), column 2 (l%4) + q%2
 * (the ISA's accumulator layout). sm_75 computes a[i] * b[i] instead. */
static void test_mma_sync_inline(void **state)
{
    (void)state;
    static uint16_t a[256], b[128];
    for (int i = 0; i < 256; i++)
        a[i] = h16((double)((i * 7) % 9 - 4));
    for (int i = 0; i < 128; i++)
        b[i] = h16((double)((i * 5) % 7 - 3) * 0.5);
    for (size_t arch = 0; arch < CORPUS_NARCHS; arch++) {
        emu e;
        corpus_open(&e, "tensor_cores", arch);
        uint64_t da = emu_buf(&e, a, sizeof a), db = emu_buf(&e, b, sizeof b), dd = emu_buf(&e, NULL, 128 * 4);
        const void *args[] = {&da, &db, &dd};
        emu_run(&e, "_Z15mma_sync_inlinePK6__halfS1_Pf", emu_cfg(1, 1, 32, 1), args);
        float d[128];
        emu_read(&e, d, dd, sizeof d);
        for (int lane = 0; lane < 32; lane++)
            for (int q = 0; q < 4; q++) {
                double want;
                if (strstr(corpus_arch(arch), "sm_75")) {
                    if (q)
                        continue;
                    want = h16v(a[lane]) * h16v(b[lane]);
                } else {
                    int r = lane / 4 + 8 * (q / 2), col = 2 * (lane % 4) + q % 2;
                    want = 0;
                    for (int k = 0; k < 16; k++)
                        want += h16v(a[r * 16 + k]) * h16v(b[k * 8 + col]);
                }
                float got = strstr(corpus_arch(arch), "sm_75") ? d[lane] : d[lane * 4 + q];
                if (got != (float)want)
                    fail_msg("%s mma_sync_inline lane %d c%d: %g, want %g", corpus_arch(arch), lane, q,
                             (double)got, want);
            }
        emu_close(&e);
    }
}

/* ---- mma.sync shapes, from hand-written PTX ------------------------------ */

/* One mma.sync form: shape, element types d.a.b.c, .satfinite. */
typedef struct mma_case {
    int m, n, k;
    const char *dt, *at, *bt, *ct;
    bool sat;
} mma_case;

/* Bits of element type ty. */
static int tbits(const char *ty) { return !strcmp(ty, "f64") ? 64 : !strcmp(ty, "f16") || !strcmp(ty, "bf16") ? 16 : ty[1] == '8' ? 8 : 32; }

/* Row and column of element i of a lane's fragment of matrix which (0 A,
 * 1 B, 2 C/D), as the PTX ISA's "Matrix Fragments for mma.mMnNkK"
 * sections state them for each shape and type. */
static void isa_elem(const mma_case *mc, int which, int lane, int i, int *r, int *c)
{
    int g = lane >> 2, t = lane % 4;
    bool tf32 = !strcmp(mc->at, "tf32"), f64 = !strcmp(mc->at, "f64"), i8 = tbits(mc->at) == 8;
    if (which == 2) {
        *r = g + (i >= 2 ? 8 : 0);
        *c = t * 2 + (i & 1);
    } else if (which == 0) {
        if (mc->m == 8) { /* m8n8k4 f64, m8n8k16 s8/u8 */
            *r = g;
            *c = f64 ? t : t * 4 + i;
        } else if (tf32 || f64) { /* a0 (g, t), a1 (g+8, t), a2 (g, t+4), a3 (g+8, t+4) */
            *r = g + (i % 2 ? 8 : 0);
            *c = t + (i >= 2 ? 4 : 0);
        } else if (i8) { /* k16: a0..a3 row g, a4..a7 row g+8; k32: then +16 columns */
            *r = g + ((i % 8) >= 4 ? 8 : 0);
            *c = t * 4 + (i & 3) + (i >= 8 ? 16 : 0);
        } else { /* f16/bf16: a0,a1 row g; a2,a3 row g+8; a4.. columns +8 */
            *r = g + ((i % 4) >= 2 ? 8 : 0);
            *c = t * 2 + (i & 1) + (i >= 4 ? 8 : 0);
        }
    } else {
        *c = g;
        if (tf32 || f64)
            *r = t + (i >= 1 ? 4 : 0);
        else if (i8)
            *r = t * 4 + (i & 3) + (i >= 4 ? 16 : 0);
        else
            *r = t * 2 + (i & 1) + (i >= 2 ? 8 : 0);
    }
}

/* The bits of value v as element type ty (v exact in it). */
static uint64_t to_bits(const char *ty, double v)
{
    float f = (float)v;
    uint32_t u;
    memcpy(&u, &f, 4);
    if (!strcmp(ty, "f16"))
        return h16(v);
    if (!strcmp(ty, "bf16"))
        return u >> 16;
    if (!strcmp(ty, "f64")) {
        uint64_t x;
        memcpy(&x, &v, 8);
        return x;
    }
    if (!strcmp(ty, "f32") || !strcmp(ty, "tf32"))
        return u;
    return (uint64_t)(int64_t)v & (tbits(ty) == 8 ? 0xff : 0xffffffffu);
}

/* A test value for element e of a matrix of type ty. */
static double test_value(const char *ty, uint64_t *seed)
{
    uint64_t x = emu_rand(seed);
    if (!strcmp(ty, "s8"))
        return (double)(int8_t)x;
    if (!strcmp(ty, "u8"))
        return (double)(uint8_t)x;
    if (!strcmp(ty, "s32"))
        return (double)(int32_t)(x % 4 ? (int32_t)(x >> 40) - (1 << 23) : x & 1 ? INT32_MAX - 5000 : INT32_MIN + 5000);
    return (double)((int)(x % 15) - 7) * (!strcmp(ty, "tf32") ? 0.25 : 0.5);
}

/* Run D = A·B + C for case mc through a kernel that loads each lane's
 * fragment registers from memory, and compare with the product of the
 * matrices, placed by isa_elem. */
static void check_mma_case(const mma_case *mc, uint64_t seed)
{
    int m = mc->m, n = mc->n, k = mc->k, w = tbits(mc->at) == 64 ? 64 : 32;
    int na = m * k / 32, nb = k * n / 32, nc = m * n / 32; /* elements per lane */
    int pa = w / tbits(mc->at), pb = w / tbits(mc->bt), pc = w / tbits(mc->ct), pd = w / tbits(mc->dt);
    int ra = na / pa, rb = nb / pb, rc = nc / pc, rd = nc / pd; /* registers per lane */
    double A[16 * 32], B[32 * 8], C[16 * 8];
    for (int i = 0; i < m * k; i++)
        A[i] = test_value(mc->at, &seed);
    for (int i = 0; i < k * n; i++)
        B[i] = test_value(mc->bt, &seed);
    for (int i = 0; i < m * n; i++)
        C[i] = test_value(mc->ct, &seed);
    uint64_t fa[32 * 8] = {0}, fb[32 * 4] = {0}, fc[32 * 4] = {0}, fd[32 * 4];
    for (int lane = 0; lane < 32; lane++) {
        int r, c;
        for (int i = 0; i < na; i++) {
            isa_elem(mc, 0, lane, i, &r, &c);
            fa[lane * ra + i / pa] |= to_bits(mc->at, A[r * k + c]) << (tbits(mc->at) * (i % pa) % 64);
        }
        for (int i = 0; i < nb; i++) {
            isa_elem(mc, 1, lane, i, &r, &c);
            fb[lane * rb + i / pb] |= to_bits(mc->bt, B[r * n + c]) << (tbits(mc->bt) * (i % pb) % 64);
        }
        for (int i = 0; i < nc; i++) {
            isa_elem(mc, 2, lane, i, &r, &c);
            fc[lane * rc + i / pc] |= to_bits(mc->ct, C[r * n + c]) << (tbits(mc->ct) * (i % pc) % 64);
        }
    }
    /* the kernel */
    char ptx[4096], regs[4][160];
    int len = snprintf(ptx, sizeof ptx, PTX_TEST_HEADER
                       ".visible .entry k(.param .u64 pa, .param .u64 pb, .param .u64 pc, .param .u64 pd)\n{\n"
                       ".reg .b32 %%r1;\n.reg .b64 %%rd<16>;\n.reg .b%d %%a<%d>, %%b<%d>, %%c<%d>, %%d<%d>;\n"
                       "mov.u32 %%r1, %%laneid;\n",
                       w, ra, rb, rc, rd);
    const char name[4] = {'a', 'b', 'c', 'd'};
    const int cnt[4] = {ra, rb, rc, rd};
    for (int q = 0; q < 4; q++) {
        len += snprintf(ptx + len, sizeof ptx - (size_t)len,
                        "ld.param.u64 %%rd%d, [p%c];\nmul.wide.u32 %%rd%d, %%r1, %d;\nadd.u64 %%rd%d, %%rd%d, %%rd%d;\n",
                        q, name[q], q + 4, cnt[q] * w / 8, q + 8, q, q + 4);
        int rl = snprintf(regs[q], sizeof regs[q], "{");
        for (int j = 0; j < cnt[q]; j++) {
            rl += snprintf(regs[q] + rl, sizeof regs[q] - (size_t)rl, "%s%%%c%d", j ? ", " : "", name[q], j);
            if (q < 3)
                len += snprintf(ptx + len, sizeof ptx - (size_t)len, "ld.global.b%d %%%c%d, [%%rd%d+%d];\n", w,
                                name[q], j, q + 8, j * w / 8);
        }
        snprintf(regs[q] + rl, sizeof regs[q] - (size_t)rl, "}");
    }
    len += snprintf(ptx + len, sizeof ptx - (size_t)len, "mma.sync.aligned.m%dn%dk%d.row.col%s.%s.%s.%s.%s %s, %s, %s, %s;\n",
                    m, n, k, mc->sat ? ".satfinite" : "", mc->dt, mc->at, mc->bt, mc->ct, regs[3], regs[0], regs[1],
                    regs[2]);
    for (int j = 0; j < rd; j++)
        len += snprintf(ptx + len, sizeof ptx - (size_t)len, "st.global.b%d [%%rd11+%d], %%d%d;\n", w, j * w / 8, j);
    snprintf(ptx + len, sizeof ptx - (size_t)len, "ret;\n}\n");
    emu e;
    emu_open_module(&e, ptx_test_parse(ptx));
    size_t ba = 32u * (size_t)ra * (size_t)w / 8, bb = 32u * (size_t)rb * (size_t)w / 8,
           bc = 32u * (size_t)rc * (size_t)w / 8, bd = 32u * (size_t)rd * (size_t)w / 8;
    uint8_t tmp[32 * 8 * 8];
    uint64_t dev[4];
    const uint64_t *host[3] = {fa, fb, fc};
    const size_t bytes[4] = {ba, bb, bc, bd};
    for (int q = 0; q < 4; q++) {
        for (int j = 0; q < 3 && j < 32 * cnt[q]; j++)
            memcpy(tmp + (size_t)j * (size_t)w / 8, &host[q][j], (size_t)w / 8);
        dev[q] = emu_buf(&e, q < 3 ? tmp : NULL, bytes[q]);
    }
    const void *args[] = {&dev[0], &dev[1], &dev[2], &dev[3]};
    emu_run(&e, "k", emu_cfg(1, 1, 32, 1), args);
    emu_read(&e, tmp, dev[3], bd);
    for (int j = 0; j < 32 * rd; j++) {
        fd[j] = 0;
        memcpy(&fd[j], tmp + (size_t)j * (size_t)w / 8, (size_t)w / 8);
    }
    emu_close(&e);
    /* the reference: exact sums, saturated (.satfinite) or wrapped for s32,
     * rounded once to the accumulator type (every float sum here is exact) */
    for (int lane = 0; lane < 32; lane++)
        for (int i = 0; i < nc; i++) {
            int r, c;
            isa_elem(mc, 2, lane, i, &r, &c);
            double want = C[r * n + c];
            for (int j = 0; j < k; j++)
                want += A[r * k + j] * B[j * n + c];
            if (!strcmp(mc->dt, "s32"))
                want = mc->sat ? fmin(fmax(want, INT32_MIN), INT32_MAX)
                               : (double)(int32_t)(uint32_t)(uint64_t)(int64_t)want;
            uint64_t wbits = to_bits(mc->dt, want), mask = tbits(mc->dt) == 64 ? ~0ull : (1ull << tbits(mc->dt)) - 1;
            uint64_t got = (fd[lane * rd + i / pd] >> (tbits(mc->dt) * (i % pd) % 64)) & mask;
            if (got != wbits)
                fail_msg("mma m%dn%dk%d .%s.%s.%s.%s%s lane %d element %d (%d,%d): 0x%llx, want 0x%llx (%g)", m, n, k,
                         mc->dt, mc->at, mc->bt, mc->ct, mc->sat ? " satfinite" : "", lane, i, r, c,
                         (unsigned long long)got, (unsigned long long)wbits, want);
        }
}

/* Every mma.sync form the emulator knows, with the ISA's fragment layouts. */
static void test_mma_sync_shapes(void **state)
{
    (void)state;
    static const mma_case cases[] = {
        {16, 8, 16, "f32", "f16", "f16", "f32", false}, {16, 8, 16, "f16", "f16", "f16", "f16", false},
        {16, 8, 8, "f32", "f16", "f16", "f16", false},  {16, 8, 8, "f16", "f16", "f16", "f32", false},
        {16, 8, 16, "f32", "bf16", "bf16", "f32", false}, {16, 8, 8, "f32", "bf16", "bf16", "f32", false},
        {16, 8, 4, "f32", "tf32", "tf32", "f32", false}, {16, 8, 8, "f32", "tf32", "tf32", "f32", false},
        {16, 8, 16, "s32", "s8", "s8", "s32", false},   {16, 8, 32, "s32", "u8", "s8", "s32", true},
        {16, 8, 32, "s32", "s8", "u8", "s32", false},   {8, 8, 16, "s32", "s8", "s8", "s32", true},
        {8, 8, 4, "f64", "f64", "f64", "f64", false},   {16, 8, 4, "f64", "f64", "f64", "f64", false},
        {16, 8, 8, "f64", "f64", "f64", "f64", false},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++)
        for (uint64_t seed = 1; seed <= 3; seed++)
            check_mma_case(&cases[i], seed * 0x9e3779b97f4a7c15ull + i);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_wmma),
        cmocka_unit_test(test_mma_sync_inline),
        cmocka_unit_test(test_mma_sync_shapes),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
