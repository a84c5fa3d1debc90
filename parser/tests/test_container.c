/* test_container.c — tests for parser/container.c, the fatbin/ELF reader.
 *
 * Samples come from testdata/bin/ (rebuilt by testdata/bin/build.sh with
 * nvcc 13); the directory is found through SIMTLAB_TESTDATA. Every decoded
 * PTX entry is compared byte for byte with the PTX that `nvcc -ptx` wrote for
 * the same source and architecture, after one normalization applied to the
 * expected file only: fatbinary minifies PTX before storing it, so each line
 * loses its `//` comment, runs of blanks/tabs become one space, and leading
 * and trailing blanks go (line breaks stay). The stored text also ends with a
 * NUL, which the reader strips.
 *
 * The corruption tests mutate real samples in memory: truncations at every
 * length, flipped size fields, bad magic, huge sizes, wrong decompressed
 * sizes and single-byte flips. Each must fail cleanly with a one-line reason
 * (or, for flips inside compressed data, at least not misbehave); run under
 * ASan/UBSan to catch over-reads. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "parser/container.h"

/* A file's bytes, loaded whole. */
typedef struct blob {
    unsigned char *data;
    size_t size;
} blob;

/* Loads testdata/bin/<name> (relative to SIMTLAB_TESTDATA) or fails the test. */
static blob load(const char *name)
{
    const char *dir = getenv("SIMTLAB_TESTDATA");
    char path[4096];
    blob b = {NULL, 0};
    assert_non_null(dir);
    snprintf(path, sizeof path, "%s/bin/%s", dir, name);
    FILE *f = fopen(path, "rb");
    if (!f)
        fail_msg("cannot open %s", path);
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    assert_true(n >= 0);
    fseek(f, 0, SEEK_SET);
    b.size = (size_t)n;
    b.data = malloc(b.size + 1);
    assert_non_null(b.data);
    assert_int_equal(fread(b.data, 1, b.size, f), b.size);
    b.data[b.size] = 0;
    fclose(f);
    return b;
}

/* Expected PTX with fatbinary's minification applied (see the file header). */
static char *normalize_ptx(const char *text)
{
    char *out = malloc(strlen(text) + 1);
    size_t o = 0;
    assert_non_null(out);
    for (const char *p = text; *p;) {
        const char *eol = strchr(p, '\n');
        size_t len = eol ? (size_t)(eol - p) : strlen(p);
        for (size_t i = 0; i + 1 < len; i++)
            if (p[i] == '/' && p[i + 1] == '/') {
                len = i; /* drop the comment */
                break;
            }
        size_t start = o;
        int blank = 0;
        for (size_t i = 0; i < len; i++) {
            if (p[i] == ' ' || p[i] == '\t') {
                blank = 1;
                continue;
            }
            if (blank && o > start)
                out[o++] = ' ';
            blank = 0;
            out[o++] = p[i];
        }
        if (!eol)
            break;
        out[o++] = '\n';
        p = eol + 1;
    }
    out[o] = '\0';
    return out;
}

/* Reads "X.Y" after .version in PTX text. */
static void text_version(const char *t, unsigned *major, unsigned *minor)
{
    const char *v = strstr(t, ".version");
    assert_non_null(v);
    assert_int_equal(sscanf(v + 8, " %u.%u", major, minor), 2);
}

/* Checks a decoded PTX entry against <unit>.compute_<arch>.ptx. */
static void check_ptx(const ptx_entry *e, const char *unit)
{
    char name[64];
    snprintf(name, sizeof name, "%s.compute_%u.ptx", unit, e->arch);
    blob exp = load(name);
    char *want = normalize_ptx((const char *)exp.data);
    unsigned major, minor;
    assert_int_equal(e->kind, PTX_ENTRY_PTX);
    assert_non_null(e->data);
    assert_int_equal(e->data[e->size], '\0');
    assert_int_equal(e->size, strlen(want));
    assert_memory_equal(e->data, want, e->size);
    text_version(want, &major, &minor);
    assert_int_equal(e->version_major, major);
    assert_int_equal(e->version_minor, minor);
    assert_non_null(e->name);
    free(want);
    free(exp.data);
}

/* Reads a buffer that must decode, failing the test with the reason if not. */
static void read_ok(const unsigned char *buf, size_t size, ptx_container *c)
{
    char err[256] = "";
    if (ptx_container_read(buf, size, c, err, sizeof err) != 0)
        fail_msg("ptx_container_read failed: %s", err);
}

/* Reads a buffer that must be rejected: -1, a non-empty one-line reason,
 * an emptied container; when want_offset, the reason names a hex offset. */
static void read_bad(const unsigned char *buf, size_t size, int want_offset)
{
    ptx_container c;
    char err[256] = "";
    memset(&c, 0x5a, sizeof c);
    if (ptx_container_read(buf, size, &c, err, sizeof err) != -1)
        fail_msg("corrupt input of %zu bytes was accepted", size);
    assert_true(err[0] != '\0');
    assert_null(strchr(err, '\n'));
    if (want_offset && !strstr(err, "0x"))
        fail_msg("reason does not name an offset: %s", err);
    assert_null(c.entries);
    assert_int_equal(c.nentries, 0);
}

/* Reads a mutated buffer that may or may not decode; it must not crash and a
 * rejection must carry a reason. */
static void read_any(const unsigned char *buf, size_t size)
{
    ptx_container c;
    char err[256] = "";
    if (ptx_container_read(buf, size, &c, err, sizeof err) == 0)
        ptx_container_free(&c);
    else
        assert_true(err[0] != '\0');
}

/* Little-endian field writers used to corrupt headers in place. */
static void put32(unsigned char *p, uint32_t v)
{
    for (int i = 0; i < 4; i++)
        p[i] = (unsigned char)(v >> (8 * i));
}

/* 64-bit little-endian store. */
static void put64(unsigned char *p, uint64_t v)
{
    put32(p, (uint32_t)v);
    put32(p + 4, (uint32_t)(v >> 32));
}

/* 32-bit little-endian load. */
static uint32_t get32(const unsigned char *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

/* 64-bit little-endian load. */
static uint64_t get64(const unsigned char *p) { return get32(p) | (uint64_t)get32(p + 4) << 32; }

/* Finds a section of an x86-64 ELF by name without libelf (an independent
 * reading of the file): *hdr gets the section header's file offset. */
static int find_section(const blob *b, const char *name, size_t *off, size_t *size, size_t *hdr)
{
    const unsigned char *d = b->data;
    uint64_t shoff = get64(d + 0x28);
    unsigned shentsize = d[0x3a] | d[0x3b] << 8, shnum = d[0x3c] | d[0x3d] << 8;
    unsigned shstrndx = d[0x3e] | d[0x3f] << 8;
    const unsigned char *strhdr = d + shoff + (size_t)shstrndx * shentsize;
    const char *strtab = (const char *)d + get64(strhdr + 0x18);
    for (unsigned i = 0; i < shnum; i++) {
        const unsigned char *sh = d + shoff + (size_t)i * shentsize;
        if (strcmp(strtab + get32(sh), name) == 0) {
            *off = (size_t)get64(sh + 0x18);
            *size = (size_t)get64(sh + 0x20);
            if (hdr)
                *hdr = (size_t)(sh - d);
            return 1;
        }
    }
    return 0;
}

/* Offset of the first non-empty fatbin inside [off, off+size) of a file. */
static size_t first_nonempty_fatbin(const blob *b, size_t off, size_t size)
{
    size_t at = off;
    while (at + 16 <= off + size) {
        assert_int_equal(get32(b->data + at), 0xBA55ED50u);
        uint64_t body = get64(b->data + at + 8);
        if (body)
            return at;
        at += 16;
    }
    fail_msg("no non-empty fatbin found");
    return 0;
}

/* Asserts a container holds exactly two PTX entries, compute_80 then
 * compute_90, from one fatbin, compressed as `comp`, matching `unit`. */
static void check_two_arch(const ptx_container *c, ptx_entry_compression comp, const char *unit)
{
    assert_int_equal(c->nentries, 2);
    assert_int_equal(c->is_cubin, 0);
    assert_true(c->nfatbins >= 1);
    for (size_t i = 0; i < 2; i++) {
        const ptx_entry *e = &c->entries[i];
        assert_int_equal(e->arch, i == 0 ? 80 : 90);
        assert_int_equal(e->compression, comp);
        assert_int_equal(e->fatbin_index, c->entries[0].fatbin_index);
        assert_true(e->flags & 1); /* 64-bit */
        if (comp == PTX_COMPRESS_NONE)
            assert_int_equal(e->compressed_size, e->size);
        else
            assert_true(e->compressed_size < e->size);
        check_ptx(e, unit);
    }
}

/* Loads a sample and checks it is a two-arch PTX container. */
static void check_sample(const char *file, ptx_entry_compression comp)
{
    blob b = load(file);
    ptx_container c;
    assert_int_equal(ptx_container_is_binary(b.data, b.size), 1);
    read_ok(b.data, b.size, &c);
    check_two_arch(&c, comp, "sample");
    ptx_container_free(&c);
    free(b.data);
}

/* Binary detection: ELF and fatbin magics yes, PTX text and short input no. */
static void test_is_binary(void **state)
{
    (void)state;
    blob exe = load("sample_exe"), fb = load("sample.fatbin"), ptx = load("sample.compute_80.ptx");
    assert_int_equal(ptx_container_is_binary(exe.data, exe.size), 1);
    assert_int_equal(ptx_container_is_binary(fb.data, fb.size), 1);
    assert_int_equal(ptx_container_is_binary(ptx.data, ptx.size), 0);
    assert_int_equal(ptx_container_is_binary(fb.data, 3), 0);
    assert_int_equal(ptx_container_is_binary(NULL, 0), 0);
    read_bad(ptx.data, ptx.size, 1);
    free(exe.data);
    free(fb.data);
    free(ptx.data);
}

/* Raw .fatbin with nvcc 13's default zstd compression. */
static void test_fatbin_zstd(void **state)
{
    (void)state;
    check_sample("sample.fatbin", PTX_COMPRESS_ZSTD);
}

/* Raw .fatbin with fatbinary's LZ4 ("speed") mode. */
static void test_fatbin_lz4(void **state)
{
    (void)state;
    check_sample("sample_lz4.fatbin", PTX_COMPRESS_LZ4);
}

/* Raw .fatbin with compression off. */
static void test_fatbin_plain(void **state)
{
    (void)state;
    check_sample("sample_nocomp.fatbin", PTX_COMPRESS_NONE);
}

/* Fatbin holding a compressed sm_90 cubin and compute_90 PTX, both named by
 * -ident: the cubin entry decompresses to a device ELF. */
static void test_fatbin_mixed(void **state)
{
    (void)state;
    blob b = load("sample_mixed.fatbin");
    ptx_container c;
    read_ok(b.data, b.size, &c);
    assert_int_equal(c.nfatbins, 1);
    assert_int_equal(c.nentries, 2);
    size_t nptx = 0, ncubin = 0;
    for (size_t i = 0; i < c.nentries; i++) {
        const ptx_entry *e = &c.entries[i];
        assert_int_equal(e->arch, 90);
        assert_string_equal(e->name, "sample.cu");
        assert_int_equal(e->compression, PTX_COMPRESS_ZSTD);
        if (e->kind == PTX_ENTRY_PTX) {
            nptx++;
            check_ptx(e, "sample");
        } else {
            ncubin++;
            assert_int_equal(e->kind, PTX_ENTRY_CUBIN);
            assert_true(e->size > 64);
            assert_memory_equal(e->data, "\177ELF", 4);
            assert_int_equal((unsigned char)e->data[0x12], 190); /* EM_CUDA */
        }
    }
    assert_int_equal(nptx, 1);
    assert_int_equal(ncubin, 1);
    assert_int_equal(ptx_container_pick(&c, 0), c.entries[0].kind == PTX_ENTRY_PTX ? 0 : 1);
    ptx_container_free(&c);
    free(b.data);
}

/* Executables with zstd, LZ4 and uncompressed PTX. */
static void test_executables(void **state)
{
    (void)state;
    check_sample("sample_exe", PTX_COMPRESS_ZSTD);
    check_sample("sample_exe_lz4", PTX_COMPRESS_LZ4);
    check_sample("sample_exe_nocomp", PTX_COMPRESS_NONE);
}

/* Shared object, plain object (.nv_fatbin) and -rdc object (__nv_relfatbin). */
static void test_libraries_and_objects(void **state)
{
    (void)state;
    check_sample("sample.so", PTX_COMPRESS_ZSTD);
    check_sample("sample.o", PTX_COMPRESS_ZSTD);
    check_sample("sample_rdc.o", PTX_COMPRESS_ZSTD);
}

/* Two objects linked together: two fatbins back to back in one section,
 * each with its own compute_80 and compute_90 PTX. */
static void test_multi_fatbin_executable(void **state)
{
    (void)state;
    blob b = load("sample_multi_exe");
    ptx_container c;
    read_ok(b.data, b.size, &c);
    assert_int_equal(c.nentries, 4);
    assert_true(c.nfatbins >= 2);
    size_t fa = c.entries[0].fatbin_index, fb = c.entries[2].fatbin_index;
    assert_true(fa != fb);
    assert_int_equal(c.entries[1].fatbin_index, fa);
    assert_int_equal(c.entries[3].fatbin_index, fb);
    /* Link order decides which object's fatbin comes first. */
    int a_first = strstr(c.entries[0].data, "saxpy") != NULL;
    for (size_t i = 0; i < 4; i++) {
        int from_a = (i < 2) == a_first;
        assert_int_equal(c.entries[i].arch, i % 2 ? 90 : 80);
        check_ptx(&c.entries[i], from_a ? "sample" : "sample_b");
    }
    ptx_container_free(&c);
    free(b.data);
}

/* A cubin is accepted, flagged, and has no PTX to pick. */
static void test_cubin(void **state)
{
    (void)state;
    blob b = load("sample_sm90.cubin");
    ptx_container c;
    assert_int_equal(ptx_container_is_binary(b.data, b.size), 1);
    read_ok(b.data, b.size, &c);
    assert_int_equal(c.is_cubin, 1);
    assert_int_equal(c.nentries, 0);
    assert_int_equal(ptx_container_pick(&c, 0), -1);
    ptx_container_free(&c);
    free(b.data);
}

/* A raw file of two fatbins concatenated decodes both, in order. */
static void test_concatenated_fatbins(void **state)
{
    (void)state;
    blob z = load("sample.fatbin"), l = load("sample_lz4.fatbin");
    unsigned char *cat = malloc(z.size + l.size);
    assert_non_null(cat);
    memcpy(cat, z.data, z.size);
    memcpy(cat + z.size, l.data, l.size);
    ptx_container c;
    read_ok(cat, z.size + l.size, &c);
    assert_int_equal(c.nfatbins, 2);
    assert_int_equal(c.nentries, 4);
    for (size_t i = 0; i < 4; i++) {
        assert_int_equal(c.entries[i].fatbin_index, i / 2);
        assert_int_equal(c.entries[i].compression, i < 2 ? PTX_COMPRESS_ZSTD : PTX_COMPRESS_LZ4);
        check_ptx(&c.entries[i], "sample");
    }
    ptx_container_free(&c);
    free(cat);
    free(z.data);
    free(l.data);
}

/* Picking from a real sample: by arch, highest, and a missing arch. */
static void test_pick_sample(void **state)
{
    (void)state;
    blob b = load("sample.fatbin");
    ptx_container c;
    read_ok(b.data, b.size, &c);
    long i80 = ptx_container_pick(&c, 80), i90 = ptx_container_pick(&c, 90);
    assert_true(i80 >= 0 && i90 >= 0);
    assert_int_equal(c.entries[i80].arch, 80);
    assert_int_equal(c.entries[i90].arch, 90);
    assert_int_equal(ptx_container_pick(&c, 0), i90);
    assert_int_equal(ptx_container_pick(&c, 75), -1);
    ptx_container_free(&c);
    free(b.data);
}

/* Picking orders by PTX version before arch and ignores cubins. */
static void test_pick_synthetic(void **state)
{
    (void)state;
    ptx_entry e[4];
    memset(e, 0, sizeof e);
    e[0] = (ptx_entry){.kind = PTX_ENTRY_PTX, .arch = 90, .version_major = 8, .version_minor = 5};
    e[1] = (ptx_entry){.kind = PTX_ENTRY_PTX, .arch = 80, .version_major = 9, .version_minor = 0};
    e[2] = (ptx_entry){.kind = PTX_ENTRY_CUBIN, .arch = 100, .version_major = 9, .version_minor = 9};
    e[3] = (ptx_entry){.kind = PTX_ENTRY_PTX, .arch = 75, .version_major = 8, .version_minor = 7};
    ptx_container c = {.entries = e, .nentries = 4, .nfatbins = 1};
    assert_int_equal(ptx_container_pick(&c, 0), 1);
    assert_int_equal(ptx_container_pick(&c, 90), 0);
    assert_int_equal(ptx_container_pick(&c, 100), -1);
    ptx_container empty = {0};
    assert_int_equal(ptx_container_pick(&empty, 0), -1);
    assert_int_equal(ptx_container_pick(NULL, 0), -1);
}

/* Every proper prefix of each raw fatbin sample is rejected. */
static void test_truncated_fatbins(void **state)
{
    (void)state;
    const char *files[] = {"sample.fatbin", "sample_lz4.fatbin", "sample_nocomp.fatbin",
                           "sample_mixed.fatbin"};
    for (size_t f = 0; f < sizeof files / sizeof *files; f++) {
        blob b = load(files[f]);
        for (size_t n = 0; n < b.size; n++) {
            unsigned char *copy = malloc(n ? n : 1); /* exact size: ASan sees over-reads */
            assert_non_null(copy);
            memcpy(copy, b.data, n);
            read_bad(copy, n, 1);
            free(copy);
        }
        free(b.data);
    }
}

/* Every proper prefix of an executable, a relocatable object and a cubin is
 * rejected (the section header table sits at the end of these files). */
static void test_truncated_elf(void **state)
{
    (void)state;
    const char *files[] = {"sample_exe", "sample_rdc.o", "sample_sm90.cubin"};
    for (size_t f = 0; f < sizeof files / sizeof *files; f++) {
        blob b = load(files[f]);
        for (size_t n = 0; n < b.size; n += (n < 256 ? 1 : 7)) {
            unsigned char *copy = malloc(n ? n : 1);
            assert_non_null(copy);
            memcpy(copy, b.data, n);
            read_bad(copy, n, 0);
            free(copy);
        }
        free(b.data);
    }
}

/* Wrong magics: of a raw file, of a fatbin inside an ELF section, and of a
 * second fatbin following a good one. */
static void test_bogus_magic(void **state)
{
    (void)state;
    blob b = load("sample.fatbin");
    b.data[0] ^= 0x01;
    read_bad(b.data, b.size, 1);
    free(b.data);

    blob e = load("sample_exe");
    size_t off, size;
    assert_true(find_section(&e, ".nv_fatbin", &off, &size, NULL));
    size_t fb = first_nonempty_fatbin(&e, off, size);
    put32(e.data + fb, 0xDEADBEEF);
    read_bad(e.data, e.size, 1);
    free(e.data);

    blob z = load("sample.fatbin");
    unsigned char *cat = calloc(1, z.size * 2);
    assert_non_null(cat);
    memcpy(cat, z.data, z.size);
    memcpy(cat + z.size, z.data, z.size);
    cat[z.size + 1] ^= 0x40;
    read_bad(cat, z.size * 2, 1);
    free(cat);
    free(z.data);
}

/* Size fields of the fatbin header and of the first entry, set to values
 * that no longer agree with the data. */
static void test_flipped_size_fields(void **state)
{
    (void)state;
    const char *files[] = {"sample.fatbin", "sample_lz4.fatbin", "sample_nocomp.fatbin"};
    for (size_t f = 0; f < sizeof files / sizeof *files; f++) {
        blob b = load(files[f]);
        unsigned char *d = malloc(b.size);
        assert_non_null(d);
        const size_t E = 16; /* first entry */
        uint64_t body = get64(b.data + 8), stored = get64(b.data + E + 8);
        uint32_t hsize = get32(b.data + E + 4);
        struct { size_t at; int wide; uint64_t v; } muts[] = {
            {8, 1, body + 1}, {8, 1, body + 8}, {8, 1, UINT64_MAX},
            {6, 0, 8}, /* fatbin header size below 16 (16-bit field, low half) */
            {E + 4, 0, 0}, {E + 4, 0, 63}, {E + 4, 0, 0xFFFFFFF0u}, {E + 4, 0, hsize + body},
            {E + 8, 1, stored + 8}, {E + 8, 1, UINT64_MAX - 7}, {E + 8, 1, body},
        };
        for (size_t m = 0; m < sizeof muts / sizeof *muts; m++) {
            memcpy(d, b.data, b.size);
            if (muts[m].at == 6) {
                d[6] = (unsigned char)muts[m].v;
                d[7] = 0;
            } else if (muts[m].wide) {
                put64(d + muts[m].at, muts[m].v);
            } else {
                put32(d + muts[m].at, (uint32_t)muts[m].v);
            }
            read_bad(d, b.size, 1);
        }
        free(d);
        free(b.data);
    }
}

/* An entry claiming a huge payload, compressed size or decompressed size. */
static void test_huge_sizes(void **state)
{
    (void)state;
    blob b = load("sample.fatbin");
    const size_t E = 16;
    unsigned char *d = malloc(b.size);
    assert_non_null(d);

    memcpy(d, b.data, b.size);
    put64(d + E + 8, UINT64_C(1) << 40); /* payload */
    read_bad(d, b.size, 1);

    memcpy(d, b.data, b.size);
    put32(d + E + 0x10, 0xFFFFFFFFu); /* compressed size */
    read_bad(d, b.size, 1);

    memcpy(d, b.data, b.size);
    put64(d + E + 0x38, UINT64_C(1) << 40); /* decompressed size */
    read_bad(d, b.size, 1);

    memcpy(d, b.data, b.size);
    put64(d + E + 0x38, UINT64_MAX);
    read_bad(d, b.size, 1);

    memcpy(d, b.data, b.size);
    put64(d + E + 0x38, 0);
    read_bad(d, b.size, 1);

    memcpy(d, b.data, b.size);
    put32(d + E + 0x10, 0);
    read_bad(d, b.size, 1);
    free(d);
    free(b.data);
}

/* Compressed entries whose declared decompressed size is slightly off, for
 * both codecs, in both entries. */
static void test_wrong_decompressed_size(void **state)
{
    (void)state;
    const char *files[] = {"sample.fatbin", "sample_lz4.fatbin", "sample_mixed.fatbin"};
    for (size_t f = 0; f < sizeof files / sizeof *files; f++) {
        blob b = load(files[f]);
        unsigned char *d = malloc(b.size);
        assert_non_null(d);
        for (size_t at = 16; at < b.size;) {
            uint32_t hsize = get32(b.data + at + 4);
            uint64_t stored = get64(b.data + at + 8), dsz = get64(b.data + at + 0x38);
            const int64_t deltas[] = {-1, 1, -8, 64, (int64_t)dsz};
            for (size_t k = 0; k < sizeof deltas / sizeof *deltas; k++) {
                memcpy(d, b.data, b.size);
                put64(d + at + 0x38, dsz + (uint64_t)deltas[k]);
                read_bad(d, b.size, 1);
            }
            at += hsize + stored;
        }
        free(d);
        free(b.data);
    }
}

/* Inconsistent flags and identifier/option descriptors outside the header. */
static void test_bad_header_fields(void **state)
{
    (void)state;
    blob b = load("sample_mixed.fatbin");
    const size_t E = 16;
    unsigned char *d = malloc(b.size);
    assert_non_null(d);
    uint32_t hsize = get32(b.data + E + 4);
    assert_true(get32(b.data + E + 0x24) > 0); /* has an identifier */

    memcpy(d, b.data, b.size);
    put64(d + E + 0x28, get64(b.data + E + 0x28) | 0x2000 | 0x8000); /* LZ4 and zstd */
    read_bad(d, b.size, 1);

    memcpy(d, b.data, b.size);
    put32(d + E + 0x20, hsize); /* identifier past the header */
    read_bad(d, b.size, 1);

    memcpy(d, b.data, b.size);
    put32(d + E + 0x24, 0x7FFFFFFF); /* identifier length */
    read_bad(d, b.size, 1);

    memcpy(d, b.data, b.size);
    put32(d + E + 0x14, hsize - 4); /* option descriptor straddles the header end */
    read_bad(d, b.size, 1);

    memcpy(d, b.data, b.size);
    put32(d + E + get32(b.data + E + 0x14) + 4, 0x1000); /* option text too long */
    read_bad(d, b.size, 1);

    memcpy(d, b.data, b.size);
    put32(d + 4, 2); /* fatbin version */
    read_bad(d, b.size, 1);

    memcpy(d, b.data, b.size);
    memset(d + E + 0x60, 0, 8); /* zstd magic of the first payload */
    read_bad(d, b.size, 1);
    free(d);
    free(b.data);
}

/* ELF-level damage: the fatbin section moved past the end of the file, and
 * the section header table offset pointing outside it. */
static void test_bad_elf_sections(void **state)
{
    (void)state;
    blob e = load("sample_exe");
    size_t off, size, hdr;
    assert_true(find_section(&e, ".nv_fatbin", &off, &size, &hdr));
    unsigned char *d = malloc(e.size);
    assert_non_null(d);

    memcpy(d, e.data, e.size);
    put64(d + hdr + 0x18, e.size - 8); /* sh_offset */
    read_bad(d, e.size, 1);

    memcpy(d, e.data, e.size);
    put64(d + hdr + 0x20, UINT64_MAX - 16); /* sh_size */
    read_bad(d, e.size, 0);

    memcpy(d, e.data, e.size);
    put64(d + 0x28, e.size); /* e_shoff */
    read_bad(d, e.size, 0);

    memcpy(d, e.data, e.size);
    put64(d + hdr + 0x20, size - 8); /* section cut inside the last entry */
    read_bad(d, e.size, 1);
    free(d);
    free(e.data);
}

/* Every byte of the headers flipped, one at a time, and a sweep of flips
 * through the whole file: accept or reject, but never misbehave. */
static void test_byte_flips(void **state)
{
    (void)state;
    const char *files[] = {"sample.fatbin", "sample_lz4.fatbin", "sample_nocomp.fatbin",
                           "sample_mixed.fatbin"};
    for (size_t f = 0; f < sizeof files / sizeof *files; f++) {
        blob b = load(files[f]);
        unsigned char *d = malloc(b.size);
        assert_non_null(d);
        for (size_t at = 0; at < b.size; at += (at < 256 ? 1 : 5)) {
            for (unsigned x = 0x01; x <= 0x80; x <<= 1) {
                memcpy(d, b.data, b.size);
                d[at] ^= (unsigned char)x;
                read_any(d, b.size);
            }
            memcpy(d, b.data, b.size);
            d[at] = 0xFF;
            read_any(d, b.size);
        }
        free(d);
        free(b.data);
    }
    /* ELF files: every byte of a relocatable object and of a cubin. */
    const char *elfs[] = {"sample_rdc.o", "sample_sm90.cubin"};
    for (size_t f = 0; f < sizeof elfs / sizeof *elfs; f++) {
        blob b = load(elfs[f]);
        unsigned char *d = malloc(b.size);
        assert_non_null(d);
        for (size_t at = 0; at < b.size; at++) {
            memcpy(d, b.data, b.size);
            d[at] ^= 0xFF;
            read_any(d, b.size);
        }
        free(d);
        free(b.data);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_is_binary),
        cmocka_unit_test(test_fatbin_zstd),
        cmocka_unit_test(test_fatbin_lz4),
        cmocka_unit_test(test_fatbin_plain),
        cmocka_unit_test(test_fatbin_mixed),
        cmocka_unit_test(test_executables),
        cmocka_unit_test(test_libraries_and_objects),
        cmocka_unit_test(test_multi_fatbin_executable),
        cmocka_unit_test(test_cubin),
        cmocka_unit_test(test_concatenated_fatbins),
        cmocka_unit_test(test_pick_sample),
        cmocka_unit_test(test_pick_synthetic),
        cmocka_unit_test(test_truncated_fatbins),
        cmocka_unit_test(test_truncated_elf),
        cmocka_unit_test(test_bogus_magic),
        cmocka_unit_test(test_flipped_size_fields),
        cmocka_unit_test(test_huge_sizes),
        cmocka_unit_test(test_wrong_decompressed_size),
        cmocka_unit_test(test_bad_header_fields),
        cmocka_unit_test(test_bad_elf_sections),
        cmocka_unit_test(test_byte_flips),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
