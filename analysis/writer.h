/* writer.h — buffered text output for the analysis reports.
 *
 * The text and JSON reports write millions of small fields (an access note
 * is a handful of numbers and words); stdio's formatted output costs about a
 * microsecond per call, more than the analyses spend per access. A writer
 * appends strings and decimal numbers to its own buffer and hands the
 * buffer to the FILE when it fills and at ptx_writer_flush. The bytes are
 * those printf would write ("%u", "%-6u", "%s"). */
#ifndef SIMTLAB_WRITER_H
#define SIMTLAB_WRITER_H

#include <stdint.h>
#include <stdio.h>
#include <string.h>

#define PTX_WRITER_SIZE 65536u

typedef struct ptx_writer {
    FILE *out;
    size_t n;                   /* bytes waiting in buf */
    char buf[PTX_WRITER_SIZE];
} ptx_writer;

void ptx_writer_init(ptx_writer *w, FILE *out);
/* Hand the buffered bytes to the FILE (does not fflush it). */
void ptx_writer_flush(ptx_writer *w);

/* Make room for at least `need` bytes (need <= PTX_WRITER_SIZE). */
static inline void ptx_writer_room(ptx_writer *w, size_t need)
{
    if (w->n + need > PTX_WRITER_SIZE)
        ptx_writer_flush(w);
}

static inline void ptx_put_char(ptx_writer *w, char c)
{
    ptx_writer_room(w, 1);
    w->buf[w->n++] = c;
}

/* Append n bytes of s. */
void ptx_put_bytes(ptx_writer *w, const char *s, size_t n);

static inline void ptx_put_str(ptx_writer *w, const char *s)
{
    ptx_put_bytes(w, s, strlen(s));
}

/* v in decimal ("%u"). */
void ptx_put_u32(ptx_writer *w, uint32_t v);
/* v in decimal, left-aligned and padded with blanks to `width` ("%-6u"). */
void ptx_put_u32_left(ptx_writer *w, uint32_t v, unsigned width);
/* s as a JSON string, exactly as ptx_json_string writes it. */
void ptx_put_json_string(ptx_writer *w, const char *s);

#endif
