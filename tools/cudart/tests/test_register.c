/* test_register.c — fatbin registration as nvcc's host code does it
 * (cudart/register.c), against libcudart directly.
 *
 * A program that loads and unloads a library with device code (dlopen /
 * dlclose) registers and unregisters its fatbin each time: unregistering
 * must give back the parsed PTX and the decoded program, keeping only the
 * small record its kernels point to. The fatbin is testdata/bin/sample.fatbin
 * (nvcc-built, zstd-compressed PTX of two kernels). */
#include <malloc.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>

#include <cmocka.h>

/* What nvcc's host code calls (crt/host_runtime.h). */
void **__cudaRegisterFatBinary(void *fat_cubin);
void __cudaRegisterFatBinaryEnd(void **handle);
void __cudaUnregisterFatBinary(void **handle);

/* nvcc's __fatBinC_Wrapper_t. */
typedef struct fatbin_wrapper {
    int magic, version;
    const unsigned long long *data;
    void *filename_or_fatbins;
} fatbin_wrapper;

/* Read testdata/bin/sample.fatbin into 8-byte aligned memory, as nvcc
 * places a fatbin. */
static unsigned long long *read_sample_fatbin(void)
{
    const char *td = getenv("SIMTLAB_TESTDATA");
    assert_non_null(td);
    char path[4096];
    snprintf(path, sizeof path, "%s/bin/sample.fatbin", td);
    FILE *f = fopen(path, "rb");
    assert_non_null(f);
    unsigned long long *data = calloc(1, 1 << 16);
    assert_non_null(data);
    assert_true(fread(data, 1, 1 << 16, f) > 16);
    fclose(f);
    return data;
}

/* Bytes the heap has handed out and not taken back. */
static size_t heap_in_use(void)
{
    return mallinfo2().uordblks;
}

/* Registering and unregistering the same fatbin 300 times grows the heap
 * by no more than the per-module record (under 1 KiB each); keeping the
 * parsed PTX of two kernels would take several KiB per cycle. */
static void test_unregister_frees_the_module(void **state)
{
    (void)state;
    unsigned long long *fatbin = read_sample_fatbin();
    fatbin_wrapper w = {0x466243b1, 1, fatbin, NULL};
    for (int warm = 0; warm < 20; warm++) { /* the runtime's own start-up allocations */
        void **h = __cudaRegisterFatBinary(&w);
        __cudaRegisterFatBinaryEnd(h);
        __cudaUnregisterFatBinary(h);
    }
    size_t before = heap_in_use();
    if (before == 0) { /* a sanitizer's allocator: mallinfo2 does not see it */
        free(fatbin);
        skip();
    }
    enum { CYCLES = 300 };
    for (int i = 0; i < CYCLES; i++) {
        void **h = __cudaRegisterFatBinary(&w);
        __cudaRegisterFatBinaryEnd(h);
        __cudaUnregisterFatBinary(h);
    }
    size_t after = heap_in_use();
    print_message("heap growth per register/unregister cycle: %zu bytes\n",
                  after > before ? (after - before) / CYCLES : 0);
    assert_true(after < before + (size_t)CYCLES * 1024);
    free(fatbin);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_unregister_frees_the_module),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
