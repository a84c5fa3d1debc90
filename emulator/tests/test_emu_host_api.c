/* test_emu_host_api.c — the device API the CUDA runtime builds on: mapped
 * allocations that host and kernels share at one address, host views of
 * guest memory, module variables by name (managed ones mapped), and
 * kernel attributes. Expected values come from the PTX text below. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include <cmocka.h>

#include "emulator/tests/emu_test.h"

static const char module_text[] =
    PTX_TEST_HEADER
    ".global .align 4 .u32 plain[4] = {1, 2, 3, 4};\n"
    ".global .attribute(.managed) .align 4 .u32 shared_count = 5;\n"
    ".const .align 8 .u64 scale[2] = {3, 7};\n"
    ".visible .entry bump(.param .u64 p, .param .u32 n)\n"
    ".maxntid 128, 1, 1\n"
    "{\n"
    ".reg .pred %p<2>;\n.reg .b32 %r<8>;\n.reg .b64 %rd<8>;\n"
    ".shared .align 4 .b8 tile[256];\n"
    "ld.param.u64 %rd1, [p];\nld.param.u32 %r1, [n];\nmov.u32 %r2, %tid.x;\n"
    "setp.ge.u32 %p1, %r2, %r1;\n@%p1 bra DONE;\n"
    "mul.wide.u32 %rd2, %r2, 4;\nadd.s64 %rd3, %rd1, %rd2;\nld.u32 %r3, [%rd3];\n"
    "ld.const.u64 %rd4, [scale+8];\ncvt.u32.u64 %r4, %rd4;\nmul.lo.u32 %r3, %r3, %r4;\n"
    "st.u32 [%rd3], %r3;\n"
    "mov.u64 %rd5, shared_count;\natom.global.add.u32 %r5, [%rd5], 1;\n"
    "mov.u32 %r6, tile;\nst.shared.u32 [%r6], %r3;\n"
    "DONE:\nret;\n}\n";

static void test_mapped_memory(void **state)
{
    (void)state;
    emu e;
    emu_open_module(&e, ptx_test_parse(module_text));
    void *h;
    assert_int_equal(sim_malloc_mapped(e.d, 40 * sizeof(uint32_t), "mapped", &h, e.err, sizeof e.err), 0);
    uint32_t *x = h;
    for (int i = 0; i < 40; i++)
        x[i] = (uint32_t)i + 1; /* the host writes it directly */
    uint64_t p = (uint64_t)(uintptr_t)h;
    uint32_t n = 33;
    const void *args[] = {&p, &n};
    emu_run(&e, "bump", emu_cfg(1, 1, 64, 1), args);
    for (int i = 0; i < 40; i++) /* the kernel's writes are visible to the host at once */
        assert_int_equal(x[i], i < 33 ? 7u * (uint32_t)(i + 1) : (uint32_t)i + 1);
    assert_ptr_equal(sim_host_pointer(e.d, p + 8, 4), x + 2);
    assert_int_equal(sim_allocation_size(e.d, p), 160);
    assert_int_equal(sim_allocation_size(e.d, p + 4), 0);
    assert_false(sim_device_range(e.d, p));

    /* ordinary device memory: a host view, but not at the guest address */
    uint64_t d = emu_buf(&e, NULL, 64);
    uint8_t *view = sim_host_pointer(e.d, d, 64);
    assert_non_null(view);
    assert_ptr_not_equal(view, (void *)(uintptr_t)d);
    assert_true(sim_device_range(e.d, d));
    assert_null(sim_host_pointer(e.d, d, 65)); /* past its end */
    assert_null(sim_host_pointer(e.d, d + 64, 1));
    assert_int_equal(sim_free(e.d, p, e.err, sizeof e.err), 0);
    assert_null(sim_host_pointer(e.d, p, 1));
    assert_true(sim_device_range(e.d, d)); /* freed or not, still device space */
    emu_close(&e);
}

static void test_symbols_and_attributes(void **state)
{
    (void)state;
    emu e;
    emu_open_module(&e, ptx_test_parse(module_text));
    sim_symbol_info s;
    assert_int_equal(sim_program_symbol(e.p, "plain", &s, e.err, sizeof e.err), 0);
    assert_int_equal(s.size, 16);
    assert_false(s.constant);
    assert_false(s.managed);
    assert_int_equal(((uint32_t *)s.host)[3], 4); /* the initializer */
    assert_ptr_equal(s.host, sim_host_pointer(e.d, s.addr, 16));

    sim_symbol_info m;
    assert_int_equal(sim_program_symbol(e.p, "shared_count", &m, e.err, sizeof e.err), 0);
    assert_true(m.managed);
    assert_ptr_equal(m.host, (void *)(uintptr_t)m.addr);
    assert_int_equal(*(uint32_t *)m.host, 5);

    sim_symbol_info c;
    assert_int_equal(sim_program_symbol(e.p, "scale", &c, e.err, sizeof e.err), 0);
    assert_true(c.constant);
    assert_int_equal(c.addr - SIM_CONST_WINDOW < SIM_WINDOW_SIZE, 1);
    ((uint64_t *)c.host)[1] = 10; /* what cudaMemcpyToSymbol does */

    uint64_t d = emu_buf(&e, NULL, 16);
    uint32_t ones[4] = {1, 1, 1, 1}, n = 4, got[4];
    sim_memcpy_to_device(e.d, d, ones, sizeof ones, e.err, sizeof e.err);
    const void *args[] = {&d, &n};
    emu_run(&e, "bump", emu_cfg(2, 1, 32, 1), args);
    emu_read(&e, got, d, sizeof got);
    assert_int_equal(got[0], 100); /* two blocks, each multiplying by the new 10 */
    assert_int_equal(*(uint32_t *)m.host, 5 + 8); /* 4 threads of 2 blocks counted on the host's view */

    assert_int_equal(sim_program_symbol(e.p, "tile", &s, e.err, sizeof e.err), -1);
    assert_non_null(strstr(e.err, "no .global or .const variable named 'tile'"));

    sim_kernel_attrs a;
    assert_int_equal(sim_kernel_attributes(e.p, "bump", &a, e.err, sizeof e.err), 0);
    assert_int_equal(a.max_threads, 128);
    assert_int_equal(a.shared_bytes, 256);
    assert_int_equal(a.const_bytes, 16);
    assert_int_equal(a.param_bytes, 12);
    assert_int_equal(a.registers, 2 + 8 + 8);
    assert_int_equal(sim_kernel_attributes(e.p, "nope", &a, e.err, sizeof e.err), -1);
    emu_close(&e);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_mapped_memory),
        cmocka_unit_test(test_symbols_and_attributes),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
