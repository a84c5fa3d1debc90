/* test_emu_launch_oom.c — resources a launch cannot have: per-thread local
 * memory beyond what a GPU gives a thread, and host memory that runs out
 * while a launch sets up its blocks or opens a call frame. Both must fail
 * the launch with an error (the process intact, later launches working),
 * never end the process or hang.
 *
 * The cap on local memory comes from the CUDA C++ Programming Guide, table
 * "Technical Specifications per Compute Capability": "Maximum amount of
 * local memory per thread: 512 KB" for every compute capability, 9.0
 * included. The device heap's default size (8 MiB) and the rule that it
 * may be set only before the first launch that calls malloc come from the
 * documentation of cudaDeviceSetLimit (cuda_runtime_api.h,
 * cudaLimitMallocHeapSize). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>

#include "emulator/tests/emu_test.h"

#if defined(__SANITIZE_ADDRESS__)
#define UNDER_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define UNDER_ASAN 1
#endif
#endif

/* A kernel with a .local array of `bytes` bytes that every thread writes
 * at its thread index and reads back into out[tid]. */
static ptx_module *local_array_kernel(uint64_t bytes)
{
    char body[1024];
    snprintf(body, sizeof body,
             ".local .align 4 .b8 big[%llu];\n"
             "ld.param.u64 %%rd1, [k_p0];\n"
             "mov.u32 %%r1, %%tid.x;\n"
             "mov.u64 %%rd2, big;\n"
             "cvt.u64.u32 %%rd3, %%r1;\n"
             "add.u64 %%rd2, %%rd2, %%rd3;\n"
             "add.u32 %%r2, %%r1, 7;\n"
             "st.local.u8 [%%rd2], %%r2;\n"
             "ld.local.u8 %%r3, [%%rd2];\n"
             "shl.b64 %%rd4, %%rd3, 2;\n"
             "add.u64 %%rd4, %%rd1, %%rd4;\n"
             "st.global.u32 [%%rd4], %%r3;\n"
             "ret;",
             (unsigned long long)bytes);
    return ptx_test_parse_body("", body);
}

/* A frame of exactly 512 KiB runs; one of 512 KiB + 16 (the next size a
 * 16-byte aligned frame has) fails with SIM_ERR_OUT_OF_RESOURCES and a
 * message naming the kernel and the bytes. */
static void test_local_memory_cap(void **state)
{
    (void)state;
    emu e;
    emu_open_module(&e, local_array_kernel(512u * 1024u));
    uint64_t out = emu_buf(&e, NULL, 32 * 4);
    const void *args[] = {&out};
    emu_run(&e, "k", emu_cfg(1, 1, 32, 1), args);
    uint32_t got[32];
    emu_read(&e, got, out, sizeof got);
    for (uint32_t t = 0; t < 32; t++)
        assert_int_equal(got[t], t + 7);
    emu_close(&e);

    emu_open_module(&e, local_array_kernel(512u * 1024u + 1));
    out = emu_buf(&e, NULL, 32 * 4);
    assert_int_equal(emu_try(&e, "k", emu_cfg(1, 1, 32, 1), args), -1);
    assert_int_equal(e.stats.error, SIM_ERR_OUT_OF_RESOURCES);
    if (!strstr(e.err, "launch of k") || !strstr(e.err, "too much local data") || !strstr(e.err, "524304") ||
        !strstr(e.err, "524288"))
        fail_msg("unclear message: %s", e.err);
    /* the device is intact: the same program's kernel is refused again,
     * nothing else changed */
    assert_int_equal(emu_try(&e, "k", emu_cfg(1, 1, 32, 1), args), -1);
    emu_close(&e);
}

/* `.local .b8 big[4000000000]` with 32 threads (issue 14, item 7) is a
 * launch error, as is a frame past 4 GiB (which must not wrap to a small
 * one): neither may end the process with "out of memory". */
static void test_huge_local_frames(void **state)
{
    (void)state;
    const uint64_t sizes[] = {4000000000ull, 5000000000ull, 4294967296ull + 16};
    for (size_t i = 0; i < sizeof sizes / sizeof *sizes; i++) {
        emu e;
        emu_open_module(&e, local_array_kernel(sizes[i]));
        uint64_t out = emu_buf(&e, NULL, 32 * 4);
        const void *args[] = {&out};
        if (emu_try(&e, "k", emu_cfg(1, 1, 32, 1), args) != -1)
            fail_msg("a frame of %llu bytes ran", (unsigned long long)sizes[i]);
        assert_int_equal(e.stats.error, SIM_ERR_OUT_OF_RESOURCES);
        assert_non_null(strstr(e.err, "too much local data"));
        emu_close(&e);
    }
}

/* A kernel calling rec(k_p0), which opens a 64 KiB frame and calls
 * rec(n - 1) until n is 0: n + 1 frames of 65536 bytes and its parameter
 * slot. */
static ptx_module *recursion_kernel(void)
{
    return ptx_test_parse_body(".func rec(.param .b32 n)\n{\n"
                               ".local .align 16 .b8 buf[65536];\n"
                               ".reg .b32 %a<4>;\n.reg .b64 %b<2>;\n.reg .pred %q<2>;\n"
                               "ld.param.b32 %a1, [n];\n"
                               "mov.u64 %b1, buf;\n"
                               "st.local.u32 [%b1], %a1;\n"
                               "setp.eq.u32 %q1, %a1, 0;\n"
                               "@%q1 ret;\n"
                               "sub.u32 %a2, %a1, 1;\n"
                               "{\n.param .b32 p;\nst.param.b32 [p], %a2;\ncall rec, (p);\n}\n"
                               "ret;\n}\n",
                               "ld.param.u64 %rd1, [k_p0];\n"
                               "cvt.u32.u64 %r1, %rd1;\n"
                               "{\n.param .b32 p;\nst.param.b32 [p], %r1;\ncall rec, (p);\n}\n"
                               "ret;");
}

/* A stack asked for beyond the cap (1 MiB) gives a thread 512 KiB in all:
 * seven 64 KiB frames fit, the eighth overflows the stack. */
static void test_stack_capped(void **state)
{
    (void)state;
    emu e;
    emu_open_module(&e, recursion_kernel());
    sim_launch_config cfg = emu_cfg(1, 1, 32, 1);
    cfg.stack_bytes = 1u << 20;
    uint64_t depth = 6;
    const void *args[] = {&depth};
    emu_run(&e, "k", cfg, args);
    depth = 7;
    assert_int_equal(emu_try(&e, "k", cfg, args), -1);
    assert_int_equal(e.stats.error, SIM_ERR_ADDRESS);
    if (!strstr(e.err, "stack overflow") || !strstr(e.err, "of 524288 per thread"))
        fail_msg("unclear message: %s", e.err);
    emu_close(&e);
}

#ifndef UNDER_ASAN
/* Bytes of address space the process has mapped now. */
static uint64_t mapped_now(void)
{
    FILE *f = fopen("/proc/self/statm", "r");
    unsigned long long pages = 0;
    if (!f || fscanf(f, "%llu", &pages) != 1)
        pages = 0;
    if (f)
        fclose(f);
    return pages * (uint64_t)sysconf(_SC_PAGESIZE);
}

#endif

/* Run body in a child whose address space may grow by only `room` bytes;
 * the child must exit 0 within 60 s (a hang or a crash fails). */
static void in_limited_child(void (*body)(void), uint64_t room)
{
#ifdef UNDER_ASAN
    (void)body;
    (void)room;
    skip(); /* the sanitizer's shadow memory needs more address space than any such limit */
#else
    fflush(NULL);
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        alarm(60);
        struct rlimit r = {mapped_now() + room, RLIM_INFINITY};
        if (setrlimit(RLIMIT_AS, &r) != 0)
            _exit(3);
        body();
        _exit(0);
    }
    int status;
    assert_int_equal(waitpid(pid, &status, 0), pid);
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
        fail_msg("the child %s %d", WIFEXITED(status) ? "exited with" : "was killed by signal",
                 WIFEXITED(status) ? WEXITSTATUS(status) : WTERMSIG(status));
#endif
}

/* In the child: blocks of 1024 threads with 512 KiB frames need 512 MiB of
 * local memory each, more than the 256 MiB left: the launch fails with
 * SIM_ERR_OUT_OF_MEMORY on one host thread or four, and a small launch
 * afterwards works. */
static void launch_out_of_memory(void)
{
    emu e;
    emu_open_module(&e, local_array_kernel(512u * 1024u));
    uint64_t out = emu_buf(&e, NULL, 1024 * 4);
    const void *args[] = {&out};
    for (uint32_t threads = 1; threads <= 4; threads += 3) {
        sim_launch_config cfg = emu_cfg(8, 1, 1024, 1);
        cfg.host_threads = threads;
        if (emu_try(&e, "k", cfg, args) != -1)
            _exit(10);
        if (e.stats.error != SIM_ERR_OUT_OF_MEMORY)
            _exit(11);
        if (!strstr(e.err, "launch of k") || !strstr(e.err, "out of memory") || !strstr(e.err, "bytes"))
            _exit(12);
    }
    emu_run(&e, "k", emu_cfg(1, 1, 32, 1), args); /* 16 MiB: fits */
    uint32_t got[32];
    emu_read(&e, got, out, sizeof got);
    for (uint32_t t = 0; t < 32; t++)
        if (got[t] != t + 7)
            _exit(13);
    emu_close(&e);
}

static void test_launch_out_of_memory(void **state)
{
    (void)state;
    in_limited_child(launch_out_of_memory, 256ull << 20);
}

/* In the child: a call of a function declaring 2,000,000 registers needs
 * 2,000,000 x 32 lanes x 8 bytes (about 488 MiB) for the callee's
 * registers, more than is left: the launch stops with
 * SIM_ERR_OUT_OF_MEMORY naming the function, and the process goes on. */
static void call_out_of_memory(void)
{
    emu e;
    emu_open_module(&e, ptx_test_parse_body(".func wide()\n{\n.reg .b32 %w<2000000>;\n"
                                            "mov.u32 %w1999999, 1;\nret;\n}\n",
                                            "call wide, ();\nret;"));
    uint64_t p = 0;
    const void *args[] = {&p};
    if (emu_try(&e, "k", emu_cfg(1, 1, 32, 1), args) != -1)
        _exit(10);
    if (e.stats.error != SIM_ERR_OUT_OF_MEMORY)
        _exit(11);
    if (!strstr(e.err, "out of memory") || !strstr(e.err, "wide"))
        _exit(12);
    emu_close(&e);
}

static void test_call_out_of_memory(void **state)
{
    (void)state;
    in_limited_child(call_out_of_memory, 256ull << 20);
}

/* A kernel that mallocs `bytes` bytes in thread 0 and stores the pointer
 * (0: malloc failed) at k_p0. */
static ptx_module *malloc_kernel(uint64_t bytes)
{
    char body[1024];
    snprintf(body, sizeof body,
             "ld.param.u64 %%rd1, [k_p0];\n"
             "{\n.param .b64 sz;\n.param .b64 r;\n"
             "st.param.b64 [sz], %llu;\n"
             "call.uni (r), malloc, (sz);\n"
             "ld.param.b64 %%rd2, [r];\n}\n"
             "st.global.u64 [%%rd1], %%rd2;\n"
             "ret;",
             (unsigned long long)bytes);
    return ptx_test_parse_body(".extern .func (.param .b64 r) malloc(.param .b64 s);\n", body);
}

/* malloc of 32 MiB fails (NULL) with the default 8 MiB heap and succeeds
 * once the heap is set to 64 MiB before the first launch; after that
 * launch the size can no longer change, and the reported size is the
 * heap's. */
static void test_heap_size(void **state)
{
    (void)state;
    emu e;
    emu_open_module(&e, malloc_kernel(32u << 20));
    assert_true(sim_heap_get_size(e.d) == 8u << 20);
    uint64_t out = emu_buf(&e, NULL, 8), got = 1;
    const void *args[] = {&out};
    emu_run(&e, "k", emu_cfg(1, 1, 1, 1), args);
    emu_read(&e, &got, out, 8);
    assert_true(got == 0);
    emu_close(&e);

    emu_open_module(&e, malloc_kernel(32u << 20));
    assert_int_equal(sim_heap_set_size(e.d, 64u << 20, e.err, sizeof e.err), 0);
    assert_true(sim_heap_get_size(e.d) == 64u << 20);
    out = emu_buf(&e, NULL, 8);
    emu_run(&e, "k", emu_cfg(1, 1, 1, 1), args);
    emu_read(&e, &got, out, 8);
    assert_true(got != 0);
    assert_int_equal(sim_heap_set_size(e.d, 128u << 20, e.err, sizeof e.err), -1);
    assert_non_null(strstr(e.err, "can no longer change"));
    assert_true(sim_heap_get_size(e.d) == 64u << 20);
    emu_close(&e);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_local_memory_cap),
        cmocka_unit_test(test_huge_local_frames),
        cmocka_unit_test(test_stack_capped),
        cmocka_unit_test(test_launch_out_of_memory),
        cmocka_unit_test(test_call_out_of_memory),
        cmocka_unit_test(test_heap_size),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
