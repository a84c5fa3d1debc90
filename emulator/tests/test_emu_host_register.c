/* test_emu_host_register.c — host memory the caller registers
 * (sim_register_host, what cudaHostRegister needs): kernels reach a heap
 * buffer and a stack array at their host addresses with global, generic
 * and atomic accesses; the storage is borrowed (never freed by the
 * emulator: AddressSanitizer reports a free of a stack or already freed
 * heap buffer); ranges that are empty, overflow, are not all mapped
 * (writable unless read-only), overlap a live allocation or lie in the
 * device's own windows are refused; after
 * unregistering a kernel access faults; read-only registrations refuse
 * kernel writes and atomics.
 *
 * Expected values: a CPU reference of the kernel's arithmetic written
 * here, and the behaviour emulator/sim.h states for sim_register_host (a GPU
 * with cudaDevAttrCanUseHostPointerForRegisteredMem reaches registered
 * memory at its host address, CUDA Runtime API, cudaHostRegister). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

#include <cmocka.h>

#include "emulator/tests/emu_test.h"

/* k(p, n): thread i < n adds i to p[i] through a global access and 1
 * through a generic one, and atomically adds i to p[n]. w(p): thread 0
 * stores 7 to p[0]. a(p): thread 0 atomically adds 1 to p[0]. r(p, q):
 * thread 0 copies p[1] to q[0]. s(p, q): q[0..2] = isspacep.global,
 * .local and .shared of p. */
static const char *kernels_ptx =
    ".version 8.0\n.target sm_80\n.address_size 64\n"
    ".visible .entry k(.param .u64 p, .param .u32 n)\n{\n"
    "  .reg .pred %p<2>;\n  .reg .b32 %r<8>;\n  .reg .b64 %rd<8>;\n"
    "  ld.param.u64 %rd1, [p];\n  ld.param.u32 %r1, [n];\n  mov.u32 %r2, %tid.x;\n"
    "  setp.ge.u32 %p1, %r2, %r1;\n  @%p1 bra DONE;\n"
    "  mul.wide.u32 %rd2, %r2, 4;\n  add.s64 %rd3, %rd1, %rd2;\n"
    "  ld.global.u32 %r3, [%rd3];\n  add.s32 %r4, %r3, %r2;\n  st.global.u32 [%rd3], %r4;\n"
    "  ld.u32 %r5, [%rd3];\n  add.s32 %r5, %r5, 1;\n  st.u32 [%rd3], %r5;\n"
    "  mul.wide.u32 %rd4, %r1, 4;\n  add.s64 %rd5, %rd1, %rd4;\n"
    "  atom.global.add.u32 %r6, [%rd5], %r2;\n"
    "DONE:\n  ret;\n}\n"
    ".visible .entry w(.param .u64 p)\n{\n  .reg .b32 %r<2>;\n  .reg .b64 %rd<2>;\n"
    "  ld.param.u64 %rd1, [p];\n  mov.u32 %r1, 7;\n  st.global.u32 [%rd1], %r1;\n  ret;\n}\n"
    ".visible .entry a(.param .u64 p)\n{\n  .reg .b32 %r<3>;\n  .reg .b64 %rd<2>;\n"
    "  ld.param.u64 %rd1, [p];\n  atom.global.add.u32 %r2, [%rd1], 1;\n  ret;\n}\n"
    ".visible .entry r(.param .u64 p, .param .u64 q)\n{\n  .reg .b32 %r<2>;\n  .reg .b64 %rd<3>;\n"
    "  ld.param.u64 %rd1, [p];\n  ld.param.u64 %rd2, [q];\n  ld.global.u32 %r1, [%rd1+4];\n"
    "  st.global.u32 [%rd2], %r1;\n  ret;\n}\n"
    ".visible .entry s(.param .u64 p, .param .u64 q)\n{\n  .reg .pred %p<4>;\n  .reg .b32 %r<4>;\n"
    "  .reg .b64 %rd<3>;\n  ld.param.u64 %rd1, [p];\n  ld.param.u64 %rd2, [q];\n"
    "  isspacep.global %p1, %rd1;\n  isspacep.local %p2, %rd1;\n  isspacep.shared %p3, %rd1;\n"
    "  selp.u32 %r1, 1, 0, %p1;\n  selp.u32 %r2, 1, 0, %p2;\n  selp.u32 %r3, 1, 0, %p3;\n"
    "  st.global.u32 [%rd2], %r1;\n  st.global.u32 [%rd2+4], %r2;\n  st.global.u32 [%rd2+8], %r3;\n"
    "  ret;\n}\n";

#define N 96

static void open_kernels(emu *e)
{
    emu_open_module(e, ptx_test_parse(kernels_ptx));
}

/* Register [host, host + size) or fail the test with the message. */
static void must_register(emu *e, void *host, uint64_t size, bool read_only)
{
    if (sim_register_host(e->d, host, size, read_only, "registered", e->err, sizeof e->err) != 0)
        fail_msg("sim_register_host: %s", e->err);
}

/* Run k over buf (N elements and the counter after them) and check it
 * against the CPU: buf[i] = before + i + 1, counter += 0 + 1 + ... + N-1. */
static void run_k_and_check(emu *e, uint32_t *buf)
{
    uint32_t want[N + 1];
    for (uint32_t i = 0; i < N; i++)
        want[i] = buf[i] + i + 1;
    want[N] = buf[N] + N * (N - 1) / 2;
    uint64_t p = (uint64_t)(uintptr_t)buf;
    uint32_t n = N;
    const void *args[] = {&p, &n};
    emu_run(e, "k", emu_cfg(1, 1, N, 1), args);
    assert_memory_equal(buf, want, sizeof want);
}

/* A heap buffer and a stack array: kernels update them in place, and
 * freeing the device leaves both to their owner. */
static void test_heap_and_stack(void **state)
{
    (void)state;
    emu e;
    open_kernels(&e);
    uint32_t *heap = malloc((N + 1) * sizeof *heap), stack[N + 1];
    assert_non_null(heap);
    for (uint32_t i = 0; i <= N; i++) {
        heap[i] = 1000 * i + 5;
        stack[i] = 77 - i;
    }
    must_register(&e, heap, (N + 1) * sizeof *heap, false);
    must_register(&e, stack, sizeof stack, false);
    run_k_and_check(&e, heap);
    run_k_and_check(&e, stack);
    run_k_and_check(&e, heap); /* again: the values it left */
    /* host copies through the table reach the same storage */
    uint32_t v = 123456;
    assert_int_equal(sim_memcpy_to_device(e.d, (uint64_t)(uintptr_t)&heap[3], &v, 4, e.err, sizeof e.err), 0);
    assert_int_equal(heap[3], 123456);
    assert_ptr_equal(sim_host_pointer(e.d, (uint64_t)(uintptr_t)&stack[2], 8), &stack[2]);
    /* both are global memory to isspacep (PTX ISA, isspacep), wherever
     * the host put them (a heap may lie where the local or shared window
     * would be, beyond the part those spaces' addresses take) */
    uint64_t q = emu_buf(&e, NULL, 12);
    uint32_t *bufs[] = {heap, stack};
    for (int b = 0; b < 2; b++) {
        uint64_t p = (uint64_t)(uintptr_t)bufs[b];
        const void *sargs[] = {&p, &q};
        emu_run(&e, "s", emu_cfg(1, 1, 1, 1), sargs);
        uint32_t got[3], want[3] = {1, 0, 0};
        emu_read(&e, got, q, sizeof got);
        assert_memory_equal(got, want, sizeof got);
    }
    emu_close(&e); /* with both still registered: neither may be freed */
    heap[0] = stack[0] = 1;
    assert_int_equal(heap[0] + stack[0], 2);
    free(heap);
}

/* Empty, overflowing, overlapping and in-window ranges are refused with
 * a message saying why; sim_free does not release registered memory, and
 * only its start unregisters it. */
static void test_refusals(void **state)
{
    (void)state;
    emu e;
    open_kernels(&e);
    uint32_t *buf = calloc(64, sizeof *buf);
    assert_non_null(buf);
    char *err = e.err;
    size_t n = sizeof e.err;
    assert_int_equal(sim_register_host(e.d, NULL, 64, false, NULL, err, n), -1);
    assert_non_null(strstr(err, "null pointer"));
    assert_int_equal(sim_register_host(e.d, buf, 0, false, NULL, err, n), -1);
    assert_non_null(strstr(err, "empty range"));
    assert_int_equal(sim_register_host(e.d, buf, UINT64_MAX, false, NULL, err, n), -1);
    assert_non_null(strstr(err, "past the address space"));
    void *in_global = (void *)(uintptr_t)(SIM_GLOBAL_BASE + 4096);
    assert_int_equal(sim_register_host(e.d, in_global, 64, false, NULL, err, n), -1);
    assert_non_null(strstr(err, "the device's own address windows"));
    void *in_local = (void *)(uintptr_t)(SIM_LOCAL_WINDOW + 64); /* a generic local address */
    assert_int_equal(sim_register_host(e.d, in_local, 64, false, NULL, err, n), -1);
    void *below_shared = (void *)(uintptr_t)(SIM_SHARED_WINDOW - 32); /* runs into it */
    assert_int_equal(sim_register_host(e.d, below_shared, 64, false, NULL, err, n), -1);

    must_register(&e, buf + 16, 32 * sizeof *buf, false);
    assert_int_equal(sim_register_host(e.d, buf, 17 * sizeof *buf, false, NULL, err, n), -1);
    assert_non_null(strstr(err, "overlaps registered"));
    assert_int_equal(sim_register_host(e.d, buf + 47, 8, false, NULL, err, n), -1);
    assert_int_equal(sim_register_host(e.d, buf + 20, 4, false, NULL, err, n), -1);
    must_register(&e, buf, 16 * sizeof *buf, false);   /* touching below is fine */
    must_register(&e, buf + 48, 16 * sizeof *buf, false); /* and above */

    uint64_t at = (uint64_t)(uintptr_t)(buf + 16);
    assert_int_equal(sim_free(e.d, at, err, n), -1);
    assert_non_null(strstr(err, "registered host memory"));
    assert_ptr_equal(sim_host_pointer(e.d, at, 4), buf + 16); /* still there */
    assert_int_equal(sim_unregister_host(e.d, buf + 17, err, n), -1);
    assert_non_null(strstr(err, "not the start of registered host memory"));
    assert_int_equal(sim_unregister_host(e.d, buf + 16, err, n), 0);
    assert_int_equal(sim_unregister_host(e.d, buf + 16, err, n), -1);
    assert_null(sim_host_pointer(e.d, at, 4));
    /* device memory can neither be unregistered nor be registered over */
    uint64_t dev = emu_buf(&e, NULL, 256);
    assert_int_equal(sim_unregister_host(e.d, (void *)(uintptr_t)dev, err, n), -1);
    assert_int_equal(sim_free(e.d, dev, err, n), 0);
    emu_close(&e);
    free(buf);
}

/* Only memory the process has mapped can be registered (page-locking
 * needs it, and a kernel must never touch a hole): a range with an
 * unmapped page is refused, and a read-only page only as read-only. */
static void test_unmapped_refused(void **state)
{
    (void)state;
    emu e;
    open_kernels(&e);
    size_t pg = (size_t)sysconf(_SC_PAGESIZE);
    uint8_t *m = mmap(NULL, 3 * pg, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    assert_true(m != MAP_FAILED);
    assert_int_equal(munmap(m + pg, pg), 0);
    assert_int_equal(sim_register_host(e.d, m, 3 * pg, false, NULL, e.err, sizeof e.err), -1);
    assert_non_null(strstr(e.err, "not all of it is mapped"));
    assert_int_equal(sim_register_host(e.d, m + pg - 4, 8, true, NULL, e.err, sizeof e.err), -1);
    uint8_t *ro = m + 2 * pg;
    ro[4] = 9; /* what the kernel reads (bytes 4..7: 9 little-endian) */
    assert_int_equal(mprotect(ro, pg, PROT_READ), 0);
    assert_int_equal(sim_register_host(e.d, ro, pg, false, NULL, e.err, sizeof e.err), -1);
    assert_non_null(strstr(e.err, "readable and writable"));
    must_register(&e, ro, pg, true);
    uint64_t p = (uint64_t)(uintptr_t)ro, q = emu_buf(&e, NULL, 4);
    const void *args[] = {&p, &q};
    emu_run(&e, "r", emu_cfg(1, 1, 1, 1), args);
    uint32_t got = 0;
    emu_read(&e, &got, q, 4);
    assert_int_equal(got, 9);
    must_register(&e, m, pg, false);
    emu_close(&e);
    munmap(m, pg);
    munmap(ro, pg);
}

/* After unregistering, a kernel access through the old pointer is an
 * invalid address and the memory keeps its values. */
static void test_unregistered_faults(void **state)
{
    (void)state;
    emu e;
    open_kernels(&e);
    uint32_t buf[N + 1] = {0};
    must_register(&e, buf, sizeof buf, false);
    run_k_and_check(&e, buf);
    assert_int_equal(sim_unregister_host(e.d, buf, e.err, sizeof e.err), 0);
    uint32_t before[N + 1];
    memcpy(before, buf, sizeof buf);
    uint64_t p = (uint64_t)(uintptr_t)buf;
    const void *args[] = {&p};
    assert_int_equal(emu_try(&e, "w", emu_cfg(1, 1, 1, 1), args), -1);
    assert_int_equal(e.stats.error, SIM_ERR_ADDRESS);
    assert_non_null(strstr(e.err, "invalid __global__ write of size 4"));
    assert_memory_equal(buf, before, sizeof buf);
    emu_close(&e);
}

/* Read-only registration: reads work, a write or an atomic faults and
 * leaves the memory as it was. */
static void test_read_only(void **state)
{
    (void)state;
    emu e;
    open_kernels(&e);
    uint32_t ro[4] = {11, 22, 33, 44};
    must_register(&e, ro, sizeof ro, true);
    uint64_t p = (uint64_t)(uintptr_t)ro, q = emu_buf(&e, NULL, 4);
    const void *rargs[] = {&p, &q};
    emu_run(&e, "r", emu_cfg(1, 1, 1, 1), rargs);
    uint32_t got = 0;
    emu_read(&e, &got, q, 4);
    assert_int_equal(got, 22);
    const void *args[] = {&p};
    assert_int_equal(emu_try(&e, "w", emu_cfg(1, 1, 1, 1), args), -1);
    assert_int_equal(e.stats.error, SIM_ERR_ADDRESS);
    assert_non_null(strstr(e.err, "(host memory registered read-only)"));
    assert_int_equal(emu_try(&e, "a", emu_cfg(1, 1, 1, 1), args), -1);
    assert_non_null(strstr(e.err, "invalid __global__ atomic"));
    assert_int_equal(ro[0], 11);
    /* a read-only table read by k's first load: k then writes and faults */
    uint32_t n = 2;
    const void *kargs[] = {&p, &n};
    assert_int_equal(emu_try(&e, "k", emu_cfg(1, 1, 2, 1), kargs), -1);
    assert_non_null(strstr(e.err, "write"));
    uint32_t want[4] = {11, 22, 33, 44};
    assert_memory_equal(ro, want, sizeof ro);
    emu_close(&e);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_heap_and_stack),
        cmocka_unit_test(test_refusals),
        cmocka_unit_test(test_unmapped_refused),
        cmocka_unit_test(test_unregistered_faults),
        cmocka_unit_test(test_read_only),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
