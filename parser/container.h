/* container.h — PTX embedded in CUDA binaries.
 *
 * nvcc places device code in a "fatbin": a container of entries, each either
 * PTX text or a cubin (SASS ELF) for one architecture, optionally compressed
 * (LZ4 in older toolkits, zstd by default since CUDA 13). Executables, shared
 * objects and relocatable objects carry fatbins in ELF sections such as
 * .nv_fatbin; a .fatbin file is the container itself; a .cubin is a device
 * ELF with SASS only. This module finds and decodes them without cuobjdump. */
#ifndef SIMTLAB_CONTAINER_H
#define SIMTLAB_CONTAINER_H

#include <stddef.h>
#include <stdint.h>

typedef enum ptx_entry_kind { PTX_ENTRY_PTX = 1, PTX_ENTRY_CUBIN = 2 } ptx_entry_kind;

typedef enum ptx_entry_compression {
    PTX_COMPRESS_NONE = 0, PTX_COMPRESS_LZ4, PTX_COMPRESS_ZSTD
} ptx_entry_compression;

typedef struct ptx_entry {
    ptx_entry_kind kind;
    unsigned arch;          /* SM number: 90 for sm_90 / compute_90 */
    unsigned version_major; /* PTX ISA version of a PTX entry (from its .version), or entry header */
    unsigned version_minor;
    uint64_t flags;         /* raw entry flags from the fatbin header */
    ptx_entry_compression compression;
    size_t compressed_size; /* size as stored (== size when not compressed) */
    char *data;             /* decompressed payload; PTX entries are NUL-terminated text */
    size_t size;            /* payload bytes (without the terminating NUL) */
    char *name;             /* identifier of the entry (e.g. source file) or "" */
    size_t fatbin_index;    /* which fatbin of the file it came from */
} ptx_entry;

typedef struct ptx_container {
    ptx_entry *entries;
    size_t nentries;
    size_t nfatbins;
    int is_cubin;           /* the file itself was a device ELF (cubin) */
} ptx_container;

/* 1 when buf looks like a binary container (ELF or fatbin), 0 for text. */
int ptx_container_is_binary(const unsigned char *buf, size_t size);

/* Decodes every fatbin in buf (ELF executable/shared object/object/cubin, or
 * a raw .fatbin). Returns 0 on success; on failure returns -1 and writes a
 * one-line reason to err (e.g. "truncated fatbin entry at offset 0x1c0").
 * A valid file with no PTX succeeds with only CUBIN entries (or none). */
int ptx_container_read(const unsigned char *buf, size_t size, ptx_container *out,
                       char *err, size_t errlen);

/* Index of the PTX entry to use: the one whose arch equals `arch` when arch
 * is nonzero, else the one with the highest (PTX version, arch). -1 if none. */
long ptx_container_pick(const ptx_container *c, unsigned arch);

void ptx_container_free(ptx_container *c);

#endif
