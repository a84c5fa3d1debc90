/* op_test.h — running a few PTX instructions once per input: a kernel
 * whose thread i loads the 32-bit words a[i], b[i], c[i] into %a, %b, %c,
 * runs the body (which may declare more registers) and stores %d to
 * out[i]. Include after cmocka.h. */
#ifndef SIMTLAB_EMU_OP_TEST_H
#define SIMTLAB_EMU_OP_TEST_H

#include "emulator/tests/emu_test.h"

/* The kernel text for `body` (the caller frees it). */
static inline char *op_kernel_text(const char *body)
{
    static const char *const head =
        PTX_TEST_HEADER
        ".visible .entry k(.param .u64 pa, .param .u64 pb, .param .u64 pc, .param .u64 pd, .param .u32 pn)\n"
        "{\n"
        ".reg .pred %%in;\n.reg .b32 %%a, %%b, %%c, %%d, %%i, %%n;\n.reg .b64 %%pa, %%pb, %%pc, %%pd, %%off;\n"
        "mov.u32 %%i, %%ctaid.x;\nmov.u32 %%n, %%ntid.x;\nmul.lo.u32 %%i, %%i, %%n;\n"
        "mov.u32 %%n, %%tid.x;\nadd.u32 %%i, %%i, %%n;\n"
        "ld.param.u32 %%n, [pn];\nsetp.lt.u32 %%in, %%i, %%n;\n@!%%in bra DONE;\n"
        "mul.wide.u32 %%off, %%i, 4;\n"
        "ld.param.u64 %%pa, [pa];\nadd.s64 %%pa, %%pa, %%off;\nld.global.u32 %%a, [%%pa];\n"
        "ld.param.u64 %%pb, [pb];\nadd.s64 %%pb, %%pb, %%off;\nld.global.u32 %%b, [%%pb];\n"
        "ld.param.u64 %%pc, [pc];\nadd.s64 %%pc, %%pc, %%off;\nld.global.u32 %%c, [%%pc];\n"
        "mov.u32 %%d, 0;\n"
        "{\n%s\n}\n"
        "ld.param.u64 %%pd, [pd];\nadd.s64 %%pd, %%pd, %%off;\nst.global.u32 [%%pd], %%d;\n"
        "DONE:\nret;\n}\n";
    size_t n = strlen(head) + strlen(body) + 1;
    char *text = malloc(n);
    if (!text) {
        fail_msg("out of memory");
        return NULL;
    }
    snprintf(text, n, head, body);
    return text;
}

/* out[i] = the body's %d for inputs a[i], b[i], c[i] (c may be NULL: 0). */
static inline void op_run(const char *body, const uint32_t *a, const uint32_t *b, const uint32_t *c,
                          uint32_t *out, uint32_t n)
{
    char *text = op_kernel_text(body);
    emu e;
    emu_open_module(&e, ptx_test_parse(text));
    size_t bytes = (size_t)n * 4;
    uint32_t *zero = c ? NULL : calloc(n ? n : 1, 4);
    uint64_t da = emu_buf(&e, a, bytes), db = emu_buf(&e, b ? b : a, bytes),
             dc = emu_buf(&e, c ? c : zero, bytes), dout = emu_buf(&e, NULL, bytes);
    const void *args[] = {&da, &db, &dc, &dout, &n};
    emu_run(&e, "k", emu_cfg((n + 255) / 256, 1, 256, 1), args);
    emu_read(&e, out, dout, bytes);
    free(zero);
    free(text);
    emu_close(&e);
}

#endif
