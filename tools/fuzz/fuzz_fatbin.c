/* fuzz_fatbin.c — libFuzzer harness for the decoding of CUDA binaries.
 *
 * Every input goes two ways:
 *   1. as a file, to ptx_container_read: what `simtlab parse` and `run` do
 *      with an executable, object, cubin or .fatbin (ELF sections, fatbin
 *      headers, entry headers, LZ4 and zstd payloads);
 *   2. when it starts with a fatbin header, as the fatbin a program
 *      registers: nvcc's wrapper pointing at it is handed to the CUDA
 *      runtime's __cudaRegisterFatBinary (which takes the PTX out of it and
 *      parses it), then __cudaRegisterFatBinaryEnd (which decodes it for
 *      the emulator) and __cudaUnregisterFatBinary, as nvcc's host code
 *      does before main and at exit.
 * Neither may crash, hang, leak or trip a sanitizer, and a decoded
 * container must be well formed (checked below). Built with -Dfuzz=true;
 * tests/replay.c runs the same function over the seeds and regression
 * inputs in every build. See README.md. */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "parser/container.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* What nvcc's host code calls (tools/cudart/register.c); the prototypes are
 * those of the toolkit's crt/host_runtime.h. */
void **__cudaRegisterFatBinary(void *fat_cubin);
void __cudaRegisterFatBinaryEnd(void **handle);
void __cudaUnregisterFatBinary(void **handle);

#define FATBIN_WRAPPER_MAGIC 0x466243b1
#define FATBIN_MAGIC 0xba55ed50u
enum { FATBIN_HEADER_BYTES = 16 };

/* nvcc's __fatBinC_Wrapper_t, as placed in a program's .nvFatBinSegment. */
typedef struct fatbin_wrapper {
    int magic, version;
    const unsigned long long *data;
    void *filename_or_fatbins;
} fatbin_wrapper;

/* Stop the fuzzer with a message: a decoded container broke a promise
 * of parser/container.h. */
static void broken(const char *what)
{
    fprintf(stderr, "fuzz_fatbin: %s\n", what);
    abort();
}

/* Decode the input as a file and check what container.h promises: on
 * success every entry has a payload of the stated size (PTX text ending
 * at its size with a NUL, no NUL before), a name, and a fatbin index
 * below the fatbin count; on failure a reason and an empty container. */
static void read_as_file(const uint8_t *data, size_t size)
{
    ptx_container c;
    char err[512];
    if (ptx_container_read(data, size, &c, err, sizeof err) != 0) {
        if (!err[0])
            broken("ptx_container_read failed without a reason");
        if (c.entries || c.nentries)
            broken("ptx_container_read failed but left entries behind");
        return;
    }
    for (size_t i = 0; i < c.nentries; i++) {
        const ptx_entry *e = &c.entries[i];
        if (!e->data || !e->name || e->fatbin_index >= c.nfatbins)
            broken("an entry lacks its payload or name, or names a fatbin that is not there");
        if (e->kind == PTX_ENTRY_PTX && (e->data[e->size] != '\0' || strlen(e->data) != e->size))
            broken("a PTX entry's text is not exactly size bytes before its NUL");
    }
    long pick = ptx_container_pick(&c, 0);
    if (pick >= (long)c.nentries || (pick >= 0 && c.entries[pick].kind != PTX_ENTRY_PTX))
        broken("ptx_container_pick chose something that is not a PTX entry");
    ptx_container_free(&c);
}

/* Register the input as a program's fatbin. The wrapper carries no
 * length: a program's fatbin is as long as its header says (header size
 * plus payload size), so a header that claims more than the input is cut
 * down to it, in a copy (the runtime keeps pointing at the fatbin until it
 * is unregistered). A sum that wraps around 2^64 to no more than the
 * input is left as it is. */
static void register_as_program(const uint8_t *data, size_t size)
{
    uint32_t magic;
    uint16_t header;
    uint64_t payload;
    if (size < FATBIN_HEADER_BYTES)
        return;
    memcpy(&magic, data, 4);
    memcpy(&header, data + 6, 2);
    memcpy(&payload, data + 8, 8);
    if (magic != FATBIN_MAGIC || header > size)
        return;
    unsigned long long *copy = malloc(size + 8); /* 8-byte aligned like nvcc's */
    if (!copy)
        return;
    memcpy(copy, data, size);
    if ((uint64_t)(header + payload) > size) { /* the runtime reads the sum, wrapped at 2^64 */
        payload = size - header;
        memcpy((char *)copy + 8, &payload, 8);
    }
    fatbin_wrapper w = {FATBIN_WRAPPER_MAGIC, 1, copy, NULL};
    void **handle = __cudaRegisterFatBinary(&w);
    __cudaRegisterFatBinaryEnd(handle);
    __cudaUnregisterFatBinary(handle);
    free(copy);
}

/* One fuzz input: both ways in. */
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    read_as_file(data, size);
    register_as_program(data, size);
    return 0;
}
