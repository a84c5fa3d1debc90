/* test_emu_corpus_tensor.c — tensor_cores.cu on the emulator against CPU
 * references written here: the wmma kernels (f16 with f32 and f16
 * accumulators, int8, bf16, tf32, f64; inputs small enough that every sum
 * is exact) on sm_75, sm_80, sm_90 (-O3) and sm_80 (-G). */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "emu/tests/emu_test.h"
#include "emu/tests/corpus_test.h"

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

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_wmma),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
