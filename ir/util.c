/* util.c — allocation, formatting and file-reading helpers. */
#include "ir/util.h"

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "ir/arena.h"

/* Out of memory is reported once and ends the process with the
 * internal-error status; callers never see NULL. The process ends with
 * _exit after flushing its output, not exit: it may be anywhere, holding
 * any lock (the CUDA runtime's, while a host thread runs blocks), and exit
 * would run the atexit handlers and destructors (the fatbin unregistration
 * of a CUDA program, the --stats report) that wait on that lock forever. */
static void out_of_memory(size_t n)
{
    fprintf(stderr, "simtlab: out of memory (allocating %zu bytes)\n", n);
    fflush(NULL);
    _exit(2);
}

void *ptx_xmalloc(size_t n)
{
    void *p = malloc(n ? n : 1);
    if (!p)
        out_of_memory(n);
    return p;
}

void *ptx_xcalloc(size_t n, size_t size)
{
    void *p = calloc(n ? n : 1, size ? size : 1);
    if (!p)
        out_of_memory(n * size);
    return p;
}

void *ptx_xrealloc(void *p, size_t n)
{
    void *q = realloc(p, n ? n : 1);
    if (!q)
        out_of_memory(n);
    return q;
}

char *ptx_strdup(const char *s)
{
    return ptx_strndup(s, strlen(s));
}

char *ptx_strndup(const char *s, size_t n)
{
    char *p = ptx_xmalloc(n + 1);
    memcpy(p, s, n);
    p[n] = '\0';
    return p;
}

void *ptx_grow(void *p, uint32_t *cap, uint64_t need, size_t elem)
{
    if (need <= *cap)
        return p;
    uint64_t c = *cap ? *cap : 8;
    while (c < need)
        c *= 2;
    if (c > UINT32_MAX)
        c = UINT32_MAX;
    if (need > c)
        out_of_memory((size_t)need * elem);
    *cap = (uint32_t)c;
    return ptx_xrealloc(p, (size_t)c * elem);
}

char *ptx_vformat(const char *fmt, va_list ap)
{
    va_list ap2;
    va_copy(ap2, ap);
    /* a NULL format gives "" (the check also quiets GCC's sanitizer builds) */
    int n = fmt ? vsnprintf(NULL, 0, fmt, ap2) : 0;
    va_end(ap2);
    if (n < 0)
        n = 0;
    char *s = ptx_xmalloc((size_t)n + 1);
    s[0] = 0;
    if (fmt)
        vsnprintf(s, (size_t)n + 1, fmt, ap);
    return s;
}

char *ptx_format(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    char *s = ptx_vformat(fmt, ap);
    va_end(ap);
    return s;
}

/* Read all of f into a buffer of cap bytes (grown as needed); NULL with errno
 * EFBIG once more than max bytes come, so an endless stream (/dev/zero) stops. */
static char *read_stream(FILE *f, size_t cap, size_t max, size_t *size)
{
    size_t n = 0;
    char *buf = ptx_alloc_large(cap); /* big inputs get huge pages */
    for (;;) {
        if (n > max) {
            free(buf);
            errno = EFBIG;
            return NULL;
        }
        if (n + PTX_READ_PADDING >= cap) { /* room for one byte past max, no more */
            cap = cap > (max + PTX_READ_PADDING + 1) / 2 ? max + PTX_READ_PADDING + 1 : cap * 2;
            buf = ptx_xrealloc(buf, cap);
        }
        size_t got = fread(buf + n, 1, cap - n - PTX_READ_PADDING, f);
        n += got;
        if (got == 0)
            break;
    }
    memset(buf + n, 0, PTX_READ_PADDING);
    *size = n;
    return buf;
}

/* Refuse what is not data to read whole (errno set, false): a directory,
 * a device other than a terminal (/dev/zero never ends, a disk is not
 * PTX). A regular file, a pipe or fifo (`... | simtlab parse /dev/stdin`)
 * and a terminal are read. */
static bool readable_kind(FILE *f, const struct stat *st)
{
    if (S_ISDIR(st->st_mode)) /* fopen succeeds on a directory on Linux */
        errno = EISDIR;
    else if (S_ISCHR(st->st_mode) && !isatty(fileno(f)))
        errno = ENODEV;
    else if (S_ISBLK(st->st_mode))
        errno = ENOTBLK; /* the message says "a block device" */
    else
        return true;
    return false;
}

char *ptx_read_file_max(const char *path, size_t max, size_t *size)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    struct stat st;
    bool sized = fstat(fileno(f), &st) == 0;
    if (sized && !readable_kind(f, &st)) {
        int saved = errno;
        fclose(f);
        errno = saved;
        return NULL;
    }
    bool regular = sized && S_ISREG(st.st_mode);
    if (regular && (uint64_t)st.st_size > max) {
        fclose(f);
        errno = EFBIG;
        return NULL;
    }
    /* a regular file is read into a buffer of its exact size (plus padding);
     * a stream, whose size is unknown, up to the smaller stream limit */
    size_t cap = (regular && st.st_size > 0) ? (size_t)st.st_size + PTX_READ_PADDING + 1 : 1 << 16;
    size_t limit = regular || max < PTX_STREAM_READ_MAX ? max : PTX_STREAM_READ_MAX;
    char *buf = read_stream(f, cap, limit, size);
    int err = buf ? ferror(f) : 0;
    int saved = errno;
    fclose(f);
    if (err) {
        free(buf);
        errno = EIO;
        return NULL;
    }
    errno = !buf && saved == EFBIG && !regular ? ENOBUFS : saved;
    return buf;
}

char *ptx_read_file(const char *path, size_t *size)
{
    return ptx_read_file_max(path, PTX_READ_MAX, size);
}

const char *ptx_read_error(int err)
{
    switch (err) {
    case EFBIG: return "larger than 4 GiB, the most simtlab reads";
    case ENOBUFS: return "the pipe or terminal sent more than 1 GiB, the most simtlab reads from a stream "
                         "(save the data to a file: files are read up to 4 GiB)";
    case EISDIR: return "is a directory, not a PTX or CUDA binary file";
    case ENODEV: return "is a character device (such as /dev/zero), not a file: give a regular file, or pipe "
                        "the data to /dev/stdin";
    case ENOTBLK: return "is a block device, not a PTX or CUDA binary file";
    default: return strerror(err);
    }
}

void ptx_shuffle(uint32_t *a, uint32_t n, uint64_t x)
{
    for (uint32_t i = n; i > 1; i--) {
        x ^= x >> 12;
        x ^= x << 25;
        x ^= x >> 27;
        uint32_t j = (uint32_t)(((x * 0x2545F4914F6CDD1Dull) >> 32) % i);
        uint32_t t = a[i - 1];
        a[i - 1] = a[j];
        a[j] = t;
    }
}
