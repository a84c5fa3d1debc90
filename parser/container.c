/* container.c — finding and decoding the PTX that nvcc embeds in binaries.
 *
 * Layout decoded here (all integers little-endian; offsets are relative to
 * the start of the structure; checked against files built by nvcc 13):
 *
 * A fatbin is a 16-byte header followed by a sequence of entries:
 *   +0  u32 magic 0xBA55ED50      +4  u16 version (1)
 *   +6  u16 header size (16)      +8  u64 bytes of entries that follow
 * Several fatbins may sit back to back (one per linked object) in the ELF
 * sections .nv_fatbin (executables, shared objects, objects) or
 * __nv_relfatbin (objects built with -rdc), and in a raw .fatbin file.
 *
 * Each entry is a header of at least 64 bytes, then its payload:
 *   +0x00 u16 kind (1 PTX, 2 ELF/cubin, others e.g. 8 LTO-IR are skipped)
 *   +0x02 u16 (0x0101)            +0x04 u32 entry header size
 *   +0x08 u64 payload size as stored (padded to 8 bytes)
 *   +0x10 u32 compressed size (0 when stored plain)
 *   +0x14 u32 offset, inside the entry header, of an 8-byte descriptor
 *             {u32 offset, u32 length} of option text (e.g. "--compile-only"),
 *             0 when absent
 *   +0x18 u16 minor version       +0x1a u16 major version
 *             (the PTX ISA version for PTX, the ELF code version for cubins)
 *   +0x1c u32 SM architecture (80 for compute_80 / sm_80)
 *   +0x20 u32 identifier offset and +0x24 u32 identifier length (inside the
 *             entry header; e.g. the source name given with -ident)
 *   +0x28 u64 flags: 0x1 64-bit, 0x2 debug, 0x10 Linux, 0x2000 LZ4-compressed,
 *             0x8000 zstd-compressed, 0x100000 'a' and 0x200000 'f' targets
 *   +0x30 u64 (unused here)       +0x38 u64 decompressed size (0 when plain)
 * The next entry starts at entry + header size + payload size. A compressed
 * payload holds exactly `compressed size` bytes of a raw LZ4 block or a zstd
 * frame. PTX text ends with a NUL (a plain payload is then zero-padded;
 * the decompressed size counts the NUL). Zero 8-byte words between fatbins
 * in a section are alignment padding.
 *
 * A cubin is a device ELF (e_machine EM_CUDA, 190) holding SASS only. */
#include "parser/container.h"

#include <gelf.h>
#include <libelf.h>
#include <lz4.h>
#include <zstd.h>

#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define FATBIN_MAGIC UINT32_C(0xBA55ED50)

enum {
    FATBIN_HEADER_MIN = 16,
    ENTRY_HEADER_MIN = 64,
    ENTRY_KIND_PTX = 1,
    ENTRY_KIND_ELF = 2,
    EM_CUDA_MACHINE = 190,
};

#define FLAG_LZ4 UINT64_C(0x2000)
#define FLAG_ZSTD UINT64_C(0x8000)
/* Largest decompressed entry accepted: far above any real PTX or cubin,
 * low enough that a corrupt size cannot make us allocate absurd amounts. */
#define MAX_ENTRY_BYTES (UINT64_C(1) << 30)

/* Section names that hold fatbins in host ELF files. */
static const char *const fatbin_sections[] = {".nv_fatbin", "__nv_relfatbin"};

/* State of one ptx_container_read call: the input, the growing result, and
 * where the error goes. Passed explicitly; the module has no globals. */
typedef struct reader {
    const unsigned char *buf;
    size_t size;
    ptx_container *out;
    size_t cap;  /* allocated slots in out->entries */
    char *err;
    size_t errlen;
} reader;

/* Writes a one-line reason into the caller's buffer and returns -1, so every
 * failure path is a single `return fail(...)`. */
static int fail(reader *r, const char *fmt, ...)
{
    if (r->err && r->errlen) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(r->err, r->errlen, fmt, ap);
        va_end(ap);
    }
    return -1;
}

/* Little-endian loads: the fatbin format is little-endian on every host. */
static uint16_t rd16(const unsigned char *p) { return (uint16_t)(p[0] | (p[1] << 8)); }

/* 32-bit little-endian load. */
static uint32_t rd32(const unsigned char *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

/* 64-bit little-endian load. */
static uint64_t rd64(const unsigned char *p) { return (uint64_t)rd32(p) | (uint64_t)rd32(p + 4) << 32; }

/* True when [off, off+len) lies inside [0, end); written to avoid overflow. */
static int fits(uint64_t off, uint64_t len, uint64_t end) { return off <= end && len <= end - off; }

/* Appends a finished entry to the result, growing the array geometrically;
 * takes ownership of e's buffers only on success. */
static int push_entry(reader *r, const ptx_entry *e)
{
    ptx_container *c = r->out;
    if (c->nentries == r->cap) {
        size_t ncap = r->cap ? r->cap * 2 : 8;
        ptx_entry *n = realloc(c->entries, ncap * sizeof *n);
        if (!n)
            return fail(r, "out of memory growing the entry list");
        c->entries = n;
        r->cap = ncap;
    }
    c->entries[c->nentries++] = *e;
    return 0;
}

/* Length of the text at p up to its first NUL, reading at most n bytes
 * (strnlen is POSIX, not C17). */
static size_t bounded_len(const void *p, size_t n)
{
    const char *nul = memchr(p, '\0', n);
    return nul ? (size_t)(nul - (const char *)p) : n;
}

/* Copies n bytes into a fresh buffer with a NUL after them, so both text and
 * binary payloads can be handed out uniformly. */
static char *dup_bytes(const unsigned char *p, size_t n)
{
    char *s = malloc(n + 1);
    if (s) {
        if (n)
            memcpy(s, p, n);
        s[n] = '\0';
    }
    return s;
}

/* Inflates a zstd frame of exactly csz bytes into dsz bytes; the frame's own
 * content size (when recorded) and the result must both match dsz. */
static int inflate_zstd(reader *r, uint64_t at, const unsigned char *src, size_t csz,
                        size_t dsz, char *dst)
{
    unsigned long long fcs = ZSTD_getFrameContentSize(src, csz);
    if (fcs == ZSTD_CONTENTSIZE_ERROR)
        return fail(r, "fatbin entry at offset 0x%llx: payload is not a zstd frame",
                    (unsigned long long)at);
    if (fcs != ZSTD_CONTENTSIZE_UNKNOWN && fcs != dsz)
        return fail(r, "fatbin entry at offset 0x%llx: zstd frame holds %llu bytes but the header "
                    "declares %zu", (unsigned long long)at, fcs, dsz);
    size_t got = ZSTD_decompress(dst, dsz, src, csz);
    if (ZSTD_isError(got))
        return fail(r, "fatbin entry at offset 0x%llx: zstd: %s", (unsigned long long)at,
                    ZSTD_getErrorName(got));
    if (got != dsz)
        return fail(r, "fatbin entry at offset 0x%llx: decompressed to %zu bytes but the header "
                    "declares %zu", (unsigned long long)at, got, dsz);
    return 0;
}

/* Inflates a raw LZ4 block of csz bytes; it must produce exactly dsz bytes. */
static int inflate_lz4(reader *r, uint64_t at, const unsigned char *src, size_t csz,
                       size_t dsz, char *dst)
{
    if (csz > INT_MAX || dsz > INT_MAX)
        return fail(r, "fatbin entry at offset 0x%llx: LZ4 sizes exceed the decoder's range",
                    (unsigned long long)at);
    int got = LZ4_decompress_safe((const char *)src, dst, (int)csz, (int)dsz);
    if (got < 0)
        return fail(r, "fatbin entry at offset 0x%llx: corrupt LZ4 data or wrong declared size",
                    (unsigned long long)at);
    if ((size_t)got != dsz)
        return fail(r, "fatbin entry at offset 0x%llx: decompressed to %d bytes but the header "
                    "declares %zu", (unsigned long long)at, got, dsz);
    return 0;
}

/* Produces an entry's payload bytes (decompressing if the flags say so) in a
 * fresh NUL-terminated buffer; fills e->data, e->size, e->compression and
 * e->compressed_size. `at` is the entry header's file offset. */
static int load_payload(reader *r, uint64_t at, const unsigned char *hdr, const unsigned char *pay,
                        uint64_t stored, ptx_entry *e)
{
    uint64_t flags = rd64(hdr + 0x28), csz = rd32(hdr + 0x10), dsz = rd64(hdr + 0x38);
    int lz4 = (flags & FLAG_LZ4) != 0, zstd = (flags & FLAG_ZSTD) != 0;
    if (lz4 && zstd)
        return fail(r, "fatbin entry at offset 0x%llx: flags 0x%llx claim both LZ4 and zstd",
                    (unsigned long long)at, (unsigned long long)flags);
    if (!lz4 && !zstd) {
        e->compression = PTX_COMPRESS_NONE;
        e->compressed_size = (size_t)stored;
        e->size = (size_t)stored;
        e->data = dup_bytes(pay, (size_t)stored);
        return e->data ? 0 : fail(r, "out of memory copying entry at offset 0x%llx",
                                  (unsigned long long)at);
    }
    if (csz == 0 || csz > stored)
        return fail(r, "fatbin entry at offset 0x%llx: compressed size %llu outside the %llu-byte "
                    "payload", (unsigned long long)at, (unsigned long long)csz,
                    (unsigned long long)stored);
    if (dsz == 0 || dsz > MAX_ENTRY_BYTES)
        return fail(r, "fatbin entry at offset 0x%llx: implausible decompressed size %llu",
                    (unsigned long long)at, (unsigned long long)dsz);
    if (lz4 && dsz > csz * 255 + 16) /* LZ4 cannot expand by more than ~255x */
        return fail(r, "fatbin entry at offset 0x%llx: decompressed size %llu impossible for %llu "
                    "LZ4 bytes", (unsigned long long)at, (unsigned long long)dsz,
                    (unsigned long long)csz);
    char *dst = malloc((size_t)dsz + 1);
    if (!dst)
        return fail(r, "out of memory decompressing entry at offset 0x%llx", (unsigned long long)at);
    int rc = zstd ? inflate_zstd(r, at, pay, (size_t)csz, (size_t)dsz, dst)
                  : inflate_lz4(r, at, pay, (size_t)csz, (size_t)dsz, dst);
    if (rc) {
        free(dst);
        return -1;
    }
    dst[dsz] = '\0';
    e->compression = zstd ? PTX_COMPRESS_ZSTD : PTX_COMPRESS_LZ4;
    e->compressed_size = (size_t)csz;
    e->data = dst;
    e->size = (size_t)dsz;
    return 0;
}

/* Parses a small decimal number at *p (at most 4 digits, so corrupt text
 * cannot overflow), advancing *p; -1 when there is none. */
static long small_number(const char **p)
{
    long v = 0;
    int n = 0;
    while (**p >= '0' && **p <= '9' && n < 4) {
        v = v * 10 + (**p - '0');
        (*p)++;
        n++;
    }
    return n && !(**p >= '0' && **p <= '9') ? v : -1;
}

/* Reads "major.minor" after the first ".version" directive of PTX text, so a
 * PTX entry reports the ISA version the text itself declares. */
static int ptx_text_version(const char *text, unsigned *major, unsigned *minor)
{
    const char *p = strstr(text, ".version");
    if (!p)
        return 0;
    p += 8;
    while (*p == ' ' || *p == '\t')
        p++;
    long a = small_number(&p);
    if (a < 0 || *p++ != '.')
        return 0;
    long b = small_number(&p);
    if (b < 0)
        return 0;
    *major = (unsigned)a;
    *minor = (unsigned)b;
    return 1;
}

/* Checks that the optional option-text descriptor at +0x14 and the region it
 * names both lie inside the entry header, so a corrupt one is caught early. */
static int check_options(reader *r, uint64_t at, const unsigned char *hdr, uint32_t hsize)
{
    uint32_t d = rd32(hdr + 0x14);
    if (d == 0)
        return 0;
    if (d < ENTRY_HEADER_MIN || !fits(d, 8, hsize))
        return fail(r, "fatbin entry at offset 0x%llx: option descriptor offset 0x%x outside its "
                    "%u-byte header", (unsigned long long)at, d, hsize);
    uint32_t off = rd32(hdr + d), len = rd32(hdr + d + 4);
    if (len && (off < ENTRY_HEADER_MIN || !fits(off, len, hsize)))
        return fail(r, "fatbin entry at offset 0x%llx: option text (0x%x, %u bytes) outside its "
                    "%u-byte header", (unsigned long long)at, off, len, hsize);
    return 0;
}

/* Copies the identifier named at +0x20/+0x24 (inside the entry header) up to
 * its first NUL, or "" when absent. */
static int read_name(reader *r, uint64_t at, const unsigned char *hdr, uint32_t hsize, char **name)
{
    uint32_t off = rd32(hdr + 0x20), len = rd32(hdr + 0x24);
    if (len && (off < ENTRY_HEADER_MIN || !fits(off, len, hsize)))
        return fail(r, "fatbin entry at offset 0x%llx: identifier (0x%x, %u bytes) outside its "
                    "%u-byte header", (unsigned long long)at, off, len, hsize);
    const unsigned char *p = hdr + off;
    size_t n = len ? bounded_len(p, len) : 0;
    *name = dup_bytes(p, n);
    return *name ? 0 : fail(r, "out of memory");
}

/* Fills the non-payload fields of e from the entry header. */
static void read_fields(const unsigned char *hdr, size_t fatbin_index, ptx_entry *e)
{
    e->kind = rd16(hdr) == ENTRY_KIND_PTX ? PTX_ENTRY_PTX : PTX_ENTRY_CUBIN;
    e->version_minor = rd16(hdr + 0x18);
    e->version_major = rd16(hdr + 0x1a);
    e->arch = rd32(hdr + 0x1c);
    e->flags = rd64(hdr + 0x28);
    e->fatbin_index = fatbin_index;
}

/* Decodes one entry of kind PTX or ELF whose bounds were already checked, and
 * appends it; PTX text is cut at its terminating NUL. */
static int decode_entry(reader *r, uint64_t at, uint32_t hsize, uint64_t stored, size_t fb)
{
    const unsigned char *hdr = r->buf + at;
    ptx_entry e = {0};
    read_fields(hdr, fb, &e);
    if (check_options(r, at, hdr, hsize) || read_name(r, at, hdr, hsize, &e.name))
        return -1;
    if (load_payload(r, at, hdr, hdr + hsize, stored, &e)) {
        free(e.name);
        return -1;
    }
    if (e.kind == PTX_ENTRY_PTX) {
        e.size = bounded_len(e.data, e.size);
        if (e.compression == PTX_COMPRESS_NONE)
            e.compressed_size = e.size; /* the NUL and padding are not text */
        ptx_text_version(e.data, &e.version_major, &e.version_minor);
    }
    if (push_entry(r, &e)) {
        free(e.name);
        free(e.data);
        return -1;
    }
    return 0;
}

/* Walks the entries of one fatbin occupying [start, end) of the file. */
static int decode_entries(reader *r, uint64_t start, uint64_t end, size_t fb)
{
    uint64_t at = start;
    while (at < end) {
        if (!fits(at, ENTRY_HEADER_MIN, end))
            return fail(r, "truncated fatbin entry header at offset 0x%llx (%llu of 64 bytes)",
                        (unsigned long long)at, (unsigned long long)(end - at));
        const unsigned char *hdr = r->buf + at;
        uint32_t hsize = rd32(hdr + 4);
        uint64_t stored = rd64(hdr + 8);
        if (hsize < ENTRY_HEADER_MIN || !fits(at, hsize, end))
            return fail(r, "fatbin entry at offset 0x%llx: header size %u outside its fatbin",
                        (unsigned long long)at, hsize);
        if (!fits(at + hsize, stored, end))
            return fail(r, "fatbin entry at offset 0x%llx: payload of %llu bytes runs past the "
                        "fatbin end at 0x%llx", (unsigned long long)at,
                        (unsigned long long)stored, (unsigned long long)end);
        uint16_t kind = rd16(hdr);
        if ((kind == ENTRY_KIND_PTX || kind == ENTRY_KIND_ELF) && decode_entry(r, at, hsize, stored, fb))
            return -1;
        at += hsize + stored;
    }
    return 0;
}

/* Decodes the fatbin header at `at` (inside a region ending at `end`), then
 * its entries; *next receives the offset just past it. */
static int decode_fatbin(reader *r, uint64_t at, uint64_t end, uint64_t *next)
{
    if (!fits(at, FATBIN_HEADER_MIN, end))
        return fail(r, "truncated fatbin header at offset 0x%llx (%llu of 16 bytes)",
                    (unsigned long long)at, (unsigned long long)(end - at));
    const unsigned char *h = r->buf + at;
    uint32_t magic = rd32(h);
    if (magic != FATBIN_MAGIC)
        return fail(r, "bad fatbin magic 0x%08x at offset 0x%llx (expected 0x%08x)", magic,
                    (unsigned long long)at, (unsigned)FATBIN_MAGIC);
    uint16_t version = rd16(h + 4), hsize = rd16(h + 6);
    uint64_t body = rd64(h + 8);
    if (version != 1)
        return fail(r, "unsupported fatbin version %u at offset 0x%llx", version,
                    (unsigned long long)at);
    if (hsize < FATBIN_HEADER_MIN || !fits(at, hsize, end))
        return fail(r, "fatbin at offset 0x%llx: header size %u invalid", (unsigned long long)at,
                    hsize);
    if (!fits(at + hsize, body, end))
        return fail(r, "truncated fatbin at offset 0x%llx: declares %llu bytes, %llu available",
                    (unsigned long long)at, (unsigned long long)body,
                    (unsigned long long)(end - at - hsize));
    size_t fb = r->out->nfatbins++;
    *next = at + hsize + body;
    return decode_entries(r, at + hsize, *next, fb);
}

/* True when every byte of [at, end) is zero. */
static int all_zero(const unsigned char *buf, uint64_t at, uint64_t end)
{
    for (; at < end; at++)
        if (buf[at])
            return 0;
    return 1;
}

/* Decodes every fatbin laid back to back in [start, end). Fatbins are sized
 * in multiples of 8 bytes; whole zero 8-byte words between them and a zero
 * tail (section alignment padding) are skipped, anything else must be a
 * fatbin header. */
static int decode_region(reader *r, uint64_t start, uint64_t end)
{
    uint64_t at = start;
    for (;;) {
        while (fits(at, 8, end) && all_zero(r->buf, at, at + 8))
            at += 8;
        if (all_zero(r->buf, at, end))
            return 0;
        uint64_t next = end;
        if (decode_fatbin(r, at, end, &next))
            return -1;
        at = next;
    }
}

/* True when a section name is one nvcc uses for fatbins. */
static int is_fatbin_section(const char *name)
{
    for (size_t i = 0; i < sizeof fatbin_sections / sizeof *fatbin_sections; i++)
        if (strcmp(name, fatbin_sections[i]) == 0)
            return 1;
    return 0;
}

/* Checks one section header (its name and, unless it occupies no file
 * space, its extent: a cut-off section means a truncated file) and, when
 * decode_fatbins is set and it is a fatbin section, decodes its fatbins. */
static int scan_section(reader *r, Elf *elf, size_t shstrndx, Elf_Scn *scn, int decode_fatbins)
{
    GElf_Shdr sh;
    if (!gelf_getshdr(scn, &sh))
        return fail(r, "ELF: cannot read section header %zu: %s", elf_ndxscn(scn), elf_errmsg(-1));
    const char *name = elf_strptr(elf, shstrndx, sh.sh_name);
    if (!name)
        return fail(r, "ELF: section %zu has an invalid name offset 0x%x", elf_ndxscn(scn),
                    (unsigned)sh.sh_name);
    int fatbin = is_fatbin_section(name);
    if (sh.sh_type == SHT_NOBITS)
        return fatbin ? fail(r, "ELF: section %s has no file contents", name) : 0;
    if (!fits(sh.sh_offset, sh.sh_size, r->size))
        return fail(r, "ELF: section %s (offset 0x%llx, %llu bytes) runs past the %zu-byte file",
                    name, (unsigned long long)sh.sh_offset, (unsigned long long)sh.sh_size,
                    r->size);
    if (!fatbin || !decode_fatbins)
        return 0;
    return decode_region(r, sh.sh_offset, sh.sh_offset + sh.sh_size);
}

/* Requires a section header table that lies wholly inside the file: without
 * it the fatbin sections cannot be found, and a truncated file would
 * otherwise look like one that simply has no fatbin. */
static int check_section_table(reader *r, Elf *elf, const GElf_Ehdr *eh)
{
    size_t n;
    if (elf_getshdrnum(elf, &n) != 0)
        return fail(r, "ELF: cannot count sections: %s", elf_errmsg(-1));
    if (n < eh->e_shnum) /* libelf reports none when the table is cut off */
        n = eh->e_shnum;
    if (n == 0 || eh->e_shoff == 0)
        return fail(r, "ELF: no section headers, so no fatbin section can be located");
    if (eh->e_shentsize == 0 || n > r->size ||
        !fits(eh->e_shoff, (uint64_t)n * eh->e_shentsize, r->size))
        return fail(r, "ELF: section header table (offset 0x%llx, %zu entries) runs past the "
                    "%zu-byte file", (unsigned long long)eh->e_shoff, n, r->size);
    return 0;
}

/* Requires the program header table, when present, to lie inside the file. */
static int check_program_table(reader *r, const GElf_Ehdr *eh)
{
    if (eh->e_phnum == 0)
        return 0;
    if (!fits(eh->e_phoff, (uint64_t)eh->e_phnum * eh->e_phentsize, r->size))
        return fail(r, "ELF: program header table (offset 0x%llx, %u entries) runs past the "
                    "%zu-byte file", (unsigned long long)eh->e_phoff, (unsigned)eh->e_phnum,
                    r->size);
    return 0;
}

/* Checks the tables and sections of an opened ELF, then decodes every fatbin
 * section; a cubin (EM_CUDA) is only noted, as it holds no PTX. */
static int scan_elf(reader *r, Elf *elf)
{
    GElf_Ehdr eh;
    if (!gelf_getehdr(elf, &eh))
        return fail(r, "ELF: bad file header: %s", elf_errmsg(-1));
    if (check_section_table(r, elf, &eh) || check_program_table(r, &eh))
        return -1;
    int cubin = eh.e_machine == EM_CUDA_MACHINE;
    size_t shstrndx;
    if (elf_getshdrstrndx(elf, &shstrndx) != 0)
        return fail(r, "ELF: no section name table: %s", elf_errmsg(-1));
    for (Elf_Scn *scn = elf_nextscn(elf, NULL); scn; scn = elf_nextscn(elf, scn))
        if (scan_section(r, elf, shstrndx, scn, !cubin))
            return -1;
    r->out->is_cubin = cubin;
    return 0;
}

/* Opens the buffer with libelf (read-only use; the cast only satisfies the
 * API) and scans it. */
static int read_elf(reader *r)
{
    if (elf_version(EV_CURRENT) == EV_NONE)
        return fail(r, "libelf initialization failed: %s", elf_errmsg(-1));
    Elf *elf = elf_memory((char *)(uintptr_t)r->buf, r->size);
    if (!elf)
        return fail(r, "ELF: cannot open: %s", elf_errmsg(-1));
    int rc = elf_kind(elf) == ELF_K_ELF ? scan_elf(r, elf)
                                         : fail(r, "ELF: not a valid ELF object");
    elf_end(elf);
    return rc;
}

/* True when the buffer starts with the ELF magic. */
static int is_elf(const unsigned char *buf, size_t size)
{
    return size >= 4 && buf[0] == 0x7f && buf[1] == 'E' && buf[2] == 'L' && buf[3] == 'F';
}

/* True when the buffer starts with the fatbin magic. */
static int is_fatbin(const unsigned char *buf, size_t size)
{
    return size >= 4 && rd32(buf) == FATBIN_MAGIC;
}

int ptx_container_is_binary(const unsigned char *buf, size_t size)
{
    return buf && (is_elf(buf, size) || is_fatbin(buf, size));
}

int ptx_container_read(const unsigned char *buf, size_t size, ptx_container *out, char *err,
                       size_t errlen)
{
    if (err && errlen)
        err[0] = '\0';
    if (!out)
        return -1;
    memset(out, 0, sizeof *out);
    reader r = {buf, size, out, 0, err, errlen};
    int rc;
    if (!buf)
        rc = fail(&r, "no input");
    else if (is_elf(buf, size))
        rc = read_elf(&r);
    else if (is_fatbin(buf, size))
        rc = decode_region(&r, 0, size);
    else
        rc = fail(&r, "not an ELF file or fatbin (no magic at offset 0x0)");
    if (rc)
        ptx_container_free(out);
    return rc;
}

/* Orders two PTX entries by (PTX version, arch): positive when a is newer. */
static int newer(const ptx_entry *a, const ptx_entry *b)
{
    if (a->version_major != b->version_major)
        return a->version_major > b->version_major ? 1 : -1;
    if (a->version_minor != b->version_minor)
        return a->version_minor > b->version_minor ? 1 : -1;
    if (a->arch != b->arch)
        return a->arch > b->arch ? 1 : -1;
    return 0;
}

long ptx_container_pick(const ptx_container *c, unsigned arch)
{
    long best = -1;
    if (!c)
        return -1;
    for (size_t i = 0; i < c->nentries; i++) {
        const ptx_entry *e = &c->entries[i];
        if (e->kind != PTX_ENTRY_PTX || (arch && e->arch != arch))
            continue;
        if (best < 0 || newer(e, &c->entries[best]) > 0)
            best = (long)i;
    }
    return best;
}

void ptx_container_free(ptx_container *c)
{
    if (!c)
        return;
    for (size_t i = 0; i < c->nentries; i++) {
        free(c->entries[i].data);
        free(c->entries[i].name);
    }
    free(c->entries);
    memset(c, 0, sizeof *c);
}
