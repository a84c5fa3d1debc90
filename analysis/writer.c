/* writer.c — buffered text output for the analysis reports (writer.h). */
#include "analysis/writer.h"

#include "ir/cfg_export.h"

void ptx_writer_init(ptx_writer *w, FILE *out)
{
    w->out = out;
    w->n = 0;
}

void ptx_writer_flush(ptx_writer *w)
{
    if (w->n)
        fwrite(w->buf, 1, w->n, w->out);
    w->n = 0;
}

/* Strings longer than the buffer go to the FILE directly. */
void ptx_put_bytes(ptx_writer *w, const char *s, size_t n)
{
    if (n > PTX_WRITER_SIZE) {
        ptx_writer_flush(w);
        fwrite(s, 1, n, w->out);
        return;
    }
    ptx_writer_room(w, n);
    memcpy(w->buf + w->n, s, n);
    w->n += n;
}

/* The digits of v, most significant first, into d (10 bytes); returns
 * their count. */
static unsigned decimal(uint32_t v, char *d)
{
    char tmp[10];
    unsigned n = 0;
    do {
        tmp[n++] = (char)('0' + v % 10);
        v /= 10;
    } while (v);
    for (unsigned i = 0; i < n; i++)
        d[i] = tmp[n - 1 - i];
    return n;
}

void ptx_put_u32(ptx_writer *w, uint32_t v)
{
    ptx_writer_room(w, 10);
    w->n += decimal(v, w->buf + w->n);
}

void ptx_put_u32_left(ptx_writer *w, uint32_t v, unsigned width)
{
    ptx_writer_room(w, 10 + (size_t)width);
    unsigned n = decimal(v, w->buf + w->n);
    for (; n < width; n++)
        w->buf[w->n + n] = ' ';
    w->n += n;
}

/* Names without characters to escape (all of them in practice) are copied;
 * any other goes through ptx_json_string, the project's one escaping. */
void ptx_put_json_string(ptx_writer *w, const char *s)
{
    size_t n = 0;
    for (const unsigned char *p = (const unsigned char *)s; *p; p++, n++)
        if (*p == '"' || *p == '\\' || *p < 0x20) {
            ptx_writer_flush(w);
            ptx_json_string(s, w->out);
            return;
        }
    ptx_put_char(w, '"');
    ptx_put_bytes(w, s, n);
    ptx_put_char(w, '"');
}
