/* test_emu_movmatrix.c — movmatrix.sync.aligned.m8n8.trans.b16 (PTX ISA
 * 9.0, "movmatrix": each lane's a holds a fragment of a row of an 8x8
 * matrix of 16-bit elements, four lanes a row, lane 0 the first; d holds
 * the same fragments of the transposed matrix). The fragment layout is
 * ldmatrix's ("ldmatrix": lane l holds row l / 4, elements 2 (l % 4) and
 * 2 (l % 4) + 1, the first in the low half), so lane l of d holds
 * elements (2 (l % 4), l / 4) and (2 (l % 4) + 1, l / 4) of the input. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "emulator/tests/op_test.h"

/* Eight warps, each transposing its own random matrix; a warp with a lane
 * missing faults. */
static void test_movmatrix(void **state)
{
    (void)state;
    enum { N = 256 };
    static uint32_t a[N], out[N];
    uint64_t seed = 0x77;
    for (unsigned i = 0; i < N; i++)
        a[i] = (uint32_t)emu_rand(&seed);
    const char *body = "movmatrix.sync.aligned.m8n8.trans.b16 %d, %a;";
    char *text = op_kernel_text(body);
    emu_test_assemble(text, "sm_90", true);
    free(text);
    op_run(body, a, a, NULL, out, N);
    for (unsigned w = 0; w < N / 32; w++) {
        uint16_t e[8][8];
        for (unsigned l = 0; l < 32; l++) {
            e[l / 4][2 * (l % 4)] = (uint16_t)a[32 * w + l];
            e[l / 4][2 * (l % 4) + 1] = (uint16_t)(a[32 * w + l] >> 16);
        }
        for (unsigned l = 0; l < 32; l++) {
            uint32_t want = e[2 * (l % 4)][l / 4] | (uint32_t)e[2 * (l % 4) + 1][l / 4] << 16;
            if (out[32 * w + l] != want)
                fail_msg("warp %u lane %u: %08x, want %08x", w, l, out[32 * w + l], want);
        }
    }
    /* 40 threads: the second warp has 8 lanes */
    char *partial = op_kernel_text(body);
    emu e;
    emu_open_module(&e, ptx_test_parse(partial));
    free(partial);
    uint64_t da = emu_buf(&e, a, 160), dout = emu_buf(&e, NULL, 160);
    uint32_t n = 40;
    const void *args[] = {&da, &da, &da, &dout, &n};
    assert_int_equal(emu_try(&e, "k", emu_cfg(1, 1, 256, 1), args), -1);
    if (!strstr(e.err, "movmatrix needs all 32 lanes"))
        fail_msg("unexpected message: %s", e.err);
    emu_close(&e);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_movmatrix),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
