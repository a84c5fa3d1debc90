/* test_emu_device_window.c — the global window (emulator/window.c): freed
 * ranges are reused, a full window is a clean error, guest ranges are held
 * in the host address space so host memory never lies at a guest address,
 * mapped (pinned) and device memory stay apart, and accesses are judged
 * as a GPU judges them: inside a mapped 2 MiB region they proceed (one
 * warning per PTX line), outside every region they fault, and with memory
 * checking on every access outside a live allocation faults.
 *
 * Expected values come from the behaviour the CUDA driver shows and
 * emulator/sim.h states: allocations carved from regions of 2 MiB granules,
 * 256-byte aligned with 4 KiB free on both sides, first fit; device
 * regions from the bottom of the window, mapped ones from the top, a
 * granule apart; fresh memory reads zero. */
#include <errno.h>
#include <fcntl.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>

#include "emulator/tests/emu_test.h"
#include "ir/util.h"

#define MIB (1ull << 20)
#define GRANULE (2 * MIB)

/* A device with a window of `bytes`. */
static sim_device *device_with_window(uint64_t bytes)
{
    sim_device *d = sim_device_new();
    char err[256];
    if (sim_device_set_global_window(d, bytes, err, sizeof err) != 0)
        fail_msg("sim_device_set_global_window: %s", err);
    return d;
}

/* Whether the host can map a page at guest address a (it must not: the
 * device holds every guest range it uses). */
static bool host_can_map(uint64_t a)
{
    void *want = (void *)(uintptr_t)(a & ~4095ull);
    void *m = mmap(want, 4096, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED_NOREPLACE, -1, 0);
    if (m == MAP_FAILED)
        return false;
    munmap(m, 4096);
    return m == want;
}

/* Send stderr to the file at path (NULL: /dev/null) until
 * restore_stderr; returns what restores it. */
static int redirect_stderr(const char *path)
{
    fflush(stderr);
    int saved = dup(2);
    int fd = open(path ? path : "/dev/null", O_WRONLY | O_TRUNC);
    assert_true(saved >= 0 && fd >= 0);
    dup2(fd, 2);
    close(fd);
    return saved;
}

static void restore_stderr(int saved)
{
    fflush(stderr);
    dup2(saved, 2);
    close(saved);
}

/* A loop of allocations and frees moving 64 times the window's bytes
 * succeeds: freed ranges are reused. An allocation freed while its region
 * holds another comes back at the same address (first fit) and zeroed. */
static void test_reuse_after_free(void **state)
{
    (void)state;
    char err[256];
    sim_device *d = device_with_window(8 * MIB);
    for (int i = 0; i < 512; i++) {
        uint64_t a;
        void *h;
        if (sim_malloc(d, MIB, "loop", &a, err, sizeof err) != 0)
            fail_msg("iteration %d: %s", i, err);
        assert_true(a >= SIM_GLOBAL_BASE && a + MIB <= SIM_GLOBAL_BASE + 8 * MIB);
        assert_int_equal(a % 256, 0);
        assert_int_equal(sim_free(d, a, err, sizeof err), 0);
        if (sim_malloc_mapped(d, MIB, "loop mapped", &h, err, sizeof err) != 0)
            fail_msg("iteration %d (mapped): %s", i, err);
        ((volatile uint8_t *)h)[MIB - 1] = 1; /* host memory at its guest address */
        assert_int_equal(sim_free(d, (uint64_t)(uintptr_t)h, err, sizeof err), 0);
    }
    /* reuse inside a live region: a keeps the region mapped */
    uint64_t a, b, b2;
    assert_int_equal(sim_malloc(d, 1000, "a", &a, err, sizeof err), 0);
    assert_int_equal(sim_malloc(d, 1000, "b", &b, err, sizeof err), 0);
    assert_int_equal(a, SIM_GLOBAL_BASE + 4096); /* the bottom region, after the gap */
    assert_int_equal(b, a + 1024 + 4096);        /* 1000 rounded to 256, then the gap */
    uint8_t ones[1000];
    memset(ones, 0xff, sizeof ones);
    assert_int_equal(sim_memcpy_to_device(d, b, ones, sizeof ones, err, sizeof err), 0);
    assert_int_equal(sim_free(d, b, err, sizeof err), 0);
    assert_int_equal(sim_malloc(d, 1000, "b again", &b2, err, sizeof err), 0);
    assert_int_equal(b2, b);
    uint8_t back[1000];
    assert_int_equal(sim_memcpy_from_device(d, back, b2, sizeof back, err, sizeof err), 0);
    for (size_t i = 0; i < sizeof back; i++)
        assert_int_equal(back[i], 0);
    sim_device_free(d);
}

/* A 4 MiB window holds two 1 MiB allocations (each with its gaps needs a
 * granule); the third fails with a message saying how full the window is,
 * and freeing one makes room again. */
static void test_window_full(void **state)
{
    (void)state;
    char err[256];
    sim_device *d = device_with_window(4 * MIB);
    uint64_t a[3];
    assert_int_equal(sim_malloc(d, MIB, "first", &a[0], err, sizeof err), 0);
    assert_int_equal(sim_malloc(d, MIB, "second", &a[1], err, sizeof err), 0);
    assert_int_equal(sim_malloc(d, MIB, "third", &a[2], err, sizeof err), -1);
    assert_non_null(strstr(err, "device address window full: 2097152 bytes live of 4194304"));
    void *h;
    assert_int_equal(sim_malloc_mapped(d, 4096, "pinned", &h, err, sizeof err), -1);
    assert_non_null(strstr(err, "device address window full"));
    assert_int_equal(sim_free(d, a[0], err, sizeof err), 0);
    assert_int_equal(sim_malloc(d, MIB, "third", &a[2], err, sizeof err), 0);
    assert_int_equal(a[2], a[0]);
    /* more than the window at once */
    assert_int_equal(sim_malloc(d, 5 * MIB, "huge", &a[0], err, sizeof err), -1);
    assert_non_null(strstr(err, "device address window full"));
    sim_device_free(d);
}

/* Window sizes the device refuses, and a change after allocating. */
static void test_window_option(void **state)
{
    (void)state;
    char err[256];
    sim_device *d = sim_device_new();
    assert_int_equal(sim_device_set_global_window(d, 3 * MIB, err, sizeof err), -1);
    assert_non_null(strstr(err, "multiple of 2 MiB"));
    assert_int_equal(sim_device_set_global_window(d, 0, err, sizeof err), -1);
    assert_int_equal(sim_device_set_global_window(d, SIM_GLOBAL_WINDOW_MAX + GRANULE, err, sizeof err), -1);
    assert_int_equal(sim_device_set_global_window(d, SIM_GLOBAL_WINDOW_MAX, err, sizeof err), 0);
    uint64_t a;
    assert_int_equal(sim_malloc(d, 16, "x", &a, err, sizeof err), 0);
    assert_int_equal(sim_device_set_global_window(d, 8 * MIB, err, sizeof err), -1);
    assert_non_null(strstr(err, "while no allocation is live"));
    sim_device_free(d);
}

/* The host can never map anything at an address the device uses, live or
 * freed; a host dereference of a device address crashes, as on a GPU;
 * mapped memory is host memory at its guest address. */
static void test_host_never_at_guest_addresses(void **state)
{
    (void)state;
    char err[256];
    sim_device *d = sim_device_new();
    uint64_t a;
    void *h;
    assert_int_equal(sim_malloc(d, 100, "device", &a, err, sizeof err), 0);
    assert_int_equal(sim_malloc_mapped(d, 100, "pinned", &h, err, sizeof err), 0);
    assert_false(host_can_map(a));
    assert_false(host_can_map(a - 4096)); /* the region's gap */
    assert_false(host_can_map((uint64_t)(uintptr_t)h));
    assert_true(sim_device_range(d, a));
    assert_false(sim_device_range(d, (uint64_t)(uintptr_t)h));
    assert_int_equal(sim_free(d, a, err, sizeof err), 0);
    assert_false(host_can_map(a)); /* the region is gone, the reservation stays */
    assert_true(sim_device_range(d, a));
    assert_int_equal(sim_malloc(d, 100, "device", &a, err, sizeof err), 0);
    pid_t pid = fork();
    if (pid == 0) {
        signal(SIGSEGV, SIG_DFL);
        volatile uint8_t v = *(volatile uint8_t *)(uintptr_t)a;
        (void)v;
        _exit(0); /* the host read device memory: wrong */
    }
    int status = 0;
    waitpid(pid, &status, 0);
    assert_false(WIFEXITED(status) && WEXITSTATUS(status) == 0);
    sim_device_free(d);
}

static const char overrun_ptx[] =
    PTX_TEST_HEADER
    ".visible .entry k(.param .u64 k_p, .param .u64 k_off)\n{\n"
    ".reg .b32 %r<2>;\n.reg .b64 %rd<4>;\n"
    "ld.param.u64 %rd1, [k_p];\nld.param.u64 %rd2, [k_off];\nadd.s64 %rd3, %rd1, %rd2;\n"
    "mov.u32 %r1, 171;\nst.global.u8 [%rd3], %r1;\nret;\n}\n";

/* In an 8 MiB window a pinned buffer takes the top granule; device memory
 * fills the bottom and stops a granule short of it. Writes up to 2 MiB
 * past the end of every device buffer (in the region: they proceed; past
 * it: they fault) never change the pinned buffer, and no device buffer
 * overlaps it. */
static void test_pinned_apart_from_device(void **state)
{
    (void)state;
    emu e;
    emu_open_module(&e, ptx_test_parse(overrun_ptx));
    sim_program_free(e.p); /* the program again, on a device with a small window */
    sim_device_free(e.d);
    e.d = device_with_window(8 * MIB);
    e.p = sim_program_new(e.d, e.m, e.err, sizeof e.err);
    assert_non_null(e.p);
    void *h;
    assert_int_equal(sim_malloc_mapped(e.d, MIB, "pinned", &h, e.err, sizeof e.err), 0);
    uint64_t pin = (uint64_t)(uintptr_t)h;
    assert_true(pin >= SIM_GLOBAL_BASE + 6 * MIB);
    uint64_t dev[4];
    int n = 0;
    while (n < 4 && sim_malloc(e.d, MIB, "device", &dev[n], e.err, sizeof e.err) == 0)
        n++;
    assert_int_equal(n, 2); /* granules 0 and 1; granule 2 borders the pinned one */
    int saved = redirect_stderr(NULL); /* the warnings of the writes in regions */
    for (int i = 0; i < n; i++) {
        assert_true(dev[i] + MIB + GRANULE <= pin || pin + MIB + GRANULE <= dev[i]);
        for (uint64_t off = MIB; off < MIB + GRANULE; off += 4096 + 1) {
            const void *args[] = {&dev[i], &off};
            emu_try(&e, "k", emu_cfg(1, 1, 1, 1), args);
        }
    }
    restore_stderr(saved);
    for (uint64_t i = 0; i < MIB; i++)
        if (((uint8_t *)h)[i])
            fail_msg("the pinned buffer changed at byte %llu", (unsigned long long)i);
    emu_close(&e);
}

static const char slack_ptx[] =
    PTX_TEST_HEADER                                                 /* lines 1-3 */
    ".visible .entry k(.param .u64 k_p, .param .u64 k_off)\n{\n"     /* 4-5 */
    ".reg .pred %p<2>;\n.reg .b32 %r<4>;\n.reg .b64 %rd<4>;\n"       /* 6-8 */
    "ld.param.u64 %rd1, [k_p];\nld.param.u64 %rd2, [k_off];\nadd.s64 %rd3, %rd1, %rd2;\n"
    "ld.global.u32 %r1, [%rd3];\n"                                  /* 12 */
    "add.u32 %r2, %r1, 1;\n"
    "st.global.u32 [%rd3], %r2;\n"                                  /* 14 */
    "mov.u32 %r3, %tid.x;\nsetp.ne.u32 %p1, %r3, 0;\n"
    "@%p1 bra DONE;\nst.global.u32 [%rd1], %r1;\nDONE:\nret;\n}\n";

/* What the file at path holds (NULL-terminated, caller frees). */
static char *read_text(const char *path)
{
    size_t n;
    char *s = ptx_read_file(path, &n);
    assert_non_null(s);
    return s;
}

/* Occurrences of needle in s. */
static int count(const char *s, const char *needle)
{
    int n = 0;
    for (const char *p = s; (p = strstr(p, needle)); p++)
        n++;
    return n;
}

/* SRAD's pattern: 32 threads read the word 512 bytes before the first
 * buffer and write it back plus one. On a GPU that address is mapped and
 * the kernel works: by default it runs (the word reads 0, the writes
 * stay: the second launch reads 1), with one warning per PTX line. With
 * memory checking it is an invalid address; far outside every region it
 * is one in both modes. */
static void test_access_outside_allocations(void **state)
{
    (void)state;
    emu e;
    emu_open_module(&e, ptx_test_parse(slack_ptx));
    uint64_t p = emu_buf(&e, NULL, 256), off = (uint64_t)-512;
    const void *args[] = {&p, &off};
    char log[] = "/tmp/simtlab-window-XXXXXX";
    int fd = mkstemp(log);
    assert_true(fd >= 0);
    close(fd);
    int saved = redirect_stderr(log);
    int rc1 = emu_try(&e, "k", emu_cfg(1, 1, 32, 1), args);
    int rc2 = emu_try(&e, "k", emu_cfg(1, 1, 32, 1), args);
    restore_stderr(saved);
    char *out = read_text(log);
    unlink(log);
    if (rc1 != 0 || rc2 != 0)
        fail_msg("launch failed: %s", e.err);
    /* every thread read 0 in the first launch (fresh memory), wrote 1; the
     * second read 1: a sequentially consistent single word */
    uint32_t first;
    emu_read(&e, &first, p, 4);
    assert_int_equal(first, 1);
    assert_int_equal(count(out, "simtlab: warning:"), 2); /* lines 12 and 14, once each */
    assert_int_equal(count(out, "PTX line 12:"), 1);
    assert_int_equal(count(out, "PTX line 14:"), 1);
    assert_non_null(strstr(out, "kernel k"));
    assert_non_null(strstr(out, "nearest allocation: test buffer"));
    char addr[64];
    snprintf(addr, sizeof addr, "at 0x%llx", (unsigned long long)(p - 512));
    assert_non_null(strstr(out, addr));
    free(out);

    /* memory checking: the same access is an invalid address */
    sim_device_set_memcheck(e.d, true);
    assert_int_equal(emu_try(&e, "k", emu_cfg(1, 1, 32, 1), args), -1);
    assert_int_equal(e.stats.error, SIM_ERR_ADDRESS);
    assert_non_null(strstr(e.err, "invalid __global__ read of size 4"));
    assert_non_null(strstr(e.err, "outside every live allocation"));
    /* far outside every region: a fault with or without checking */
    off = 64 * MIB;
    for (int check = 0; check < 2; check++) {
        sim_device_set_memcheck(e.d, check);
        assert_int_equal(emu_try(&e, "k", emu_cfg(1, 1, 32, 1), args), -1);
        assert_int_equal(e.stats.error, SIM_ERR_ADDRESS);
        assert_non_null(strstr(e.err, "invalid __global__ read of size 4"));
    }
    emu_close(&e);
}

/* Under a memory limit (ulimit -v) an allocation that would pass it is an
 * error message, not an exit or a crash. Address-sanitized builds reserve
 * terabytes of shadow memory and cannot run under such a limit. */
static void test_address_space_limit(void **state)
{
    (void)state;
#if defined(__SANITIZE_ADDRESS__)
    skip();
#else
    pid_t pid = fork();
    if (pid == 0) {
        sim_device *d = sim_device_new();
        char err[256];
        uint64_t a;
        if (sim_malloc(d, 16, "small", &a, err, sizeof err) != 0)
            _exit(10);
        struct rlimit r;
        getrlimit(RLIMIT_AS, &r);
        FILE *f = fopen("/proc/self/statm", "r");
        unsigned long pages = 0;
        if (!f || fscanf(f, "%lu", &pages) != 1)
            _exit(11);
        fclose(f);
        r.rlim_cur = pages * (unsigned long)sysconf(_SC_PAGESIZE) + 64 * MIB;
        if (setrlimit(RLIMIT_AS, &r) != 0)
            _exit(12);
        int rc = sim_malloc(d, 1024 * MIB, "big", &a, err, sizeof err);
        if (rc == 0)
            _exit(13);
        if (!strstr(err, "out of host"))
            _exit(14);
        void *h;
        if (sim_malloc_mapped(d, 1024 * MIB, "big pinned", &h, err, sizeof err) == 0 || !strstr(err, "out of host"))
            _exit(15);
        if (sim_malloc(d, 16, "small", &a, err, sizeof err) != 0) /* small ones still fit */
            _exit(16);
        sim_device_free(d);
        _exit(0);
    }
    int status = 0;
    waitpid(pid, &status, 0);
    assert_true(WIFEXITED(status));
    assert_int_equal(WEXITSTATUS(status), 0);
#endif
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_reuse_after_free),
        cmocka_unit_test(test_window_full),
        cmocka_unit_test(test_window_option),
        cmocka_unit_test(test_host_never_at_guest_addresses),
        cmocka_unit_test(test_pinned_apart_from_device),
        cmocka_unit_test(test_access_outside_allocations),
        cmocka_unit_test(test_address_space_limit),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
