/* util.h — small allocation and formatting helpers shared by every layer.
 * Allocation failure is not recoverable in simtlab: the helpers report it and
 * end the process with status 2 (internal error, _exit: no exit handlers)
 * instead of returning NULL. Allocations whose size the guest program
 * chooses during a launch are checked where they are made instead. */
#ifndef SIMTLAB_UTIL_H
#define SIMTLAB_UTIL_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <time.h>

void *ptx_xmalloc(size_t n);
void *ptx_xcalloc(size_t n, size_t size);
void *ptx_xrealloc(void *p, size_t n);
char *ptx_strdup(const char *s);
char *ptx_strndup(const char *s, size_t n);

/* Grow array p (elements of elem bytes, capacity *cap) to hold need elements;
 * capacity doubles so appends are amortized O(1). */
void *ptx_grow(void *p, uint32_t *cap, uint64_t need, size_t elem);

/* Make room for `need` elements in array `arr` of capacity `cap` (an
 * lvalue); the common case, room already there, costs one comparison. */
#define PTX_GROW(arr, cap, need)                                                   \
    ((arr) = ((uint64_t)(need) <= (cap) ? (arr)                                    \
                                        : ptx_grow((arr), &(cap), (need), sizeof *(arr))))

char *ptx_format(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
char *ptx_vformat(const char *fmt, va_list ap);

/* NUL bytes ptx_read_file appends after the data (what the lexer needs to
 * scan the buffer in place). */
#define PTX_READ_PADDING 8

/* Read a whole file; returns NULL and sets errno on failure. *size excludes
 * the PTX_READ_PADDING NUL bytes always appended. */
char *ptx_read_file(const char *path, size_t *size);

/* The most bytes ptx_read_file reads from a regular file: 4 GiB; a larger
 * file fails with errno EFBIG before anything is read. */
#define PTX_READ_MAX ((size_t)4 << 30)
/* The most bytes read from a pipe, fifo or terminal, whose size is not
 * known in advance: 1 GiB; past it the read stops with errno ENOBUFS. */
#define PTX_STREAM_READ_MAX ((size_t)1 << 30)

/* ptx_read_file with a limit of max bytes (streams: the smaller of max and
 * PTX_STREAM_READ_MAX). A directory fails with EISDIR, a character device
 * other than a terminal (/dev/zero, /dev/null) with ENODEV, a block device
 * with ENOTBLK, without reading. */
char *ptx_read_file_max(const char *path, size_t max, size_t *size);

/* What to print for errno err after ptx_read_file fails: strerror(err),
 * except for the limits (EFBIG, ENOBUFS) and the kinds of file refused
 * (EISDIR, ENODEV, ENOTBLK), which say so plainly. */
const char *ptx_read_error(int err);

/* Seconds on the host's monotonic clock (intervals of wall time). */
static inline double ptx_wall_seconds(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

/* CPU seconds of this process, all its threads: on a shared machine less
 * disturbed by other jobs than the wall clock. */
static inline double ptx_cpu_seconds(void)
{
    struct timespec t;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

/* Shuffle a[0..n) in place: Fisher-Yates driven by xorshift64* from
 * state x (nonzero). Deterministic: the same x gives the same order (warp
 * permutations in the emulator, random lane permutations in the timing
 * model). */
void ptx_shuffle(uint32_t *a, uint32_t n, uint64_t x);

#endif
